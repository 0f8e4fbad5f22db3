/* te_depthwise_conv2d.c - DEPTHWISE_CONV_2D int8 kernels (see
 * te_depthwise_conv2d.h): the plain ones (taps outside the input skipped,
 * window bounds computed once per output pixel) and the fast portable ones
 * (channel blocks or pixel blocks the C compiler vectorises, cheaper exact
 * requantization).  Accumulators wrap modulo 2^32 like TFLite's int32 ones,
 * without UB. */
#include "te_common.h"
#include "te_depthwise_conv2d.h"

#if defined(__SSE2__) && !defined(TE_TARGET_DSP) && !defined(TE_DEPTHWISE_CONV2D_PLAIN)
/* x86 with SSE2 (any x86-64): the fast kernels' SSE2 path (below). */
#include <emmintrin.h>
#define TE_DEPTHWISE_CONV2D_SSE2 1
#endif

/* te:section te_depthwise_conv2d_tap_lo */
static inline TE_UNUSED int te_depthwise_conv2d_tap_lo(int origin, int dil)
{
    return origin < 0 ? (-origin + dil - 1) / dil : 0;
}
/* te:end */

/* te:section te_depthwise_conv2d_tap_hi */
static inline TE_UNUSED int te_depthwise_conv2d_tap_hi(int origin, int dil, int taps, int size)
{
    int room = size - origin;
    int n = room > 0 ? (room + dil - 1) / dil : 0;
    return n < taps ? n : taps;
}
/* te:end */

/* te:section te_depthwise_conv2d_requant */
static inline TE_UNUSED int8_t te_depthwise_conv2d_requant(uint32_t acc, int32_t mult,
                                                           int32_t shift, int32_t zp, int32_t lo,
                                                           int32_t hi)
{
    int32_t v = te_mul_by_quant_mult((int32_t)acc, mult, (int)shift);
    v = (int32_t)((uint32_t)v + (uint32_t)zp);
    return (int8_t)te_clamp_i32(v, lo, hi);
}
/* te:end */

/* te:section te_depthwise_conv2d_pixel */
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
/* te:end */

/* te:section te_depthwise_conv2d_s8 */
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
/* te:end */

/* te:section te_depthwise_conv2d_channel */
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
/* te:end */

/* te:section te_depthwise_conv2d_s8_inplace */
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
/* te:end */

/* ---- fast portable kernels (depth multiplier 1) ------------------------ */

