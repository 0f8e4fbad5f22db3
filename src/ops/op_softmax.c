/* op_softmax.c - SOFTMAX over the last dimension, int8 input, as TFLM's
 * reference kernel: the exp of every possible difference row_max - x
 * (0..255) is tabulated at compile time; the row sum, reciprocal and
 * output scaling run in te_softmax_s8 (int8 output: scale 1/256, zero
 * point -128) or te_softmax_s8_s16 (int16 output: scale ~1/65536, zero
 * point -32768).  int16 input (int16x8, output int16 with scale ~1/32768,
 * zero point 0): te_softmax_s16 with TFLM's two 513-entry interpolation
 * tables, built here as its Prepare builds them. */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include "ops.h"

#include <limits.h>
#include <math.h>

#include "../quant/lut_nonlinear.h"
#include "../quant/lut_softmax_s16.h"
#include "te_softmax.h"

/* TFLM's output constraints for int16 input. */
static int check_output_s16(te_diag *d, const te_op *op, const te_tensor *out)
{
    float s = out->q.scale[0];
    int64_t zp = out->q.zero_point[0];
    if (zp != 0 || fabs((double)s - 1.0 / 32768) > 0.001 / 32768)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has scale %g and zero point %lld, "
                          "expected 1/32768 and 0", out->id, out->name, (double)s,
                          (long long)zp);
    return 0;
}

/* int16 in, int16 out: the output and TFLM's input rescaling. */
static int check_s16(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *out)
{
    int32_t mult;
    int shift;
    if (te_check_type(d, op, out, "output 0", TE_DT_INT16) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, out, "output 0") < 0 ||
        check_output_s16(d, op, out) < 0)
        return -1;
    if (te_lut_softmax_s16_prepare((double)op->opt.beta, in->q.scale[0], &mult, &shift) < 0 ||
        shift > 30)
        return te_op_fail(d, op, "beta %g times input scale %g is outside what the int16 "
                          "kernel can rescale", (double)op->opt.beta, (double)in->q.scale[0]);
    return 0;
}

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
    if (in && in->type == TE_DT_INT16 && check_s16(d, op, in, out) < 0)
        return -1;
    if ((!in || in->type != TE_DT_INT16) && te_check_type(d, op, in, "input 0", TE_DT_INT8) < 0)
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
    if (in->type == TE_DT_INT16)
        return 0;
    if (check_output(d, op, out) < 0)
        return -1;
    if (te_lut_softmax_prepare((double)op->opt.beta, in->q.scale[0], &p) < 0)
        return te_op_fail(d, op, "beta %g times input scale %g must exceed 2^-26",
                          (double)op->opt.beta, (double)in->q.scale[0]);
    return 0;
}

/* te_softmax_s16(&params, in, out) with the two tables. */
static int emit_s16(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    int16_t exp_lut[TE_LUT_S16_ENTRIES], recip_lut[TE_LUT_S16_ENTRIES];
    int depth = in->shape[in->rank - 1];
    int rows = depth > 0 ? (int)(te_tensor_elems(in) / depth) : 0;
    int32_t mult;
    int shift;
    te_name te, tr, x, y;
    te_lut_softmax_s16_prepare((double)op->opt.beta, in->q.scale[0], &mult, &shift);
    te_lut_softmax_s16_tables(exp_lut, recip_lut);
    te = te_emit_const_i16(e, exp_lut, TE_LUT_S16_ENTRIES, "softmax_exp_lut");
    tr = te_emit_const_i16(e, recip_lut, TE_LUT_S16_ENTRIES, "softmax_recip_lut");
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_SOFTMAX_S16);
    te_params_begin(e, "te_softmax_s16_params");
    te_params_int(e, "rows", rows);
    te_params_int(e, "depth", depth);
    te_params_int(e, "input_mult", mult);
    te_params_int(e, "input_shift", shift);
    te_params_expr(e, "exp_lut", te.s);
    te_params_expr(e, "recip_lut", tr.s);
    te_emit_kernel_call(e, TE_K_SOFTMAX_S16, te_params_end(e).s, x.s, y.s);
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
    if (in->type == TE_DT_INT16)
        return emit_s16(e, op);
    te_lut_softmax_prepare((double)op->opt.beta, in->q.scale[0], &p);
    te_lut_softmax_exp(&p, exp_table);
    t = te_emit_const_i32(e, exp_table, 256, "softmax_exp");
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, out->type == TE_DT_INT16 ? TE_K_SOFTMAX_S8_S16 : TE_K_SOFTMAX_S8);
    te_emit_kernel_call(e, out->type == TE_DT_INT16 ? TE_K_SOFTMAX_S8_S16 : TE_K_SOFTMAX_S8, x.s, y.s,
                 te_expr("%d", rows).s, te_expr("%d", depth).s, t.s);
    return 0;
}

/* The kernel emit() calls: the output type picks it. */
static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    if (in && in->type == TE_DT_INT16)
        return TE_K_SOFTMAX_S16;
    return out && out->type == TE_DT_INT16 ? TE_K_SOFTMAX_S8_S16 : TE_K_SOFTMAX_S8;
}

const te_op_def te_op_softmax = {
    .opcode = TE_OP_SOFTMAX,
    .int16x8 = 1,
    .check = check,
    .emit = emit,
    .variant = variant,
};
