#!/bin/sh
# test_patch_explain.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET - `--explain`
# (issue 16): with --patch auto (or --sram-limit) info and plan say on stderr,
# one "patch search:" line each, why every stage (and grid: H x W cells) the
# search rejects lost: an operator that cannot run on a patch, the last
# operator's output not used after the stage, a peak not lower than layer by
# layer (with any grid, or this one), over --max-recompute by N%, patches whose code is over
# the flash budget; then the plan kept (and the bytes of code its patches add).
# Without --explain nothing is said; with --json stdout stays JSON.
#  cli.patch_explain is the test of README's --explain (cli.readme looks it up)
set -u
te=$1 mkmodel=$3 mk=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/te-explain-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
has() { grep -q "^patch search: $2" "$work/$1" || bad "$1: no line '$2'"; }
"$mkmodel" tiny_cnn "$work/tc.tflite" "$work/tc.bin" >/dev/null || bad "te_mkmodel tiny_cnn"
"$mk" fire "$work/fire.tflite" "$work/fire.bin" || bad "te_mkpatchnet fire"
"$mk" neck "$work/neck.tflite" "$work/neck.bin" || bad "te_mkpatchnet neck"

# tiny_cnn: its RESHAPE ends every longer stage
"$te" info "$work/tc.tflite" --patch auto --explain >/dev/null 2>"$work/tc.txt" || bad "tc info"
has tc.txt "first 5..6 operators: op 4 RESHAPE cannot run on a patch: its output is not 4-D$"
has tc.txt "first 1 operators: peak not lower with any grid (arena at least [0-9]*, [0-9]* layer by layer)$"
# its 3-operator stage saves a few dozen bytes for kilobytes of code: the
# thrift rule (8 bytes of code at most per byte of SRAM) keeps layer by layer
has tc.txt "thrift: layer by layer: first 3 operators in [0-9]*x[0-9]* patches save [0-9]* bytes of SRAM for ~[0-9]* bytes of code$"
has tc.txt "kept: layer by layer, arena [0-9]*$"
# the neck's skip connection crosses the shorter cuts: those stages store it
# whole too (a second cut tensor) and are weighed like the others
"$te" plan "$work/neck.tflite" --patch auto --explain >/dev/null 2>"$work/neck.txt" || bad "neck plan"
has neck.txt "first 4 operators: no grid below the best plan so far (arena at least [0-9]*, best [0-9]*)$"
has neck.txt "kept: first [0-9]* operators in [0-9]*x[0-9]* patches, arena [0-9]*; patches add ~[0-9]* bytes of code (flash budget [0-9]*)$"
# no instructions to spare: every patch plan is over the budget
"$te" info "$work/fire.tflite" --patch auto --max-recompute 0 --explain >/dev/null \
  2>"$work/fire.txt" || bad "fire info"
has fire.txt "first [0-9]* operators, [0-9]*x[0-9]*: arena [0-9]*, but over --max-recompute by [0-9]*% (+[0-9]*% instructions, 0% allowed)$"
has fire.txt "kept: layer by layer, arena [0-9]*$"
# no flash to spare: the patches' code is over the budget --flash-limit leaves
# (the model's weights and code estimate + 200 bytes: 8 calls already take more);
# an explicit grid over it fails with one line
base=$("$te" info "$work/fire.tflite" --json | tr -d ' \n' |
  sed -n 's/.*"weights":\([0-9]*\),"expanded_weights":[0-9]*,"code_and_tables_estimate":\([0-9]*\).*/\1+\2+200/p')
[ -n "$base" ] || bad "fire: no flash figures in info --json"
"$te" info "$work/fire.tflite" --patch auto --flash-limit "$(($base))" --explain >/dev/null \
  2>"$work/flash.txt" || bad "fire info --flash-limit"
has flash.txt "first [0-9]* operators, [0-9]*x[0-9]*: patches add at least ~[0-9]* bytes of code, over the flash budget by [0-9]*$"
has flash.txt "kept: layer by layer"
"$te" info "$work/fire.tflite" --patch 2:2x2 --flash-limit "$(($base))" >/dev/null 2>"$work/flash2.txt" &&
  bad "--patch 2:2x2 over the flash budget: not refused"
[ "$(wc -l <"$work/flash2.txt")" = 1 ] &&
  grep -q -- "--patch 2:2x2: the patches add ~[0-9]* bytes of code, over the flash budget by [0-9]* (--flash-limit [0-9]*, the model ~[0-9]*): use fewer patches or a larger --flash-limit$" "$work/flash2.txt" ||
  bad "--patch 2:2x2 over the flash budget: $(cat "$work/flash2.txt")"
# --sram-limit searches too, and says so
"$te" info "$work/fire.tflite" --sram-limit 30000 --explain >/dev/null 2>"$work/limit.txt" ||
  bad "fire --sram-limit"
has limit.txt "kept: first [0-9]* operators"
# quiet without --explain; JSON stays JSON
"$te" info "$work/fire.tflite" --patch auto 2>&1 | grep -q "^patch search:" && bad "lines without --explain"
"$te" info "$work/fire.tflite" --patch auto --explain --json 2>/dev/null >"$work/j.json"
[ "$(head -c 1 "$work/j.json")" = "{" ] && [ "$(tail -n 1 "$work/j.json")" = "}" ] || bad "--json output"
[ "$fail" = 0 ] && echo "PASS --explain says why each patch stage was rejected"
exit $fail