/* te:section te_depthwise_conv2d_fast_rq */
/* Requantizes one accumulator with its te_convfam_fast_requant entry q. */
static inline TE_UNUSED int8_t te_depthwise_conv2d_fast_rq(uint32_t acc, const int32_t *q,
                                                           const te_depthwise_conv2d_params *p)
{
    int32_t v;
    if (q[2] > 0) {
        int32_t hi = q[1] - (int32_t)(acc >> 31);
        int64_t t = (int64_t)(int32_t)acc * ((int64_t)q[0] * 2) + (int64_t)hi * 4294967296 +
                    2147483648;
        v = (int32_t)(t >> 32) >> q[2];
    } else {
        v = te_mul_by_quant_mult((int32_t)acc, q[0], (int)q[1]);
        v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
    }
    return (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
}
/* te:end */

#define TE_DEPTHWISE_CONV2D_BLOCK 16

/* te:section te_depthwise_conv2d_fast_block */
/* Channels [c, c + n) of one output pixel, multiplier 1 (n <= BLOCK; n ==
 * BLOCK or 8 are the vectorised cases).  rows[ky]: input row of tap row
 * ky, or NULL (padding), pixels xs bytes apart, where channel c is at byte
 * xc of a pixel; taps [kx0, kx1) of the row starting at column ix0 are
 * inside. */
static inline TE_UNUSED void te_depthwise_conv2d_fast_block(
    const te_depthwise_conv2d_params *p, const int8_t *const *rows, int xs, int xc, int ix0,
    int kx0, int kx1, const int8_t *filter, const int32_t *bias, const int32_t *rq, int c, int n,
    int8_t *out)
{
    const int16_t off = (int16_t)p->input_offset;
    uint32_t acc[TE_DEPTHWISE_CONV2D_BLOCK];
    int i, ky, kx;
    /* n never passes the last channel; said so, gcc sees the constant
     * arrays' bounds kept (else -Waggressive-loop-optimizations) */
    n = TE_MIN(n, p->in_c - c);
    for (i = 0; i < n; i++)
        acc[i] = (uint32_t)bias[c + i];
    for (ky = 0; ky < p->k_h; ky++) {
        if (!rows[ky])
            continue;
        for (kx = kx0; kx < kx1; kx++) {
            const int8_t *x = rows[ky] + (long)(ix0 + kx * p->dil_w) * xs + xc;
            const int8_t *w = filter + (long)(ky * p->k_w + kx) * p->in_c + c;
            if (n == TE_DEPTHWISE_CONV2D_BLOCK) {
                for (i = 0; i < TE_DEPTHWISE_CONV2D_BLOCK; i++)
                    acc[i] += (uint32_t)((int16_t)(x[i] + off) * (int16_t)w[i]);
            } else if (n == 8) {
                for (i = 0; i < 8; i++)
                    acc[i] += (uint32_t)((int16_t)(x[i] + off) * (int16_t)w[i]);
            } else {
                for (i = 0; i < n; i++)
                    acc[i] += (uint32_t)((int16_t)(x[i] + off) * (int16_t)w[i]);
            }
        }
    }
    for (i = 0; i < n; i++)
        out[c + i] = te_depthwise_conv2d_fast_rq(acc[i], rq + 3 * (c + i), p);
}
/* te:end */

/* te:section te_depthwise_conv2d_fast_block_dm */
/* The same with a depth multiplier: output channel c + i reads input
 * channel (c + i) / depth_mult (rows[ky] at channel 0, pixels xs apart);
 * a block inside one input channel's outputs multiplies one value. */
static inline TE_UNUSED void te_depthwise_conv2d_fast_block_dm(
    const te_depthwise_conv2d_params *p, const int8_t *const *rows, int xs, int ix0, int kx0,
    int kx1, const int8_t *filter, const int32_t *bias, const int32_t *rq, int c, int n,
    int8_t *out)
{
    const int16_t off = (int16_t)p->input_offset;
    const int dm = p->depth_mult, c_out = p->in_c * dm, ic = c / dm;
    uint32_t acc[TE_DEPTHWISE_CONV2D_BLOCK];
    int i, ky, kx, one;
    n = TE_MIN(n, c_out - c); /* as in te_depthwise_conv2d_fast_block */
    one = ic == (c + n - 1) / dm;
    for (i = 0; i < n; i++)
        acc[i] = (uint32_t)bias[c + i];
    for (ky = 0; ky < p->k_h; ky++) {
        if (!rows[ky])
            continue;
        for (kx = kx0; kx < kx1; kx++) {
            const int8_t *x = rows[ky] + (long)(ix0 + kx * p->dil_w) * xs;
            const int8_t *w = filter + (long)(ky * p->k_w + kx) * c_out + c;
            if (one) {
                const int16_t v = (int16_t)(x[ic] + off);
                for (i = 0; i < n; i++)
                    acc[i] += (uint32_t)(v * (int16_t)w[i]);
            } else {
                for (i = 0; i < n; i++)
                    acc[i] += (uint32_t)((int16_t)(x[(c + i) / dm] + off) * (int16_t)w[i]);
            }
        }
    }
    for (i = 0; i < n; i++)
        out[c + i] = te_depthwise_conv2d_fast_rq(acc[i], rq + 3 * (c + i), p);
}
/* te:end */

/* te:section te_depthwise_conv2d_fast_row */
/* Output channels [c0, c0 + nb) of one output row from the k_h input rows
 * it reads (rows[ky]: pixel 0 at the input channel of output channel c0
 * (multiplier 1) or at channel 0, pixels xs bytes apart). */
static inline TE_UNUSED void te_depthwise_conv2d_fast_row(const te_depthwise_conv2d_params *p,
                                                          const int8_t *const *rows, int xs,
                                                          int c0, int nb, const int8_t *filter,
                                                          const int32_t *bias,
                                                          const int32_t *rq, int8_t *out_row)
{
    const int c_out = p->in_c * p->depth_mult;
    int ox, cb;
    for (ox = 0; ox < p->out_w; ox++) {
        const int ix0 = ox * p->stride_w - p->pad_left;
        const int kx0 = te_depthwise_conv2d_tap_lo(ix0, p->dil_w);
        const int kx1 = te_depthwise_conv2d_tap_hi(ix0, p->dil_w, p->k_w, p->in_w);
        int8_t *out = out_row + (long)ox * c_out;
        if (p->depth_mult > 1) {
            for (cb = 0; cb < nb; cb += TE_DEPTHWISE_CONV2D_BLOCK)
                te_depthwise_conv2d_fast_block_dm(p, rows, xs, ix0, kx0, kx1, filter, bias, rq,
                                                  c0 + cb,
                                                  TE_MIN(TE_DEPTHWISE_CONV2D_BLOCK, nb - cb),
                                                  out);
            continue;
        }
        for (cb = 0; cb + TE_DEPTHWISE_CONV2D_BLOCK <= nb; cb += TE_DEPTHWISE_CONV2D_BLOCK)
            te_depthwise_conv2d_fast_block(p, rows, xs, cb, ix0, kx0, kx1, filter, bias, rq,
                                           c0 + cb, TE_DEPTHWISE_CONV2D_BLOCK, out);
        if (cb + 8 <= nb) {
            te_depthwise_conv2d_fast_block(p, rows, xs, cb, ix0, kx0, kx1, filter, bias, rq,
                                           c0 + cb, 8, out);
            cb += 8;
        }
        if (cb < nb)
            te_depthwise_conv2d_fast_block(p, rows, xs, cb, ix0, kx0, kx1, filter, bias, rq,
                                           c0 + cb, nb - cb, out);
    }
}
/* te:end */

/* te:section te_depthwise_conv2d_fast_save */
/* Channels [c0, c0 + nb) of input row iy into ring slot iy % span. */
static inline TE_UNUSED void te_depthwise_conv2d_fast_save(const te_depthwise_conv2d_params *p,
                                                           const int8_t *in_b, int iy, int c0,
                                                           int nb, int8_t *ring)
{
    const int span = (p->k_h - 1) * p->dil_h + 1;
    const int8_t *src = in_b + (long)iy * p->in_w * p->in_c + c0;
    int8_t *dst = ring + (long)(iy % span) * p->in_w * nb;
    int x, i;
    for (x = 0; x < p->in_w; x++, src += p->in_c, dst += nb) {
#if defined(TE_DEPTHWISE_CONV2D_SSE2)
        if (nb == 16) {
            _mm_storeu_si128((__m128i *)(void *)dst,
                             _mm_loadu_si128((const __m128i *)(const void *)src));
            continue;
        }
#endif
        for (i = 0; i < nb; i++)
            dst[i] = src[i];
    }
}
/* te:end */

#if defined(TE_DEPTHWISE_CONV2D_SSE2)
/* ---- x86 SSE2 (any x86-64 host, generic target): the fast kernels by
 * blocks of 16 or 8 channels (multiplier 1, at most 64 taps).  Per block the
 * weights are re-laid out on the stack as int16 pairs of consecutive taps,
 * so one PMADDWD does two taps of 4 channels; the input bytes go in the
 * high byte of int16 lanes (sign extension for free, products 256 times too
 * large, exact while taps <= 64), and taps outside the input read a
 * 16-byte block of input zero points (contributing 0 once the bias holds
 * input_offset * the sum of the weights).  The requantization runs 4
 * channels a vector: the fast form {mult, H, e} as two unsigned 32x32->64
 * products (PMULUDQ), the second one the per-channel shift (see
 * te_depthwise_conv2d_sse_rq4).  Other channels and the slow form go
 * through the plain code above. */

#define TE_DEPTHWISE_CONV2D_SSE_TAPS 64

typedef union {
    __m128i v;
    int16_t h[8];
    uint32_t u[4];
} te_depthwise_conv2d_sse_vec;

/* One block of 16 (or the first 8 of them) channels. */
typedef struct {
    te_depthwise_conv2d_sse_vec w[TE_DEPTHWISE_CONV2D_SSE_TAPS / 2][4]; /* pair, quarter */
    te_depthwise_conv2d_sse_vec a[4];             /* bias + input_offset * sum(w) */
    te_depthwise_conv2d_sse_vec m_ev[4], m_od[4]; /* 2 mult: lanes 0, 2 / 1, 3 in dwords 0, 2 */
    te_depthwise_conv2d_sse_vec k_ev[4], k_od[4]; /* 2^(32 - e), the same way */
    te_depthwise_conv2d_sse_vec g[4];             /* H - mult + 2^31 */
    te_depthwise_conv2d_sse_vec c[4];             /* 2^(31 - e) */
    int8_t zp[16];                                /* the input zero point */
    int pairs, fast, c0, n;                       /* n: 16 or 8 channels from c0 */
    const int32_t *rq;
} te_depthwise_conv2d_sse_blk;

/* te:section te_depthwise_conv2d_sse_ok */
static inline TE_UNUSED int te_depthwise_conv2d_sse_ok(const te_depthwise_conv2d_params *p)
{
    return p->depth_mult == 1 && p->k_h * p->k_w <= TE_DEPTHWISE_CONV2D_SSE_TAPS &&
           p->k_h <= TE_DEPTHWISE_CONV2D_MAX_KH;
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_lane */
/* Channel c (lane i) of the block's requantization constants. */
static inline TE_UNUSED void te_depthwise_conv2d_sse_lane(te_depthwise_conv2d_sse_blk *b, int i,
                                                          const int32_t *q)
{
    const int qi = i / 4, l = i % 4, d = l & 2;
    const uint32_t m = q ? (uint32_t)q[0] : 0, h = q ? (uint32_t)q[1] : 0;
    const int e = q && q[2] > 0 ? q[2] : 1;
    te_depthwise_conv2d_sse_vec *mv = l & 1 ? &b->m_od[qi] : &b->m_ev[qi];
    te_depthwise_conv2d_sse_vec *kv = l & 1 ? &b->k_od[qi] : &b->k_ev[qi];
    if (q && q[2] <= 0)
        b->fast = 0;
    mv->u[d] = 2 * m;
    mv->u[d + 1] = 0;
    kv->u[d] = 1u << (32 - e);
    kv->u[d + 1] = 0;
    b->g[qi].u[l] = h - m + 0x80000000u;
    b->c[qi].u[l] = 1u << (31 - e);
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_w8 */
/* n (16 or 8) int8 at v, 0 past the filter's taps (t >= taps). */
static inline TE_UNUSED __m128i te_depthwise_conv2d_sse_w8(const int8_t *v, int t, int taps,
                                                           int n)
{
    if (t >= taps)
        return _mm_setzero_si128();
    return n == 16 ? _mm_loadu_si128((const __m128i *)(const void *)v)
                   : _mm_loadl_epi64((const __m128i *)(const void *)v);
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_setup */
/* Weights, bias terms and requantization of channels [c0, c0 + n), n 16
 * or 8: weights of taps 2k and 2k + 1 interleaved, sign-extended to int16
 * (sums over both taps by PMADDWD with ones). */
static inline TE_UNUSED void te_depthwise_conv2d_sse_setup(const te_depthwise_conv2d_params *p,
                                                           const int8_t *filter,
                                                           const int32_t *bias,
                                                           const int32_t *rq, int c0, int n,
                                                           te_depthwise_conv2d_sse_blk *b)
{
    const int taps = p->k_h * p->k_w, c = p->in_c;
    const __m128i ones = _mm_set1_epi16(1);
    const __m128i off = _mm_set1_epi32(p->input_offset & 0xffff);
    __m128i sum[4];
    int i, k, q;
    b->pairs = (taps + 1) / 2;
    b->fast = p->act_min >= -128 && p->act_max <= 127; /* else bytes past 127 wrap */
    b->c0 = c0;
    b->n = n;
    b->rq = rq;
    for (q = 0; q < 4; q++)
        sum[q] = _mm_setzero_si128();
    for (k = 0; k < b->pairs; k++) {
        const int8_t *w = filter + (long)2 * k * c + c0;
        const __m128i wa = te_depthwise_conv2d_sse_w8(w, 2 * k, taps, n);
        const __m128i wb = te_depthwise_conv2d_sse_w8(w + c, 2 * k + 1, taps, n);
        const __m128i lo = _mm_unpacklo_epi8(wa, wb), hi = _mm_unpackhi_epi8(wa, wb);
        b->w[k][0].v = _mm_srai_epi16(_mm_unpacklo_epi8(lo, lo), 8);
        b->w[k][1].v = _mm_srai_epi16(_mm_unpackhi_epi8(lo, lo), 8);
        b->w[k][2].v = _mm_srai_epi16(_mm_unpacklo_epi8(hi, hi), 8);
        b->w[k][3].v = _mm_srai_epi16(_mm_unpackhi_epi8(hi, hi), 8);
        for (q = 0; q < 4; q++)
            sum[q] = _mm_add_epi32(sum[q], _mm_madd_epi16(b->w[k][q].v, ones));
    }
    /* |sum| < 2^15: its low halfword times input_offset */
    for (q = 0; q < n / 4; q++) {
        const __m128i bq = _mm_loadu_si128((const __m128i *)(const void *)(bias + c0 + 4 * q));
        b->a[q].v = _mm_add_epi32(bq, _mm_madd_epi16(sum[q], off));
    }
    for (i = 0; i < 16; i++) {
        b->zp[i] = (int8_t)-p->input_offset;
        te_depthwise_conv2d_sse_lane(b, i, i < n ? rq + 3 * (c0 + i) : NULL);
    }
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_acc16 */
/* 8 or 16 channels of one pixel: tap t at x[t] + off. */
static inline TE_UNUSED void te_depthwise_conv2d_sse_acc16(const te_depthwise_conv2d_sse_blk *b,
                                                           const int8_t *const *x, long off,
                                                           __m128i *acc)
{
    const __m128i z = _mm_setzero_si128();
    __m128i s0 = z, s1 = z, s2 = z, s3 = z;
    int k;
    for (k = 0; k < b->pairs; k++) {
        const __m128i xa = _mm_loadu_si128((const __m128i *)(const void *)(x[2 * k] + off));
        const __m128i xb = _mm_loadu_si128((const __m128i *)(const void *)(x[2 * k + 1] + off));
        const __m128i lo = _mm_unpacklo_epi8(xa, xb), hi = _mm_unpackhi_epi8(xa, xb);
        s0 = _mm_add_epi32(s0, _mm_madd_epi16(_mm_unpacklo_epi8(z, lo), b->w[k][0].v));
        s1 = _mm_add_epi32(s1, _mm_madd_epi16(_mm_unpackhi_epi8(z, lo), b->w[k][1].v));
        s2 = _mm_add_epi32(s2, _mm_madd_epi16(_mm_unpacklo_epi8(z, hi), b->w[k][2].v));
        s3 = _mm_add_epi32(s3, _mm_madd_epi16(_mm_unpackhi_epi8(z, hi), b->w[k][3].v));
    }
    acc[0] = _mm_add_epi32(_mm_srai_epi32(s0, 8), b->a[0].v);
    acc[1] = _mm_add_epi32(_mm_srai_epi32(s1, 8), b->a[1].v);
    acc[2] = _mm_add_epi32(_mm_srai_epi32(s2, 8), b->a[2].v);
    acc[3] = _mm_add_epi32(_mm_srai_epi32(s3, 8), b->a[3].v);
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_acc8 */
static inline TE_UNUSED void te_depthwise_conv2d_sse_acc8(const te_depthwise_conv2d_sse_blk *b,
                                                          const int8_t *const *x, long off,
                                                          __m128i *acc)
{
    const __m128i z = _mm_setzero_si128();
    __m128i s0 = z, s1 = z;
    int k;
    for (k = 0; k < b->pairs; k++) {
        const __m128i xa = _mm_loadl_epi64((const __m128i *)(const void *)(x[2 * k] + off));
        const __m128i xb = _mm_loadl_epi64((const __m128i *)(const void *)(x[2 * k + 1] + off));
        const __m128i lo = _mm_unpacklo_epi8(xa, xb);
        s0 = _mm_add_epi32(s0, _mm_madd_epi16(_mm_unpacklo_epi8(z, lo), b->w[k][0].v));
        s1 = _mm_add_epi32(s1, _mm_madd_epi16(_mm_unpackhi_epi8(z, lo), b->w[k][1].v));
    }
    acc[0] = _mm_add_epi32(_mm_srai_epi32(s0, 8), b->a[0].v);
    acc[1] = _mm_add_epi32(_mm_srai_epi32(s1, 8), b->a[1].v);
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_rq4 */
/* The fast form of 4 channels (te_convfam_fast_requant: v = floor((2 acc m
 * + 2^31 + (H - [acc < 0]) 2^32) / 2^(32 + e))) with unsigned products:
 * with ua = acc + 2^31, 2 acc m = ua 2m - m 2^32, so y = floor(t / 2^32) =
 * P + H - m - [acc < 0], P = hi32(ua 2m + 2^31); then with u = y + 2^31,
 * floor(y / 2^e) = hi32(u 2^(32 - e)) - 2^(31 - e). */
static inline TE_UNUSED __m128i te_depthwise_conv2d_sse_rq4(const te_depthwise_conv2d_sse_blk *b,
                                                            int q, __m128i acc)
{
    const __m128i sign = _mm_set1_epi32(-2147483647 - 1);
    const __m128i half = _mm_set_epi32(0, -2147483647 - 1, 0, -2147483647 - 1);
    const __m128i odd = _mm_set_epi32(-1, 0, -1, 0);
    const __m128i ua = _mm_xor_si128(acc, sign);
    const __m128i gm = _mm_add_epi32(b->g[q].v, _mm_srai_epi32(acc, 31));
    __m128i p0 = _mm_mul_epu32(ua, b->m_ev[q].v);
    __m128i p1 = _mm_mul_epu32(_mm_srli_epi64(ua, 32), b->m_od[q].v);
    p0 = _mm_add_epi32(_mm_srli_epi64(_mm_add_epi64(p0, half), 32), gm);
    p1 = _mm_add_epi32(_mm_srli_epi64(_mm_add_epi64(p1, half), 32), _mm_srli_epi64(gm, 32));
    p0 = _mm_srli_epi64(_mm_mul_epu32(p0, b->k_ev[q].v), 32);
    p1 = _mm_and_si128(_mm_mul_epu32(p1, b->k_od[q].v), odd);
    return _mm_sub_epi32(_mm_or_si128(p0, p1), b->c[q].v);
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_store */
/* Requantizes the block's accumulators into out[0, n). */
static inline TE_UNUSED void te_depthwise_conv2d_sse_store(const te_depthwise_conv2d_params *p,
                                                           const te_depthwise_conv2d_sse_blk *b,
                                                           const __m128i *acc, int8_t *out)
{
    const __m128i lo = _mm_set1_epi16((int16_t)p->act_min);
    const __m128i hi = _mm_set1_epi16((int16_t)p->act_max);
    __m128i s0, s1;
    if (!b->fast) {
        te_depthwise_conv2d_sse_vec v;
        int i;
        for (i = 0; i < b->n; i++) {
            v.v = acc[i / 4];
            out[i] = te_depthwise_conv2d_fast_rq(v.u[i % 4], b->rq + 3 * (b->c0 + i), p);
        }
        return;
    }
    s0 = _mm_packs_epi32(te_depthwise_conv2d_sse_rq4(b, 0, acc[0]),
                         te_depthwise_conv2d_sse_rq4(b, 1, acc[1]));
    s0 = _mm_min_epi16(_mm_max_epi16(s0, lo), hi);
    if (b->n == 8) {
        _mm_storel_epi64((__m128i *)(void *)out, _mm_packs_epi16(s0, s0));
        return;
    }
    s1 = _mm_packs_epi32(te_depthwise_conv2d_sse_rq4(b, 2, acc[2]),
                         te_depthwise_conv2d_sse_rq4(b, 3, acc[3]));
    s1 = _mm_min_epi16(_mm_max_epi16(s1, lo), hi);
    _mm_storeu_si128((__m128i *)(void *)out, _mm_packs_epi16(s0, s1));
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_row */
/* One output row of the block.  rows[ky]: the input row of tap row ky at
 * pixel 0, channel c0 of the block (NULL: padding), pixels xs bytes
 * apart; columns [lo_x, hi_x) may be read (outside [0, in_w) they hold the
 * zero point).  out: the row's pixel 0, channel c0; pixels c_out apart. */
static inline TE_UNUSED void te_depthwise_conv2d_sse_row(const te_depthwise_conv2d_params *p,
                                                         const te_depthwise_conv2d_sse_blk *b,
                                                         const int8_t *const *rows, int xs,
                                                         int lo_x, int hi_x, int8_t *out)
{
    const int8_t *tap[TE_DEPTHWISE_CONV2D_SSE_TAPS + 1], *px[TE_DEPTHWISE_CONV2D_SSE_TAPS + 1];
    const int taps = p->k_h * p->k_w, reach = (p->k_w - 1) * p->dil_w;
    int clean = reach < hi_x - lo_x, ky, kx, ox;
    __m128i acc[4];
    for (ky = 0; ky < p->k_h; ky++)
        clean = clean && rows[ky];
    for (ky = 0; clean && ky < p->k_h; ky++) /* tap (ky, kx) of pixel ix0 = lo_x */
        for (kx = 0; kx < p->k_w; kx++)
            tap[ky * p->k_w + kx] = rows[ky] + (long)(lo_x + kx * p->dil_w) * xs;
    if (clean)
        tap[taps] = tap[taps - 1];
    for (ox = 0; ox < p->out_w; ox++, out += p->in_c) {
        const int ix0 = ox * p->stride_w - p->pad_left;
        const int8_t *const *x = tap;
        long off = (long)(ix0 - lo_x) * xs;
        if (!clean || ix0 < lo_x || ix0 + reach >= hi_x) {
            for (ky = 0; ky < p->k_h; ky++)
                for (kx = 0; kx < p->k_w; kx++) {
                    const int ix = ix0 + kx * p->dil_w;
                    px[ky * p->k_w + kx] = rows[ky] && ix >= 0 && ix < p->in_w
                                               ? rows[ky] + (long)ix * xs
                                               : b->zp;
                }
            px[taps] = px[taps - 1];
            x = px;
            off = 0;
        }
        if (b->n == 16)
            te_depthwise_conv2d_sse_acc16(b, x, off, acc);
        else
            te_depthwise_conv2d_sse_acc8(b, x, off, acc);
        te_depthwise_conv2d_sse_store(p, b, acc, out);
    }
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_span */
/* Channels [c, c + n) of an output row: a block of 16 or 8 (blk, set up
 * for them) and the channels past it through the plain code.  rows[ky] at
 * channel c (see te_depthwise_conv2d_sse_row); out_row: pixel 0, channel 0. */
static inline TE_UNUSED void te_depthwise_conv2d_sse_span(const te_depthwise_conv2d_params *p,
                                                          const te_depthwise_conv2d_sse_blk *blk,
                                                          const int8_t *const *rows, int xs,
                                                          int lo_x, int hi_x, int c, int n,
                                                          const int8_t *filter,
                                                          const int32_t *bias,
                                                          const int32_t *rq, int8_t *out_row)
{
    const int8_t *rest[TE_DEPTHWISE_CONV2D_MAX_KH];
    int done = 0, ky;
    if (n >= 8) {
        te_depthwise_conv2d_sse_row(p, blk, rows, xs, lo_x, hi_x, out_row + c);
        done = blk->n;
    }
    if (done == n)
        return;
    for (ky = 0; ky < p->k_h; ky++)
        rest[ky] = rows[ky] ? rows[ky] + done : NULL;
    te_depthwise_conv2d_fast_row(p, rest, xs, c + done, n - done, filter, bias, rq, out_row);
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_begin */
/* The block for channels [c, c + n): 16 of them, else 8, else none. */
static inline TE_UNUSED void te_depthwise_conv2d_sse_begin(const te_depthwise_conv2d_params *p,
                                                           const int8_t *filter,
                                                           const int32_t *bias,
                                                           const int32_t *rq, int c, int n,
                                                           te_depthwise_conv2d_sse_blk *blk)
{
    if (n >= 8)
        te_depthwise_conv2d_sse_setup(p, filter, bias, rq, c, n >= 16 ? 16 : 8, blk);
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_fast */
static inline TE_UNUSED int te_depthwise_conv2d_sse_fast(const te_depthwise_conv2d_params *p,
                                                         const int8_t *input,
                                                         const int8_t *filter,
                                                         const int32_t *bias, const int32_t *rq,
                                                         int8_t *output)
{
    const long row_bytes = (long)p->in_w * p->in_c;
    const int8_t *rows[TE_DEPTHWISE_CONV2D_MAX_KH];
    te_depthwise_conv2d_sse_blk blk;
    int c, n, b, oy, ky;
    if (!te_depthwise_conv2d_sse_ok(p))
        return 0;
    for (c = 0; c < p->in_c; c += n) {
        n = TE_MIN(16, p->in_c - c);
        te_depthwise_conv2d_sse_begin(p, filter, bias, rq, c, n, &blk);
        for (b = 0; b < p->batches; b++) {
            const int8_t *in_b = input + (long)b * p->in_h * row_bytes + c;
            for (oy = 0; oy < p->out_h; oy++) {
                const int iy0 = oy * p->stride_h - p->pad_top;
                for (ky = 0; ky < p->k_h; ky++) {
                    const int iy = iy0 + ky * p->dil_h;
                    rows[ky] = iy >= 0 && iy < p->in_h ? in_b + iy * row_bytes : NULL;
                }
                te_depthwise_conv2d_sse_span(p, &blk, rows, p->in_c, 0, p->in_w, c, n, filter,
                                             bias, rq,
                                             output + ((long)b * p->out_h + oy) * p->out_w *
                                                          p->in_c);
            }
        }
    }
    return 1;
}
/* te:end */

/* te:section te_depthwise_conv2d_sse_save16 */
/* Input row iy, channels [c0, c0 + n), into its ring row (16 bytes a
 * pixel, pad_left zero-point pixels before). */
static inline TE_UNUSED void te_depthwise_conv2d_sse_save16(const te_depthwise_conv2d_params *p,
                                                            const int8_t *in_b, int iy, int c0,
                                                            int n, int8_t *dst)
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

/* te:section te_depthwise_conv2d_sse_ring */
/* As te_depthwise_conv2d_s8_ring, its scratch used as rows of cols pixels
 * of 16 channels (int8, the padding columns the input zero point). */
static inline TE_UNUSED int te_depthwise_conv2d_sse_ring(const te_depthwise_conv2d_params *p,
                                                         const int8_t *input,
                                                         const int8_t *filter,
                                                         const int32_t *bias, const int32_t *rq,
                                                         int8_t *output, int8_t *ring)
{
    const int span = (p->k_h - 1) * p->dil_h + 1, cols = te_depthwise_conv2d_ring_cols(p);
    const long row = 16L * cols;
    const int8_t *rows[TE_DEPTHWISE_CONV2D_MAX_KH];
    te_depthwise_conv2d_sse_blk blk;
    int b, c0, oy, ky, next;
    long j;
    if (!te_depthwise_conv2d_sse_ok(p))
        return 0;
    for (j = 0; j < span * row; j += 16)
        _mm_storeu_si128((__m128i *)(void *)(ring + j), _mm_set1_epi8((char)-p->input_offset));
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        int8_t *out_b = output + (long)b * p->out_h * p->out_w * p->in_c;
        for (c0 = 0; c0 < p->in_c; c0 += 16) {
            const int nb = TE_MIN(16, p->in_c - c0);
            te_depthwise_conv2d_sse_begin(p, filter, bias, rq, c0, nb, &blk);
            next = 0;
            for (oy = 0; oy < p->out_h; oy++) {
                const int iy0 = oy * p->stride_h - p->pad_top;
                const int last = TE_MIN(p->in_h - 1, iy0 + (p->k_h - 1) * p->dil_h);
                for (; next <= last; next++)
                    te_depthwise_conv2d_sse_save16(p, in_b, next, c0, nb,
                                                   ring + (next % span) * row);
                for (ky = 0; ky < p->k_h; ky++) {
                    const int iy = iy0 + ky * p->dil_h;
                    rows[ky] = iy >= 0 && iy < p->in_h
                                   ? ring + (iy % span) * row + 16 * p->pad_left
                                   : NULL;
                }
                te_depthwise_conv2d_sse_span(p, &blk, rows, 16, -p->pad_left,
                                             cols - p->pad_left, c0, nb, filter, bias, rq,
                                             out_b + (long)oy * p->out_w * p->in_c);
            }
        }
    }
    return 1;
}
/* te:end */

#endif /* TE_DEPTHWISE_CONV2D_SSE2 */

/* te:section te_depthwise_conv2d_s8_fast */
TE_KERNEL void te_depthwise_conv2d_s8_fast(const te_depthwise_conv2d_params *p,
                                           const int8_t *input, const int8_t *filter,
                                           const int32_t *bias, const int32_t *rq,
                                           int8_t *output)
{
    const long row_bytes = (long)p->in_w * p->in_c;
    const int8_t *rows[TE_DEPTHWISE_CONV2D_MAX_KH];
    int b, oy, ky;
#if defined(TE_DEPTHWISE_CONV2D_SSE2)
    if (te_depthwise_conv2d_sse_fast(p, input, filter, bias, rq, output))
        return;
#endif
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * row_bytes;
        for (oy = 0; oy < p->out_h; oy++) {
            const int iy0 = oy * p->stride_h - p->pad_top;
            for (ky = 0; ky < p->k_h; ky++) {
                const int iy = iy0 + ky * p->dil_h;
                rows[ky] = iy >= 0 && iy < p->in_h ? in_b + iy * row_bytes : NULL;
            }
            te_depthwise_conv2d_fast_row(p, rows, p->in_c, 0, p->in_c * p->depth_mult, filter,
                                         bias, rq,
                                         output + ((long)b * p->out_h + oy) * p->out_w *
                                                      p->in_c * p->depth_mult);
        }
    }
}
/* te:end */

/* te:section te_depthwise_conv2d_s8_fast_inplace */
/* Block by block of channels: the input rows of the block are saved in the
 * ring (span rows of in_w * nb bytes) when first needed, then the block's
 * outputs overwrite them in the tensor (on x86, rows by the SSE2 path). */
TE_KERNEL void te_depthwise_conv2d_s8_fast_inplace(const te_depthwise_conv2d_params *p,
                                                   int8_t *data, const int8_t *filter,
                                                   const int32_t *bias, const int32_t *rq,
                                                   int8_t *ring)
{
    const int span = (p->k_h - 1) * p->dil_h + 1;
    const int8_t *rows[TE_DEPTHWISE_CONV2D_MAX_KH];
    int b, c0, oy, ky, next;
#if defined(TE_DEPTHWISE_CONV2D_SSE2)
    const int sse = te_depthwise_conv2d_sse_ok(p);
    te_depthwise_conv2d_sse_blk blk;
#endif
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = data + (long)b * p->in_h * p->in_w * p->in_c;
        int8_t *out_b = data + (long)b * p->out_h * p->out_w * p->in_c;
        for (c0 = 0; c0 < p->in_c; c0 += TE_DEPTHWISE_CONV2D_BLOCK) {
            const int nb = TE_MIN(TE_DEPTHWISE_CONV2D_BLOCK, p->in_c - c0);
#if defined(TE_DEPTHWISE_CONV2D_SSE2)
            if (sse)
                te_depthwise_conv2d_sse_begin(p, filter, bias, rq, c0, nb, &blk);
#endif
            next = 0;
            for (oy = 0; oy < p->out_h; oy++) {
                int8_t *out_row = out_b + (long)oy * p->out_w * p->in_c;
                const int iy0 = oy * p->stride_h - p->pad_top;
                const int last = TE_MIN(p->in_h - 1, iy0 + (p->k_h - 1) * p->dil_h);
                for (; next <= last; next++)
                    te_depthwise_conv2d_fast_save(p, in_b, next, c0, nb, ring);
                for (ky = 0; ky < p->k_h; ky++) {
                    const int iy = iy0 + ky * p->dil_h;
                    rows[ky] = iy >= 0 && iy < p->in_h
                                   ? ring + (long)(iy % span) * p->in_w * nb
                                   : NULL;
                }
#if defined(TE_DEPTHWISE_CONV2D_SSE2)
                if (sse) {
                    te_depthwise_conv2d_sse_span(p, &blk, rows, nb, 0, p->in_w, c0, nb, filter,
                                                 bias, rq, out_row);
                    continue;
                }
#endif
                te_depthwise_conv2d_fast_row(p, rows, nb, c0, nb, filter, bias, rq, out_row);
            }
        }
    }
}
/* te:end */

/* te:section TE_DEPTHWISE_CONV2D_G */
/* ---- plane kernel: channel planes of int16 rows, 8 output pixels at a time
 * (stride_w 1 or 2, k_w <= 16).  Per group of 8 channels, the input rows
 * the current output row reads are kept per channel as int16 x - zero_point
 * with zero padding columns (stride 2: even columns first, then odd ones),
 * so that 8 consecutive output pixels read 8 consecutive values for every
 * tap: the compiler vectorises the pixel loop with the accumulators in
 * registers, and the channel's requantization values stay in registers for
 * its whole row. */

#define TE_DEPTHWISE_CONV2D_G 8 /* channels a group, pixels a block */
/* te:end */

/* te:section te_depthwise_conv2d_ring_span */
/* Plane row geometry (see te_depthwise_conv2d_ring_bytes). */
static inline TE_UNUSED int te_depthwise_conv2d_ring_span(const te_depthwise_conv2d_params *p)
{
    return (p->k_h - 1) * p->dil_h + 1;
}
/* te:end */

/* te:section te_depthwise_conv2d_ring_geo */
/* What the pixel loops read, copied out of the params (stores through the
 * int8 output could alias them) and precomputed once. */
typedef struct {
    int out_w, c, k_h, k_w;
    int32_t zp, lo, hi;
    int tap[16];  /* plane row index of tap kx of pixel 0 */
} te_depthwise_conv2d_ring_geo;
/* te:end */

/* te:section te_depthwise_conv2d_ring_geometry */
static inline TE_UNUSED void te_depthwise_conv2d_ring_geometry(
    const te_depthwise_conv2d_params *p, te_depthwise_conv2d_ring_geo *g)
{
    const int half = te_depthwise_conv2d_ring_cols(p) / 2;
    int kx;
    g->out_w = p->out_w;
    g->c = p->in_c;
    g->k_h = p->k_h;
    g->k_w = p->k_w;
    g->zp = p->output_offset;
    g->lo = p->act_min;
    g->hi = p->act_max;
    for (kx = 0; kx < p->k_w && kx < 16; kx++) {
        const int t = kx * p->dil_w;
        g->tap[kx] = p->stride_w == 2 ? (t & 1) * half + t / 2 : t;
    }
}
/* te:end */

/* te:section te_depthwise_conv2d_ring_block */
/* Output pixels [ox, ox + 8) of one channel: acc[] from the plane rows
 * (rows[ky] or NULL: padding), weights w[ky * k_w + kx], bias b; kw is
 * k_w, a constant (3, 5, 7: unrolled) after inlining, or not. */
static inline TE_UNUSED void te_depthwise_conv2d_ring_block(const te_depthwise_conv2d_ring_geo *g,
                                                            const int16_t *const *rows,
                                                            const int16_t *w, int32_t b, int ox,
                                                            int kw, int32_t *out_acc)
{
    uint32_t acc[TE_DEPTHWISE_CONV2D_G];
    int ky, kx, j;
    for (j = 0; j < TE_DEPTHWISE_CONV2D_G; j++)
        acc[j] = (uint32_t)b;
    for (ky = 0; ky < g->k_h; ky++, w += kw) {
        const int16_t *x0;
        if (!rows[ky]) /* padding (before the offset: NULL + ox is undefined) */
            continue;
        x0 = rows[ky] + ox;
        for (kx = 0; kx < kw; kx++) {
            const int16_t *x = x0 + g->tap[kx];
            const int32_t wv = w[kx];
            for (j = 0; j < TE_DEPTHWISE_CONV2D_G; j++)
                acc[j] += (uint32_t)(wv * x[j]);
        }
    }
    for (j = 0; j < TE_DEPTHWISE_CONV2D_G; j++)
        out_acc[j] = (int32_t)acc[j];
}
/* te:end */

/* te:section te_depthwise_conv2d_ring_row */
/* One channel's output row: blocks of 8 pixels (the last one partly past
 * the row, reading zero padding), requantized with the channel's entry. */
static inline TE_UNUSED void te_depthwise_conv2d_ring_row(const te_depthwise_conv2d_ring_geo *g,
                                                          const int16_t *const *rows,
                                                          const int16_t *w, int32_t b,
                                                          const int32_t *q, int8_t *out)
{
    int32_t acc[TE_DEPTHWISE_CONV2D_G];
    const int ow = g->out_w, c = g->c;
    const int32_t m = q[0], h = q[1], e = q[2], lo = g->lo, hi = g->hi, zp = g->zp;
    const int64_t m2 = (int64_t)m * 2;
    int ox, j;
    for (ox = 0; ox < ow; ox += TE_DEPTHWISE_CONV2D_G) {
        const int n = TE_MIN(TE_DEPTHWISE_CONV2D_G, ow - ox);
        if (g->k_w == 3)
            te_depthwise_conv2d_ring_block(g, rows, w, b, ox, 3, acc);
        else if (g->k_w == 5)
            te_depthwise_conv2d_ring_block(g, rows, w, b, ox, 5, acc);
        else if (g->k_w == 7)
            te_depthwise_conv2d_ring_block(g, rows, w, b, ox, 7, acc);
        else
            te_depthwise_conv2d_ring_block(g, rows, w, b, ox, g->k_w, acc);
        for (j = 0; j < n; j++, out += c) {
            int32_t v;
            if (e > 0) {
                int64_t t = (int64_t)acc[j] * m2 + (int64_t)(h - (acc[j] < 0)) * 4294967296 +
                            2147483648;
                v = (int32_t)(t >> 32) >> e;
            } else {
                v = te_mul_by_quant_mult(acc[j], m, (int)h);
                v = (int32_t)((uint32_t)v + (uint32_t)zp);
            }
            *out = (int8_t)te_clamp_i32(v, lo, hi);
        }
    }
}
/* te:end */

/* te:section te_depthwise_conv2d_ring_save */
/* Input row iy, channels [c0, c0 + n), as int16 x - zp into their plane
 * rows (stride 2: even columns, then odd ones). */
static inline TE_UNUSED void te_depthwise_conv2d_ring_save(const te_depthwise_conv2d_params *p,
                                                           const int8_t *in_b, int iy, int c0,
                                                           int n, int16_t *ring)
{
    const int span = te_depthwise_conv2d_ring_span(p), cols = te_depthwise_conv2d_ring_cols(p);
    const long plane = (long)span * cols;
    const int8_t *src = in_b + (long)iy * p->in_w * p->in_c + c0;
    int16_t *dst = ring + (long)(iy % span) * cols;
    const int16_t off = (int16_t)p->input_offset;
    int x, ch;
    for (x = 0; x < p->in_w; x++, src += p->in_c) {
        const int col = p->pad_left + x;
        const long at = p->stride_w == 2 ? (long)(col & 1) * (cols / 2) + col / 2 : col;
        for (ch = 0; ch < n; ch++)
            dst[ch * plane + at] = (int16_t)(src[ch] + off);
    }
}
/* te:end */

/* te:section te_depthwise_conv2d_s8_ring */
TE_KERNEL void te_depthwise_conv2d_s8_ring(const te_depthwise_conv2d_params *p,
                                           const int8_t *input, const int8_t *filter,
                                           const int32_t *bias, const int32_t *rq,
                                           int8_t *output, int16_t *scratch)
{
    const int span = te_depthwise_conv2d_ring_span(p), cols = te_depthwise_conv2d_ring_cols(p);
    const int taps = p->k_h * p->k_w;
    const long plane = (long)span * cols;
    int16_t *ring = scratch, *wt = scratch + TE_DEPTHWISE_CONV2D_G * plane;
    const int16_t *rows[TE_DEPTHWISE_CONV2D_MAX_KH];
    te_depthwise_conv2d_ring_geo geo;
    int b, c0, n, ch, oy, ky, next, t;
    long j;
#if defined(TE_DEPTHWISE_CONV2D_SSE2)
    if (te_depthwise_conv2d_sse_ring(p, input, filter, bias, rq, output, (int8_t *)scratch))
        return;
#endif
    te_depthwise_conv2d_ring_geometry(p, &geo);
    for (j = 0; j < TE_DEPTHWISE_CONV2D_G * plane; j++) /* the padding columns */
        ring[j] = 0;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        int8_t *out_b = output + (long)b * p->out_h * p->out_w * p->in_c;
        for (c0 = 0; c0 < p->in_c; c0 += n) {
            n = TE_MIN(TE_DEPTHWISE_CONV2D_G, p->in_c - c0);
            for (ch = 0; ch < n; ch++)
                for (t = 0; t < taps; t++)
                    wt[ch * taps + t] = filter[(long)t * p->in_c + c0 + ch];
            next = 0;
            for (oy = 0; oy < p->out_h; oy++) {
                const int iy0 = oy * p->stride_h - p->pad_top;
                const int last = TE_MIN(p->in_h - 1, iy0 + (p->k_h - 1) * p->dil_h);
                for (; next <= last; next++)
                    te_depthwise_conv2d_ring_save(p, in_b, next, c0, n, ring);
                for (ch = 0; ch < n; ch++) {
                    for (ky = 0; ky < p->k_h; ky++) {
                        const int iy = iy0 + ky * p->dil_h;
                        rows[ky] = iy >= 0 && iy < p->in_h
                                       ? ring + ch * plane + (long)(iy % span) * cols
                                       : NULL;
                    }
                    te_depthwise_conv2d_ring_row(&geo, rows, wt + ch * taps, bias[c0 + ch],
                                                 rq + 3 * (c0 + ch),
                                                 out_b + (long)oy * p->out_w * p->in_c + c0 + ch);
                }
            }
        }
    }
}
/* te:end */
