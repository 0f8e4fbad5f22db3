/* op_abs.c - ABS (int8): |x - zp_in| plus the output zero point, rescaled
 * by s_in / s_out when the scales differ (TFLM's AbsEvalQuantized),
 * tabulated for all 256 inputs at compile time; the kernel is a table
 * lookup. */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_unary.h"

static int table_for(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_abs(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
                      (int32_t)out->q.zero_point[0], table);
}

const te_op_def te_op_abs = {
    .opcode = TE_OP_ABS,
    .check = te_lut_op_check,
    .emit = te_lut_op_emit,
    .lut = table_for,
    .inplace_input = te_inplace_same_size_input0,
    .patch_kind = te_patch_pointwise,
    .kernel = TE_ONE_KERNEL(TE_K_LUT_S8),
};
