/* te_fully_connected.c - FULLY_CONNECTED int8 kernels (see
 * te_fully_connected.h).  Accumulators wrap modulo 2^32 like TFLite's int32
 * one, without signed-overflow UB.
 *
 * The DSP kernel gets 4 multiply-accumulates out of each SMLAD pair: a
 * weight word holds, per 16-bit lane, v = a + 256*b for weights a and b of
 * two rows at the same input index.  For input lanes x (sign-extended):
 *   lo  += SMLAD(SXTB16(v), x)  = sum a*x         (SXTB16 recovers a)
 *   raw += SMLAD(v, x)          = sum a*x + 256 * sum b*x
 * so sum b*x = (raw - lo) / 256, exact while |sum b*x| < 2^23: the depth
 * is cut into chunks of at most 127 groups of 4 (|b*x| <= 2^14).  The
 * compiler checks that every lane fits an int16. */
#include "te_common.h"
#include "te_fully_connected.h"

/* te:section te_fully_connected_requant */
/* TFLite MultiplyByQuantizedMultiplier (shift = left - right, one of them
 * 0) for mult in [0, 2^31), what QuantizeMultiplier gives, in fewer steps:
 *  - the doubling high multiply cannot saturate, and its (ab + nudge) / 2^31
 *    truncated equals floor((ab + 2^30) / 2^31) for either sign of ab;
 *  - that v lies in (-2^31, 2^31 - 1), so the rounding divide by 2^right
 *    (half away from zero), floor((v - [v < 0] + 2^(right-1)) / 2^right),
 *    can be taken in two steps without overflow. */
static inline TE_UNUSED int32_t te_fully_connected_requant(int32_t acc, int32_t mult, int left,
                                                           int right)
{
    int64_t ab = (int64_t)te_shl_i32(acc, left) * mult + ((int64_t)1 << 30);
    int32_t v = (int32_t)(ab >> 31);
    if (right == 0)
        return v;
    return (((v + (v >> 31)) >> (right - 1)) + 1) >> 1;
}
/* te:end */

#if defined(__GNUC__)
#define TE_FULLY_CONNECTED_NOINLINE __attribute__((noinline))
#else
#define TE_FULLY_CONNECTED_NOINLINE
#endif

/* te:section te_fully_connected_sat8 */
/* v clamped to int8 (one SSAT where the core has it: the builtin, as gcc's
 * __ssat macro fails -Wsign-conversion). */
static inline TE_UNUSED int32_t te_fully_connected_sat8(int32_t v)
{
#if defined(TE_TARGET_DSP) && defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SAT)
    return (int32_t)__builtin_arm_ssat(v, 8);
#else
    return v > 127 ? 127 : (v < -128 ? -128 : v);
#endif
}
/* te:end */

/* How sums become outputs, decided once per kernel call. */
typedef struct {
    const te_fully_connected_params *p;
    const int32_t *mult, *shift; /* one per unit */
    int mode;                    /* 0 per unit; 1 or 2: one multiplier and a right
                                  * shift, 1 clamping to all of int8 */
    int32_t m;
    int right;
    int64_t k;
} te_fully_connected_outq;

/* te:section te_fully_connected_outq_init */
/* With one multiplier m and a right shift (shift = -right, right >= 1),
 * te_fully_connected_requant's two roundings fold into one 64-bit sum:
 * floor((x*m + 2^30 + 2^(30+right) - [v < 0] * 2^31) / 2^(31+right))
 * (nested floors), and [v < 0] may be replaced by [x < 0]: they differ only
 * when x*m is in [-2^30, 0), where both give 0.  The shift is >= 32, so only
 * the high word is shifted. */
static inline TE_UNUSED void te_fully_connected_outq_init(te_fully_connected_outq *q,
                                                          const te_fully_connected_params *p,
                                                          const int32_t *mult,
                                                          const int32_t *shift)
{
    q->p = p;
    q->mult = mult;
    q->shift = shift;
    q->mode = 0;
    q->m = mult[0];
    q->right = shift[0] < 0 && shift[0] >= -31 ? (int)-shift[0] : 1;
    q->k = ((int64_t)1 << 30) + ((int64_t)1 << (30 + q->right));
    if (!p->per_channel && shift[0] < 0 && shift[0] >= -31)
        q->mode = p->act_min == -128 && p->act_max == 127 ? 1 : 2;
}
/* te:end */

