/* te_depthwise_dsp.c - DEPTHWISE_CONV_2D int8 kernels with Armv7E-M SIMD
 * (see te_depthwise_dsp.h).  Only compiled when TE_TARGET_DSP is defined.
 *
 * Ring kernels: per group of 4 channels, a ring of rows per channel holds
 * the input rows the current band of output rows reads: int16 values
 * x - zero_point, column pairs packed in 32-bit words, zero in the padding
 * (so no tap is ever skipped).  Ring column = input column + pad_left (in
 * column mode, for narrow images, the same with rows and columns swapped:
 * ring rows hold input columns, so lines are long).  Four
 * output pixels at a time read word-aligned column pairs and accumulate
 * 2 * (x - zp) * w with SMLAD (doubled weights); the doubled sum feeds the
 * cheap exact requantization of te_convfam_fast_requant (SMMLAR form).  The
 * pixel loops are inline assembly with GCC on Cortex-M; the portable C loops
 * compute the same (and run these kernels on other hosts and compilers).
 * The channels-last kernel (bottom) skips the taps outside the image. */
#include "te_common.h"
#include "te_depthwise_dsp.h"

#if defined(TE_TARGET_DSP)

#if defined(__GNUC__)
#define TE_DEPTHWISE_DSP_INLINE static inline TE_UNUSED __attribute__((always_inline))
#define TE_DEPTHWISE_DSP_UNROLL _Pragma("GCC unroll 8")
#else
#define TE_DEPTHWISE_DSP_INLINE static inline TE_UNUSED
#define TE_DEPTHWISE_DSP_UNROLL
#endif

/* ---- private primitives (instructions on Cortex-M, exact C elsewhere) --- */

#if defined(__ARM_FEATURE_DSP)
/* te:section te_depthwise_dsp_sxtab16_ror8 */
/* a + sxtb16(b ror 8): bytes 1 and 3 of b added to the halves of a */
static inline TE_UNUSED uint32_t te_depthwise_dsp_sxtab16_ror8(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* te:end */
/* te:section te_depthwise_dsp_sat8 */
/* v clamped to [-128, 127] */
static inline TE_UNUSED int32_t te_depthwise_dsp_sat8(int32_t v)
{
    int32_t r;
    __asm__("ssat %0, #8, %1" : "=r"(r) : "r"(v));
    return r;
}
/* te:end */
/* te:section te_depthwise_dsp_smmlar */
/* acc + ((a * b + 2^31) >> 32) (SMMLAR) */
static inline TE_UNUSED int32_t te_depthwise_dsp_smmlar(int32_t a, int32_t b, int32_t acc)
{
    int32_t r;
    __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
    return r;
}
/* te:end */
/* te:section te_depthwise_dsp_smlabb */
/* acc + lo(a) * lo(b), acc + hi(a) * hi(b) (int16 halves) */
static inline TE_UNUSED int32_t te_depthwise_dsp_smlabb(uint32_t a, uint32_t b, int32_t acc)
{
    int32_t r;
    __asm__("smlabb %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
    return r;
}
/* te:end */
/* te:section te_depthwise_dsp_smlatt */
static inline TE_UNUSED int32_t te_depthwise_dsp_smlatt(uint32_t a, uint32_t b, int32_t acc)
{
    int32_t r;
    __asm__("smlatt %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
    return r;
}
/* te:end */
/* te:section te_depthwise_dsp_pack_lo */
/* low half of a, low half of b as high half (PKHBT, LSL #16) */
static inline TE_UNUSED uint32_t te_depthwise_dsp_pack_lo(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* te:end */
/* te:section te_depthwise_dsp_pack_hi */
/* high half of a as low half, high half of b (PKHTB, ASR #16) */
static inline TE_UNUSED uint32_t te_depthwise_dsp_pack_hi(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__("pkhtb %0, %2, %1, asr #16" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* te:end */
#else
/* te:section te_depthwise_dsp_sxtab16_ror8 */
static inline TE_UNUSED uint32_t te_depthwise_dsp_sxtab16_ror8(uint32_t a, uint32_t b)
{
    return te_sxtab16(a, b >> 8 | b << 24);
}
/* te:end */
/* te:section te_depthwise_dsp_sat8 */
static inline TE_UNUSED int32_t te_depthwise_dsp_sat8(int32_t v)
{
    return v < -128 ? -128 : (v > 127 ? 127 : v);
}
/* te:end */
/* te:section te_depthwise_dsp_smmlar */
static inline TE_UNUSED int32_t te_depthwise_dsp_smmlar(int32_t a, int32_t b, int32_t acc)
{
    return (int32_t)(((int64_t)a * b + (int64_t)acc * 4294967296 + 2147483648) >> 32);
}
/* te:end */
/* te:section te_depthwise_dsp_smlabb */
static inline TE_UNUSED int32_t te_depthwise_dsp_smlabb(uint32_t a, uint32_t b, int32_t acc)
{
    int32_t p = (int32_t)(int16_t)(a & 0xffffu) * (int32_t)(int16_t)(b & 0xffffu);
    return (int32_t)((uint32_t)acc + (uint32_t)p);
}
/* te:end */
/* te:section te_depthwise_dsp_smlatt */
static inline TE_UNUSED int32_t te_depthwise_dsp_smlatt(uint32_t a, uint32_t b, int32_t acc)
{
    int32_t p = (int32_t)(int16_t)(a >> 16) * (int32_t)(int16_t)(b >> 16);
    return (int32_t)((uint32_t)acc + (uint32_t)p);
}
/* te:end */
/* te:section te_depthwise_dsp_pack_lo */
static inline TE_UNUSED uint32_t te_depthwise_dsp_pack_lo(uint32_t a, uint32_t b)
{
    return (a & 0xffffu) | b << 16;
}
/* te:end */
/* te:section te_depthwise_dsp_pack_hi */
static inline TE_UNUSED uint32_t te_depthwise_dsp_pack_hi(uint32_t a, uint32_t b)
{
    return a >> 16 | (b & 0xffff0000u);
}
/* te:end */
#endif

/* te:section te_depthwise_dsp_opaque */
/* Hides the value of p from the optimiser, so that loads through it stay
 * where they are written (hoisted loads would only be spilled). */
TE_DEPTHWISE_DSP_INLINE int32_t *te_depthwise_dsp_opaque(int32_t *p)
{
#if defined(__GNUC__)
    __asm__("" : "+r"(p));
#endif
    return p;
}
/* te:end */

/* ---- one channel's constants -------------------------------------------
 * An int32 block per channel of the group: the weight words, then fields
 * (the assembly reads them by byte offset).  Weight words, per filter row:
 * E_0..E_nw-1 (nw = (k + 1) / 2), for stride 1 interleaved with O_0..O_nw-1
 * (E_0, O_0, E_1, O_1, ...), E_j =
 * (2 w[2j], 2 w[2j+1]), O_j = (2 w[2j-1], 2 w[2j]) as (low, high) int16
 * halves, w[t] = 0 outside the row.  Doubled weights make doubled sums. */
#define TE_DEPTHWISE_DSP_FIELDS(k) ((k) * ((k) + 1)) /* first field */
#define TE_DEPTHWISE_DSP_B2 0     /* 2 * bias */
#define TE_DEPTHWISE_DSP_M 1      /* m, h, e: the rq entry */
#define TE_DEPTHWISE_DSP_C 4      /* output pixel stride (bytes) */
#define TE_DEPTHWISE_DSP_C3 5     /* 3 times that */
#define TE_DEPTHWISE_DSP_END 6    /* out pointer after the row's last quad */
#define TE_DEPTHWISE_DSP_TAB 7    /* next row's k ring row pointers (channel 0) */
#define TE_DEPTHWISE_DSP_CHOFF 8  /* bytes from channel 0's ring to this one's */
#define TE_DEPTHWISE_DSP_OUT 9    /* out pointer of the next row's pixel 0 */
#define TE_DEPTHWISE_DSP_ROWB 10  /* bytes between output rows */
#define TE_DEPTHWISE_DSP_QB 11    /* bytes the quads of a row advance out by */
#define TE_DEPTHWISE_DSP_NR 12    /* rows left */
#define TE_DEPTHWISE_DSP_TAILF 13 /* row length % 4: bit 1 a pair, bit 0 a single pixel */
#define TE_DEPTHWISE_DSP_CS_WORDS(k) (TE_DEPTHWISE_DSP_FIELDS(k) + 15)

/* Byte offsets the assembly below reads from a channel's block (cs): 3x3
 * with literal offsets (fields at 4 * FIELDS(3) = 48), 5x5 and 7x7 with
 * F = 4 * FIELDS(k) ("120", "224") plus literal field offsets.  The weight
 * rows: 8 nw bytes a row at stride 1, 4 nw at stride 2, nw = (k + 1) / 2;
 * the row pointer table: 4 k bytes a row. */
#define TE_DEPTHWISE_DSP_AT(k, field) (4 * (TE_DEPTHWISE_DSP_FIELDS(k) + (field)))
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_B2) == 48, dsp_k3_b2);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_M) == 52, dsp_k3_m);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_M + 2) == 60, dsp_k3_e);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_C) == 64, dsp_k3_c);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_C3) == 68, dsp_k3_c3);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_END) == 72, dsp_k3_end);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_TAB) == 76, dsp_k3_tab);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_CHOFF) == 80, dsp_k3_choff);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_OUT) == 84, dsp_k3_out);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_ROWB) == 88, dsp_k3_rowb);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_QB) == 92, dsp_k3_qb);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_NR) == 96, dsp_k3_nr);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(3, TE_DEPTHWISE_DSP_TAILF) == 100, dsp_k3_tailf);
TE_STATIC_ASSERT(TE_DEPTHWISE_DSP_AT(5, 0) == 120 && TE_DEPTHWISE_DSP_AT(7, 0) == 224, dsp_f);
TE_STATIC_ASSERT(4 * TE_DEPTHWISE_DSP_M == 4 && 4 * (TE_DEPTHWISE_DSP_M + 2) == 12, dsp_f_rq);
TE_STATIC_ASSERT(4 * TE_DEPTHWISE_DSP_C == 16 && 4 * TE_DEPTHWISE_DSP_END == 24, dsp_f_c_end);
TE_STATIC_ASSERT(4 * TE_DEPTHWISE_DSP_TAB == 28 && 4 * TE_DEPTHWISE_DSP_CHOFF == 32, dsp_f_tab);
TE_STATIC_ASSERT(4 * TE_DEPTHWISE_DSP_OUT == 36 && 4 * TE_DEPTHWISE_DSP_ROWB == 40, dsp_f_out);
TE_STATIC_ASSERT(4 * TE_DEPTHWISE_DSP_QB == 44 && 4 * TE_DEPTHWISE_DSP_TAILF == 52, dsp_f_qb);
TE_STATIC_ASSERT(8 * ((3 + 1) / 2) == 16 && 4 * ((3 + 1) / 2) == 8, dsp_k3_rows);
TE_STATIC_ASSERT(8 * ((5 + 1) / 2) == 24 && 4 * ((5 + 1) / 2) == 12, dsp_k5_rows);
TE_STATIC_ASSERT(8 * ((7 + 1) / 2) == 32 && 4 * ((7 + 1) / 2) == 16, dsp_k7_rows);
TE_STATIC_ASSERT(4 * 5 == 20 && 4 * 7 == 28, dsp_tab_rows);

