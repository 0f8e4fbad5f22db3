/* op_tanh.c - TANH (int8): TFLM's fixed-point tanh of the input in Q4.27,
 * evaluated for all 256 inputs at compile time; the kernel is a table
 * lookup.  Like TFLM, the output is produced with scale 1/128 and zero
 * point 0 whatever the output tensor says. */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_nonlinear.h"

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in;
    te_lut_sigmoid_params p;
    if (te_lut_check_unary(g, op, d, 0) < 0)
        return -1;
    in = te_in(g, op, 0);
    if (te_lut_sigmoid_prepare(in->q.scale[0], (int32_t)in->q.zero_point[0], &p) < 0)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') scale %g is outside the range "
                          "TFLite's int8 TANH supports", in->id, in->name,
                          (double)in->q.scale[0]);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    te_lut_sigmoid_params p;
    int8_t table[256];
    te_lut_sigmoid_prepare(in->q.scale[0], (int32_t)in->q.zero_point[0], &p);
    te_lut_tanh(&p, table);
    return te_lut_emit_table(e, op, table);
}

const te_op_def te_op_tanh = {TE_OP_TANH, check, NULL, NULL, emit, 0, te_inplace_same_size_input0};