/* te:section te_fully_connected_store_tensor */
static inline TE_UNUSED void te_fully_connected_store_tensor(const te_fully_connected_outq *q,
                                                             const uint32_t *acc, int8_t *out,
                                                             int n, int full_range)
{
    int32_t m = q->m, off = q->p->output_offset, lo = q->p->act_min, hi = q->p->act_max;
    int64_t k = q->k;
    int s = q->right - 1, i;
    for (i = 0; i < n; i++) {
        int32_t x = (int32_t)acc[i];
        int64_t sum = (int64_t)x * m + k - (int64_t)((uint32_t)x >> 31) * ((int64_t)1 << 31);
        int32_t v = (int32_t)((uint32_t)((int32_t)(sum >> 32) >> s) + (uint32_t)off);
        out[i] = (int8_t)(full_range ? te_fully_connected_sat8(v) : te_clamp_i32(v, lo, hi));
    }
}
/* te:end */

/* te:section te_fully_connected_store */
/* out[0..n) from acc[0..n), the int32 sums (bias included) of units u,
 * u+1, ...  Out of line: the callers' loops keep their registers. */
static TE_FULLY_CONNECTED_NOINLINE TE_UNUSED void te_fully_connected_store(
    const te_fully_connected_outq *q, const uint32_t *acc, int u, int8_t *out, int n)
{
    int32_t off = q->p->output_offset, lo = q->p->act_min, hi = q->p->act_max;
    int i;
    if (q->mode == 1) {
        te_fully_connected_store_tensor(q, acc, out, n, 1);
    } else if (q->mode == 2) {
        te_fully_connected_store_tensor(q, acc, out, n, 0);
    } else {
        for (i = 0; i < n; i++) {
            int32_t sh = q->shift[u + i];
            int left = sh > 0 ? (int)sh : 0;
            int32_t v = te_fully_connected_requant((int32_t)acc[i], q->mult[u + i], left,
                                                   left - (int)sh);
            out[i] = (int8_t)te_clamp_i32((int32_t)((uint32_t)v + (uint32_t)off), lo, hi);
        }
    }
}
/* te:end */

/* te:section te_fully_connected_dot */
static inline TE_UNUSED uint32_t te_fully_connected_dot(const int8_t *x, const int8_t *w, int n,
                                                        int32_t off)
{
    uint32_t acc = 0;
    int i;
    for (i = 0; i < n; i++)
        acc += (uint32_t)((x[i] + off) * w[i]);
    return acc;
}
/* te:end */

/* te:section te_fully_connected_dot_wz */
/* The same with weights of zero point -woff (TFLite's per-tensor
 * FullyConnected: (w + woff) * (x + off)). */
static inline TE_UNUSED uint32_t te_fully_connected_dot_wz(const int8_t *x, const int8_t *w,
                                                           int n, int32_t off, int32_t woff)
{
    uint32_t acc = 0;
    int i;
    for (i = 0; i < n; i++)
        acc += (uint32_t)((x[i] + off) * (w[i] + woff));
    return acc;
}
/* te:end */

/* te:section te_fully_connected_s8 */
TE_KERNEL void te_fully_connected_s8(const te_fully_connected_params *p, const int8_t *input,
                                     const int8_t *weights, const int32_t *bias,
                                     const int32_t *mult, const int32_t *shift, int8_t *output)
{
    int b, u;
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * p->depth;
        for (u = 0; u < p->units; u++) {
            uint32_t acc = te_fully_connected_dot(x, weights + (long)u * p->depth, p->depth,
                                                  p->input_offset);
            int32_t v;
            if (bias)
                acc += (uint32_t)bias[u];
            v = te_mul_by_quant_mult((int32_t)acc, mult[u], (int)shift[u]);
            v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
            *output++ = (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
        }
    }
}
/* te:end */

