#!/bin/sh
# kernel_code.sh - writes runtime/te_kernel_code.def: for every kernel of
# the registry (runtime/te_kernels.def) and every cost model, the bytes of
# code the kernel brings into a generated file, measured: the runtime the
# compiler pastes for that kernel alone (build/te_kernel_paste, the same
# cut, conditionals resolved for the target's ISA) compiled as the
# generated code is, the kernel kept out of line, and the .text sections
# of the object summed (the kernel and every helper it reaches).  The
# largest over the optimisation levels of each target:
#   host             cc -O2 (generic C)
#   x86-64-v3        cc -O2, AVX2 kernels (their functions carry the target
#                    attribute, as in generated code)
#   armv7m-portable  arm-none-eabi-gcc -mcpu=cortex-m0plus -O2 and -Os
#   cortex-m4/m7     arm-none-eabi-gcc -mcpu=cortex-m4/m7, hard float, DSP
#                    kernels, -O2 and -Os
# Beside them, the generated file's own code (TE_CODE_BASE: invoke, reset
# and accessor functions of a model without calls) and the bytes one more
# kernel call adds to the invoke function (TE_CODE_CALL: pointers to its
# params, arena buffers and constants), measured on a file of that shape.
# A kernel its target does not build (DSP kernels on the host, AVX2 ones on
# Arm) gets 0.  src/api/api_profile.c reads the table (profile's code
# estimate); cli.code_bound checks that estimate against real objects.
#
# usage: sh tools/kernel_code.sh [SRCDIR [BUILDDIR]] > runtime/te_kernel_code.def
# ($JOBS kernels measured at once, default 2; $ONLY: just these registry ids)
set -eu
if [ "${1:-}" != --row ]; then
    src=$(cd "${1:-.}" && pwd)
    build=$(cd "${2:-$src/build}" && pwd)
    paste=$build/te_kernel_paste
fi
[ -x "$paste" ] || { echo "kernel_code.sh: no $paste (build it first)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/te-kcode-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
HOSTCC=${HOSTCC:-cc}
ARMCC=${ARMCC:-arm-none-eabi-gcc}
M4="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
M7="-mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16"
M0="-mcpu=cortex-m0plus -mthumb"

# text CC FLAGS... FILE: bytes of the .text sections of FILE compiled ("" if it fails)
text() {
    f=$1; shift
    "$@" -std=c99 -w -c "$f" -o "$tmp/o.o" 2>/dev/null || { echo ""; return; }
    size -A "$tmp/o.o" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }'
}

# measure ISA FILE: one column per cost model, the largest over its levels;
# 0 for the columns of another ISA and where the file does not compile
# (the paste of a kernel for an ISA that does not build it)
measure() {
    isa=$1 f=$2 out=
    for col in host x86-64-v3 armv7m-portable cortex-m4 cortex-m7; do
        case $col in
        host) want=generic; set -- "$HOSTCC -O2" ;;
        x86-64-v3) want=avx2; set -- "$HOSTCC -O2" ;;
        armv7m-portable) want=generic; set -- "$ARMCC $M0 -O2" "$ARMCC $M0 -Os" ;;
        cortex-m4) want=dsp; set -- "$ARMCC $M4 -O2" "$ARMCC $M4 -Os" ;;
        cortex-m7) want=dsp; set -- "$ARMCC $M7 -O2" "$ARMCC $M7 -Os" ;;
        esac
        best=0
        if [ "$isa" = "$want" ] || [ "$isa" = any ]; then
            for cc in "$@"; do
                # shellcheck disable=SC2086
                n=$(text "$f" $cc)
                [ -n "$n" ] && [ "$n" -gt "$best" ] && best=$n
            done
        fi
        out="$out, $best"
    done
    echo "$out"
}

# the largest of two measure lines, column by column
maxcols() {
    echo "$1|$2" | awk -F'|' '{ n = split($1, a, ", "); split($2, b, ", ")
        for (i = 2; i <= n; i++) printf ", %d", (a[i] + 0 > b[i] + 0 ? a[i] : b[i]); print "" }'
}

# all ISAs: each column measured with the runtime its target pastes
measure_all() { # kernel function
    r=
    for isa in generic avx2 dsp; do
        if "$paste" $isa "$1" > "$tmp/k.c" 2>/dev/null; then
            m=$(measure $isa "$tmp/k.c")
        else
            m=", 0, 0, 0, 0, 0"
        fi
        r=$(maxcols "${r:-, 0, 0, 0, 0, 0}" "$m")
    done
    case $r in
    ", 0, 0, 0, 0, 0") echo "kernel_code.sh: $1 compiles for no target" >&2; exit 1 ;;
    esac
    echo "$r"
}

