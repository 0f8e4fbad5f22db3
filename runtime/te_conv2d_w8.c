/* te_conv2d_w8.c - CONV_2D int8 kernel in portable C with the model's int8
 * weights (see te_conv2d_w8.h).  Accumulation wraps modulo 2^32 without
 * signed-overflow UB; the requantization is integer arithmetic only. */
#include "te_common.h"
#include "te_conv2d_w8.h"

/* The dot products stay a function of their own: gcc -O2 vectorises the
 * loop there, not once inlined into the pixel loop (and not cloned for
 * constant arguments either). */
#if defined(__GNUC__) && !defined(__clang__)
#define TE_CONV2D_W8_NOINLINE static __attribute__((noinline, noclone)) TE_UNUSED
#elif defined(__GNUC__)
#define TE_CONV2D_W8_NOINLINE static __attribute__((noinline)) TE_UNUSED
#else
#define TE_CONV2D_W8_NOINLINE static TE_UNUSED
#endif

/* te:section te_conv2d_w8_patch */
/* The patch of output pixel (oy, ox) of batch input in_b: a pointer into
 * the input when a 1x1 filter reads one pixel (unless the output is
 * written over its input, out_stride == out_c: then that pixel's input is
 * copied before its outputs overwrite it), else gathered into d (padding
 * taps hold the input zero point). */
static inline TE_UNUSED const int8_t *te_conv2d_w8_patch(const te_conv2d_w8_params *p,
                                                         const int8_t *in_b, int oy, int ox,
                                                         int8_t *d)
{
    const int c = p->in_c, iy0 = oy * p->stride_h - p->pad_top;
    const int ix0 = ox * p->stride_w - p->pad_left;
    int ky, kx, i;
    int8_t *o = d;
    if (p->k_h == 1 && p->k_w == 1 && iy0 >= 0 && iy0 < p->in_h && ix0 >= 0 && ix0 < p->in_w &&
        p->out_stride != p->out_c)
        return in_b + ((long)iy0 * p->in_w + ix0) * c;
    for (ky = 0; ky < p->k_h; ky++) {
        const int iy = iy0 + ky * p->dil_h;
        for (kx = 0; kx < p->k_w; kx++, o += c) {
            const int ix = ix0 + kx * p->dil_w;
            const int8_t *s = in_b + ((long)iy * p->in_w + ix) * c;
            if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
                for (i = 0; i < c; i++)
                    o[i] = (int8_t)p->input_zp;
            else
                for (i = 0; i < c; i++)
                    o[i] = s[i];
        }
    }
    return d;
}
/* te:end */

/* te:section te_conv2d_w8_dot4 */
/* The dot products of patch x (k elements) with 4 weight rows k apart
 * from w into s[0..3]: whole blocks of 16 elements first (a loop count
 * compilers vectorise at -O2), then the rest. */
TE_CONV2D_W8_NOINLINE void te_conv2d_w8_dot4(const int8_t *restrict x,
                                             const int8_t *restrict w, int k, uint32_t *s)
{
    const int8_t *restrict w1 = w + k, *restrict w2 = w1 + k, *restrict w3 = w2 + k;
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0; /* |sum| < 2^14 * KMAX: no overflow */
    unsigned i, n16 = (unsigned)k / 16u * 16u;
    for (i = 0; i < n16; i++) {
        const int32_t xi = x[i];
        s0 += xi * w[i];
        s1 += xi * w1[i];
        s2 += xi * w2[i];
        s3 += xi * w3[i];
    }
    for (; i < (unsigned)k; i++) {
        const int32_t xi = x[i];
        s0 += xi * w[i];
        s1 += xi * w1[i];
        s2 += xi * w2[i];
        s3 += xi * w3[i];
    }
    s[0] = (uint32_t)s0;
    s[1] = (uint32_t)s1;
    s[2] = (uint32_t)s2;
    s[3] = (uint32_t)s3;
}
/* te:end */

/* te:section te_conv2d_w8_out */
/* Output of channel j of the block with record r and weight sum s. */
static inline TE_UNUSED int8_t te_conv2d_w8_out(const te_conv2d_w8_params *p, const int32_t *r,
                                                int j, uint32_t s)
{
    const int32_t *q = r + 4 + 3 * j;
    int32_t v;
    if (p->fast_rq) { /* (smmulr(acc2, m) + H - [acc2 < 0]) >> e on the doubled sum */
        const int32_t a2 = (int32_t)(2u * s + (uint32_t)r[j]);
        const uint32_t hi = (uint32_t)(int32_t)(((int64_t)a2 * q[0] + 2147483648LL) >> 32);
        v = (int32_t)(hi + (uint32_t)q[1] - ((uint32_t)a2 >> 31)) >> q[2];
    } else {
        v = (int32_t)((uint32_t)te_mul_by_quant_mult((int32_t)(s + (uint32_t)r[j]), q[0],
                                                      (int)q[1]) +
                      (uint32_t)p->output_offset);
    }
    return (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
}
/* te:end */

/* te:section te_conv2d_w8_s8 */
TE_KERNEL void te_conv2d_w8_s8(const te_conv2d_w8_params *p, const int8_t *input,
                               const int8_t *w, const int32_t *qr, int8_t *output)
{
    int8_t patch[TE_CONV2D_W8_KMAX];
    const int k = p->k_h * p->k_w * p->in_c;
    const long os = p->out_stride ? p->out_stride : p->out_c;
    int b, oy, ox, c, j;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++) {
                const int8_t *x = te_conv2d_w8_patch(p, in_b, oy, ox, patch);
                int8_t *o = output + (((long)b * p->out_h + oy) * p->out_w + ox) * os;
                for (c = 0; c + 4 <= p->out_c; c += 4) {
                    uint32_t s[4];
                    te_conv2d_w8_dot4(x, w + (long)c * k, k, s);
                    for (j = 0; j < 4; j++)
                        o[c + j] = te_conv2d_w8_out(p, qr + 4 * c, j, s[j]);
                }
                for (; c < p->out_c; c++) { /* the last 1..3 channels */
                    const int8_t *wc = w + (long)c * k;
                    int32_t s = 0;
                    int i;
                    for (i = 0; i < k; i++)
                        s += (int32_t)x[i] * wc[i];
                    o[c] = te_conv2d_w8_out(p, qr + 16 * (c / 4), c % 4, (uint32_t)s);
                }
            }
    }
}
/* te:end */
