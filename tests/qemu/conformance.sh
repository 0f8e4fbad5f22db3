#!/bin/sh
# conformance.sh TINYENGINE SHARED_DIR TARGET OPT [PENDING_TXT [MODEL.tflite...]] - every
# conformance model (or the MODELs given)
# (one of each operator and its variants, plus small nets) built for a
# Cortex-M at OPT and run under QEMU; every output byte of sample 0 must
# equal TFLite Micro's.  Missing data or tools: skipped (77), fails when CI=true.
set -u
te=$1 shared=$2 target=$3 opt=$4 pending=${5:-/dev/null}
shift 4; [ $# -gt 0 ] && shift
models=${*:-}
missing() {
  if [ "${CI:-}" = true ]; then echo "ERROR: $1 (CI=true: the test cannot be skipped)"; exit 1; fi
  echo "SKIP: $1"; exit 77
}
[ -d "$shared/conformance" ] || missing "no $shared/conformance"
for tool in qemu-system-arm arm-none-eabi-gcc arm-none-eabi-size timeout; do
  command -v "$tool" >/dev/null 2>&1 || missing "$tool is not installed"
done
pass=0 fail=0
[ -n "$models" ] || models=$(ls "$shared"/conformance/*.tflite)
for m in $models; do
  name=$(basename "$m" .tflite) gold=$shared/conformance/$(basename "$m" .tflite)
  grep -qE "^$name[[:space:]]" "$pending" && continue  # waits for an issue
  set -- "$m" --target "$target" --opt "$opt"
  i=0; while [ -f "$gold/input_0_$i.bin" ]; do set -- "$@" --input "$gold/input_0_$i.bin"; i=$((i+1)); done
  i=0; while [ -f "$gold/output_0_$i.bin" ]; do set -- "$@" --expect "$gold/output_0_$i.bin"; i=$((i+1)); done
  if "$te" bench "$@" >/tmp/te-qc-$$.log 2>&1; then pass=$((pass+1)); else
    fail=$((fail+1)); echo "FAIL $name:"; tail -3 /tmp/te-qc-$$.log
  fi
done
rm -f /tmp/te-qc-$$.log
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
