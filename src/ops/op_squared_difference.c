/* op_squared_difference.c - SQUARED_DIFFERENCE (int8 or int16x8,
 * broadcasting up to 6D): checks, TFLite Micro's Prepare-time rescaling
 * (left shift 7 for int8, 0 for int16; input ratios to twice the larger
 * input scale, output ratio that squared over 2^(2 x left shift) times the
 * output scale, all in double) and the call to te_squared_difference_s8 /
 * _s16 (broadcast layout and emission: broadcast.h).  As TFLite Micro,
 * int16 needs every zero point 0.  int32 and float32 (unquantized):
 * te_binary_i32 / te_binary_f32 (binary_plain.h). */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>

#include "binary_plain.h"
#include "broadcast.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_squared_difference.h"
#include "te_binary_plain.h"

void te_squared_difference_make_params(const te_tensor *a, const te_tensor *b,
                                       const te_tensor *o, te_squared_difference_params *p);

void te_squared_difference_make_params(const te_tensor *a, const te_tensor *b,
                                       const te_tensor *o, te_squared_difference_params *p)
{
    float sa = a->q.scale[0], sb = b->q.scale[0];
    int left_shift = o->type == TE_DT_INT16 ? 0 : 7;
    double twice_max = 2.0 * (double)(sa > sb ? sa : sb);
    double real_out =
        twice_max * twice_max / (double)((float)(1 << (2 * left_shift)) * o->q.scale[0]);
    te_bcast_fill(a, b, &p->broadcast, &p->size, p->dims, p->stride1, p->stride2);
    p->in1_offset = (int32_t)-a->q.zero_point[0];
    p->in2_offset = (int32_t)-b->q.zero_point[0];
    p->left_shift = left_shift;
    te_quantize_multiplier_smaller_than_one((double)sa / twice_max, &p->in1_mult, &p->in1_shift);
    te_quantize_multiplier_smaller_than_one((double)sb / twice_max, &p->in2_mult, &p->in2_shift);
    te_quantize_multiplier(real_out, &p->out_mult, &p->out_shift);
    p->out_offset = (int32_t)o->q.zero_point[0];
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    te_squared_difference_params p;
    const te_tensor *t[3];
    int k;
    if (te_binary_plain_is(g, op))
        return te_binary_plain_check(g, op, d, 0);
    if (te_bcast_check_inputs_s8_s16(g, op, d) < 0)
        return -1;
    t[0] = te_in(g, op, 0);
    t[1] = te_in(g, op, 1);
    t[2] = te_out(g, op, 0);
    for (k = 0; k < 3 && t[2]->type == TE_DT_INT16; k++)
        if (t[k]->q.zero_point[0] != 0)
            return te_op_fail(d, op, "int16 tensor %d '%s' has zero point %lld; int16 "
                              "SQUARED_DIFFERENCE needs 0 (as TFLite Micro)", t[k]->id, t[k]->name,
                              (long long)t[k]->q.zero_point[0]);
    te_squared_difference_make_params(te_in(g, op, 0), te_in(g, op, 1), te_out(g, op, 0), &p);
    if (p.out_shift > 31)
        return te_op_fail(d, op, "output scale %g is too small for input scales %g and %g",
                          (double)te_out(g, op, 0)->q.scale[0],
                          (double)te_in(g, op, 0)->q.scale[0],
                          (double)te_in(g, op, 1)->q.scale[0]);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    if (te_binary_plain_is(g, op))
        return te_binary_plain_kernel(g, op);
    return g->tensors[op->out[0]].type == TE_DT_INT16 ? TE_K_SQUARED_DIFFERENCE_S16
                                                      : TE_K_SQUARED_DIFFERENCE_S8;
}

static int emit(te_emit *e, const te_op *op)
{
    te_squared_difference_params p;
    if (te_binary_plain_is(e->g, op))
        return te_binary_plain_emit(e, op, TE_BINARY_SQUARED_DIFFERENCE, 0);
    te_squared_difference_make_params(te_in(e->g, op, 0), te_in(e->g, op, 1),
                                      te_out(e->g, op, 0), &p);
    te_bcast_params_begin(e, op, "te_squared_difference_params");
    te_params_int(e, "in1_offset", p.in1_offset);
    te_params_int(e, "in2_offset", p.in2_offset);
    te_params_int(e, "left_shift", p.left_shift);
    te_params_int(e, "in1_mult", p.in1_mult);
    te_params_int(e, "in1_shift", p.in1_shift);
    te_params_int(e, "in2_mult", p.in2_mult);
    te_params_int(e, "in2_shift", p.in2_shift);
    te_params_int(e, "out_mult", p.out_mult);
    te_params_int(e, "out_shift", p.out_shift);
    te_params_int(e, "out_offset", p.out_offset);
    return te_bcast_emit(e, op, variant(e->g, op), te_params_end(e).s);
}

const te_op_def te_op_squared_difference = {
    .opcode = TE_OP_SQUARED_DIFFERENCE,
    .check = check,
    .emit = emit,
    .inplace_input = te_inplace_same_shape_input,
    .variant = variant,
    .int16x8 = 1,
    .patch_kind = te_bcast_patch_kind,
};
