#!/bin/sh
# test_multimodel.sh TINYENGINE SRC_DIR - several models in one library
# (`tinyengine compile A B C -o DIR`): one program links the three models'
# NAME.c with the shared LIB.c (no duplicate symbol), runs each model on its
# golden inputs, interleaved, and gets the golden outputs; the shared arena
# is the largest of the models' arenas; each model's header is the one a
# single-model compile writes; the Cortex-M4 objects link (ld -r) with each
# kernel defined once.  Skips (77) without ../shared.
set -u
te=$1 src=$2
shared="$src/../shared"
models="hello_world_int8 kws_ref_model micro_speech_quantized"
for m in $models; do
  [ -f "$shared/models/$m.tflite" ] && [ -f "$shared/golden/$m/output_1_0.bin" ] ||
    { echo "SKIP: $shared/models/$m.tflite or its goldens missing"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/te-multimodel-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
paths=""
for m in $models; do paths="$paths $shared/models/$m.tflite"; done

# shellcheck disable=SC2086
"$te" compile $paths -o "$work/lib" > "$work/summary.txt" || { echo "FAIL: compile"; exit 1; }
ok grep -q "wrote $work/lib/te_models.h and te_models.c: 3 models, one arena of" "$work/summary.txt"
for f in te_models.h te_models.c hello_world_int8.h hello_world_int8.c kws_ref_model.c; do
  ok [ -f "$work/lib/$f" ]
done
# each model's API is unchanged: the header of a single-model compile
for m in $models; do
  "$te" compile "$shared/models/$m.tflite" -o "$work/one" --quiet || { echo "FAIL: compile $m"; exit 1; }
  ok cmp -s "$work/one/$m.h" "$work/lib/$m.h"
done

# the program: each model on samples 0 and 1, interleaved a b c a b c
cat > "$work/main.c" <<'CEOF'
#include <stdio.h>
#include <string.h>
#include "hello_world_int8.h"
#include "kws_ref_model.h"
#include "micro_speech_quantized.h"
#include "te_models.h"

#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define LARGEST MAX2(HELLO_WORLD_INT8_ARENA_BYTES, MAX2(KWS_REF_MODEL_ARENA_BYTES, \
                     MICRO_SPEECH_QUANTIZED_ARENA_BYTES))
typedef char arena_is_the_largest[TE_MODELS_ARENA_BYTES == LARGEST ? 1 : -1];
typedef char arena_symbol_size[sizeof te_models_arena.bytes == LARGEST ? 1 : -1];

typedef struct {
    const char *name;
    int (*invoke)(void);
    void *(*input)(int);
    const void *(*output)(int);
    size_t (*input_bytes)(int);
    size_t (*output_bytes)(int);
} model;

static const model models[] = {
    {"hello_world_int8", hello_world_int8_invoke, hello_world_int8_input, hello_world_int8_output,
     hello_world_int8_input_bytes, hello_world_int8_output_bytes},
    {"kws_ref_model", kws_ref_model_invoke, kws_ref_model_input, kws_ref_model_output,
     kws_ref_model_input_bytes, kws_ref_model_output_bytes},
    {"micro_speech_quantized", micro_speech_quantized_invoke, micro_speech_quantized_input,
     micro_speech_quantized_output, micro_speech_quantized_input_bytes,
     micro_speech_quantized_output_bytes},
};

static int load(const char *path, void *to, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(to, 1, n, f) : 0;
    if (f)
        fclose(f);
    return got == n ? 0 : -1;
}

int main(int argc, char **argv)
{
    static unsigned char want[65536];
    char path[4096];
    int s, k, bad = 0;
    (void)argc;
    for (s = 0; s < 2; s++)
        for (k = 0; k < 3; k++) {
            const model *m = &models[k];
            size_t n = m->output_bytes(0);
            snprintf(path, sizeof path, "%s/%s/input_%d_0.bin", argv[1], m->name, s);
            if (load(path, m->input(0), m->input_bytes(0)) != 0 || m->invoke() != 0)
                return printf("%s: cannot load %s or invoke\n", m->name, path), 2;
            snprintf(path, sizeof path, "%s/%s/output_%d_0.bin", argv[1], m->name, s);
            if (n > sizeof want || load(path, want, n) != 0)
                return printf("%s: cannot read %s\n", m->name, path), 2;
            if (memcmp(want, m->output(0), n) != 0) {
                printf("%s sample %d: output differs from %s\n", m->name, s, path);
                bad = 1;
            } else {
                printf("%s sample %d: ok\n", m->name, s);
            }
        }
    return bad;
}
CEOF
cc=${CC:-cc}
ok "$cc" -std=c99 -O2 -Wall -Wextra -Werror -I"$work/lib" -o "$work/prog" "$work/main.c" \
  "$work/lib/te_models.c" "$work/lib/hello_world_int8.c" "$work/lib/kws_ref_model.c" \
  "$work/lib/micro_speech_quantized.c"
ok "$work/prog" "$shared/golden"
# the kernels are in te_models.c only, each once: the models' objects
# define no kernel (not even a static copy)
for f in "$work/lib"/*.c; do
  ok "$cc" -std=c99 -O0 -c "$f" -o "$f.o"
done
ok [ -n "$(nm "$work/lib/te_models.c.o" | grep ' T te_models_te_conv2d_gemm_s8$')" ]
ok [ -z "$(nm "$work/lib/kws_ref_model.c.o" "$work/lib/hello_world_int8.c.o" \
  "$work/lib/micro_speech_quantized.c.o" | grep -i ' [tw] te_')" ]

# names: --name and --lib; refusals
ok "$te" compile "$shared/models/hello_world_int8.tflite" "$shared/models/kws_ref_model.tflite" \
  -o "$work/named" --name sine,kws --lib nets --quiet
ok [ -f "$work/named/sine.c" ] && ok [ -f "$work/named/nets.h" ] && ok grep -q "nets_arena" "$work/named/kws.c"
refused() { "$@" > "$work/err.txt" 2>&1 && return 1; grep -q "error" "$work/err.txt"; }
ok refused "$te" compile "$shared/models/hello_world_int8.tflite" "$shared/models/kws_ref_model.tflite" -o "$work/x" --name one
ok refused "$te" compile "$shared/models/hello_world_int8.tflite" "$shared/models/hello_world_int8.tflite" -o "$work/x"
ok refused "$te" compile "$shared/models/hello_world_int8.tflite" "$shared/models/kws_ref_model.tflite" -o "$work/x" --lib kws_ref_model
ok refused "$te" compile "$shared/models/hello_world_int8.tflite" -o "$work/x" --lib 9lib

# Cortex-M4 (DSP kernels, patches): the objects link with no duplicate symbol
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  "$te" compile $paths "$shared/models/vww_96_int8.tflite" -o "$work/m4" --target cortex-m4 \
    --patch auto --quiet || { echo "FAIL: compile cortex-m4"; exit 1; }
  for f in "$work/m4"/*.c; do
    ok arm-none-eabi-gcc -std=c99 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -O2 -Wall -Wextra \
      -Werror -c "$f" -o "$f.o"
  done
  ok arm-none-eabi-ld -r -o "$work/m4/all.o" "$work/m4"/*.c.o
  dups=$(arm-none-eabi-nm "$work/m4"/*.c.o | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort | uniq -d)
  ok [ -z "$dups" ]
else
  echo "note: arm-none-eabi-gcc missing, Cortex-M4 link skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
