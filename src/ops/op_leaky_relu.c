/* op_leaky_relu.c - LEAKY_RELU (int8): TFLM's two requantizations (identity
 * scale ratio for x >= zero point, alpha times it below), tabulated for all
 * 256 inputs at compile time; the kernel is a table lookup. */
#include "ops.h"

#include <math.h>

#include "../quant/lut_emit.h"
#include "../quant/lut_unary.h"

static int table_for(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_leaky_relu(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
                             (int32_t)out->q.zero_point[0], op->opt.alpha, table);
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    int8_t table[256];
    if (te_lut_check_unary(g, op, d, 1) < 0)
        return -1;
    if (!isfinite(op->opt.alpha))
        return te_op_fail(d, op, "alpha %g is not a finite number", (double)op->opt.alpha);
    if (table_for(g, op, table) < 0)
        return te_op_fail(d, op, "input scale / output scale = %g (alpha %g) is too large",
                          (double)te_in(g, op, 0)->q.scale[0] /
                              (double)te_out(g, op, 0)->q.scale[0],
                          (double)op->opt.alpha);
    return 0;
}

const te_op_def te_op_leaky_relu = {
    .opcode = TE_OP_LEAKY_RELU,
    .check = check,
    .emit = te_lut_op_emit,
    .lut = table_for,
    .inplace_input = te_inplace_same_size_input0,
    .patch_kind = te_patch_pointwise,
    .kernel = TE_ONE_KERNEL(TE_K_LUT_S8),
};
