/* te_depthwise_avx2.c - DEPTHWISE_CONV_2D int8 kernel for x86-64 with AVX2
 * (see te_depthwise_avx2.h).  Functions carry the avx2 target attribute
 * (TE_AVX2_FN, te_common.h): plain -O2 compiles them.  Accumulation wraps
 * modulo 2^32 like TFLite's int32 accumulator; the requantization is
 * integer arithmetic only: exact. */
#include "te_common.h"
#include "te_depthwise_avx2.h"

#if !defined(TE_AVX2_FN)
#error "te_depthwise_avx2.c is for target x86-64-v3 (TE_TARGET_AVX2)"
#endif

/* te:section te_depthwise_avx2_pair */
/* One pair of taps of 16 channels: bytes at xa and xb interleaved and
 * widened, times the pair's int8 weights w (16 channels x 2, widened as they
 * are loaded), into s0 (channels 0..7) and s1 (8..15). */
TE_AVX2_FN void te_depthwise_avx2_pair(const int8_t *xa, const int8_t *xb, const int8_t *w,
                                       __m256i *s0, __m256i *s1)
{
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)xa);
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)xb);
    const __m256i lo = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(a, b));
    const __m256i hi = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(a, b));
    *s0 = _mm256_add_epi32(
        *s0, _mm256_madd_epi16(lo, _mm256_cvtepi8_epi16(
                                        _mm_loadu_si128((const __m128i *)(const void *)w))));
    *s1 = _mm256_add_epi32(
        *s1, _mm256_madd_epi16(hi, _mm256_cvtepi8_epi16(
                                        _mm_loadu_si128((const __m128i *)(const void *)(w + 16)))));
}
/* te:end */

/* te:section te_depthwise_avx2_taps */
/* Sums of one output pixel over a kh x kw filter, dilation 1 (kh, kw
 * constants once inlined: every tap at a fixed offset from its row):
 * rows[ky] + x is the pixel's tap (ky, 0). */
static inline TE_UNUSED TE_AVX2_ATTR __attribute__((always_inline)) void
te_depthwise_avx2_taps(const int8_t *const *rows, long x, int kh, int kw, const int8_t *w,
                       __m256i *s0, __m256i *s1)
{
    const int taps = kh * kw;
    int t;
#pragma GCC unroll 32
    for (t = 0; t < taps; t += 2, w += 32) {
        const int8_t *xa = rows[t / kw] + x + 16 * (t % kw);
        const int8_t *xb = t + 1 < taps ? rows[(t + 1) / kw] + x + 16 * ((t + 1) % kw) : xa;
        te_depthwise_avx2_pair(xa, xb, w, s0, s1);
    }
}
/* te:end */

/* te:section te_depthwise_avx2_taps_any */
/* The same for any filter and dilation: tap (ky, kx) at rows[ky] + x +
 * 16 * kx * dil_w. */
TE_AVX2_FN void te_depthwise_avx2_taps_any(const te_depthwise_avx2_params *p,
                                           const int8_t *const *rows, long x, const int8_t *w,
                                           __m256i *s0, __m256i *s1)
{
    const int taps = p->k_h * p->k_w;
    int t;
    for (t = 0; t < taps; t += 2, w += 32) {
        const int8_t *xa = rows[t / p->k_w] + x + 16L * (t % p->k_w) * p->dil_w;
        const int8_t *xb = t + 1 < taps ? rows[(t + 1) / p->k_w] + x +
                                              16L * ((t + 1) % p->k_w) * p->dil_w
                                        : xa;
        te_depthwise_avx2_pair(xa, xb, w, s0, s1);
    }
}
/* te:end */

/* te:section te_depthwise_avx2_row */
/* One output row of a 16-channel block: rows[ky] the ring row of tap row
 * ky (column 0); w, r the block's weights and two requantization blocks;
 * out the row's pixel 0 at the block's first channel; n channels stored. */
