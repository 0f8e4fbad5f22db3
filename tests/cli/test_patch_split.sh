#!/bin/sh
# test_patch_split.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - a channel SPLIT
# inside a patch stage (issue 16): when patches may be used, each output of a
# SPLIT / SPLIT_V whose outputs are gathered copies is one SLICE of the same
# input (src/passes/pass_split_slices.c), so the stage runs through it.
#  split_route (a YOLOv4-tiny route group written as SPLIT): outputs with
#    `--patch auto` and with explicit stages holding the SPLIT byte-identical to
#    the layer-by-layer build, `--patch auto` below layer by layer; the layers
#    dumped under `--sram-limit` (slices, run layer by layer) are the SPLIT's
#    own: op002_0.bin and op002_1.bin, equal to the plain build's; info --json
#    marks those SLICE rows "part_of": {"op": "SPLIT", "output": k}.
#  yolov8n_c2f_256 (YOLOv8n's strided convolutions and C2f blocks at 256x256):
#    `--patch auto` byte-identical and its arena below layer by layer and below
#    the stated bound (the stage used to end at the first SPLIT: 393216).
#  The conformance SPLIT and SPLIT_V along the channels (../shared) with a
#    stage of their first slice: byte- and layer-identical to TFLite Micro.
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 src=$2 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchsplit-XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/patch_lib.sh"

# kind, arena bound with --patch auto (0: none), explicit stages to try
patch_kind split_route 0 8:3x3 8:10x4
patch_kind yolov8n_c2f_256 240000

# The slices' layers are named as the SPLIT's outputs (op 2 of split_route).
m=$work/split_route.tflite in=$work/split_route.bin
"$te" run "$m" --input "$in" -o "$work/d.plain" --dump-layers "$work/l.plain" >/dev/null &&
  "$te" run "$m" --sram-limit 1M --input "$in" -o "$work/d.sram" --dump-layers "$work/l.sram" \
    >/dev/null || bad "split_route: run --dump-layers"
for f in op002_0.bin op002_1.bin; do
  [ -f "$work/l.sram/$f" ] || bad "split_route: --sram-limit dumped no $f"
done
[ "$(ls "$work/l.plain")" = "$(ls "$work/l.sram")" ] || bad "split_route: other layer files dumped"
for f in "$work"/l.plain/*.bin; do
  cmp -s "$f" "$work/l.sram/$(basename "$f")" || bad "split_route: layer $(basename "$f") differs"
done
# info --json marks each slice as an output of the model's SPLIT (op 2)
"$te" info "$m" --json --sram-limit 1M > "$work/split.json" || bad "split_route: info --json"
for k in 0 1; do
  grep -q "\"index\": 2, \"op\": \"SLICE\".*\"part_of\": {\"op\": \"SPLIT\", \"output\": $k}" \
    "$work/split.json" || bad "split_route: info --json has no SLICE row part_of SPLIT output $k"
done
# TFLite Micro's goldens (layers included) of a channel SPLIT and SPLIT_V run
# on patches: a stage of their first slice (with ../shared only).
conf=$src/../shared/conformance
for n in split_channels_3_c12 split_v_channels_3_5_8_c16; do
  [ -d "$conf/$n" ] || continue
  if TE_FLAGS="--patch 1:2x2" sh "$src/tests/golden/check_model.sh" "$te" "$conf/$n.tflite" \
       "$conf/$n" "$src" >"$work/golden.txt" 2>&1; then
    echo "$n --patch 1:2x2: $(tail -1 "$work/golden.txt")"
  else
    bad "$n --patch 1:2x2: $(tail -3 "$work/golden.txt")"
  fi
done
[ "$fail" = 0 ] && echo "PASS channel SPLITs run inside patch stages as slices"
exit $fail
