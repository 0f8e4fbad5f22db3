/* emit_patch.c - code for a patch-based stage: for every patch, the crop
 * copies and the operator clones in order (each lowered by its normal
 * emit() on region tensors), then the copy of the patch's result into the
 * stage output. */
#include <stdint.h>
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
    int32_t v[3][4];
    te_name arr[3];
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
    for (d = 0; d < 4; d++) {
        v[0][d] = (int32_t)counts[d];
        v[1][d] = (int32_t)ss[d];
        v[2][d] = (int32_t)ds[d];
    }
    /* shared by every copy of the same box shape (see te_emit_object) */
    e->cur_op = NULL;
    arr[0] = te_emit_const_i32(e, v[0], 4, "copy_counts");
    arr[1] = te_emit_const_i32(e, v[1], 4, "copy_src_strides");
    arr[2] = te_emit_const_i32(e, v[2], 4, "copy_dst_strides");
    te_emit_kernel(e, TE_K_PATCH_COPY_S8);
    te_emit_kernel_call(e, TE_K_PATCH_COPY_S8,
                 te_expr("(const int8_t *)%s + %ld", te_emit_tensor(e, s->src).s, so).s,
                 te_expr("(int8_t *)%s + %ld", te_emit_tensor(e, s->dst).s, dofs).s, arr[0].s,
                 arr[1].s, arr[2].s);
}

int te_emit_patch_stage(te_emit *e, const te_patch_plan *sp, int k, te_diag *d)
{
    const te_patch_plan *p = e->g->patch;
    int i, patch = -1;
    if (k == 0 && sp->first == 0)
        te_buf_printf(&e->body, "    /* patch-based stage: ops of the first %d steps, %dx%d patches */\n",
                      sp->n_ops, sp->grid_h, sp->grid_w);
    else if (k == 0) /* after the operators no patch can run (te_patch_skip_head) */
        te_buf_printf(&e->body, "    /* patch-based stage: ops of steps %d..%d, %dx%d patches */\n",
                      sp->first, te_patch_stage_last(sp), sp->grid_h, sp->grid_w);
    else
        te_buf_printf(&e->body, "    /* patch-based stage %d: ops of steps %d..%d, %dx%d patches */\n",
                      k + 1, sp->first, te_patch_stage_last(sp), sp->grid_h, sp->grid_w);
    for (i = 0; i < p->n_steps; i++) {
        const te_patch_step *s = &p->steps[i];
        if (s->stage != k)
            continue;
        if (s->patch != patch) /* before the patch's first step, its crop copies too */
            te_buf_printf(&e->body, "    /* patch %d */\n", patch = s->patch);
        if (s->kind == TE_PSTEP_OP) {
            const te_op *c = &p->clones[s->clone];
            const te_op_def *def = te_op_find(c->opcode);
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
