/* op_fully_connected.c - FULLY_CONNECTED lowering (int8 activations, int8
 * weights [units, depth] in the DEFAULT format quantized per tensor or per
 * unit, optional int32 bias) onto the te_fully_connected_* kernels.
 *
 * Prepare-time values follow TFLite Micro's fully_connected_common.cc:
 * per-tensor weights take GetQuantizedConvolutionMultipler (scales
 * multiplied in float, bias scale checked), per-channel weights the double
 * per-channel formula.  The input is viewed as [batches, depth]; batches
 * come from the output (all of it but the last dimension), so keep_num_dims
 * only changes the output shape.  Shared helpers live in conv_family.c.
 *
 * Constant weights (and bias) take the fast kernels: the input offset is
 * folded into the bias and, on DSP targets, the weights are packed for
 * SMLAD (fc_layout.c).  Weights computed at run time take the plain one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/target.h"
#include "conv_family.h"
#include "conv_family_s16.h"
#include "fc_layout.h"

/* TFLite refuses a per-tensor FC whose bias scale strays from
 * input_scale * weights_scale by more than 2% of the output scale. */
static int check_bias_scale(te_diag *d, const te_op *op, const te_tensor *in,
                            const te_tensor *w, const te_tensor *b, const te_tensor *out)
{
    double prod, bias_scale;
    if (!b || w->q.count > 1)
        return 0;
    prod = (double)in->q.scale[0] * (double)w->q.scale[0];
    bias_scale = b->q.count > 0 ? (double)b->q.scale[0] : 0.0;
    if (!(fabs(prod - bias_scale) / (double)out->q.scale[0] <= 0.02))
        return te_op_fail(d, op, "bias (tensor %d '%s') scale %g does not match input scale "
                          "x weights scale %g", b->id, b->name, bias_scale, prod);
    return 0;
}

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    int units = w->shape[0], depth = w->shape[1];
    int64_t batches;
    if (out->rank < 1 || out->shape[out->rank - 1] != units)
        return te_op_fail(d, op, "output's last dimension must be the %d units", units);
    batches = te_tensor_elems(out) / units;
    if (te_tensor_elems(in) != batches * depth)
        return te_op_fail(d, op, "input has %lld elements, expected %lld (%lld x %d)",
                          (long long)te_tensor_elems(in), (long long)(batches * depth),
                          (long long)batches, depth);
    /* TFLite Micro's FullyConnectedPerChannel takes the output's leading
     * dimensions as the batches, any rank (keep_num_dims) */
    if (w->q.count > 1 && w->q.quantized_dim != 0)
        return te_op_fail(d, op, "per-channel weights need quantized dimension 0 (one scale "
                          "per unit)");
    return 0;
}

/* The int16x8 form: TFLite Micro's int16 FULLY_CONNECTED takes weights
 * quantized per tensor only, and accumulates in int64 with an int64 bias
 * (or none) and in int32 with an int32 one (te_convfam_s16_acc32). */
static int check_s16(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *b = te_in(g, op, 2);
    const te_tensor *out = te_out(g, op, 0);
    int32_t lo, hi;
    if (te_convfam_s16_check_io(d, op, in, out) || te_convfam_check_weights(d, op, w, 2, 0) ||
        te_convfam_s16_check_bias(d, op, b, w->shape[0], 1) || check_shapes(d, op, in, w, out) ||
        check_bias_scale(d, op, in, w, b, out) ||
        (!te_convfam_s16_acc32(g, op) &&
         te_convfam_s16_check_requant(d, op, in, w, out, w->shape[0], 1)))
        return -1;
    if (w->q.count > 1)
        return te_op_fail(d, op, "weights (tensor %d '%s') have %d scales: int16 activations "
                          "take weights quantized per tensor (as TFLite Micro)", w->id, w->name,
                          w->q.count);
    if (w->q.zero_point[0] != 0)
        return te_op_fail(d, op, "weights (tensor %d '%s') have zero point %lld: int16 "
                          "activations take symmetric weights", w->id, w->name,
                          (long long)w->q.zero_point[0]);
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *w, *out, *b;
    int32_t lo, hi;
    if (te_check_io_count(d, op, 2, 3, 1))
        return -1;
    if (op->opt.weights_format != 0)
        return te_op_fail(d, op, "weights format %d is not supported (only DEFAULT)",
                          op->opt.weights_format);
    in = te_in(g, op, 0);
    w = te_in(g, op, 1);
    b = te_in(g, op, 2);
    out = te_out(g, op, 0);
    if (te_convfam_s16(in))
        return check_s16(g, op, d);
    if (te_convfam_check_act_type(d, op, in, "input 0") ||
        te_convfam_check_act_type(d, op, out, "output 0") ||
        te_convfam_check_weights(d, op, w, 2, 0) || te_convfam_check_bias(d, op, b, w->shape[0]) ||
        check_shapes(d, op, in, w, out) || check_bias_scale(d, op, in, w, b, out))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    return te_tensor_elems(&g->tensors[op->out[0]]) * w->shape[1];
}

