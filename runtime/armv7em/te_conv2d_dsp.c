/* te_conv2d_dsp.c - CONV_2D int8-weight DSP kernel (see te_conv2d_dsp.h).
 *
 * Output pixels two at a time: both patches widened into scratch, then for
 * every pair of output channels a 2x2 block of accumulators over the
 * patches (SMLAD on int16 pairs; the weights unpacked from int8 words by
 * SXTB16), requantized and stored.  Accumulation wraps modulo 2^32 like
 * TFLite's int32 accumulator, without signed-overflow UB.  An odd last
 * pixel runs as a pair with itself (its twin's outputs are not stored).
 * Only compiled when TE_TARGET_DSP is defined. */
#include "te_common.h"
#include "te_conv2d_dsp.h"

#if defined(TE_TARGET_DSP)

#if defined(__GNUC__)
#define TE_CONV2D_DSP_INLINE static inline __attribute__((always_inline)) TE_UNUSED
#define TE_CONV2D_DSP_NOINLINE static __attribute__((noinline)) TE_UNUSED
#else
#define TE_CONV2D_DSP_INLINE static inline TE_UNUSED
#define TE_CONV2D_DSP_NOINLINE static TE_UNUSED
#endif

/* ---- requantization ----------------------------------------------------- */

#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__)
/* te:section te_conv2d_dsp_smmulr */
/* (a * b + 2^31) >> 32 (SMMULR) */
TE_CONV2D_DSP_INLINE int32_t te_conv2d_dsp_smmulr(int32_t a, int32_t b)
{
    int32_t r;
    __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* te:end */
#else
/* te:section te_conv2d_dsp_smmulr */
TE_CONV2D_DSP_INLINE int32_t te_conv2d_dsp_smmulr(int32_t a, int32_t b)
{
    return (int32_t)(((int64_t)a * b + 2147483648LL) >> 32);
}
/* te:end */
#endif

/* te:section te_conv2d_dsp_out */
/* The output of accumulator acc with entry q: mode 0 exact ({mult, shift,
 * 0}); 1 fast ({m, H, e}; acc is the doubled accumulator, the patches
 * having been widened doubled) with the clamp bounds, 2 fast with the
 * full int8 range as bounds. */
TE_CONV2D_DSP_INLINE int8_t te_conv2d_dsp_out(const te_conv2d_dsp_params *p, int32_t acc,
                                             const int32_t *q, int mode)
{
    int32_t v;
    if (mode == 0) {
        v = (int32_t)((uint32_t)te_mul_by_quant_mult(acc, q[0], (int)q[1]) +
                      (uint32_t)p->output_offset);
        return (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
    }
    v = (int32_t)((uint32_t)te_conv2d_dsp_smmulr(acc, q[0]) + (uint32_t)q[1] -
                  ((uint32_t)acc >> 31)) >> q[2];
    if (mode == 1)
        return (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
#if defined(__ARM_FEATURE_DSP)
    return (int8_t)(int32_t)__builtin_arm_ssat(v, 8);
#else
    return (int8_t)te_clamp_i32(v, -128, 127);
#endif
}
/* te:end */

/* ---- patches ------------------------------------------------------------- */

#if defined(__ARM_FEATURE_DSP)
/* te:section te_conv2d_dsp_twice */
/* both int16 halves doubled (SADD16; they stay within int16) */
TE_CONV2D_DSP_INLINE uint32_t te_conv2d_dsp_twice(uint32_t x) {
    return (uint32_t)__sadd16((int32_t)x, (int32_t)x);
}
/* te:end */
#else
/* te:section te_conv2d_dsp_twice */
TE_CONV2D_DSP_INLINE uint32_t te_conv2d_dsp_twice(uint32_t x)
{
    return ((x & 0xffffu) * 2u & 0xffffu) | ((x >> 16) * 2u & 0xffffu) << 16;
}
/* te:end */
#endif

/* te:section te_conv2d_dsp_widen */
/* n bytes (a multiple of 4) from src widened (doubled when dbl) into
 * groups of the interleaved patches: group g at words 4g, 4g + 1. */
TE_CONV2D_DSP_INLINE void te_conv2d_dsp_widen(uint32_t *x, const int8_t *src, int n, int dbl)
{
    const int8_t *end = src + n;
    for (; src != end; src += 4, x += 4) {
        const uint32_t v = te_read_u32(src);
        x[0] = dbl ? te_conv2d_dsp_twice(te_sxtb16(v)) : te_sxtb16(v);
        x[1] = dbl ? te_conv2d_dsp_twice(te_sxtb16_ror8(v)) : te_sxtb16_ror8(v);
    }
}
/* te:end */

/* te:section te_conv2d_dsp_fill */
static inline TE_UNUSED void te_conv2d_dsp_fill(int8_t *d, int8_t v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        d[i] = v;
}
/* te:end */

/* te:section te_conv2d_dsp_copy */
/* n bytes, word by word (one LDR, one STR on a Cortex-M: both may be
 * unaligned), then the tail; no library call. */
static inline TE_UNUSED void te_conv2d_dsp_copy(int8_t *d, const int8_t *s, int n)
{
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        const uint32_t v = te_read_u32(s + i);
        uint8_t *b = (uint8_t *)d + i;
        b[0] = (uint8_t)v;
        b[1] = (uint8_t)(v >> 8);
        b[2] = (uint8_t)(v >> 16);
        b[3] = (uint8_t)(v >> 24);
    }
    for (; i < n; i++)
        d[i] = s[i];
}
/* te:end */

/* te:section te_conv2d_dsp_gather */
/* The k_pad bytes of the patch at (iy0, ix0) into d: padding taps hold
 * the input zero point, elements past K zero.  Filter row by filter row:
 * the taps inside the input in one run when dil_w == 1, else tap by tap. */
static inline TE_UNUSED void te_conv2d_dsp_gather(const te_conv2d_dsp_params *p,
                                                 const int8_t *in_b, int iy0, int ix0, int8_t *d)
{
    const int c = p->in_c, row_len = p->k_w * c;
    const int lo = TE_MIN(ix0 < 0 ? -ix0 : 0, p->k_w);        /* taps before column 0 */
    const int hi = TE_MAX(TE_MIN(p->in_w - ix0, p->k_w), lo); /* one past the last inside */
    int ky, kx;
    if (p->dil_w == 1 && lo == 0 && hi == p->k_w && iy0 >= 0 &&
        iy0 + (p->k_h - 1) * p->dil_h < p->in_h) { /* inside the input: whole rows */
        const int8_t *src = in_b + ((long)iy0 * p->in_w + ix0) * c;
        for (ky = 0; ky < p->k_h; ky++, d += row_len, src += (long)p->dil_h * p->in_w * c)
            te_conv2d_dsp_copy(d, src, row_len);
        for (kx = p->k_h * row_len; kx < p->k_pad; kx++)
            *d++ = 0;
        return;
    }
    for (ky = 0; ky < p->k_h; ky++, d += row_len) {
        const int iy = iy0 + ky * p->dil_h;
        const int8_t *row = in_b + (long)iy * p->in_w * c;
        if (iy < 0 || iy >= p->in_h) {
            te_conv2d_dsp_fill(d, (int8_t)p->input_zp, row_len);
        } else if (p->dil_w == 1) {
            te_conv2d_dsp_fill(d, (int8_t)p->input_zp, lo * c);
            te_conv2d_dsp_copy(d + lo * c, row + (long)(ix0 + lo) * c, (hi - lo) * c);
            te_conv2d_dsp_fill(d + hi * c, (int8_t)p->input_zp, (p->k_w - hi) * c);
        } else {
            for (kx = 0; kx < p->k_w; kx++) {
                const int ix = ix0 + kx * p->dil_w;
                if (ix < 0 || ix >= p->in_w)
                    te_conv2d_dsp_fill(d + kx * c, (int8_t)p->input_zp, c);
                else
                    te_conv2d_dsp_copy(d + kx * c, row + (long)ix * c, c);
            }
        }
    }
    te_conv2d_dsp_fill(d, 0, p->k_pad - p->k_h * row_len);
}
/* te:end */

/* te:section te_conv2d_dsp_build */
/* The widened patch of the pixel at (iy0, ix0) (doubled when dbl) into the
 * words 4g + half, 4g + half + 1 of x: straight from the input rows when the patch lies
 * inside it and its rows are whole groups, else through bytes. */
TE_CONV2D_DSP_INLINE void te_conv2d_dsp_build(const te_conv2d_dsp_params *p,
                                              const int8_t *in_b, int iy0, int ix0, uint32_t *x,
                                              int half, int8_t *bytes, int dbl)
{
    const int row_len = p->k_w * p->in_c;
    int ky;
    if (p->dil_w == 1 && row_len % 4 == 0 && iy0 >= 0 && ix0 >= 0 &&
        iy0 + (p->k_h - 1) * p->dil_h < p->in_h && ix0 + p->k_w <= p->in_w) {
        for (ky = 0; ky < p->k_h; ky++)
            te_conv2d_dsp_widen(x + half + ky * row_len, /* 4 words per 4 elements */
                                in_b + ((long)(iy0 + ky * p->dil_h) * p->in_w + ix0) * p->in_c,
                                row_len, dbl); /* K = k_pad here */
        return;
    }
    te_conv2d_dsp_gather(p, in_b, iy0, ix0, bytes);
    te_conv2d_dsp_widen(x + half, bytes, p->k_pad, dbl);
}
/* te:end */

/* ---- the 2x2 block ------------------------------------------------------ */

#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__OPTIMIZE__) && \
    defined(__thumb2__)
/* te:section TE_CONV2D_DSP_GROUP */
/* One group: the 4 patch words from r12 into r4 r5 r6 r8, the two
 * channels' weight words from r9 (one LDM) into r10 r11, each unpacked
 * into r7 (w0,w2) and itself (w1,w3); accumulators r0 r1 (pixel a), r2 r3
 * (pixel b).  r7 (the Thumb frame pointer when there is one) is saved by
 * a PUSH before the groups and restored by a POP after them, with no
 * memory operand between the two: 14 instructions for 16 MACs. */
#define TE_CONV2D_DSP_GROUP                                                    \
    "ldm r12!, {r4, r5, r6, r8}\n\t"                                           \
    "ldm r9!, {r10, r11}\n\t"                                                 \
    "sxtb16 r7, r10\n\t"                                                      \
    "sxtb16 r10, r10, ror #8\n\t"                                             \
    "smlad r0, r7, r4, r0\n\t"                                                \
    "smlad r2, r7, r6, r2\n\t"                                                \
    "smlad r0, r10, r5, r0\n\t"                                               \
    "smlad r2, r10, r8, r2\n\t"                                               \
    "sxtb16 r7, r11\n\t"                                                      \
    "sxtb16 r11, r11, ror #8\n\t"                                             \
    "smlad r1, r7, r4, r1\n\t"                                                \
    "smlad r3, r7, r6, r3\n\t"                                                \
    "smlad r1, r11, r5, r1\n\t"                                               \
    "smlad r3, r11, r8, r3\n\t"
/* te:end */

/* te:section TE_CONV2D_DSP_GROUP_LDR */
/* The same group without r7 (no PUSH needed): the weight words one LDR
 * each into r10, unpacked into r11 and r10; 15 instructions. */
#define TE_CONV2D_DSP_GROUP_LDR                                                \
    "ldm r12!, {r4, r5, r6, r8}\n\t"                                           \
    "ldr r10, [r9], #4\n\t"                                                   \
    "sxtb16 r11, r10\n\t"                                                     \
    "sxtb16 r10, r10, ror #8\n\t"                                             \
    "smlad r0, r11, r4, r0\n\t"                                               \
    "smlad r2, r11, r6, r2\n\t"                                               \
    "smlad r0, r10, r5, r0\n\t"                                               \
    "smlad r2, r10, r8, r2\n\t"                                               \
    "ldr r10, [r9], #4\n\t"                                                   \
    "sxtb16 r11, r10\n\t"                                                     \
    "sxtb16 r10, r10, ror #8\n\t"                                             \
    "smlad r1, r11, r4, r1\n\t"                                               \
    "smlad r3, r11, r6, r3\n\t"                                               \
    "smlad r1, r10, r5, r1\n\t"                                               \
    "smlad r3, r10, r8, r3\n\t"
/* te:end */

/* te:section TE_CONV2D_DSP_REM */
/* groups % 4 groups G first (r4 holds the count; the flags of LSLS #31
 * survive the groups: C bit 1, N bit 0) */
#define TE_CONV2D_DSP_REM(G)                                                   \
    "lsls r4, r4, #31\n\t"                                                    \
    "bcc 5f\n\t" G G                                                           \
    "5:\n\t"                                                                   \
    "bpl 6f\n\t" G                                                             \
    "6:\n\t"
/* te:end */

/* te:section TE_CONV2D_DSP_ASM */
/* One asm statement over the groups TEXT reads: accumulators ACC[0..3] in
 * r0..r3, patches X in r12 and weights W in r9 (both advanced), extra
 * input operand IN bound by DECL.  Register variables hold their register
 * only at the asm statement: values are copied in just before, out just
 * after. */
#define TE_CONV2D_DSP_ASM(ACC, X, W, IN, DECL, TEXT)                           \
    do {                                                                       \
        register int32_t a0 __asm__("r0") = (ACC)[0];                          \
        register int32_t a1 __asm__("r1") = (ACC)[1];                          \
        register int32_t a2 __asm__("r2") = (ACC)[2];                          \
        register int32_t a3 __asm__("r3") = (ACC)[3];                          \
        register const uint32_t *xr __asm__("r12") = (X);                      \
        register const uint32_t *wr __asm__("r9") = (W);                       \
        DECL;                                                                  \
        __asm__(TEXT                                                           \
                : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(xr), "+r"(wr)   \
                : IN                                                           \
                : "r4", "r5", "r6", "r8", "r10", "r11", "cc", "memory");       \
        (ACC)[0] = a0;                                                         \
        (ACC)[1] = a1;                                                         \
        (ACC)[2] = a2;                                                         \
        (ACC)[3] = a3;                                                         \
        (X) = xr;                                                              \
        (W) = wr;                                                              \
    } while (0)
/* te:end */

/* te:section te_conv2d_dsp_block */
/* acc[0..3] (pixel a ch 0, a ch 1, b ch 0, b ch 1) over `groups` groups of
 * the interleaved patches x and the pair's weight words w: 4 groups an
 * iteration until lr (r7 saved around them), then 2, then 1 (without r7:
 * a PUSH and a POP would cost more than they save). */
TE_CONV2D_DSP_INLINE void te_conv2d_dsp_block(const uint32_t *x, const uint32_t *w, int groups,
                                             int32_t *acc)
{
    const uint32_t *end = x + 16 * (groups >> 2);
    if (x != end)
        TE_CONV2D_DSP_ASM(acc, x, w, "r"(er), register const uint32_t *er __asm__("lr") = end,
                          "push {r7}\n\t"
                          "1:\n\t" TE_CONV2D_DSP_GROUP TE_CONV2D_DSP_GROUP TE_CONV2D_DSP_GROUP
                              TE_CONV2D_DSP_GROUP "cmp r12, lr\n\t"
                                                  "bne 1b\n\t"
                                                  "pop {r7}\n\t");
    if (groups & 2)
        TE_CONV2D_DSP_ASM(acc, x, w, , (void)0,
                          TE_CONV2D_DSP_GROUP_LDR TE_CONV2D_DSP_GROUP_LDR);
    if (groups & 1)
        TE_CONV2D_DSP_ASM(acc, x, w, , (void)0, TE_CONV2D_DSP_GROUP_LDR);
}
/* te:end */
#else
/* te:section te_conv2d_dsp_block */
TE_CONV2D_DSP_INLINE void te_conv2d_dsp_block(const uint32_t *x, const uint32_t *w, int groups,
                                             int32_t *acc)
{
    int32_t a0 = acc[0], a1 = acc[1], b0 = acc[2], b1 = acc[3];
    const uint32_t *end = w + 2 * groups;
    while (w != end) {
        const uint32_t xa02 = x[0], xa13 = x[1], xb02 = x[2], xb13 = x[3];
        const uint32_t w0 = w[0], w1 = w[1];
        uint32_t u = te_sxtb16(w0), v = te_sxtb16_ror8(w0);
        a0 = te_smlad(u, xa02, a0);
        b0 = te_smlad(u, xb02, b0);
        a0 = te_smlad(v, xa13, a0);
        b0 = te_smlad(v, xb13, b0);
        u = te_sxtb16(w1);
        v = te_sxtb16_ror8(w1);
        a1 = te_smlad(u, xa02, a1);
        b1 = te_smlad(u, xb02, b1);
        a1 = te_smlad(v, xa13, a1);
        b1 = te_smlad(v, xb13, b1);
        x += 4;
        w += 2;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = b0;
    acc[3] = b1;
}
/* te:end */
#endif

#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__OPTIMIZE__) && \
    defined(__thumb2__)
#define TE_CONV2D_DSP_PAIRS_ASM 1
/* te:section TE_CONV2D_DSP_RQ */
/* Accumulator A (doubled) requantized with the fast entry {m, H, e} in
 * M H E and saturated to int8, in r12: SMMLAR gives H + smmulr(A, m). */
#define TE_CONV2D_DSP_RQ(A, M, H, E)                                           \
    "smmlar r12, " A ", " M ", " H "\n\t"                                      \
    "add r12, r12, " A ", asr #31\n\t"                                         \
    "asr r12, r12, " E "\n\t"                                                  \
    "ssat r12, #8, r12\n\t"
/* te:end */

/* te:section TE_CONV2D_DSP_PAIRS */
/* The loop over channel pairs: the record at [q] (2 biases, 2 entries;
 * [q] advanced by one record a pair) until [qe]; the patches from [x]
 * to [xe]: PRE (loads) and R the first groups % 4, then 4 groups an
 * iteration (r7 saved around them); outputs at [o] (pixel a) and [o] + [pb] (pixel
 * b), [o] advanced by 2 a pair. */
#define TE_CONV2D_DSP_PAIRS(PRE, R)                                            \
    "0:\n\t"                                                                   \
    "ldr r10, %[q]\n\t"                                                        \
    "ldrd r0, r1, [r10]\n\t"                                                   \
    "ldrd r2, r3, [r10]\n\t"                                                   \
    "ldr r12, %[x]\n\t"                                                        \
    "ldr lr, %[xe]\n\t" PRE                                                    \
    R "cmp r12, lr\n\t"                                                        \
    "beq 1f\n\t"                                                               \
    "push {r7}\n\t"                                                            \
    "4:\n\t" TE_CONV2D_DSP_GROUP TE_CONV2D_DSP_GROUP TE_CONV2D_DSP_GROUP       \
        TE_CONV2D_DSP_GROUP                                                    \
    "cmp r12, lr\n\t"                                                          \
    "bne 4b\n\t"                                                               \
    "pop {r7}\n\t"                                                             \
    "1:\n\t"                                                                   \
    "ldr r10, %[q]\n\t"                                                        \
    "add r10, r10, #8\n\t"                                                     \
    "ldm r10!, {r4, r5, r6}\n\t"                                               \
    "ldr lr, %[o]\n\t"                                                         \
    "ldr r11, %[pb]\n\t" TE_CONV2D_DSP_RQ("r0", "r4", "r5", "r6")              \
    "strb r12, [lr]\n\t" TE_CONV2D_DSP_RQ("r2", "r4", "r5", "r6")              \
    "strb r12, [lr, r11]\n\t"                                                  \
    "ldm r10!, {r4, r5, r6}\n\t" TE_CONV2D_DSP_RQ("r1", "r4", "r5", "r6")      \
    "strb r12, [lr, #1]!\n\t" TE_CONV2D_DSP_RQ("r3", "r4", "r5", "r6")         \
    "strb r12, [lr, r11]\n\t"                                                  \
    "add lr, lr, #1\n\t"                                                       \
    "str lr, %[o]\n\t"                                                         \
    "str r10, %[q]\n\t"                                                        \
    "ldr lr, %[qe]\n\t"                                                        \
    "cmp r10, lr\n\t"                                                          \
    "bne 0b\n\t"
/* te:end */
/* te:section TE_CONV2D_DSP_PAIRS_OPS */
#define TE_CONV2D_DSP_PAIRS_OPS                                                \
    : [q] "+m"(c_q), [o] "+m"(c_o), [w] "+r"(wr)                               \
    : [x] "m"(c_x), [xe] "m"(c_xend), [rem] "m"(c_rem), [pb] "m"(c_pb),        \
      [qe] "m"(c_qend)                                                         \
    : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r10", "r11", "r12", "lr", "cc", "memory"
/* te:end */

/* te:section te_conv2d_dsp_pairs_asm */
/* The first `pairs` channel pairs of pixels a (outputs o) and b (outputs
 * o + pb) in one loop, fast entries, full int8 range: biases and entries
 * from the pair records qr, the patches x of `groups` groups, weights w. */
static inline TE_UNUSED void te_conv2d_dsp_pairs_asm(const uint32_t *x, int groups,
                                                    const uint32_t *w, const int32_t *qr,
                                                    int8_t *o, long pb, int pairs)
{
    const uint32_t *c_x = x, *c_xend = x + 4 * groups;
    const int32_t *c_q = qr, *c_qend = qr + 8 * pairs;
    int8_t *c_o = o;
    long c_pb = pb;
    int c_rem = groups & 3;
    register const uint32_t *wr __asm__("r9") = w;
    if (pairs <= 0)
        return;
    if (c_rem)
        __asm__ volatile(TE_CONV2D_DSP_PAIRS("ldr r4, %[rem]\n\t",
                                             TE_CONV2D_DSP_REM(TE_CONV2D_DSP_GROUP_LDR))
                             TE_CONV2D_DSP_PAIRS_OPS);
    else
        __asm__ volatile(TE_CONV2D_DSP_PAIRS("", "") TE_CONV2D_DSP_PAIRS_OPS);
}
/* te:end */
#endif

/* te:section te_conv2d_dsp_pair */
/* Every channel pair of pixels a (outputs oa) and b (ob, NULL: not
 * stored) over their interleaved patches x; qr: the pair records. */
TE_CONV2D_DSP_INLINE void te_conv2d_dsp_pair(const te_conv2d_dsp_params *p, const uint32_t *x,
                                            const uint32_t *w, const int32_t *qr, int8_t *oa,
                                            int8_t *ob, int mode)
{
    const int groups = p->k_pad / 4;
    int c = 0;
#if defined(TE_CONV2D_DSP_PAIRS_ASM)
    if (mode == 2) { /* all whole pairs in one loop (b = a when there is no b) */
        te_conv2d_dsp_pairs_asm(x, groups, w, qr, oa, ob ? ob - oa : 0, p->out_c / 2);
        c = p->out_c & ~1;
        w += (long)c * groups;
        qr += 4 * c;
    }
#endif
    for (; c < p->out_c; c += 2, w += 2 * groups, qr += 8) {
        int32_t acc[4];
        acc[0] = acc[2] = qr[0];
        acc[1] = acc[3] = qr[1];
        te_conv2d_dsp_block(x, w, groups, acc);
        oa[c] = te_conv2d_dsp_out(p, acc[0], qr + 2, mode);
        if (ob)
            ob[c] = te_conv2d_dsp_out(p, acc[2], qr + 2, mode);
        if (c + 1 < p->out_c) {
            oa[c + 1] = te_conv2d_dsp_out(p, acc[1], qr + 5, mode);
            if (ob)
                ob[c + 1] = te_conv2d_dsp_out(p, acc[3], qr + 5, mode);
        }
    }
}
/* te:end */

/* te:section te_conv2d_dsp_next */
/* (b, oy, ox) to the next output pixel. */
TE_CONV2D_DSP_INLINE void te_conv2d_dsp_next(const te_conv2d_dsp_params *p, int *b, int *oy,
                                            int *ox)
{
    if (++*ox == p->out_w) {
        *ox = 0;
        if (++*oy == p->out_h) {
            *oy = 0;
            ++*b;
        }
    }
}
/* te:end */

/* te:section te_conv2d_dsp_gather_range */
/* Patch elements [k0, k0 + n) of the pixel at (iy0, ix0) into d, run by
 * run (the channels of one tap inside the input are contiguous): padding
 * taps hold the input zero point, elements past K zero. */
static inline TE_UNUSED void te_conv2d_dsp_gather_range(const te_conv2d_dsp_params *p,
                                                       const int8_t *in_b, int iy0, int ix0,
                                                       int k0, int n, int8_t *d)
{
    const int c = p->in_c, taps = p->k_h * p->k_w;
    int t = k0 / c, ch = k0 % c;
    while (n > 0 && t < taps) {
        const int iy = iy0 + (t / p->k_w) * p->dil_h, ix = ix0 + (t % p->k_w) * p->dil_w;
        const int run = TE_MIN(c - ch, n);
        if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
            te_conv2d_dsp_fill(d, (int8_t)p->input_zp, run);
        else
            te_conv2d_dsp_copy(d, in_b + ((long)iy * p->in_w + ix) * c + ch, run);
        d += run;
        n -= run;
        ch = 0;
        t++;
    }
    te_conv2d_dsp_fill(d, 0, n);
}
/* te:end */

/* te:section te_conv2d_dsp_job */
/* Pixels a and b of te_conv2d_dsp_chunked, written at the start of its
 * buffer (its arguments passed in registers: no stacked arguments in the
 * caller's frame, which holds the stack buffer). */
typedef struct {
    const int8_t *in_a, *in_b;  /* their batches' inputs */
    int ya, xa, yb, xb;         /* their patches' top left taps */
    int8_t *oa, *ob;            /* their outputs (ob NULL: b not stored) */
    int mode, n_words;          /* te_conv2d_dsp_out mode; words of the buffer */
} te_conv2d_dsp_job;
/* te:end */

/* te:section te_conv2d_dsp_chunked */
/* Every channel of the job's pixels a and b (ob NULL: b is a again, not
 * stored) with the patches a slice of K at a time in buf after the job
 * (n_words in all, at least 9 past the job): the accumulators of a block
 * of channel pairs (4 words a pair), then per slice of groups both widened
 * patch slices (4 words a group) and the bytes of one (1 word a group);
 * the same sums in the same order modulo 2^32, so the same outputs. */
static TE_UNUSED void te_conv2d_dsp_chunked(const te_conv2d_dsp_params *p, const uint32_t *w,
                                           const int32_t *qr, uint32_t *buf)
{
    const te_conv2d_dsp_job *job = (const te_conv2d_dsp_job *)(void *)buf;
    const int mode = job->mode;
    const int skip = (int)((sizeof *job + 3) / 4), n_words = job->n_words - skip;
    const int groups = p->k_pad / 4, pairs = (p->out_c + 1) / 2;
    const int most = TE_MAX(1, TE_MIN(pairs, n_words / 8)); /* pairs a block */
    const int blocks = (pairs + most - 1) / most, cp = (pairs + blocks - 1) / blocks;
    const int n = TE_MIN((n_words - 4 * cp) / 5, groups); /* groups a slice */
    int32_t *acc = (int32_t *)(void *)(buf + skip);
    uint32_t *x = buf + skip + 4 * cp;
    int8_t *bytes = (int8_t *)(x + 4 * n);
    int p0, j, g0;
    for (p0 = 0; p0 < pairs; p0 += cp) {
        const int np = TE_MIN(cp, pairs - p0);
        for (j = 0; j < np; j++) {
            const int32_t *r = qr + 8 * (p0 + j);
            acc[4 * j] = acc[4 * j + 2] = r[0];
            acc[4 * j + 1] = acc[4 * j + 3] = r[1];
        }
        for (g0 = 0; g0 < groups; g0 += n) {
            const int ng = TE_MIN(n, groups - g0);
            te_conv2d_dsp_gather_range(p, job->in_a, job->ya, job->xa, 4 * g0, 4 * ng, bytes);
            te_conv2d_dsp_widen(x, bytes, 4 * ng, mode != 0);
            te_conv2d_dsp_gather_range(p, job->in_b, job->yb, job->xb, 4 * g0, 4 * ng, bytes);
            te_conv2d_dsp_widen(x + 2, bytes, 4 * ng, mode != 0);
            for (j = 0; j < np; j++)
                te_conv2d_dsp_block(x, w + (long)(p0 + j) * 2 * groups + 2 * g0, ng,
                                    acc + 4 * j);
        }
        for (j = 0; j < np; j++) {
            const int c = 2 * (p0 + j);
            const int32_t *r = qr + 8 * (p0 + j);
            job->oa[c] = te_conv2d_dsp_out(p, acc[4 * j], r + 2, mode);
            if (job->ob)
                job->ob[c] = te_conv2d_dsp_out(p, acc[4 * j + 2], r + 2, mode);
            if (c + 1 < p->out_c) {
                job->oa[c + 1] = te_conv2d_dsp_out(p, acc[4 * j + 1], r + 5, mode);
                if (job->ob)
                    job->ob[c + 1] = te_conv2d_dsp_out(p, acc[4 * j + 3], r + 5, mode);
            }
        }
    }
}
/* te:end */

/* te:section te_conv2d_dsp_run */
/* Patches in scratch when given, else in the part of the output not
 * written yet (4-aligned; not for a strided output), else on the stack
 * when they fit TE_CONV2D_DSP_STACK bytes, else a slice of K at a time on
 * the stack (te_conv2d_dsp_chunked; at least 96 bytes). */
TE_CONV2D_DSP_INLINE void te_conv2d_dsp_run(const te_conv2d_dsp_params *p, const int8_t *input,
                                           const uint32_t *w, const int32_t *qr, int8_t *output,
                                           void *scratch, int mode)
{
    const long n_pix = (long)p->batches * p->out_h * p->out_w;
    const long pitch = p->out_stride > p->out_c ? p->out_stride : p->out_c;
    const long in_plane = (long)p->in_h * p->in_w * p->in_c;
    const long need = 5L * p->k_pad + 3; /* patches and bytes, alignment */
    int8_t *o = output, *const o_end = output + n_pix * pitch;
    uint32_t stack[TE_CONV2D_DSP_STACK / 4 > 24 ? TE_CONV2D_DSP_STACK / 4 : 24];
    int b = 0, oy = 0, ox = 0; /* pixel a */
    long i;
    for (i = 0; i < n_pix; i += 2, o += 2 * pitch) {
        const int two = i + 1 < n_pix;
        int8_t *spare = scratch ? (int8_t *)scratch : o + (two ? 2 : 1) * pitch;
        int bb = b, yb = oy, xb = ox; /* pixel b: the next, or a again */
        if (two)
            te_conv2d_dsp_next(p, &bb, &yb, &xb);
        if (!scratch && (pitch != p->out_c || o_end - spare < need))
            spare = need <= TE_CONV2D_DSP_STACK ? (int8_t *)stack : NULL;
        if (spare) {
            uint32_t *x = (uint32_t *)(void *)(spare + ((4u - (unsigned)((uintptr_t)spare & 3u)) & 3u));
            int8_t *bytes = (int8_t *)(x + p->k_pad);
            te_conv2d_dsp_build(p, input + b * in_plane, oy * p->stride_h - p->pad_top,
                                ox * p->stride_w - p->pad_left, x, 0, bytes, mode != 0);
            te_conv2d_dsp_build(p, input + bb * in_plane, yb * p->stride_h - p->pad_top,
                                xb * p->stride_w - p->pad_left, x, 2, bytes, mode != 0);
            te_conv2d_dsp_pair(p, x, w, qr, o, two ? o + pitch : NULL, mode);
        } else {
            te_conv2d_dsp_job *job = (te_conv2d_dsp_job *)(void *)stack;
            job->in_a = input + b * in_plane;
            job->in_b = input + bb * in_plane;
            job->ya = oy * p->stride_h - p->pad_top;
            job->xa = ox * p->stride_w - p->pad_left;
            job->yb = yb * p->stride_h - p->pad_top;
            job->xb = xb * p->stride_w - p->pad_left;
            job->oa = o;
            job->ob = two ? o + pitch : NULL;
            job->mode = mode;
            job->n_words = (int)(sizeof stack / sizeof stack[0]);
            te_conv2d_dsp_chunked(p, w, qr, stack);
        }
        b = bb;
        oy = yb;
        ox = xb;
        te_conv2d_dsp_next(p, &b, &oy, &ox);
    }
}
/* te:end */

/* te:section te_conv2d_dsp_s8 */
TE_KERNEL void te_conv2d_dsp_s8(const te_conv2d_dsp_params *p, const int8_t *input,
                                const int32_t *w, const int32_t *qr, int8_t *output,
                                void *scratch)
{
    const uint32_t *wu = (const uint32_t *)(const void *)w; /* int32 read as uint32 */
    if (!p->fast_rq)
        te_conv2d_dsp_run(p, input, wu, qr, output, scratch, 0);
    else if (p->act_min <= -128 && p->act_max >= 127)
        te_conv2d_dsp_run(p, input, wu, qr, output, scratch, 2);
    else
        te_conv2d_dsp_run(p, input, wu, qr, output, scratch, 1);
}
/* te:end */

#endif
