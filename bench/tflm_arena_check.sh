#!/bin/sh
# tflm_arena_check.sh [BUILD] [SHARED_DIR] - calibration of te_tflm_arena:
# for every shared model (models/NAME.tflite with golden/NAME/run_0.json)
# and conformance model (conformance/NAME.tflite with conformance/NAME/
# meta.json) that the compiler accepts (`tinyengine info` succeeds), a
# markdown table of TFLite Micro's measured arena_used_bytes, the estimate
# and their ratio; then the geometric mean, min and max of estimate/TFLM
# over the models whose TFLM arena exceeds 64 KiB.  Defaults: build/,
# ../shared beside the project.
#   sh bench/tflm_arena_check.sh build > docs/tflm-arena-estimate.md
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shared=${2:-$root/../shared}
te=$build/tinyengine
est=$build/te_tflm_arena
. "$root/bench/bench_lib.sh"
bench_need tflm_arena_check.sh "$te" "$est"
bench_workdir tflmest

cat <<'HEAD'
# TFLite Micro arena estimate (te_tflm_arena)

`te_tflm_arena MODEL.tflite [--json]` estimates the `arena_used_bytes` TensorFlow Lite
Micro (x86-64 host build, reference kernels) reports after `AllocateTensors`, so that
our arena can be compared with TFLM's on models nobody ran TFLM on. The estimate is
head + tail. The head restates TFLM's memory planning: every tensor without constant
data that is not a variable is a buffer rounded up to 16 bytes, alive from the
operator that first writes it (model inputs and outputs: from the start) to the last
operator that reads it (outputs: to the end), plus the scratch buffers TFLM's
reference kernels request (TRANSPOSE_CONV, MEAN/SUM, REDUCE_MAX/MIN, SVDF, LSTM) for
their operator's duration; TFLM's greedy planner (largest first, lowest offset that
overlaps no live placed buffer) places them. The tail (persistent records) is 24
bytes per tensor, a record per model input/output, the per-channel multiplier and
shift arrays of the convolutions (and of per-channel FULLY_CONNECTED), variable
tensors, int16 SOFTMAX tables, and a fixed part plus a per-operator-kind constant
(node record, options, kernel op data) calibrated on the shared models below
(`bench/tflm_tail.c`): the single-operator conformance models fix each kind to 16
bytes, the multi-operator ones the last 8. So the small models here are not an
independent test of the tail; the big ones mostly test the head, which is derived,
not fitted. Operators with no model here get a default. Models with subgraphs (IF,
WHILE, CALL_ONCE) or resource variables are not estimated, nor is whether TFLM has
a kernel for every operator at all.

Regenerate: `sh bench/tflm_arena_check.sh build > docs/tflm-arena-estimate.md`
(TFLM values: `../shared/golden/NAME/run_0.json`, `../shared/conformance/NAME/meta.json`).

| model | TFLM arena_used_bytes | estimate | estimate/TFLM |
|---|---:|---:|---:|
HEAD

: > "$work/big"
row() {  # row NAME MODEL TFLM_BYTES
    if ! "$te" info "$2" --json > "$work/info.json" 2>/dev/null; then
        return 0
    fi
    "$est" "$2" --json > "$work/est.json" 2>/dev/null || true
    e=$(num arena_bytes "$work/est.json")
    if [ -z "$e" ]; then
        echo "| $1 | $3 | not estimated | |"
        return 0
    fi
    r=$(awk -v a="$e" -v b="$3" 'BEGIN { printf "%.4f", a / b }')
    echo "| $1 | $3 | $e | $r |"
    if [ "$3" -gt 65536 ]; then echo "$1 $r" >> "$work/big"; fi
}

# rows DIR RECORD: a row per DIR/*.tflite with TFLM's record (a path with
# NAME for the model's name) beside it.
rows() {
    for model in "$1"/*.tflite; do
        name=$(basename "$model" .tflite)
        record=$(echo "$2" | sed "s|NAME|$name|")
        [ -f "$record" ] || continue
        row "$name" "$model" "$(num arena_used_bytes "$record")"
    done
}
rows "$shared/models" "$shared/golden/NAME/run_0.json"
rows "$shared/conformance" "$shared/conformance/NAME/meta.json"

echo
awk '
    { n++; s += log($2); if (n == 1 || $2 < lo) { lo = $2; lon = $1 } if (n == 1 || $2 > hi) { hi = $2; hin = $1 } }
    END {
        if (!n) { print "No model with a TFLM arena above 64 KiB."; exit }
        printf "Models whose TFLM arena exceeds 64 KiB: %d; estimate/TFLM geometric mean %.4f, min %.4f (%s), max %.4f (%s).\n", n, exp(s / n), lo, lon, hi, hin
    }' "$work/big"
