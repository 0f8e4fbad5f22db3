#!/bin/sh
# check_variants.sh [TINYENGINE] [SHARED_DIR] - does the profiler predict the
# kernel variant the generated code really calls?  For every conformance and
# shared model and every target, compares the "kernel" of each layer of
# `tinyengine profile --json` with the first runtime function called in that
# operator's block of the generated NAME.c (te_X_inl, an always-inlined copy
# of kernel te_X, counts as te_X).  Prints the mismatches; exit 1 if
# any.  Needs no QEMU (a minute or so).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
te=${1:-$root/build/tinyengine}
shared=${2:-$root/../shared}
work=$(mktemp -d "${TMPDIR:-/tmp}/te-variants-XXXXXX")
trap 'rm -rf "$work"' EXIT
bad=0 n=0
for m in "$shared"/conformance/*.tflite "$shared"/models/*.tflite; do
  for t in generic cortex-m0plus cortex-m4 cortex-m7; do
    "$te" compile "$m" --target "$t" --name m -o "$work" >/dev/null 2>&1 || continue
    "$te" profile --json --target "$t" "$m" >"$work/p.json" 2>/dev/null || continue
    n=$((n+1))
    # predicted: "index kernel" per layer; actual: first te_*( call after "/* op N: "
    sed -n 's/.*{"index": \([0-9]*\), "step": [0-9]*, "op": "[A-Z0-9_]*", "kernel": "\([a-z0-9_]*\)".*/\1 \2/p' \
      "$work/p.json" >"$work/pred.txt"
    awk '/^ *\/\* op [0-9]+: / { if (op != "") print op, (k == "" ? "view" : k); op = $3; sub(":", "", op); k = ""; next }
         /TE_LAYER_DONE/ { if (op != "") print op, (k == "" ? "view" : k); op = ""; next }
         op != "" && k == "" && match($0, /te_[a-z0-9_]+\(/) { k = substr($0, RSTART, RLENGTH - 1); sub(/_inl$/, "", k) }' \
      "$work/m.c" | sort -u >"$work/real.txt"
    while read -r idx kern; do
      real=$(awk -v i="$idx" '$1 == i { print $2; exit }' "$work/real.txt")
      if [ -n "$real" ] && [ "$real" != "$kern" ]; then
        echo "$(basename "$m" .tflite) --target $t op $idx: predicted $kern, the code calls $real"
        bad=$((bad+1))
      fi
    done <"$work/pred.txt"
  done
done
echo "$n model/target pairs, $bad mismatching layers"
[ "$bad" -eq 0 ]