/* ---- requantization ---------------------------------------------------- */

/* One channel's requantization values, held in registers by the loops. */
typedef struct {
    int32_t m, h, e, zp, lo, hi;
} te_depthwise_dsp_rqv;

/* te:section te_depthwise_dsp_out */
TE_DEPTHWISE_DSP_INLINE int8_t te_depthwise_dsp_out(int32_t a2, te_depthwise_dsp_rqv q, int mode)
{
    int32_t v;
    if (mode == TE_DEPTHWISE_DSP_SLOW) {
        v = te_mul_by_quant_mult(a2 / 2, q.m, (int)q.h);
        v = (int32_t)((uint32_t)v + (uint32_t)q.zp);
        return (int8_t)te_clamp_i32(v, q.lo, q.hi);
    }
    /* (2^32 * (H - [acc < 0]) + a2 * m + 2^31) >> 32, then >> e */
    v = te_depthwise_dsp_smmlar(a2, q.m, q.h - (int32_t)((uint32_t)a2 >> 31)) >> q.e;
    if (mode == TE_DEPTHWISE_DSP_SAT)
        return (int8_t)te_depthwise_dsp_sat8(v);
    return (int8_t)te_clamp_i32(v, q.lo, q.hi);
}
/* te:end */

/* ---- portable pixel loops ------------------------------------------------ */

/* te:section te_depthwise_dsp_pixels */
/* Doubled accumulators of np (1, 2 or 4) consecutive output pixels of one
 * channel: x[ky] = ring word of the first pixel's first column in filter
 * row ky, w = weight words. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_pixels(const uint32_t *const *x, const int32_t *w,
                                                     int32_t b2, int32_t *a, int np, int k,
                                                     int s)
{
    const int nw = (k + 1) / 2;
    const int wrow = s == 1 ? 2 * nw : nw;
    int32_t a0 = b2, a1 = b2, a2 = b2, a3 = b2;
    int ky, j;
    TE_DEPTHWISE_DSP_UNROLL
    for (ky = 0; ky < k; ky++) {
        const uint32_t *xr = x[ky];
        const int32_t *wk = w + ky * wrow;
        if (s == 1) {
            /* pixels 0, 1 read words 0..nw-1; pixels 2, 3 words 1..nw */
            TE_DEPTHWISE_DSP_UNROLL
            for (j = 0; j < nw; j++) {
                uint32_t e = (uint32_t)wk[2 * j], o = (uint32_t)wk[2 * j + 1];
                a0 = te_smlad(xr[j], e, a0);
                if (np > 1)
                    a1 = te_smlad(xr[j], o, a1);
                if (np > 2) {
                    a2 = te_smlad(xr[j + 1], e, a2);
                    a3 = te_smlad(xr[j + 1], o, a3);
                }
            }
        } else {
            /* pixel p reads words p..p+nw-1 */
            TE_DEPTHWISE_DSP_UNROLL
            for (j = 0; j < nw; j++) {
                uint32_t e = (uint32_t)wk[j];
                a0 = te_smlad(xr[j], e, a0);
                if (np > 1)
                    a1 = te_smlad(xr[j + 1], e, a1);
                if (np > 2) {
                    a2 = te_smlad(xr[j + 2], e, a2);
                    a3 = te_smlad(xr[j + 3], e, a3);
                }
            }
        }
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
}
/* te:end */

/* te:section te_depthwise_dsp_row */
/* One output row of one channel: quads of pixels, then a pair and/or a
 * single pixel.  rows[ky]: the channel's ring row of filter row ky (word 0
 * = ring columns 0, 1); cs: the channel's constants; out: the channel's
 * byte of output pixel 0, pixels c bytes apart. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_row(const uint32_t *const *rows, int ow, int c,
                                                  int32_t *cs, te_depthwise_dsp_rqv q,
                                                  int8_t *out, int k, int s, int mode)
{
    const uint32_t *x[7];
    const int32_t b2 = cs[TE_DEPTHWISE_DSP_FIELDS(k) + TE_DEPTHWISE_DSP_B2];
    int32_t a[4];
    int ox, ky, np;
    TE_DEPTHWISE_DSP_UNROLL
    for (ky = 0; ky < k; ky++)
        x[ky] = rows[ky];
    for (ox = 0; ox + 4 <= ow; ox += 4) {
        te_depthwise_dsp_pixels(x, te_depthwise_dsp_opaque(cs), b2, a, 4, k, s);
        out[0] = te_depthwise_dsp_out(a[0], q, mode);
        out[c] = te_depthwise_dsp_out(a[1], q, mode);
        out[2 * c] = te_depthwise_dsp_out(a[2], q, mode);
        out[3 * c] = te_depthwise_dsp_out(a[3], q, mode);
        out += 4 * c;
        TE_DEPTHWISE_DSP_UNROLL
        for (ky = 0; ky < k; ky++)
            x[ky] += 2 * s;
    }
    for (; ox < ow; ox += np) {
        np = ow - ox >= 2 ? 2 : 1;
        te_depthwise_dsp_pixels(x, cs, b2, a, np, k, s);
        out[0] = te_depthwise_dsp_out(a[0], q, mode);
        if (np > 1)
            out[c] = te_depthwise_dsp_out(a[1], q, mode);
        out += np * c;
        for (ky = 0; ky < k; ky++)
            x[ky] += s;
    }
}
/* te:end */

/* ---- assembly pixel loops: 3x3, SAT mode, Cortex-M ----------------------
 * Registers: x0..x2 the filter rows' ring words (advancing), out, a0..a3
 * accumulators, b the doubled bias, d0, d1 data words, e0, e1 weights; cs
 * the constants block (weights at byte 0, fields from byte 48).  The first
 * filter row's SMLADs start from b (s0..s3 = "b"), the others from the
 * accumulators (s0..s3 = "a0".."a3"). */
/* GCC only: the loops hold 14 registers (clang keeps r7 for itself) and
 * are single strings longer than the 4095 characters C99 promises. */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#define TE_DEPTHWISE_DSP_ASM 1
#define TE_DEPTHWISE_DSP_MAC(a, x, w, s) "smlad %[" a "], %[" x "], %[" w "], %[" s "]\n\t"
/* te:section TE_DEPTHWISE_DSP_S1_QUAD */
/* stride 1 quad, one filter row: words X0, X1 (x advances 2 words), X2;
 * weights E0, O0, E1, O1 at byte off */
#define TE_DEPTHWISE_DSP_S1_QUAD(x, off, s0, s1, s2, s3)                                       \
    "ldrd %[d0], %[d1], [%[" x "]], #8\n\t"                                                   \
    "ldrd %[e0], %[e1], [%[cs], #" off "]\n\t"                                                \
    TE_DEPTHWISE_DSP_MAC("a0", "d0", "e0", s0) TE_DEPTHWISE_DSP_MAC("a1", "d0", "e1", s1)     \
    TE_DEPTHWISE_DSP_MAC("a2", "d1", "e0", s2) TE_DEPTHWISE_DSP_MAC("a3", "d1", "e1", s3)     \
    "ldrd %[e0], %[e1], [%[cs], #" off "+8]\n\t"                                              \
    "ldr %[d0], [%[" x "]]\n\t"                                                               \
    TE_DEPTHWISE_DSP_MAC("a0", "d1", "e0", "a0") TE_DEPTHWISE_DSP_MAC("a1", "d1", "e1", "a1") \
    TE_DEPTHWISE_DSP_MAC("a2", "d0", "e0", "a2") TE_DEPTHWISE_DSP_MAC("a3", "d0", "e1", "a3")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S1_PAIR */
/* stride 1 pair: X0, X1 (x advances 1 word) */
#define TE_DEPTHWISE_DSP_S1_PAIR(x, off, s0, s1)                                               \
    "ldrd %[d0], %[d1], [%[" x "]], #4\n\t"                                                   \
    "ldrd %[e0], %[e1], [%[cs], #" off "]\n\t"                                                \
    TE_DEPTHWISE_DSP_MAC("a0", "d0", "e0", s0) TE_DEPTHWISE_DSP_MAC("a1", "d0", "e1", s1)     \
    "ldrd %[e0], %[e1], [%[cs], #" off "+8]\n\t"                                              \
    TE_DEPTHWISE_DSP_MAC("a0", "d1", "e0", "a0") TE_DEPTHWISE_DSP_MAC("a1", "d1", "e1", "a1")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S2_QUAD */
