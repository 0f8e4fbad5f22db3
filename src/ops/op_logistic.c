/* op_logistic.c - LOGISTIC (int8): TFLM's fixed-point sigmoid of the input
 * in Q4.27, evaluated for all 256 inputs at compile time; the kernel is a
 * table lookup.  Output zero point must be -128 (scale taken as 1/256). */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_nonlinear.h"

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    te_lut_sigmoid_params p;
    if (te_lut_check_unary(g, op, d, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (out->q.zero_point[0] != -128)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has zero point %lld, expected -128",
                          out->id, out->name, (long long)out->q.zero_point[0]);
    if (te_lut_sigmoid_prepare(in->q.scale[0], (int32_t)in->q.zero_point[0], &p) < 0)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') scale %g is outside the range "
                          "TFLite's int8 LOGISTIC supports", in->id, in->name,
                          (double)in->q.scale[0]);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    te_lut_sigmoid_params p;
    int8_t table[256];
    te_lut_sigmoid_prepare(in->q.scale[0], (int32_t)in->q.zero_point[0], &p);
    te_lut_logistic(&p, table);
    return te_lut_emit_table(e, op, table);
}

const te_op_def te_op_logistic = {TE_OP_LOGISTIC, check, NULL, NULL, emit, 0, te_inplace_same_size_input0};
