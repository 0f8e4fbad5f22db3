#!/bin/sh
# test_tflm_arena.sh TINYENGINE SRC_DIR MKMODEL MKPATCHNET - te_tflm_arena
# (built beside tinyengine) on models the project makes itself: the text
# and JSON formats, head + tail = estimate, the head of a one-convolution
# model equal to its input + output (TFLM keeps both alive together), every
# estimate at least our layer-by-layer lifetime lower bound
# (`tinyengine info --json`), and bad usage failing cleanly.
set -u
te=$1 mkmodel=$3 mkpatchnet=$4
est=$(dirname "$te")/te_tflm_arena
work=$(mktemp -d "${TMPDIR:-/tmp}/te-tflmest-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
val() { sed -n "s/^ *\"$1\": \([0-9]*\).*/\1/p" "$2" | head -1; }
[ -x "$est" ] || { echo "te_tflm_arena not built beside $te"; exit 1; }

"$mkmodel" small_conv "$work/small_conv.tflite"
"$mkmodel" tiny_cnn "$work/tiny_cnn.tflite"
for kind in residual fire; do
  "$mkpatchnet" "$kind" "$work/$kind.tflite" "$work/$kind.bin"
done

# text: one line naming the estimate, the head and the tail
"$est" "$work/small_conv.tflite" >"$work/text"
ok grep -Eq '^.*small_conv\.tflite: TFLM arena estimate [0-9]+ bytes \(head [0-9]+ planned, tail [0-9]+ estimated\)$' "$work/text"
ok test "$(wc -l <"$work/text")" -eq 1

# small_conv: 1x8x8x4 int8 in, 1x8x8x4 int8 out, both alive during the conv
"$est" "$work/small_conv.tflite" --json >"$work/sc.json"
ok test "$(val head_bytes "$work/sc.json")" = 512
ok test "$(val planned_buffers "$work/sc.json")" = 2

for m in small_conv tiny_cnn residual fire; do
  "$est" "$work/$m.tflite" --json >"$work/$m.est" || { fail=$((fail+1)); echo "FAIL: $m"; continue; }
  "$te" info "$work/$m.tflite" --json >"$work/$m.info"
  ok grep -q '"estimated": true' "$work/$m.est"
  a=$(val arena_bytes "$work/$m.est") h=$(val head_bytes "$work/$m.est") t=$(val tail_bytes "$work/$m.est")
  lb=$(val lifetime_lower_bound_bytes "$work/$m.info")
  ok test -n "$a" -a -n "$h" -a -n "$t" -a -n "$lb"
  ok test "$a" -eq $((h + t))
  ok test "$h" -ge "$lb"
  ok test "$a" -ge "$lb"
  ok test $((h % 16)) -eq 0
done

# bad usage: no model (2), an option it does not know (2), a missing file (1)
"$est" >/dev/null 2>&1; ok test $? -eq 2
"$est" "$work/small_conv.tflite" --bogus >/dev/null 2>&1; ok test $? -eq 2
"$est" "$work/none.tflite" >/dev/null 2>"$work/err"; ok test $? -eq 1
ok grep -q 'te_tflm_arena: .*none.tflite' "$work/err"
"$est" --help | grep -q '^usage: te_tflm_arena'; ok test $? -eq 0

echo "$pass passed, $fail failed"
test "$fail" -eq 0
