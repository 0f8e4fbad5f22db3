#!/bin/sh
# test_code_bound.sh TINYENGINE SRC_DIR - profile's code estimate
# (`code_bytes`, from the measured runtime/te_kernel_code.def) against the
# code of the generated object: for a representative set of shared real
# models (fully connected, depthwise, GEMM, LSTM, float heads; the table is
# per kernel, so every kernel they use is checked) on the Cortex-M4
# (arm-none-eabi-gcc -O2; tests/cli/test_flash_bound_host.sh checks the same
# models on generic and x86-64-v3 from the cc -O2 objects it builds anyway),
# code_bytes is within [0.5, 4.5] x the .text of NAME.o, and for kws_ref_model on
# Cortex-M4 (2x low with the fitted table) and vww_96_int8 --patch auto on
# Cortex-M4 an upper bound within 1.5x.
# The table measures each kernel alone; gcc specialises a kernel called
# once on its constant params (micro_speech M4: 3.5x over) and inlines
# small kernels, vectorised, at every call (tflm_id_model host: 0.64x), so
# a per-kernel table cannot be within 1.5x everywhere (measured
# on the shared models, 2026-11-26: 0.63x - 3.9x).  Skips (77) without the shared models.
set -u
te=$1 src=$2
# every kernel of the registry has a measured row (else its code counts 0)
missing=$(sed -n 's/^TE_KERNEL_DEF(\([A-Z0-9_]*\),.*/\1/p' "$src/runtime/te_kernels.def" |
  while read -r id; do
    grep -q "^TE_KERNEL_CODE($id," "$src/runtime/te_kernel_code.def" || echo "$id"
  done)
[ -z "$missing" ] || {
  echo "FAIL: no row in runtime/te_kernel_code.def for: $missing" \
    "(rerun sh tools/kernel_code.sh . build > runtime/te_kernel_code.def)"
  exit 1
}
models=$src/../shared/models
[ -d "$models" ] || { echo "skip: no $models"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/te-code-XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v arm-none-eabi-gcc >/dev/null 2>&1 || { echo "skip: no arm-none-eabi-gcc"; exit 77; }
targets=cortex-m4
pass=0 fail=0
# each model, and vww_96_int8 with --patch auto (clones, crop copies)
for m in hello_world_int8 ad01_int8 kws_ref_model micro_speech_quantized tflm_id_model \
         vww_96_int8 micro_speech_lstm person_detect; do
  f=$models/$m.tflite
  [ -f "$f" ] && echo "$f $targets off"
done >"$work/runs"
[ -f "$models/vww_96_int8.tflite" ] && echo "$models/vww_96_int8.tflite $targets auto" >>"$work/runs"
while read -r f t patch; do
  m=$(basename "$f" .tflite)
  opts="--target $t"
  [ "$patch" = auto ] && opts="$opts --patch auto" m="$m+patch"
  # shellcheck disable=SC2086
  est=$("$te" profile "$f" $opts --json 2>/dev/null |
        sed -n 's/.*"code_bytes": \([0-9]*\).*/\1/p' | head -1)
  [ -n "$est" ] || continue # not compiling yet (pending)
  cc="arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
  rm -rf "$work/gen"
  # shellcheck disable=SC2086
  if ! "$te" compile "$f" $opts --quiet -o "$work/gen" --name net >/dev/null 2>&1 ||
     ! $cc -O2 -c "$work/gen/net.c" -o "$work/gen/net.o"; then
    echo "FAIL: $m ($t) does not compile"
    fail=$((fail + 1))
    continue
  fi
  text=$(size -A "$work/gen/net.o" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }')
  lo=$((text / 2)) hi=$((text * 9 / 2))
  case $m.$t in
  kws_ref_model.cortex-m4 | vww_96_int8+patch.cortex-m4) lo=$text hi=$((text * 3 / 2)) ;;
  esac
  echo "$m ($t): estimate $est, .text $text"
  if [ "$est" -ge "$lo" ] && [ "$est" -le "$hi" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL: $m ($t): code estimate $est outside [$lo, $hi] (object .text $text)"
    fail=$((fail + 1))
  fi
done <"$work/runs"
echo "code_bound: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