/* stride 2 quad: X0..X4 (x advances 4 words); weights E0, E1 */
#define TE_DEPTHWISE_DSP_S2_QUAD(x, off, s0, s1, s2, s3)                                       \
    "ldrd %[d0], %[d1], [%[" x "]], #8\n\t"                                                   \
    "ldrd %[e0], %[e1], [%[cs], #" off "]\n\t"                                                \
    TE_DEPTHWISE_DSP_MAC("a0", "d0", "e0", s0) TE_DEPTHWISE_DSP_MAC("a0", "d1", "e1", "a0")   \
    TE_DEPTHWISE_DSP_MAC("a1", "d1", "e0", s1)                                                \
    "ldrd %[d0], %[d1], [%[" x "]], #8\n\t"                                                   \
    TE_DEPTHWISE_DSP_MAC("a1", "d0", "e1", "a1") TE_DEPTHWISE_DSP_MAC("a2", "d0", "e0", s2)   \
    TE_DEPTHWISE_DSP_MAC("a2", "d1", "e1", "a2") TE_DEPTHWISE_DSP_MAC("a3", "d1", "e0", s3)   \
    "ldr %[d0], [%[" x "]]\n\t"                                                               \
    TE_DEPTHWISE_DSP_MAC("a3", "d0", "e1", "a3")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S2_PAIR */
/* stride 2 pair: X0, X1 (x advances 2 words), X2 */
#define TE_DEPTHWISE_DSP_S2_PAIR(x, off, s0, s1)                                               \
    "ldrd %[d0], %[d1], [%[" x "]], #8\n\t"                                                   \
    "ldrd %[e0], %[e1], [%[cs], #" off "]\n\t"                                                \
    TE_DEPTHWISE_DSP_MAC("a0", "d0", "e0", s0) TE_DEPTHWISE_DSP_MAC("a0", "d1", "e1", "a0")   \
    TE_DEPTHWISE_DSP_MAC("a1", "d1", "e0", s1)                                                \
    "ldr %[d0], [%[" x "]]\n\t"                                                               \
    TE_DEPTHWISE_DSP_MAC("a1", "d0", "e1", "a1")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S1_ONE */
/* single pixel: X0, X1; weights E0, E1 (stride 1: E0, O0, E1) */
#define TE_DEPTHWISE_DSP_S1_ONE(x, off, s0)                                                    \
    "ldrd %[d0], %[d1], [%[" x "]]\n\t"                                                       \
    "ldr %[e0], [%[cs], #" off "]\n\t"                                                        \
    "ldr %[e1], [%[cs], #" off "+8]\n\t"                                                      \
    TE_DEPTHWISE_DSP_MAC("a0", "d0", "e0", s0) TE_DEPTHWISE_DSP_MAC("a0", "d1", "e1", "a0")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S2_ONE */
#define TE_DEPTHWISE_DSP_S2_ONE(x, off, s0)                                                    \
    "ldrd %[d0], %[d1], [%[" x "]]\n\t"                                                       \
    "ldrd %[e0], %[e1], [%[cs], #" off "]\n\t"                                                \
    TE_DEPTHWISE_DSP_MAC("a0", "d0", "e0", s0) TE_DEPTHWISE_DSP_MAC("a0", "d1", "e1", "a0")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_RQ */
/* accumulator a requantized (SAT): d0 = m, d1 = h, e0 = e; e1 scratch */
#define TE_DEPTHWISE_DSP_RQ(a)                                                                 \
    "sub %[e1], %[d1], %[" a "], lsr #31\n\t"                                                 \
    "smmlar %[" a "], %[" a "], %[d0], %[e1]\n\t"                                             \
    "asr %[" a "], %[" a "], %[e0]\n\t"                                                       \
    "ssat %[" a "], #8, %[" a "]\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_RQ_LOAD */
/* d0, d1, e0 = m, h, e */
#define TE_DEPTHWISE_DSP_RQ_LOAD                                                               \
    "ldrd %[d0], %[d1], [%[cs], #52]\n\t"                                                     \
    "ldr %[e0], [%[cs], #60]\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_ROW_START */
/* row loop head: x0..x2 = the row's ring rows (table + channel offset),
 * out = OUT, OUT += ROWB, END = out + QB; no quad: skip to 3 */
#define TE_DEPTHWISE_DSP_ROW_START                                                             \
    "ldr %[b], [%[cs], #48]\n\t"                                                              \
    "2:\n\t"                                                                                  \
    "ldrd %[e1], %[e0], [%[cs], #76]\n\t"                                                     \
    "ldr %[x0], [%[e1]], #4\n\t"                                                              \
    "ldr %[x1], [%[e1]], #4\n\t"                                                              \
    "ldr %[x2], [%[e1]], #4\n\t"                                                              \
    "str %[e1], [%[cs], #76]\n\t"                                                             \
    "add %[x0], %[x0], %[e0]\n\t"                                                             \
    "add %[x1], %[x1], %[e0]\n\t"                                                             \
    "add %[x2], %[x2], %[e0]\n\t"                                                             \
    "ldrd %[out], %[e0], [%[cs], #84]\n\t"                                                    \
    "add %[e1], %[out], %[e0]\n\t"                                                            \
    "str %[e1], [%[cs], #84]\n\t"                                                             \
    "ldr %[e0], [%[cs], #92]\n\t"                                                             \
    "add %[e1], %[out], %[e0]\n\t"                                                            \
    "str %[e1], [%[cs], #72]\n\t"                                                             \
    "cmp %[out], %[e1]\n\t"                                                                   \
    "beq 3f\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_QUAD_END */
/* the quad's outputs at out + (0, 1, 2, 3) * C (e0 = C, e1 = 3 C), out
 * advances 4 C; back to 1 until END */
#define TE_DEPTHWISE_DSP_QUAD_END                                                              \
    TE_DEPTHWISE_DSP_RQ_LOAD                                                                   \
    TE_DEPTHWISE_DSP_RQ("a0") TE_DEPTHWISE_DSP_RQ("a1") TE_DEPTHWISE_DSP_RQ("a2")             \
    TE_DEPTHWISE_DSP_RQ("a3")                                                                  \
    "ldrd %[e0], %[e1], [%[cs], #64]\n\t"                                                     \
    "strb %[a0], [%[out]]\n\t"                                                                \
    "strb %[a1], [%[out], %[e0]]\n\t"                                                         \
    "strb %[a2], [%[out], %[e0], lsl #1]\n\t"                                                 \
    "strb %[a3], [%[out], %[e1]]\n\t"                                                         \
    "add %[out], %[out], %[e0], lsl #2\n\t"                                                   \
    "ldr %[e1], [%[cs], #72]\n\t"                                                             \
    "cmp %[out], %[e1]\n\t"                                                                   \
    "bne 1b\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_TAIL */
/* after the quads: a pair if TAILF bit 1, a single pixel if bit 0; then
 * the next row while NR counts down */
#define TE_DEPTHWISE_DSP_TAIL(PAIR, ONE, o1, o2)                                               \
    "3:\n\t"                                                                                  \
    "ldr %[e0], [%[cs], #100]\n\t"                                                            \
    "tst %[e0], #2\n\t"                                                                       \
    "beq 4f\n\t"                                                                              \
    PAIR("x0", "0", "b", "b") PAIR("x1", o1, "a0", "a1") PAIR("x2", o2, "a0", "a1")           \
    TE_DEPTHWISE_DSP_RQ_LOAD TE_DEPTHWISE_DSP_RQ("a0") TE_DEPTHWISE_DSP_RQ("a1")              \
    "ldr %[e0], [%[cs], #64]\n\t"                                                             \
    "strb %[a0], [%[out]]\n\t"                                                                \
    "strb %[a1], [%[out], %[e0]]\n\t"                                                         \
    "add %[out], %[out], %[e0], lsl #1\n\t"                                                   \
    "ldr %[e0], [%[cs], #100]\n\t"                                                            \
    "4:\n\t"                                                                                  \
    "tst %[e0], #1\n\t"                                                                       \
    "beq 5f\n\t"                                                                              \
    ONE("x0", "0", "b") ONE("x1", o1, "a0") ONE("x2", o2, "a0")                               \
    TE_DEPTHWISE_DSP_RQ_LOAD TE_DEPTHWISE_DSP_RQ("a0")                                         \
    "strb %[a0], [%[out]]\n\t"                                                                \
    "5:\n\t"                                                                                  \
    "ldr %[e0], [%[cs], #96]\n\t"                                                             \
    "subs %[e0], %[e0], #1\n\t"                                                               \
    "str %[e0], [%[cs], #96]\n\t"                                                             \
    "bne 2b\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_OPERANDS */
