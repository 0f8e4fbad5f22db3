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

/* te:section te_depthwise_avx2_one */
/* The odd last tap of 16 channels: the 16 bytes at x times the tap's 16
 * int8 weights w (stored alone, unpadded), products in int32 lanes. */
TE_AVX2_FN void te_depthwise_avx2_one(const int8_t *x, const int8_t *w, __m256i *s0, __m256i *s1)
{
    *s0 = _mm256_add_epi32(
        *s0, _mm256_mullo_epi32(
                 _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)x)),
                 _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)w))));
    *s1 = _mm256_add_epi32(
        *s1, _mm256_mullo_epi32(
                 _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(x + 8))),
                 _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(w + 8)))));
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
    for (t = 0; t + 1 < taps; t += 2, w += 32)
        te_depthwise_avx2_pair(rows[t / kw] + x + 16 * (t % kw),
                               rows[(t + 1) / kw] + x + 16 * ((t + 1) % kw), w, s0, s1);
    if (t < taps)
        te_depthwise_avx2_one(rows[t / kw] + x + 16 * (t % kw), w, s0, s1);
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
    for (t = 0; t + 1 < taps; t += 2, w += 32)
        te_depthwise_avx2_pair(rows[t / p->k_w] + x + 16L * (t % p->k_w) * p->dil_w,
                               rows[(t + 1) / p->k_w] + x + 16L * ((t + 1) % p->k_w) * p->dil_w,
                               w, s0, s1);
    if (t < taps)
        te_depthwise_avx2_one(rows[t / p->k_w] + x + 16L * (t % p->k_w) * p->dil_w, w, s0, s1);
}
/* te:end */

/* te:section te_depthwise_avx2_rq */
/* te_avx2_rq with its exact form out of line (smaller pixel loops). */
TE_AVX2_FN __m256i te_depthwise_avx2_rq(int fast_rq, int32_t output_offset, __m256i a,
                                        const int32_t *r)
{
    if (fast_rq)
        return te_avx2_rq8(_mm256_add_epi32(a, a), r);
    return te_avx2_rq_exact(output_offset, a, r);
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
        te_avx2_store16(te_depthwise_avx2_rq(p->fast_rq, p->output_offset, s0, r),
                        te_depthwise_avx2_rq(p->fast_rq, p->output_offset, s1, r + 32), lo, hi,
                        out, n);
    }
}
/* te:end */

/* te:section te_depthwise_avx2_row_any */
/* The row for any filter and dilation. */
TE_AVX2_FN void te_depthwise_avx2_row_any(const te_depthwise_avx2_params *p,
                                          const int8_t *const *rows, const int8_t *w,
                                          const int32_t *r, int8_t *out, int n)
{
    te_depthwise_avx2_row(p, rows, 0, 0, w, r, out, n);
}
/* te:end */

/* te:section te_depthwise_avx2_row3 */
/* The row of a 3x3 filter without horizontal dilation. */
TE_AVX2_FN void te_depthwise_avx2_row3(const te_depthwise_avx2_params *p,
                                       const int8_t *const *rows, const int8_t *w,
                                       const int32_t *r, int8_t *out, int n)
{
    te_depthwise_avx2_row(p, rows, 3, 3, w, r, out, n);
}
/* te:end */

/* te:section te_depthwise_avx2_row5 */
/* The row of a 5x5 filter without horizontal dilation. */
TE_AVX2_FN void te_depthwise_avx2_row5(const te_depthwise_avx2_params *p,
                                       const int8_t *const *rows, const int8_t *w,
                                       const int32_t *r, int8_t *out, int n)
{
    te_depthwise_avx2_row(p, rows, 5, 5, w, r, out, n);
}
/* te:end */

