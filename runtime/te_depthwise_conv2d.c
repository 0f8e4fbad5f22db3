/* te_depthwise_conv2d.c - DEPTHWISE_CONV_2D int8 kernels (see
 * te_depthwise_conv2d.h): the plain ones (taps outside the input skipped,
 * window bounds computed once per output pixel) and the fast portable ones
 * (channel blocks or pixel blocks the C compiler vectorises, cheaper exact
 * requantization).  Accumulators wrap modulo 2^32 like TFLite's int32 ones,
 * without UB. */
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

/* ---- fast portable kernels (depth multiplier 1) ------------------------ */

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

#define TE_DEPTHWISE_CONV2D_BLOCK 16

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

TE_KERNEL void te_depthwise_conv2d_s8_fast(const te_depthwise_conv2d_params *p,
                                           const int8_t *input, const int8_t *filter,
                                           const int32_t *bias, const int32_t *rq,
                                           int8_t *output)
{
    const long row_bytes = (long)p->in_w * p->in_c;
    const int8_t *rows[TE_DEPTHWISE_CONV2D_MAX_KH];
    int b, oy, ky;
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

/* Channels [c0, c0 + nb) of input row iy into ring slot iy % span. */
static inline TE_UNUSED void te_depthwise_conv2d_fast_save(const te_depthwise_conv2d_params *p,
                                                           const int8_t *in_b, int iy, int c0,
                                                           int nb, int8_t *ring)
{
    const int span = (p->k_h - 1) * p->dil_h + 1;
    const int8_t *src = in_b + (long)iy * p->in_w * p->in_c + c0;
    int8_t *dst = ring + (long)(iy % span) * p->in_w * nb;
    int x, i;
    for (x = 0; x < p->in_w; x++, src += p->in_c, dst += nb)
        for (i = 0; i < nb; i++)
            dst[i] = src[i];
}

/* Block by block of channels: the input rows of the block are saved in the
 * ring (span rows of in_w * nb bytes) when first needed, then the block's
 * outputs overwrite them in the tensor. */
TE_KERNEL void te_depthwise_conv2d_s8_fast_inplace(const te_depthwise_conv2d_params *p,
                                                   int8_t *data, const int8_t *filter,
                                                   const int32_t *bias, const int32_t *rq,
                                                   int8_t *ring)
{
    const int span = (p->k_h - 1) * p->dil_h + 1;
    const int8_t *rows[TE_DEPTHWISE_CONV2D_MAX_KH];
    int b, c0, oy, ky, next;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = data + (long)b * p->in_h * p->in_w * p->in_c;
        int8_t *out_b = data + (long)b * p->out_h * p->out_w * p->in_c;
        for (c0 = 0; c0 < p->in_c; c0 += TE_DEPTHWISE_CONV2D_BLOCK) {
            const int nb = TE_MIN(TE_DEPTHWISE_CONV2D_BLOCK, p->in_c - c0);
            next = 0;
            for (oy = 0; oy < p->out_h; oy++) {
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
                te_depthwise_conv2d_fast_row(p, rows, nb, c0, nb, filter, bias, rq,
                                             out_b + (long)oy * p->out_w * p->in_c);
            }
        }
    }
}

/* ---- plane kernel: channel planes of int16 rows, 8 output pixels at a time
 * (stride_w 1 or 2, k_w <= 16).  Per group of 8 channels, the input rows
 * the current output row reads are kept per channel as int16 x - zero_point
 * with zero padding columns (stride 2: even columns first, then odd ones),
 * so that 8 consecutive output pixels read 8 consecutive values for every
 * tap: the compiler vectorises the pixel loop with the accumulators in
 * registers, and the channel's requantization values stay in registers for
 * its whole row. */

#define TE_DEPTHWISE_CONV2D_G 8 /* channels a group, pixels a block */

/* Plane row geometry (see te_depthwise_conv2d_ring_bytes). */
static inline TE_UNUSED int te_depthwise_conv2d_ring_span(const te_depthwise_conv2d_params *p)
{
    return (p->k_h - 1) * p->dil_h + 1;
}

/* What the pixel loops read, copied out of the params (stores through the
 * int8 output could alias them) and precomputed once. */
typedef struct {
    int out_w, c, k_h, k_w;
    int32_t zp, lo, hi;
    int tap[16];  /* plane row index of tap kx of pixel 0 */
} te_depthwise_conv2d_ring_geo;

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
        const int16_t *x0 = rows[ky] + ox;
        if (!rows[ky])
            continue;
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