#define TE_DEPTHWISE_DSP_OPERANDS                                                              \
    : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [out] "=&r"(out), [a0] "=&r"(a0),         \
      [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [b] "=&r"(b), [d0] "=&r"(d0),             \
      [d1] "=&r"(d1), [e0] "=&r"(e0), [e1] "=&r"(e1)                                           \
    : [cs] "r"(cs)                                                                             \
    : "cc", "memory"
/* te:end */

/* te:section te_depthwise_dsp_rows_k3 */
/* NR (>= 1) output rows of one channel, 3x3 filter, SAT mode, from the
 * row state in cs (TAB, CHOFF, OUT, ROWB, QB, TAILF). */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_rows_k3(int32_t *cs, int s)
{
    const uint32_t *x0, *x1, *x2;
    int8_t *out;
    int32_t a0, a1, a2, a3, b;
    uint32_t d0, d1, e0, e1;
    /* stride 1 weights E0 O0 E1 O1 are 16 bytes a filter row, stride 2's
     * E0 E1 are 8 */
    if (s == 1)
        __asm__ volatile(TE_DEPTHWISE_DSP_ROW_START
                         "1:\n\t"
                         TE_DEPTHWISE_DSP_S1_QUAD("x0", "0", "b", "b", "b", "b")
                         TE_DEPTHWISE_DSP_S1_QUAD("x1", "16", "a0", "a1", "a2", "a3")
                         TE_DEPTHWISE_DSP_S1_QUAD("x2", "32", "a0", "a1", "a2", "a3")
                         TE_DEPTHWISE_DSP_QUAD_END
                         TE_DEPTHWISE_DSP_TAIL(TE_DEPTHWISE_DSP_S1_PAIR, TE_DEPTHWISE_DSP_S1_ONE,
                                               "16", "32")
                         TE_DEPTHWISE_DSP_OPERANDS);
    else
        __asm__ volatile(TE_DEPTHWISE_DSP_ROW_START
                         "1:\n\t"
                         TE_DEPTHWISE_DSP_S2_QUAD("x0", "0", "b", "b", "b", "b")
                         TE_DEPTHWISE_DSP_S2_QUAD("x1", "8", "a0", "a1", "a2", "a3")
                         TE_DEPTHWISE_DSP_S2_QUAD("x2", "16", "a0", "a1", "a2", "a3")
                         TE_DEPTHWISE_DSP_QUAD_END
                         TE_DEPTHWISE_DSP_TAIL(TE_DEPTHWISE_DSP_S2_PAIR, TE_DEPTHWISE_DSP_S2_ONE,
                                               "8", "16")
                         TE_DEPTHWISE_DSP_OPERANDS);
}
/* te:end */

/* ---- assembly pixel loops: 5x5 and 7x7, SAT mode, Cortex-M --------------
 * The k filter rows' ring rows come from the row table (tab: this output
 * row's k pointers of channel 0) plus qo (channel offset + position in the
 * row, advancing).  Registers: xr a ring row, a0..a3 accumulators, p0, p1
 * data words, e0, e1 weights; cs the constants block (fields at byte F). */
/* te:section TE_DEPTHWISE_DSP_XR */
#define TE_DEPTHWISE_DSP_XR(ky)                                                                \
    "ldr %[xr], [%[tab], #4*" ky "]\n\t"                                                      \
    "add %[xr], %[xr], %[qo]\n\t"
/* te:end */
#define TE_DEPTHWISE_DSP_SMLAD(a, x, w) "smlad %[" a "], %[" x "], %[" w "], %[" a "]\n\t"
/* te:section TE_DEPTHWISE_DSP_S1Q */
/* stride 1 quad, weight pair j (Ej, Oj at byte r + 8j) with data word j in
 * A, word j + 1 loaded into B */
#define TE_DEPTHWISE_DSP_S1Q(r, j, A, B)                                                       \
    "ldrd %[e0], %[e1], [%[cs], #" r "+8*" j "]\n\t"                                          \
    "ldr %[" B "], [%[xr], #4+4*" j "]\n\t"                                                   \
    TE_DEPTHWISE_DSP_SMLAD("a0", A, "e0") TE_DEPTHWISE_DSP_SMLAD("a1", A, "e1")               \
    TE_DEPTHWISE_DSP_SMLAD("a2", B, "e0") TE_DEPTHWISE_DSP_SMLAD("a3", B, "e1")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S1P */
/* stride 1 pair / single pixel, weight pair j */
#define TE_DEPTHWISE_DSP_S1P(r, j)                                                             \
    "ldrd %[e0], %[e1], [%[cs], #" r "+8*" j "]\n\t"                                          \
    "ldr %[p0], [%[xr], #4*" j "]\n\t"                                                        \
    TE_DEPTHWISE_DSP_SMLAD("a0", "p0", "e0") TE_DEPTHWISE_DSP_SMLAD("a1", "p0", "e1")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S1O */
#define TE_DEPTHWISE_DSP_S1O(r, j)                                                             \
    "ldr %[e0], [%[cs], #" r "+8*" j "]\n\t"                                                  \
    "ldr %[p0], [%[xr], #4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a0", "p0", "e0")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S2Q2 */
/* stride 2 quad, weights j, j + 1 (byte r + 4j): pixel p reads word p + j */
#define TE_DEPTHWISE_DSP_S2Q2(r, j)                                                            \
    "ldrd %[e0], %[e1], [%[cs], #" r "+4*" j "]\n\t"                                          \
    "ldr %[p0], [%[xr], #4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a0", "p0", "e0")               \
    "ldr %[p1], [%[xr], #4+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a0", "p1", "e1")             \
    TE_DEPTHWISE_DSP_SMLAD("a1", "p1", "e0")                                                   \
    "ldr %[p0], [%[xr], #8+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a1", "p0", "e1")             \
    TE_DEPTHWISE_DSP_SMLAD("a2", "p0", "e0")                                                   \
    "ldr %[p1], [%[xr], #12+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a2", "p1", "e1")            \
    TE_DEPTHWISE_DSP_SMLAD("a3", "p1", "e0")                                                   \
    "ldr %[p0], [%[xr], #16+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a3", "p0", "e1")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S2Q1 */
/* stride 2 quad, last weight j alone */
#define TE_DEPTHWISE_DSP_S2Q1(r, j)                                                            \
    "ldr %[e0], [%[cs], #" r "+4*" j "]\n\t"                                                  \
    "ldr %[p0], [%[xr], #4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a0", "p0", "e0")               \
    "ldr %[p1], [%[xr], #4+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a1", "p1", "e0")             \
    "ldr %[p0], [%[xr], #8+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a2", "p0", "e0")             \
    "ldr %[p1], [%[xr], #12+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a3", "p1", "e0")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S2P */
/* stride 2 pair / single pixel, weight j */
#define TE_DEPTHWISE_DSP_S2P(r, j)                                                             \
    "ldr %[e0], [%[cs], #" r "+4*" j "]\n\t"                                                  \
    "ldr %[p0], [%[xr], #4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a0", "p0", "e0")               \
    "ldr %[p1], [%[xr], #4+4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a1", "p1", "e0")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_S2O */
#define TE_DEPTHWISE_DSP_S2O(r, j)                                                             \
    "ldr %[e0], [%[cs], #" r "+4*" j "]\n\t"                                                  \
    "ldr %[p0], [%[xr], #4*" j "]\n\t" TE_DEPTHWISE_DSP_SMLAD("a0", "p0", "e0")
/* te:end */

/* te:section TE_DEPTHWISE_DSP_K5S1Q */
/* one filter row ky of the 5x5 (nw = 3) and 7x7 (nw = 4) kernels; stride 1
 * rows hold 8 nw bytes of weights, stride 2 rows 4 nw */
#define TE_DEPTHWISE_DSP_K5S1Q(ky) \
    TE_DEPTHWISE_DSP_XR(ky) "ldr %[p0], [%[xr]]\n\t" \
    TE_DEPTHWISE_DSP_S1Q("24*" ky, "0", "p0", "p1") \
    TE_DEPTHWISE_DSP_S1Q("24*" ky, "1", "p1", "p0") \
    TE_DEPTHWISE_DSP_S1Q("24*" ky, "2", "p0", "p1")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K7S1Q */
#define TE_DEPTHWISE_DSP_K7S1Q(ky) \
    TE_DEPTHWISE_DSP_XR(ky) "ldr %[p0], [%[xr]]\n\t" \
    TE_DEPTHWISE_DSP_S1Q("32*" ky, "0", "p0", "p1") \
    TE_DEPTHWISE_DSP_S1Q("32*" ky, "1", "p1", "p0") \
    TE_DEPTHWISE_DSP_S1Q("32*" ky, "2", "p0", "p1") \
    TE_DEPTHWISE_DSP_S1Q("32*" ky, "3", "p1", "p0")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K5S1P */
#define TE_DEPTHWISE_DSP_K5S1P(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S1P("24*" ky, "0") \
    TE_DEPTHWISE_DSP_S1P("24*" ky, "1") \
    TE_DEPTHWISE_DSP_S1P("24*" ky, "2")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K7S1P */
#define TE_DEPTHWISE_DSP_K7S1P(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S1P("32*" ky, "0") \
    TE_DEPTHWISE_DSP_S1P("32*" ky, "1") \
    TE_DEPTHWISE_DSP_S1P("32*" ky, "2") \
    TE_DEPTHWISE_DSP_S1P("32*" ky, "3")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K5S1O */
#define TE_DEPTHWISE_DSP_K5S1O(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S1O("24*" ky, "0") \
    TE_DEPTHWISE_DSP_S1O("24*" ky, "1") \
    TE_DEPTHWISE_DSP_S1O("24*" ky, "2")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K7S1O */
#define TE_DEPTHWISE_DSP_K7S1O(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S1O("32*" ky, "0") \
    TE_DEPTHWISE_DSP_S1O("32*" ky, "1") \
    TE_DEPTHWISE_DSP_S1O("32*" ky, "2") \
    TE_DEPTHWISE_DSP_S1O("32*" ky, "3")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K5S2Q */
#define TE_DEPTHWISE_DSP_K5S2Q(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S2Q2("12*" ky, "0") \
    TE_DEPTHWISE_DSP_S2Q1("12*" ky, "2")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K7S2Q */
#define TE_DEPTHWISE_DSP_K7S2Q(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S2Q2("16*" ky, "0") \
    TE_DEPTHWISE_DSP_S2Q2("16*" ky, "2")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K5S2P */
#define TE_DEPTHWISE_DSP_K5S2P(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S2P("12*" ky, "0") \
    TE_DEPTHWISE_DSP_S2P("12*" ky, "1") \
    TE_DEPTHWISE_DSP_S2P("12*" ky, "2")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K7S2P */
#define TE_DEPTHWISE_DSP_K7S2P(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S2P("16*" ky, "0") \
    TE_DEPTHWISE_DSP_S2P("16*" ky, "1") \
    TE_DEPTHWISE_DSP_S2P("16*" ky, "2") \
    TE_DEPTHWISE_DSP_S2P("16*" ky, "3")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K5S2O */
