/* op_relu.c - RELU (int8): requantize input to output scale, clamp below
 * at the output zero point, as TFLM's ReluQuantized; tabulated for all 256
 * inputs at compile time, the kernel is a table lookup.  int16 tensors take
 * te_relu_s16 (relu_s16.c). */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_nonlinear.h"
#include "relu_s16.h"

static int table_for(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_relu(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
                       (int32_t)out->q.zero_point[0], table);
}

static int is_s16(const te_graph *g, const te_op *op)
{
    return op->n_in > 0 && op->in[0] >= 0 && g->tensors[op->in[0]].type == TE_DT_INT16;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    return is_s16(g, op) ? te_relu_s16_check(g, op, d, 0) : te_lut_op_check(g, op, d);
}

static int emit(te_emit *e, const te_op *op)
{
    return is_s16(e->g, op) ? te_relu_s16_emit(e, op, 0) : te_lut_op_emit(e, op);
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return is_s16(g, op) ? TE_K_RELU_S16 : TE_K_LUT_S8;
}

const te_op_def te_op_relu = {
    .opcode = TE_OP_RELU,
    .int16x8 = 1,
    .check = check,
    .emit = emit,
    .variant = variant,
    .lut = table_for,
    .inplace_input = te_inplace_same_size_input0,
    .kernel = TE_ONE_KERNEL(TE_K_LUT_S8),
    .patch_kind = te_patch_pointwise,
};
