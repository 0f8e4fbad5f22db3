#!/bin/sh
# kernel_stack.sh - writes runtime/te_kernel_stack.def: for every kernel of
# the registry (runtime/te_kernels.def), the deepest stack its call chain
# needs, measured from the compilers' own call graphs (-fcallgraph-info=su).
#
# Each runtime family is compiled on its own (kernels external, TE_KERNEL=)
# at -O0, -Og, -O1, -O2, -O3 and -Os, for Cortex-M0+, Cortex-M4 and
# Cortex-M7 (DSP kernels on the M4/M7) with arm-none-eabi-gcc and for
# x86-64-v3 (AVX2 kernels) with the host gcc.  A kernel's depth is its own
# frame plus the deepest of its callees, recursively; a call out of the
# file (memcpy, memset) counts EXTERNAL bytes.  Four numbers per kernel,
# the largest over the CPUs and levels of each group:
#   arm_opt  32-bit Arm, optimised (-Og .. -O3, -Os)    arm_o0  32-bit Arm, -O0
#   x64_opt  x86-64, optimised                           x64_o0  x86-64, -O0
# Unbounded dynamic stack (alloca, VLAs; "dynamic,bounded", the realigned
# frames of AVX2 code, is fine: its size is the bound) or recursion fails
# the run (the bound would not be a bound), except the bounded
# self-recursion listed in RECURSION (function:most frames at once;
# te_pad_axis and te_pad_axis_s16 walk 5 axes).  An indirect call (a `(c ? f : g)(...)` at
# -O0) counts as the deepest function of the file not already on the path.
# Stack an optimised kernel's inline assembly pushes, which no call graph
# shows, is added from ASM_PUSH (kernel:bytes; te_conv2d_dsp_s8 saves r7
# around its SMLAD loops).
#
# usage: sh tools/kernel_stack.sh [SRCDIR] > runtime/te_kernel_stack.def
# ($ONLY: just these registry ids' rows, compiling only the runtime files
# that name their functions; tools/regenerate.sh --kernels merges them)
set -eu
src=$(cd "${1:-.}" && pwd)
# $KERNEL_STACK_CI: a folder to keep the call graphs in; when it holds an
# earlier run's, they are read instead of compiling again.
tmp=${KERNEL_STACK_CI:-$(mktemp -d "${TMPDIR:-/tmp}/te-kstack-XXXXXX")}
[ -n "${KERNEL_STACK_CI:-}" ] || trap 'rm -rf "$tmp"' EXIT
rm -f "$tmp/depths"
EXTERNAL=64
RECURSION="te_pad_axis:5 te_pad_axis_s16:5"
ASM_PUSH="te_conv2d_dsp_s8:4"
ARMCC=${ARMCC:-arm-none-eabi-gcc}
HOSTCC=${HOSTCC:-gcc}
levels="-O0 -Og -O1 -O2 -O3 -Os"

