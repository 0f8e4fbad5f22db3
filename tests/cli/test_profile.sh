#!/bin/sh
# test_profile.sh TINYENGINE SRC_DIR MKMODEL - `tinyengine profile`: the text
# report, the JSON keys docs/profile-json.md promises, agreement with
# `info --json` (MACs, arena), --target/--mhz, batch mode over several files
# and a folder (one JSON array), a bad model inside a batch, bad usage.
set -u
te=$1 src=$2 mk=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/te-profile-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
model=$src/examples/models/tiny_cnn.tflite
val() { sed -n "s/^ *\"$1\": \([0-9.]*\).*/\1/p" "$2" | head -n 1; }
# a JSON document parses (when python3 is there)
json_ok() { ! command -v python3 >/dev/null 2>&1 || python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"; }

# text report
ok sh -c "'$te' profile '$model' >'$work/text.txt'"
ok grep -q '^peak SRAM (arena): *[0-9]* bytes' "$work/text.txt"
ok grep -q '^instructions (est.): *[0-9]' "$work/text.txt"
ok grep -q 'CONV_2D *te_conv2d' "$work/text.txt"

# JSON: the promised keys, one layer per scheduled operator
ok sh -c "'$te' profile '$model' --json >'$work/p.json'"
ok json_ok "$work/p.json"
for key in estimated_instructions estimated_cycles estimated_latency_ms peak_sram_bytes \
           peak_sram_bytes_no_patch lifetime_bound_bytes flash_bytes weights_bytes code_bytes \
           macs mhz; do
  ok test -n "$(val $key "$work/p.json")"
done
ok grep -q '"layers": \[' "$work/p.json"
ok grep -q '"target": "generic"' "$work/p.json"
"$te" info "$model" --json >"$work/info.json"
ok test "$(val macs "$work/p.json")" = "$(val macs "$work/info.json")"
ok test "$(val peak_sram_bytes "$work/p.json")" = "$(val arena_bytes "$work/info.json")"
ops=$(grep -c '"dead": false' "$work/info.json")
ok test "$(grep -c '{"index": ' "$work/p.json")" = "$ops"
for key in '"op": ' '"kernel": ' '"inputs": ' '"outputs": ' '"macs": ' '"weights_bytes": ' \
           '"live_bytes": ' '"estimated_instructions": ' '"estimated_latency_us": '; do
  ok test "$(grep -c "$key" "$work/p.json")" -ge "$ops"
done
ok test "$(val estimated_instructions "$work/p.json")" -gt 0

# target and clock
ok sh -c "'$te' profile '$model' --json --target cortex-m4 --mhz 200 >'$work/m4.json'"
ok grep -q '"target": "cortex-m4"' "$work/m4.json"
ok grep -q '"cost_model": "cortex-m4"' "$work/m4.json"
ok test "$(val mhz "$work/m4.json")" = 200
ok test "$(val macs "$work/m4.json")" = "$(val macs "$work/p.json")"

# batch: two files, then a folder; one JSON array with one object per model
mkdir -p "$work/dir"
cp "$model" "$work/dir/a.tflite"
"$mk" small_conv "$work/dir/b.tflite" >/dev/null 2>&1 || cp "$model" "$work/dir/b.tflite"
ok sh -c "'$te' profile --json '$model' '$work/dir/b.tflite' >'$work/two.json'"
ok json_ok "$work/two.json"
ok test "$(head -c 1 "$work/two.json")" = "["
ok test "$(grep -c '^  "model": ' "$work/two.json")" = 2
ok sh -c "'$te' profile --json '$work/dir' >'$work/dir.json'"
ok json_ok "$work/dir.json"
ok test "$(grep -c '^  "model": ' "$work/dir.json")" = 2
ok grep -q "\"model\": \"$work/dir/a.tflite\"" "$work/dir.json"
ok sh -c "'$te' profile '$work/dir' | grep -c '^model: ' | grep -qx 2"

# a bad model in a batch: an error object, the others still reported, status 1
head -c 100 "$model" >"$work/dir/c.tflite"
ok sh -c "! '$te' profile --json '$work/dir' >'$work/bad.json' 2>'$work/bad.err'"
ok json_ok "$work/bad.json"
ok test "$(grep -c '^  "model": ' "$work/bad.json")" = 2
ok grep -q '"error": ' "$work/bad.json"
ok grep -q 'c.tflite' "$work/bad.err"

# bad usage
ok sh -c "! '$te' profile >/dev/null 2>&1"
ok sh -c "! '$te' profile '$model' --bogus >/dev/null 2>&1"
ok sh -c "! '$te' profile '$model' --mhz 0 >/dev/null 2>&1"
ok sh -c "! '$te' profile '$model' --target cortex-m99 >/dev/null 2>&1"
ok sh -c "! '$te' profile '$work/none.tflite' >/dev/null 2>&1"
ok sh -c "'$te' profile --help | grep -q 'usage: tinyengine profile'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
