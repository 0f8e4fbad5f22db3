/* op_elu.c - ELU (int8): TFLM's Prepare-time float table (dequantize,
 * exp(x) - 1 below zero, requantize with rounding), computed the same way
 * at compile time; the kernel is a table lookup. */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_unary.h"

static int table_for(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    te_lut_elu(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
               (int32_t)out->q.zero_point[0], table);
    return 0;
}

const te_op_def te_op_elu = {
    .opcode = TE_OP_ELU,
    .check = te_lut_op_check,
    .emit = te_lut_op_emit,
    .lut = table_for,
    .inplace_input = te_inplace_same_size_input0,
    .patch_kind = te_patch_pointwise,
    .kernel = TE_ONE_KERNEL(TE_K_LUT_S8),
};