#define TE_DEPTHWISE_DSP_K5S2O(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S2O("12*" ky, "0") \
    TE_DEPTHWISE_DSP_S2O("12*" ky, "1") \
    TE_DEPTHWISE_DSP_S2O("12*" ky, "2")
/* te:end */
/* te:section TE_DEPTHWISE_DSP_K7S2O */
#define TE_DEPTHWISE_DSP_K7S2O(ky) \
    TE_DEPTHWISE_DSP_XR(ky) \
    TE_DEPTHWISE_DSP_S2O("16*" ky, "0") \
    TE_DEPTHWISE_DSP_S2O("16*" ky, "1") \
    TE_DEPTHWISE_DSP_S2O("16*" ky, "2") \
    TE_DEPTHWISE_DSP_S2O("16*" ky, "3")
/* te:end */
#define TE_DEPTHWISE_DSP_ROWS5(M) M("0") M("1") M("2") M("3") M("4")
#define TE_DEPTHWISE_DSP_ROWS7(M) M("0") M("1") M("2") M("3") M("4") M("5") M("6")

/* te:section TE_DEPTHWISE_DSP_RQT */
/* accumulator a requantized (SAT): p0 = m, p1 = h, xr = e; e1 scratch */
#define TE_DEPTHWISE_DSP_RQT(a)                                                                \
    "sub %[e1], %[p1], %[" a "], lsr #31\n\t"                                                 \
    "smmlar %[" a "], %[" a "], %[p0], %[e1]\n\t"                                             \
    "asr %[" a "], %[" a "], %[xr]\n\t"                                                       \
    "ssat %[" a "], #8, %[" a "]\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_RQT_LOAD */
/* p0, p1, xr = m, h, e; e0 = c */
#define TE_DEPTHWISE_DSP_RQT_LOAD(F)                                                           \
    "ldrd %[p0], %[p1], [%[cs], #" F "+4]\n\t"                                                \
    "ldrd %[xr], %[e0], [%[cs], #" F "+12]\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_TABLE_ROWS */
/* Rows loop of a table kernel (F: byte offset of the fields; QUAD, PAIR,
 * ONE: the filter rows' code; QS, PS: bytes qo advances by a quad, a pair;
 * K4: bytes of a row's table entries) */
#define TE_DEPTHWISE_DSP_TABLE_ROWS(F, QUAD, PAIR, ONE, QS, PS, K4)                            \
    "2:\n\t"                                                                                  \
    "ldr %[tab], [%[cs], #" F "+28]\n\t"                                                      \
    "ldrd %[out], %[e0], [%[cs], #" F "+36]\n\t"                                              \
    "add %[e1], %[out], %[e0]\n\t"                                                            \
    "str %[e1], [%[cs], #" F "+36]\n\t"                                                       \
    "ldr %[e0], [%[cs], #" F "+44]\n\t"                                                       \
    "add %[e1], %[out], %[e0]\n\t"                                                            \
    "str %[e1], [%[cs], #" F "+24]\n\t"                                                       \
    "ldr %[qo], [%[cs], #" F "+32]\n\t"                                                       \
    "cmp %[out], %[e1]\n\t"                                                                   \
    "beq 3f\n\t"                                                                              \
    "1:\n\t"                                                                                  \
    "ldr %[a0], [%[cs], #" F "]\n\t"                                                          \
    "mov %[a1], %[a0]\n\t"                                                                    \
    "mov %[a2], %[a0]\n\t"                                                                    \
    "mov %[a3], %[a0]\n\t" QUAD                                                               \
    "add %[qo], %[qo], #" QS "\n\t" TE_DEPTHWISE_DSP_RQT_LOAD(F)                              \
    TE_DEPTHWISE_DSP_RQT("a0") TE_DEPTHWISE_DSP_RQT("a1") TE_DEPTHWISE_DSP_RQT("a2")          \
    TE_DEPTHWISE_DSP_RQT("a3")                                                                 \
    "strb %[a0], [%[out]]\n\t"                                                                \
    "strb %[a1], [%[out], %[e0]]\n\t"                                                         \
    "add %[out], %[out], %[e0], lsl #1\n\t"                                                   \
    "strb %[a2], [%[out]]\n\t"                                                                \
    "strb %[a3], [%[out], %[e0]]\n\t"                                                         \
    "add %[out], %[out], %[e0], lsl #1\n\t"                                                   \
    "ldr %[e1], [%[cs], #" F "+24]\n\t"                                                       \
    "cmp %[out], %[e1]\n\t"                                                                   \
    "bne 1b\n\t"                                                                              \
    "3:\n\t"                                                                                  \
    "ldr %[e0], [%[cs], #" F "+52]\n\t"                                                       \
    "tst %[e0], #2\n\t"                                                                       \
    "beq 4f\n\t"                                                                              \
    "ldr %[a0], [%[cs], #" F "]\n\t"                                                          \
    "mov %[a1], %[a0]\n\t" PAIR                                                               \
    "add %[qo], %[qo], #" PS "\n\t" TE_DEPTHWISE_DSP_RQT_LOAD(F) TE_DEPTHWISE_DSP_RQT("a0")   \
    TE_DEPTHWISE_DSP_RQT("a1")                                                                 \
    "strb %[a0], [%[out]]\n\t"                                                                \
    "strb %[a1], [%[out], %[e0]]\n\t"                                                         \
    "add %[out], %[out], %[e0], lsl #1\n\t"                                                   \
    "ldr %[e0], [%[cs], #" F "+52]\n\t"                                                       \
    "4:\n\t"                                                                                  \
    "tst %[e0], #1\n\t"                                                                       \
    "beq 5f\n\t"                                                                              \
    "ldr %[a0], [%[cs], #" F "]\n\t" ONE TE_DEPTHWISE_DSP_RQT_LOAD(F) TE_DEPTHWISE_DSP_RQT("a0") \
    "strb %[a0], [%[out]]\n\t"                                                                \
    "5:\n\t"                                                                                  \
    "ldr %[e0], [%[cs], #" F "+28]\n\t"                                                       \
    "add %[e0], %[e0], #" K4 "\n\t"                                                           \
    "str %[e0], [%[cs], #" F "+28]\n\t"                                                       \
    "ldr %[e0], [%[cs], #" F "+48]\n\t"                                                       \
    "subs %[e0], %[e0], #1\n\t"                                                               \
    "str %[e0], [%[cs], #" F "+48]\n\t"                                                       \
    "bne 2b\n\t"
