/* emit_patch.c - code for a patch-based stage: for every patch, the crop
 * copies and the operator clones in order (each lowered by its normal
 * emit() on region tensors), then the copy of the patch's result into the
 * stage output. */
#include <stdio.h>

#include "../ops/ops.h"
#include "../plan/patch.h"
#include "../plan/plan.h"
#include "emit.h"

/* Row-major strides of a 4-D tensor, in elements. */
static void strides4(const te_tensor *t, long st[4])
{
    int d;
    st[3] = 1;
    for (d = 2; d >= 0; d--)
        st[d] = st[d + 1] * t->shape[d + 1];
}

/* A box copy of any element type, done on bytes: the innermost dimension is
 * contiguous on both sides, so it becomes elem_size times longer. */
static void emit_copy(te_emit *e, const te_patch_step *s)
{
    const te_tensor *src = &e->g->tensors[s->src], *dst = &e->g->tensors[s->dst];
    long ss[4], ds[4], counts[4], so, dofs, es = (long)te_dtype_size(src->type);
    int d;
    strides4(src, ss);
    strides4(dst, ds);
    for (d = 0; d < 4; d++)
        counts[d] = d == s->src_ay ? s->h : d == s->src_ax ? s->w : src->shape[d];
    so = (s->src_y * ss[s->src_ay] + s->src_x * ss[s->src_ax]) * es;
    dofs = (s->dst_y * ds[s->dst_ay] + s->dst_x * ds[s->dst_ax]) * es;
    for (d = 0; d < 3; d++) {
        ss[d] *= es;
        ds[d] *= es;
    }
    counts[3] *= es;
    te_emit_kernel(e, TE_K_PATCH_COPY_S8);
    te_emit_stmt(e,
                 "te_patch_copy_s8((const int8_t *)%s + %ld, (int8_t *)%s + %ld, "
                 "(const int32_t[]){%ld, %ld, %ld, %ld}, "
                 "(const int32_t[]){%ld, %ld, %ld, %ld}, (const int32_t[]){%ld, %ld, %ld, %ld});",
                 te_emit_tensor(e, s->src).s, so, te_emit_tensor(e, s->dst).s, dofs, counts[0],
                 counts[1], counts[2], counts[3], ss[0], ss[1], ss[2], ss[3], ds[0], ds[1], ds[2],
                 ds[3]);
}

int te_emit_patch_stage(te_emit *e, te_diag *d)
{
    const te_patch_plan *p = e->g->patch;
    int i, patch = -1;
    te_buf_printf(&e->body, "    /* patch-based stage: ops of the first %d steps, %dx%d patches */\n",
                  p->n_ops, p->grid_h, p->grid_w);
    for (i = 0; i < p->n_steps; i++) {
        const te_patch_step *s = &p->steps[i];
        if (s->kind == TE_PSTEP_OP) {
            const te_op *c = &p->clones[s->clone];
            const te_op_def *def = te_op_find(c->opcode);
            int n = s->clone / p->n_ops;
            if (n != patch)
                te_buf_printf(&e->body, "    /* patch %d */\n", patch = n);
            e->cur_op = c;
            e->low = te_lowered_find(e->plan->low, e->g, c);
            if (!def || def->emit(e, c) < 0) {
                if (!d->failed)
                    te_op_fail(d, c, "code generation for a patch failed");
                return -1;
            }
        } else {
            emit_copy(e, s);
        }
    }
    e->cur_op = NULL;
    e->low = NULL;
    return 0;
}
