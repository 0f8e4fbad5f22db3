#!/bin/sh
# test_op_references.sh TINYENGINE SRC_DIR TE_MKMODEL TE_MKPATCHNET TE_MKREF -
# operator forms TFLite Micro runs that the shared goldens do not cover (the
# int16x8 operators, EMBEDDING_LOOKUP's hybrid path), one model each from
# tools/te_mkref.c:
# - data movement and MINIMUM / MAXIMUM (no arithmetic): the int16 model's
#   outputs equal the int8 twin's (real values equal; the int8 kernels are
#   the ones the goldens pin) minus its zero point;
# - arithmetic kinds: te_mkref writes the outputs of its own plain
#   reference of TFLite Micro's formulas (expect_<i>.bin) beside the model;
# - refuse_* kinds: a model TFLite Micro cannot run (an int16 multiplier its
#   int64 requantization asserts on), refused with one clear line.
# The generated code is built with the sanitizers when TE_HARNESS_CFLAGS
# says so (tests/run_all.sh).
set -u
te=$1 mk=${5:-$(dirname "$3")/te_mkref}
export TE_CFLAGS="-O0 ${TE_HARNESS_CFLAGS:-}"
work=$(mktemp -d "${TMPDIR:-/tmp}/te-opref-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

inputs() { for f in "$1"/input_*.bin; do printf -- '--input %s ' "$f"; done; }

kinds=$("$mk") || { echo "FAIL te_mkref lists no kinds"; exit 1; }
n=0
for k in $kinds; do
  d=$work/$k
  mkdir -p "$d/8" "$d/16"
  "$mk" "$k" 16 "$d/16" || { bad "$k: te_mkref 16"; continue; }
  if [ -f "$d/16/refuse.txt" ]; then # a model to refuse, with one clear line
    if "$te" compile "$d/16/model.tflite" -o "$d/out" > "$d/log" 2>&1; then
      bad "$k: compiled, should be refused"
    elif ! grep -qF "$(cat "$d/16/refuse.txt")" "$d/log" || [ "$(wc -l < "$d/log")" -ne 1 ]; then
      bad "$k: not one line with '$(cat "$d/16/refuse.txt")':"; cat "$d/log"
    fi
    n=$((n + 1)); continue
  fi
  if [ ! -f "$d/16/expect_0.bin" ]; then # no reference: the int8 twin
    "$mk" "$k" 8 "$d/8" || { bad "$k: te_mkref 8"; continue; }
    # shellcheck disable=SC2046
    "$te" run "$d/8/model.tflite" $(inputs "$d/8") -o "$d/8/out" --quiet ||
      { bad "$k: int8 twin does not run"; continue; }
    for o in "$d/8/out"/output_*.bin; do
      i=${o##*/output_}
      "$mk" widen -5 "$o" "$d/16/expect_$i" || bad "$k: widen"
    done
  fi
  expect=""
  for e in "$d/16"/expect_*.bin; do expect="$expect --expect $e"; done
  # shellcheck disable=SC2046,SC2086
  if ! "$te" run "$d/16/model.tflite" $(inputs "$d/16") -o "$d/16/out" $expect --quiet \
       > "$d/log" 2>&1; then
    bad "$k: int16 outputs differ or the model does not compile:"
    head -5 "$d/log"
  fi
  n=$((n + 1))
done
[ "$n" -ge 57 ] || bad "only $n kinds ran"
[ $fail = 0 ] && echo "OK: $n operator models give their reference outputs or are refused"
exit $fail
