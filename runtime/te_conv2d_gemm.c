/* te_conv2d_gemm.c - fast CONV_2D int8 kernel (see te_conv2d_gemm.h):
 * output pixels in order; for each, every block of 4 output channels is 4
 * dot products over the pixel's patch (each input loaded once for the
 * four), requantized and stored.  Accumulation wraps modulo 2^32 like
 * TFLite's int32 accumulator, without signed-overflow UB.
 *
 * Which way a pixel goes depends on the
 * room left in the output tensor after its own outputs (not written yet):
 *  - room for its patch widened to int16: built there, then read (the
 *    usual case; pointwise layers on a DSP core build many pixels at once);
 *  - room for its bytes only (or 64 bytes of stack suffice): gathered there,
 *    widened while read;
 *  - no room (the last few pixels): the input read in place, row segment by
 *    row segment, padding taps from zp_row; when segments do not fall on
 *    weight groups (DSP, in_c not a multiple of 4), the patch in pieces.
 * A strided output (a channel slice) or one written over its input (a
 * pointwise layer in place, out_stride == out_c) has no such room: its
 * patches go to the work area the call provides, each pixel's read whole
 * before its outputs are stored, which never reach a later pixel's input
 * (out_c <= in_c).
 * With TE_TARGET_DSP the dot products are SMLADs on int16 pairs: assembly
 * loops on an Armv7E-M core (the pixel's blocks, requantization included,
 * in one loop for the common case), the te_smlad primitive elsewhere.
 * Otherwise int16 loops over contiguous memory that compilers vectorise;
 * on x86 with SSE2 (every x86-64) explicit vectors instead: PMADDWD over 8
 * patch elements, 8 channels per pass, one reduction per pass, the fast
 * requantization 4 channels at a time (exact: integer arithmetic only). */
#include "te_common.h"
#include "te_conv2d_gemm.h"

/* For the helpers that must be specialised on their constant arguments
 * wherever they are called. */
#if defined(__GNUC__)
#define TE_CONV2D_GEMM_INLINE static inline __attribute__((always_inline)) TE_UNUSED
#else
#define TE_CONV2D_GEMM_INLINE static inline TE_UNUSED
#endif

/* ---- requantization ----------------------------------------------------- */