/* te:section te_depthwise_avx2_row7 */
/* The row of a 7x7 filter without horizontal dilation. */
TE_AVX2_FN void te_depthwise_avx2_row7(const te_depthwise_avx2_params *p,
                                       const int8_t *const *rows, const int8_t *w,
                                       const int32_t *r, int8_t *out, int n)
{
    te_depthwise_avx2_row(p, rows, 7, 7, w, r, out, n);
}
/* te:end */

/* te:section te_depthwise_avx2_save */
/* Input row iy, channels [c0, c0 + n), into its ring row (16 bytes a
 * pixel, from column pad_left). */
TE_AVX2_FN void te_depthwise_avx2_save(const te_depthwise_avx2_params *p, const int8_t *in_b,
                                       int iy, int c0, int n, int8_t *dst)
{
    const long in_w = p->in_w, in_c = p->in_c; /* not reloaded after each store */
    const int8_t *src = in_b + iy * in_w * in_c + c0;
    long x;
    int i;
    dst += 16 * p->pad_left;
    if (n == 16) {
        for (x = 0; x < in_w; x++, src += in_c, dst += 16)
            _mm_storeu_si128((__m128i *)(void *)dst,
                             _mm_loadu_si128((const __m128i *)(const void *)src));
        return;
    }
    for (x = 0; x < in_w; x++, src += in_c, dst += 16)
        for (i = 0; i < n; i++)
            dst[i] = src[i];
}
/* te:end */

/* te:section te_depthwise_avx2_walk te_depthwise_avx2_walk_start */
/* The walk over output rows (batch, block of 16 channels, row) an entry
 * drives, beside its ring and ring rows on its stack: the current row's
 * weights w, requantization blocks r, output out (pixel 0, the block's
 * first channel) and channels n. */
typedef struct {
    const int8_t *w;
    const int32_t *r;
    int8_t *out;
    int b, c0, oy, next, n;
} te_depthwise_avx2_walk;

static inline TE_UNUSED void te_depthwise_avx2_walk_start(te_depthwise_avx2_walk *s,
                                                          const te_depthwise_avx2_params *p)
{
    s->w = 0;
    s->r = 0;
    s->out = 0;
    s->b = -1;
    s->c0 = p->in_c;
    s->oy = p->out_h - 1;
    s->next = s->n = 0;
}
/* te:end */

/* te:section te_depthwise_avx2_walk_next */
/* Moves s to the next output row (a new block starts with the ring's
 * padding set to the zero point), copying the input rows it reads into
 * ring and setting rows[ky], the ring row of tap row ky; 0 after the last.
 * Inlined: the walk's counters stay in registers. */
static inline TE_UNUSED TE_AVX2_ATTR __attribute__((always_inline)) int
te_depthwise_avx2_walk_next(te_depthwise_avx2_walk *s, int8_t *ring, const int8_t **rows,
                            const te_depthwise_avx2_params *p, const int8_t *input,
                            const int8_t *w, const int32_t *qr, int8_t *output)
{
    const int span = (p->k_h - 1) * p->dil_h + 1;
    const long row = 16L * p->cols;
    const int8_t *in_b;
    int iy0, last, ky;
    long j;
    while (++s->oy >= p->out_h) { /* the next block */
        const __m128i zp = _mm_set1_epi8((char)p->input_zp);
        s->oy = -1;
        if (s->c0 + 16 < p->in_c) {
            s->c0 += 16;
        } else {
            s->c0 = 0;
            if (++s->b >= p->batches)
                return 0;
        }
        s->n = TE_MIN(16, p->in_c - s->c0);
        s->w = w + (long)(s->c0 / 16) * p->k_h * p->k_w * 16;
        s->r = qr + (long)(s->c0 / 8) * 32;
        s->next = 0;
        for (j = 0; j < (span + 1) * row; j += 16) /* padding: the zero point */
            _mm_storeu_si128((__m128i *)(void *)(ring + j), zp);
    }
    in_b = input + (long)s->b * p->in_h * p->in_w * p->in_c;
    iy0 = s->oy * p->stride_h - p->pad_top;
    last = TE_MIN(p->in_h - 1, iy0 + span - 1);
    for (; s->next <= last; s->next++)
        te_depthwise_avx2_save(p, in_b, s->next, s->c0, s->n, ring + (s->next % span) * row);
    for (ky = 0; ky < p->k_h; ky++) {
        const int iy = iy0 + ky * p->dil_h;
        rows[ky] = iy >= 0 && iy < p->in_h ? ring + (iy % span) * row : ring + span * row;
    }
    s->out = output + (((long)s->b * p->out_h + s->oy) * p->out_w) * p->in_c + s->c0;
    return 1;
}
/* te:end */

