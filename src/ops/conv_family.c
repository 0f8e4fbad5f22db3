/* conv_family.c - the helpers declared in conv_family.h, computed the way
 * TFLite Micro prepares its convolution kernels (conv_common.cc,
 * kernel_util.cc PopulateConvolutionQuantizationParams, padding.h). */
#include <math.h>
#include <stdlib.h>

#include "conv_family.h"
#include "quant/quant.h"
#include "te_common.h"

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
        if (!isfinite(w->q.scale[i])) /* negative: a negative multiplier, as in TFLite */
            return te_op_fail(d, op, "weights (tensor %d '%s') have invalid scale %g at %d",
                              w->id, w->name, (double)w->q.scale[i], i);
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

/* TFLite CalculateActivationRangeQuantized for an int8 (or int16, the
 * int16x8 form) output; like TFLite it refuses bounds that do not fit an
 * int32 (absurdly small scales). */
int te_convfam_act_range(te_diag *d, const te_op *op, te_activation act, const te_tensor *out,
                         int32_t *lo, int32_t *hi)
{
    float scale = out->q.scale[0];
    const int s16 = out->type == TE_DT_INT16;
    if ((act == TE_ACT_RELU6 && !(te_roundf(6.0f / scale) < 1073741824.0f)) ||
        (act == TE_ACT_RELU_N1_TO_1 && !(te_roundf(1.0f / scale) < 1073741824.0f)))
        return te_op_fail(d, op, "output scale %g is too small for the fused activation",
                          (double)scale);
    if (te_activation_range(act, scale, (int32_t)out->q.zero_point[0], s16 ? -32768 : -128,
                            s16 ? 32767 : 127, lo, hi))
        return te_op_fail(d, op, "fused activation %d is not supported (only NONE, RELU, "
                          "RELU6, RELU_N1_TO_1)", (int)act);
    return 0;
}

/* Per-channel multiplier/shift arrays (te_convfam_channel_multiplier:
 * TFLite PopulateConvolutionQuantizationParams, or per-tensor
 * FULLY_CONNECTED's float product of the scales). */