/* (a * b + 2^31) >> 32 (SMMULR). */
#if defined(TE_TARGET_DSP) && defined(__ARM_FEATURE_DSP) && defined(__GNUC__)
/* te:section te_conv2d_gemm_smmulr */
TE_CONV2D_GEMM_INLINE int32_t te_conv2d_gemm_smmulr(int32_t a, int32_t b)
{
    int32_t r;
    __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* te:end */
#else
/* te:section te_conv2d_gemm_smmulr */
TE_CONV2D_GEMM_INLINE int32_t te_conv2d_gemm_smmulr(int32_t a, int32_t b)
{
    return (int32_t)(((int64_t)a * b + 2147483648LL) >> 32);
}
/* te:end */
#endif

/* te:section te_conv2d_gemm_rq_fast */
/* TFLite MultiplyByQuantizedMultiplier(acc, m, -e) + output zero point for
 * the accumulator held doubled, acc2 = 2 * acc, |acc| < 2^29, from the
 * entry {m, H, e} of te_convfam_fast_requant (src/ops/conv_family.h):
 * (smmulr(acc2, m) + H - [acc < 0]) >> e. */
TE_CONV2D_GEMM_INLINE int32_t te_conv2d_gemm_rq_fast(int32_t acc2, const int32_t *q)
{
    uint32_t x = (uint32_t)te_conv2d_gemm_smmulr(acc2, q[0]);
    return (int32_t)(x + (uint32_t)q[1] - ((uint32_t)acc2 >> 31)) >> q[2];
}
/* te:end */

/* te:section te_conv2d_gemm_rq_exact */
/* The reference arithmetic, for any multiplier and shift ({mult, shift, 0}). */
TE_CONV2D_GEMM_INLINE int32_t te_conv2d_gemm_rq_exact(int32_t acc, const int32_t *q, int32_t zp)
{
    return (int32_t)((uint32_t)te_mul_by_quant_mult(acc, q[0], (int)q[1]) + (uint32_t)zp);
}
/* te:end */

/* v clamped to [-128, 127] (SSAT on a DSP core; the builtin, as gcc's __ssat
 * macro fails -Wsign-conversion). */
#if defined(TE_TARGET_DSP) && defined(__ARM_FEATURE_DSP)
/* te:section te_conv2d_gemm_sat8 */
TE_CONV2D_GEMM_INLINE int32_t te_conv2d_gemm_sat8(int32_t v)
{
    return (int32_t)__builtin_arm_ssat(v, 8);
}
/* te:end */
#else
/* te:section te_conv2d_gemm_sat8 */
TE_CONV2D_GEMM_INLINE int32_t te_conv2d_gemm_sat8(int32_t v) { return te_clamp_i32(v, -128, 127); }
/* te:end */
#endif

/* te:section te_conv2d_gemm_out */
/* mode: 0 exact, 1 fast, 2 fast with the full int8 range as clamp bounds. */
TE_CONV2D_GEMM_INLINE int8_t te_conv2d_gemm_out(const te_conv2d_gemm_params *p, int32_t acc,
                                               const int32_t *q, int mode)
{
    if (mode == 0)
        return (int8_t)te_clamp_i32(te_conv2d_gemm_rq_exact(acc, q, p->output_offset),
                                    p->act_min, p->act_max);
    if (mode == 1)
        return (int8_t)te_clamp_i32(te_conv2d_gemm_rq_fast(acc, q), p->act_min, p->act_max);
    return (int8_t)te_conv2d_gemm_sat8(te_conv2d_gemm_rq_fast(acc, q));
}
/* te:end */

/* ---- bytes of a patch -------------------------------------------------- */

/* te:section te_conv2d_gemm_fill */
static inline TE_UNUSED void te_conv2d_gemm_fill(int8_t *d, int8_t v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        d[i] = v;
}
/* te:end */

/* te:section te_conv2d_gemm_copy */
static inline TE_UNUSED void te_conv2d_gemm_copy(int8_t *d, const int8_t *s, int n)
{
    int i = 0;
#if defined(TE_TARGET_DSP)
    for (; i + 4 <= n; i += 4) { /* word by word (one LDR, one STR on a Cortex-M) */
        uint32_t v = te_read_u32(s + i);
        uint8_t *b = (uint8_t *)d + i;
        b[0] = (uint8_t)v;
        b[1] = (uint8_t)(v >> 8);
        b[2] = (uint8_t)(v >> 16);
        b[3] = (uint8_t)(v >> 24);
    }
#endif
    for (; i < n; i++)
        d[i] = s[i];
}
/* te:end */

/* te:section te_conv2d_gemm_gather_part */
/* Bytes k0..k0+n of the patch at (iy0, ix0) into d: padding taps read the
 * input zero point, elements past K are 0.  Run by run: a filter row's taps
 * inside the input are contiguous there (dil_w == 1), else tap by tap. */
static inline TE_UNUSED void te_conv2d_gemm_gather_part(const te_conv2d_gemm_params *p,
                                                       const int8_t *in_b, int iy0, int ix0,
                                                       int k0, int n, int8_t *d)
{
    const int c = p->in_c, row_len = p->k_w * c, K = p->k_h * row_len, end = k0 + n;
    const int lo = TE_MIN(ix0 < 0 ? -ix0 : 0, p->k_w) * c;        /* inside: [lo, hi) */
    const int hi = TE_MAX(TE_MIN(p->in_w - ix0, p->k_w) * c, lo); /* of a row's bytes */
    int k = k0;
    while (k < end && k < K) {
        const int ky = k / row_len, off = k - ky * row_len, iy = iy0 + ky * p->dil_h;
        const int8_t *src = NULL; /* NULL: padding */
        int run = row_len - off;  /* to the end of the filter row */
        if (iy >= 0 && iy < p->in_h && p->dil_w == 1) {
            run = (off < lo ? lo : off < hi ? hi : row_len) - off;
            if (off >= lo && off < hi)
                src = in_b + ((long)iy * p->in_w + ix0) * c + off;
        } else if (iy >= 0 && iy < p->in_h) {
            const int kx = off / c, ix = ix0 + kx * p->dil_w;
            run = (kx + 1) * c - off; /* to the end of the tap */
            if (ix >= 0 && ix < p->in_w)
                src = in_b + ((long)iy * p->in_w + ix) * c + off - kx * c;
        }
        run = TE_MIN(run, end - k);
        if (src)
            te_conv2d_gemm_copy(d, src, run);
        else
            te_conv2d_gemm_fill(d, (int8_t)p->input_zp, run);
        d += run;
        k += run;
    }
    if (k < end)
        te_conv2d_gemm_fill(d, 0, end - k);
}
/* te:end */

/* te:section te_conv2d_gemm_gather */
/* The K bytes of the patch at (iy0, ix0). */
static inline TE_UNUSED void te_conv2d_gemm_gather(const te_conv2d_gemm_params *p,
                                                  const int8_t *in_b, int iy0, int ix0, int8_t *d)
{
    const int c = p->in_c, row_len = p->k_w * c;
    int ky;
    if (p->dil_w == 1 && iy0 >= 0 && ix0 >= 0 && iy0 + (p->k_h - 1) * p->dil_h < p->in_h &&
        ix0 + p->k_w <= p->in_w) { /* inside the input: whole filter rows */
        for (ky = 0; ky < p->k_h; ky++, d += row_len)
            te_conv2d_gemm_copy(d, in_b + ((long)(iy0 + ky * p->dil_h) * p->in_w + ix0) * c,
                                row_len);
        return;
    }
    te_conv2d_gemm_gather_part(p, in_b, iy0, ix0, 0, p->k_h * row_len, d);
}
/* te:end */

#if defined(TE_TARGET_DSP)
/* ---- weights and dot products: DSP layout ------------------------------ */

/* Patch elements per weight group: segments read directly must start and
 * end on group boundaries. */
#define TE_CONV2D_GEMM_GROUP 4

/* The patch of the expanded path: words (x0,x2) (x1,x3) per group. */
typedef uint32_t te_conv2d_gemm_px;
/* The weights as the kernel reads them. */
typedef uint32_t te_conv2d_gemm_wi;

/* te:section te_conv2d_gemm_wq */
/* Weights of channels 4q.. from patch element k0 (a multiple of 4). */
TE_CONV2D_GEMM_INLINE const uint32_t *te_conv2d_gemm_wq(const te_conv2d_gemm_params *p,
                                                       const uint32_t *w, int q, int k0)
{
    return w + ((long)q * (p->k_pad / 4) + k0 / 4) * 8;
}
/* te:end */

/* te:section te_conv2d_gemm_put_c */
/* n bytes (a multiple of 4) from src as patch elements k0.. (a multiple of 4). */
static inline TE_UNUSED void te_conv2d_gemm_put_c(uint32_t *patch, int k0, const int8_t *src,
                                                 int n)
{
    uint32_t *d = patch + k0 / 2;
    const int8_t *end = src + n;
    for (; src != end; src += 4, d += 2) {
        uint32_t v = te_read_u32(src);
        d[0] = te_sxtb16(v);
        d[1] = te_sxtb16_ror8(v);
    }
}
/* te:end */

#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__OPTIMIZE__) && \
    defined(__thumb2__)
/* One group: the input words (x0,x2) (x1,x3) in r10 r11 (from r12), the 4
 * channels' weight words through r4 r5 r6 r8 (two channels per LDM, from
 * r9), the 4 accumulators in r0..r3. */
#define TE_CONV2D_GEMM_XE "ldrd r10, r11, [r12], #8\n\t"
/* te:section TE_CONV2D_GEMM_XD */
#define TE_CONV2D_GEMM_XD                                                      \
    "ldr r11, [r12], #4\n\t"                                                   \
    "sxtb16 r10, r11\n\t"                                                      \
    "sxtb16 r11, r11, ror #8\n\t"
/* te:end */
/* te:section TE_CONV2D_GEMM_W4 */
#define TE_CONV2D_GEMM_W4                                                      \
    "ldm r9!, {r4, r5, r6, r8}\n\t"                                            \
    "smlad r0, r4, r10, r0\n\t"                                                \
    "smlad r0, r5, r11, r0\n\t"                                                \
    "smlad r1, r6, r10, r1\n\t"                                                \
    "smlad r1, r8, r11, r1\n\t"                                                \
    "ldm r9!, {r4, r5, r6, r8}\n\t"                                            \
    "smlad r2, r4, r10, r2\n\t"                                                \
    "smlad r2, r5, r11, r2\n\t"                                                \
    "smlad r3, r6, r10, r3\n\t"                                                \
    "smlad r3, r8, r11, r3\n\t"
/* te:end */
/* One group of the expanded patch / of input bytes. */
#define TE_CONV2D_GEMM_GE TE_CONV2D_GEMM_XE TE_CONV2D_GEMM_W4
#define TE_CONV2D_GEMM_GD TE_CONV2D_GEMM_XD TE_CONV2D_GEMM_W4
/* te:section TE_CONV2D_GEMM_LOOP4 */
/* 4 groups G per iteration until r12 reaches lr. */
#define TE_CONV2D_GEMM_LOOP4(G)                                                \
    "1:\n\t" G G G G                                                           \
    "cmp r12, lr\n\t"                                                          \
    "bne 1b\n\t"
/* te:end */

/* te:section TE_CONV2D_GEMM_MAC_ASM */
/* One asm statement of the loops below: accumulators ACC[0..3] in r0..r3,
 * patch pointer X in r12 and weights W in r9 (both advanced), extra input
 * operand IN bound by DECL.  Register variables hold their register only
 * at the asm statement: values are copied in just before, out just after. */
#define TE_CONV2D_GEMM_MAC_ASM(ACC, X, W, IN, DECL, TEXT)                      \
    do {                                                                       \
        register int32_t a0 __asm__("r0") = (ACC)[0];                          \
        register int32_t a1 __asm__("r1") = (ACC)[1];                          \
        register int32_t a2 __asm__("r2") = (ACC)[2];                          \
        register int32_t a3 __asm__("r3") = (ACC)[3];                          \
        register const void *xr __asm__("r12") = (X);                          \
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

/* te:section te_conv2d_gemm_mac_e */
/* acc[j] += channel 4q+j over `groups` groups of the expanded patch x;
 * returns the weights that follow. */
TE_CONV2D_GEMM_INLINE const uint32_t *te_conv2d_gemm_mac_e(const uint32_t *x, const uint32_t *w,
                                                          int groups, int32_t *acc)
{
    const uint32_t *end = x + 2 * (groups & ~3);
    if (x != end)
        TE_CONV2D_GEMM_MAC_ASM(acc, x, w, "r"(er), register const uint32_t *er __asm__("lr") = end,
                               TE_CONV2D_GEMM_LOOP4(TE_CONV2D_GEMM_GE));
    if (groups & 2)
        TE_CONV2D_GEMM_MAC_ASM(acc, x, w, , (void)0, TE_CONV2D_GEMM_GE TE_CONV2D_GEMM_GE);
    if (groups & 1)
        TE_CONV2D_GEMM_MAC_ASM(acc, x, w, , (void)0, TE_CONV2D_GEMM_GE);
    return w;
}
/* te:end */

/* te:section te_conv2d_gemm_mac_d */
/* The same over `groups` groups of input bytes read directly. */
TE_CONV2D_GEMM_INLINE const uint32_t *te_conv2d_gemm_mac_d(const int8_t *x, const uint32_t *w,
                                                          int groups, int32_t *acc)
{
    const int8_t *end = x + 4 * (groups & ~3);
    if (x != end)
        TE_CONV2D_GEMM_MAC_ASM(acc, x, w, "r"(er), register const int8_t *er __asm__("lr") = end,
                               TE_CONV2D_GEMM_LOOP4(TE_CONV2D_GEMM_GD));
    if (groups & 2)
        TE_CONV2D_GEMM_MAC_ASM(acc, x, w, , (void)0, TE_CONV2D_GEMM_GD TE_CONV2D_GEMM_GD);
    if (groups & 1)
        TE_CONV2D_GEMM_MAC_ASM(acc, x, w, , (void)0, TE_CONV2D_GEMM_GD);
    return w;
}
/* te:end */

/* te:section TE_CONV2D_GEMM_RQ2 */
/* Requantizes (fast entries, int8 clamp) accumulators A and B with the
 * entries {m, H, e} in r4 r5 r6 / r8 r10 r11 and stores them at [lr],
 * advancing it: SMMLAR gives H + smmulr(acc, m) in one instruction. */
#define TE_CONV2D_GEMM_RQ2(A, B)                                               \
    "smmlar r5, " A ", r4, r5\n\t"                                             \
    "add r5, r5, " A ", asr #31\n\t"                                           \
    "asr r5, r5, r6\n\t"                                                       \
    "ssat r5, #8, r5\n\t"                                                      \
    "strb r5, [lr], #1\n\t"                                                    \
    "smmlar r10, " B ", r8, r10\n\t"                                           \
    "add r10, r10, " B ", asr #31\n\t"                                         \
    "asr r10, r10, r11\n\t"                                                    \
    "ssat r10, #8, r10\n\t"                                                    \
    "strb r10, [lr], #1\n\t"
/* te:end */
/* te:section TE_CONV2D_GEMM_REM */
/* groups % 4 more groups (lr free) */
#define TE_CONV2D_GEMM_REM(G)                                                  \
    "ldr lr, %[rem]\n\t"                                                       \
    "tst lr, #2\n\t"                                                           \
    "beq 3f\n\t" G G                                                           \
    "3:\n\t"                                                                   \
    "tst lr, #1\n\t"                                                           \
    "beq 2f\n\t" G
/* te:end */

/* te:section TE_CONV2D_GEMM_PIXEL */
/* The pixel loop over channel blocks: biases from the record at [q], the
 * patch from [x] to [xe] (4 groups loaded by G per iteration) and the
 * remainder R, requantization with the record's entries, outputs at [o],
 * until the record pointer reaches [qe]. */
#define TE_CONV2D_GEMM_PIXEL(G, R)                                             \
    "0:\n\t"                                                                   \
    "ldr r12, %[q]\n\t"                                                        \
    "ldm r12, {r0, r1, r2, r3}\n\t"                                            \
    "ldr lr, %[xe]\n\t"                                                        \
    "ldr r12, %[x]\n\t"                                                        \
    "cmp r12, lr\n\t"                                                          \
    "beq 1f\n\t"                                                               \
    "4:\n\t" G G G G                                                           \
    "cmp r12, lr\n\t"                                                          \
    "bne 4b\n\t"                                                               \
    "1:\n\t" R                                                                 \
    "2:\n\t"                                                                   \
    "ldr r12, %[q]\n\t"                                                        \
    "ldr lr, %[o]\n\t"                                                         \
    "add r12, r12, #16\n\t"                                                    \
    "ldm r12!, {r4, r5, r6, r8, r10, r11}\n\t" TE_CONV2D_GEMM_RQ2("r0", "r1")  \
    "ldm r12!, {r4, r5, r6, r8, r10, r11}\n\t" TE_CONV2D_GEMM_RQ2("r2", "r3")  \
    "str r12, %[q]\n\t"                                                        \
    "str lr, %[o]\n\t"                                                         \
    "ldr r4, %[qe]\n\t"                                                        \
    "cmp r12, r4\n\t"                                                          \
    "bne 0b\n\t" TE_CONV2D_GEMM_NEXT_PIXEL("r12")                              \
    "add r12, r12, r4\n\t"                                                     \
    "str r12, %[x]\n\t"                                                        \
    "ldr r12, %[xe]\n\t"                                                       \
    "add r12, r12, r4\n\t"                                                     \
    "str r12, %[xe]\n\t"                                                       \
    "b 0b\n\t"                                                                 \
    "6:\n\t"
/* te:end */
/* te:section TE_CONV2D_GEMM_NEXT_PIXEL */
/* After a pixel's last block: done (to 6f) when it was the last pixel, else
 * weights and records back to their start, the patch stride in r4 and the
 * patch pointer in X (to advance). */
#define TE_CONV2D_GEMM_NEXT_PIXEL(X)                                           \
    "ldr r4, %[np]\n\t"                                                        \
    "subs r4, r4, #1\n\t"                                                      \
    "beq 6f\n\t"                                                               \
    "str r4, %[np]\n\t"                                                        \
    "ldr r9, %[w0]\n\t"                                                        \
    "ldr r4, %[q0]\n\t"                                                        \
    "str r4, %[q]\n\t"                                                         \
    "ldr r4, %[xs]\n\t"                                                        \
    "ldr " X ", %[x]\n\t"
/* te:end */
/* te:section TE_CONV2D_GEMM_PIXEL_OPS */
#define TE_CONV2D_GEMM_PIXEL_OPS                                               \
    : [q] "+m"(c_q), [o] "+m"(c_o), [w] "+r"(wr), [x] "+m"(c_x), [xe] "+m"(c_xend), \
      [np] "+m"(c_np)                                                          \
    : [rem] "m"(c_rem), [qe] "m"(c_qend), [w0] "m"(c_w0), [q0] "m"(c_q0), [xs] "m"(c_xs) \
    : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r10", "r11", "r12", "lr", "cc", "memory"
/* te:end */

/* te:section te_conv2d_gemm_pixel_asm */
/* The first `quads` channel blocks of np pixels, in one loop: groups
 * groups of each pixel's patch (expanded, or its bytes when `bytes`; the
 * patches xs bytes apart from x), weights from w, records qr (bias, fast
 * entries), full int8 range; outputs to o on (all out_c channels when
 * np > 1). */
static inline TE_UNUSED void te_conv2d_gemm_pixel_asm(const void *x, int bytes, int groups,
                                                     const uint32_t *w, const int32_t *qr,
                                                     int8_t *o, int quads, int np, int xs)
{
    const uint8_t *c_x = (const uint8_t *)x, *c_xend = c_x + (bytes ? 4 : 8) * (groups & ~3);
    const int32_t *c_q = qr, *c_qend = qr + 16 * quads, *c_q0 = qr;
    const uint32_t *c_w0 = w;
    int8_t *c_o = o;
    int c_rem = groups & 3, c_np = np, c_xs = xs;
    register const uint32_t *wr __asm__("r9") = w; /* (nothing but the asm below) */
    if (quads <= 0 || np <= 0)
        return;
    if (bytes && c_rem)
        __asm__ volatile(TE_CONV2D_GEMM_PIXEL(TE_CONV2D_GEMM_GD,
                                              TE_CONV2D_GEMM_REM(TE_CONV2D_GEMM_GD))
                             TE_CONV2D_GEMM_PIXEL_OPS);
    else if (bytes)
        __asm__ volatile(TE_CONV2D_GEMM_PIXEL(TE_CONV2D_GEMM_GD, "") TE_CONV2D_GEMM_PIXEL_OPS);
    else if (c_rem)
        __asm__ volatile(TE_CONV2D_GEMM_PIXEL(TE_CONV2D_GEMM_GE,
                                              TE_CONV2D_GEMM_REM(TE_CONV2D_GEMM_GE))
                             TE_CONV2D_GEMM_PIXEL_OPS);
    else
        __asm__ volatile(TE_CONV2D_GEMM_PIXEL(TE_CONV2D_GEMM_GE, "") TE_CONV2D_GEMM_PIXEL_OPS);
}
/* te:end */

/* te:section TE_CONV2D_GEMM_W4X */
/* Weights of one group for 4 channels against input words XA XB. */
#define TE_CONV2D_GEMM_W4X(XA, XB)                                             \
    "ldm r9!, {r4, r5, r6, r8}\n\t"                                            \
    "smlad r0, r4, " XA ", r0\n\t"                                             \
    "smlad r0, r5, " XB ", r0\n\t"                                             \
    "smlad r1, r6, " XA ", r1\n\t"                                             \
    "smlad r1, r8, " XB ", r1\n\t"                                             \
    "ldm r9!, {r4, r5, r6, r8}\n\t"                                            \
    "smlad r2, r4, " XA ", r2\n\t"                                             \
    "smlad r2, r5, " XB ", r2\n\t"                                             \
    "smlad r3, r6, " XA ", r3\n\t"                                             \
    "smlad r3, r8, " XB ", r3\n\t"
/* te:end */
/* te:section TE_CONV2D_GEMM_RQ1 */
/* Requantizes accumulator A in place (entry at [r8], advanced). */
#define TE_CONV2D_GEMM_RQ1(A)                                                  \
    "ldm r8!, {r4, r5, r6}\n\t"                                                \
    "smmlar r5, " A ", r4, r5\n\t"                                             \
    "add r5, r5, " A ", asr #31\n\t"                                           \
    "asr r5, r5, r6\n\t"                                                       \
    "ssat " A ", #8, r5\n\t"
/* te:end */
/* te:section TE_CONV2D_GEMM_SMALL */
/* A patch of one or two groups held in r10 r11 (r12 lr): per channel block
 * the biases, the groups G, four requantized bytes stored as one word. */
#define TE_CONV2D_GEMM_SMALL(G)                                                \
    "ldr r8, %[x]\n\t"                                                         \
    "5:\n\t"                                                                   \
    "ldrd r10, r11, [r8]\n\t"                                                  \
    "ldrd r12, lr, [r8, #8]\n\t"                                               \
    "0:\n\t"                                                                   \
    "ldr r8, %[q]\n\t"                                                         \
    "ldm r8, {r0, r1, r2, r3}\n\t" G /* G uses r8 */                           \
    "ldr r8, %[q]\n\t"                                                         \
    "add r8, r8, #16\n\t" TE_CONV2D_GEMM_RQ1("r0")                             \
    TE_CONV2D_GEMM_RQ1("r1") TE_CONV2D_GEMM_RQ1("r2") TE_CONV2D_GEMM_RQ1("r3") \
    "bfi r0, r1, #8, #8\n\t"                                                   \
    "bfi r0, r2, #16, #8\n\t"                                                  \
    "bfi r0, r3, #24, #8\n\t"                                                  \
    "ldr r4, %[qe]\n\t"                                                        \
    "cmp r8, r4\n\t"                                                           \
    "str r8, %[q]\n\t"                                                         \
    "ldr r8, %[o]\n\t"                                                         \
    "str r0, [r8], #4\n\t"                                                     \
    "str r8, %[o]\n\t"                                                         \
    "bne 0b\n\t" TE_CONV2D_GEMM_NEXT_PIXEL("r8")                               \
    "add r8, r8, r4\n\t"                                                       \
    "str r8, %[x]\n\t"                                                         \
    "b 5b\n\t"                                                                 \
    "6:\n\t"
/* te:end */
/* te:section TE_CONV2D_GEMM_SMALL_OPS */
#define TE_CONV2D_GEMM_SMALL_OPS                                               \
    : [q] "+m"(c_q), [o] "+m"(c_o), [w] "+r"(wr), [x] "+m"(c_x), [np] "+m"(c_np) \
    : [qe] "m"(c_qend), [w0] "m"(c_w0), [q0] "m"(c_q0), [xs] "m"(c_xs)         \
    : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r10", "r11", "r12", "lr", "cc", "memory"
/* te:end */

/* te:section te_conv2d_gemm_pixel_small */
/* te_conv2d_gemm_pixel_asm for expanded patches of 1 or 2 groups (16 bytes
 * readable at each), kept in registers. */
static inline TE_UNUSED void te_conv2d_gemm_pixel_small(const uint32_t *x, int groups,
                                                       const uint32_t *w, const int32_t *qr,
                                                       int8_t *o, int quads, int np, int xs)
{
    const uint32_t *c_x = x, *c_w0 = w;
    const int32_t *c_q = qr, *c_qend = qr + 16 * quads, *c_q0 = qr;
    int8_t *c_o = o;
    int c_np = np, c_xs = xs;
    register const uint32_t *wr __asm__("r9") = w;
    if (quads <= 0 || np <= 0)
        return;
    if (groups == 1)
        __asm__ volatile(TE_CONV2D_GEMM_SMALL(TE_CONV2D_GEMM_W4X("r10", "r11"))
                             TE_CONV2D_GEMM_SMALL_OPS);
    else
        __asm__ volatile(TE_CONV2D_GEMM_SMALL(TE_CONV2D_GEMM_W4X("r10", "r11")
                                                  TE_CONV2D_GEMM_W4X("r12", "lr"))
                             TE_CONV2D_GEMM_SMALL_OPS);
}
/* te:end */

/* te:section te_conv2d_gemm_put_asm */
/* put() in assembly: 8 bytes per iteration into words (x0,x2) (x1,x3)...
 * (Register variables hold their register only at the asm statement:
 * values are copied in just before and out just after.) */
static inline TE_UNUSED void te_conv2d_gemm_put_asm(uint32_t *d, const int8_t *src, int n)
{
    if (n & ~7) {
        register uint32_t *dr __asm__("r0") = d;
        register const int8_t *sr __asm__("r1") = src;
        register const int8_t *end __asm__("r2") = src + (n & ~7);
        __asm__ volatile("1:\n\t"
                         "ldr r5, [r1], #4\n\t"
                         "ldr r8, [r1], #4\n\t"
                         "sxtb16 r4, r5\n\t"
                         "sxtb16 r5, r5, ror #8\n\t"
                         "sxtb16 r6, r8\n\t"
                         "sxtb16 r8, r8, ror #8\n\t"
                         "stm r0!, {r4, r5, r6, r8}\n\t"
                         "cmp r1, r2\n\t"
                         "bne 1b\n\t"
                         : "+r"(dr), "+r"(sr)
                         : "r"(end)
                         : "r4", "r5", "r6", "r8", "cc", "memory");
        d = dr;
        src = sr;
    }
    if (n & 4) {
        uint32_t v = te_read_u32(src);
        d[0] = te_sxtb16(v);
        d[1] = te_sxtb16_ror8(v);
    }
}
/* te:end */
#define TE_CONV2D_GEMM_ASM 1

/* te:section te_conv2d_gemm_put */
static inline TE_UNUSED void te_conv2d_gemm_put(uint32_t *patch, int k0, const int8_t *src, int n)
{
    te_conv2d_gemm_put_asm(patch + k0 / 2, src, n);
}
/* te:end */
#else
/* te:section te_conv2d_gemm_w4 */
/* One group of 4 channels' weights against the input pair xa (x0,x2), xb (x1,x3). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_w4(const uint32_t *w, uint32_t xa, uint32_t xb,
                                            int32_t *acc)
{
    int j;
    for (j = 0; j < 4; j++)
        acc[j] = te_smlad(w[2 * j + 1], xb, te_smlad(w[2 * j], xa, acc[j]));
}
/* te:end */

/* te:section te_conv2d_gemm_put */
static inline TE_UNUSED void te_conv2d_gemm_put(uint32_t *patch, int k0, const int8_t *src, int n)
{
    te_conv2d_gemm_put_c(patch, k0, src, n);
}
/* te:end */

/* te:section te_conv2d_gemm_mac_e */
TE_CONV2D_GEMM_INLINE const uint32_t *te_conv2d_gemm_mac_e(const uint32_t *x, const uint32_t *w,
                                                          int groups, int32_t *acc)
{
    int g;
    for (g = 0; g < groups; g++, x += 2, w += 8)
        te_conv2d_gemm_w4(w, x[0], x[1], acc);
    return w;
}
/* te:end */

/* te:section te_conv2d_gemm_mac_d */
TE_CONV2D_GEMM_INLINE const uint32_t *te_conv2d_gemm_mac_d(const int8_t *x, const uint32_t *w,
                                                          int groups, int32_t *acc)
{
    int g;
    for (g = 0; g < groups; g++, x += 4, w += 8) {
        uint32_t v = te_read_u32(x);
        te_conv2d_gemm_w4(w, te_sxtb16(v), te_sxtb16_ror8(v), acc);
    }
    return w;
}
/* te:end */
#endif

/* te:section te_conv2d_gemm_block_e */
/* Block over the whole expanded patch. */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_block_e(const te_conv2d_gemm_params *p,
                                                 const uint32_t *x, const uint32_t *w, int q,
                                                 int32_t *acc)
{
    te_conv2d_gemm_mac_e(x, te_conv2d_gemm_wq(p, w, q, 0), p->k_pad / 4, acc);
}
/* te:end */

/* te:section te_conv2d_gemm_block_d */
/* Block over n input bytes for patch elements k0.. (group-aligned). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_block_d(const te_conv2d_gemm_params *p,
                                                 const int8_t *x, int n, const uint32_t *w, int q,
                                                 int k0, int32_t *acc)
{
    te_conv2d_gemm_mac_d(x, te_conv2d_gemm_wq(p, w, q, k0), n / 4, acc);
}
/* te:end */

/* ---- weights and dot products: portable layout ------------------------- */
#else

#define TE_CONV2D_GEMM_GROUP 1

#if defined(__SSE2__)
/* x86 with SSE2 (any x86-64): the dot products 8 elements at a time
 * (PMADDWD), 8 or 4 channels per pass over the patch, and the fast
 * requantization 4 channels at a time. */
#include <emmintrin.h>
#define TE_CONV2D_GEMM_SSE2 1
#endif

typedef int16_t te_conv2d_gemm_px;
typedef int16_t te_conv2d_gemm_wi;

/* The dot-product loops stay separate functions: gcc -O2 vectorises them
 * there (not always once inlined into the pixel loop).  Loops over int8
 * run a multiple of 16 times, over int16 of 8: whole vectors. */
#if defined(__GNUC__) && !defined(__clang__)
/* not cloned for constant arguments either: gcc would then warn about
 * reads past small weight arrays on paths never taken for them */
#define TE_CONV2D_GEMM_NOINLINE static __attribute__((noinline, noclone)) TE_UNUSED
#elif defined(__GNUC__)
#define TE_CONV2D_GEMM_NOINLINE static __attribute__((noinline)) TE_UNUSED
#else
#define TE_CONV2D_GEMM_NOINLINE static TE_UNUSED
#endif

#if defined(TE_CONV2D_GEMM_SSE2)
/* te:section te_conv2d_gemm_widen8 */
/* 8 int8 at x widened to int16. */
TE_CONV2D_GEMM_INLINE __m128i te_conv2d_gemm_widen8(const int8_t *x)
{
    const __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)x);
    return _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
}
/* te:end */

