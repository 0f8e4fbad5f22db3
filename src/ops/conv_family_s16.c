/* conv_family_s16.c - the int16x8 helpers of conv_family_s16.h, following
 * TFLite Micro's conv.cc / depthwise_conv.cc Eval (which accumulator a bias
 * type selects) and conv_common.cc / depthwise_conv_common.cc Prepare (the
 * per-channel multipliers, as for int8). */
#include "conv_family_s16.h"

#include <stdlib.h>
#include <string.h>

#include "conv_family.h"
#include "ir/target.h"

int te_convfam_s16(const te_tensor *t) { return t && t->type == TE_DT_INT16; }

static int check_one(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (te_check_type(d, op, t, which, TE_DT_INT16) || te_check_quant(d, op, t, which))
        return -1;
    if (t->q.count > 1)
        return te_op_fail(d, op, "%s (tensor %d '%s') must be quantized per tensor, it has %d "
                          "scales", which, t->id, t->name, t->q.count);
    if (t->q.zero_point[0] != 0)
        return te_op_fail(d, op, "%s (tensor %d '%s') is int16 with zero point %lld: int16 "
                          "activations must have zero point 0", which, t->id, t->name,
                          (long long)t->q.zero_point[0]);
    return 0;
}

int te_convfam_s16_check_io(te_diag *d, const te_op *op, const te_tensor *in,
                            const te_tensor *out)
{
    return check_one(d, op, in, "input 0") || check_one(d, op, out, "output 0") ? -1 : 0;
}

int te_convfam_s16_check_bias(te_diag *d, const te_op *op, const te_tensor *b, int channels,
                              int allow_int32)
{
    if (!b)
        return 0;
    if (b->type != TE_DT_INT64 && !(allow_int32 && b->type == TE_DT_INT32))
        return te_op_fail(d, op, "bias (tensor %d '%s') has type %s: int16 activations take an "
                          "int64 bias%s", b->id, b->name, te_dtype_name(b->type),
                          allow_int32 ? " (or int32)" : "");
    if (te_tensor_elems(b) != channels)
        return te_op_fail(d, op, "bias (tensor %d '%s') has %lld elements, expected %d", b->id,
                          b->name, (long long)te_tensor_elems(b), channels);
    if (b->data && te_check_const(d, op, b, "bias"))
        return -1;
    return 0;
}

int te_convfam_s16_check_requant(te_diag *d, const te_op *op, const te_tensor *in,
                                 const te_tensor *w, const te_tensor *out, int channels,
                                 int float_product)
{
    int c;
    for (c = 0; c < channels; c++) {
        int32_t mult;
        int shift;
        te_convfam_channel_multiplier(in, w, out, c, float_product, &mult, &shift);
        if (shift > 7)
            return te_op_fail(d, op, "output scale %g is too small for the input and weight "
                              "scales of channel %d (TFLite's int64 requantization takes a "
                              "multiplier below 2^7)", (double)out->q.scale[0], c);
    }
    return 0;
}

static const te_tensor *bias_of(const te_graph *g, const te_op *op)
{
    return op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
}

int te_convfam_s16_acc32(const te_graph *g, const te_op *op)
{
    const te_tensor *b = bias_of(g, op);
    return b ? b->type == TE_DT_INT32 : op->opt.quantized_bias_type == TE_DT_INT32;
}

int te_convfam_s16_dsp_fits(const int8_t *w, int out_c, int k)
{
    int c, i;
    for (c = 0; c < out_c; c++) {
        int64_t sum = 0;
        for (i = 0; i < k; i++)
            sum += w[(long)c * k + i] < 0 ? -w[(long)c * k + i] : w[(long)c * k + i];
        if (sum * 32768 >= ((int64_t)1 << 31))
            return 0;
    }
    return 1;
}

size_t te_convfam_s16_dsp_words(int out_c, int taps, int c)
{
    return (size_t)(out_c + 3) / 4 * (size_t)taps * (size_t)((c + 1) / 2) * 4;
}

void te_convfam_s16_dsp_pack(const int8_t *w, int out_c, int taps, int c, int32_t *out)
{
    const int pairs = (c + 1) / 2;
    int q, t, j, l;
    for (q = 0; q < (out_c + 3) / 4; q++)
        for (t = 0; t < taps; t++)
            for (j = 0; j < pairs; j++)
                for (l = 0; l < 4; l++) {
                    const int oc = 4 * q + l;
                    const int8_t *r = w + ((long)oc * taps + t) * c;
                    int lo = oc < out_c ? r[2 * j] : 0;
                    int hi = oc < out_c && 2 * j + 1 < c ? r[2 * j + 1] : 0;
                    *out++ = (int32_t)((uint32_t)(uint16_t)(int16_t)lo |
                                       (uint32_t)(uint16_t)(int16_t)hi << 16);
                }
}

/* te_conv2d_s16_dsp runs CONV_2D (conv_family_s16.h). */
static int use_dsp(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *b = bias_of(g, op);
    return te_target_has_dsp(g->target) && w->data && (!b || b->data) && w->rank == 4 &&
           in->rank == 4 && w->shape[3] == in->shape[3] &&
           te_convfam_s16_dsp_fits((const int8_t *)w->data, w->shape[0],
                                   w->shape[1] * w->shape[2] * w->shape[3]);
}

