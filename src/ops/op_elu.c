/* op_elu.c - ELU (int8): TFLM's Prepare-time float table (dequantize,
 * exp(x) - 1 below zero, requantize with rounding), computed the same way
 * at compile time; the kernel is a table lookup. */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_unary.h"

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    return te_lut_check_unary(g, op, d, 1);
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    int8_t table[256];
    te_lut_elu(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
               (int32_t)out->q.zero_point[0], table);
    return te_lut_emit_table(e, op, table);
}

static const char *variant(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return "te_lut_s8";
}

const te_op_def te_op_elu = {
    .opcode = TE_OP_ELU,
    .check = check,
    .emit = emit,
    .inplace_input = te_inplace_same_size_input0,
    .patch_kind = te_patch_pointwise,
    .variant = variant,
};
