/* stack_bound.c - the stack NAME_invoke needs (see stack_bound.h): its own
 * frame (TE_INVOKE_FRAME_*) plus the deepest kernel chain of the registry's
 * stack table, runtime/te_kernel_stack.def. */
#include "stack_bound.h"

#include <stdio.h>
#include <string.h>

#include "../ir/target.h"
#include "../plan/patch.h"
#include "../plan/plan.h"

/* The invoke function's own frame: saved registers (r4-r11, lr and the
 * callee-saved FPU registers s16-s31 on a hard-float Cortex-M, rbx, rbp,
 * r12-r15 on x86-64), the patch stage's loop counters and the argument
 * words of calls with more than four (eight on x86-64: six) arguments.
 * A kernel inlined into the invoke brings its frame with it, and one
 * specialised in a function of its own (the depthwise DSP copies,
 * te_emit_outlined_call) has that function's frame instead: either way its
 * chain's first frame, counted below. */
#define TE_INVOKE_FRAME_ARM 160
#define TE_INVOKE_FRAME_X64 256

typedef struct {
    unsigned short arm_opt, arm_o0, x64_opt, x64_o0;
} kernel_stack;

static const kernel_stack table[TE_K_COUNT] = {
#define TE_KERNEL_STACK(id, arm_opt, arm_o0, x64_opt, x64_o0) \
    [TE_K_##id] = {arm_opt, arm_o0, x64_opt, x64_o0},
#include "te_kernel_stack.def"
#undef TE_KERNEL_STACK
};

/* A kernel with no row (added after the table was written): the deepest of
 * the table, a guess until tools/kernel_stack.sh runs (cli.kernel_stack
 * fails meanwhile). */
static kernel_stack deepest(void)
{
    kernel_stack d = {0, 0, 0, 0};
    int i;
    for (i = 0; i < TE_K_COUNT; i++) {
        if (table[i].arm_opt > d.arm_opt) d.arm_opt = table[i].arm_opt;
        if (table[i].arm_o0 > d.arm_o0) d.arm_o0 = table[i].arm_o0;
        if (table[i].x64_opt > d.x64_opt) d.x64_opt = table[i].x64_opt;
        if (table[i].x64_o0 > d.x64_o0) d.x64_o0 = table[i].x64_o0;
    }
    return d;
}

te_stack_bound te_stack_bound_kernels(const te_kernel_id *ids, int n, int target)
{
    int x64 = target == TE_TARGET_X86_64_V3, i;
    size_t frame = x64 ? TE_INVOKE_FRAME_X64 : TE_INVOKE_FRAME_ARM;
    te_stack_bound b = {0, 0};
    for (i = 0; i < n; i++) {
        kernel_stack k = (int)ids[i] >= 0 && ids[i] < TE_K_COUNT ? table[ids[i]] : deepest();
        size_t opt, o0;
        if (!k.arm_o0 && !k.x64_o0)
            k = deepest();
        opt = x64 ? k.x64_opt : k.arm_opt;
        o0 = x64 ? k.x64_o0 : k.arm_o0;
        if (opt > b.opt) b.opt = opt;
        if (o0 > b.o0) b.o0 = o0;
    }
    b.opt += frame;
    b.o0 += frame;
    return b;
}

static int add_kernel(te_kernel_id *ids, int n, te_kernel_id k)
{
    int i;
    for (i = 0; i < n; i++)
        if (ids[i] == k)
            return n;
    if (n < TE_K_COUNT)
        ids[n++] = k;
    return n;
}

int te_stack_plan_kernels(const te_graph *g, const te_plan *p, te_kernel_id *ids, int n)
{
    int s, c;
    for (s = 0; s < p->n_steps; s++) {
        const te_lowering *l = te_lowered_find(p->low, g, &g->ops[p->schedule[s]]);
        if (l && l->kernel != TE_K_VIEW)
            n = add_kernel(ids, n, l->kernel);
    }
    if (g->patch) {
        n = add_kernel(ids, n, TE_K_PATCH_COPY_S8);
        for (c = 0; c < g->patch->n_clones; c++) {
            const te_lowering *l = te_lowered_find(p->low, g, &g->patch->clones[c]);
            if (l && l->kernel != TE_K_VIEW)
                n = add_kernel(ids, n, l->kernel);
        }
    }
    return n;
}

te_stack_bound te_stack_bound_plan(const te_graph *g, const te_plan *p)
{
    te_kernel_id ids[TE_K_COUNT];
    int n = te_stack_plan_kernels(g, p, ids, 0);
    return te_stack_bound_kernels(ids, n, g->target);
}
