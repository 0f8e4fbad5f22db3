/* conv_family.c - the helpers declared in conv_family.h, computed the way
 * TFLite Micro prepares its convolution kernels (conv_common.cc,
 * kernel_util.cc PopulateConvolutionQuantizationParams, padding.h). */
#include <math.h>
#include <stdlib.h>

#include "conv_family.h"
#include "quant/quant.h"

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

/* Padded input size and explicit padding before along one axis. */
static int64_t padded_in(const te_options *o, int axis, int64_t in, int64_t *before)
{
    *before = axis == 0 ? o->pad_top : o->pad_left;
    return in + *before + (axis == 0 ? o->pad_bottom : o->pad_right);
}

/* The convolution sees the input with the explicit padding around it (as
 * the folded PAD produced it), then applies its own SAME/VALID padding. */
int64_t te_convfam_conv_out(const te_options *o, int axis, int64_t in, int64_t k)
{
    int64_t before, n = padded_in(o, axis, in, &before);
    return axis == 0 ? te_convfam_out_size(o->padding, n, k, o->stride_h, o->dilation_h)
                     : te_convfam_out_size(o->padding, n, k, o->stride_w, o->dilation_w);
}

int64_t te_convfam_conv_pad(const te_options *o, int axis, int64_t in, int64_t k, int64_t out)
{
    int64_t before, n = padded_in(o, axis, in, &before);
    return before + (axis == 0 ? te_convfam_pad_before(n, k, o->stride_h, o->dilation_h, out)
                               : te_convfam_pad_before(n, k, o->stride_w, o->dilation_w, out));
}

int te_convfam_check_conv_options(te_diag *d, const te_op *op, const te_tensor *in)
{
    const te_options *o = &op->opt;
    int64_t before;
    if (o->stride_h < 1 || o->stride_w < 1 || o->dilation_h < 1 || o->dilation_w < 1)
        return te_op_fail(d, op, "stride %dx%d / dilation %dx%d must be >= 1", o->stride_h,
                          o->stride_w, o->dilation_h, o->dilation_w);
    if (o->padding != TE_PAD_SAME && o->padding != TE_PAD_VALID)
        return te_op_fail(d, op, "unknown padding %d", (int)o->padding);
    if (o->pad_top < 0 || o->pad_bottom < 0 || o->pad_left < 0 || o->pad_right < 0)
        return te_op_fail(d, op, "explicit padding %d,%d,%d,%d must be >= 0", o->pad_top,
                          o->pad_bottom, o->pad_left, o->pad_right);
    if (in->rank == 4 && (padded_in(o, 0, in->shape[1], &before) > 0x7fffffff ||
                          padded_in(o, 1, in->shape[2], &before) > 0x7fffffff))
        return te_op_fail(d, op, "explicit padding %d,%d,%d,%d makes the input too large",
                          o->pad_top, o->pad_bottom, o->pad_left, o->pad_right);
    return 0;
}
