#!/bin/sh
# test_flash_bound.sh TINYENGINE SRC_DIR - issue 15's flash default: every
# shared real model compiled for --target cortex-m4 and --target cortex-m7
# with default options takes at most 1.25 x weights_bytes + 32 KiB of flash:
# text + data of the generated .c alone, arm-none-eabi-gcc -O2 -c for that
# core (as bench/speed_table.sh measures it).  Two compiles per model, all
# models (about 2-3 minutes).
# Skips (77) without the shared models or arm-none-eabi-gcc.
set -u
te=$1 src=$2
models=$src/../shared/models
[ -d "$models" ] || { echo "skip: no $models"; exit 77; }
command -v arm-none-eabi-gcc >/dev/null 2>&1 && command -v arm-none-eabi-size >/dev/null 2>&1 ||
  { echo "skip: no arm-none-eabi-gcc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/te-flash-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { # check MODEL_FILE TARGET CPU_FLAGS...
  f=$1 target=$2; shift 2
  m=$(basename "$f" .tflite)
  w=$("$te" info "$f" --target "$target" --json 2>/dev/null |
      sed -n 's/.*"weights_bytes": \([0-9]*\).*/\1/p' | head -1)
  [ -n "$w" ] || return 0 # not compiling yet (pending)
  bound=$((w + w / 4 + 32768))
  rm -rf "$work/gen"
  if ! "$te" compile "$f" --target "$target" --quiet -o "$work/gen" --name net >/dev/null 2>&1 ||
     ! arm-none-eabi-gcc "$@" -mthumb -mfloat-abi=hard -O2 -c "$work/gen/net.c" -o "$work/gen/net.o"; then
    echo "FAIL: $m ($target) does not compile"
    fail=$((fail + 1))
    return 0
  fi
  flash=$(arm-none-eabi-size "$work/gen/net.o" | awk 'NR == 2 { print $1 + $2 }')
  if [ "$flash" -le "$bound" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL: $m ($target): flash $flash > 1.25 x $w + 32768 = $bound"
    fail=$((fail + 1))
  fi
}
for f in "$models"/*.tflite; do
  check "$f" cortex-m4 -mcpu=cortex-m4 -mfpu=fpv4-sp-d16
  check "$f" cortex-m7 -mcpu=cortex-m7 -mfpu=fpv5-d16
done
echo "flash_bound: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
