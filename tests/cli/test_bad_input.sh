#!/bin/sh
# test_bad_input.sh TINYENGINE SRC_DIR MKMODEL - every kind of bad input gets
# exactly one line on stderr naming the problem and exit status 1: never a
# crash, a hang or generated code.
set -u
te=$1 src=$2 mk=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/te-bad-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
good=$src/examples/models/tiny_cnn.tflite

# expect_error NAME PATTERN CMD... : exit 1, one stderr line matching PATTERN
expect_error() {
  name=$1 pat=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; rc=$?
  lines=$(wc -l <"$work/err")
  if [ "$rc" = 1 ] && [ "$lines" = 1 ] && grep -q "^tinyengine: error: .*$pat" "$work/err"; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "FAIL $name: exit $rc, $lines stderr lines: $(head -c 300 "$work/err")"
  fi
}

expect_error missing-file "cannot open" "$te" compile "$work/nope.tflite" -o "$work/g"
: >"$work/empty.tflite"
expect_error empty-file "" "$te" compile "$work/empty.tflite" -o "$work/g"
head -c 100 "$good" >"$work/trunc.tflite"
expect_error truncated "offset" "$te" compile "$work/trunc.tflite" -o "$work/g"
{ head -c 4 "$good"; printf 'XXXX'; tail -c +9 "$good"; } >"$work/magic.tflite"
expect_error wrong-magic "identifier" "$te" compile "$work/magic.tflite" -o "$work/g"
for kind in bad_tensor_index:tensor bad_buffer_index:buffer bad_unsupported_op:"unsupported operator" \
            bad_float_conv:float32 bad_perchannel_count:"scales but"; do
  k=${kind%%:*} pat=${kind#*:}
  if "$mk" "$k" "$work/$k.tflite" >/dev/null 2>&1; then
    expect_error "$k" "$pat" "$te" compile "$work/$k.tflite" -o "$work/g"
    expect_error "$k-info" "$pat" "$te" info "$work/$k.tflite"
  else
    fail=$((fail+1)); echo "FAIL te_mkmodel $k"
  fi
done
[ ! -e "$work/g" ] || { fail=$((fail+1)); echo "FAIL output written for a bad model"; }

# Every truncation of a valid model: exit 1 and one line (no crash, no hang).
size=$(wc -c <"$good"); n=0; i=0
while [ "$i" -lt "$size" ]; do
  head -c "$i" "$good" >"$work/t.tflite"
  "$te" info "$work/t.tflite" >/dev/null 2>"$work/err"; rc=$?
  if [ "$rc" != 1 ] || [ "$(wc -l <"$work/err")" != 1 ]; then
    n=$((n+1)); [ $n -le 3 ] && echo "FAIL truncated at $i: exit $rc: $(head -c 200 "$work/err")"
  fi
  i=$((i+13))
done
if [ $n = 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); fi

# Wrong input size for run.
head -c 10 /dev/zero >"$work/small.bin"
expect_error run-input-size "needs 768" "$te" run "$good" --input "$work/small.bin" -o "$work/o"
expect_error run-input-count "input" "$te" run "$good" -o "$work/o"
expect_error sram-limit "does not fit --sram-limit 1000: best plan needs [0-9]* bytes (arena [0-9]*, state [0-9]*, stack [0-9]*); the peak .* is at [A-Z_0-9]* (op [0-9]*)" \
  "$te" compile "$good" -o "$work/g3" --sram-limit 1000
expect_error sram-limit-value "byte count" "$te" compile "$good" -o "$work/g3" --sram-limit lots
expect_error flash-limit "does not fit --flash-limit 1000: needs about [0-9]* bytes of flash ([0-9]* of weights, about [0-9]* of code and tables)" \
  "$te" compile "$good" -o "$work/g3" --target cortex-m4 --flash-limit 1000
expect_error flash-limit-value "byte count" "$te" compile "$good" -o "$work/g3" --flash-limit lots
expect_error unknown-option "unknown" "$te" compile "$good" -o "$work/g2" --frobnicate

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
