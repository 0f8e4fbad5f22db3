#!/bin/sh
# test_usage.sh TINYENGINE SRC_DIR MKMODEL - the commands do what --help
# says on the example model: compile writes NAME.h/NAME.c with the documented
# API, info --json has its keys and matches the header, run writes outputs,
# and two generated models link into one program.
set -u
te=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/te-usage-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
model=$src/examples/models/tiny_cnn.tflite
input=$src/examples/models/tiny_cnn_input.bin
cc=${CC:-cc}

ok sh -c "'$te' --help | grep -q '^usage: tinyengine'"
ok sh -c "'$te' compile --help | grep -q 'usage: tinyengine compile'"
ok sh -c "! '$te' >/dev/null 2>&1"
ok sh -c "'$te' --version | grep -q '^tinyengine '"

# compile: default name from the file name, the documented API in the header
ok "$te" compile "$model" -o "$work/gen"
ok test -f "$work/gen/tiny_cnn.h"
ok test -f "$work/gen/tiny_cnn.c"
for sym in 'int *tiny_cnn_invoke(void)' 'void *\*tiny_cnn_input(int i)' \
           'const void \*tiny_cnn_output(int i)' 'size_t *tiny_cnn_input_bytes(int i)' \
           'size_t *tiny_cnn_output_bytes(int i)' 'int *tiny_cnn_num_inputs(void)' \
           'int *tiny_cnn_num_outputs(void)' '#define TINY_CNN_ARENA_BYTES [0-9]'; do
  ok grep -q "$sym" "$work/gen/tiny_cnn.h"
done
ok sh -c "! grep -q 'malloc' '$work/gen/tiny_cnn.c'"

# info --json: keys, and arena equal to the header's
"$te" info "$model" --json >"$work/info.json"
for key in arena_bytes weights_bytes macs operators; do ok grep -q "\"$key\":" "$work/info.json"; done
arena=$(sed -n 's/^ *"arena_bytes": \([0-9]*\).*/\1/p' "$work/info.json")
ok grep -q "#define TINY_CNN_ARENA_BYTES $arena\$" "$work/gen/tiny_cnn.h"

# run: output file and per-layer dump (one file per operator output)
ok "$te" run "$model" --input "$input" -o "$work/out" --dump-layers "$work/layers"
ok test -s "$work/out/output_0.bin"
ok test "$(ls "$work/layers" | wc -l)" = 7
ok cmp -s "$work/layers/op006_0.bin" "$work/out/output_0.bin"

# run --samples: a folder of samples (input_<k>_<i>.bin) with one build, each
# output as a run of its own gives it; the state is reset between samples
mkdir -p "$work/samples"
cp "$input" "$work/samples/input_0_0.bin"
cp "$input" "$work/samples/input_7_0.bin"
head -c 768 /dev/urandom >"$work/samples/input_2_0.bin"
ok "$te" run "$model" --samples "$work/samples" -o "$work/sout" --quiet
ok cmp -s "$work/sout/output_0_0.bin" "$work/out/output_0.bin"
ok cmp -s "$work/sout/output_7_0.bin" "$work/out/output_0.bin"
ok "$te" run "$model" --input "$work/samples/input_2_0.bin" -o "$work/out2" --quiet
ok cmp -s "$work/sout/output_2_0.bin" "$work/out2/output_0.bin"
ok sh -c "'$te' run '$model' --samples '$work/out' -o '$work/x' 2>&1 | grep -q 'no samples'"
cp "$input" "$work/samples/input_7_1.bin"
ok sh -c "'$te' run '$model' --samples '$work/samples' -o '$work/x' 2>&1 | grep -q 'sample 7 has .*input_7_1.bin but the model has 1 input'"
ok sh -c "'$te' run '$model' --samples '$work/samples' --input '$input' -o '$work/x' 2>&1 | grep -q 'without --input'"

# two models (same file, two names) in one program, strict C99
ok "$te" compile "$model" -o "$work/two" --name net_a
ok "$te" compile "$model" -o "$work/two" --name net_b
cat >"$work/two/main.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "net_a.h"
#include "net_b.h"
int main(int argc, char **argv)
{
    static unsigned char in[768];
    FILE *f = fopen(argv[1], "rb");
    (void)argc;
    if (!f || fread(in, 1, sizeof in, f) != sizeof in) return 2;
    fclose(f);
    memcpy(net_a_input(0), in, net_a_input_bytes(0));
    memcpy(net_b_input(0), in, net_b_input_bytes(0));
    if (net_a_invoke() || net_b_invoke()) return 3;
    f = fopen(argv[2], "wb");
    fwrite(net_a_output(0), 1, net_a_output_bytes(0), f);
    fclose(f);
    return memcmp(net_a_output(0), net_b_output(0), net_a_output_bytes(0)) != 0;
}
C
ok $cc -std=c99 -Wall -Wextra -Werror -pedantic -O2 -o "$work/two/prog" "$work/two/net_a.c" \
   "$work/two/net_b.c" "$work/two/main.c"
ok "$work/two/prog" "$input" "$work/two/out.bin"
ok cmp -s "$work/two/out.bin" "$work/out/output_0.bin"

# --name must be a C identifier
ok sh -c "! '$te' compile '$model' -o '$work/x' --name '9 bad' 2>/dev/null"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
