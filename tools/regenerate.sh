#!/bin/sh
# regenerate.sh - rewrites the generated tables of the tree, so that adding
# an operator or a kernel is: edit the sources, run this, commit.
#   docs/operators.md            build/te_operators (from the op table)
#   runtime/te_kernel_stack.def  tools/kernel_stack.sh (stack per kernel)
#   runtime/te_kernel_code.def   tools/kernel_code.sh (code bytes and params
#                                record size per kernel)
# (The cost coefficients, src/api/cost_table.c, are a calibration on real
# models, bench/calibrate_cost.sh, not a table regenerated here; a kernel
# without a row runs on its operator's generic estimate.)
#
# usage: sh tools/regenerate.sh [--build DIR] [--kernels ID...]
#   no --kernels   every row of both kernel tables (slow: more than ten
#                  minutes on two cores)
#   --kernels IDS  only those registry ids' rows (new or changed kernels),
#                  measured and merged in registry order; the other rows
#                  are kept as they are (no ids: docs/operators.md only)
# DIR: a configured build tree (default build/); te_operators and
# te_kernel_paste are built in it first.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
kernels=
all=1
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --kernels) shift; kernels="$*"; all=0; break ;;
    *) echo "usage: sh tools/regenerate.sh [--build DIR] [--kernels ID...]" >&2; exit 2 ;;
    esac
done
build=$(cd "$build" && pwd)
registry=$src/runtime/te_kernels.def
ids() { sed -n "s/^$1(\\([A-Z0-9_]*\\),.*/\\1/p" "$2"; }
for id in $kernels; do
    ids TE_KERNEL_DEF "$registry" | grep -qx "$id" ||
        { echo "regenerate.sh: $id is not a registry id (runtime/te_kernels.def)" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/te-regen-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cmake --build "$build" -j2 --target te_operators te_kernel_paste >"$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log" >&2; echo "regenerate.sh: build failed" >&2; exit 1; }
"$build/te_operators" >"$tmp/operators.md"
mv "$tmp/operators.md" "$src/docs/operators.md"
echo "docs/operators.md"


# merge MACRO FILE NEW: FILE's lines before its rows, then one row per
# registry id in registry order, NEW's row where it has one, else FILE's
merge() {
    awk -v macro="$1" '
    FNR == 1 { part++ }
    part == 1 { if (match($0, /^TE_KERNEL_DEF\([A-Z0-9_]*,/)) order[++n] = substr($0, 15, RLENGTH - 15); next }
    { is_row = index($0, macro "(") == 1; id = $0; sub(/^[A-Z_]*\(/, "", id); sub(/,.*/, "", id) }
    part == 2 && is_row { old[id] = $0; next }
    part == 2 { print; next }
    part == 3 && is_row { new[id] = $0 }
    END { for (i = 1; i <= n; i++) if (order[i] in new) print new[order[i]]; else if (order[i] in old) print old[order[i]] }
    ' "$registry" "$2" "$3" >"$tmp/merged"
    mv "$tmp/merged" "$2"
}

if [ "$all" = 1 ]; then
    sh "$src/tools/kernel_stack.sh" "$src" >"$tmp/stack"
    mv "$tmp/stack" "$src/runtime/te_kernel_stack.def"
    sh "$src/tools/kernel_code.sh" "$src" "$build" >"$tmp/code"
    mv "$tmp/code" "$src/runtime/te_kernel_code.def"
elif [ -n "$kernels" ]; then
    ONLY="$kernels" sh "$src/tools/kernel_stack.sh" "$src" >"$tmp/stack"
    merge TE_KERNEL_STACK "$src/runtime/te_kernel_stack.def" "$tmp/stack"
    ONLY="$kernels" sh "$src/tools/kernel_code.sh" "$src" "$build" >"$tmp/code"
    merge TE_KERNEL_CODE "$src/runtime/te_kernel_code.def" "$tmp/code"
    merge TE_KERNEL_PARAMS "$src/runtime/te_kernel_code.def" "$tmp/code"
    merge TE_KERNEL_CALL "$src/runtime/te_kernel_code.def" "$tmp/code"
fi
[ "$all" = 0 ] && [ -z "$kernels" ] ||
    echo "runtime/te_kernel_stack.def runtime/te_kernel_code.def${kernels:+ (rows of $kernels)}"