compile() { # group cc flags... -- files...
    g=$1; shift
    n=$(ls "$tmp" | wc -l)
    mkdir "$tmp/$g.$n"
    (cd "$tmp/$g.$n" && "$@") 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; echo "kernel_stack.sh: compile failed: $*" >&2; exit 1; }
}
common="-std=c99 -DTE_KERNEL= -I$src/runtime -fcallgraph-info=su -c"
arm_files=$(ls "$src"/runtime/*.c "$src"/runtime/armv7em/*.c)
x64_files=$(ls "$src"/runtime/*.c "$src"/runtime/x86/*.c)
if [ -n "${ONLY:-}" ]; then # the files that define or call the kernels asked for
    fns=$(sed -n 's/^TE_KERNEL_DEF(\([A-Z0-9_]*\), *\([a-z0-9_]*\),.*/\1 \2/p' \
          "$src/runtime/te_kernels.def" | awk -v only=" $ONLY " 'index(only, " " $1 " ") {
          f = $2; sub(/_inl$/, "", f); printf " -e %s", f }')
    [ -n "$fns" ] || { echo "kernel_stack.sh: none of ONLY=\"$ONLY\" is a registry id" >&2; exit 1; }
    # shellcheck disable=SC2086
    arm_files=$(grep -lw $fns $arm_files || true)
    # shellcheck disable=SC2086
    x64_files=$(grep -lw $fns $x64_files || true)
fi
ls "$tmp"/*/*.ci >/dev/null 2>&1 && levels= # kept from an earlier run
for o in $levels; do
    grp=arm_opt; [ "$o" = -O0 ] && grp=arm_o0
    if [ -n "$arm_files" ]; then # ($ONLY x86 kernels: no Arm file)
        compile $grp "$ARMCC" $common -mcpu=cortex-m0plus -mthumb $o $arm_files
        compile $grp "$ARMCC" $common -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard \
            -DTE_TARGET_DSP $o $arm_files
        compile $grp "$ARMCC" $common -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard \
            -DTE_TARGET_DSP $o $arm_files
    fi
    grp=x64_opt; [ "$o" = -O0 ] && grp=x64_o0
    [ -z "$x64_files" ] || compile $grp "$HOSTCC" $common -march=x86-64-v3 -DTE_TARGET_AVX2 $o $x64_files
done

# One line per function and call graph: "group function depth".
for ci in "$tmp"/*/*.ci; do
    grp=$(basename "$(dirname "$ci")" | cut -d. -f1)
    awk -v grp="$grp" -v ext=$EXTERNAL -v rec="$RECURSION" '
    function depth(n,   i, d, best, f) {
        if (n in memo) return memo[n]
        if (n == "__indirect_call") {
            best = 0
            for (f in frame) if (!busy[f]) { d = depth(f); if (d > best) best = d }
            return best
        }
        if (!(n in frame)) return ext
        if (busy[n]) { print "kernel_stack.sh: recursion through " n > "/dev/stderr"; exit 1 }
        busy[n] = 1; best = 0
        for (i = 1; i <= ncall[n]; i++) {
            if (call[n, i] == n && fname(n) in times) continue
            d = depth(call[n, i]); if (d > best) best = d
        }
        busy[n] = 0
        return memo[n] = frame[n] * (fname(n) in times ? times[fname(n)] : 1) + best
    }
    function fname(n,   f) { f = n; sub(/^.*:/, "", f); sub(/\..*$/, "", f); return f }
    BEGIN {
        k = split(rec, r, " ")
        for (i = 1; i <= k; i++) { split(r[i], fr, ":"); times[fr[1]] = fr[2] + 0 }
    }
    /^node:/ {
        match($0, /title: "[^"]*"/); t = substr($0, RSTART + 8, RLENGTH - 9)
        if ($0 ~ /bytes \(/) {
            if ($0 !~ /bytes \((static|dynamic,bounded)\)/) { print "kernel_stack.sh: dynamic stack in " t > "/dev/stderr"; exit 1 }
            match($0, /[0-9]+ bytes/); frame[t] = substr($0, RSTART, RLENGTH - 6) + 0
        }
    }
    /^edge:/ {
        match($0, /sourcename: "[^"]*"/); s = substr($0, RSTART + 13, RLENGTH - 14)
        match($0, /targetname: "[^"]*"/); d = substr($0, RSTART + 13, RLENGTH - 14)
        call[s, ++ncall[s]] = d
    }
    END {
        for (n in frame) print grp, fname(n), depth(n)
    }' "$ci" >> "$tmp/depths"
done

cat <<'HDR'
/* te_kernel_stack.def - the stack each kernel's call chain needs, in bytes:
 * the deepest chain from the kernel's entry point, the largest over
 * Cortex-M0+/M4/M7 (arm-none-eabi-gcc) or x86-64-v3 (gcc), each level of a
 * group.  Written by tools/kernel_stack.sh (do not edit; rerun it after
 * changing a kernel: cli.kernel_stack fails while this file is stale).
 *
 *   TE_KERNEL_STACK(ID, ARM_OPT, ARM_O0, X64_OPT, X64_O0)
 *
 * ARM_OPT 32-bit Arm at -Og/-O1/-O2/-O3/-Os    ARM_O0 32-bit Arm at -O0
 * X64_OPT x86-64 at the same levels              X64_O0 x86-64 at -O0
 * (0: the kernel is not built for that ISA: DSP kernels, AVX2 kernels)
 * src/codegen/stack_bound.c adds the invoke function's own frame. */
HDR
sed -n 's/^TE_KERNEL_DEF(\([A-Z0-9_]*\), *\([a-z0-9_]*\),.*/\1 \2/p' "$src/runtime/te_kernels.def" |
while read -r id fn; do
    case " ${ONLY:-$id} " in *" $id "*) ;; *) continue ;; esac
    base=${fn%_inl}
    awk -v id="$id" -v fn="$fn" -v base="$base" -v push="$ASM_PUSH" '
    $2 == fn || $2 == base { if ($3 > m[$1]) m[$1] = $3 }
    END {
        k = split(push, pu, " ")
        for (i = 1; i <= k; i++) { split(pu[i], kb, ":"); if (kb[1] == base && m["arm_opt"]) m["arm_opt"] += kb[2] }
        if (!m["arm_o0"] && !m["x64_o0"]) { print "kernel_stack.sh: no call graph for " fn > "/dev/stderr"; exit 1 }
        printf "TE_KERNEL_STACK(%s, %d, %d, %d, %d)\n", id, m["arm_opt"], m["arm_o0"], m["x64_opt"], m["x64_o0"]
    }' "$tmp/depths"
done
