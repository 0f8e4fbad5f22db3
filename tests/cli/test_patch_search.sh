#!/bin/sh
# test_patch_search.sh TINYENGINE SRC_DIR - search quality of `--patch auto`
# (issue 16): on every shared real model its arena is never above layer by
# layer, and at most the arena of each explicit stage K:NxN tried here whose
# extra instructions stay within --max-recompute (200% of the model's by
# default) and recomputed MACs within 20% of the model's (the search's
# bound on the clones, TE_PATCH_MAX_EXTRA_MACS); `info --json` gives them.  The stages tried: around the one auto
# chose (K-1, K, K+1), or two short ones, 2x2 .. 4x4 grids (square: the
# grids the search tries).  `info --json` only (no code generation), so it
# stays quick under the sanitizers.  Skipped (77) without ../shared, a
# failure then when CI=true.
set -u
te=$1 src=$2
models=$src/../shared/models
if [ ! -d "$models" ]; then
  if [ "${CI:-}" = true ]; then echo "ERROR: no $models (CI=true)"; exit 1; fi
  echo "SKIP: no $models"; exit 77
fi
fail=0 tried=0
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" | head -1; }
for m in "$models"/*.tflite; do
  n=$(basename "$m" .tflite)
  plain=$("$te" info "$m" --json 2>/dev/null | num arena_bytes)
  [ -n "$plain" ] || continue # a model the compiler refuses
  j=$("$te" info "$m" --json --patch auto) || { echo "FAIL $n: --patch auto"; fail=1; continue; }
  auto=$(echo "$j" | num arena_bytes) macs=$(echo "$j" | num macs) k=$(echo "$j" | sed -n 's/.*"patch": {"ops": \([0-9]*\).*/\1/p')
  [ "$auto" -le "$plain" ] || { echo "FAIL $n: --patch auto $auto above layer by layer $plain"; fail=1; }
  if [ -n "$k" ]; then trials="$((k - 1)):2x2 $k:3x3 $((k + 1)):4x4"
  else trials="2:2x2 6:3x3"; fi
  for t in $trials; do
    [ "${t%%:*}" -ge 1 ] || continue
    j=$("$te" info "$m" --json --patch "$t" 2>/dev/null) || continue # no cut there
    tried=$((tried + 1))
    a=$(echo "$j" | num arena_bytes)
    extra=$(echo "$j" | num extra_instructions_estimate)
    whole=$(echo "$j" | num instructions_layer_by_layer_estimate)
    [ "$extra" -le $((2 * whole)) ] || continue # beyond --max-recompute's default
    [ "$(echo "$j" | num extra_macs)" -le $((macs / 5)) ] || continue # over 20% more MACs
    [ "$auto" -le "$a" ] || { echo "FAIL $n: --patch auto $auto above --patch $t $a"; fail=1; }
  done
  echo "$n: layer by layer $plain, --patch auto $auto${k:+ (first $k operators)}"
done
[ "$tried" -gt 0 ] || { echo "FAIL: no explicit stage could be tried"; fail=1; }
[ "$fail" = 0 ] && echo "PASS --patch auto at most every explicit stage tried ($tried) and layer by layer"
exit $fail
