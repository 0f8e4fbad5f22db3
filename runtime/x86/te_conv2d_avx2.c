/* te_conv2d_avx2.c - CONV_2D int8 kernel for x86-64 with AVX2 (see
 * te_conv2d_avx2.h).  The functions carry the avx2 target attribute, so
 * the file compiles with plain -O2 (no -mavx2); the code then needs a CPU
 * with AVX2, which is what target x86-64-v3 promises.  Accumulation wraps
 * modulo 2^32 like TFLite's int32 accumulator (VPADDD), and the
 * requantization is integer arithmetic only: exact. */
#include "te_common.h"
#include "te_conv2d_avx2.h"

#if !defined(TE_AVX2_FN)
#error "te_conv2d_avx2.c is for target x86-64-v3 (TE_TARGET_AVX2)"
#endif

/* te:section te_conv2d_avx2_widen */
/* n int8 at src as int16 at dst: 16, then 8 at a time, then one by one. */
TE_AVX2_FN void te_conv2d_avx2_widen(int16_t *dst, const int8_t *src, int n)
{
    int i = 0;
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256((__m256i *)(void *)(dst + i),
                            _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + i))));
    if (i + 8 <= n) {
        _mm_storeu_si128((__m128i *)(void *)(dst + i),
                         _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(src + i))));
        i += 8;
    }
    for (; i < n; i++)
        dst[i] = src[i];
}
/* te:end */

/* te:section te_conv2d_avx2_fill */
/* n int16 equal to v at dst. */
TE_AVX2_FN void te_conv2d_avx2_fill(int16_t *dst, int16_t v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        dst[i] = v;
}
/* te:end */

/* te:section te_conv2d_avx2_patch */
/* The patch of output pixel (oy, ox) of batch input in_b into d. */
TE_AVX2_FN void te_conv2d_avx2_patch(const te_conv2d_avx2_params *p, const int8_t *in_b, int oy,
                                     int ox, int16_t *d)
{
    const int c = p->in_c, iy0 = oy * p->stride_h - p->pad_top;
    const int ix0 = ox * p->stride_w - p->pad_left;
    const int reach = (p->k_w - 1) * p->dil_w;
    int ky, kx;
    for (ky = 0; ky < p->k_h; ky++) {
        const int iy = iy0 + ky * p->dil_h;
        const int8_t *row = in_b + (long)iy * p->in_w * c;
        if (iy < 0 || iy >= p->in_h) {
            te_conv2d_avx2_fill(d, (int16_t)p->input_zp, p->k_w * c);
            d += p->k_w * c;
            continue;
        }
        if (p->dil_w == 1 && ix0 >= 0 && ix0 + reach < p->in_w) { /* one run of bytes */
            te_conv2d_avx2_widen(d, row + (long)ix0 * c, p->k_w * c);
            d += p->k_w * c;
            continue;
        }
        for (kx = 0; kx < p->k_w; kx++, d += c) {
            const int ix = ix0 + kx * p->dil_w;
            if (ix < 0 || ix >= p->in_w)
                te_conv2d_avx2_fill(d, (int16_t)p->input_zp, c);
            else
                te_conv2d_avx2_widen(d, row + (long)ix * c, c);
        }
    }
}
/* te:end */

/* The madd-accumulate of pair x (broadcast) by weights w into acc. */
#define TE_CONV2D_AVX2_MAC(ACC, X, W) ACC = _mm256_add_epi32(ACC, _mm256_madd_epi16(X, W))
#define RQ(A, R) te_avx2_rq(p->fast_rq, p->output_offset, A, R)
#define TE_CONV2D_AVX2_BCAST(P, J) _mm256_set1_epi32(te_conv2d_avx2_pair((P) + 2 * (J)))
/* 16 int8 weights widened to int16 as they are loaded (one VPMOVSXBW). */
#define TE_CONV2D_AVX2_W(P) _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(P)))

/* te:section te_conv2d_avx2_pair */
/* Two int16 as one int32 (without breaking the aliasing rules). */
TE_AVX2_FN int32_t te_conv2d_avx2_pair(const int16_t *x)
{
    int32_t v;
    __builtin_memcpy(&v, x, sizeof v);
    return v;
}
/* te:end */

/* te:section te_conv2d_avx2_px4_c16 */
/* 16 channels (blocks b and b + 1) of 4 pixels (patches x0..x3); stores
 * the first n pixels (outputs o, pixels os bytes apart), channels below
 * nc (from the block's first). */
TE_AVX2_FN void te_conv2d_avx2_px4_c16(const te_conv2d_avx2_params *p, const int16_t *const *x,
                                       const int8_t *w, const int32_t *r, int8_t *o, long os,
                                       int n, int nc)
{
    const int kp2 = p->k_pad / 2;
    const int8_t *w0 = w, *w1 = w + (long)kp2 * 16;
    const int16_t *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
    const __m256i b0 = _mm256_loadu_si256((const __m256i *)(const void *)r);
    const __m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)(r + 32));
    const __m256i lo = _mm256_set1_epi16((int16_t)p->act_min);
    const __m256i hi = _mm256_set1_epi16((int16_t)p->act_max);
    __m256i a00 = b0, a01 = b1, a10 = b0, a11 = b1, a20 = b0, a21 = b1, a30 = b0, a31 = b1;
    int j;
    for (j = 0; j < kp2; j++) {
        const __m256i wa = TE_CONV2D_AVX2_W(w0 + 16 * j);
        const __m256i wb = TE_CONV2D_AVX2_W(w1 + 16 * j);
        __m256i v = TE_CONV2D_AVX2_BCAST(x0, j);
        TE_CONV2D_AVX2_MAC(a00, v, wa);
        TE_CONV2D_AVX2_MAC(a01, v, wb);
        v = TE_CONV2D_AVX2_BCAST(x1, j);
        TE_CONV2D_AVX2_MAC(a10, v, wa);
        TE_CONV2D_AVX2_MAC(a11, v, wb);
        v = TE_CONV2D_AVX2_BCAST(x2, j);
        TE_CONV2D_AVX2_MAC(a20, v, wa);
        TE_CONV2D_AVX2_MAC(a21, v, wb);
        v = TE_CONV2D_AVX2_BCAST(x3, j);
        TE_CONV2D_AVX2_MAC(a30, v, wa);
        TE_CONV2D_AVX2_MAC(a31, v, wb);
    }
    te_avx2_store16(RQ(a00, r), RQ(a01, r + 32), lo, hi, o, nc);
    if (n > 1)
        te_avx2_store16(RQ(a10, r), RQ(a11, r + 32), lo, hi, o + os, nc);
    if (n > 2)
        te_avx2_store16(RQ(a20, r), RQ(a21, r + 32), lo, hi, o + 2 * os, nc);
    if (n > 3)
        te_avx2_store16(RQ(a30, r), RQ(a31, r + 32), lo, hi, o + 3 * os, nc);
}
/* te:end */

