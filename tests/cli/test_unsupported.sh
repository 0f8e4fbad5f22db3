#!/bin/sh
# test_unsupported.sh TINYENGINE SRC_DIR MKMODEL - a model with operators we
# do not compile: every one named at once, by its TFLite name, in one line
# (compile and info), exit status 1; info still lists the operators with the
# unsupported ones marked; accelerator models (Vela's ethos-u, the Edge TPU)
# get a hint to compile the original model.
set -u
te=$1 mk=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/te-unsup-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL $*"; }

# expect_line NAME LINE CMD... : exit 1 and exactly LINE on stderr
expect_line() {
  name=$1 want=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; rc=$?
  got=$(cat "$work/err")
  if [ "$rc" = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] && [ "$got" = "$want" ]; then ok
  else bad "$name: exit $rc, stderr: $got (want: $want)"; fi
}

for k in unsupported_ops ethos_u edgetpu bad_custom_op; do
  "$mk" "$k" "$work/$k.tflite" >/dev/null 2>&1 || bad "te_mkmodel $k"
done

m=$work/unsupported_ops.tflite
line="tinyengine: error: $m: unsupported operators: LSH_PROJECTION (ops 1, 3), TILE (op 2)"
expect_line compile "$line" "$te" compile "$m" -o "$work/g"
[ ! -e "$work/g" ] || bad "code written for a model with unsupported operators"
expect_line info "$line" "$te" info "$m"
# info: the four operators by name, the three unsupported ones marked
grep -q '^   0  CONV_2D .*int8\[1x8x8x4\].* -> int8\[1x8x8x4\]' "$work/out" || bad "info: CONV_2D line"
if grep -q '^   0 .*(unsupported)' "$work/out"; then bad "info: CONV_2D marked"; else ok; fi
grep -q '^   1  LSH_PROJECTION .*-> int32\[4\]  (unsupported)$' "$work/out" || bad "info: op 1"
grep -q '^   2  TILE .*  (unsupported)$' "$work/out" || bad "info: TILE op 2"
grep -q '^   3  LSH_PROJECTION .*  (unsupported)$' "$work/out" || bad "info: op 3"
[ "$(grep -c '(unsupported)' "$work/out")" = 3 ] && ok || bad "info: three marked"
expect_line info-json "$line" "$te" info "$m" --json
grep -q '"error": "unsupported operators: LSH_PROJECTION (ops 1, 3), TILE (op 2)"' "$work/out" &&
  grep -q '"index": 2, "op": "TILE", "supported": false' "$work/out" &&
  grep -q '"index": 0, "op": "CONV_2D", "supported": true' "$work/out" && ok ||
  bad "info --json: $(head -c 300 "$work/out")"

m=$work/ethos_u.tflite
expect_line ethos-u "tinyengine: error: $m: unsupported operator CUSTOM 'ethos-u' (op 0); the model \
was compiled by Vela for an Arm Ethos-U NPU: compile the original .tflite (the one given to Vela) \
instead" "$te" compile "$m" -o "$work/g"
"$te" info "$m" >"$work/out" 2>/dev/null
grep -q "^   0  CUSTOM 'ethos-u' .*uint8\[4096\] .*int8\[1x8x8x4\].* -> int8\[1x10\].*  (unsupported)$" \
  "$work/out" && ok || bad "info ethos-u: $(cat "$work/out")"

m=$work/edgetpu.tflite
expect_line edgetpu "tinyengine: error: $m: unsupported operator CUSTOM 'edgetpu-custom-op' (op 0); \
the model was compiled by edgetpu_compiler for a Coral Edge TPU: compile the original .tflite (the \
one given to the Edge TPU compiler) instead" "$te" compile "$m" -o "$work/g"

m=$work/bad_custom_op.tflite
expect_line custom "tinyengine: error: $m: unsupported operator CUSTOM 'MyOp' (op 1)" \
  "$te" compile "$m" -o "$work/g"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