/* te:end */
/* te:section TE_DEPTHWISE_DSP_TABLE_OPERANDS */
#define TE_DEPTHWISE_DSP_TABLE_OPERANDS                                                        \
    : [tab] "=&r"(tab), [qo] "=&r"(qo), [out] "=&r"(out), [xr] "=&r"(xr), [a0] "=&r"(a0),       \
      [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [p0] "=&r"(p0), [p1] "=&r"(p1),           \
      [e0] "=&r"(e0), [e1] "=&r"(e1)                                                           \
    : [cs] "r"(cs)                                                                             \
    : "cc", "memory"
/* te:end */

/* te:section te_depthwise_dsp_rows_table */
/* NR (>= 1) output rows of one channel, 5x5 or 7x7 filter, SAT mode, from
 * the row state in cs (TAB, CHOFF, OUT, ROWB, QB, TAIL). */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_rows_table(int32_t *cs, int k, int s)
{
    const uint32_t *tab, *xr;
    int8_t *out;
    int32_t qo, a0, a1, a2, a3;
    uint32_t p0, p1, e0, e1;
    if (k == 5 && s == 1)
        __asm__ volatile(TE_DEPTHWISE_DSP_TABLE_ROWS("120",
                                                     TE_DEPTHWISE_DSP_ROWS5(TE_DEPTHWISE_DSP_K5S1Q),
                                                     TE_DEPTHWISE_DSP_ROWS5(TE_DEPTHWISE_DSP_K5S1P),
                                                     TE_DEPTHWISE_DSP_ROWS5(TE_DEPTHWISE_DSP_K5S1O),
                                                     "8", "4", "20")
                             TE_DEPTHWISE_DSP_TABLE_OPERANDS);
    else if (k == 5)
        __asm__ volatile(TE_DEPTHWISE_DSP_TABLE_ROWS("120",
                                                     TE_DEPTHWISE_DSP_ROWS5(TE_DEPTHWISE_DSP_K5S2Q),
                                                     TE_DEPTHWISE_DSP_ROWS5(TE_DEPTHWISE_DSP_K5S2P),
                                                     TE_DEPTHWISE_DSP_ROWS5(TE_DEPTHWISE_DSP_K5S2O),
                                                     "16", "8", "20")
                             TE_DEPTHWISE_DSP_TABLE_OPERANDS);
    else if (s == 1)
        __asm__ volatile(TE_DEPTHWISE_DSP_TABLE_ROWS("224",
                                                     TE_DEPTHWISE_DSP_ROWS7(TE_DEPTHWISE_DSP_K7S1Q),
                                                     TE_DEPTHWISE_DSP_ROWS7(TE_DEPTHWISE_DSP_K7S1P),
                                                     TE_DEPTHWISE_DSP_ROWS7(TE_DEPTHWISE_DSP_K7S1O),
                                                     "8", "4", "28")
                             TE_DEPTHWISE_DSP_TABLE_OPERANDS);
    else
        __asm__ volatile(TE_DEPTHWISE_DSP_TABLE_ROWS("224",
                                                     TE_DEPTHWISE_DSP_ROWS7(TE_DEPTHWISE_DSP_K7S2Q),
                                                     TE_DEPTHWISE_DSP_ROWS7(TE_DEPTHWISE_DSP_K7S2P),
                                                     TE_DEPTHWISE_DSP_ROWS7(TE_DEPTHWISE_DSP_K7S2O),
                                                     "16", "8", "28")
                             TE_DEPTHWISE_DSP_TABLE_OPERANDS);
}
/* te:end */

#endif

/* ---- weights ------------------------------------------------------------ */

/* te:section te_depthwise_dsp_weights1 */
/* Channel oc's weight words (see above) from the model's weights [k][k][c]
 * into wx; tr: of the transposed filter (column mode, tap (ky, kx) is the
 * model's (kx, ky)). */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_weights1(const int8_t *weights, int c, int oc,
                                                       int32_t *wx, int k, int s, int tr)
{
    const int nw = (k + 1) / 2;
    uint32_t t[9];
    int ky, kx, j;
    t[0] = t[k + 1] = 0;
    for (ky = 0; ky < k; ky++) {
        /* t[i + 1] = doubled tap i as a 16-bit pattern, zero outside */
        for (kx = 0; kx < k; kx++)
            t[kx + 1] = (uint32_t)(2 * weights[(long)(tr ? kx * k + ky : ky * k + kx) * c + oc]) &
                        0xffffu;
        for (j = 0; j < nw; j++) {
            *wx++ = (int32_t)(t[2 * j + 1] | t[2 * j + 2] << 16);
            if (s == 1)
                *wx++ = (int32_t)(t[2 * j] | t[2 * j + 1] << 16);
        }
    }
}
/* te:end */

/* te:section te_depthwise_dsp_weights4 */
/* The same for the 4 channels g..g+3 at once (blocks cs_words apart): a
 * word of taps of 4 channels gives the doubled (ch0, ch2) and (ch1, ch3)
 * pairs, and PKHBT/PKHTB pair up the taps of one channel. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_weights4(const int8_t *weights, int c, int g,
                                                       int32_t *cs, int cs_words, int k, int s,
                                                       int tr)
{
    const int nw = (k + 1) / 2;
    uint32_t ev[9], od[9]; /* tap t - 1 of channels (0, 2) / (1, 3), 0 outside */
    int32_t *w0 = cs, *w1 = cs + cs_words, *w2 = w1 + cs_words, *w3 = w2 + cs_words;
    int ky, kx, j;
    ev[0] = od[0] = ev[k + 1] = od[k + 1] = 0;
    for (ky = 0; ky < k; ky++) {
        for (kx = 0; kx < k; kx++) {
            uint32_t t = te_read_u32(weights + (long)(tr ? kx * k + ky : ky * k + kx) * c + g);
            uint32_t e = te_sxtb16(t), o = te_sxtb16_ror8(t);
            ev[kx + 1] = te_sxtab16(e, t);                  /* 2 * (ch0, ch2) */
            od[kx + 1] = te_depthwise_dsp_sxtab16_ror8(o, t); /* 2 * (ch1, ch3) */
        }
        for (j = 0; j < nw; j++) {
            *w0++ = (int32_t)te_depthwise_dsp_pack_lo(ev[2 * j + 1], ev[2 * j + 2]);
            *w1++ = (int32_t)te_depthwise_dsp_pack_lo(od[2 * j + 1], od[2 * j + 2]);
            *w2++ = (int32_t)te_depthwise_dsp_pack_hi(ev[2 * j + 1], ev[2 * j + 2]);
            *w3++ = (int32_t)te_depthwise_dsp_pack_hi(od[2 * j + 1], od[2 * j + 2]);
            if (s == 1) {
                *w0++ = (int32_t)te_depthwise_dsp_pack_lo(ev[2 * j], ev[2 * j + 1]);
                *w1++ = (int32_t)te_depthwise_dsp_pack_lo(od[2 * j], od[2 * j + 1]);
                *w2++ = (int32_t)te_depthwise_dsp_pack_hi(ev[2 * j], ev[2 * j + 1]);
                *w3++ = (int32_t)te_depthwise_dsp_pack_hi(od[2 * j], od[2 * j + 1]);
            }
        }
    }
}
/* te:end */

/* ---- lines ------------------------------------------------------------- *
 * The ring kernels see the image as lines of pixels: its rows, or (column
 * mode, p->cols) its columns, which is the same kernel on the transposed
 * image (narrow images then make long lines).  Steps are in bytes. */
typedef struct {
    int lines, len;        /* input lines, pixels per line */
    int olines, olen;      /* output lines, pixels per output line */
    int pad_line, pad_px;  /* padding before the first line / pixel */
    long line, px;         /* input steps between lines, between pixels */
    long oline, opx;       /* output steps */
} te_depthwise_dsp_geo;

/* te:section te_depthwise_dsp_geometry */
TE_DEPTHWISE_DSP_INLINE te_depthwise_dsp_geo te_depthwise_dsp_geometry(
    const te_depthwise_dsp_params *p)
{
    te_depthwise_dsp_geo g;
    const long c = p->c;
    if (p->cols) {
        g.lines = p->in_w;
        g.len = p->in_h;
        g.olines = p->out_w;
        g.olen = p->out_h;
        g.pad_line = p->pad_left;
        g.pad_px = p->pad_top;
        g.line = c;
        g.px = p->in_w * c;
        g.oline = c;
        g.opx = p->out_w * c;
    } else {
        g.lines = p->in_h;
        g.len = p->in_w;
        g.olines = p->out_h;
        g.olen = p->out_w;
        g.pad_line = p->pad_top;
        g.pad_px = p->pad_left;
        g.line = p->in_w * c;
        g.px = c;
        g.oline = p->out_w * c;
        g.opx = c;
    }
    return g;
}
/* te:end */

/* te:section te_depthwise_dsp_fill */
/* Writes one ring row per channel of the group (`plane` words apart, from
 * dst) from input line src (pixel 0, first channel of the group), n
 * channels: word i holds ring columns 2i, 2i + 1. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_fill(const te_depthwise_dsp_params *p,
                                                   const te_depthwise_dsp_geo *gm,
                                                   const int8_t *src, int n, uint32_t *dst,
                                                   int plane)
{
    const long c = gm->px;
    const int iw = gm->len;
    const uint32_t off2 = ((uint32_t)p->input_offset & 0xffffu) * 0x10001u;
    int j = -(gm->pad_px & 1); /* first pixel of the first pair (-1: padding) */
    uint32_t *d0 = dst + (gm->pad_px + j) / 2;
    if (n == 4) {
        uint32_t *d1 = d0 + plane, *d2 = d1 + plane, *d3 = d2 + plane;
        uint32_t a, b, ea, oa, eb, ob;
        const int8_t *x = src;
        if (j < 0) {
            b = te_read_u32(x);
            eb = te_sxtab16(off2, b);
            ob = te_depthwise_dsp_sxtab16_ror8(off2, b);
            *d0++ = eb << 16;
            *d1++ = ob << 16;
            *d2++ = eb & 0xffff0000u;
            *d3++ = ob & 0xffff0000u;
            x += c;
            j = 1;
        }
        for (; j + 1 < iw; j += 2, x += 2 * c) {
            a = te_read_u32(x);
            b = te_read_u32(x + c);
            ea = te_sxtab16(off2, a);
            oa = te_depthwise_dsp_sxtab16_ror8(off2, a);
            eb = te_sxtab16(off2, b);
            ob = te_depthwise_dsp_sxtab16_ror8(off2, b);
            *d0++ = te_depthwise_dsp_pack_lo(ea, eb);
            *d1++ = te_depthwise_dsp_pack_lo(oa, ob);
            *d2++ = te_depthwise_dsp_pack_hi(ea, eb);
            *d3++ = te_depthwise_dsp_pack_hi(oa, ob);
        }
        if (j < iw) {
            a = te_read_u32(x);
            ea = te_sxtab16(off2, a);
            oa = te_depthwise_dsp_sxtab16_ror8(off2, a);
            *d0 = ea & 0xffffu;
            *d1 = oa & 0xffffu;
            *d2 = ea >> 16;
            *d3 = oa >> 16;
        }
    } else {
        int ch;
        for (; j < iw; j += 2, d0++)
            for (ch = 0; ch < n; ch++) {
                uint32_t lo = 0, hi = 0;
                if (j >= 0)
                    lo = (uint32_t)(src[j * c + ch] + p->input_offset) & 0xffffu;
                if (j + 1 < iw)
                    hi = (uint32_t)(src[(j + 1) * c + ch] + p->input_offset) << 16;
                d0[ch * plane] = lo | hi;
            }
    }
}
/* te:end */

/* te:section te_depthwise_dsp_table */
/* Ring row pointers (channel 0) of the filter rows of output rows
 * [oy0, oy1): k per row. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_table(const te_depthwise_dsp_params *p,
                                                    const uint32_t *ring, int oy0, int oy1,
                                                    const uint32_t **tab, int k, int s)
{
    int oy, ky;
    for (oy = oy0; oy < oy1; oy++)
        for (ky = 0; ky < k; ky++)
            *tab++ = ring + ((oy * s + ky) % p->ring_h) * p->ring_w;
}
/* te:end */

/* ---- driver ------------------------------------------------------------- */

