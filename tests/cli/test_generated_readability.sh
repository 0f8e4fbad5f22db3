#!/bin/sh
# test_generated_readability.sh TINYENGINE SRC_DIR - the generated code a
# firmware engineer reads: kernel params are `static const` file-scope
# objects (flash) with one designated field per line, NAME_invoke holds no
# compound literal (they would live on its stack), arena tensors are macros
# named after the model's tensors, constants are named after the operator
# they belong to, byte arrays of 4096 or more elements are string literals
# of exactly their N bytes, 38 a line (compilers read them ~15x faster than
# integer lists), and the code after the pasted runtime keeps its lines
# under 160 characters.  With arm-none-eabi-gcc and the shared models: the
# invoke frame of vww_96_int8 (--patch auto, Cortex-M4, -O2) is at most
# 2 KiB.  Exit 77 (skipped) when only that part cannot run, unless CI=true.
set -u
te=$1 src=$2
shared=$src/../shared
work=$(mktemp -d "${TMPDIR:-/tmp}/te-readable-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skipped=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }

# The part of FILE after the pasted runtime: constants, invoke, accessors.
own_part() { sed -n '/^\/\* ---- constants (flash) ---- \*\//,$p' "$1"; }
invoke_of() { sed -n "/^int $2_invoke(void)\$/,/^}\$/p" "$1"; }

no_long_lines() { [ -z "$(own_part "$1" | awk 'length > 159')" ]; }
no_compound_literals() { ! invoke_of "$1" "$2" | grep -Eq '\(const [A-Za-z_][A-Za-z_0-9 ]*(\[[0-9]*\])?\) *\{'; }
no_static_in_invoke() { ! invoke_of "$1" "$2" | grep -q 'static'; }
# every params object: "static const te_X_params NAME = {", then only
# "    .field = value," lines, then "};"
params_one_field_per_line() {
  awk '
    /^static const te_[a-z0-9_]*_params [A-Za-z_0-9]* = \{$/ { inside = 1; objs++; next }
    inside && /^};$/ { inside = 0; next }
    inside && !/^    \.[a-z_0-9]+ = [^,]+(, [^,]+)*,$/ { bad++; print "bad field line: " $0 }
    END { exit (objs > 0 && bad == 0 && inside == 0) ? 0 : 1 }' "$1"
}
# byte arrays of 4096 or more elements: "static const int8_t NAME[N] ATTR
# =" (a variable's initial value: no ATTR), then lines of "\xHH" (38 bytes
# each, the last fewer) holding exactly N bytes, the last ending in ";" (no
# room for the NUL: no array outgrows its integer list); before them, once
# and only when the file has them, the pragmas turning off
# -Woverlength-strings and (GCC 15+, Clangs that know it)
# -Wunterminated-string-initialization; smaller arrays stay integer lists.
byte_strings_well_formed() {
  awk '
    /^static const u?int8_t [A-Za-z_0-9]+\[[0-9]+\]( [A-Z_0-9]+_WEIGHTS_ATTR)? =$/ {
      if (!overlength || unterminated != 2) { bad++; print "string before the pragmas: " $0 }
      split($4, d, /[][]/); want = d[2] + 0; got = 0; inside = 1; arrays++
      if (want < 4096) { bad++; print "short string: " $0 }
      next }
    /^#pragma GCC diagnostic ignored "-Woverlength-strings"$/ { overlength++; next }
    /^#pragma GCC diagnostic ignored "-Wunterminated-string-initialization"$/ { unterminated++; next }
    /^#elif defined\(__GNUC__\) && __GNUC__ >= 15$/ { gcc15++; next }
    /^static const u?int8_t [A-Za-z_0-9]+\[[0-9]+\].* = \{$/ {
      split($4, d, /[][]/); if (d[2] + 0 >= 4096) { bad++; print "long integer list: " $0 } }
    /^static const u?int8_t [A-Za-z_0-9]+\[[0-9]+ *\+/ { bad++; print "array longer than its data: " $0 }
    inside {
      line = $0; end = sub(/;$/, "", line)
      if (line !~ /^    "(\\x[0-9a-f][0-9a-f])+"$/) { bad++; print "bad string line: " $0 }
      n = (length(line) - 6) / 4; got += n
      if (n > 38 || (!end && n != 38)) { bad++; print "line of " n " bytes: " $0 }
      if (end) { inside = 0; if (got != want) { bad++; print "array of " want " holds " got } }
    }
    END {
      pragmas = arrays > 0
      if (overlength != pragmas || unterminated != 2 * pragmas || gcc15 != pragmas) {
        bad++; print "pragmas: " overlength " " unterminated " " gcc15 " for " arrays " strings" }
      exit (bad == 0 && inside == 0) ? 0 : 1 }' "$1"
}
calls_pass_params_by_name() { invoke_of "$1" "$2" | grep -Eq "\(&$2_op[0-9]+_[a-z0-9_]*params(_[0-9]+)?,"; }

check_model() { # model name target
  out=$work/$2_$3
  if ! "$te" compile "$1" -o "$out" --name "$2" --target "$3"; then
    fail=$((fail+1)); echo "FAIL: compile $1 --target $3"; return
  fi
  ok no_long_lines "$out/$2.c"
  ok no_compound_literals "$out/$2.c" "$2"
  ok no_static_in_invoke "$out/$2.c" "$2"
  ok params_one_field_per_line "$out/$2.c"
  ok calls_pass_params_by_name "$out/$2.c" "$2"
  ok byte_strings_well_formed "$out/$2.c"
}

for target in generic cortex-m4 x86-64-v3; do
  check_model "$src/examples/models/tiny_cnn.tflite" net "$target"
  c=$work/net_$target/net.c
  # tensors by their model names, used in the calls; constants by operator
  ok grep -q '^#define NET_T_conv1_relu6 ((int8_t \*)(net_arena.bytes + [0-9]*)) /\* conv1/relu6 \*/$' "$c"
  ok sh -c "sed -n '/^int net_invoke/,/^}/p' '$c' | grep -q 'NET_T_input'"
  ok grep -Eq '^static const int(8|16|32)_t net_op[0-9]+_weights(_packed)?\[[0-9]+\] NET_WEIGHTS_ATTR = \{$' "$c"
  if [ "$target" = generic ]; then
    ok grep -q '^static const int8_t net_op5_weights\[64\] NET_WEIGHTS_ATTR = {$' "$c"
    ok grep -q '^static const int32_t net_op5_bias\[4\] NET_WEIGHTS_ATTR = {$' "$c"
  fi
  ok sh -c "! sed -n '/^int net_invoke/,/^}/p' '$c' | grep -q 'net_arena.bytes + [0-9]*)), '"
done
# the generated code still builds cleanly as C99 on the host
if command -v cc >/dev/null 2>&1; then
  ok cc -std=c99 -Wall -Wextra -Werror -pedantic -c "$work/net_generic/net.c" -o "$work/net.o"
fi

if [ -d "$shared/models" ]; then
  for target in generic cortex-m4; do
    check_model "$shared/models/kws_ref_model.tflite" kws "$target"
  done
  # its 4096-byte conv weights are string literals
  ok grep -q '^static const int8_t kws_op2_weights\[4096\] KWS_WEIGHTS_ATTR =$' "$work/kws_generic/kws.c"
  check_model "$shared/models/vww_96_int8.tflite" vww cortex-m4
fi

# the invoke's frame: kernel params in flash, not on the stack
stack_check() {
  "$te" compile "$shared/models/vww_96_int8.tflite" -o "$work/vwwp" --name vww --target cortex-m4 \
    --patch auto || return 1
  (cd "$work/vwwp" && arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -std=c99 -fstack-usage \
    -c vww.c -o vww.o) || return 1
  frame=$(awk -F'\t' '$1 ~ /:vww_invoke$/ { print $2 }' "$work/vwwp/vww.su")
  echo "vww_96_int8 --patch auto, cortex-m4 -O2: invoke frame $frame bytes"
  [ -n "$frame" ] && [ "$frame" -le 2048 ]
}
if command -v arm-none-eabi-gcc >/dev/null 2>&1 && [ -f "$shared/models/vww_96_int8.tflite" ]; then
  ok stack_check
elif [ "${CI:-}" = true ]; then
  fail=$((fail+1)); echo "FAIL: CI needs arm-none-eabi-gcc and $shared for the stack check"
else
  skipped=1; echo "skipped: the stack check needs arm-none-eabi-gcc and $shared"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ] || exit 1
[ "$skipped" = 0 ] || exit 77
