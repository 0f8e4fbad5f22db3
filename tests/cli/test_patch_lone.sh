#!/bin/sh
# test_patch_lone.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - a patch stage
# later in the network (issue 16): where no first stage helps, as in an
# encoder-decoder whose skips live to the end and whose peak is the last
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
#  deconv (a decoder of TRANSPOSE_CONVs: 3x3 and 2x2 stride 2, SAME and
#    VALID, 1x1 stride 2 whose odd rows no tap reaches): TRANSPOSE_CONV runs on
#    patches; `--patch auto` and explicit stages on uneven grids byte-identical.
#  From ../shared (when present): the conformance TRANSPOSE_CONVs on 2x2 and
#    3x5 grids, the U-Net (whose decoder's TRANSPOSE_CONVs its stage now holds)
#    and se_hswish_net_32 (a lone stage) with `--patch auto`, byte- and
#    layer-identical to TFLite Micro, the arena below layer by layer.
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

patch_kind deconv 0 3@2:3x3 2@3:4x4 1@4:5x3 5:4x4

conf=$src/../shared/conformance
for m in transpose_conv_2x2_s2_valid_c16_8 transpose_conv_3x3_s2_same_c8_4; do
  [ -f "$conf/$m.tflite" ] || continue
  for p in 1:2x2 1:3x5; do
    TE_FLAGS="--patch $p" sh "$src/tests/golden/check_model.sh" "$te" "$conf/$m.tflite" "$conf/$m" \
      "$src" >"$work/tc.txt" 2>&1 || { cat "$work/tc.txt"; bad "$m --patch $p"; }
  done
done
# the conformance U-Net (its decoder's TRANSPOSE_CONVs now in its stage) and a
# MobileNetV3-style net whose squeeze-and-excitation leaves only a lone stage
for spec in "unet_tiny_32 any" "se_hswish_net_32 lone"; do
  set -- $spec
  m=$1
  if [ ! -f "$conf/$m.tflite" ]; then
    [ "${CI:-}" = true ] && bad "no $conf/$m.tflite (CI=true)"
    continue
  fi
  TE_FLAGS="--patch auto" sh "$src/tests/golden/check_model.sh" "$te" "$conf/$m.tflite" "$conf/$m" \
    "$src" >"$work/conf.txt" 2>&1 || { cat "$work/conf.txt"; bad "$m --patch auto"; }
  if [ "$2" = lone ]; then
    "$te" info "$conf/$m.tflite" --json --patch auto | grep -q '"from_step"' || bad "$m: no lone stage"
  fi
  a=$(arena "$conf/$m.tflite" "--patch auto") p=$(arena "$conf/$m.tflite" "")
  [ "$a" -lt "$p" ] || bad "$m: --patch auto $a not below layer by layer $p"
  echo "$m: arena $p layer by layer, $a with --patch auto"
done
[ "$fail" = 0 ] && echo "PASS a lone patch stage later in the network"
exit $fail
