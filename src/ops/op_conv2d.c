/* op_conv2d.c - CONV_2D lowering (int8 activations, int8 per-channel or
 * per-tensor weights, optional int32 bias) onto te_conv2d_s8, plus the
 * te_convfam_* helpers the other convolution-family lowerings
 * (op_depthwise_conv2d.c, op_fully_connected.c, op_transpose_conv.c) share:
 * tensor checks, requantization multipliers, activation bounds, padding.
 *
 * Everything TFLite Micro derives in Prepare (conv_common.cc,
 * kernel_util.cc PopulateConvolutionQuantizationParams, padding.h) is
 * computed here at compile time and baked into the call as literals. */
#include <math.h>
#include <stdlib.h>

#include "ops.h"
#include "quant/quant.h"

/* ------------------------------------------------------ shared helpers */

int te_convfam_check_act_type(te_diag *d, const te_op *op, const te_tensor *t, const char *which);
int te_convfam_check_weights(te_diag *d, const te_op *op, const te_tensor *w, int rank,
                             int chan_dim);
int te_convfam_check_bias(te_diag *d, const te_op *op, const te_tensor *b, int channels);
int te_convfam_act_range(te_diag *d, const te_op *op, te_activation act, const te_tensor *out,
                         int32_t *lo, int32_t *hi);
int te_convfam_emit_requant(te_emit *e, const te_tensor *in, const te_tensor *w,
                            const te_tensor *out, int channels, int float_product,
                            te_name *mult, te_name *shift);
int64_t te_convfam_out_size(te_padding pad, int64_t in, int64_t k, int64_t stride, int64_t dil);
int64_t te_convfam_pad_before(int64_t in, int64_t k, int64_t stride, int64_t dil, int64_t out);

/* An int8 activation tensor (input or output) with per-tensor quantization. */
int te_convfam_check_act_type(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (t && t->type == TE_DT_INT16)
        return te_op_fail(d, op, "%s (tensor %d '%s') is int16: int16 activations are not "
                          "supported (int8 only)", which, t->id, t->name);
    if (te_check_type(d, op, t, which, TE_DT_INT8) || te_check_quant(d, op, t, which))
        return -1;
    if (t->q.count > 1)
        return te_op_fail(d, op, "%s (tensor %d '%s') must be quantized per tensor, it has %d "
                          "scales", which, t->id, t->name, t->q.count);
    return 0;
}

static int check_scales(te_diag *d, const te_op *op, const te_tensor *w)
{
    int i;
    for (i = 0; i < w->q.count; i++) {
        if (!isfinite(w->q.scale[i]) || w->q.scale[i] < 0.0f)
            return te_op_fail(d, op, "weights (tensor %d '%s') have invalid scale %g at %d",
                              w->id, w->name, (double)w->q.scale[i], i);
        if (w->q.zero_point[i] != 0)
            return te_op_fail(d, op, "weights (tensor %d '%s') have zero point %lld: int8 "
                              "weights must be symmetric (zero point 0)", w->id, w->name,
                              (long long)w->q.zero_point[i]);
    }
    return 0;
}

/* int8 weights of the given rank, all dims >= 1, quantized per tensor or
 * with one scale per output channel (dimension chan_dim): TFLite wants the
 * scale count to equal both the channel count and the size of the
 * quantized dimension. */
int te_convfam_check_weights(te_diag *d, const te_op *op, const te_tensor *w, int rank,
                             int chan_dim)
{
    int i, channels;
    if (w && (w->type == TE_DT_UINT8 || w->type == TE_DT_INT16 || (int)w->type == 17))
        return te_op_fail(d, op, "weights (tensor %d '%s') have type %s: only int8 weights are "
                          "supported", w->id, w->name,
                          (int)w->type == 17 ? "int4" : te_dtype_name(w->type));
    if (te_check_type(d, op, w, "weights", TE_DT_INT8))
        return -1;
    if (w->rank != rank)
        return te_op_fail(d, op, "weights (tensor %d '%s') have rank %d, expected %d", w->id,
                          w->name, w->rank, rank);
    for (i = 0; i < rank; i++)
        if (w->shape[i] < 1)
            return te_op_fail(d, op, "weights (tensor %d '%s') have an empty dimension %d",
                              w->id, w->name, i);
    if (w->data && te_check_const(d, op, w, "weights"))
        return -1;
    channels = w->shape[chan_dim];
    if (w->q.count < 1)
        return te_op_fail(d, op, "weights (tensor %d '%s') have no quantization parameters",
                          w->id, w->name);
    if (w->q.count > 1 &&
        (w->q.count != channels || w->q.quantized_dim < 0 || w->q.quantized_dim >= rank ||
         w->shape[w->q.quantized_dim] != channels))
        return te_op_fail(d, op, "weights (tensor %d '%s') have %d scales on dimension %d, "
                          "expected 1 or %d (one per output channel)", w->id, w->name,
                          w->q.count, w->q.quantized_dim, channels);
    return check_scales(d, op, w);
}

