#!/bin/sh
# test_patch_ops.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - the operators real
# first stages hold besides convolutions and pools run patch by patch:
#  eltwise: SUB of two maps, PRELU with a per-channel alpha and with one per
#    pixel and channel, ReLU6 written as MAXIMUM / MINIMUM with scalars, MAXIMUM
#    of two maps, SQUARED_DIFFERENCE with a per-channel constant (MediaPipe,
#    MTCNN);
#  focus: YOLOv5's focus layer (STRIDED_SLICEs of every second row and column,
#    CONCATENATION), a CSP route group (a channel SLICE), MIRROR_PAD before a
#    VALID convolution, SPACE_TO_DEPTH;
#  float_pool: a float32 detour inside the stage (DEQUANTIZE, NEG, L2_POOL_2D,
#    QUANTIZE);
#  select: GREATER of two maps (a bool map), SELECT_V2 by it, ADD_N, DIV by a
#    per-channel constant;
#  blaze: BlazeFace / BlazePalm blocks, whose shortcut a PAD of the channel
#    axis widens before the ADD (stages ending after a block, strided or not).
#  se: MobileNetV3-style HARD_SWISH and squeeze-and-excitation (a global
#    MEAN, LOGISTIC, MUL): the stage ends at the map the MEAN reads.
# For each: outputs with `--patch auto` and with explicit stages that hold those
# operators byte-identical to the layer-by-layer build, and `--patch auto`
# below layer by layer.  A route group written as SPLIT: test_patch_split.sh.
set -u
export TE_CFLAGS="${TE_CFLAGS:--O0}" # quickest to build; optimised builds run under QEMU
te=$1 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchops-XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/patch_lib.sh"

# kind, explicit stages to try (each holds the operators under test)
for spec in "eltwise 10:3x3 11:4x4 5:2x2" "focus 12:2x2 13:3x3 5:4x4" "float_pool 6:2x2 5:3x3" \
            "select 6:3x3 7:4x4 4:2x2" "blaze 13:2x2 17:4x4" \
            "se 3:2x2"; do
  set -- $spec
  kind=$1
  shift
  patch_kind "$kind" 0 "$@"
done

[ "$fail" = 0 ] && echo "PASS element-wise, slicing, mirror padding, space-to-depth, select, channel padding, hard-swish and L2 pool operators on patches"
exit $fail
