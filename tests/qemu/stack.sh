#!/bin/sh
# stack.sh TINYENGINE SHARED_DIR OPT PATCH MODEL... - the stack bound of the
# generated header holds on the target: every MODEL is benched on the
# Cortex-M4 (QEMU mps2-an386) at OPT (-O2, -O0, ...) with --patch PATCH
# (off or auto; with auto each MODEL must get a patch stage) on its first
# golden sample, whose outputs must match byte for byte.  `bench` itself
# fails when the painted stack exceeds the NAME_STACK_BYTES its header
# states for that OPT, or an output differs; at an optimised level the
# stack must also stay within 2 KiB.
# Missing shared data or tools: skipped (77), a failure when CI=true.
set -u
te=$1 shared=$2 opt=$3 patch=$4
shift 4
missing() {
  if [ "${CI:-}" = true ]; then echo "ERROR: $1 (CI=true: the test cannot be skipped)"; exit 1; fi
  echo "SKIP: $1"; exit 77
}
[ -d "$shared/models" ] || missing "no shared models in $shared"
for tool in qemu-system-arm arm-none-eabi-gcc arm-none-eabi-size timeout; do
  command -v "$tool" >/dev/null 2>&1 || missing "$tool is not installed"
done
log=$(mktemp "${TMPDIR:-/tmp}/te-stack-XXXXXX")
trap 'rm -f "$log"' EXIT
fail=0 n=0
for model in "$@"; do
  f=$shared/models/$model.tflite
  [ -f "$f" ] || { echo "FAIL: $model: no $f"; fail=$((fail+1)); continue; }
  set -- "$f" --target cortex-m4 --opt "$opt" --patch "$patch"
  gold=$shared/golden/$model
  i=0; while [ -f "$gold/input_0_$i.bin" ]; do set -- "$@" --input "$gold/input_0_$i.bin"; i=$((i+1)); done
  i=0; while [ -f "$gold/output_0_$i.bin" ]; do set -- "$@" --expect "$gold/output_0_$i.bin"; i=$((i+1)); done
  # a DSP image over the board's 4 MiB flash: the portable kernels (as run_model.sh)
  if ! "$te" bench "$@" >"$log" 2>&1 &&
     ! { grep -q overflowed "$log" && "$te" bench "$@" --portable >"$log" 2>&1; }; then
    cat "$log"; echo "FAIL: $model at $opt --patch $patch"; fail=$((fail+1)); continue
  fi
  used=$(sed -n 's/^stack used: *\([0-9]*\) bytes.*/\1/p' "$log")
  bound=$(sed -n 's/^stack used:.*(bound \([0-9]*\),.*/\1/p' "$log")
  echo "$model $opt --patch $patch: stack used ${used:-?} bytes, bound ${bound:-?}"
  if [ "$patch" = auto ] && grep -q '^patch: *none' "$log"; then
    echo "FAIL: $model: --patch auto finds no patch stage (this list wants models with one)"
    fail=$((fail+1)); continue
  fi
  if [ -z "$used" ] || [ -z "$bound" ]; then
    echo "FAIL: $model: no stack line in the bench report"; fail=$((fail+1)); continue
  fi
  if [ "$opt" != -O0 ] && [ "$used" -gt 2048 ]; then
    echo "FAIL: $model: $used bytes of stack at $opt, over 2 KiB"; fail=$((fail+1)); continue
  fi
  n=$((n+1))
done
echo "stack: $n model(s) within their bound, $fail failure(s)"
[ "$fail" -eq 0 ]
