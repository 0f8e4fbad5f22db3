#!/bin/sh
# test_kernel_bar.sh TINYENGINE SRC_DIR - the compiler and the runtime agree
# through one kernel registry (issue 12): lowering records, cost tables,
# reports and the stack bound name kernels by id (te_kernel_id, from
# runtime/te_kernels.def), never by a string.  Fails on any string compare
# of a kernel name in src/, any kernel named by a string where a lowering
# record or op table entry gets its kernel, and any lookup of a kernel by
# name outside the registry itself.
# Allowed: src/codegen/kernels.c (the registry: its name lookups).
set -u
src=$2
cd "$src" || exit 1
fail=0
names=$(sed -n 's/^TE_KERNEL_DEF([A-Z0-9_]*, *\([a-z0-9_]*\).*/\1/p' runtime/te_kernels.def |
        sed 's/_inl$//' | sort -u | tr '\n' '|')
names="${names}view|unknown"
# every line of src/ outside the allowed places, as FILE:LINE:TEXT
lines=$(grep -rn . src --include=*.c --include=*.h | grep -v '^src/codegen/kernels\.c:')

# the string compares whose arguments name a kernel (a kernel field or
# variable, or a kernel's name)
cmp_kernel=$(printf '%s\n' "$lines" | NAMES="$names" perl -ne '
    my $line = $_;
    while ($line =~ /\b(?:strn?cmp|memcmp|strstr|strn?casecmp)\s*(\((?:[^()]++|(?1))*\))/g) {
        my $args = $1;
        if ($args =~ /\bkernel\b/ || $args =~ /"(?:$ENV{NAMES})"/) { print $line; last }
    }')
if [ -n "$cmp_kernel" ]; then
    echo "FAIL: kernel names compared as strings (compare te_kernel_id values):"
    printf '%s\n' "$cmp_kernel"
    fail=1
fi

str_kernel=$(printf '%s\n' "$lines" | grep -E "kernel *(=|==|!=) *\"")
if [ -n "$str_kernel" ]; then
    echo "FAIL: a kernel given by name (use its TE_K_ id, TE_K_VIEW or TE_ONE_KERNEL):"
    printf '%s\n' "$str_kernel"
    fail=1
fi

by_name=$(printf '%s\n' "$lines" | grep -E 'te_kernel_(by_name|find|of_family) *\(' |
          grep -v '^src/codegen/kernels\.h:' | grep -v '^src/codegen/runtime_select\.c:')
if [ -n "$by_name" ]; then
    echo "FAIL: kernels looked up by name outside the registry (name them by id):"
    printf '%s\n' "$by_name"
    fail=1
fi
[ $fail -eq 0 ] && echo "ok: kernels named by registry id in src/ (no string compares of kernel names)"
exit $fail
