/* op_logistic.c - LOGISTIC (int8): TFLM's fixed-point sigmoid of the input
 * in Q4.27, evaluated for all 256 inputs at compile time; the kernel is a
 * table lookup.  Output zero point must be -128 (scale taken as 1/256).
 * int16 (zero point 0): TFLM's interpolated-table kernel, activation_s16.h. */
#include "activation_s16.h"
#include "ops.h"

#include "../quant/lut_emit.h"

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *out;
    if (op->n_in > 0 && op->in[0] >= 0 && te_in(g, op, 0)->type == TE_DT_INT16)
        return te_s16_act_check(g, op, d, 0);
    if (te_lut_check_unary(g, op, d, 1) < 0)
        return -1;
    out = te_out(g, op, 0);
    if (out->q.zero_point[0] != -128)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has zero point %lld, expected -128",
                          out->id, out->name, (long long)out->q.zero_point[0]);
    return te_lut_check_sigmoid_input(g, op, d);
}

static int emit(te_emit *e, const te_op *op)
{
    if (te_in(e->g, op, 0)->type == TE_DT_INT16)
        return te_s16_act_emit(e, op, 0);
    return te_lut_emit_sigmoid(e, op, te_lut_logistic);
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return te_in((te_graph *)g, op, 0)->type == TE_DT_INT16 ? TE_K_SIGMOID_S16 : TE_K_LUT_S8;
}

const te_op_def te_op_logistic = {
    .opcode = TE_OP_LOGISTIC,
    .check = check,
    .emit = emit,
    .inplace_input = te_inplace_same_size_input0,
    .kernel = TE_ONE_KERNEL(TE_K_LUT_S8),
    .variant = variant,
    .patch_kind = te_s16_act_patch_kind,
    .int16x8 = 1,
};
