#!/bin/sh
# test_patch_cost.sh TINYENGINE SRC_DIR - `--patch auto` weighs instructions:
# `info`, `plan` and the compile summary state the estimated slowdown of the
# patch plan against layer by layer (the target's cost model), `info --json`
# gives it, and --max-recompute bounds the extra instructions (not MACs).
# Uses vww_96_int8 from ../shared: skipped (77) without it, a failure when
# CI=true.
set -u
te=$1 src=$2
model=$src/../shared/models/vww_96_int8.tflite
if [ ! -f "$model" ]; then
  if [ "${CI:-}" = true ]; then echo "ERROR: no $model (CI=true)"; exit 1; fi
  echo "SKIP: no $model"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/te-patchcost-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
cost_line='first [0-9]* operators in [0-9]*x[0-9]* patches: +[0-9.]*% MACs, about +[0-9.]*% instructions (+[0-9]*, cortex-m4 cost model) vs layer by layer'
# extra instructions and the model's, layer by layer, from info --json
extra() { sed -n 's/.*"extra_instructions_estimate": \([0-9]*\).*/\1/p' "$1"; }
whole() { sed -n 's/.*"instructions_layer_by_layer_estimate": \([0-9]*\).*/\1/p' "$1"; }

ok sh -c "'$te' info '$model' --target cortex-m4 --patch auto >'$work/info.txt'"
ok grep -q "^patch cost: *$cost_line" "$work/info.txt"
ok sh -c "'$te' plan '$model' --target cortex-m4 --patch auto >'$work/plan.txt'"
ok grep -q "^patch cost: *$cost_line" "$work/plan.txt"
ok sh -c "'$te' compile '$model' --target cortex-m4 --patch auto -o '$work/c' >'$work/compile.txt' 2>&1"
ok grep -q "^  patch: *$cost_line" "$work/compile.txt"
# layer by layer: no patch line
ok sh -c "'$te' compile '$model' --target cortex-m4 -o '$work/c' >'$work/plain.txt' 2>&1"
ok sh -c "! grep -q '^  patch:' '$work/plain.txt'"

# the default budget keeps the smallest arena whose patches fit the flash
# budget and is worth its code (33,408 B: first 7 operators in 12x6 patches,
# the input inside the stage output's place, about +192% instructions, within
# the default --max-recompute 200%, on the M4)
ok sh -c "'$te' info '$model' --target cortex-m4 --patch auto --json >'$work/auto.json'"
ok grep -q '"arena_bytes": 33408,' "$work/auto.json"
e=$(extra "$work/auto.json") w=$(whole "$work/auto.json")
ok test -n "$e" -a -n "$w"
ok test "${e:-0}" -gt $(( ${w:-0} * 30 / 100 ))
# a 30% instruction budget refuses that plan: what it takes stays within 30%
ok sh -c "'$te' info '$model' --target cortex-m4 --patch auto --max-recompute 30 --json >'$work/b30.json'"
ok sh -c "! grep -q '\"arena_bytes\": 33408,' '$work/b30.json'"
if grep -q '"patch": null' "$work/b30.json"; then
  pass=$((pass+1))
else
  e=$(extra "$work/b30.json") w=$(whole "$work/b30.json")
  ok test "${e:-1}" -le $(( ${w:-0} * 30 / 100 ))
fi
echo "patch_cost: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
