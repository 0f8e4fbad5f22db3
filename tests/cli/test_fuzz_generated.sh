#!/bin/sh
# test_fuzz_generated.sh TINYENGINE SRC_DIR MKMODEL - the generated code of
# every fuzz regression input that must compile (tests/unit/fuzz_regressions/
# compile-*.bin whose .expect says "ok"): `tinyengine compile` with the
# options of its first byte (fuzz/fuzz_options.h), then a build with
# -std=c99 -Wall -Wextra -Werror -pedantic (plus $TE_HARNESS_CFLAGS, the
# sanitizers under tests/run_all.sh) and one inference on zero inputs.
set -u
te=$1 src=$2
cc=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/te-fuzzgen-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
cat >"$work/main.c" <<'C'
#include <string.h>
#include "net.h"
int main(void)
{
    int i;
    for (i = 0; i < net_num_inputs(); i++)
        memset(net_input(i), 0, net_input_bytes(i));
    return net_invoke() == 0 ? 0 : 3;
}
C
# fuzz_options.h as command-line flags
flags_of() {
  b=$1 f=""
  [ $((b & 1)) = 1 ] && f="$f --int8-io"
  if [ $((b & 2)) = 2 ]; then
    if [ $((b & 16)) = 16 ]; then g=$((2 + (b >> 7))); f="$f --patch $(((b >> 5 & 3) + 1)):${g}x$g"
    else f="$f --patch auto"; fi
  fi
  case $((b >> 2 & 3)) in 1) f="$f --target cortex-m4";; 2) f="$f --target cortex-m0plus";;
                          3) f="$f --target cortex-m7";;
                          0) [ $((b & 18)) = 16 ] && f="$f --target x86-64-v3";; esac
  echo "$f"
}
for expect in "$src"/tests/unit/fuzz_regressions/compile-*.expect; do
  [ -f "$expect" ] || continue
  [ "$(head -n 1 "$expect")" = ok ] || continue
  bin=${expect%.expect}.bin name=$(basename "$bin" .bin)
  tail -c +2 "$bin" >"$work/model.tflite"
  rm -rf "$work/gen"
  # shellcheck disable=SC2046
  if "$te" compile "$work/model.tflite" -o "$work/gen" --name net \
        $(flags_of "$(od -An -tu1 -N1 "$bin" | tr -d ' ')") >"$work/log" 2>&1 &&
     # shellcheck disable=SC2086
     $cc -std=c99 -O1 -Wall -Wextra -Werror -pedantic ${TE_HARNESS_CFLAGS:-} -I"$work/gen" \
        "$work"/gen/*.c "$work/main.c" -o "$work/run" >>"$work/log" 2>&1 &&
     "$work/run" >>"$work/log" 2>&1; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "FAIL $name:"; head -5 "$work/log"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