/* te:section te_conv2d_gemm_put */
/* n input bytes as patch elements k0.. (int16): 16 and 8 at a time, the
 * last few as the last 8 again (n >= 8). */
static inline TE_UNUSED void te_conv2d_gemm_put(int16_t *restrict patch, int k0,
                                               const int8_t *restrict src, int n)
{
    int16_t *restrict d = patch + k0;
    int i = 0;
    if (n < 8) {
        for (; i < n; i++)
            d[i] = src[i];
        return;
    }
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        const __m128i sign = _mm_cmpgt_epi8(_mm_setzero_si128(), v);
        _mm_storeu_si128((__m128i *)(void *)(d + i), _mm_unpacklo_epi8(v, sign));
        _mm_storeu_si128((__m128i *)(void *)(d + i + 8), _mm_unpackhi_epi8(v, sign));
    }
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(void *)(d + i), te_conv2d_gemm_widen8(src + i));
    if (i < n)
        _mm_storeu_si128((__m128i *)(void *)(d + n - 8), te_conv2d_gemm_widen8(src + n - 8));
}
/* te:end */
#else
/* te:section te_conv2d_gemm_put */
/* n input bytes as patch elements k0.. (int16). */
static inline TE_UNUSED void te_conv2d_gemm_put(int16_t *restrict patch, int k0,
                                               const int8_t *restrict src, int n)
{
    int16_t *restrict d = patch + k0;
    unsigned i, n16 = (unsigned)n / 16u * 16u;
    for (i = 0; i < n16; i++)
        d[i] = src[i];
    for (; i < (unsigned)n; i++)
        d[i] = src[i];
}
/* te:end */
#endif

