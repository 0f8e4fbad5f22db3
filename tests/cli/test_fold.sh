#!/bin/sh
# test_fold.sh TINYENGINE SRC_DIR TE_MKMODEL - constant folding as a user
# sees it, on the conformance model of Keras' dynamic-batch Reshape (two
# SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE chains): `info` marks the shape
# operators folded, and the generated C has no code for them.  Needs
# ../shared (skipped without it, failed when CI=true).
set -u
te=$1 src=$2
m=$src/../shared/conformance/reshape_dynamic_batch_keras_head.tflite
if [ ! -f "$m" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL $m missing (CI=true)"; exit 1; }
  echo "SKIP: $m missing"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/te-fold-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
"$te" info "$m" > "$work/info" || bad "info exit status"
for k in 1 2 3 6 7 8; do
  grep -qE "^ +$k  (SHAPE|STRIDED_SLICE|PACK) .*\(folded: a constant at compile time\)$" "$work/info" ||
    bad "info: op $k not marked folded"
done
grep -qE "^ +4  RESHAPE .*int8\[1x1x1x16\]" "$work/info" || bad "info: op 4 RESHAPE missing"
"$te" info "$m" --json > "$work/info.json" || bad "info --json exit status"
[ "$(grep -c '"folded": true' "$work/info.json")" = 6 ] || bad "info --json: 6 folded operators expected"
"$te" compile "$m" -o "$work/gen" --name fold >/dev/null 2>&1 || bad "compile"
for k in 1 2 3 6 7 8; do
  grep -q "op $k:" "$work/gen/fold.c" && bad "generated code for folded op $k"
done
grep -q "op 5: CONV_2D" "$work/gen/fold.c" || bad "no code for the CONV_2D"
[ "$fail" = 0 ] && echo "PASS folded shape arithmetic generates no code"
exit $fail
