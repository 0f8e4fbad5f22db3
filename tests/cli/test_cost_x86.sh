#!/bin/sh
# test_cost_x86.sh TINYENGINE SRC_DIR - `profile --target x86-64-v3` uses its
# own cost model (calibrated with callgrind, bench/calibrate_cost.sh
# --models x86-64-v3), not the generic host one: its estimate of whole shared
# models is within 25% of callgrind's count of NAME_invoke (recorded below,
# from bench/host_table.sh, docs/speed-bench.md; golden sample 0, cc -O2).
# No timing is measured here.  Missing shared models: skipped (77), a
# failure when CI=true.
set -u
te=$1 src=$2
shared=$src/../shared/models
if [ ! -d "$shared" ]; then
  if [ "${CI:-}" = true ]; then echo "ERROR: no shared models in $shared (CI=true)"; exit 1; fi
  echo "SKIP: no shared models in $shared"; exit 77
fi
fail=0
# model, callgrind's instructions in NAME_invoke (x86-64-v3 build)
for row in kws_ref_model:1182227 vww_96_int8:4171221 person_detect:4122914; do
  model=${row%%:*} exact=${row#*:}
  json=$("$te" profile "$shared/$model.tflite" --target x86-64-v3 --json) ||
    { echo "FAIL: profile $model"; fail=$((fail+1)); continue; }
  cm=$(echo "$json" | sed -n 's/^ *"cost_model": "\([^"]*\)".*/\1/p' | head -n 1)
  est=$(echo "$json" | sed -n 's/^ *"estimated_instructions": \([0-9]*\).*/\1/p' | head -n 1)
  [ "$cm" = x86-64-v3 ] || { echo "FAIL: $model: cost model '$cm', not x86-64-v3"; fail=$((fail+1)); }
  if [ -z "$est" ] || [ $((est * 4)) -lt $((exact * 3)) ] || [ $((est * 4)) -gt $((exact * 5)) ]; then
    echo "FAIL: $model: estimate ${est:-?} instructions, callgrind $exact (25% allowed)"
    fail=$((fail+1))
  else
    echo "ok: $model: estimate $est, callgrind $exact"
  fi
done
[ "$fail" -eq 0 ]
