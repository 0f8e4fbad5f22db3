#!/bin/sh
# test_plan.sh TINYENGINE SRC_DIR MKMODEL - `tinyengine plan` on the example
# model: --svg writes a well-formed SVG with a rectangle per buffer, --json
# agrees with `info --json` on the arena, the text summary names the peak,
# and bad usage fails cleanly.
set -u
te=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/te-plan-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
model=$src/examples/models/tiny_cnn.tflite

# --svg: starts with <svg, ends with </svg>, one <rect per placed buffer at least
ok "$te" plan "$model" --svg "$work/plan.svg"
ok test "$(head -c 4 "$work/plan.svg")" = "<svg"
ok test "$(tail -n 1 "$work/plan.svg")" = "</svg>"
ok test "$(grep -c '<svg' "$work/plan.svg")" = 1
"$te" plan "$model" --json >"$work/plan.json"
buffers=$(grep -c '"buffer": ' "$work/plan.json")
rects=$(grep -o '<rect' "$work/plan.svg" | wc -l)
ok test "$buffers" -ge 1
ok test "$rects" -ge "$buffers"
# every <rect ...> and <text ...> element is closed
ok test "$(grep -o '<rect' "$work/plan.svg" | wc -l)" = \
        "$(grep -o '<rect[^>]*/>\|</rect>' "$work/plan.svg" | wc -l)"
ok test "$(grep -o '<text' "$work/plan.svg" | wc -l)" = "$(grep -o '</text>' "$work/plan.svg" | wc -l)"
ok grep -q 'peak [0-9,]* B at op [0-9]* (' "$work/plan.svg"
if command -v xmllint >/dev/null 2>&1; then ok xmllint --noout "$work/plan.svg"; fi

# --json: same arena and bounds as info --json; one step per scheduled op
"$te" info "$model" --json >"$work/info.json"
val() { sed -n "s/^ *\"$1\": \([0-9]*\).*/\1/p" "$2"; }
for key in arena_bytes lifetime_lower_bound_bytes live_peak_bytes; do
  ok test -n "$(val $key "$work/plan.json")"
  ok test "$(val $key "$work/plan.json")" = "$(val $key "$work/info.json")"
done
ok test "$(grep -c '"live_bytes": ' "$work/plan.json")" -ge 2

# compile options reach the plan too (--patch, once the compiler has it)
if "$te" compile --help | grep -q -- '--patch'; then
  "$te" plan "$model" --json --patch auto >"$work/plan_p.json"
  "$te" info "$model" --json --patch auto >"$work/info_p.json"
  ok test -n "$(val arena_bytes "$work/plan_p.json")"
  ok test "$(val arena_bytes "$work/plan_p.json")" = "$(val arena_bytes "$work/info_p.json")"
  ok "$te" plan "$model" --patch auto --svg "$work/patched.svg"
  ok test "$(tail -n 1 "$work/patched.svg")" = "</svg>"
fi

# both at once, and the text summary
ok sh -c "'$te' plan '$model' --json --svg '$work/both.svg' >'$work/both.json'"
ok cmp -s "$work/both.json" "$work/plan.json"
ok cmp -s "$work/both.svg" "$work/plan.svg"
ok sh -c "'$te' plan '$model' | grep -q '^arena bytes: *[0-9]'"
ok sh -c "'$te' plan '$model' | grep -q '^live peak: .* at step [0-9]*: op [0-9]* ('"

# bad usage: no model, --svg without a file, unknown option, unwritable file
ok sh -c "! '$te' plan >/dev/null 2>&1"
ok sh -c "! '$te' plan '$model' --svg >/dev/null 2>&1"
ok sh -c "! '$te' plan '$model' --bogus >/dev/null 2>&1"
ok sh -c "! '$te' plan '$model' --svg '$work/no/such/dir/x.svg' >/dev/null 2>&1"
ok sh -c "'$te' plan --help | grep -q 'usage: tinyengine plan'"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
