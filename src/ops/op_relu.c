/* op_relu.c - RELU (int8): requantize input to output scale, clamp below
 * at the output zero point, as TFLM's ReluQuantized; tabulated for all 256
 * inputs at compile time, the kernel is a table lookup. */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_nonlinear.h"

static int table_for(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_relu(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
                       (int32_t)out->q.zero_point[0], table);
}

const te_op_def te_op_relu = {
    .opcode = TE_OP_RELU,
    .check = te_lut_op_check,
    .emit = te_lut_op_emit,
    .lut = table_for,
    .inplace_input = te_inplace_same_size_input0,
    .kernel = "te_lut_s8",
    .patch_kind = te_patch_pointwise,
};
