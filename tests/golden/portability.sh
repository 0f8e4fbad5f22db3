#!/bin/sh
# portability.sh TINYENGINE [--target TARGET] MODEL... - the generated code
# of each model compiles warning-free as strict C99 under the flags
# safety-minded firmware teams use (-Wconversion -Wsign-conversion -Wshadow
# -Wcast-align -Wundef): its generic code with clang and with
# arm-none-eabi-gcc for a Cortex-M4; with --target cortex-m4 its code for
# that target with arm-none-eabi-gcc, with --target x86-64-v3 (on x86-64)
# its AVX2 code with clang (compile only; gcc is covered by check_model.sh).
# tests/golden/golden.cmake runs the generic code of every conformance
# model and each target's code of the models with code of their own for it
# (tests/golden/sweep_TARGET.txt; the others' code is their generic code).
# arm-none-eabi-gcc builds at -O1, where gcc's flow-based warnings run;
# clang at -O0: its warnings come from its front end at every level, and
# -O0 still generates code (the target-feature checks of intrinsics).
set -eu
te=$1; shift
target=""
if [ "${1:-}" = --target ]; then target=$2; shift 2; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/te-port-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0; n=0
flags="-std=c99 -Wall -Wextra -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wundef"
flags="$flags -Werror -pedantic -c"
gcc_flags="$flags -O1" clang_flags="$flags -O0"
need() { command -v "$1" >/dev/null || { echo "FAIL: $1 not installed"; exit 1; }; }
case $target in
  "") need clang; need arm-none-eabi-gcc ;;
  cortex-m4) need arm-none-eabi-gcc ;;
  x86-64-v3) need clang
    [ "$(uname -m)" = x86_64 ] || { echo "skip: x86-64-v3 code on $(uname -m)"; exit 77; } ;;
  *) echo "FAIL: unknown target $target"; exit 1 ;;
esac
for model in "$@"; do
  name=$(basename "$model" .tflite) d=$work/$(basename "$model" .tflite)
  "$te" compile "$model" -o "$d" --name m ${target:+--target "$target"} >/dev/null ||
    { echo "FAIL compile $name ${target}"; fail=1; continue; }
  case $target in
    "") clang $clang_flags -o "$d/m_clang.o" "$d/m.c" || { echo "FAIL clang $name"; fail=1; }
        arm-none-eabi-gcc $gcc_flags -mcpu=cortex-m4 -mthumb -o "$d/m_arm.o" "$d/m.c" ||
          { echo "FAIL arm-none-eabi-gcc $name"; fail=1; } ;;
    cortex-m4) arm-none-eabi-gcc $gcc_flags -mcpu=cortex-m4 -mthumb -o "$d/m4.o" "$d/m.c" ||
          { echo "FAIL arm-none-eabi-gcc --target cortex-m4 $name"; fail=1; } ;;
    x86-64-v3) clang $clang_flags -o "$d/m_v3.o" "$d/m.c" || { echo "FAIL clang x86-64-v3 $name"; fail=1; } ;;
  esac
  rm -rf "$d"
  n=$((n+1))
done
echo "portability${target:+ ($target)}: $n models, status $fail"
exit $fail
