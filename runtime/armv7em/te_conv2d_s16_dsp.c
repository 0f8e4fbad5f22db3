/* te_conv2d_s16_dsp.c - the Armv7E-M DSP int16x8 CONV_2D kernel (see
 * te_conv2d_s16_dsp.h): for each output pixel, blocks of four output
 * channels accumulate over the taps inside the input, two input channels
 * per SMLAD; the int32 sums then take the bias and TFLite's requantization
 * of the path the bias type selects. */
#include "te_common.h"
#include "te_conv2d_s16_dsp.h"

#if defined(TE_TARGET_DSP)

/* te:section te_conv2d_s16_dsp_tap_lo */
/* First tap index k with origin + k*dil >= 0. */
static inline TE_UNUSED int te_conv2d_s16_dsp_tap_lo(int origin, int dil)
{
    return origin < 0 ? (-origin + dil - 1) / dil : 0;
}
/* te:end */

/* te:section te_conv2d_s16_dsp_tap_hi */
/* One past the last tap index k < taps with origin + k*dil < size. */
static inline TE_UNUSED int te_conv2d_s16_dsp_tap_hi(int origin, int dil, int taps, int size)
{
    int room = size - origin;
    int n = room > 0 ? (room + dil - 1) / dil : 0;
    return n < taps ? n : taps;
}
/* te:end */

/* te:section te_conv2d_s16_dsp_out */
static inline TE_UNUSED int16_t te_conv2d_s16_dsp_out(const te_conv2d_s16_dsp_params *p,
                                                      int32_t sum, const int64_t *bias64,
                                                      const int32_t *bias32, int c,
                                                      const int32_t *mult, const int32_t *shift)
{
    int64_t acc = (int64_t)sum + (bias64 ? bias64[c] : bias32 ? bias32[c] : 0);
    int32_t v = p->acc32 ? te_mul_by_quant_mult((int32_t)(uint32_t)(uint64_t)acc, mult[c],
                                                (int)shift[c])
                         : te_mul_by_quant_mult_i64(acc, mult[c], (int)shift[c]);
    return (int16_t)te_clamp_i32(v, p->act_min, p->act_max);
}
/* te:end */

/* te:section te_conv2d_s16_dsp */
TE_KERNEL void te_conv2d_s16_dsp(const te_conv2d_s16_dsp_params *p, const int16_t *input,
                                 const int32_t *weights, const int64_t *bias64,
                                 const int32_t *bias32, const int32_t *mult,
                                 const int32_t *shift, int16_t *output)
{
    const int pairs = (p->in_c + 1) / 2, full = p->in_c / 2, odd = p->in_c & 1;
    const long tap_words = 4L * pairs, block_words = tap_words * p->k_h * p->k_w;
    int b, oy, ox, oc, ky, kx, j;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++) {
            const int iy0 = oy * p->stride_h - p->pad_top;
            const int ky0 = te_conv2d_s16_dsp_tap_lo(iy0, p->dil_h);
            const int ky1 = te_conv2d_s16_dsp_tap_hi(iy0, p->dil_h, p->k_h, p->in_h);
            for (ox = 0; ox < p->out_w; ox++, output += p->out_c) {
                const int ix0 = ox * p->stride_w - p->pad_left;
                const int kx0 = te_conv2d_s16_dsp_tap_lo(ix0, p->dil_w);
                const int kx1 = te_conv2d_s16_dsp_tap_hi(ix0, p->dil_w, p->k_w, p->in_w);
                for (oc = 0; oc < p->out_c; oc += 4) {
                    const int32_t *wb = weights + (long)(oc / 4) * block_words;
                    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
                    for (ky = ky0; ky < ky1; ky++) {
                        const int16_t *row =
                            in_b + (long)(iy0 + ky * p->dil_h) * p->in_w * p->in_c;
                        for (kx = kx0; kx < kx1; kx++) {
                            const int16_t *x = row + (long)(ix0 + kx * p->dil_w) * p->in_c;
                            const int32_t *w = wb + ((long)ky * p->k_w + kx) * tap_words;
                            for (j = 0; j < full; j++, w += 4) {
                                uint32_t xw = te_read_u32(x + 2 * j);
                                a0 = te_smlad(xw, (uint32_t)w[0], a0);
                                a1 = te_smlad(xw, (uint32_t)w[1], a1);
                                a2 = te_smlad(xw, (uint32_t)w[2], a2);
                                a3 = te_smlad(xw, (uint32_t)w[3], a3);
                            }
                            if (odd) { /* the last channel alone, high halves 0 */
                                uint32_t xw = (uint16_t)x[2 * full];
                                a0 = te_smlad(xw, (uint32_t)w[0], a0);
                                a1 = te_smlad(xw, (uint32_t)w[1], a1);
                                a2 = te_smlad(xw, (uint32_t)w[2], a2);
                                a3 = te_smlad(xw, (uint32_t)w[3], a3);
                            }
                        }
                    }
                    {
                        const int32_t sums[4] = {a0, a1, a2, a3};
                        for (j = 0; j < 4 && oc + j < p->out_c; j++)
                            output[oc + j] = te_conv2d_s16_dsp_out(p, sums[j], bias64, bias32,
                                                                   oc + j, mult, shift);
                    }
                }
            }
        }
    }
}
/* te:end */

#endif
