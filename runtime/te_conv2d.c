/* te_conv2d.c - CONV_2D int8 kernel (see te_conv2d.h).
 *
 * For every output pixel the range of filter taps that land inside the
 * input is computed once; taps in the padding are skipped, which is what
 * zero-point padding amounts to once the input offset is added.  The
 * accumulator wraps modulo 2^32 like TFLite's int32 accumulator does on
 * every target, without signed-overflow UB. */
#include "te_common.h"
#include "te_conv2d.h"

/* te:section te_conv2d_tap_lo */
/* First tap index k with origin + k*dil >= 0. */
static inline TE_UNUSED int te_conv2d_tap_lo(int origin, int dil)
{
    return origin < 0 ? (-origin + dil - 1) / dil : 0;
}
/* te:end */

/* te:section te_conv2d_tap_hi */
/* One past the last tap index k < taps with origin + k*dil < size. */
static inline TE_UNUSED int te_conv2d_tap_hi(int origin, int dil, int taps, int size)
{
    int room = size - origin;
    int n = room > 0 ? (room + dil - 1) / dil : 0;
    return n < taps ? n : taps;
}
/* te:end */

/* te:section te_conv2d_dot */
static inline TE_UNUSED uint32_t te_conv2d_dot(const int8_t *x, const int8_t *w, int n, int32_t off)
{
    uint32_t acc = 0;
    int i;
    for (i = 0; i < n; i++)
        acc += (uint32_t)((x[i] + off) * w[i]);
    return acc;
}
/* te:end */

/* te:section te_conv2d_requant */
static inline TE_UNUSED int8_t te_conv2d_requant(uint32_t acc, int32_t mult, int32_t shift,
                                                 int32_t zp, int32_t lo, int32_t hi)
{
    int32_t v = te_mul_by_quant_mult((int32_t)acc, mult, (int)shift);
    v = (int32_t)((uint32_t)v + (uint32_t)zp);
    return (int8_t)te_clamp_i32(v, lo, hi);
}
/* te:end */

/* te:section te_conv2d_pixel */
/* Accumulates output channel `oc` of one pixel over the valid taps. */
static inline TE_UNUSED uint32_t te_conv2d_pixel(const te_conv2d_params *p, const int8_t *in_b,
                                                 const int8_t *w_oc, int iy0, int ix0, int ky0,
                                                 int ky1, int kx0, int kx1)
{
    uint32_t acc = 0;
    int ky, kx;
    for (ky = ky0; ky < ky1; ky++) {
        const int8_t *row = in_b + (long)(iy0 + ky * p->dil_h) * p->in_w * p->in_c;
        const int8_t *wrow = w_oc + (long)ky * p->k_w * p->filter_c;
        for (kx = kx0; kx < kx1; kx++)
            acc += te_conv2d_dot(row + (long)(ix0 + kx * p->dil_w) * p->in_c,
                                 wrow + (long)kx * p->filter_c, p->filter_c, p->input_offset);
    }
    return acc;
}
/* te:end */

/* te:section te_conv2d_s8 */
TE_KERNEL void te_conv2d_s8(const te_conv2d_params *p, const int8_t *input, const int8_t *filter,
                            const int32_t *bias, const int32_t *mult, const int32_t *shift,
                            int8_t *output)
{
    const int per_group = p->out_c / (p->in_c / p->filter_c);
    const long w_per_oc = (long)p->k_h * p->k_w * p->filter_c;
    const long pitch = p->out_stride > p->out_c ? p->out_stride : p->out_c;
    long pix = 0;
    int b, oy, ox, oc;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++) {
            const int iy0 = oy * p->stride_h - p->pad_top;
            const int ky0 = te_conv2d_tap_lo(iy0, p->dil_h);
            const int ky1 = te_conv2d_tap_hi(iy0, p->dil_h, p->k_h, p->in_h);
            for (ox = 0; ox < p->out_w; ox++, pix++) {
                int8_t *o = output + pix * pitch;
                const int ix0 = ox * p->stride_w - p->pad_left;
                const int kx0 = te_conv2d_tap_lo(ix0, p->dil_w);
                const int kx1 = te_conv2d_tap_hi(ix0, p->dil_w, p->k_w, p->in_w);
                for (oc = 0; oc < p->out_c; oc++) {
                    const int8_t *in_g = in_b + (long)(oc / per_group) * p->filter_c;
                    uint32_t acc = te_conv2d_pixel(p, in_g, filter + oc * w_per_oc, iy0, ix0,
                                                   ky0, ky1, kx0, kx1);
                    if (bias)
                        acc += (uint32_t)bias[oc];
                    o[oc] = te_conv2d_requant(acc, mult[oc], shift[oc], p->output_offset,
                                              p->act_min, p->act_max);
                }
            }
        }
    }
}
/* te:end */

/* te:section te_conv2d_s8_inplace */
TE_KERNEL void te_conv2d_s8_inplace(const te_conv2d_params *p, int8_t *data,
                                    const int8_t *filter, const int32_t *bias,
                                    const int32_t *mult, const int32_t *shift, int8_t *pixel)
{
    const long pixels = (long)p->batches * p->out_h * p->out_w;
    const long shrink = (long)p->in_c - p->out_c; /* how far each pixel's output
                                                   * start falls behind its input's */
    /* pixels 0 .. own - 1 store over their own input: pix * shrink < out_c */
    const long own = shrink > 0 ? (p->out_c + shrink - 1) / shrink : pixels;
    long pix;
    int oc;
    for (pix = 0; pix < pixels; pix++) {
        const int8_t *x = data + pix * p->in_c;
        int8_t *o = data + pix * p->out_c;
        int8_t *dst = pix < own ? pixel : o;
        for (oc = 0; oc < p->out_c; oc++) {
            uint32_t acc = te_conv2d_dot(x, filter + (long)oc * p->in_c, p->in_c, p->input_offset);
            if (bias)
                acc += (uint32_t)bias[oc];
            dst[oc] = te_conv2d_requant(acc, mult[oc], shift[oc], p->output_offset, p->act_min,
                                        p->act_max);
        }
        for (oc = 0; dst == pixel && oc < p->out_c; oc++)
            o[oc] = pixel[oc];
    }
}
/* te:end */
