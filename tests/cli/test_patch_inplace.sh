#!/bin/sh
# test_patch_inplace.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - operators
# inside a patch stage run in place on their per-patch buffers (the micro
# plan, src/plan/patch_inplace.c): a stage of residual depthwise / 1x1 / ADD
# blocks, a strided depthwise, a narrowing 1x1 and a max pool
# (te_mkpatchnet inplace_chain) needs less working memory per patch than with
# a buffer for every output (the figures main reached before: 15424 B for
# 10 operators in 4x4 patches, 44112 B in 2x2), and its outputs stay
# byte-identical to layer by layer on every target's kernels (portable,
# Cortex-M4 DSP, AVX2), with explicit grids and --patch auto.  hand_224
# (depthwise-separable blocks at 112x112) checks the same on depthwise
# convolutions in place with their scratch.
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchinplace-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
per_patch() { "$te" info "$1" --patch "$2" | sed -n 's/^patch stage: .*patches, \([0-9]*\) bytes per patch.*/\1/p'; }

m=$work/chain.tflite in=$work/chain.bin
"$mk" inplace_chain "$m" "$in" || { echo "FAIL te_mkpatchnet"; exit 1; }
# grid, most bytes per patch, the bytes main took (a slot for every output)
for spec in "10:4x4 11824 15424" "10:2x2 33296 44112"; do
  set -- $spec
  b=$(per_patch "$m" "$1")
  if [ -z "$b" ]; then bad "--patch $1: no patch stage"; continue; fi
  [ "$b" -le "$2" ] && [ "$b" -lt "$3" ] || bad "--patch $1: $b bytes per patch (at most $2, main $3)"
  echo "inplace_chain --patch $1: $b bytes per patch (main $3)"
done
for target in "" "--target cortex-m4" "--target x86-64-v3"; do
  "$te" run "$m" $target --input "$in" -o "$work/plain" >/dev/null || { bad "run $target"; continue; }
  for p in 10:4x4 10:2x2 9:3x3 auto; do
    rm -rf "$work/p"
    if ! "$te" run "$m" $target --patch "$p" --input "$in" -o "$work/p" >/dev/null; then
      bad "run $target --patch $p"; continue
    fi
    for o in "$work/plain"/output_*.bin; do
      cmp -s "$o" "$work/p/$(basename "$o")" ||
        bad "$target --patch $p: $(basename "$o") differs from layer by layer"
    done
  done
done
m=$work/hand.tflite in=$work/hand.bin
"$mk" hand_224 "$m" "$in" || { echo "FAIL te_mkpatchnet hand_224"; exit 1; }
b=$(per_patch "$m" 14:4x3)
[ -n "$b" ] && [ "$b" -lt 286816 ] || bad "hand_224 --patch 14:4x3: '$b' bytes per patch (main 286816)"
echo "hand_224 --patch 14:4x3: $b bytes per patch (main 286816)"
"$te" run "$m" --input "$in" -o "$work/hplain" >/dev/null || bad "hand_224 run"
"$te" run "$m" --patch 14:4x3 --input "$in" -o "$work/hp" >/dev/null || bad "hand_224 run --patch"
cmp -s "$work/hplain/output_0.bin" "$work/hp/output_0.bin" || bad "hand_224 --patch 14:4x3 differs"
[ "$fail" = 0 ] && echo "PASS operators in place inside patch stages"
exit $fail