int te_convfam_emit_requant(te_emit *e, const te_tensor *in, const te_tensor *w,
                            const te_tensor *out, int channels, int float_product,
                            te_name *mult, te_name *shift)
{
    int32_t *m = malloc(sizeof(int32_t) * (size_t)channels * 2);
    int c;
    if (!m)
        return te_fail(e->diag, "out of memory");
    for (c = 0; c < channels; c++) {
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, float_product, &m[c], &sh);
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

/* ---- CONV_2D as a GEMM ---------------------------------------------------- */

int te_convfam_gemm_k_pad(int k, int dsp)
{
    int a = dsp ? 4 : 8;
    return (k + a - 1) / a * a;
}

/* scale * w in the kernel's order (te_conv2d_gemm.h), zeros past the real
 * channels and patch elements. */
static void gemm_weights(const te_convfam_gemm_spec *s, const int8_t *w, int scale, int16_t *dst)
{
    int quads = (s->out_c + 3) / 4, q, j, i, g;
#define WT(c, i)                                                                                   \
    ((c) < s->out_c && (i) < s->k ? (int16_t)(scale * w[(long)(c) * s->k + (i)]) : (int16_t)0)
    if (!s->dsp) {
        for (j = 0; j < 4 * quads; j++)
            for (i = 0; i < s->k_pad; i++)
                *dst++ = WT(j, i);
        return;
    }
    for (q = 0; q < quads; q++)
        for (g = 0; g < s->k_pad; g += 4)
            for (j = 4 * q; j < 4 * q + 4; j++) {
                *dst++ = WT(j, g);
                *dst++ = WT(j, g + 2);
                *dst++ = WT(j, g + 1);
                *dst++ = WT(j, g + 3);
            }
#undef WT
}

/* TFLite's output for accumulator acc (exact arithmetic, clamped). */
static int32_t gemm_ref_out(const te_convfam_gemm_spec *s, int32_t acc, int32_t mult, int shift)
{
    int32_t v = te_mul_by_quant_mult(acc, mult, shift);
    return te_clamp_i32((int32_t)((uint32_t)v + (uint32_t)s->output_zp), s->act_min, s->act_max);
}

/* 1 when the requantized acc plus the output zero point does not wrap
 * int32 (TFLite's `acc += output_offset` would). */
static int gemm_zp_fits(const te_convfam_gemm_spec *s, int32_t acc, int32_t mult, int shift)
{
    int64_t v = (int64_t)te_mul_by_quant_mult(acc, mult, shift) + s->output_zp;
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* Channel c's entry when its output is the same for every accumulator
 * bias64 +- mag it can have (the requantization is monotonic when the
 * accumulator cannot wrap, nothing is shifted left and adding the output
 * zero point wraps at neither end): {0, 4 * out + 2, 2} gives out whatever
 * the accumulator.  Returns 0 if not constant. */
static int gemm_const_entry(const te_convfam_gemm_spec *s, int64_t bias64, int64_t mag,
                            int32_t mult, int shift, int32_t *entry)
{
    int32_t lo, hi;
    if (mult < 0 || bias64 - mag < INT32_MIN || bias64 + mag > INT32_MAX ||
        (shift > 0 && ((bias64 < 0 ? -bias64 : bias64) + mag) >= ((int64_t)1 << (31 - shift))))
        return 0;
    if (!gemm_zp_fits(s, (int32_t)(bias64 - mag), mult, shift) ||
        !gemm_zp_fits(s, (int32_t)(bias64 + mag), mult, shift))
        return 0;
    lo = gemm_ref_out(s, (int32_t)(bias64 - mag), mult, shift);
    hi = gemm_ref_out(s, (int32_t)(bias64 + mag), mult, shift);
    if (lo != hi)
        return 0;
    entry[0] = 0;
    entry[1] = 4 * lo + 2;
    entry[2] = 2;
    return 1;
}

int te_convfam_gemm_prepare(const te_convfam_gemm_spec *s, const int8_t *w, const int32_t *bias,
                            const int32_t *mult, const int32_t *shift, int16_t *w_out,
                            int32_t *qr_out)
{
    const int n = (s->out_c + 3) / 4 * 4;
    int c, i, fast = 1;
#define BIAS(c) qr_out[16 * ((c) / 4) + (c) % 4]
#define ENTRY(c) (qr_out + 16 * ((c) / 4) + 4 + 3 * ((c) % 4))
    for (c = 0; c < 4 * n; c++)
        qr_out[c] = 0;
    for (c = 0; c < s->out_c && fast; c++) { /* fast or constant, channel by channel */
        int64_t sum = 0, mag = 0, b;
        for (i = 0; i < s->k; i++) {
            int v = w[(long)c * s->k + i];
            sum += v;
            mag += v < 0 ? -v : v;
        }
        b = (bias ? bias[c] : 0) - (int64_t)s->input_zp * sum; /* input offset = -zp */
        mag *= 128;                                            /* |x| <= 128 */
        if ((b < 0 ? -b : b) + mag < ((int64_t)1 << 29) &&
            te_convfam_fast_requant(mult[c], shift[c], s->output_zp, (b < 0 ? -b : b) + mag + 1,
                                    ENTRY(c)))
            BIAS(c) = (int32_t)(2 * b);
        else if (!gemm_const_entry(s, b, mag, mult[c], shift[c], ENTRY(c)))
            fast = 0;
    }
    if (!fast) {
        for (c = 0; c < s->out_c; c++) {
            uint32_t sum = 0;
            for (i = 0; i < s->k; i++)
                sum += (uint32_t)(int32_t)w[(long)c * s->k + i];
            BIAS(c) = (int32_t)((bias ? (uint32_t)bias[c] : 0u) -
                                sum * (uint32_t)s->input_zp); /* int32 wrap-around */
            ENTRY(c)[0] = mult[c];
            ENTRY(c)[1] = shift[c];
            ENTRY(c)[2] = 0;
        }
    }
#undef BIAS
#undef ENTRY
    gemm_weights(s, w, fast ? 2 : 1, w_out);
    return fast;
}

void te_convfam_dsp_s8_layout(int out_c, int k, int k_pad, const int8_t *w, int32_t *words_out)
{
    const int pairs = (out_c + 1) / 2, groups = k_pad / 4;
    int pr, g, j, b;
    for (pr = 0; pr < pairs; pr++)
        for (g = 0; g < groups; g++)
            for (j = 0; j < 2; j++) {
                const int c = 2 * pr + j;
                uint32_t word = 0;
                for (b = 0; b < 4; b++) {
                    const int i = 4 * g + b;
                    const int8_t v = c < out_c && i < k ? w[(long)c * k + i] : 0;
                    word |= (uint32_t)(uint8_t)v << (8 * b);
                }
                words_out[((long)pr * groups + g) * 2 + j] = (int32_t)word;
            }
}

void te_convfam_dsp_s8_requant(int out_c, const int32_t *qr16, int32_t *qr8_out)
{
    int c, j;
    for (c = 0; c < (out_c + 1) / 2 * 2; c++) {
        const int32_t *blk = qr16 + 16 * (c / 4);
        int32_t *r = qr8_out + 8 * (c / 2);
        r[c % 2] = blk[c % 4];
        for (j = 0; j < 3; j++)
            r[2 + 3 * (c % 2) + j] = blk[4 + 3 * (c % 4) + j];
    }
}

void te_convfam_dw_filter_rows(int taps, int c, const int8_t *w, int8_t *rows_out)
{
    int ch, t;
    for (ch = 0; ch < c; ch++)
        for (t = 0; t < taps; t++)
            rows_out[(long)ch * taps + t] = w[(long)t * c + ch];
}

/* A weight or bias of te_convfam_gemm_prepare undoubled (fast: every one
 * is even, so the halving is exact). */
static int32_t avx2_undouble(int fast, int32_t v) { return fast ? v / 2 : v; }

void te_convfam_gemm_avx2_layout(int out_c, int k_pad, int fast, const int16_t *w16,
                                 const int32_t *qr, int8_t *w_out, int32_t *qr_out)
{
    const int quads = (out_c + 3) / 4, blocks = (out_c + 7) / 8;
    int b, j, l, row;
    for (b = 0; b < blocks; b++)
        for (j = 0; j < k_pad / 2; j++)
            for (l = 0; l < 8; l++) {
                const int c = 8 * b + l;
                const int16_t *pair = w16 + (long)c * k_pad + 2 * j;
                *w_out++ = (int8_t)(c / 4 < quads ? avx2_undouble(fast, pair[0]) : 0);
                *w_out++ = (int8_t)(c / 4 < quads ? avx2_undouble(fast, pair[1]) : 0);
            }
    for (b = 0; b < blocks; b++)
        for (l = 0; l < 8; l++) {
            const int c = 8 * b + l;
            const int32_t *r = qr + 16 * (c / 4);
            for (row = 0; row < 4; row++)
                qr_out[32 * b + 8 * row + l] =
                    c / 4 >= quads ? 0
                    : row == 0     ? avx2_undouble(fast, r[c % 4])
                                   : r[4 + 3 * (c % 4) + row - 1];
        }
}

void te_convfam_dw_avx2_layout(int c, int taps, int k_pad, int fast, const int16_t *w16,
                               int8_t *w_out)
{
    const int blocks = (c + 15) / 16;
    const int odd_last = taps % 2 ? taps - 1 : -1; /* stored alone: [16] */
    int ch, t;
    for (ch = 0; ch < blocks * 16 * taps; ch++)
        w_out[ch] = 0;
    for (ch = 0; ch < c; ch++)
        for (t = 0; t < taps; t++)
            w_out[(long)(ch / 16) * taps * 16 + (t / 2) * 32 +
                  (t == odd_last ? ch % 16 : (ch % 16) * 2 + t % 2)] =
                (int8_t)avx2_undouble(fast, w16[(long)ch * k_pad + t]);
}

void te_convfam_channel_multiplier(const te_tensor *in, const te_tensor *w, const te_tensor *out,
                                   int c, int float_product, int32_t *mult, int *shift)
{
    float ws = w->q.scale[w->q.count > 1 ? c : 0];
    double real;
    if (float_product && w->q.count == 1) {
        float prod = in->q.scale[0] * ws;
        real = (double)prod / (double)out->q.scale[0];
    } else {
        real = (double)in->q.scale[0] * (double)ws / (double)out->q.scale[0];
    }
    te_quantize_multiplier(real, mult, shift);
}

/* Why the fast form is exact (m = mult >= 0, e >= 1, |acc| <= bound <= 2^29):
 * SaturatingRoundingDoublingHighMul(acc, m) = (acc*m + nudge) / 2^31
 * truncated, nudge = 2^30 or 1 - 2^30 by the product's sign; both cases
 * equal floor((acc*m + 2^30) / 2^31) = floor((2*acc*m + 2^31) / 2^32) = x,
 * and m >= 0 rules out the saturating case.  RoundingDivideByPOT(x, e)
 * rounds half away from zero: floor((x + 2^(e-1) - [x < 0]) / 2^e).  x < 0
 * implies acc < 0, and acc < 0 with x >= 0 means x = 0, where both
 * corrections give 0, so [x < 0] may be [acc < 0].  Adding zp*2^e before
 * the floor adds zp, and x + c = floor((2*acc*m + 2^31 + c*2^32) / 2^32)
 * for any integer c.  |x| <= bound + 1, so requiring |H| + bound + 2 < 2^31
 * keeps x + H - 1 in int32.  m = 0 (a zero scale; TFLite's shift is then 0)
 * always gives zp, which the entry {0, 1 + 2 zp, 1} does too. */
int te_convfam_fast_requant(int32_t mult, int shift, int32_t zp, int64_t acc_bound,
                            int32_t entry[3])
{
    int e = -shift;
    int64_t h;
    entry[0] = mult;
    if (mult == 0 && zp >= -128 && zp <= 127) {
        entry[1] = 1 + 2 * zp;
        entry[2] = 1;
        return 1;
    }
    h = e >= 1 && e <= 31 ? ((int64_t)1 << (e - 1)) + (int64_t)zp * ((int64_t)1 << e) : 0;
    if (mult > 0 && e >= 1 && e <= 31 && acc_bound >= 0 && acc_bound <= ((int64_t)1 << 29) &&
        zp >= -128 && zp <= 127 && (h < 0 ? -h : h) + acc_bound + 2 < ((int64_t)1 << 31)) {
        entry[1] = (int32_t)h;
        entry[2] = e;
        return 1;
    }
    entry[1] = shift;
    entry[2] = 0;
    return 0;
}
