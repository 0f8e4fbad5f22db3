#!/bin/sh
# sweep_targets.sh TINYENGINE SHARED_DIR TARGET LIST PENDING_TXT [--write] -
# which conformance models the golden sweep of TARGET (--target cortex-m4,
# x86-64-v3) runs: those whose code for TARGET differs from their generic
# code (kernels or kernel paths of its own).  The others get the generic
# code the default golden test already checks byte for byte: the generated
# file names its target in two comment lines, and pastes a target's
# prelude only with a kernel that uses it.
# Fails when a model with code of its own is missing from LIST (one name a
# line, tests/golden/sweep_TARGET.txt) or a listed one has none; --write
# prints the right list instead.  Skipped (77) without ../shared, a failure
# then when CI=true.
set -u
te=$1 shared=$2 target=$3 list=$4 pending=$5 write=${6:-}
if [ ! -d "$shared/conformance" ]; then
  [ "${CI:-}" = true ] && { echo "ERROR: no $shared/conformance (CI=true)"; exit 1; }
  echo "skip: no $shared/conformance"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/te-sweep-targets-XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/sigs"
for f in "$shared"/conformance/*.tflite; do
  m=$(basename "$f" .tflite)
  grep -qE "^$m([[:space:]]|\$)" "$pending" 2>/dev/null && continue
  "$te" compile "$f" -o "$work/g" --name m --quiet >/dev/null 2>&1 &&
    "$te" compile "$f" -o "$work/t" --name m --target "$target" --quiet >/dev/null 2>&1 ||
    { echo "FAIL: $m does not compile"; exit 1; }
  own=$(diff "$work/g/m.c" "$work/t/m.c" | grep '^[<>]' | grep -Evc '^[<>] +\* (tinyengine .*options: |Target: )')
  echo "$m $own" >>"$work/sigs"
done
awk '$2 != 0 {print $1}' "$work/sigs" >"$work/own"
if [ "$write" = --write ]; then cat "$work/own"; exit 0; fi
fail=0
for m in $(cat "$work/own"); do
  grep -qx "$m" "$list" || { echo "FAIL: $m has $target code of its own: add it to $list"; fail=1; }
done
for m in $(grep -E '^[A-Za-z0-9_]' "$list"); do
  grep -qx "$m" "$work/own" || { echo "FAIL: $m (in $list) has no $target code of its own: remove it"; fail=1; }
done
[ "$fail" = 0 ] && echo "sweep_targets $target: $(wc -l <"$work/own") of $(wc -l <"$work/sigs") models have code of their own, all in $list"
exit $fail