/* te:section te_depthwise_dsp_channel */
/* Output lines [oy0, oy1) of channel ch of the group (ring rows from table
 * tab + ch * plane words). */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_channel(const te_depthwise_dsp_params *p,
                                                      const te_depthwise_dsp_geo *gm,
                                                      const uint32_t *const *tab, int ch,
                                                      int oy0, int oy1, int32_t *cs, int8_t *out,
                                                      int k, int s, int mode)
{
    const int plane = p->ring_h * p->ring_w;
    int32_t *f = cs + TE_DEPTHWISE_DSP_FIELDS(k);
    const uint32_t *rows[7];
    te_depthwise_dsp_rqv q;
    int oy, ky;
    q.m = f[TE_DEPTHWISE_DSP_M];
    q.h = f[TE_DEPTHWISE_DSP_M + 1];
    q.e = f[TE_DEPTHWISE_DSP_M + 2];
    q.zp = p->output_offset;
    q.lo = p->act_min;
    q.hi = p->act_max;
    if (mode == TE_DEPTHWISE_DSP_SLOW && q.e != 0) /* this channel has the fast form */
        mode = TE_DEPTHWISE_DSP_CLAMP;
#if defined(TE_DEPTHWISE_DSP_ASM)
    if (mode == TE_DEPTHWISE_DSP_SAT) {
        f[TE_DEPTHWISE_DSP_TAB] = (int32_t)(intptr_t)tab;
        f[TE_DEPTHWISE_DSP_CHOFF] = ch * plane * 4;
        f[TE_DEPTHWISE_DSP_OUT] = (int32_t)(intptr_t)out;
        f[TE_DEPTHWISE_DSP_ROWB] = (int32_t)gm->oline;
        f[TE_DEPTHWISE_DSP_QB] = (int32_t)(gm->olen / 4 * 4 * gm->opx);
        f[TE_DEPTHWISE_DSP_NR] = oy1 - oy0;
        f[TE_DEPTHWISE_DSP_TAILF] = gm->olen % 4;
        if (k == 3)
            te_depthwise_dsp_rows_k3(cs, s);
        else
            te_depthwise_dsp_rows_table(cs, k, s);
        return;
    }
#endif
    for (oy = oy0; oy < oy1; oy++, out += gm->oline, tab += k) {
        for (ky = 0; ky < k; ky++)
            rows[ky] = tab[ky] + ch * plane;
        te_depthwise_dsp_row(rows, gm->olen, (int)gm->opx, cs, q, out, k, s, mode);
    }
}
/* te:end */

/* te:section te_depthwise_dsp_constants */
/* The constants block of channel oc, or (n == 4, 3x3) those of the group's
 * 4 channels from oc on. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_constants(const te_depthwise_dsp_params *p,
                                                        const int8_t *weights,
                                                        const int32_t *bias, const int32_t *rq,
                                                        int oc, int n, int32_t *cs, int k, int s)
{
    const int words = TE_DEPTHWISE_DSP_CS_WORDS(k);
    int ch;
    if (n == 4)
        te_depthwise_dsp_weights4(weights, p->c, oc, cs, words, k, s, p->cols);
    else
        te_depthwise_dsp_weights1(weights, p->c, oc, cs, k, s, p->cols);
    for (ch = 0; ch < n; ch++, oc++) {
        int32_t *f = cs + ch * words + TE_DEPTHWISE_DSP_FIELDS(k);
        f[TE_DEPTHWISE_DSP_B2] = bias ? (int32_t)((uint32_t)bias[oc] * 2u) : 0;
        const int32_t x = rq[2 * oc + 1];
        f[TE_DEPTHWISE_DSP_M] = rq[2 * oc];
        if (x > 0) { /* fast form, e = x: H = (2 zp + 1) 2^(e - 1) */
            f[TE_DEPTHWISE_DSP_M + 1] = (int32_t)((uint32_t)(2 * p->output_offset + 1) << (x - 1));
            f[TE_DEPTHWISE_DSP_M + 2] = x;
        } else { /* exact form: the shift */
            f[TE_DEPTHWISE_DSP_M + 1] = x + TE_DEPTHWISE_DSP_RQ_EXACT;
            f[TE_DEPTHWISE_DSP_M + 2] = 0;
        }
        f[TE_DEPTHWISE_DSP_C] = p->cols ? p->out_w * p->c : p->c;
        f[TE_DEPTHWISE_DSP_C3] = 3 * f[TE_DEPTHWISE_DSP_C];
    }
}
/* te:end */

/* te:section te_depthwise_dsp_run */
/* Whole kernel for a k x k filter with stride s.  Scratch: the ring (per
 * channel of the group ring_h rows of ring_w words: plane = ring_h *
 * ring_w), the table of band * k row pointers (room for 8-byte pointers),
 * the constants blocks.
 * Input line iy (or padding line, all zero) lives in ring row (iy +
 * pad_line) % ring_h.  Output lines are done by bands of `band` lines; with
 * a single band the padding lines stay as zeroed at the start. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_run(const te_depthwise_dsp_params *p,
                                                  const int8_t *input, int8_t *output,
                                                  const int8_t *weights, const int32_t *bias,
                                                  const int32_t *rq, uint32_t *ring, int k,
                                                  int s)
{
    const te_depthwise_dsp_geo gm = te_depthwise_dsp_geometry(p);
    const int c = p->c, plane = p->ring_h * p->ring_w, one_band = p->band >= gm.olines;
    const uint32_t **tab = (const uint32_t **)(void *)(ring + 4L * plane);
    int32_t *cs = te_depthwise_dsp_opaque((int32_t *)(void *)(tab + p->band * k));
    const long in_px = (long)p->in_h * p->in_w, out_px = (long)p->out_h * p->out_w;
    int b, g, oy0, oy1, ch, next;
    long i;
    for (i = 0; i < 4L * plane; i++)
        ring[i] = 0;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + b * in_px * c;
        int8_t *out_b = output + b * out_px * c;
        for (g = 0; g < c; g += 4) {
            const int n = TE_MIN(4, c - g);
            const int per_group = (k == 3 || p->blocks == 4) && n == 4;
            if (per_group)
                te_depthwise_dsp_constants(p, weights, bias, rq, g, 4, cs, k, s);
            next = -gm.pad_line;
            for (oy0 = 0; oy0 < gm.olines; oy0 = oy1) {
                int last;
                oy1 = TE_MIN(gm.olines, oy0 + p->band);
                last = (oy1 - 1) * s - gm.pad_line + k - 1; /* last input line the band reads */
                for (; next <= last; next++) {
                    uint32_t *dst = ring + ((next + gm.pad_line) % p->ring_h) * p->ring_w;
                    if (next >= 0 && next < gm.lines) {
                        te_depthwise_dsp_fill(p, &gm, in_b + next * gm.line + g, n, dst, plane);
                    } else if (!one_band) {
                        for (ch = 0; ch < n; ch++)
                            for (i = 0; i < p->ring_w; i++)
                                dst[ch * plane + i] = 0;
                    }
                }
                if (g == 0 || !one_band)
                    te_depthwise_dsp_table(p, ring, oy0, oy1, tab, k, s);
                for (ch = 0; ch < n; ch++) {
                    int32_t *csc = cs + (per_group ? ch * TE_DEPTHWISE_DSP_CS_WORDS(k) : 0);
                    if (!per_group)
                        te_depthwise_dsp_constants(p, weights, bias, rq, g + ch, 1, csc, k, s);
                    int8_t *out = out_b + oy0 * gm.oline + g + ch;
                    if (p->mode == TE_DEPTHWISE_DSP_SAT)
                        te_depthwise_dsp_channel(p, &gm, tab, ch, oy0, oy1, csc, out, k, s,
                                                 TE_DEPTHWISE_DSP_SAT);
                    else if (p->mode == TE_DEPTHWISE_DSP_CLAMP)
                        te_depthwise_dsp_channel(p, &gm, tab, ch, oy0, oy1, csc, out, k, s,
                                                 TE_DEPTHWISE_DSP_CLAMP);
                    else
                        te_depthwise_dsp_channel(p, &gm, tab, ch, oy0, oy1, csc, out, k, s,
                                                 TE_DEPTHWISE_DSP_SLOW);
                }
            }
        }
    }
}
/* te:end */

/* ---- channels-last kernel -------------------------------------------------
 * For every output pixel, 4 output channels at once over the taps inside
 * the image only (the ring kernels compute every padded tap, which costs
 * more on images not much larger than the filter), any depth multiplier.
 * The group's input rows are kept in a ring of k_h rows: per pixel the
 * words (x0 - zp, x2 - zp) and (x1 - zp, x3 - zp) of the input channels of
 * output channels g..g+3, saved when first needed, so the output may
 * overwrite the input (multiplier 1, see the header). */

/* te:section te_depthwise_dsp_nhwc_weights */
/* The doubled weights of output channels g..g+n-1 (n <= 4), per tap two
 * words: 2 * (w_g, w_g+2) and 2 * (w_g+1, w_g+3), 0 for missing channels. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_nhwc_weights(const te_depthwise_dsp_nhwc_params *p,
                                                           const int8_t *weights, int g, int n,
                                                           uint32_t *wx)
{
    const int taps = p->k_h * p->k_w, c_out = p->c * p->depth_mult;
    int t, ch;
    for (t = 0; t < taps; t++) {
        const int8_t *w = weights + (long)t * c_out + g;
        uint32_t v = 0;
        if (n == 4) {
            v = te_read_u32(w);
        } else {
            for (ch = 0; ch < n; ch++)
                v |= (uint32_t)(uint8_t)w[ch] << (8 * ch);
        }
        wx[2 * t] = te_sxtab16(te_sxtb16(v), v);
        wx[2 * t + 1] = te_depthwise_dsp_sxtab16_ror8(te_sxtb16_ror8(v), v);
    }
}
/* te:end */

/* te:section te_depthwise_dsp_nhwc_save */
/* Input row iy for output channels g..g+n-1 into ring row iy % k_h. */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_nhwc_save(const te_depthwise_dsp_nhwc_params *p,
                                                        const int8_t *in_b, int iy, int g, int n,
                                                        uint32_t *ring)
{
    const int dm = p->depth_mult;
    const uint32_t off2 = ((uint32_t)p->input_offset & 0xffffu) * 0x10001u;
    const int8_t *src = in_b + (long)iy * p->in_w * p->c;
    uint32_t *dst = ring + (iy % p->k_h) * p->in_w * 2;
    int x, ch;
    for (x = 0; x < p->in_w; x++, src += p->c, dst += 2) {
        uint32_t v = 0;
        if (dm == 1 && n == 4) {
            v = te_read_u32(src + g);
        } else if (dm % 4 == 0) {
            v = (uint32_t)(uint8_t)src[g / dm] * 0x01010101u;
        } else {
            for (ch = 0; ch < n; ch++)
                v |= (uint32_t)(uint8_t)src[(g + ch) / dm] << (8 * ch);
        }
        dst[0] = te_sxtab16(off2, v);
        dst[1] = te_depthwise_dsp_sxtab16_ror8(off2, v);
    }
}
/* te:end */

