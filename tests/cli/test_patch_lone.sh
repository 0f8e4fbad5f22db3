#!/bin/sh
# test_patch_lone.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - a patch stage
# later in the network (issue 16): when no first stage lowers the arena, as in
# an encoder-decoder whose skips live to the end and whose peak is the last
# upsampled map (FastDepth, U-Net, segmentation heads), `--patch auto` runs the
# operators around the layer-by-layer peak step patch by patch, reading the
# tensors made before them whole (src/plan/patch_search.c, search_lone).
#  decoder (te_mkpatchnet: three strided blocks, three upsampling blocks with
#    additive skips back to 64x64, a 1x1 head): outputs with `--patch auto`
#    and under `--sram-limit` byte-identical to the layer-by-layer build and
#    the arena below it; `info` says "N operators from step F", `info --json`
#    and `profile --json` give "from_step", `--explain` the "lone stage" line;
#    `--patch K@F:HxW` (explicit lone stages, auto's among them: its arena)
#    byte-identical too, one line for a stage past the model's end.
#  The conformance U-Net (../shared, when present): byte- and layer-identical
#    to TFLite Micro with `--patch auto`, a lone stage, the arena lower.
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 src=$2 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchlone-XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/patch_lib.sh"

patch_kind decoder 40000 2@15:2x2 3@12:4x4 16@1:2x2
m=$work/decoder.tflite in=$work/decoder.bin
# the stage auto chose, pinned as --patch K@F:HxW: the same arena
j=$("$te" info "$m" --json --patch auto)
pin=$(echo "$j" | sed -n 's/.*"patch": {"ops": \([0-9]*\), "grid": \[\([0-9]*\), \([0-9]*\)\].*"from_step": \([0-9]*\).*/\1@\4:\2x\3/p')
a=$(echo "$j" | sed -n 's/^ *"arena_bytes": \([0-9]*\),.*/\1/p')
[ -n "$pin" ] && [ "$(arena "$m" "--patch $pin")" = "$a" ] ||
  bad "decoder: --patch '$pin' (auto's stage) does not reach auto's arena $a"
msg=$("$te" info "$m" --patch 6@99:2x2 2>&1 >/dev/null)
case $msg in
  *"the 6 operators from step 99 cannot run patch by patch"*) ;;
  *) bad "--patch 6@99:2x2: '$msg'" ;;
esac
"$te" info "$m" --patch auto | grep -q "^patch stage: *[0-9]* operators from step [1-9]" ||
  bad "decoder: info does not name a stage from a later step"
"$te" info "$m" --json --patch auto | grep -q '"patch": {"ops": [0-9]*,.*"from_step": [1-9]' ||
  bad "decoder: info --json has no from_step"
"$te" profile "$m" --json --patch auto | grep -q '"from_step": [1-9]' ||
  bad "decoder: profile --json has no from_step"
"$te" info "$m" --patch auto --explain 2>&1 >/dev/null | grep -q "^patch search: lone stage: " ||
  bad "decoder: --explain has no lone stage line"
plain=$(arena "$m" "")
"$te" run "$m" --sram-limit 40000 --input "$in" -o "$work/limit" >/dev/null &&
  cmp -s "$work/decoder.plain/output_0.bin" "$work/limit/output_0.bin" ||
  bad "decoder --sram-limit 40000 (layer by layer $plain): output differs"

conf=$src/../shared/conformance
if [ -f "$conf/unet_tiny_32.tflite" ]; then
  TE_FLAGS="--patch auto" sh "$src/tests/golden/check_model.sh" "$te" "$conf/unet_tiny_32.tflite" \
    "$conf/unet_tiny_32" "$src" >"$work/unet.txt" 2>&1 || { cat "$work/unet.txt"; bad "unet_tiny_32"; }
  "$te" info "$conf/unet_tiny_32.tflite" --json --patch auto | grep -q '"from_step"' ||
    bad "unet_tiny_32: no lone stage"
  a=$(arena "$conf/unet_tiny_32.tflite" "--patch auto") p=$(arena "$conf/unet_tiny_32.tflite" "")
  [ "$a" -lt "$p" ] || bad "unet_tiny_32: --patch auto $a not below layer by layer $p"
  echo "unet_tiny_32: arena $p layer by layer, $a with --patch auto"
elif [ "${CI:-}" = true ]; then
  bad "no $conf/unet_tiny_32.tflite (CI=true)"
fi
[ "$fail" = 0 ] && echo "PASS a lone patch stage later in the network"
exit $fail
