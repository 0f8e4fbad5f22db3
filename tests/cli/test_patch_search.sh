#!/bin/sh
# test_patch_search.sh TINYENGINE SRC_DIR - search quality of `--patch auto`
# (issue 16): on every shared real model its arena is never above layer by
# layer, and at most the arena of each explicit stage K:NxN tried here that
# keeps to the same stated limits: extra instructions within --max-recompute
# (200% of the model's by default) and the patches' code within the flash
# the model leaves (`code_bytes_estimate` <= `flash_left` in `info --json`;
# under the default limit an explicit plan over it is built, under
# --flash-limit refused) and a stack bound within layer by layer's or 2 KiB;
# a lower arena whose code exceeds auto's by more than 8 bytes per byte of
# SRAM it saves is not worth it (the thrift rule, TE_PATCH_FLASH_PER_BYTE).
# The stages tried: the one auto chose (K) over 2x2, 3x3, 5x5 and 8x8 grids,
# non-square 2x4, 4x2 and 3x5 and a finer 10x10 (where the cut tensor has
# room), K-1 and K+1 over 4x4; or seven short ones (also when auto chose a
# lone stage later in the network).  `info --json` only (no
# code generation, so it stays quick under the sanitizers) but for one
# model: vww_96_int8's `compile --patch auto` declares the arena `info`
# reports.  --patch auto's plan: with $TE_PATCH_REPORTS (ctest sets it), the
# `compile --report` each golden.patch_auto.<model> test wrote (two memory
# regions there: its one_region_arena_bytes, the same plan), so the search
# runs once per model in the test run; else `info --patch auto`.  Skipped (77)
# without ../shared, a failure then when CI=true.
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
  pj=$("$te" info "$m" --json 2>/dev/null)
  plain=$(echo "$pj" | num arena_bytes) stack=$(echo "$pj" | num stack_bytes)
  [ -n "$plain" ] || continue # a model the compiler refuses
  [ "$stack" -ge 2048 ] || stack=2048 # the stack a patched plan may take
  if [ -n "${TE_PATCH_REPORTS:-}" ]; then # the plan golden.patch_auto.<model> compiled
    j=$(cat "$TE_PATCH_REPORTS/$n.json" 2>/dev/null) ||
      { echo "FAIL $n: no $TE_PATCH_REPORTS/$n.json (golden.patch_auto.$n)"; fail=1; continue; }
    auto=$(echo "$j" | num one_region_arena_bytes)
  else
    j=$("$te" info "$m" --json --patch auto) || { echo "FAIL $n: --patch auto"; fail=1; continue; }
    auto=$(echo "$j" | num arena_bytes)
  fi
  k=$(echo "$j" | sed -n 's/.*"patch": {"ops": \([0-9]*\).*/\1/p')
  acode=0; [ -n "$k" ] && acode=$(echo "$j" | num code_bytes_estimate)
  echo "$j" | grep -q '"from_step"' && k= # a lone stage later on: no first K to vary
  [ "$auto" -le "$plain" ] || { echo "FAIL $n: --patch auto $auto above layer by layer $plain"; fail=1; }
  if [ -n "$k" ]; then
    trials="$k:2x2 $k:3x3 $k:5x5 $k:8x8 $k:2x4 $k:4x2 $k:3x5 $k:10x10 $((k - 1)):4x4 $((k + 1)):4x4"
  else trials="2:2x2 2:4x4 2:2x4 4:3x3 4:3x5 6:3x3 6:6x6"; fi
  for t in $trials; do
    [ "${t%%:*}" -ge 1 ] || continue
    j=$("$te" info "$m" --json --patch "$t" 2>/dev/null) || continue # no cut there
    tried=$((tried + 1))
    a=$(echo "$j" | num arena_bytes)
    extra=$(echo "$j" | num extra_instructions_estimate)
    whole=$(echo "$j" | num instructions_layer_by_layer_estimate)
    [ "$extra" -le $((2 * whole)) ] || continue # beyond --max-recompute's default
    code=$(echo "$j" | num code_bytes_estimate)
    left=$(echo "$j" | sed -n 's/.*"flash_left": \(-*[0-9]*\).*/\1/p')
    [ "$code" -le "$left" ] || continue # over the flash budget (kept: the default limit, no --flash-limit)
    [ "$(echo "$j" | num stack_bytes)" -le "$stack" ] || continue # over layer by layer's stack and 2 KiB
    # the thrift rule: a lower arena is not worth more than 8 bytes of code a byte
    [ "$a" -lt "$auto" ] && [ $(( (auto - a) * 8 )) -lt $((code - acode)) ] && continue
    [ "$auto" -le "$a" ] || { echo "FAIL $n: --patch auto $auto above --patch $t $a (code $acode, $code)"; fail=1; }
  done
  echo "$n: layer by layer $plain, --patch auto $auto${k:+ (first $k operators)}"
  # `compile` writes the plan `info` reports (the golden --patch sweep reads
  # the arena from the generated header only)
  if [ "$n" = vww_96_int8 ]; then
    gen=$(mktemp -d "${TMPDIR:-/tmp}/te-patchsearch-XXXXXX")
    "$te" compile "$m" --patch auto -o "$gen" --name te_model >/dev/null
    hdr=$(sed -n 's/^#define TE_MODEL_ARENA_BYTES \([0-9]*\)$/\1/p' "$gen/te_model.h")
    rm -rf "$gen"
    [ "$hdr" = "$auto" ] || { echo "FAIL $n: compile --patch auto ARENA_BYTES '$hdr' != info's $auto"; fail=1; }
    checked=1
  fi
done
[ -z "${checked:-}" ] && { echo "FAIL: vww_96_int8 missing: info and compile not compared"; fail=1; }
[ "$tried" -gt 0 ] || { echo "FAIL: no explicit stage could be tried"; fail=1; }
[ "$fail" = 0 ] && echo "PASS --patch auto at most every explicit stage tried ($tried) and layer by layer"
exit $fail
