#!/bin/sh
# test_patch_kinds.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - patch-based inference on the
# first stages real CNNs have (issue 16): a uint8 or float32 input with a
# QUANTIZE head, a flat input RESHAPEd to the image, int8 or uint8 with a
# QUANTIZE first (the stage starts after the operators no patch can run), SqueezeNet fire modules (parallel 1x1 / 3x3 branches joined
# by CONCATENATION) between max pools, ResNet blocks with ADD, average and max
# pools inside the stage, detector necks (a 2x RESIZE_NEAREST_NEIGHBOR or
# RESIZE_BILINEAR upsample joined to an earlier map by CONCATENATION: the
# explicit stages run the resize on patches), explicit PADs read by strided
# convolutions, stages that end with a second tensor crossing the cut (the
# neck's skip map after 4 or 5 operators, a residual block cut inside: that
# tensor is stored whole too), an early side branch ending in a RESHAPE (a
# second output: --patch auto runs it after the stage).  For each: outputs with `--patch auto` and with
# explicit stages byte-identical to the layer-by-layer build (which matches
# TFLite Micro kernel for kernel), and `--patch auto` below layer-by-layer
# where the input tensor does not dominate the peak.
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchkinds-XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/patch_lib.sh"

# kind, arena bound (0: below layer by layer; same: at most it), explicit stages
for spec in "uint8_head 0 5:2x3" "float_head same 3:2x2" \
            "fire 0 6:2x2 10:3x3" "residual 0 5:4x4" "avgpool 0 2:3x3 4:4x4" \
            "neck 0 9:3x3 4:4x4 5:3x2" "neck_bilinear 0 9:2x2" "pad_conv 0 9:4x4" \
            "residual 0 3:3x3" "side_branch 0 2:4x4" "flat_head 23000 8:3x3" \
            "flat_uint8_head 23000 6:2x3"; do
  set -- $spec
  kind=$1 bound=$2
  shift 2
  patch_kind "$kind" "$bound" "$@"
done
# --sram-limit drives the search: layer by layer (43040 B) does not fit
# 30000, so the fastest patch plan that fits is taken; it is exact; below the
# smallest plan reachable, one line names it.
m=$work/fire.tflite
a=$(arena "$m" "--sram-limit 30000")
[ -n "$a" ] && [ "$a" -le 30000 ] || bad "fire --sram-limit 30000: arena '$a'"
"$te" info "$m" --sram-limit 30000 | grep -q "^patch stage:" || bad "fire --sram-limit 30000: no patch stage"
"$te" run "$m" --sram-limit 20000 --input "$work/fire.bin" -o "$work/fire.limit" >/dev/null &&
  cmp -s "$work/fire.plain/output_0.bin" "$work/fire.limit/output_0.bin" ||
  bad "fire --sram-limit 20000: output differs"
if "$te" info "$m" --sram-limit 10000 > "$work/err" 2>&1; then bad "fire --sram-limit 10000 accepted"; fi
[ "$(wc -l < "$work/err")" = 1 ] && grep -q "smallest patch-based plan found" "$work/err" ||
  bad "fire --sram-limit 10000: $(cat "$work/err")"
# The whole real-size networks of bench/patch_zoo.sh (MobileNetV1/V2 224 with
# a uint8 input, SqueezeNet 1.1, a landmark net, YOLO-LC 256, a ResNet)
# compile, and --patch auto keeps the arena it reaches today on each: a
# guard on issue 16's measure (docs/patch-zoo.md), info only (their hundreds
# of millions of MACs are not run under the sanitizers).
# kind, layer-by-layer arena, most arena --patch auto may take
for spec in "mobilenet_v1_224_uint8 1204224 267328" "mobilenet_v2_224_uint8 1404928 188160" \
            "squeezenet_224 939072 209952" "hand_224 652288 332624" \
            "yolo_lc_256 458752 205568" "resnet_128 268880 137840"; do
  set -- $spec
  kind=$1 m=$work/$1.tflite
  "$mk" "$kind" "$m" "$work/$kind.bin" || { bad "$kind: te_mkpatchnet"; continue; }
  plain=$(arena "$m" "") auto=$(arena "$m" "--patch auto")
  if [ -z "$plain" ] || [ -z "$auto" ]; then bad "$kind: info --json"; continue; fi
  [ "$plain" = "$2" ] || bad "$kind: layer by layer $plain, expected $2"
  [ "$auto" -le "$3" ] || bad "$kind: --patch auto $auto, above $3"
  echo "$kind: arena $plain layer by layer, $auto with --patch auto"
done
[ "$fail" = 0 ] && echo "PASS patch stages with input heads, fire modules, residuals and pools"
exit $fail