/* te:section te_depthwise_dsp_nhwc_out */
/* One requantized output with the rq entry of its channel. */
TE_DEPTHWISE_DSP_INLINE int8_t te_depthwise_dsp_nhwc_out(const te_depthwise_dsp_nhwc_params *p,
                                                         int32_t a2, const int32_t *rq)
{
    te_depthwise_dsp_rqv q;
    q.m = rq[0];
    q.h = rq[1];
    q.e = rq[2];
    q.zp = p->output_offset;
    q.lo = p->act_min;
    q.hi = p->act_max;
    if (p->mode == TE_DEPTHWISE_DSP_SAT)
        return te_depthwise_dsp_out(a2, q, TE_DEPTHWISE_DSP_SAT);
    if (q.e != 0)
        return te_depthwise_dsp_out(a2, q, TE_DEPTHWISE_DSP_CLAMP);
    return te_depthwise_dsp_out(a2, q, TE_DEPTHWISE_DSP_SLOW);
}
/* te:end */

/* te:section te_depthwise_dsp_nhwc_row */
/* Output channels g..g+n-1 of one output row from the ring rows (rows[ky]
 * for ky in [ky0, ky1)). */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_nhwc_row(const te_depthwise_dsp_nhwc_params *p,
                                                       const uint32_t *const *rows, int ky0,
                                                       int ky1, const uint32_t *wx,
                                                       const int32_t *b2,
                                                       const int32_t *rq, int n,
                                                       int8_t *out)
{
    const int c_out = p->c * p->depth_mult;
    const int full_rows = ky0 == 0 && ky1 == p->k_h;
    int ox, ky, kx;
    for (ox = 0; ox < p->out_w; ox++, out += c_out) {
        const int ix0 = ox * p->stride_w - p->pad_left;
        const int kx0 = ix0 < 0 ? -ix0 : 0;
        const int kx1 = TE_MIN(p->k_w, p->in_w - ix0);
        int32_t a0 = b2[0], a1 = b2[1], a2 = b2[2], a3 = b2[3];
        if (full_rows && kx0 == 0 && kx1 == p->k_w) {
            /* the whole window inside: constant trip counts, unrolled */
            TE_DEPTHWISE_DSP_UNROLL
            for (ky = 0; ky < p->k_h; ky++) {
                const uint32_t *x = rows[ky] + 2 * ix0, *w = wx + 2 * ky * p->k_w;
                TE_DEPTHWISE_DSP_UNROLL
                for (kx = 0; kx < p->k_w; kx++) {
                    a0 = te_depthwise_dsp_smlabb(x[2 * kx], w[2 * kx], a0);
                    a2 = te_depthwise_dsp_smlatt(x[2 * kx], w[2 * kx], a2);
                    a1 = te_depthwise_dsp_smlabb(x[2 * kx + 1], w[2 * kx + 1], a1);
                    a3 = te_depthwise_dsp_smlatt(x[2 * kx + 1], w[2 * kx + 1], a3);
                }
            }
        } else {
            for (ky = ky0; ky < ky1; ky++) {
                const uint32_t *x = rows[ky] + 2 * (ix0 + kx0);
                const uint32_t *xe = rows[ky] + 2 * (ix0 + kx1);
                const uint32_t *w = wx + 2 * (ky * p->k_w + kx0);
                for (; x < xe; x += 2, w += 2) {
                    a0 = te_depthwise_dsp_smlabb(x[0], w[0], a0);
                    a2 = te_depthwise_dsp_smlatt(x[0], w[0], a2);
                    a1 = te_depthwise_dsp_smlabb(x[1], w[1], a1);
                    a3 = te_depthwise_dsp_smlatt(x[1], w[1], a3);
                }
            }
        }
        out[0] = te_depthwise_dsp_nhwc_out(p, a0, rq);
        if (n > 1)
            out[1] = te_depthwise_dsp_nhwc_out(p, a1, rq + 3);
        if (n > 2)
            out[2] = te_depthwise_dsp_nhwc_out(p, a2, rq + 6);
        if (n > 3)
            out[3] = te_depthwise_dsp_nhwc_out(p, a3, rq + 9);
    }
}
/* te:end */

/* te:section te_depthwise_dsp_nhwc_run */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_nhwc_run(const te_depthwise_dsp_nhwc_params *p,
                                                       const int8_t *input, int8_t *output,
                                                       const int8_t *weights,
                                                       const int32_t *bias, const int32_t *rq,
                                                       uint32_t *scratch)
{
    const int c_out = p->c * p->depth_mult;
    uint32_t *ring = scratch, *wx = scratch + 2 * p->k_h * p->in_w;
    const uint32_t *rows[7];
    int32_t b2[4];
    const long in_px = (long)p->in_h * p->in_w, out_px = (long)p->out_h * p->out_w;
    int b, g, oy, ky, ch, next;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + b * in_px * p->c;
        int8_t *out_b = output + b * out_px * c_out;
        for (g = 0; g < c_out; g += 4) {
            const int n = TE_MIN(4, c_out - g);
            te_depthwise_dsp_nhwc_weights(p, weights, g, n, wx);
            for (ch = 0; ch < 4; ch++)
                b2[ch] = bias && ch < n ? (int32_t)((uint32_t)bias[g + ch] * 2u) : 0;
            next = 0;
            for (oy = 0; oy < p->out_h; oy++) {
                const int iy0 = oy * p->stride_h - p->pad_top;
                const int last = TE_MIN(p->in_h - 1, iy0 + p->k_h - 1);
                const int ky0 = iy0 < 0 ? -iy0 : 0;
                const int ky1 = TE_MIN(p->k_h, p->in_h - iy0);
                for (; next <= last; next++)
                    te_depthwise_dsp_nhwc_save(p, in_b, next, g, n, ring);
                for (ky = ky0; ky < ky1; ky++)
                    rows[ky] = ring + ((iy0 + ky) % p->k_h) * p->in_w * 2;
                te_depthwise_dsp_nhwc_row(p, rows, ky0, ky1, wx, b2, rq + 3 * g, n,
                                          out_b + (long)oy * p->out_w * c_out + g);
            }
        }
    }
}
/* te:end */

/* te:section te_depthwise_dsp_nhwc_s8_inl */
TE_DEPTHWISE_DSP_INLINE void te_depthwise_dsp_nhwc_s8_inl(const te_depthwise_dsp_nhwc_params *p,
                                                          const int8_t *input, int8_t *output,
                                                          const int8_t *weights,
                                                          const int32_t *bias, const int32_t *rq,
                                                          uint32_t *scratch)
{
    te_depthwise_dsp_nhwc_run(p, input, output, weights, bias, rq, scratch);
}
/* te:end */

/* te:section te_depthwise_dsp_nhwc_s8 */
TE_KERNEL void te_depthwise_dsp_nhwc_s8(const te_depthwise_dsp_nhwc_params *p,
                                        const int8_t *input, int8_t *output,
                                        const int8_t *weights, const int32_t *bias,
                                        const int32_t *rq, uint32_t *scratch)
{
    te_depthwise_dsp_nhwc_run(p, input, output, weights, bias, rq, scratch);
}
/* te:end */

/* te:section TE_DEPTHWISE_DSP_DEFINE */
/* The kernels: te_depthwise_dsp_s8_k<K>s<S>, and the same as an
 * always-inlined te_depthwise_dsp_s8_k<K>s<S>_inl, which the generated code
 * calls so that each layer's constants (channels, widths, ...) become
 * immediates of its own copy. */
#define TE_DEPTHWISE_DSP_DEFINE(name, k, s)                                                    \
    TE_DEPTHWISE_DSP_INLINE void name##_inl(                                                   \
        const te_depthwise_dsp_params *p, const int8_t *input, int8_t *output,                 \
        const int8_t *weights, const int32_t *bias, const int32_t *rq, uint32_t *ring)         \
    {                                                                                          \
        te_depthwise_dsp_run(p, input, output, weights, bias, rq, ring, k, s);                \
    }                                                                                          \
    TE_DEPTHWISE_DSP_DECLARE(name)                                                             \
    {                                                                                          \
        name##_inl(p, input, output, weights, bias, rq, ring);                                 \
    }
/* te:end */
/* te:section te_depthwise_dsp_s8_k3s1_inl te_depthwise_dsp_s8_k3s1 */
TE_DEPTHWISE_DSP_DEFINE(te_depthwise_dsp_s8_k3s1, 3, 1)
/* te:end */
/* te:section te_depthwise_dsp_s8_k3s2_inl te_depthwise_dsp_s8_k3s2 */
TE_DEPTHWISE_DSP_DEFINE(te_depthwise_dsp_s8_k3s2, 3, 2)
/* te:end */
/* te:section te_depthwise_dsp_s8_k5s1_inl te_depthwise_dsp_s8_k5s1 */
TE_DEPTHWISE_DSP_DEFINE(te_depthwise_dsp_s8_k5s1, 5, 1)
/* te:end */
/* te:section te_depthwise_dsp_s8_k5s2_inl te_depthwise_dsp_s8_k5s2 */
TE_DEPTHWISE_DSP_DEFINE(te_depthwise_dsp_s8_k5s2, 5, 2)
/* te:end */
/* te:section te_depthwise_dsp_s8_k7s1_inl te_depthwise_dsp_s8_k7s1 */
TE_DEPTHWISE_DSP_DEFINE(te_depthwise_dsp_s8_k7s1, 7, 1)
/* te:end */
/* te:section te_depthwise_dsp_s8_k7s2_inl te_depthwise_dsp_s8_k7s2 */
TE_DEPTHWISE_DSP_DEFINE(te_depthwise_dsp_s8_k7s2, 7, 2)
/* te:end */

#endif