/* TFLite Micro's per-tensor FullyConnected subtracts the weights' zero
 * point; its per-channel kernel ignores it. */
static int32_t weights_offset(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    return w->q.count == 1 ? (int32_t)-w->q.zero_point[0] : 0;
}

/* The call shared by every variant; `kernel` picks it, `w` and `b` are the
 * weights and bias (folded for the fast kernels) it takes. */
static void emit_call(te_emit *e, const te_op *op, te_kernel_id kernel, const char *w,
                      const char *b, const te_name *mult, const te_name *shift, int32_t lo,
                      int32_t hi)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    int units = te_in(g, op, 1)->shape[0], depth = te_in(g, op, 1)->shape[1];
    te_name x = te_emit_tensor(e, in->id), y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, kernel);
    te_params_begin(e, "te_fully_connected_params");
    te_params_int(e, "batches", te_tensor_elems(out) / units);
    te_params_int(e, "depth", depth);
    te_params_int(e, "units", units);
    te_params_int(e, "input_offset", -in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    te_params_int(e, "per_channel", te_in(g, op, 1)->q.count > 1);
    if (kernel == TE_K_FULLY_CONNECTED_S8_WZ)
        te_emit_call(e, te_kernel_name(kernel), te_params_end(e).s,
                     te_expr("%ld", (long)weights_offset(g, op)).s, x.s, w, b, mult->s, shift->s,
                     y.s);
    else
        te_emit_call(e, te_kernel_name(kernel), te_params_end(e).s, x.s, w, b, mult->s,
                     shift->s, y.s);
}

/* A little-endian int32 of constant data. */
static int32_t read_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/* 1 when a channel's multiplier is negative: a negative per-channel weight
 * scale, which TFLite takes as it is (input and output scales are
 * positive).  The fast kernels' rounding shortcuts assume multipliers in
 * [0, 2^31); the plain kernel's MultiplyByQuantizedMultiplier takes any. */
static int negative_multiplier(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    int c;
    for (c = 0; c < w->q.count; c++)
        if (w->q.scale[c] < 0.0f)
            return 1;
    return 0;
}

/* The kernel: constant weights (and bias) get the fast kernels, the DSP
 * one when the target has SMLAD and every packed lane fits an int16. */
static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    const te_tensor *w = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
    int32_t *packed;
    int ok;
    if (te_convfam_s16(op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL))
        return te_convfam_s16_acc32(g, op) ? TE_K_FULLY_CONNECTED_S16_B32
                                           : TE_K_FULLY_CONNECTED_S16;
    if (w && w->q.count == 1 && weights_offset(g, op))
        return TE_K_FULLY_CONNECTED_S8_WZ;
    if (!w || !w->data || (b && !b->data) || w->rank != 2 || negative_multiplier(g, op))
        return TE_K_FULLY_CONNECTED_S8;
    if (!te_target_has_dsp(g->target))
        return TE_K_FULLY_CONNECTED_S8_FAST;
    /* packing only fails on a weight of -128: skip it when there is none */
    if (!memchr(w->data, 0x80, w->data_bytes))
        return TE_K_FULLY_CONNECTED_S8_DSP;
    packed = malloc(sizeof(int32_t) * te_fc_dsp_words(w->shape[0], w->shape[1]) + 1);
    ok = packed && te_fc_dsp_pack((const int8_t *)w->data, w->shape[0], w->shape[1], packed) == 0;
    free(packed);
    return ok ? TE_K_FULLY_CONNECTED_S8_DSP : TE_K_FULLY_CONNECTED_S8_FAST;
}