/* te:section te_fully_connected_s8_wz */
TE_KERNEL void te_fully_connected_s8_wz(const te_fully_connected_params *p,
                                        int32_t weights_offset, const int8_t *input,
                                        const int8_t *weights, const int32_t *bias,
                                        const int32_t *mult, const int32_t *shift,
                                        int8_t *output)
{
    int b, u;
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * p->depth;
        for (u = 0; u < p->units; u++) {
            uint32_t acc = te_fully_connected_dot_wz(x, weights + (long)u * p->depth, p->depth,
                                                     p->input_offset, weights_offset);
            int32_t v;
            if (bias)
                acc += (uint32_t)bias[u];
            v = te_mul_by_quant_mult((int32_t)acc, mult[u], (int)shift[u]);
            v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
            *output++ = (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
        }
    }
}
/* te:end */

/* ---- portable fast kernels (offset folded into the bias) ---- */

/* te:section te_fully_connected_dot1 */
/* One row, plainly (the last rows of the 4-row kernel). */
static inline TE_UNUSED uint32_t te_fully_connected_dot1(const int8_t *x, const int8_t *w, int n)
{
    uint32_t acc = 0;
    int i;
    for (i = 0; i < n; i++)
        acc += (uint32_t)(x[i] * w[i]);
    return acc;
}
/* te:end */

/* te:section te_fully_connected_dot16 */
/* One row in 16 lanes: the shape compilers vectorise (the lanes start
 * with the first 16 products, so no zeroing loop becomes a memset call). */
static inline TE_UNUSED uint32_t te_fully_connected_dot16(const int8_t *x, const int8_t *w, int n)
{
    uint32_t lane[16], acc = 0;
    int i = 0, j;
    if (n >= 16) {
        for (j = 0; j < 16; j++)
            lane[j] = (uint32_t)(x[j] * w[j]);
        for (i = 16; i + 16 <= n; i += 16)
            for (j = 0; j < 16; j++)
                lane[j] += (uint32_t)(x[i + j] * w[i + j]);
        for (j = 0; j < 16; j++)
            acc += lane[j];
    }
    return acc + te_fully_connected_dot1(x + i, w + i, n - i);
}
/* te:end */

/* te:section te_fully_connected_dot4 */
/* Four consecutive rows, each input byte loaded once. */
static inline TE_UNUSED void te_fully_connected_dot4(const int8_t *x, const int8_t *w, int n,
                                                     uint32_t *dot)
{
    const int8_t *w1 = w + n, *w2 = w1 + n, *w3 = w2 + n;
    uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int k;
    for (k = 0; k < n; k++) {
        int32_t xv = x[k];
        a0 += (uint32_t)(xv * w[k]);
        a1 += (uint32_t)(xv * w1[k]);
        a2 += (uint32_t)(xv * w2[k]);
        a3 += (uint32_t)(xv * w3[k]);
    }
    dot[0] = a0;
    dot[1] = a1;
    dot[2] = a2;
    dot[3] = a3;
}
/* te:end */

/* te:section te_fully_connected_s8_rows4 */
TE_KERNEL void te_fully_connected_s8_rows4(const te_fully_connected_params *p,
                                           const int8_t *input, const int8_t *weights,
                                           const int32_t *bias, const int32_t *mult,
                                           const int32_t *shift, int8_t *output)
{
    int b, u;
    uint32_t dot[4];
    te_fully_connected_outq q;
    te_fully_connected_outq_init(&q, p, mult, shift);
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * p->depth;
        for (u = 0; u < p->units; u += 4) {
            int n = TE_MIN(4, p->units - u);
            const int8_t *w = weights + (long)u * p->depth;
            int r;
            if (n == 4)
                te_fully_connected_dot4(x, w, p->depth, dot);
            else
                for (r = 0; r < n; r++)
                    dot[r] = te_fully_connected_dot1(x, w + (long)r * p->depth, p->depth);
            for (r = 0; r < n; r++)
                dot[r] += (uint32_t)bias[u + r];
            te_fully_connected_store(&q, dot, u, output, n);
            output += n;
        }
    }
}
/* te:end */

