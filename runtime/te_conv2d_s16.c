/* te_conv2d_s16.c - int16x8 CONV_2D and DEPTHWISE_CONV_2D kernels (see
 * te_conv2d_s16.h).  For every output pixel the range of filter taps
 * inside the input is computed once.  Products are summed in 64 bits (an
 * int16 x int8 product needs 23 bits, so no int32 sum of more than 2^8 of
 * them is safe); the int32 path of CONV_2D keeps the low 32 bits, which is
 * what TFLite's wrapping int32 accumulator holds. */
#include "te_common.h"
#include "te_conv2d_s16.h"

/* te:section te_conv2d_s16_tap_lo */
/* First tap index k with origin + k*dil >= 0. */
static inline TE_UNUSED int te_conv2d_s16_tap_lo(int origin, int dil)
{
    return origin < 0 ? (-origin + dil - 1) / dil : 0;
}
/* te:end */

/* te:section te_conv2d_s16_tap_hi */
/* One past the last tap index k < taps with origin + k*dil < size. */
static inline TE_UNUSED int te_conv2d_s16_tap_hi(int origin, int dil, int taps, int size)
{
    int room = size - origin;
    int n = room > 0 ? (room + dil - 1) / dil : 0;
    return n < taps ? n : taps;
}
/* te:end */

/* te:section te_conv2d_s16_out */
/* The requantized, clamped output of accumulator acc: the int64 path, or
 * (acc32) the int32 one on its low 32 bits. */
static inline TE_UNUSED int16_t te_conv2d_s16_out(int64_t acc, int acc32, int32_t mult,
                                                  int32_t shift, int32_t lo, int32_t hi)
{
    int32_t v = acc32 ? te_mul_by_quant_mult((int32_t)(uint32_t)(uint64_t)acc, mult, (int)shift)
                      : te_mul_by_quant_mult_i64(acc, mult, (int)shift);
    return (int16_t)te_clamp_i32(v, lo, hi);
}
/* te:end */

/* te:section te_conv2d_s16_pixel */
/* Sum over the valid taps of one output channel of one pixel; in_g is the
 * input of its group, w_oc its filter [k_h, k_w, filter_c]. */
static inline TE_UNUSED int64_t te_conv2d_s16_pixel(const te_conv2d_s16_params *p,
                                                    const int16_t *in_g, const int8_t *w_oc,
                                                    int iy0, int ix0, int ky0, int ky1, int kx0,
                                                    int kx1)
{
    int64_t acc = 0;
    int ky, kx, i;
    for (ky = ky0; ky < ky1; ky++) {
        const int16_t *row = in_g + (long)(iy0 + ky * p->dil_h) * p->in_w * p->in_c;
        const int8_t *wrow = w_oc + (long)ky * p->k_w * p->filter_c;
        for (kx = kx0; kx < kx1; kx++) {
            const int16_t *x = row + (long)(ix0 + kx * p->dil_w) * p->in_c;
            const int8_t *w = wrow + (long)kx * p->filter_c;
            for (i = 0; i < p->filter_c; i++)
                acc += (int32_t)x[i] * w[i];
        }
    }
    return acc;
}
/* te:end */