/* te:section te_depthwise_avx2_s8 */
/* Any filter and dilation. */
TE_KERNEL TE_AVX2_ENTRY void te_depthwise_avx2_s8(const te_depthwise_avx2_params *p,
                                                 const int8_t *input, const int8_t *w,
                                                 const int32_t *qr, int8_t *output)
{
    int8_t ring[TE_DEPTHWISE_AVX2_RING];
    const int8_t *rows[16];
    te_depthwise_avx2_walk s;
    te_depthwise_avx2_walk_start(&s, p);
    while (te_depthwise_avx2_walk_next(&s, ring, rows, p, input, w, qr, output))
        te_depthwise_avx2_row_any(p, rows, s.w, s.r, s.out, s.n);
}
/* te:end */

/* te:section te_depthwise_avx2_s8_3x3 */
/* A 3x3 filter without horizontal dilation (dil_w 1). */
TE_KERNEL TE_AVX2_ENTRY void te_depthwise_avx2_s8_3x3(const te_depthwise_avx2_params *p,
                                                     const int8_t *input, const int8_t *w,
                                                     const int32_t *qr, int8_t *output)
{
    int8_t ring[TE_DEPTHWISE_AVX2_RING];
    const int8_t *rows[16];
    te_depthwise_avx2_walk s;
    te_depthwise_avx2_walk_start(&s, p);
    while (te_depthwise_avx2_walk_next(&s, ring, rows, p, input, w, qr, output))
        te_depthwise_avx2_row3(p, rows, s.w, s.r, s.out, s.n);
}
/* te:end */

/* te:section te_depthwise_avx2_s8_5x5 */
/* A 5x5 filter without horizontal dilation (dil_w 1). */
TE_KERNEL TE_AVX2_ENTRY void te_depthwise_avx2_s8_5x5(const te_depthwise_avx2_params *p,
                                                     const int8_t *input, const int8_t *w,
                                                     const int32_t *qr, int8_t *output)
{
    int8_t ring[TE_DEPTHWISE_AVX2_RING];
    const int8_t *rows[16];
    te_depthwise_avx2_walk s;
    te_depthwise_avx2_walk_start(&s, p);
    while (te_depthwise_avx2_walk_next(&s, ring, rows, p, input, w, qr, output))
        te_depthwise_avx2_row5(p, rows, s.w, s.r, s.out, s.n);
}
/* te:end */

/* te:section te_depthwise_avx2_s8_7x7 */
/* A 7x7 filter without horizontal dilation (dil_w 1). */
TE_KERNEL TE_AVX2_ENTRY void te_depthwise_avx2_s8_7x7(const te_depthwise_avx2_params *p,
                                                     const int8_t *input, const int8_t *w,
                                                     const int32_t *qr, int8_t *output)
{
    int8_t ring[TE_DEPTHWISE_AVX2_RING];
    const int8_t *rows[16];
    te_depthwise_avx2_walk s;
    te_depthwise_avx2_walk_start(&s, p);
    while (te_depthwise_avx2_walk_next(&s, ring, rows, p, input, w, qr, output))
        te_depthwise_avx2_row7(p, rows, s.w, s.r, s.out, s.n);
}
/* te:end */