/* te:section te_conv2d_gemm_block_e */
/* acc[j] += channel 4q+j over the expanded patch (k_pad elements). */
TE_CONV2D_GEMM_NOINLINE void te_conv2d_gemm_block_e(const te_conv2d_gemm_params *p,
                                                   const int16_t *restrict x, const int16_t *w,
                                                   int q, int32_t *acc)
{
    const int16_t *restrict w0 = w + (long)4 * q * p->k_pad;
    const int16_t *restrict w1 = w0 + p->k_pad;
    const int16_t *restrict w2 = w1 + p->k_pad;
    const int16_t *restrict w3 = w2 + p->k_pad;
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    unsigned i, n = (unsigned)(p->k_pad / 8) * 8u;
    for (i = 0; i < n; i++) {
        s0 += x[i] * w0[i];
        s1 += x[i] * w1[i];
        s2 += x[i] * w2[i];
        s3 += x[i] * w3[i];
    }
    acc[0] = (int32_t)((uint32_t)acc[0] + (uint32_t)s0);
    acc[1] = (int32_t)((uint32_t)acc[1] + (uint32_t)s1);
    acc[2] = (int32_t)((uint32_t)acc[2] + (uint32_t)s2);
    acc[3] = (int32_t)((uint32_t)acc[3] + (uint32_t)s3);
}
/* te:end */

#if defined(TE_CONV2D_GEMM_SSE2)
/* te:section te_conv2d_gemm_hsum4 */
/* [sum of a0's lanes, of a1's, of a2's, of a3's]. */
TE_CONV2D_GEMM_INLINE __m128i te_conv2d_gemm_hsum4(__m128i a0, __m128i a1, __m128i a2,
                                                  __m128i a3)
{
    const __m128i t0 = _mm_add_epi32(_mm_unpacklo_epi32(a0, a1), _mm_unpackhi_epi32(a0, a1));
    const __m128i t1 = _mm_add_epi32(_mm_unpacklo_epi32(a2, a3), _mm_unpackhi_epi32(a2, a3));
    return _mm_add_epi32(_mm_unpacklo_epi64(t0, t1), _mm_unpackhi_epi64(t0, t1));
}
/* te:end */