/* te:section te_fully_connected_s8_lanes */
TE_KERNEL void te_fully_connected_s8_lanes(const te_fully_connected_params *p,
                                           const int8_t *input, const int8_t *weights,
                                           const int32_t *bias, const int32_t *mult,
                                           const int32_t *shift, int8_t *output)
{
    int b, u, r;
    uint32_t acc[8];
    te_fully_connected_outq q;
    te_fully_connected_outq_init(&q, p, mult, shift);
    for (b = 0; b < p->batches; b++) {
        const int8_t *x = input + (long)b * p->depth;
        for (u = 0; u < p->units; u += 8) {
            int n = TE_MIN(8, p->units - u);
            for (r = 0; r < n; r++)
                acc[r] = te_fully_connected_dot16(x, weights + (long)(u + r) * p->depth,
                                                  p->depth) +
                         (uint32_t)bias[u + r];
            te_fully_connected_store(&q, acc, u, output, n);
            output += n;
        }
    }
}
/* te:end */

/* te:section te_fully_connected_s8_fast */
TE_KERNEL void te_fully_connected_s8_fast(const te_fully_connected_params *p,
                                          const int8_t *input, const int8_t *weights,
                                          const int32_t *bias, const int32_t *mult,
                                          const int32_t *shift, int8_t *output)
{
#if defined(__SSE2__) || defined(__ARM_NEON) || defined(__ARM_FEATURE_MVE) || \
    defined(__wasm_simd128__) || defined(__ALTIVEC__) || defined(__riscv_vector)
    te_fully_connected_s8_lanes(p, input, weights, bias, mult, shift, output);
#else
    te_fully_connected_s8_rows4(p, input, weights, bias, mult, shift, output);
#endif
}
/* te:end */

#if defined(TE_TARGET_DSP)
/* ---- DSP kernel (Armv7E-M SMLAD; exact emulation elsewhere) ---- */

#define TE_FULLY_CONNECTED_CHUNK 127 /* groups of 4 inputs per exact chunk */

/* Four row pairs: lo = rows 2p, raw = rows 2p + 256 * rows 2p+1. */
typedef struct {
    int32_t lo0, lo1, lo2, lo3, raw0, raw1, raw2, raw3;
} te_fully_connected_acc8;

/* te:section te_fully_connected_fence */
/* Keeps GCC's first scheduling pass from hoisting the next weight loads
 * above this step: with 8 accumulators live it would run out of registers
 * and spill inside the loop. */
static inline TE_UNUSED void te_fully_connected_fence(void)
{
#if defined(__GNUC__)
    __asm__ __volatile__("" ::: "memory");
#endif
}
/* te:end */

/* te:section te_fully_connected_mac */
static inline TE_UNUSED void te_fully_connected_mac(int32_t w, uint32_t x, int32_t *lo,
                                                    int32_t *raw)
{
    *raw = te_smlad((uint32_t)w, x, *raw);
    *lo = te_smlad(te_sxtb16((uint32_t)w), x, *lo);
}
/* te:end */

/* te:section te_fully_connected_half */
/* One half of a group (input lanes xv) for 4 row pairs (4 weight words). */
static inline TE_UNUSED void te_fully_connected_half(te_fully_connected_acc8 *a, uint32_t xv,
                                                     const int32_t *w)
{
    te_fully_connected_mac(w[0], xv, &a->lo0, &a->raw0);
    te_fully_connected_fence();
    te_fully_connected_mac(w[1], xv, &a->lo1, &a->raw1);
    te_fully_connected_mac(w[2], xv, &a->lo2, &a->raw2);
    te_fully_connected_mac(w[3], xv, &a->lo3, &a->raw3);
    te_fully_connected_fence();
}
/* te:end */

/* te:section te_fully_connected_group */
/* One group of 4 input bytes: x[0], x[2] then x[1], x[3]. */
static inline TE_UNUSED void te_fully_connected_group(te_fully_connected_acc8 *a,
                                                      const int8_t *x, const int32_t *w)
{
    uint32_t xw = te_read_u32(x);
    te_fully_connected_half(a, te_sxtb16(xw), w);
    te_fully_connected_half(a, te_sxtb16_ror8(xw), w + 4);
}
/* te:end */

/* te:section te_fully_connected_odd */
/* Row 2p+1 of a pair: (raw - lo) / 256, exact while |sum| < 2^23. */
static inline TE_UNUSED uint32_t te_fully_connected_odd(int32_t raw, int32_t lo)
{
    return (uint32_t)((int32_t)((uint32_t)raw - (uint32_t)lo) >> 8);
}
/* te:end */

