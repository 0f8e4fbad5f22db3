#!/bin/sh
# test_kernel_stack.sh TINYENGINE SRC_DIR - every kernel of the registry
# (runtime/te_kernels.def) has a row in the stack table
# (runtime/te_kernel_stack.def, docs/stack.md).  A kernel without one is
# counted as the deepest kernel (the bound holds, but is loose): rerun
#   sh tools/kernel_stack.sh > runtime/te_kernel_stack.def
src=$2
ids() { sed -n "s/^$1(\\([A-Z0-9_]*\\),.*/\\1/p" "$2" | sort; }
missing=$(ids TE_KERNEL_DEF "$src/runtime/te_kernels.def" |
          comm -23 - "$(ids TE_KERNEL_STACK "$src/runtime/te_kernel_stack.def" >"${TMPDIR:-/tmp}/te-ks.$$"; echo "${TMPDIR:-/tmp}/te-ks.$$")")
rm -f "${TMPDIR:-/tmp}/te-ks.$$"
if [ -n "$missing" ]; then
  echo "FAIL: kernels with no row in runtime/te_kernel_stack.def:" $missing
  echo "rerun: sh tools/kernel_stack.sh > runtime/te_kernel_stack.def"
  exit 1
fi
echo "every kernel has a stack row"