# A generated file's shape without kernels: N calls of an external kernel
# with a params record, arena pointers and constant arrays.
skeleton() { # N
    cat <<'C'
#include <stddef.h>
#include <stdint.h>
typedef struct { int32_t a, b, c, d; } te_params;
extern void te_kernel(const te_params *p, const int8_t *in, int8_t *out, const int8_t *w,
                      const int32_t *bias, const int32_t *rq, uint32_t *scratch);
static union { uint32_t align; int8_t bytes[4096]; } net_arena;
static int net_ready;
void net_reset(void) { net_ready = 0; }
int net_num_inputs(void) { return 1; }
int net_num_outputs(void) { return 1; }
int8_t *net_input(int i) { return i == 0 ? net_arena.bytes : NULL; }
int8_t *net_output(int i) { return i == 0 ? net_arena.bytes + 2048 : NULL; }
size_t net_input_bytes(int i) { return i == 0 ? 1024u : 0u; }
size_t net_output_bytes(int i) { return i == 0 ? 16u : 0u; }
C
    i=0
    while [ "$i" -lt "$1" ]; do
        echo "static const te_params p$i = {$i, 1, 2, 3};"
        echo "static const int8_t w$i[8] = {$i};"
        echo "static const int32_t b$i[2] = {$i}, rq$i[2] = {$i};"
        i=$((i + 1))
    done
    echo "void net_invoke(void)"
    echo "{"
    i=0
    while [ "$i" -lt "$1" ]; do
        echo "    te_kernel(&p$i, net_arena.bytes + $((i * 16)), net_arena.bytes + $((i * 16 + 1024)), w$i, b$i, rq$i, (uint32_t *)(void *)(net_arena.bytes + 3072));"
        i=$((i + 1))
    done
    echo "    net_ready = 1;"
    echo "}"
}

# --row DIR ID FUNCTION: one kernel's row into DIR/ID (the parallel jobs)
if [ "${1:-}" = --row ]; then
    m=$(measure_all "$4") || exit 1
    echo "TE_KERNEL_CODE($3$m)" > "$2/$3"
    exit 0
fi

cat <<'HDR'
/* te_kernel_code.def - bytes of code per kernel and cost model, measured:
 * the runtime the compiler pastes for the kernel alone, compiled as
 * generated code is (.text: the kernel and the helpers it reaches), the
 * largest over the levels of each target (host and x86-64-v3: cc -O2;
 * armv7m-portable (Cortex-M0+), cortex-m4, cortex-m7: arm-none-eabi-gcc
 * -O2 and -Os).  Written by tools/kernel_code.sh (do not edit; rerun it
 * after changing a kernel; cli.code_bound checks the estimate it makes
 * against the generated objects of the shared models).
 *
 *   TE_KERNEL_CODE(ID, HOST, X86_64_V3, ARMV7M_PORTABLE, CORTEX_M4, CORTEX_M7)
 *   TE_CODE_BASE(HOST, ...)  the generated file's own functions, no calls
 *   TE_CODE_CALL(HOST, ...)  what one kernel call adds to the invoke
 *
 * 0: the target does not build that kernel (DSP kernels, AVX2 kernels). */
HDR
skeleton 0 > "$tmp/s0.c"
skeleton 16 > "$tmp/s16.c"
s0=$(measure any "$tmp/s0.c")
s16=$(measure any "$tmp/s16.c")
echo "TE_CODE_BASE(${s0#, })"
echo "$s0|$s16" | awk -F'|' '{ n = split($1, a, ", "); split($2, b, ", "); s = "TE_CODE_CALL("
    for (i = 2; i <= n; i++) s = s (i > 2 ? ", " : "") int((b[i] - a[i] + 15) / 16); print s ")" }'
sed -n 's/^TE_KERNEL_DEF(\([A-Z0-9_]*\), *\([a-z0-9_]*\),.*/\1 \2/p' "$src/runtime/te_kernels.def" \
    > "$tmp/kernels"
# one kernel a job ($JOBS at once), each into its own file, then in registry order
mkdir "$tmp/rows"
export src build paste HOSTCC ARMCC M4 M7 M0
while read -r id fn; do
    case " ${ONLY:-$id} " in *" $id "*) echo "$id $fn" ;; esac
done < "$tmp/kernels" |
    xargs -P "${JOBS:-2}" -n 2 sh "$0" --row "$tmp/rows" || exit 1
while read -r id fn; do
    if [ -f "$tmp/rows/$id" ]; then cat "$tmp/rows/$id"; fi # ($ONLY: the others have none)
done < "$tmp/kernels"
