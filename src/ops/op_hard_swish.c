/* op_hard_swish.c - HARD_SWISH (int8): TFLM's 16-bit fixed-point
 * x * relu6(x + 3) / 6, evaluated for all 256 inputs at compile time; the
 * kernel is a table lookup. */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_nonlinear.h"

static int prepare(te_graph *g, const te_op *op, te_lut_hard_swish_params *p)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_hard_swish_prepare(in->q.scale[0], (int32_t)in->q.zero_point[0],
                                     out->q.scale[0], (int32_t)out->q.zero_point[0], p);
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    te_lut_hard_swish_params p;
    if (te_lut_check_unary(g, op, d, 1) < 0)
        return -1;
    if (prepare(g, op, &p) < 0)
        return te_op_fail(d, op, "input scale / (128 * output scale) = %g must be below 1 "
                          "(TFLite requires a non-positive output multiplier exponent)",
                          (double)te_in(g, op, 0)->q.scale[0] / 128.0 /
                              (double)te_out(g, op, 0)->q.scale[0]);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    te_lut_hard_swish_params p;
    int8_t table[256];
    prepare(e->g, op, &p);
    te_lut_hard_swish(&p, table);
    return te_lut_emit_table(e, op, table);
}

const te_op_def te_op_hard_swish = {
    .opcode = TE_OP_HARD_SWISH,
    .check = check,
    .emit = emit,
    .inplace_input = te_inplace_same_size_input0,
    .kernel = TE_ONE_KERNEL(TE_K_LUT_S8),
    .patch_kind = te_patch_pointwise,
};