/* Optional int32 bias with one value per output channel. */
int te_convfam_check_bias(te_diag *d, const te_op *op, const te_tensor *b, int channels)
{
    if (!b)
        return 0;
    if (te_check_type(d, op, b, "bias", TE_DT_INT32))
        return -1;
    if (te_tensor_elems(b) != channels)
        return te_op_fail(d, op, "bias (tensor %d '%s') has %lld elements, expected %d", b->id,
                          b->name, (long long)te_tensor_elems(b), channels);
    if (b->data && te_check_const(d, op, b, "bias"))
        return -1;
    return 0;
}

/* TFLite CalculateActivationRangeQuantized for an int8 output; like TFLite
 * it refuses bounds that do not fit an int32 (absurdly small scales). */
int te_convfam_act_range(te_diag *d, const te_op *op, te_activation act, const te_tensor *out,
                         int32_t *lo, int32_t *hi)
{
    float scale = out->q.scale[0];
    if ((act == TE_ACT_RELU6 && !(te_roundf(6.0f / scale) < 1073741824.0f)) ||
        (act == TE_ACT_RELU_N1_TO_1 && !(te_roundf(1.0f / scale) < 1073741824.0f)))
        return te_op_fail(d, op, "output scale %g is too small for the fused activation",
                          (double)scale);
    if (te_activation_range(act, scale, (int32_t)out->q.zero_point[0], -128, 127, lo, hi))
        return te_op_fail(d, op, "fused activation %d is not supported (only NONE, RELU, "
                          "RELU6, RELU_N1_TO_1)", (int)act);
    return 0;
}

/* Per-channel multiplier/shift arrays.  Convolutions (TFLite
 * PopulateConvolutionQuantizationParams) and per-channel FULLY_CONNECTED
 * use double(in_scale) * double(w_scale) / double(out_scale); per-tensor
 * FULLY_CONNECTED (GetQuantizedConvolutionMultipler) multiplies the two
 * scales in float first: float_product = 1 selects that. */
int te_convfam_emit_requant(te_emit *e, const te_tensor *in, const te_tensor *w,
                            const te_tensor *out, int channels, int float_product,
                            te_name *mult, te_name *shift)
{
    int32_t *m = malloc(sizeof(int32_t) * (size_t)channels * 2);
    int c;
    if (!m)
        return te_fail(e->diag, "out of memory");
    for (c = 0; c < channels; c++) {
        float ws = w->q.scale[w->q.count > 1 ? c : 0];
        double real;
        int sh;
        if (float_product && w->q.count == 1) {
            float prod = in->q.scale[0] * ws;
            real = (double)prod / (double)out->q.scale[0];
        } else {
            real = (double)in->q.scale[0] * (double)ws / (double)out->q.scale[0];
        }
        te_quantize_multiplier(real, &m[c], &sh);
        m[channels + c] = sh;
    }
    *mult = te_emit_const_i32(e, m, (size_t)channels, "mult");
    *shift = te_emit_const_i32(e, m + channels, (size_t)channels, "shift");
    free(m);
    return 0;
}

/* tensorflow/lite/kernels/padding.h ComputeOutSize (stride >= 1). */
int64_t te_convfam_out_size(te_padding pad, int64_t in, int64_t k, int64_t stride, int64_t dil)
{
    int64_t eff = (k - 1) * dil + 1;
    return pad == TE_PAD_SAME ? (in + stride - 1) / stride : (in + stride - eff) / stride;
}

/* padding.h ComputePaddingWithOffset: the padding before (the odd extra
 * pixel of an asymmetric SAME padding goes after). */
int64_t te_convfam_pad_before(int64_t in, int64_t k, int64_t stride, int64_t dil, int64_t out)
{
    int64_t total = (out - 1) * stride + (k - 1) * dil + 1 - in;
    return total > 0 ? total / 2 : 0;
}

/* ------------------------------------------------------------- CONV_2D */

