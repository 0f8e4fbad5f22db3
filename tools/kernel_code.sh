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
# For the patch stages' code (src/plan/patch_code.c): what one call of a
# patch adds (TE_CODE_PATCH_CALL: calls of the same few operators cell
# after cell, each with a params record of its own and its operator's
# weights, measured on a file of that shape) and each kernel's params
# record (TE_KERNEL_PARAMS: sizeof its params struct, -1 for a kernel of
# plain arguments) and what a call of it adds beyond a patch call
# (TE_KERNEL_CALL: a kernel the compiler inlines at its calls, te_lut_s8 or
# te_quantize_f32_s8 at -O2, adds its code at each: 9 calls against 1, the
# arguments of its prototype as gcc -aux-info reads it, less the same calls
# of an external function), per target.
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

std_ifs=$IFS
# column COL: want, the ISA whose runtime cost model COL measures, and
# levels, its compiler commands (';' between them)
column() {
    case $1 in
    host) want=generic levels="$HOSTCC -O2" ;;
    x86-64-v3) want=avx2 levels="$HOSTCC -O2" ;;
    armv7m-portable) want=generic levels="$ARMCC $M0 -O2;$ARMCC $M0 -Os" ;;
    cortex-m4) want=dsp levels="$ARMCC $M4 -O2;$ARMCC $M4 -Os" ;;
    cortex-m7) want=dsp levels="$ARMCC $M7 -O2;$ARMCC $M7 -Os" ;;
    esac
}

# measure ISA FILE: one column per cost model, the largest over its levels;
# 0 for the columns of another ISA and where the file does not compile
# (the paste of a kernel for an ISA that does not build it)
measure() {
    isa=$1 f=$2 out=
    for col in host x86-64-v3 armv7m-portable cortex-m4 cortex-m7; do
        column "$col"
        # shellcheck disable=SC2086
        IFS=';'; set -- $levels; IFS=$std_ifs
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

# sizeof TYPE in FILE (a paste declaring it) per column, its ISA's
# compilers (the first level: the layout does not depend on it); 0 for the
# columns of another ISA
params_size() { # isa file type
    out=
    for col in host x86-64-v3 armv7m-portable cortex-m4 cortex-m7; do
        column "$col"
        cc=${levels%%;*}
        n=0
        if [ "$1" = "$want" ] || [ "$1" = any ]; then
            { cat "$2"; echo "const char te_params_size[sizeof($3)] = {0};"; } >"$tmp/p.c"
            # shellcheck disable=SC2086
            n=$($cc -std=c99 -w -c "$tmp/p.c" -o "$tmp/p.o" 2>/dev/null &&
                nm -S -t d "$tmp/p.o" | awk '$4 == "te_params_size" { print $2 + 0 }') || n=0
        fi
        out="$out, ${n:-0}"
    done
    echo "$out"
}

# calls FILE FUNCTION N [EXT]: FILE (a paste holding FUNCTION) and a function of
# N calls of it, the arguments of the prototype the compiler reads there
# (gcc -aux-info) shaped as generated code passes them: constant objects of
# their own for the const pointers (params records, weights, tables),
# regions of the arena far apart for the others, and for the other
# arguments values that differ per call (multiples of 64: counts a compiler
# may vectorise a loop over, as in generated code); fails when FUNCTION is
# not declared.  With EXT, the calls are of an external function of the same
# prototype instead (the cost of an ordinary call, nothing inlined).
calls() {
    "$HOSTCC" -std=c99 -w -aux-info "$tmp/aux" -c "$1" -o "$tmp/aux.o" 2>/dev/null &&
        cat "$1" &&
        awk -v fn="$2" -v n="$3" -v ext="${4:-}" '
        index($0, " " fn " (") && /NC \*\// {
            s = $0; sub(/.* \(/, "", s); sub(/\);.*/, "", s); na = split(s, t, ", "); found = 1
            exit
        }
        END {
            if (!found) exit 1
            print "static int8_t te_calls_arena[1 << 20];"
            callee = fn
            if (ext != "") {
                callee = "te_calls_ext"
                d = ""
                for (j = 1; j <= na; j++) d = d (j > 1 ? ", " : "") t[j]
                print "extern void te_calls_ext(" d ");"
            }
            for (i = 0; i < n; i++)
                for (j = 1; j <= na; j++)
                    if (t[j] ~ /\*/ && t[j] ~ /const/) printf "extern const char te_calls_c%d_%d[];\n", i, j
            print "void te_calls(void)"
            print "{"
            for (i = 0; i < n; i++) {
                a = ""
                for (j = 1; j <= na; j++) {
                    if (t[j] == "void" && na == 1) break
                    if (t[j] ~ /\*/ && t[j] ~ /const/) v = "(const void *)te_calls_c" i "_" j
                    else if (t[j] ~ /\*/) v = "(void *)(te_calls_arena + " (i * 8 + j) * 4096 ")"
                    else v = "(" t[j] ")(" 512 + 64 * i ")"
                    a = a (a == "" ? "" : ", ") v
                }
                printf "    %s(%s);\n", callee, a
            }
            print "}"
        }' "$tmp/aux"
}

