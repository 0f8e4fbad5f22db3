/* te_transpose_conv.c - TRANSPOSE_CONV int8 and int16x8 kernels (see
 * te_transpose_conv.h).
 *
 * TFLite scatters input pixel (iy,ix) with tap (ky,kx) onto output
 * (iy*stride - pad + ky, ...).  Here each output pixel gathers instead:
 * tap ky contributes when oy + pad - ky is a non-negative multiple of the
 * stride whose quotient is a valid input row.  The accumulator wraps modulo
 * 2^32 like TFLite's int32 scratch buffer does, without UB. */
#include "te_common.h"
#include "te_transpose_conv.h"

/* te:section te_transpose_conv_dot */
static inline TE_UNUSED uint32_t te_transpose_conv_dot(const int8_t *x, const int8_t *w, int n,
                                                       int32_t off)
{
    uint32_t acc = 0;
    int i;
    for (i = 0; i < n; i++)
        acc += (uint32_t)((x[i] + off) * w[i]);
    return acc;
}
/* te:end */

/* te:section te_transpose_conv_pixel */
/* Sum for output channel oc at output pixel (ty = oy + pad_top, tx = ox + pad_left). */
static inline TE_UNUSED uint32_t te_transpose_conv_pixel(const te_transpose_conv_params *p,
                                                         const int8_t *in_b, const int8_t *w_oc,
                                                         int ty, int tx)
{
    uint32_t acc = 0;
    int ky, kx;
    for (ky = ty % p->stride_h; ky < p->k_h && ky <= ty; ky += p->stride_h) {
        const int iy = (ty - ky) / p->stride_h;
        if (iy >= p->in_h)
            continue;
        for (kx = tx % p->stride_w; kx < p->k_w && kx <= tx; kx += p->stride_w) {
            const int ix = (tx - kx) / p->stride_w;
            if (ix >= p->in_w)
                continue;
            acc += te_transpose_conv_dot(in_b + ((long)iy * p->in_w + ix) * p->in_c,
                                         w_oc + ((long)ky * p->k_w + kx) * p->in_c, p->in_c,
                                         p->input_offset);
        }
    }
    return acc;
}
/* te:end */

/* te:section te_transpose_conv_s8 */
TE_KERNEL void te_transpose_conv_s8(const te_transpose_conv_params *p, const int8_t *input,
                                    const int8_t *filter, const int32_t *bias,
                                    const int32_t *mult, const int32_t *shift, int8_t *output)
{
    const long w_per_oc = (long)p->k_h * p->k_w * p->in_c;
    int b, oy, ox, oc;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++) {
            for (ox = 0; ox < p->out_w; ox++) {
                for (oc = 0; oc < p->out_c; oc++) {
                    uint32_t acc = te_transpose_conv_pixel(p, in_b, filter + oc * w_per_oc,
                                                           oy + p->pad_top, ox + p->pad_left);
                    int32_t v;
                    if (bias)
                        acc += (uint32_t)bias[oc];
                    v = te_mul_by_quant_mult((int32_t)acc, mult[oc], (int)shift[oc]);
                    v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
                    *output++ = (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
                }
            }
        }
    }
}
/* te:end */

/* te:section te_transpose_conv_pixel_s16 */
/* te_transpose_conv_pixel on int16 inputs: the int64 sum of x * w. */
static inline TE_UNUSED int64_t te_transpose_conv_pixel_s16(const te_transpose_conv_params *p,
                                                            const int16_t *in_b,
                                                            const int8_t *w_oc, int ty, int tx)
{
    int64_t acc = 0;
    int ky, kx, i;
    for (ky = ty % p->stride_h; ky < p->k_h && ky <= ty; ky += p->stride_h) {
        const int iy = (ty - ky) / p->stride_h;
        if (iy >= p->in_h)
            continue;
        for (kx = tx % p->stride_w; kx < p->k_w && kx <= tx; kx += p->stride_w) {
            const int ix = (tx - kx) / p->stride_w;
            const int16_t *x;
            const int8_t *w;
            if (ix >= p->in_w)
                continue;
            x = in_b + ((long)iy * p->in_w + ix) * p->in_c;
            w = w_oc + ((long)ky * p->k_w + kx) * p->in_c;
            for (i = 0; i < p->in_c; i++)
                acc += (int32_t)x[i] * w[i];
        }
    }
    return acc;
}
/* te:end */

/* te:section te_transpose_conv_s16 */
TE_KERNEL void te_transpose_conv_s16(const te_transpose_conv_params *p, const int16_t *input,
                                     const int8_t *filter, const int64_t *bias,
                                     const int32_t *mult, const int32_t *shift, int16_t *output)
{
    const long w_per_oc = (long)p->k_h * p->k_w * p->in_c;
    int b, oy, ox, oc;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++) {
            for (ox = 0; ox < p->out_w; ox++) {
                for (oc = 0; oc < p->out_c; oc++) {
                    int64_t acc = te_transpose_conv_pixel_s16(p, in_b, filter + oc * w_per_oc,
                                                              oy + p->pad_top, ox + p->pad_left);
                    if (bias)
                        acc += bias[oc];
                    *output++ = (int16_t)te_clamp_i32(
                        te_mul_by_quant_mult_i64(acc, mult[oc], (int)shift[oc]), p->act_min,
                        p->act_max);
                }
            }
        }
    }
}
/* te:end */
