#!/bin/sh
# portability.sh TINYENGINE MODEL... - the generated code of each model
# compiles warning-free as strict C99 with clang and with arm-none-eabi-gcc
# for a Cortex-M4 (generic and --target cortex-m4 code), and (on x86-64) its
# target x86-64-v3 code with clang (compile only; gcc is covered by
# check_model.sh), under the flags safety-minded firmware teams use:
# -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wundef.
# --generic: only the generic code (clang and arm-none-eabi-gcc), for the
# models whose operators have no target branches.
set -eu
te=$1; shift
targets=1
if [ "${1:-}" = --generic ]; then targets=0; shift; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/te-port-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0; n=0
for model in "$@"; do
  name=$(basename "$model" .tflite)
  "$te" compile "$model" -o "$work/$name" --name m >/dev/null || { echo "FAIL compile $name"; fail=1; continue; }
  flags="-std=c99 -Wall -Wextra -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wundef"
  flags="$flags -Werror -pedantic -O1 -c"
  if command -v clang >/dev/null; then
    clang $flags -o "$work/$name/m_clang.o" "$work/$name/m.c" || { echo "FAIL clang $name"; fail=1; }
  else echo "clang not installed"; fail=1; fi
  if command -v arm-none-eabi-gcc >/dev/null; then
    arm-none-eabi-gcc $flags -mcpu=cortex-m4 -mthumb -o "$work/$name/m_arm.o" "$work/$name/m.c" \
      || { echo "FAIL arm-none-eabi-gcc $name"; fail=1; }
    if [ "$targets" = 1 ]; then
      "$te" compile "$model" -o "$work/$name/m4" --name m --target cortex-m4 >/dev/null &&
        arm-none-eabi-gcc $flags -mcpu=cortex-m4 -mthumb -o "$work/$name/m4.o" "$work/$name/m4/m.c" \
        || { echo "FAIL arm-none-eabi-gcc --target cortex-m4 $name"; fail=1; }
    fi
  else echo "arm-none-eabi-gcc not installed"; fail=1; fi
  if [ "$targets" = 1 ] && [ "$(uname -m)" = x86_64 ] && command -v clang >/dev/null; then
    "$te" compile "$model" -o "$work/$name/v3" --name m --target x86-64-v3 >/dev/null &&
      clang $flags -o "$work/$name/m_v3.o" "$work/$name/v3/m.c" || { echo "FAIL clang x86-64-v3 $name"; fail=1; }
  fi
  n=$((n+1))
done
echo "portability: $n models, status $fail"
exit $fail