/* te:section te_conv2d_gemm_block_d */
/* acc[j] += channel 4q+j over n input bytes for patch elements k0.. */
TE_CONV2D_GEMM_NOINLINE void te_conv2d_gemm_block_d(const te_conv2d_gemm_params *p,
                                                   const int8_t *x, int n, const int16_t *w,
                                                   int q, int k0, int32_t *acc)
{
    const int16_t *w0 = w + (long)4 * q * p->k_pad + k0;
    const int16_t *w1 = w0 + p->k_pad, *w2 = w1 + p->k_pad, *w3 = w2 + p->k_pad;
    __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
    uint32_t s[4];
    int i, j;
    for (i = 0; i + 8 <= n; i += 8) {
        const __m128i v = te_conv2d_gemm_widen8(x + i);
        a0 = _mm_add_epi32(a0, _mm_madd_epi16(
                     _mm_loadu_si128((const __m128i *)(const void *)(w0 + i)), v));
        a1 = _mm_add_epi32(a1, _mm_madd_epi16(
                     _mm_loadu_si128((const __m128i *)(const void *)(w1 + i)), v));
        a2 = _mm_add_epi32(a2, _mm_madd_epi16(
                     _mm_loadu_si128((const __m128i *)(const void *)(w2 + i)), v));
        a3 = _mm_add_epi32(a3, _mm_madd_epi16(
                     _mm_loadu_si128((const __m128i *)(const void *)(w3 + i)), v));
    }
    _mm_storeu_si128((__m128i *)(void *)s, te_conv2d_gemm_hsum4(a0, a1, a2, a3));
    for (; i < n; i++) {
        s[0] += (uint32_t)(x[i] * w0[i]);
        s[1] += (uint32_t)(x[i] * w1[i]);
        s[2] += (uint32_t)(x[i] * w2[i]);
        s[3] += (uint32_t)(x[i] * w3[i]);
    }
    for (j = 0; j < 4; j++)
        acc[j] = (int32_t)((uint32_t)acc[j] + s[j]);
}
/* te:end */
#else
/* te:section te_conv2d_gemm_block_d */
/* acc[j] += channel 4q+j over n input bytes for patch elements k0.. */
TE_CONV2D_GEMM_NOINLINE void te_conv2d_gemm_block_d(const te_conv2d_gemm_params *p,
                                                   const int8_t *restrict x, int n,
                                                   const int16_t *w, int q, int k0, int32_t *acc)
{
    const int16_t *restrict w0 = w + (long)4 * q * p->k_pad + k0;
    const int16_t *restrict w1 = w0 + p->k_pad;
    const int16_t *restrict w2 = w1 + p->k_pad;
    const int16_t *restrict w3 = w2 + p->k_pad;
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    unsigned i, n16 = (unsigned)n / 16u * 16u;
    for (i = 0; i < n16; i++) {
        const int16_t xi = x[i];
        s0 += xi * w0[i];
        s1 += xi * w1[i];
        s2 += xi * w2[i];
        s3 += xi * w3[i];
    }
    for (; i < (unsigned)n; i++) {
        s0 += x[i] * w0[i];
        s1 += x[i] * w1[i];
        s2 += x[i] * w2[i];
        s3 += x[i] * w3[i];
    }
    acc[0] = (int32_t)((uint32_t)acc[0] + (uint32_t)s0);
    acc[1] = (int32_t)((uint32_t)acc[1] + (uint32_t)s1);
    acc[2] = (int32_t)((uint32_t)acc[2] + (uint32_t)s2);
    acc[3] = (int32_t)((uint32_t)acc[3] + (uint32_t)s3);
}
/* te:end */
#endif

/* te:section te_conv2d_gemm_gather16 */
/* te_conv2d_gemm_gather widening to int16 on the way. */
static inline TE_UNUSED void te_conv2d_gemm_gather16(const te_conv2d_gemm_params *p,
                                                    const int8_t *in_b, int iy0, int ix0,
                                                    int16_t *d)
{
    const int c = p->in_c;
    int ky, kx, i;
    for (ky = 0; ky < p->k_h; ky++) {
        const int iy = iy0 + ky * p->dil_h;
        for (kx = 0; kx < p->k_w; kx++, d += c) {
            const int ix = ix0 + kx * p->dil_w;
            if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
                for (i = 0; i < c; i++)
                    d[i] = (int16_t)p->input_zp;
            else
                te_conv2d_gemm_put(d, 0, in_b + ((long)iy * p->in_w + ix) * c, c);
        }
    }
}
/* te:end */
#endif

/* ---- the channel blocks of one pixel ------------------------------------ */

/* te:section te_conv2d_gemm_store */
/* Requantizes and stores the block of channels 4q.. (those below out_c);
 * r: the block's record (te_conv2d_gemm.h). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_store(const te_conv2d_gemm_params *p, int8_t *o, int q,
                                               const int32_t *r, const int32_t *acc, int mode)
{
    const int c = 4 * q, n = p->out_c - c;
    o += c;
    o[0] = te_conv2d_gemm_out(p, acc[0], r + 4, mode);
    if (n > 1)
        o[1] = te_conv2d_gemm_out(p, acc[1], r + 7, mode);
    if (n > 2)
        o[2] = te_conv2d_gemm_out(p, acc[2], r + 10, mode);
    if (n > 3)
        o[3] = te_conv2d_gemm_out(p, acc[3], r + 13, mode);
}
/* te:end */

/* te:section te_conv2d_gemm_init */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_init(const int32_t *r, int32_t *acc)
{
    acc[0] = r[0];
    acc[1] = r[1];
    acc[2] = r[2];
    acc[3] = r[3];
}
/* te:end */

#if defined(TE_CONV2D_GEMM_SSE2)
/* ---- SSE2: 8 channels per pass, the fast requantization in vectors ----- */

/* Channels 4q..4q+3's fast entries {m, H, e} as vectors (lanes 0..3): m,
 * m + 1, H + 2^31, f = 2^(32-e), 2^(31-e); m and f also shifted down one
 * lane for PMULUDQ's odd lanes. */
typedef struct {
    __m128i m, m_odd, m1, h, f, f_odd, k;
} te_conv2d_gemm_vq;

/* Entries of the first TE_CONV2D_GEMM_VQ blocks (made once per call), and
 * the clamp bounds. */
#ifndef TE_CONV2D_GEMM_VQ
#define TE_CONV2D_GEMM_VQ 64
#endif
typedef struct {
    __m128i lo, hi;
    int n;
    te_conv2d_gemm_vq vq[TE_CONV2D_GEMM_VQ];
} te_conv2d_gemm_sse;

/* te:section te_conv2d_gemm_vq_make */
/* The vectors of a block's record r (te_conv2d_gemm.h); e is 1..31 in
 * every fast entry (channels past out_c: anything, never stored). */
static inline TE_UNUSED void te_conv2d_gemm_vq_make(const int32_t *r, te_conv2d_gemm_vq *t)
{
    uint32_t f[4], k[4];
    int j;
    for (j = 0; j < 4; j++) {
        const int32_t e = r[6 + 3 * j];
        f[j] = e >= 1 && e <= 31 ? 1u << (32 - e) : 0u;
        k[j] = f[j] / 2u;
    }
    t->m = _mm_set_epi32(r[13], r[10], r[7], r[4]);
    t->m_odd = _mm_srli_epi64(t->m, 32);
    t->m1 = _mm_add_epi32(t->m, _mm_set1_epi32(1));
    t->h = _mm_add_epi32(_mm_set_epi32(r[14], r[11], r[8], r[5]), _mm_set1_epi32(INT32_MIN));
    t->f = _mm_set_epi32((int)f[3], (int)f[2], (int)f[1], (int)f[0]);
    t->f_odd = _mm_srli_epi64(t->f, 32);
    t->k = _mm_set_epi32((int)k[3], (int)k[2], (int)k[1], (int)k[0]);
}
/* te:end */

/* te:section te_conv2d_gemm_hi32 */
/* [e1, o1, e3, o3] (dwords): the high halves of 64-bit products e, o. */
TE_CONV2D_GEMM_INLINE __m128i te_conv2d_gemm_hi32(__m128i e, __m128i o)
{
    return _mm_or_si128(_mm_srli_epi64(e, 32), _mm_and_si128(o, _mm_set_epi32(-1, 0, -1, 0)));
}
/* te:end */

/* te:section te_conv2d_gemm_rq4 */
/* te_conv2d_gemm_rq_fast on 4 lanes.  PMULUDQ multiplies unsigned:
 * - smmulr(a, m): the unsigned product of a + 2^32 [a < 0] and m
 *   (0 <= m < 2^31) plus 2^31 does not overflow 64 bits and its high half
 *   is smmulr(a, m) + m [a < 0]; so v = smmulr(a, m) + H - [a < 0] is
 *   that high half - (m + 1) [a < 0] + H;
 * - v >> e: v + 2^31 is in [0, 2^32), and the high half of its unsigned
 *   product with 2^(32-e) is (v + 2^31) >> e = (v >> e) + 2^(31-e). */