# call_bytes ISA FILE FUNCTION: the bytes a call of FUNCTION adds beyond an
# ordinary call (its code, where the compiler inlines it at each call): 9
# calls against 1, less the same for an external function of its
# prototype, the largest over each column's levels; 0 for another ISA's
# columns, and every column 0 when the calls do not compile
call_bytes() {
    { calls "$2" "$3" 1 > "$tmp/c1.c" && calls "$2" "$3" 9 > "$tmp/c9.c" &&
      calls "$2" "$3" 1 ext > "$tmp/e1.c" && calls "$2" "$3" 9 ext > "$tmp/e9.c"; } ||
        { echo ", 0, 0, 0, 0, 0"; return; }
    out=
    for col in host x86-64-v3 armv7m-portable cortex-m4 cortex-m7; do
        column "$col"
        # shellcheck disable=SC2086
        IFS=';'; set -- $levels; IFS=$std_ifs
        best=0
        if [ "$isa" = "$want" ]; then
            for cc in "$@"; do
                # shellcheck disable=SC2086
                a=$(text "$tmp/c1.c" $cc) b=$(text "$tmp/c9.c" $cc)
                # shellcheck disable=SC2086
                x=$(text "$tmp/e1.c" $cc) y=$(text "$tmp/e9.c" $cc)
                if [ -n "$a" ] && [ -n "$b" ] && [ -n "$x" ] && [ -n "$y" ] &&
                   [ $(((b - a - (y - x) + 7) / 8)) -gt "$best" ]; then
                    best=$(((b - a - (y - x) + 7) / 8))
                fi
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

# per_isa FUNCTION HOW ARGS...: HOW ISA FILE ARGS... on each ISA's paste
# of FUNCTION (FILE), the largest per column
per_isa() {
    fn=$1 how=$2 r=
    shift 2
    for isa in generic avx2 dsp; do
        if "$paste" $isa "$fn" > "$tmp/k.c" 2>/dev/null; then
            m=$($how $isa "$tmp/k.c" "$@")
        else
            m=", 0, 0, 0, 0, 0"
        fi
        r=$(maxcols "${r:-, 0, 0, 0, 0, 0}" "$m")
    done
    echo "$r"
}

# all ISAs: each column measured with the runtime its target pastes
measure_all() { # kernel function
    r=$(per_isa "$1" measure)
    case $r in
    ", 0, 0, 0, 0, 0") echo "kernel_code.sh: $1 compiles for no target" >&2; exit 1 ;;
    esac
    echo "$r"
}

# calls_all FUNCTION: the bytes of one more call per column, each with the
# runtime its target pastes
calls_all() {
    per_isa "$1" call_bytes "$1"
}

