/* op_relu6.c - RELU6 (int8): clamp to [input zero point, quantized 6.0] in
 * the input's quantization, as TFLM's Relu6Quantized (which ignores the
 * output's quantization); tabulated at compile time, the kernel is a table
 * lookup.  int16 tensors take te_relu_s16 (relu_s16.c). */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_nonlinear.h"
#include "relu_s16.h"

static int is_s16(const te_graph *g, const te_op *op)
{
    return op->n_in > 0 && op->in[0] >= 0 && g->tensors[op->in[0]].type == TE_DT_INT16;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    return is_s16(g, op) ? te_relu_s16_check(g, op, d, 1) : te_lut_check_unary(g, op, d, 0);
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return is_s16(g, op) ? TE_K_RELU_S16 : TE_K_LUT_S8;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    int8_t table[256];
    if (is_s16(e->g, op))
        return te_relu_s16_emit(e, op, 1);
    te_lut_relu6(in->q.scale[0], (int32_t)in->q.zero_point[0], table);
    return te_lut_emit_table(e, op, table);
}

const te_op_def te_op_relu6 = {
    .opcode = TE_OP_RELU6,
    .int16x8 = 1,
    .check = check,
    .emit = emit,
    .variant = variant,
    .inplace_input = te_inplace_same_size_input0,
    .kernel = TE_ONE_KERNEL(TE_K_LUT_S8),
    .patch_kind = te_patch_pointwise,
};