TE_CONV2D_GEMM_INLINE __m128i te_conv2d_gemm_rq4(__m128i a, const te_conv2d_gemm_vq *t)
{
    const __m128i half = _mm_set_epi32(0, INT32_MIN, 0, INT32_MIN); /* 2^31 per 64 bits */
    const __m128i neg = _mm_srai_epi32(a, 31);
    const __m128i pe = _mm_add_epi64(_mm_mul_epu32(a, t->m), half);
    const __m128i po = _mm_add_epi64(_mm_mul_epu32(_mm_srli_epi64(a, 32), t->m_odd), half);
    const __m128i v = _mm_add_epi32(
        _mm_sub_epi32(te_conv2d_gemm_hi32(pe, po), _mm_and_si128(neg, t->m1)), t->h);
    const __m128i ye = _mm_mul_epu32(v, t->f);
    const __m128i yo = _mm_mul_epu32(_mm_srli_epi64(v, 32), t->f_odd);
    return _mm_sub_epi32(te_conv2d_gemm_hi32(ye, yo), t->k);
}
/* te:end */

/* te:section te_conv2d_gemm_out8 */
/* Requantizes the accumulators a0 (channels 4q..) and a1 (4q+4.., if
 * `two`) and stores those below out_c. */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_out8(const te_conv2d_gemm_params *p,
                                              const te_conv2d_gemm_sse *s, const int32_t *qr,
                                              int q, __m128i a0, __m128i a1, int two,
                                              int8_t *o, int mode)
{
    const int n = TE_MIN(p->out_c - 4 * q, 8);
    __m128i v;
    int j;
    if (mode == 0) {
        int32_t acc[8];
        _mm_storeu_si128((__m128i *)(void *)acc, a0);
        _mm_storeu_si128((__m128i *)(void *)(acc + 4), a1);
        te_conv2d_gemm_store(p, o, q, qr + 16 * q, acc, 0);
        if (two)
            te_conv2d_gemm_store(p, o, q + 1, qr + 16 * q + 16, acc + 4, 0);
        return;
    }
    if (q + two < s->n) {
        a0 = te_conv2d_gemm_rq4(a0, &s->vq[q]);
        a1 = two ? te_conv2d_gemm_rq4(a1, &s->vq[q + 1]) : a0;
    } else {
        te_conv2d_gemm_vq t;
        te_conv2d_gemm_vq_make(qr + 16 * q, &t);
        a0 = te_conv2d_gemm_rq4(a0, &t);
        if (two) {
            te_conv2d_gemm_vq_make(qr + 16 * q + 16, &t);
            a1 = te_conv2d_gemm_rq4(a1, &t);
        }
    }
    v = _mm_packs_epi32(a0, a1);
    if (mode == 1)
        v = _mm_min_epi16(_mm_max_epi16(v, s->lo), s->hi);
    v = _mm_packs_epi16(v, v);
    o += 4 * q;
    if (n == 8) {
        _mm_storel_epi64((__m128i *)(void *)o, v);
    } else {
        int8_t b[16];
        _mm_storeu_si128((__m128i *)(void *)b, v);
        for (j = 0; j < n; j++)
            o[j] = b[j];
    }
}
/* te:end */

/* te:section te_conv2d_gemm_ld */
/* Patch element k.. of x (int16, or int8 if `bytes`) as 8 int16. */
TE_CONV2D_GEMM_INLINE __m128i te_conv2d_gemm_ld(const void *x, int bytes, int k)
{
    if (bytes)
        return te_conv2d_gemm_widen8((const int8_t *)x + k);
    return _mm_loadu_si128((const __m128i *)(const void *)((const int16_t *)x + k));
}
/* te:end */

/* After a loop: gcc otherwise copies each accumulator once per iteration
 * (its registers then meet in the reduction). */
#if defined(__GNUC__)
#define TE_CONV2D_GEMM_KEEP4(A, B, C, D) __asm__("" : "+x"(A), "+x"(B), "+x"(C), "+x"(D))
#else
#define TE_CONV2D_GEMM_KEEP4(A, B, C, D) (void)0
#endif

/* te:section TE_CONV2D_GEMM_MADD */
#define TE_CONV2D_GEMM_MADD(A, W, X)                                           \
    A = _mm_add_epi32(A, _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(const void *)(W)), X))
/* te:end */

/* te:section te_conv2d_gemm_dot8 */
/* Channels 4q..4q+7 over the kp elements of the patch x (kp a constant
 * for the common small patches: the weights then at fixed offsets). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_dot8(const void *x, int bytes, const int16_t *w,
                                              long kp, __m128i *s0, __m128i *s1)
{
    const int16_t *w0 = w, *w1 = w0 + kp, *w2 = w1 + kp, *w3 = w2 + kp;
    const int16_t *w4 = w3 + kp, *w5 = w4 + kp, *w6 = w5 + kp, *w7 = w6 + kp;
    const __m128i v0 = te_conv2d_gemm_ld(x, bytes, 0);
#define TE_CONV2D_GEMM_M0(W) _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(const void *)(W)), v0)
    __m128i a0 = TE_CONV2D_GEMM_M0(w0), a1 = TE_CONV2D_GEMM_M0(w1);
    __m128i a2 = TE_CONV2D_GEMM_M0(w2), a3 = TE_CONV2D_GEMM_M0(w3);
    __m128i a4 = TE_CONV2D_GEMM_M0(w4), a5 = TE_CONV2D_GEMM_M0(w5);
    __m128i a6 = TE_CONV2D_GEMM_M0(w6), a7 = TE_CONV2D_GEMM_M0(w7);
#undef TE_CONV2D_GEMM_M0
    long k;
    for (k = 8; k < kp; k += 8) {
        const __m128i v = te_conv2d_gemm_ld(x, bytes, (int)k);
        TE_CONV2D_GEMM_MADD(a0, w0 + k, v);
        TE_CONV2D_GEMM_MADD(a1, w1 + k, v);
        TE_CONV2D_GEMM_MADD(a2, w2 + k, v);
        TE_CONV2D_GEMM_MADD(a3, w3 + k, v);
        TE_CONV2D_GEMM_MADD(a4, w4 + k, v);
        TE_CONV2D_GEMM_MADD(a5, w5 + k, v);
        TE_CONV2D_GEMM_MADD(a6, w6 + k, v);
        TE_CONV2D_GEMM_MADD(a7, w7 + k, v);
    }
    TE_CONV2D_GEMM_KEEP4(a0, a1, a2, a3);
    TE_CONV2D_GEMM_KEEP4(a4, a5, a6, a7);
    *s0 = _mm_add_epi32(*s0, te_conv2d_gemm_hsum4(a0, a1, a2, a3));
    *s1 = _mm_add_epi32(*s1, te_conv2d_gemm_hsum4(a4, a5, a6, a7));
}
/* te:end */

/* te:section te_conv2d_gemm_dot4 */
/* Channels 4q..4q+3 over the kp elements of the patch x. */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_dot4(const void *x, int bytes, const int16_t *w,
                                              long kp, __m128i *s0)
{
    const int16_t *w0 = w, *w1 = w0 + kp, *w2 = w1 + kp, *w3 = w2 + kp;
    __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
    long k;
    for (k = 0; k < kp; k += 8) {
        const __m128i v = te_conv2d_gemm_ld(x, bytes, (int)k);
        TE_CONV2D_GEMM_MADD(a0, w0 + k, v);
        TE_CONV2D_GEMM_MADD(a1, w1 + k, v);
        TE_CONV2D_GEMM_MADD(a2, w2 + k, v);
        TE_CONV2D_GEMM_MADD(a3, w3 + k, v);
    }
    TE_CONV2D_GEMM_KEEP4(a0, a1, a2, a3);
    *s0 = _mm_add_epi32(*s0, te_conv2d_gemm_hsum4(a0, a1, a2, a3));
}
/* te:end */

/* te:section te_conv2d_gemm_dot8k */
/* te_conv2d_gemm_dot8 with kp a constant when small. */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_dot8k(const void *x, int bytes, const int16_t *w,
                                               long kp, __m128i *s0, __m128i *s1)
{
    switch (kp) {
    case 8: te_conv2d_gemm_dot8(x, bytes, w, 8, s0, s1); break;
    case 16: te_conv2d_gemm_dot8(x, bytes, w, 16, s0, s1); break;
    case 24: te_conv2d_gemm_dot8(x, bytes, w, 24, s0, s1); break;
    case 32: te_conv2d_gemm_dot8(x, bytes, w, 32, s0, s1); break;
    default: te_conv2d_gemm_dot8(x, bytes, w, kp, s0, s1); break;
    }
}
/* te:end */

/* te:section te_conv2d_gemm_pixel_v */
/* Every channel block of a pixel over the k_pad elements of its patch x
 * (int16, or int8 if `bytes`). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_pixel_v(const te_conv2d_gemm_params *p, const void *x,
                                                 int bytes, const int16_t *w, const int32_t *qr,
                                                 const te_conv2d_gemm_sse *s, int8_t *o,
                                                 int mode)
{
    const int nq = (p->out_c + 3) / 4;
    const long kp = p->k_pad;
    int q;
    for (q = 0; q + 2 <= nq; q += 2) {
        __m128i s0 = _mm_loadu_si128((const __m128i *)(const void *)(qr + 16 * q));
        __m128i s1 = _mm_loadu_si128((const __m128i *)(const void *)(qr + 16 * q + 16));
        te_conv2d_gemm_dot8k(x, bytes, w + 4 * q * kp, kp, &s0, &s1);
        te_conv2d_gemm_out8(p, s, qr, q, s0, s1, 1, o, mode);
    }
    if (q < nq) {
        __m128i s0 = _mm_loadu_si128((const __m128i *)(const void *)(qr + 16 * q));
        te_conv2d_gemm_dot4(x, bytes, w + 4 * q * kp, kp, &s0);
        te_conv2d_gemm_out8(p, s, qr, q, s0, s0, 0, o, mode);
    }
}
/* te:end */