static int check_options(te_diag *d, const te_op *op)
{
    const te_options *o = &op->opt;
    if (o->stride_h < 1 || o->stride_w < 1 || o->dilation_h < 1 || o->dilation_w < 1)
        return te_op_fail(d, op, "stride %dx%d / dilation %dx%d must be >= 1", o->stride_h,
                          o->stride_w, o->dilation_h, o->dilation_w);
    if (o->padding != TE_PAD_SAME && o->padding != TE_PAD_VALID)
        return te_op_fail(d, op, "unknown padding %d", (int)o->padding);
    return 0;
}

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    const te_options *o = &op->opt;
    int64_t oh, ow;
    int groups;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input and output must be 4-D (NHWC), got ranks %d and %d",
                          in->rank, out->rank);
    oh = te_convfam_out_size(o->padding, in->shape[1], w->shape[1], o->stride_h, o->dilation_h);
    ow = te_convfam_out_size(o->padding, in->shape[2], w->shape[2], o->stride_w, o->dilation_w);
    if (in->shape[3] < 1 || in->shape[3] % w->shape[3] != 0)
        return te_op_fail(d, op, "input has %d channels, not a multiple of the weights' %d",
                          in->shape[3], w->shape[3]);
    groups = in->shape[3] / w->shape[3];
    if (w->shape[0] % groups != 0)
        return te_op_fail(d, op, "%d output channels do not split into %d groups", w->shape[0],
                          groups);
    if (oh < 1 || ow < 1)
        return te_op_fail(d, op, "input %dx%d is smaller than the dilated %dx%d filter",
                          in->shape[1], in->shape[2], w->shape[1], w->shape[2]);
    if (out->shape[0] != in->shape[0] || out->shape[1] != oh || out->shape[2] != ow ||
        out->shape[3] != w->shape[0])
        return te_op_fail(d, op, "output shape [%d,%d,%d,%d] does not match the expected "
                          "[%d,%lld,%lld,%d]", out->shape[0], out->shape[1], out->shape[2],
                          out->shape[3], in->shape[0], (long long)oh, (long long)ow,
                          w->shape[0]);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *w, *out;
    int32_t lo, hi;
    if (te_check_io_count(d, op, 2, 3, 1))
        return -1;
    in = te_in(g, op, 0);
    w = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_convfam_check_act_type(d, op, in, "input 0") ||
        te_convfam_check_act_type(d, op, out, "output 0"))
        return -1;
    if (te_convfam_check_weights(d, op, w, 4, 0) ||
        te_convfam_check_bias(d, op, te_in(g, op, 2), w->shape[0]) || check_options(d, op) ||
        check_shapes(d, op, in, w, out))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    return te_tensor_elems(out) * w->shape[1] * w->shape[2] * w->shape[3];
}

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    int32_t lo, hi;
    te_name mult, shift, x, wt, b, y;
    if (te_convfam_act_range(e->diag, op, o->activation, out, &lo, &hi) ||
        te_convfam_emit_requant(e, in, w, out, w->shape[0], 0, &mult, &shift))
        return -1;
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, "conv2d");
    te_emit_stmt(e,
                 "te_conv2d_s8(&(const te_conv2d_params){.batches = %d, .in_h = %d, .in_w = %d, "
                 ".in_c = %d, .out_h = %d, .out_w = %d, .out_c = %d, .k_h = %d, .k_w = %d, "
                 ".filter_c = %d, .stride_h = %d, .stride_w = %d, .dil_h = %d, .dil_w = %d, "
                 ".pad_top = %d, .pad_left = %d, .input_offset = %d, .output_offset = %d, "
                 ".act_min = %d, .act_max = %d}, %s, %s, %s, %s, %s, %s);",
                 in->shape[0], in->shape[1], in->shape[2], in->shape[3], out->shape[1],
                 out->shape[2], out->shape[3], w->shape[1], w->shape[2], w->shape[3],
                 o->stride_h, o->stride_w, o->dilation_h, o->dilation_w,
                 (int)te_convfam_pad_before(in->shape[1], w->shape[1], o->stride_h,
                                            o->dilation_h, out->shape[1]),
                 (int)te_convfam_pad_before(in->shape[2], w->shape[2], o->stride_w,
                                            o->dilation_w, out->shape[2]),
                 (int)-in->q.zero_point[0], (int)out->q.zero_point[0], (int)lo, (int)hi, x.s,
                 wt.s, b.s, mult.s, shift.s, y.s);
    return 0;
}

const te_op_def te_op_conv2d = {TE_OP_CONV_2D, check, macs, NULL, emit, 0};