te_kernel_id te_convfam_s16_window_kernel(const te_graph *g, const te_op *op, int depthwise)
{
    if (depthwise)
        return TE_K_DEPTHWISE_CONV2D_S16;
    if (use_dsp(g, op))
        return TE_K_CONV2D_S16_DSP;
    return te_convfam_s16_acc32(g, op) ? TE_K_CONV2D_S16_B32 : TE_K_CONV2D_S16;
}

/* te_conv2d_s16_dsp(p, x, packed weights, bias64, bias32, mult, shift, y). */
static int emit_dsp(te_emit *e, const te_op *op, int32_t lo, int32_t hi, const te_name *mult,
                    const te_name *shift)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const te_tensor *b = bias_of(g, op);
    const int taps = w->shape[1] * w->shape[2], c = w->shape[3];
    const size_t n = te_convfam_s16_dsp_words(w->shape[0], taps, c);
    int32_t *packed = malloc(sizeof(int32_t) * n);
    te_name wt, x, y, b64, b32, prm;
    if (!packed)
        return te_fail(e->diag, "out of memory");
    te_convfam_s16_dsp_pack((const int8_t *)w->data, w->shape[0], taps, c, packed);
    wt = te_emit_const_i32(e, packed, n, "weights_packed");
    free(packed);
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    b64 = te_emit_tensor(e, b && b->type == TE_DT_INT64 ? b->id : -1);
    b32 = te_emit_tensor(e, b && b->type == TE_DT_INT32 ? b->id : -1);
    te_emit_kernel(e, TE_K_CONV2D_S16_DSP);
    te_params_begin(e, "te_conv2d_s16_dsp_params");
    te_params_int(e, "batches", in->shape[0]);
    te_params_int(e, "in_h", in->shape[1]);
    te_params_int(e, "in_w", in->shape[2]);
    te_params_int(e, "in_c", in->shape[3]);
    te_params_int(e, "out_h", out->shape[1]);
    te_params_int(e, "out_w", out->shape[2]);
    te_params_int(e, "out_c", out->shape[3]);
    te_params_int(e, "k_h", w->shape[1]);
    te_params_int(e, "k_w", w->shape[2]);
    te_params_int(e, "stride_h", o->stride_h);
    te_params_int(e, "stride_w", o->stride_w);
    te_params_int(e, "dil_h", o->dilation_h);
    te_params_int(e, "dil_w", o->dilation_w);
    te_params_int(e, "pad_top", te_convfam_conv_pad(o, 0, in->shape[1], w->shape[1], out->shape[1]));
    te_params_int(e, "pad_left", te_convfam_conv_pad(o, 1, in->shape[2], w->shape[2], out->shape[2]));
    te_params_int(e, "acc32", te_convfam_s16_acc32(g, op));
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    prm = te_params_end(e);
    te_emit_kernel_call(e, TE_K_CONV2D_S16_DSP, prm.s, x.s, wt.s, b64.s, b32.s, mult->s, shift->s, y.s);
    return 0;
}

int te_convfam_s16_emit_window(te_emit *e, const te_op *op, int depthwise)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    te_kernel_id kernel = te_convfam_s16_window_kernel(g, op, depthwise);
    const int channels = out->shape[3];
    int32_t lo, hi;
    te_name mult, shift, x, wt, b, y, prm;
    if (te_convfam_act_range(e->diag, op, o->activation, out, &lo, &hi) ||
        te_convfam_emit_requant(e, in, w, out, channels, 0, &mult, &shift))
        return -1;
    if (kernel == TE_K_CONV2D_S16_DSP)
        return emit_dsp(e, op, lo, hi, &mult, &shift);
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, kernel);
    te_params_begin(e, "te_conv2d_s16_params");
    te_params_int(e, "batches", in->shape[0]);
    te_params_int(e, "in_h", in->shape[1]);
    te_params_int(e, "in_w", in->shape[2]);
    te_params_int(e, "in_c", in->shape[3]);
    te_params_int(e, "out_h", out->shape[1]);
    te_params_int(e, "out_w", out->shape[2]);
    te_params_int(e, "out_c", channels);
    te_params_int(e, "k_h", w->shape[1]);
    te_params_int(e, "k_w", w->shape[2]);
    if (depthwise)
        te_params_int(e, "depth_mult", channels / in->shape[3]);
    else
        te_params_int(e, "filter_c", w->shape[3]);
    te_params_int(e, "stride_h", o->stride_h);
    te_params_int(e, "stride_w", o->stride_w);
    te_params_int(e, "dil_h", o->dilation_h);
    te_params_int(e, "dil_w", o->dilation_w);
    te_params_int(e, "pad_top", te_convfam_conv_pad(o, 0, in->shape[1], w->shape[1], out->shape[1]));
    te_params_int(e, "pad_left", te_convfam_conv_pad(o, 1, in->shape[2], w->shape[2], out->shape[2]));
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    prm = te_params_end(e);
    te_emit_call(e, te_kernel_name(kernel), prm.s, x.s, wt.s, b.s, mult.s, shift.s, y.s);
    return 0;
}