/* te:section te_conv2d_avx2_px4_c8 */
/* The same for the last block alone (8 channels, nc <= 8 of them). */
TE_AVX2_FN void te_conv2d_avx2_px4_c8(const te_conv2d_avx2_params *p, const int16_t *const *x,
                                      const int8_t *w, const int32_t *r, int8_t *o, long os,
                                      int n, int nc)
{
    const int kp2 = p->k_pad / 2;
    const int16_t *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
    const __m256i b0 = _mm256_loadu_si256((const __m256i *)(const void *)r);
    const __m256i lo = _mm256_set1_epi16((int16_t)p->act_min);
    const __m256i hi = _mm256_set1_epi16((int16_t)p->act_max);
    __m256i a0 = b0, a1 = b0, a2 = b0, a3 = b0;
    int j;
    for (j = 0; j < kp2; j++) {
        const __m256i wa = TE_CONV2D_AVX2_W(w + 16 * j);
        TE_CONV2D_AVX2_MAC(a0, TE_CONV2D_AVX2_BCAST(x0, j), wa);
        TE_CONV2D_AVX2_MAC(a1, TE_CONV2D_AVX2_BCAST(x1, j), wa);
        TE_CONV2D_AVX2_MAC(a2, TE_CONV2D_AVX2_BCAST(x2, j), wa);
        TE_CONV2D_AVX2_MAC(a3, TE_CONV2D_AVX2_BCAST(x3, j), wa);
    }
    a0 = RQ(a0, r);
    a1 = RQ(a1, r);
    a2 = RQ(a2, r);
    a3 = RQ(a3, r);
    te_avx2_store16(a0, a1, lo, hi, o, nc); /* pixel 0: lanes 0..7 */
    if (n > 1)
        te_avx2_store16(a1, a1, lo, hi, o + os, nc);
    if (n > 2)
        te_avx2_store16(a2, a3, lo, hi, o + 2 * os, nc);
    if (n > 3)
        te_avx2_store16(a3, a3, lo, hi, o + 3 * os, nc);
}
/* te:end */

#undef RQ
#undef TE_CONV2D_AVX2_MAC
#undef TE_CONV2D_AVX2_BCAST
#undef TE_CONV2D_AVX2_W

/* te:section te_conv2d_avx2_pixels */
/* Every channel of the n (1..4) output pixels whose patches are x. */
TE_AVX2_FN void te_conv2d_avx2_pixels(const te_conv2d_avx2_params *p, const int16_t *const *x,
                                      const int8_t *w, const int32_t *qr, int8_t *o, long os,
                                      int n)
{
    const int blocks = (p->out_c + 7) / 8;
    const long wblock = (long)p->k_pad * 8;
    int b;
    for (b = 0; b + 2 <= blocks; b += 2)
        te_conv2d_avx2_px4_c16(p, x, w + b * wblock, qr + 32 * b, o + 8 * b, os, n,
                               TE_MIN(16, p->out_c - 8 * b));
    if (b < blocks)
        te_conv2d_avx2_px4_c8(p, x, w + b * wblock, qr + 32 * b, o + 8 * b, os, n,
                              p->out_c - 8 * b);
}
/* te:end */

/* te:section te_conv2d_avx2_s8 */
TE_KERNEL TE_AVX2_ENTRY void te_conv2d_avx2_s8(const te_conv2d_avx2_params *p, const int8_t *input,
                                            const int8_t *w, const int32_t *qr, int8_t *output)
{
    int16_t patch[4][TE_CONV2D_AVX2_KMAX];
    const int16_t *x[4];
    const long os = p->out_stride ? p->out_stride : p->out_c;
    const int npx = p->out_h * p->out_w;
    int b, i, j;
    for (j = 0; j < 4; j++) /* elements past K: read, times zero weights */
        te_conv2d_avx2_fill(patch[j] + p->k_h * p->k_w * p->in_c, 0,
                            p->k_pad - p->k_h * p->k_w * p->in_c);
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        int8_t *out_b = output + (long)b * npx * os;
        for (i = 0; i < npx; i += 4) {
            const int n = TE_MIN(4, npx - i);
            for (j = 0; j < 4; j++) {
                x[j] = patch[j < n ? j : 0];
                if (j < n)
                    te_conv2d_avx2_patch(p, in_b, (i + j) / p->out_w, (i + j) % p->out_w,
                                         patch[j]);
            }
            te_conv2d_avx2_pixels(p, x, w, qr, out_b + (long)i * os, os, n);
        }
    }
}
/* te:end */