/* te:section TE_CONV2D_GEMM_PIXEL_V */
/* te_conv2d_gemm_pixel_v for each patch type and mode, compiled apart. */
#define TE_CONV2D_GEMM_PIXEL_V(NAME, BYTES, MODE)                              \
    TE_CONV2D_GEMM_NOINLINE void NAME(const te_conv2d_gemm_params *p, const void *x,       \
                                      const int16_t *w, const int32_t *qr,                 \
                                      const te_conv2d_gemm_sse *s, int8_t *o)              \
    {                                                                          \
        te_conv2d_gemm_pixel_v(p, x, BYTES, w, qr, s, o, MODE);                \
    }
/* te:end */
TE_CONV2D_GEMM_PIXEL_V(te_conv2d_gemm_pixel_v16_0, 0, 0)
TE_CONV2D_GEMM_PIXEL_V(te_conv2d_gemm_pixel_v16_1, 0, 1)
TE_CONV2D_GEMM_PIXEL_V(te_conv2d_gemm_pixel_v16_2, 0, 2)
TE_CONV2D_GEMM_PIXEL_V(te_conv2d_gemm_pixel_v8_0, 1, 0)
TE_CONV2D_GEMM_PIXEL_V(te_conv2d_gemm_pixel_v8_1, 1, 1)
TE_CONV2D_GEMM_PIXEL_V(te_conv2d_gemm_pixel_v8_2, 1, 2)

/* te:section te_conv2d_gemm_pixel_vx */
/* The one of them for patch type `bytes` and `mode` (constants). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_pixel_vx(const te_conv2d_gemm_params *p, const void *x,
                                                  int bytes, const int16_t *w, const int32_t *qr,
                                                  const te_conv2d_gemm_sse *s, int8_t *o,
                                                  int mode)
{
    if (mode == 0)
        (bytes ? te_conv2d_gemm_pixel_v8_0 : te_conv2d_gemm_pixel_v16_0)(p, x, w, qr, s, o);
    else if (mode == 1)
        (bytes ? te_conv2d_gemm_pixel_v8_1 : te_conv2d_gemm_pixel_v16_1)(p, x, w, qr, s, o);
    else
        (bytes ? te_conv2d_gemm_pixel_v8_2 : te_conv2d_gemm_pixel_v16_2)(p, x, w, qr, s, o);
}
/* te:end */
#else
typedef struct {
    int n;
} te_conv2d_gemm_sse; /* nothing precomputed */
#endif

/* te:section te_conv2d_gemm_pixel_e */
/* Channel blocks q0.. of a pixel over its expanded patch x. */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_pixel_e(const te_conv2d_gemm_params *p,
                                                 const te_conv2d_gemm_px *x,
                                                 const te_conv2d_gemm_wi *w, const int32_t *qr,
                                                 int8_t *o, int q0, int mode)
{
    int q;
    for (q = q0; 4 * q < p->out_c; q++) {
        int32_t acc[4];
        te_conv2d_gemm_init(qr + 16 * q, acc);
        te_conv2d_gemm_block_e(p, x, w, q, acc);
        te_conv2d_gemm_store(p, o, q, qr + 16 * q, acc, mode);
    }
}
/* te:end */

/* te:section te_conv2d_gemm_row_d */
/* Patch elements k0.. of filter row ky read directly: the input row between
 * taps lo and hi, zp_row for the padding taps around it (and for a row
 * outside the input). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_row_d(const te_conv2d_gemm_params *p,
                                               const int8_t *row, const int8_t *zp_row, int lo,
                                               int hi, int k0, const te_conv2d_gemm_wi *w, int q,
                                               int32_t *acc)
{
    const int c = p->in_c;
    if (!row || hi == lo) {
        te_conv2d_gemm_block_d(p, zp_row, p->k_w * c, w, q, k0, acc);
        return;
    }
    if (lo > 0)
        te_conv2d_gemm_block_d(p, zp_row, lo * c, w, q, k0, acc);
    te_conv2d_gemm_block_d(p, row + (long)lo * c, (hi - lo) * c, w, q, k0 + lo * c, acc);
    if (hi < p->k_w)
        te_conv2d_gemm_block_d(p, zp_row, (p->k_w - hi) * c, w, q, k0 + hi * c, acc);
}
/* te:end */

/* te:section te_conv2d_gemm_pixel_d */
/* Every channel block of the pixel at (iy0, ix0), reading the input
 * directly.  Returns 0 (nothing done) when a row segment is not
 * group-aligned. */
TE_CONV2D_GEMM_INLINE int te_conv2d_gemm_pixel_d(const te_conv2d_gemm_params *p,
                                                const int8_t *in_b, const int8_t *zp_row,
                                                int iy0, int ix0, const te_conv2d_gemm_wi *w,
                                                const int32_t *qr, int8_t *o, int mode)
{
    const int c = p->in_c, row_len = p->k_w * c;
    const int lo = TE_MIN(ix0 < 0 ? -ix0 : 0, p->k_w);        /* taps before column 0 */
    const int hi = TE_MAX(TE_MIN(p->in_w - ix0, p->k_w), lo); /* one past the last valid */
    int q, ky;
    if (p->pointwise ? c % TE_CONV2D_GEMM_GROUP
                     : p->dil_w != 1 || (lo * c) % TE_CONV2D_GEMM_GROUP ||
                           (hi * c) % TE_CONV2D_GEMM_GROUP || row_len % TE_CONV2D_GEMM_GROUP)
        return 0;
    for (q = 0; 4 * q < p->out_c; q++) {
        int32_t acc[4];
        te_conv2d_gemm_init(qr + 16 * q, acc);
        if (p->pointwise) {
            te_conv2d_gemm_block_d(p, in_b + ((long)iy0 * p->in_w + ix0) * c, c, w, q, 0, acc);
        } else {
            for (ky = 0; ky < p->k_h; ky++) {
                const int iy = iy0 + ky * p->dil_h;
                const int8_t *row = iy >= 0 && iy < p->in_h ? in_b + (long)iy * p->in_w * c : NULL;
                te_conv2d_gemm_row_d(p, row ? row + (long)ix0 * c : NULL, zp_row, lo, hi,
                                     ky * row_len, w, q, acc);
            }
        }
        te_conv2d_gemm_store(p, o, q, qr + 16 * q, acc, mode);
    }
    return 1;
}
/* te:end */

/* te:section te_conv2d_gemm_pixel_bytes */
/* Every channel block of a pixel over the k_pad bytes of its patch x. */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_pixel_bytes(const te_conv2d_gemm_params *p,
                                                     const int8_t *x, const te_conv2d_gemm_wi *w,
                                                     const int32_t *qr, int8_t *o, int mode)
{
    int q = 0;
#if defined(TE_CONV2D_GEMM_ASM)
    if (mode == 2) {
        q = p->out_c / 4;
        te_conv2d_gemm_pixel_asm(x, 1, p->k_pad / 4, w, qr, o, q, 1, 0);
    }
#endif
    for (; 4 * q < p->out_c; q++) {
        int32_t acc[4];
        te_conv2d_gemm_init(qr + 16 * q, acc);
        te_conv2d_gemm_block_d(p, x, p->k_pad, w, q, 0, acc);
        te_conv2d_gemm_store(p, o, q, qr + 16 * q, acc, mode);
    }
}
/* te:end */

/* te:section te_conv2d_gemm_pixel_plain */
/* A pixel without room for its patch whose input cannot be read in
 * group-aligned segments: each channel block over the patch gathered in
 * pieces of 64 bytes on the stack. */
static inline TE_UNUSED void te_conv2d_gemm_pixel_plain(const te_conv2d_gemm_params *p,
                                                       const int8_t *in_b, int iy0, int ix0,
                                                       const te_conv2d_gemm_wi *w,
                                                       const int32_t *qr, int8_t *o, int mode)
{
    int8_t part[64];
    int q, k0;
    for (q = 0; 4 * q < p->out_c; q++) {
        int32_t acc[4];
        te_conv2d_gemm_init(qr + 16 * q, acc);
        for (k0 = 0; k0 < p->k_pad; k0 += 64) {
            const int n = TE_MIN(64, p->k_pad - k0);
            te_conv2d_gemm_gather_part(p, in_b, iy0, ix0, k0, n, part);
            te_conv2d_gemm_block_d(p, part, n, w, q, k0, acc);
        }
        te_conv2d_gemm_store(p, o, q, qr + 16 * q, acc, mode);
    }
}
/* te:end */

/* ---- building a widened patch ------------------------------------------ */

/* te:section te_conv2d_gemm_build */
/* Builds the expanded patch of the pixel at (iy0, ix0) in x (2 * k_pad
 * bytes).  Elements K..k_pad hold whatever was there (zero weights). */