/* Constant weights: input offset folded into the bias at compile time,
 * the DSP kernel's packed weights when lowering chose it (variant()). */
static int emit_fast(te_emit *e, const te_op *op, const te_name *mult, const te_name *shift,
                     int32_t lo, int32_t hi)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *b = te_in(g, op, 2);
    int units = w->shape[0], depth = w->shape[1], u, rc = -1;
    const int8_t *wd = (const int8_t *)w->data;
    size_t padded = te_fc_dsp_rows(units);
    int32_t *bias = calloc(padded, sizeof(int32_t)), *packed = NULL;
    te_name bn, wn;
    if (!bias)
        return te_fail(e->diag, "out of memory");
    for (u = 0; u < units && b; u++)
        bias[u] = read_i32(b->data + 4 * (size_t)u);
    te_fc_fold_bias(wd, units, depth, bias, -in->q.zero_point[0], bias);
    if (e->low->kernel == TE_K_FULLY_CONNECTED_S8_DSP) {
        size_t n = te_fc_dsp_words(units, depth);
        packed = malloc(sizeof(int32_t) * n);
        if (!packed) {
            te_fail(e->diag, "out of memory");
            goto out;
        }
        if (te_fc_dsp_pack(wd, units, depth, packed) == 0) {
            /* the DSP kernel reads the bias of whole blocks of rows */
            bn = te_emit_const_i32(e, bias, padded, "bias");
            wn = te_emit_const_i32(e, packed, n, "weights_packed");
            emit_call(e, op, TE_K_FULLY_CONNECTED_S8_DSP, wn.s, bn.s, mult, shift, lo, hi);
            rc = 0;
            goto out;
        }
    }
    bn = te_emit_const_i32(e, bias, (size_t)units, "bias");
    wn = te_emit_tensor(e, w->id);
    emit_call(e, op, TE_K_FULLY_CONNECTED_S8_FAST, wn.s, bn.s, mult, shift, lo, hi);
    rc = 0;
out:
    free(packed);
    free(bias);
    return rc;
}

/* The int16x8 kernel: one multiplier (scales multiplied in float, as
 * GetQuantizedConvolutionMultipler), the int64 bias as it is. */
static int emit_s16(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    int units = w->shape[0], shift;
    int32_t lo, hi, mult;
    te_name x, wt, bn, y, prm;
    if (te_convfam_act_range(e->diag, op, op->opt.activation, out, &lo, &hi))
        return -1;
    te_convfam_channel_multiplier(in, w, out, 0, 1, &mult, &shift);
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    bn = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, e->low->kernel);
    te_params_begin(e, "te_fully_connected_s16_params");
    te_params_int(e, "batches", te_tensor_elems(out) / units);
    te_params_int(e, "depth", w->shape[1]);
    te_params_int(e, "units", units);
    te_params_int(e, "mult", mult);
    te_params_int(e, "shift", shift);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    prm = te_params_end(e);
    te_emit_kernel_call(e, e->low->kernel, prm.s, x.s, wt.s, bn.s, y.s);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const te_tensor *b = te_in(g, op, 2);
    int32_t lo, hi;
    te_name mult, shift, wt, bn;
    if (e->low->kernel == TE_K_FULLY_CONNECTED_S16 ||
        e->low->kernel == TE_K_FULLY_CONNECTED_S16_B32)
        return emit_s16(e, op);
    if (te_convfam_act_range(e->diag, op, op->opt.activation, out, &lo, &hi) ||
        te_convfam_emit_requant(e, in, w, out, w->shape[0], 1, &mult, &shift))
        return -1;
    if (e->low->kernel != TE_K_FULLY_CONNECTED_S8 && e->low->kernel != TE_K_FULLY_CONNECTED_S8_WZ)
        return emit_fast(e, op, &mult, &shift, lo, hi);
    wt = te_emit_tensor(e, w->id);
    bn = te_emit_tensor(e, b ? b->id : -1);
    emit_call(e, op, e->low->kernel, wt.s, bn.s, &mult, &shift, lo, hi);
    return 0;
}

const te_op_def te_op_fully_connected = {
    .opcode = TE_OP_FULLY_CONNECTED,
    .int16x8 = 1,
    .check = check,
    .macs = macs,
    .emit = emit,
    .variant = variant,
    .rescale = {2, 0, 1},
};
