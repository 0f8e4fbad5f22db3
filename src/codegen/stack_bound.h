/* stack_bound.h - an upper bound of the stack NAME_invoke needs: the invoke
 * function's own frame plus the deepest call chain of the kernels it calls
 * (runtime/te_kernel_stack.def, measured from the compilers' call graphs by
 * tools/kernel_stack.sh).  Two numbers: an optimised build (any -O but -O0)
 * and -O0, on the target's word size (32-bit Arm for generic and the
 * Cortex-M targets, x86-64 for x86-64-v3).  See docs/memory.md. */
#ifndef TE_STACK_BOUND_H
#define TE_STACK_BOUND_H

#include <stddef.h>

#include "../ir/ir.h"
#include "kernels.h"

struct te_plan;

typedef struct {
    size_t opt; /* built with optimisation (-Og, -O1, -O2, -O3, -Os) */
    size_t o0;  /* built with -O0 */
} te_stack_bound;

/* The bound for an invoke that calls the n kernels of ids (repeats allowed);
 * an id out of range counts as the deepest kernel of the registry. */
te_stack_bound te_stack_bound_kernels(const te_kernel_id *ids, int n, int target);

/* The bound for the planned graph: the kernels its lowering records name
 * (and the patch copy when it has a patch stage). */
te_stack_bound te_stack_bound_plan(const te_graph *g, const struct te_plan *p);

/* Adds the kernels of the plan's lowering records to ids (no repeats);
 * returns the new count (at most TE_K_COUNT). */
int te_stack_plan_kernels(const te_graph *g, const struct te_plan *p, te_kernel_id *ids, int n);

#endif
