/* te_depthwise_conv2d.c - DEPTHWISE_CONV_2D int8 kernel (see
 * te_depthwise_conv2d.h).  Taps outside the input are skipped (zero-point
 * padding); the window bounds are computed once per output pixel.  The
 * accumulator wraps modulo 2^32 like TFLite's int32 one, without UB. */
#include "te_common.h"
#include "te_depthwise_conv2d.h"

static inline TE_UNUSED int te_depthwise_conv2d_tap_lo(int origin, int dil)
{
    return origin < 0 ? (-origin + dil - 1) / dil : 0;
}

static inline TE_UNUSED int te_depthwise_conv2d_tap_hi(int origin, int dil, int taps, int size)
{
    int room = size - origin;
    int n = room > 0 ? (room + dil - 1) / dil : 0;
    return n < taps ? n : taps;
}

static inline TE_UNUSED int8_t te_depthwise_conv2d_requant(uint32_t acc, int32_t mult,
                                                           int32_t shift, int32_t zp, int32_t lo,
                                                           int32_t hi)
{
    int32_t v = te_mul_by_quant_mult((int32_t)acc, mult, (int)shift);
    v = (int32_t)((uint32_t)v + (uint32_t)zp);
    return (int8_t)te_clamp_i32(v, lo, hi);
}

/* Output channel oc (input channel ic) of one pixel over taps [ky0,ky1)x[kx0,kx1).
 * in_c0: input channel ic at pixel (0,0); consecutive pixels of a row are
 * px_stride bytes apart (in_c in NHWC, 1 in a single-channel plane). */
static inline TE_UNUSED uint32_t te_depthwise_conv2d_pixel(const te_depthwise_conv2d_params *p,
                                                           const int8_t *in_c0, int px_stride,
                                                           const int8_t *w_c0, int iy0, int ix0,
                                                           int ky0, int ky1, int kx0, int kx1)
{
    const int out_c = p->in_c * p->depth_mult;
    uint32_t acc = 0;
    int ky, kx;
    for (ky = ky0; ky < ky1; ky++) {
        const int8_t *x = in_c0 + (long)(iy0 + ky * p->dil_h) * p->in_w * px_stride;
        const int8_t *w = w_c0 + (long)ky * p->k_w * out_c;
        for (kx = kx0; kx < kx1; kx++)
            acc += (uint32_t)((x[(long)(ix0 + kx * p->dil_w) * px_stride] + p->input_offset) *
                              w[(long)kx * out_c]);
    }
    return acc;
}

TE_KERNEL void te_depthwise_conv2d_s8(const te_depthwise_conv2d_params *p, const int8_t *input,
                                      const int8_t *filter, const int32_t *bias,
                                      const int32_t *mult, const int32_t *shift, int8_t *output)
{
    int b, oy, ox, ic, m;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++) {
            const int iy0 = oy * p->stride_h - p->pad_top;
            const int ky0 = te_depthwise_conv2d_tap_lo(iy0, p->dil_h);
            const int ky1 = te_depthwise_conv2d_tap_hi(iy0, p->dil_h, p->k_h, p->in_h);
            for (ox = 0; ox < p->out_w; ox++) {
                const int ix0 = ox * p->stride_w - p->pad_left;
                const int kx0 = te_depthwise_conv2d_tap_lo(ix0, p->dil_w);
                const int kx1 = te_depthwise_conv2d_tap_hi(ix0, p->dil_w, p->k_w, p->in_w);
                for (ic = 0; ic < p->in_c; ic++) {
                    for (m = 0; m < p->depth_mult; m++) {
                        const int oc = ic * p->depth_mult + m;
                        uint32_t acc = te_depthwise_conv2d_pixel(p, in_b + ic, p->in_c,
                                                                 filter + oc, iy0, ix0, ky0,
                                                                 ky1, kx0, kx1);
                        if (bias)
                            acc += (uint32_t)bias[oc];
                        *output++ = te_depthwise_conv2d_requant(acc, mult[oc], shift[oc],
                                                                p->output_offset, p->act_min,
                                                                p->act_max);
                    }
                }
            }
        }
    }
}

/* Channel c of one batch: input plane (in_h x in_w) -> every output pixel's
 * channel c in the NHWC output out_b. */
static inline TE_UNUSED void te_depthwise_conv2d_channel(const te_depthwise_conv2d_params *p,
                                                         const int8_t *plane, int c,
                                                         const int8_t *filter,
                                                         const int32_t *bias,
                                                         const int32_t *mult,
                                                         const int32_t *shift, int8_t *out_b)
{
    int oy, ox;
    for (oy = 0; oy < p->out_h; oy++) {
        const int iy0 = oy * p->stride_h - p->pad_top;
        const int ky0 = te_depthwise_conv2d_tap_lo(iy0, p->dil_h);
        const int ky1 = te_depthwise_conv2d_tap_hi(iy0, p->dil_h, p->k_h, p->in_h);
        for (ox = 0; ox < p->out_w; ox++) {
            const int ix0 = ox * p->stride_w - p->pad_left;
            const int kx0 = te_depthwise_conv2d_tap_lo(ix0, p->dil_w);
            const int kx1 = te_depthwise_conv2d_tap_hi(ix0, p->dil_w, p->k_w, p->in_w);
            uint32_t acc = te_depthwise_conv2d_pixel(p, plane, 1, filter + c, iy0, ix0, ky0,
                                                     ky1, kx0, kx1);
            if (bias)
                acc += (uint32_t)bias[c];
            out_b[((long)oy * p->out_w + ox) * p->in_c + c] =
                te_depthwise_conv2d_requant(acc, mult[c], shift[c], p->output_offset,
                                            p->act_min, p->act_max);
        }
    }
}

/* Output (b, y, x, c) lands at an offset congruent to c modulo in_c, at or
 * before the end of batch b's input, so writing channel c of batch b only
 * overwrites input channel c of batch b (already saved in plane) or input
 * of earlier batches (already consumed). */
TE_KERNEL void te_depthwise_conv2d_s8_inplace(const te_depthwise_conv2d_params *p, int8_t *data,
                                              const int8_t *filter, const int32_t *bias,
                                              const int32_t *mult, const int32_t *shift,
                                              int8_t *plane)
{
    const long in_px = (long)p->in_h * p->in_w, out_px = (long)p->out_h * p->out_w;
    int b, c;
    long i;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = data + (long)b * in_px * p->in_c;
        int8_t *out_b = data + (long)b * out_px * p->in_c;
        for (c = 0; c < p->in_c; c++) {
            for (i = 0; i < in_px; i++)
                plane[i] = in_b[i * p->in_c + c];
            te_depthwise_conv2d_channel(p, plane, c, filter, bias, mult, shift, out_b);
        }
    }
}