/* te:section te_conv2d_s16_run */
/* CONV_2D with either bias (at most one non-NULL); acc32: the int32 path. */
static inline TE_UNUSED void te_conv2d_s16_run(const te_conv2d_s16_params *p, const int16_t *input,
                                               const int8_t *filter, const int64_t *bias64,
                                               const int32_t *bias32, int acc32,
                                               const int32_t *mult, const int32_t *shift,
                                               int16_t *output)
{
    const int per_group = p->out_c / (p->in_c / p->filter_c);
    const long w_per_oc = (long)p->k_h * p->k_w * p->filter_c;
    int b, oy, ox, oc;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++) {
            const int iy0 = oy * p->stride_h - p->pad_top;
            const int ky0 = te_conv2d_s16_tap_lo(iy0, p->dil_h);
            const int ky1 = te_conv2d_s16_tap_hi(iy0, p->dil_h, p->k_h, p->in_h);
            for (ox = 0; ox < p->out_w; ox++, output += p->out_c) {
                const int ix0 = ox * p->stride_w - p->pad_left;
                const int kx0 = te_conv2d_s16_tap_lo(ix0, p->dil_w);
                const int kx1 = te_conv2d_s16_tap_hi(ix0, p->dil_w, p->k_w, p->in_w);
                for (oc = 0; oc < p->out_c; oc++) {
                    int64_t acc = te_conv2d_s16_pixel(
                        p, in_b + (long)(oc / per_group) * p->filter_c, filter + oc * w_per_oc,
                        iy0, ix0, ky0, ky1, kx0, kx1);
                    if (bias64)
                        acc = (int64_t)((uint64_t)acc + (uint64_t)bias64[oc]);
                    else if (bias32)
                        acc += bias32[oc];
                    output[oc] = te_conv2d_s16_out(acc, acc32, mult[oc], shift[oc], p->act_min,
                                                   p->act_max);
                }
            }
        }
    }
}
/* te:end */

/* te:section te_conv2d_s16 */
TE_KERNEL void te_conv2d_s16(const te_conv2d_s16_params *p, const int16_t *input,
                             const int8_t *filter, const int64_t *bias, const int32_t *mult,
                             const int32_t *shift, int16_t *output)
{
    te_conv2d_s16_run(p, input, filter, bias, NULL, 0, mult, shift, output);
}
/* te:end */

/* te:section te_conv2d_s16_b32 */
TE_KERNEL void te_conv2d_s16_b32(const te_conv2d_s16_params *p, const int16_t *input,
                                 const int8_t *filter, const int32_t *bias, const int32_t *mult,
                                 const int32_t *shift, int16_t *output)
{
    te_conv2d_s16_run(p, input, filter, NULL, bias, 1, mult, shift, output);
}
/* te:end */

/* te:section te_depthwise_conv2d_s16 */
TE_KERNEL void te_depthwise_conv2d_s16(const te_conv2d_s16_params *p, const int16_t *input,
                                       const int8_t *filter, const int64_t *bias,
                                       const int32_t *mult, const int32_t *shift,
                                       int16_t *output)
{
    int b, oy, ox, ic, m, ky, kx;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++) {
            const int iy0 = oy * p->stride_h - p->pad_top;
            const int ky0 = te_conv2d_s16_tap_lo(iy0, p->dil_h);
            const int ky1 = te_conv2d_s16_tap_hi(iy0, p->dil_h, p->k_h, p->in_h);
            for (ox = 0; ox < p->out_w; ox++, output += p->out_c) {
                const int ix0 = ox * p->stride_w - p->pad_left;
                const int kx0 = te_conv2d_s16_tap_lo(ix0, p->dil_w);
                const int kx1 = te_conv2d_s16_tap_hi(ix0, p->dil_w, p->k_w, p->in_w);
                for (ic = 0; ic < p->in_c; ic++)
                    for (m = 0; m < p->depth_mult; m++) {
                        const int oc = ic * p->depth_mult + m;
                        int64_t acc = 0;
                        for (ky = ky0; ky < ky1; ky++) {
                            const int16_t *x = in_b +
                                               ((long)(iy0 + ky * p->dil_h) * p->in_w) * p->in_c +
                                               ic;
                            const int8_t *w = filter + (long)ky * p->k_w * p->out_c + oc;
                            for (kx = kx0; kx < kx1; kx++)
                                acc += (int32_t)x[(long)(ix0 + kx * p->dil_w) * p->in_c] *
                                       w[(long)kx * p->out_c];
                        }
                        if (bias)
                            acc = (int64_t)((uint64_t)acc + (uint64_t)bias[oc]);
                        output[oc] = te_conv2d_s16_out(acc, 0, mult[oc], shift[oc], p->act_min,
                                                       p->act_max);
                    }
            }
        }
    }
}
/* te:end */