static inline TE_UNUSED void te_conv2d_gemm_build(const te_conv2d_gemm_params *p,
                                                 const int8_t *in_b, int iy0, int ix0,
                                                 te_conv2d_gemm_px *x)
{
    const int row_len = p->k_w * p->in_c;
    int ky;
    if (p->pointwise && p->in_c % TE_CONV2D_GEMM_GROUP == 0) {
        te_conv2d_gemm_put(x, 0, in_b + ((long)iy0 * p->in_w + ix0) * p->in_c, p->in_c);
        return;
    }
    if (p->dil_w == 1 && row_len % TE_CONV2D_GEMM_GROUP == 0 && iy0 >= 0 && ix0 >= 0 &&
        iy0 + (p->k_h - 1) * p->dil_h < p->in_h && ix0 + p->k_w <= p->in_w) {
        for (ky = 0; ky < p->k_h; ky++)
            te_conv2d_gemm_put(x, ky * row_len,
                               in_b + ((long)(iy0 + ky * p->dil_h) * p->in_w + ix0) * p->in_c,
                               row_len);
        return;
    }
#if defined(TE_TARGET_DSP)
    {
        /* gather the bytes into the upper half, then widen them in place
         * (group g goes to bytes 8g..8g+7, never past the unread groups at
         * k_pad + 4g' for g' > g) */
        int8_t *bytes = (int8_t *)x + p->k_pad;
        te_conv2d_gemm_gather(p, in_b, iy0, ix0, bytes);
        te_conv2d_gemm_put(x, 0, bytes, p->k_pad);
    }
#else
    te_conv2d_gemm_gather16(p, in_b, iy0, ix0, x);
#endif
}
/* te:end */

/* ---- the kernel ------------------------------------------------------------ */

/* te:section te_conv2d_gemm_next */
static inline TE_UNUSED void te_conv2d_gemm_next(const te_conv2d_gemm_params *p, int *b, int *oy,
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

#if defined(TE_CONV2D_GEMM_ASM)
/* te:section te_conv2d_gemm_batch */
/* Pointwise, stride 1, on a DSP core: consecutive pixels' inputs are
 * consecutive, so as many as fit after their own outputs are widened at
 * once and run in one loop.  Returns how many (0 or 1: none). */
TE_CONV2D_GEMM_INLINE long te_conv2d_gemm_batch(const te_conv2d_gemm_params *p,
                                               const int8_t *input, const uint32_t *w,
                                               const int32_t *qr, int8_t *output, long i,
                                               long n_pix)
{
    /* room: 3 bytes to align, 8 for the one-group patches of the small
     * loop, which read 16 */
    const long m = ((n_pix - i) * p->out_c - 11) / (p->out_c + 2L * p->k_pad);
    int8_t *o = output + i * p->out_c, *end = o + m * p->out_c;
    uint32_t *x;
    if (m < 2)
        return 0;
    x = (uint32_t *)(void *)(end + ((4u - (unsigned)((uintptr_t)end & 3u)) & 3u));
    te_conv2d_gemm_put(x, 0, input + i * p->in_c, (int)(m * p->in_c));
    if (p->k_pad <= 8)
        te_conv2d_gemm_pixel_small(x, p->k_pad / 4, w, qr, o, p->out_c / 4, (int)m,
                                   2 * p->k_pad);
    else
        te_conv2d_gemm_pixel_asm(x, 0, p->k_pad / 4, w, qr, o, p->out_c / 4, (int)m,
                                 2 * p->k_pad);
    return m;
}
/* te:end */
#endif

/* te:section te_conv2d_gemm_pixel_w */
/* Every channel block of a pixel over its widened patch x (room: bytes
 * readable from x). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_pixel_w(const te_conv2d_gemm_params *p,
                                                 const te_conv2d_gemm_px *x, long room,
                                                 const te_conv2d_gemm_wi *w, const int32_t *qr,
                                                 int8_t *o, int mode)
{
    int q0 = 0;
#if defined(TE_CONV2D_GEMM_ASM)
    if (mode == 2) {
        q0 = p->out_c / 4;
        if (p->k_pad <= 8 && room >= 16)
            te_conv2d_gemm_pixel_small(x, p->k_pad / 4, w, qr, o, q0, 1, 0);
        else
            te_conv2d_gemm_pixel_asm(x, 0, p->k_pad / 4, w, qr, o, q0, 1, 0);
    }
#else
    (void)room;
#endif
    te_conv2d_gemm_pixel_e(p, x, w, qr, o, q0, mode);
}
/* te:end */

/* te:section te_conv2d_gemm_run */
/* The pixels of the output, each by the fastest path its room allows. */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_run(const te_conv2d_gemm_params *p, const int8_t *input,
                                             const te_conv2d_gemm_wi *w, const int32_t *qr,
                                             const int8_t *zp_row, int8_t *output,
                                             const te_conv2d_gemm_sse *sse, int mode)
{
    const te_conv2d_gemm_params lp = *p; /* in registers, not re-read after each asm */
    const long n_pix = (long)p->batches * p->out_h * p->out_w;
    /* the part not written yet is not free: other tensors' bytes in between
     * (a strided slice), or the input still to read (out_stride == out_c: the
     * output written over its input) */
    const int slice = p->out_stride >= p->out_c;
    const long pitch = slice ? p->out_stride : p->out_c;
    int8_t tmp[64] = {0}; /* the patch of a last pixel with little room */
    int b = 0, oy = 0, ox = 0;
    long i;
    (void)sse;
    for (i = 0; i < n_pix; i++, te_conv2d_gemm_next(p, &b, &oy, &ox)) {
        const int8_t *in_b = input + (long)b * p->in_h * p->in_w * p->in_c;
        const int iy0 = oy * p->stride_h - p->pad_top, ix0 = ox * p->stride_w - p->pad_left;
        int8_t *o = output + i * pitch;
        /* room after this pixel's outputs, from a 4-byte boundary */
        const long skip = (long)((4u - (unsigned)((uintptr_t)(o + p->out_c) & 3u)) & 3u);
        int8_t *const spare = slice ? p->work : o + p->out_c + skip;
        const long room = !slice    ? (n_pix - i - 1) * p->out_c - skip
                          : p->work ? TE_CONV2D_GEMM_WORK(p->k_pad)
                                    : 0;
#if defined(TE_CONV2D_GEMM_ASM)
        if (mode == 2 && !slice && p->pointwise && p->stride_h == 1 && p->stride_w == 1 &&
            p->in_c % 4 == 0 && p->out_c % 4 == 0) {
            const long m = te_conv2d_gemm_batch(&lp, input, w, qr, output, i, n_pix);
            if (m > 1) {
                const long plane = (long)p->out_h * p->out_w;
                i += m - 1; /* the pixel before the next */
                b = (int)(i / plane);
                oy = (int)(i % plane / p->out_w);
                ox = (int)(i % plane % p->out_w);
                continue;
            }
        }
#endif
        if (room >= 2L * p->k_pad) {
            te_conv2d_gemm_px *x = (te_conv2d_gemm_px *)(void *)spare;
            te_conv2d_gemm_build(p, in_b, iy0, ix0, x);
#if defined(TE_CONV2D_GEMM_SSE2)
            te_conv2d_gemm_pixel_vx(&lp, x, 0, w, qr, sse, o, mode);
#else
            te_conv2d_gemm_pixel_w(&lp, x, room, w, qr, o, mode);
#endif
        } else if (room >= p->k_pad || p->k_pad <= 64) {
            int8_t *x = room >= p->k_pad ? spare : tmp;
            te_conv2d_gemm_gather(p, in_b, iy0, ix0, x);
#if defined(TE_CONV2D_GEMM_SSE2)
            te_conv2d_gemm_pixel_vx(&lp, x, 1, w, qr, sse, o, mode);
#else
            te_conv2d_gemm_pixel_bytes(&lp, x, w, qr, o, mode);
#endif
        } else if (!te_conv2d_gemm_pixel_d(&lp, in_b, zp_row, iy0, ix0, w, qr, o, mode)) {
            te_conv2d_gemm_pixel_plain(p, in_b, iy0, ix0, w, qr, o, mode);
        }
    }
}
/* te:end */

/* te:section te_conv2d_gemm_s8_inl */
/* te_conv2d_gemm_s8 inlined at its call, specialised on the call's params
 * (the generated code uses it when optimising a model with few GEMM calls). */
TE_CONV2D_GEMM_INLINE void te_conv2d_gemm_s8_inl(const te_conv2d_gemm_params *p,
                                                 const int8_t *input, const te_conv2d_gemm_w *w,
                                                 const int32_t *qr, const int8_t *zp_row,
                                                 int8_t *output)
{
    const te_conv2d_gemm_wi *wi = (const te_conv2d_gemm_wi *)w; /* int32 read as uint32 */
    te_conv2d_gemm_sse sse;
#if defined(TE_CONV2D_GEMM_SSE2)
    int q;
    sse.n = p->fast_rq ? TE_MIN((p->out_c + 3) / 4, TE_CONV2D_GEMM_VQ) : 0;
    for (q = 0; q < sse.n; q++)
        te_conv2d_gemm_vq_make(qr + 16 * q, &sse.vq[q]);
    sse.lo = _mm_set1_epi16((short)TE_MAX(p->act_min, -128));
    sse.hi = _mm_set1_epi16((short)TE_MIN(p->act_max, 127));
#else
    sse.n = 0;
#endif
    if (!p->fast_rq)
        te_conv2d_gemm_run(p, input, wi, qr, zp_row, output, &sse, 0);
    else if (p->act_min <= -128 && p->act_max >= 127)
        te_conv2d_gemm_run(p, input, wi, qr, zp_row, output, &sse, 2);
    else
        te_conv2d_gemm_run(p, input, wi, qr, zp_row, output, &sse, 1);
}
/* te:end */

/* te:section te_conv2d_gemm_s8 */
TE_KERNEL void te_conv2d_gemm_s8(const te_conv2d_gemm_params *p, const int8_t *input,
                                 const te_conv2d_gemm_w *w, const int32_t *qr,
                                 const int8_t *zp_row, int8_t *output)
{
    te_conv2d_gemm_s8_inl(p, input, w, qr, zp_row, output);
}
/* te:end */
