#!/bin/sh
# test_generated_code.sh TINYENGINE SRC_DIR MKMODEL - what the generated C
# carries (issue 12): portable C99 for the generic target (no assembly, no
# SSE/AVX intrinsics, few preprocessor conditionals, short pasted runtime
# lines, a bounded size), the placement hooks NAME_ARENA_ATTR and
# NAME_WEIGHTS_ATTR putting the arena and the weights in the sections asked
# for (Cortex-M4, arm-none-eabi-gcc), and model names of any length either
# compiled or refused with one line.
#
# kws_ref_model comes from the shared models (../shared next to the source
# tree); without them the checks run on examples/models/tiny_cnn.tflite and
# the test ends with 77 (skipped) unless CI=true.  Same for a missing
# arm-none-eabi-gcc.
set -u
te=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/te-gencode-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skipped=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
skip() { echo "SKIP: $*"; skipped=1; }

# Bounds for the generic kws_ref_model.c (5,289 lines, 52 conditionals and
# 25 asm blocks before).  Issue 12 asks for under 2,000 lines: the file was
# 1,935 since the flash default holds on the host targets too (issue 15: no
# int16 GEMM weights, ~760 lines, nor the GEMM kernel, ~520, within
# 1.25 x weights + 32 KiB): kernels the model calls (with their comments;
# each runtime file's top comment cut to its first paragraph), constant
# arrays (150 columns a line), kernel params (one designated field a line,
# emit_params.c), invoke and accessors.  Byte arrays of 4096+ elements
# are string literals of 38 bytes a line (kws's four 4096-byte conv weight
# arrays: 108 lines each, 99 as integer lists; and 14 lines of the file's
# comment and pragmas for them): ~50 lines for a compile ~15x faster on
# those weights.  3 of the 8 conditionals guard those pragmas.
# Tighten MAX_LINES when any of them shrinks.
MAX_LINES=2000
MAX_CONDITIONALS=8
MAX_COLUMNS=160

model=$src/../shared/models/kws_ref_model.tflite
name=kws_ref_model
if [ ! -f "$model" ]; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL: $model missing (CI=true)"
    exit 1
  fi
  skip "shared models absent: checks on tiny_cnn only"
  model=$src/examples/models/tiny_cnn.tflite
  name=tiny_cnn
fi

# ---- generic target: portable C99 only --------------------------------------
ok "$te" compile "$model" -o "$work/gen" --name "$name"
c=$work/gen/$name.c
ok test -f "$c"
ok test "$(grep -c '__asm__' "$c")" -eq 0
ok test "$(grep -cE '_mm[0-9]*_|immintrin|emmintrin|__m128|__m256' "$c")" -eq 0
conds=$(grep -cE '^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef)([^a-z_]|$)' "$c")
ok test "$conds" -le $MAX_CONDITIONALS
lines=$(wc -l <"$c")
if [ "$name" = kws_ref_model ]; then
  ok test "$lines" -lt $MAX_LINES
fi
# no line over MAX_COLUMNS characters, pasted runtime and generated code alike
long=$(awk -v m=$MAX_COLUMNS 'length($0) > m' "$c" | wc -l)
ok test "$long" -eq 0
# and it is C99 a strict compiler takes
if command -v cc >/dev/null 2>&1; then
  ok cc -std=c99 -pedantic -Wall -Wextra -Werror -c "$c" -o "$work/gen.o"
fi
echo "generic $name.c: $lines lines, $conds conditionals"

# ---- cortex-m4: the placement hooks ------------------------------------------
up=$(echo "$name" | tr 'a-z' 'A-Z')
ok "$te" compile "$model" -o "$work/m4" --name "$name" --target cortex-m4
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  ok arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -std=c99 -Wall -Wextra -Werror \
     "-D${up}_ARENA_ATTR=__attribute__((section(\".dtcm\")))" \
     "-D${up}_WEIGHTS_ATTR=__attribute__((section(\".extflash\")))" \
     -c "$work/m4/$name.c" -o "$work/m4.o"
  arm-none-eabi-objdump -t "$work/m4.o" >"$work/m4.syms" 2>/dev/null
  # the arena: in .dtcm
  ok grep -qE "[[:space:]]\.dtcm[[:space:]]+[0-9a-f]+[[:space:]]+${name}_arena\$" "$work/m4.syms"
  # every constant array (static const T NAME_...[n] NAME_WEIGHTS_ATTR): in
  # .extflash, and there are some
  sed -n 's/^static const [a-z0-9_]* \([A-Za-z0-9_]*\)\[[0-9]*\] [A-Z0-9_]*_WEIGHTS_ATTR = .*/\1/p' \
      "$work/m4/$name.c" | sort -u >"$work/m4.arrays"
  # (those the compiler kept: a table every read of which it folded is gone)
  awk '{print $NF}' "$work/m4.syms" | sort -u | comm -12 - "$work/m4.arrays" >"$work/m4.kept"
  n_const=$(wc -l <"$work/m4.kept")
  n_placed=$(awk '$4 == ".extflash" {print $NF}' "$work/m4.syms" | sort -u |
             comm -12 - "$work/m4.kept" | wc -l)
  ok test "$n_const" -gt 0
  ok test "$n_placed" -eq "$n_const"
  # without the macros: the usual sections
  ok arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -std=c99 -Wall -Wextra -Werror \
     -c "$work/m4/$name.c" -o "$work/m4plain.o"
  ok sh -c "! arm-none-eabi-objdump -h '$work/m4plain.o' | grep -qE '\\.dtcm|\\.extflash'"
elif [ "${CI:-}" = true ]; then
  ok false "arm-none-eabi-gcc missing (CI=true)"
else
  skip "arm-none-eabi-gcc absent: placement not checked"
fi

# ---- names of any length: compiled, or one line and a non-zero exit ----------
long_name=$(printf 'a%.0s' $(seq 1 100))
if "$te" compile "$src/examples/models/tiny_cnn.tflite" -o "$work/long" --name "$long_name" \
     2>"$work/long.err"; then
  ok cc -std=c99 -Wall -Wextra -Werror -c "$work/long/$long_name.c" -o "$work/long.o"
else
  ok test "$(wc -l <"$work/long.err")" -eq 1
  ok grep -q 'at most 63' "$work/long.err"
fi
# the longest accepted name compiles
name63=$(printf 'b%.0s' $(seq 1 63))
ok "$te" compile "$src/examples/models/tiny_cnn.tflite" -o "$work/n63" --name "$name63"
if command -v cc >/dev/null 2>&1; then
  ok cc -std=c99 -Wall -Wextra -Werror -c "$work/n63/$name63.c" -o "$work/n63.o"
fi

echo "test_generated_code: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
[ "$skipped" -eq 0 ] || exit 77
exit 0
