/* op_add.c - ADD (int8, broadcasting up to 6D, fused activation): checks,
 * TFLite Micro's Prepare-time rescaling (left shift 20, per-input and output
 * multipliers below one) and the call to te_add_s8.  The input checks,
 * broadcast layout and call emission it shares with MUL: broadcast.h. */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>

#include "broadcast.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_add.h"

void te_add_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_add_params *p);

/* Fills the kernel parameters exactly as TFLite Micro's CalculateOpDataAdd
 * (int8: left shift 20, multipliers below one) and the broadcast layout. */
void te_add_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_add_params *p)
{
    float sa = a->q.scale[0], sb = b->q.scale[0];
    double twice_max = 2.0 * (double)(sa > sb ? sa : sb);
    double real_out = twice_max / ((double)(1 << 20) * (double)o->q.scale[0]);
    te_bcast_fill(a, b, &p->broadcast, &p->size, p->dims, p->stride1, p->stride2);
    p->in1_offset = (int32_t)-a->q.zero_point[0];
    p->in2_offset = (int32_t)-b->q.zero_point[0];
    p->left_shift = 20;
    te_quantize_multiplier_smaller_than_one((double)sa / twice_max, &p->in1_mult, &p->in1_shift);
    te_quantize_multiplier_smaller_than_one((double)sb / twice_max, &p->in2_mult, &p->in2_shift);
    te_quantize_multiplier_smaller_than_one(real_out, &p->out_mult, &p->out_shift);
    p->out_offset = (int32_t)o->q.zero_point[0];
    p->act_min = -128;
    p->act_max = 127;
    te_activation_range(act, o->q.scale[0], p->out_offset, -128, 127, &p->act_min, &p->act_max);
}

static int add_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b, *o;
    int32_t lo, hi;
    float sa, sb;
    if (te_bcast_check_inputs(g, op, d) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    sa = a->q.scale[0];
    sb = b->q.scale[0];
    if (!(2.0 * (double)(sa > sb ? sa : sb) < (double)(1 << 20) * (double)o->q.scale[0]))
        return te_op_fail(d, op, "output scale %g is too small for input scales %g and %g "
                          "(rescale factor must be below 1)", (double)o->q.scale[0],
                          (double)sa, (double)sb);
    if (te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0], -128,
                            127, &lo, &hi) < 0)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)op->opt.activation);
    return 0;
}

static int add_emit(te_emit *e, const te_op *op)
{
    te_add_params p;
    char params[256];
    te_add_make_params(op->opt.activation, te_in(e->g, op, 0), te_in(e->g, op, 1),
                       te_out(e->g, op, 0), &p);
    snprintf(params, sizeof params, "%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d",
             (int)p.in1_offset, (int)p.in2_offset, p.left_shift, (int)p.in1_mult, p.in1_shift,
             (int)p.in2_mult, p.in2_shift, (int)p.out_mult, p.out_shift, (int)p.out_offset,
             (int)p.act_min, (int)p.act_max);
    return te_bcast_emit(e, op, "add", params);
}

const te_op_def te_op_add = {
    .opcode = TE_OP_ADD,
    .check = add_check,
    .emit = add_emit,
    .inplace_input = te_inplace_same_shape_input,
};
