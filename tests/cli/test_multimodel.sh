#!/bin/sh
# test_multimodel.sh TINYENGINE SRC_DIR - several models in one library
# (`tinyengine compile A B C -o DIR`): one program links the models'
# NAME.c with the shared LIB.c (no duplicate symbol), runs each model on its
# golden inputs, interleaved (samples 0 and 1 of each in turn), and gets the
# golden outputs; the shared arena is the largest of the models' arenas;
# each model's header is the one a single-model compile writes; the models'
# objects hold no kernel.  With arm-none-eabi-gcc: the same for Cortex-M4
# (DSP kernels, --patch auto, vww_96_int8 added), linked with no duplicate
# symbol and, with qemu-system-arm, run under QEMU.  Skips (77) without
# ../shared.
set -u
te=$1 src=$2
case $src in /*) ;; *) src=$PWD/$src ;; esac
shared="$src/../shared"
models="hello_world_int8 kws_ref_model micro_speech_quantized"
for m in $models vww_96_int8; do
  [ -f "$shared/models/$m.tflite" ] && [ -f "$shared/golden/$m/output_1_0.bin" ] ||
    { echo "SKIP: $shared/models/$m.tflite or its goldens missing"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/te-multimodel-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $*"; fi; }
paths() { for m in "$@"; do printf '%s ' "$shared/models/$m.tflite"; done; }
upper() { printf '%s' "$1" | tr a-z A-Z; }

# main.c for the models given: each model on samples 0 and 1 in turn, every
# output compared with the golden; the arena checks at compile time.
# Host files through stdio, or semihosting on a Cortex-M.
gen_main() {
  largest=0
  for m in "$@"; do echo "#include \"$m.h\""; done
  cat <<'CEOF'
#include "te_models.h"
#include <stdio.h>
#include <string.h>
#ifdef __arm__
#include "semihost.h"
static int load(const char *path, void *to, size_t n)
{
    int fd = te_sh_open(path, 1), r = fd >= 0 && te_sh_flen(fd) == (long)n && te_sh_read(fd, to, n) == 0;
    if (fd >= 0)
        te_sh_close(fd);
    return r ? 0 : -1;
}
#define say(s) te_sh_puts(s)
#else
static int load(const char *path, void *to, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(to, 1, n, f) : 0;
    if (f)
        fclose(f);
    return got == n ? 0 : -1;
}
#define say(s) fputs(s, stdout)
#endif
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
typedef struct {
    const char *name;
    int (*invoke)(void);
    void *(*input)(int);
    const void *(*output)(int);
    size_t (*input_bytes)(int);
    size_t (*output_bytes)(int);
} model;
static const model models[] = {
CEOF
  for m in "$@"; do
    echo "    {\"$m\", ${m}_invoke, ${m}_input, ${m}_output, ${m}_input_bytes, ${m}_output_bytes},"
    largest="MAX2($(upper "$m")_ARENA_BYTES, $largest)"
  done
  cat <<CEOF
};
#define N_MODELS $#
#define LARGEST ($largest)
CEOF
  cat <<'CEOF'
typedef char arena_is_the_largest[TE_MODELS_ARENA_BYTES == LARGEST ? 1 : -1];
typedef char arena_symbol_size[sizeof te_models_arena.bytes == LARGEST ? 1 : -1];
static unsigned char want[16384];
static char path[1024], line[256];

int main(void)
{
    int s, k, bad = 0;
    for (s = 0; s < 2; s++)
        for (k = 0; k < N_MODELS; k++) {
            const model *m = &models[k];
            size_t n = m->output_bytes(0);
            snprintf(path, sizeof path, "%s/%s/input_%d_0.bin", GOLDEN, m->name, s);
            if (load(path, m->input(0), m->input_bytes(0)) != 0 || m->invoke() != 0) {
                say("cannot load an input or invoke\n");
                return 2;
            }
            snprintf(path, sizeof path, "%s/%s/output_%d_0.bin", GOLDEN, m->name, s);
            if (n > sizeof want || load(path, want, n) != 0) {
                say("cannot read an output\n");
                return 2;
            }
            bad |= memcmp(want, m->output(0), n) != 0;
            snprintf(line, sizeof line, "%s sample %d: %s\n", m->name, s,
                     memcmp(want, m->output(0), n) ? "DIFFERS" : "ok");
            say(line);
        }
    return bad;
}
CEOF
}

# shellcheck disable=SC2046
"$te" compile $(paths $models) -o "$work/lib" > "$work/summary.txt" || { echo "FAIL: compile"; exit 1; }
ok grep -q "wrote $work/lib/te_models.h and te_models.c: 3 models, one arena of" "$work/summary.txt"
for f in te_models.h te_models.c hello_world_int8.h hello_world_int8.c kws_ref_model.c; do
  ok [ -f "$work/lib/$f" ]
done
# each model's API is unchanged: the header of a single-model compile
for m in $models; do
  "$te" compile "$shared/models/$m.tflite" -o "$work/one" --quiet || { echo "FAIL: compile $m"; exit 1; }
  ok cmp -s "$work/one/$m.h" "$work/lib/$m.h"
done

# shellcheck disable=SC2086
gen_main $models > "$work/main.c"
cc=${CC:-cc}
ok "$cc" -std=c99 -O2 -Wall -Wextra -Werror -DGOLDEN="\"$shared/golden\"" -I"$work/lib" \
  -o "$work/prog" "$work/main.c" "$work/lib"/*.c
ok "$work/prog"
# the kernels are in te_models.c only, each once: the models' objects
# define no kernel (not even a static copy)
for m in te_models $models; do
  ok "$cc" -std=c99 -O0 -c "$work/lib/$m.c" -o "$work/lib/$m.o"
done
ok [ -n "$(nm "$work/lib/te_models.o" | grep ' T te_models_te_conv2d_w8_s8$')" ]
for m in $models; do
  ok [ -z "$(nm "$work/lib/$m.o" | grep -i ' [tw] te_')" ]
done

# names: --name and --lib; refusals
ok "$te" compile $(paths hello_world_int8 kws_ref_model) -o "$work/named" --name sine,kws --lib nets --quiet
ok [ -f "$work/named/sine.c" ] && ok [ -f "$work/named/nets.h" ] && ok grep -q "nets_arena" "$work/named/kws.c"
refused() { "$@" > "$work/err.txt" 2>&1 && return 1; grep -q "error" "$work/err.txt"; }
ok refused "$te" compile $(paths hello_world_int8 kws_ref_model) -o "$work/x" --name one
ok refused "$te" compile $(paths hello_world_int8 hello_world_int8) -o "$work/x"
ok refused "$te" compile $(paths hello_world_int8 kws_ref_model) -o "$work/x" --lib kws_ref_model
ok refused "$te" compile $(paths hello_world_int8) -o "$work/x" --lib 9lib

# state survives: mnist_lstm_int8 (LSTM state) fed samples 0, 1, 2 in turn,
# alone in its own build and with kws_ref_model invoked in between from a
# shared arena: the same outputs
if [ -f "$shared/golden/mnist_lstm_int8/input_2_0.bin" ]; then
  "$te" compile $(paths mnist_lstm_int8 kws_ref_model) -o "$work/st" --quiet || echo "FAIL: compile state"
  "$te" compile $(paths mnist_lstm_int8) -o "$work/st1" --quiet || echo "FAIL: compile state alone"
  cat > "$work/state.c" <<CEOF
#include <stdio.h>
#include "mnist_lstm_int8.h"
#ifdef WITH_KWS
#include "kws_ref_model.h"
#endif
static int load(const char *path, void *to, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(to, 1, n, f) : 0;
    if (f)
        fclose(f);
    return got == n ? 0 : -1;
}
int main(void)
{
    char path[1024];
    int s;
    for (s = 0; s < 3; s++) {
        snprintf(path, sizeof path, "$shared/golden/mnist_lstm_int8/input_%d_0.bin", s);
        if (load(path, mnist_lstm_int8_input(0), mnist_lstm_int8_input_bytes(0)) || mnist_lstm_int8_invoke())
            return 2;
        fwrite(mnist_lstm_int8_output(0), 1, mnist_lstm_int8_output_bytes(0), stdout);
#ifdef WITH_KWS
        snprintf(path, sizeof path, "$shared/golden/kws_ref_model/input_%d_0.bin", s);
        if (load(path, kws_ref_model_input(0), kws_ref_model_input_bytes(0)) || kws_ref_model_invoke())
            return 2;
#endif
    }
    return 0;
}
CEOF
  ok "$cc" -std=c99 -O2 -Wall -Wextra -Werror -DWITH_KWS -I"$work/st" -o "$work/st/prog" "$work/state.c" "$work/st"/*.c
  ok "$cc" -std=c99 -O2 -Wall -Wextra -Werror -I"$work/st1" -o "$work/st1/prog" "$work/state.c" "$work/st1"/*.c
  "$work/st/prog" > "$work/st/out.bin" && "$work/st1/prog" > "$work/st1/out.bin"
  ok [ -s "$work/st1/out.bin" ]
  ok cmp -s "$work/st/out.bin" "$work/st1/out.bin"
  ok grep -q 'static union' "$work/st/mnist_lstm_int8.c"   # its state, in its own file
fi

# Cortex-M4: DSP kernels, patches
if ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  echo "note: arm-none-eabi-gcc missing, Cortex-M4 skipped"
  echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit
fi
m4="$models vww_96_int8"
tdir=$src/targets/cortex-m
flags="-std=c99 -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb -O2"
# shellcheck disable=SC2046
"$te" compile $(paths $m4) -o "$work/m4" --target cortex-m4 --patch auto --quiet ||
  { echo "FAIL: compile cortex-m4"; exit 1; }
for m in te_models $m4; do
  ok arm-none-eabi-gcc $flags -Wall -Wextra -Werror -c "$work/m4/$m.c" -o "$work/m4/$m.o"
done
ok arm-none-eabi-ld -r -o "$work/m4/all.r" "$work/m4"/*.o
dups=$(arm-none-eabi-nm "$work/m4"/*.o | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort | uniq -d)
ok [ -z "$dups" ]
if command -v qemu-system-arm >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  gen_main $m4 > "$work/m4/main.c"
  ok arm-none-eabi-gcc $flags -DGOLDEN="\"$shared/golden\"" -I"$work/m4" -I"$tdir" \
    -nostartfiles --specs=nano.specs --specs=nosys.specs -Wl,--gc-sections -L"$tdir" \
    -T"$tdir/mps2-an386.ld" -o "$work/m4/prog.elf" "$work/m4/main.c" "$work/m4/te_models.c" \
    $(for m in $m4; do printf '%s ' "$work/m4/$m.c"; done) "$tdir/startup.c" "$tdir/semihost.c" -lm
  timeout 300 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
    -semihosting-config enable=on,target=native -kernel "$work/m4/prog.elf" 2>"$work/m4/qemu.txt"
  ok [ $? -eq 0 ]
  ok [ "$(grep -c ': ok$' "$work/m4/qemu.txt")" -eq 8 ]
  cat "$work/m4/qemu.txt"
else
  echo "note: qemu-system-arm missing, Cortex-M4 run skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