/* te:section te_fully_connected_run */
/* acc[0..8) = init[0..8) + n whole groups of x (n <= the chunk), two
 * groups per iteration; init may be acc.  Out of line, so that the loop has
 * the registers to itself (with the fences: no spills but the loop end). */
static TE_FULLY_CONNECTED_NOINLINE TE_UNUSED void te_fully_connected_run(
    uint32_t *acc, const uint32_t *init, const int8_t *x, const int32_t *w, int n)
{
    te_fully_connected_acc8 t;
    t.lo0 = t.raw0 = (int32_t)init[0]; /* a common start cancels in raw - lo */
    t.lo1 = t.raw1 = (int32_t)init[2];
    t.lo2 = t.raw2 = (int32_t)init[4];
    t.lo3 = t.raw3 = (int32_t)init[6];
    for (; n >= 2; n -= 2, x += 8, w += 16) {
        te_fully_connected_group(&t, x, w);
        te_fully_connected_group(&t, x + 4, w + 8);
    }
    if (n)
        te_fully_connected_group(&t, x, w);
    acc[0] = (uint32_t)t.lo0;
    acc[1] = init[1] + te_fully_connected_odd(t.raw0, t.lo0);
    acc[2] = (uint32_t)t.lo1;
    acc[3] = init[3] + te_fully_connected_odd(t.raw1, t.lo1);
    acc[4] = (uint32_t)t.lo2;
    acc[5] = init[5] + te_fully_connected_odd(t.raw2, t.lo2);
    acc[6] = (uint32_t)t.lo3;
    acc[7] = init[7] + te_fully_connected_odd(t.raw3, t.lo3);
}
/* te:end */

/* te:section te_fully_connected_rows */
/* Every block of 8 rows for one input vector x: bias, whole groups chunk
 * by chunk, the last depth % 4 bytes as one zero-padded group, outputs. */
static TE_UNUSED void te_fully_connected_rows(
    const te_fully_connected_outq *q, const int8_t *x, const int32_t *w, const int32_t *bias,
    int8_t *out)
{
    const te_fully_connected_params *p = q->p;
    int full = p->depth / 4, tail = p->depth % 4, u, g;
    int8_t last[4] = {0, 0, 0, 0};
    uint32_t acc[TE_FULLY_CONNECTED_DSP_ROWS];
    if (tail) {
        last[0] = x[4 * full];
        last[1] = tail > 1 ? x[4 * full + 1] : 0;
        last[2] = tail > 2 ? x[4 * full + 2] : 0;
    }
    for (u = 0; u < p->units; u += TE_FULLY_CONNECTED_DSP_ROWS) {
        const uint32_t *init = (const uint32_t *)(const void *)(bias + u);
        if (full <= TE_FULLY_CONNECTED_CHUNK)
            te_fully_connected_run(acc, init, x, w, full);
        else
            for (g = 0; g < full; g += TE_FULLY_CONNECTED_CHUNK)
                te_fully_connected_run(acc, g ? acc : init, x + 4 * g, w + 8 * g,
                                       TE_MIN(full - g, TE_FULLY_CONNECTED_CHUNK));
        w += 8 * full;
        if (tail) {
            te_fully_connected_run(acc, full ? acc : init, last, w, 1);
            w += 8;
        }
        te_fully_connected_store(q, acc, u, out + u,
                                 TE_MIN(TE_FULLY_CONNECTED_DSP_ROWS, p->units - u));
    }
}
/* te:end */

/* te:section te_fully_connected_s8_dsp */
TE_KERNEL void te_fully_connected_s8_dsp(const te_fully_connected_params *p,
                                         const int8_t *input, const int32_t *packed,
                                         const int32_t *bias, const int32_t *mult,
                                         const int32_t *shift, int8_t *output)
{
    int b;
    te_fully_connected_outq q;
    te_fully_connected_outq_init(&q, p, mult, shift);
    for (b = 0; b < p->batches; b++)
        te_fully_connected_rows(&q, input + (long)b * p->depth, packed, bias,
                                output + (long)b * p->units);
}
/* te:end */

#endif
