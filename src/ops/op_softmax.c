/* op_softmax.c - SOFTMAX over the last dimension, int8 input, as TFLM's
 * reference kernel: the exp of every possible difference row_max - x
 * (0..255) is tabulated at compile time; the row sum, reciprocal and
 * output scaling run in te_softmax_s8 (int8 output: scale 1/256, zero
 * point -128) or te_softmax_s8_s16 (int16 output: scale ~1/65536, zero
 * point -32768). */
#include "ops.h"

#include <limits.h>
#include <math.h>

#include "../quant/lut_nonlinear.h"

/* TFLM's output constraints for int8 input. */
static int check_output(te_diag *d, const te_op *op, const te_tensor *out)
{
    float s = out->q.scale[0];
    int64_t zp = out->q.zero_point[0];
    if (out->type == TE_DT_INT8 && (zp != -128 || s != 1.0f / 256))
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has scale %g and zero point %lld, "
                          "expected 1/256 and -128", out->id, out->name, (double)s,
                          (long long)zp);
    if (out->type == TE_DT_INT16 &&
        (zp != -32768 || fabs((double)s - 1.0 / 65536) > 0.001 / 65536))
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has scale %g and zero point %lld, "
                          "expected 1/65536 and -32768", out->id, out->name, (double)s,
                          (long long)zp);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    te_lut_softmax_params p;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_INT8) < 0)
        return -1;
    if ((!out || out->type != TE_DT_INT16) && te_check_type(d, op, out, "output 0", TE_DT_INT8) < 0)
        return -1;
    if (te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, out, "output 0") < 0)
        return -1;
    if (in->rank < 1)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') must have at least one dimension",
                          in->id, in->name);
    if (out->rank < 1 || out->shape[out->rank - 1] != in->shape[in->rank - 1] ||
        te_tensor_elems(out) != te_tensor_elems(in) || te_tensor_elems(in) > INT_MAX)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') must have the shape of input 0",
                          out->id, out->name);
    if (check_output(d, op, out) < 0)
        return -1;
    if (te_lut_softmax_prepare((double)op->opt.beta, in->q.scale[0], &p) < 0)
        return te_op_fail(d, op, "beta %g times input scale %g must exceed 2^-26",
                          (double)op->opt.beta, (double)in->q.scale[0]);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_lut_softmax_params p;
    int32_t exp_table[256];
    int depth = in->shape[in->rank - 1];
    int rows = depth > 0 ? (int)(te_tensor_elems(in) / depth) : 0;
    te_name t, x, y;
    te_lut_softmax_prepare((double)op->opt.beta, in->q.scale[0], &p);
    te_lut_softmax_exp(&p, exp_table);
    t = te_emit_const_i32(e, exp_table, 256, "softmax_exp");
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, out->type == TE_DT_INT16 ? TE_K_SOFTMAX_S8_S16 : TE_K_SOFTMAX_S8);
    te_emit_call(e, out->type == TE_DT_INT16 ? "te_softmax_s8_s16" : "te_softmax_s8", x.s, y.s,
                 te_expr("%d", rows).s, te_expr("%d", depth).s, t.s);
    return 0;
}

/* The kernel emit() calls: the output type picks it. */
static const char *variant(const te_graph *g, const te_op *op)
{
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    return out && out->type == TE_DT_INT16 ? "te_softmax_s8_s16" : "te_softmax_s8";
}

const te_op_def te_op_softmax = {
    .opcode = TE_OP_SOFTMAX,
    .check = check,
    .emit = emit,
    .variant = variant,
};
