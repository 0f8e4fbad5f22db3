/* op_tanh.c - TANH (int8): TFLM's fixed-point tanh of the input in Q4.27,
 * evaluated for all 256 inputs at compile time; the kernel is a table
 * lookup.  Like TFLM, the output is produced with scale 1/128 and zero
 * point 0 whatever the output tensor says. */
#include "ops.h"

#include "../quant/lut_emit.h"

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    if (te_lut_check_unary(g, op, d, 0) < 0)
        return -1;
    return te_lut_check_sigmoid_input(g, op, d);
}

static int emit(te_emit *e, const te_op *op)
{
    return te_lut_emit_sigmoid(e, op, te_lut_tanh);
}

const te_op_def te_op_tanh = {
    .opcode = TE_OP_TANH,
    .check = check,
    .emit = emit,
    .inplace_input = te_inplace_same_size_input0,
    .kernel = "te_lut_s8",
    .patch_kind = te_patch_pointwise,
};