# params_all FUNCTION TYPE: its params struct's size per column, each with
# the runtime its target pastes; -1 everywhere for plain arguments (-)
params_all() {
    if [ "$2" = - ]; then
        echo ", -1, -1, -1, -1, -1"
        return
    fi
    per_isa "$1" params_size "$2"
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

# Patch-shaped calls: CELLS cells of 4 operators, each call with a params
# record of its own, its operator's weights and requantization (shared by
# the cells) and arena regions (te_conv2d_gemm_s8's shape).
patch_calls() { # CELLS
    cat <<'C'
#include <stddef.h>
#include <stdint.h>
typedef struct { int32_t a, b, c, d; } te_params;
extern void te_kernel(const te_params *p, const int8_t *in, const int8_t *w, const int32_t *rq,
                      const int8_t *taps, int8_t *out);
static union { uint32_t align; int8_t bytes[65536]; } net_arena;
C
    for k in 0 1 2 3; do
        echo "static const int8_t w$k[8] = {$k};"
        echo "static const int32_t rq$k[2] = {$k};"
    done
    c=0
    while [ "$c" -lt "$1" ]; do
        for k in 0 1 2 3; do echo "static const te_params p${k}_$c = {$k, $c, 2, 3};"; done
        c=$((c + 1))
    done
    echo "void net_invoke(void)"
    echo "{"
    c=0
    while [ "$c" -lt "$1" ]; do
        for k in 0 1 2 3; do
            echo "    te_kernel(&p${k}_$c, net_arena.bytes + $((c * 1024 + k * 128)), w$k, rq$k, NULL," \
                 "net_arena.bytes + $((c * 1024 + k * 128 + 40000)));"
        done
        c=$((c + 1))
    done
    echo "}"
}

# --row DIR ID FUNCTION PARAMS: one kernel's rows into DIR/ID (the parallel jobs)
if [ "${1:-}" = --row ]; then
    m=$(measure_all "$4") || exit 1
    p=$(params_all "$4" "$5") || exit 1
    c=$(calls_all "$4") || exit 1
    # no params, no calls on a target that does not build the kernel
    p=$(echo "$m|$p" | awk -F'|' '{ n = split($1, a, ", "); split($2, b, ", ")
        for (i = 2; i <= n; i++) printf ", %d", (a[i] + 0 ? b[i] : 0); print "" }')
    c=$(echo "$m|$c" | awk -F'|' '{ n = split($1, a, ", "); split($2, b, ", ")
        for (i = 2; i <= n; i++) printf ", %d", (a[i] + 0 ? b[i] : 0); print "" }')
    { echo "TE_KERNEL_CODE($3$m)"; echo "TE_KERNEL_PARAMS($3$p)"; echo "TE_KERNEL_CALL($3$c)"; } > "$2/$3"
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
 *   TE_CODE_PATCH_CALL(HOST, ...)  what one call of a patch stage adds
 *       (the same operators cell after cell, each call with its own params)
 *   TE_KERNEL_PARAMS(ID, HOST, ...)  sizeof the kernel's params struct (-1:
 *       plain arguments)
 *   TE_KERNEL_CALL(ID, HOST, ...)  what a call of the kernel adds beyond
 *       TE_CODE_PATCH_CALL (its code where the compiler inlines it at calls)
 * The last three are read by the patch stage's code estimate
 * (src/plan/patch_code.c).
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
patch_calls 1 > "$tmp/c1.c"
patch_calls 9 > "$tmp/c9.c"
c1=$(measure any "$tmp/c1.c")
c9=$(measure any "$tmp/c9.c")
echo "$c1|$c9" | awk -F'|' '{ n = split($1, a, ", "); split($2, b, ", "); s = "TE_CODE_PATCH_CALL("
    for (i = 2; i <= n; i++) s = s (i > 2 ? ", " : "") int((b[i] - a[i] + 31) / 32); print s ")" }'
# id, function and params type of every registry entry (an entry may span lines)
tr '\n' ' ' < "$src/runtime/te_kernels.def" | grep -o 'TE_KERNEL_DEF([^)]*)' |
    sed 's/^TE_KERNEL_DEF(//; s/)$//; s/,/ /g' | awk '$2 ~ /^te_/ { print $1, $2, $4 }' > "$tmp/kernels"
# one kernel a job ($JOBS at once), each into its own file, then in registry order
mkdir "$tmp/rows"
export src build paste HOSTCC ARMCC M4 M7 M0
while read -r id fn ty; do
    case " ${ONLY:-$id} " in *" $id "*) echo "$id $fn $ty" ;; esac
done < "$tmp/kernels" |
    xargs -P "${JOBS:-2}" -n 3 sh "$0" --row "$tmp/rows" || exit 1
# the code rows in registry order, then the params rows, then the call rows
for macro in TE_KERNEL_CODE TE_KERNEL_PARAMS TE_KERNEL_CALL; do
    while read -r id fn ty; do
        if [ -f "$tmp/rows/$id" ]; then grep "^$macro(" "$tmp/rows/$id"; fi # ($ONLY: the others have none)
    done < "$tmp/kernels"
done