static inline TE_UNUSED TE_AVX2_ATTR __attribute__((always_inline)) void
te_depthwise_avx2_row(const te_depthwise_avx2_params *p, const int8_t *const *rows, int kh,
                      int kw, const int8_t *w, const int32_t *r, int8_t *out, int n)
{
    const __m256i b0 = _mm256_loadu_si256((const __m256i *)(const void *)r);
    const __m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)(r + 32));
    const __m256i lo = _mm256_set1_epi16((int16_t)p->act_min);
    const __m256i hi = _mm256_set1_epi16((int16_t)p->act_max);
    const long step = 16L * p->stride_w;
    int ox;
    for (ox = 0; ox < p->out_w; ox++, out += p->in_c) {
        __m256i s0 = b0, s1 = b1;
        if (kh)
            te_depthwise_avx2_taps(rows, ox * step, kh, kw, w, &s0, &s1);
        else
            te_depthwise_avx2_taps_any(p, rows, ox * step, w, &s0, &s1);
        te_avx2_store16(te_avx2_rq(p->fast_rq, p->output_offset, s0, r),
                        te_avx2_rq(p->fast_rq, p->output_offset, s1, r + 32), lo, hi, out, n);
    }
}
/* te:end */

/* te:section te_depthwise_avx2_any_row */
/* The row for the filter shapes with a specialised loop (3x3, 5x5, 7x7
 * without horizontal dilation), else the general one. */
TE_AVX2_FN void te_depthwise_avx2_any_row(const te_depthwise_avx2_params *p,
                                          const int8_t *const *rows, const int8_t *w,
                                          const int32_t *r, int8_t *out, int n)
{
    const int k = p->dil_w == 1 && p->k_h == p->k_w ? p->k_h : 0;
    if (k == 3)
        te_depthwise_avx2_row(p, rows, 3, 3, w, r, out, n);
    else if (k == 5)
        te_depthwise_avx2_row(p, rows, 5, 5, w, r, out, n);
    else if (k == 7)
        te_depthwise_avx2_row(p, rows, 7, 7, w, r, out, n);
    else
        te_depthwise_avx2_row(p, rows, 0, 0, w, r, out, n);
}
/* te:end */

/* te:section te_depthwise_avx2_save */
/* Input row iy, channels [c0, c0 + n), into its ring row (16 bytes a
 * pixel, from column pad_left). */
TE_AVX2_FN void te_depthwise_avx2_save(const te_depthwise_avx2_params *p, const int8_t *in_b,
                                       int iy, int c0, int n, int8_t *dst)
{
    const int8_t *src = in_b + (long)iy * p->in_w * p->in_c + c0;
    int x, i;
    dst += 16 * p->pad_left;
    for (x = 0; x < p->in_w; x++, src += p->in_c, dst += 16) {
        if (n == 16) {
            _mm_storeu_si128((__m128i *)(void *)dst,
                             _mm_loadu_si128((const __m128i *)(const void *)src));
        } else {
            for (i = 0; i < n; i++)
                dst[i] = src[i];
        }
    }
}
/* te:end */

/* te:section te_depthwise_avx2_s8 */
TE_KERNEL TE_AVX2_ENTRY void te_depthwise_avx2_s8(const te_depthwise_avx2_params *p,
                                                 const int8_t *input, const int8_t *w,
                                                 const int32_t *qr, int8_t *output)
{
    int8_t ring[TE_DEPTHWISE_AVX2_RING];
    const int span = (p->k_h - 1) * p->dil_h + 1, pairs = (p->k_h * p->k_w + 1) / 2;
    const long row = 16L * p->cols;
    const int8_t *rows[16];
    const int8_t *zp_row = ring + span * row;
    const __m128i zp = _mm_set1_epi8((char)p->input_zp);
    int b, c0, oy, ky, next;
    long j;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        int8_t *out_b = output + (long)b * p->out_h * p->out_w * p->in_c;
        for (c0 = 0; c0 < p->in_c; c0 += 16) {
            const int n = TE_MIN(16, p->in_c - c0);
            const int8_t *wb = w + (long)(c0 / 16) * pairs * 32;
            for (j = 0; j < (span + 1) * row; j += 16) /* padding: the zero point */
                _mm_storeu_si128((__m128i *)(void *)(ring + j), zp);
            next = 0;
            for (oy = 0; oy < p->out_h; oy++) {
                const int iy0 = oy * p->stride_h - p->pad_top;
                const int last = TE_MIN(p->in_h - 1, iy0 + span - 1);
                for (; next <= last; next++)
                    te_depthwise_avx2_save(p, in_b, next, c0, n, ring + (next % span) * row);
                for (ky = 0; ky < p->k_h; ky++) {
                    const int iy = iy0 + ky * p->dil_h;
                    rows[ky] = iy >= 0 && iy < p->in_h ? ring + (iy % span) * row : zp_row;
                }
                te_depthwise_avx2_any_row(p, rows, wb, qr + (long)(c0 / 8) * 32,
                                          out_b + (long)oy * p->out_w * p->in_c + c0, n);
            }
        }
    }
}
/* te:end */
