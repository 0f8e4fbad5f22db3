#!/bin/sh
# test_patch_zoo.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - the whole
# real-size networks of bench/patch_zoo.sh (te_mkpatchnet's MobileNetV1/V2
# 224 with a uint8 input, SqueezeNet 1.1, a landmark net, YOLO-LC 256, a
# ResNet) compile, and `--patch auto` keeps the arena it reaches today on
# each: a guard on issue 16's measure (docs/patch-zoo.md), not a timing.
# Their outputs are not run here (hundreds of millions of MACs under the
# sanitizers); cli.patch_kinds runs the same stage kinds byte for byte.
set -u
te=$1 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchzoo-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
arena() { "$te" info "$1" --json $2 | sed -n 's/^ *"arena_bytes": \([0-9]*\),.*/\1/p'; }

# kind, layer-by-layer arena, most arena --patch auto may take
for spec in "mobilenet_v1_224_uint8 1204224 267328" "mobilenet_v2_224_uint8 1404928 200704" \
            "squeezenet_224 939072 209952" "hand_224 752640 452672" \
            "yolo_lc_256 458752 205568" "resnet_128 393216 196608"; do
  set -- $spec
  kind=$1 plain_want=$2 auto_most=$3
  m=$work/$kind.tflite
  "$mk" "$kind" "$m" "$work/$kind.bin" || { bad "$kind: te_mkpatchnet"; continue; }
  plain=$(arena "$m" "") auto=$(arena "$m" "--patch auto")
  if [ -z "$plain" ] || [ -z "$auto" ]; then bad "$kind: info --json"; continue; fi
  [ "$plain" = "$plain_want" ] || bad "$kind: layer by layer $plain, expected $plain_want"
  [ "$auto" -le "$auto_most" ] || bad "$kind: --patch auto $auto, above $auto_most"
  echo "$kind: arena $plain layer by layer, $auto with --patch auto"
done
[ "$fail" = 0 ] && echo "PASS real-size networks keep their --patch auto arenas"
exit $fail
