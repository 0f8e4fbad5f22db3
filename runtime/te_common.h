/* te_common.h - what every runtime kernel shares: integer types, the
 * TE_KERNEL linkage macro and TFLite's fixed-point requantization
 * primitives (saturating rounding doubling high multiply, rounding divide
 * by a power of two), written so that they never invoke undefined
 * behaviour.
 *
 * The compiler pastes this file and the kernels a model uses into the
 * generated NAME.c, where TE_KERNEL is `static` so two models link into one
 * program.  The compiler itself also includes it to compute lookup tables
 * with exactly the arithmetic the kernels use. */
#ifndef TE_COMMON_H
#define TE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TE_UNUSED __attribute__((unused))
#else
#define TE_UNUSED
#endif

#ifndef TE_KERNEL
#define TE_KERNEL static TE_UNUSED
#endif

#if defined(TE_TARGET_AVX2)
/* te:section TE_AVX2_ATTR TE_AVX2_FN TE_AVX2_ENTRY */
/* Target x86-64-v3 (TE_TARGET_AVX2): kernels with AVX2 intrinsics.  Their
 * functions carry the avx2 target attribute, so the code compiles with
 * plain -O2 (no -mavx2) and needs a CPU with AVX2 to run. */
#if !(defined(__x86_64__) || defined(__i386__)) || !defined(__GNUC__)
#error "code generated for target x86-64-v3 needs gcc or clang for x86-64 (AVX2)"
#endif
#include <immintrin.h>
#if defined(__AVX2__)
#define TE_AVX2_ATTR
#else
#define TE_AVX2_ATTR __attribute__((target("avx2")))
#endif
#define TE_AVX2_FN static inline TE_UNUSED TE_AVX2_ATTR
/* A kernel's entry point: not specialised on the constant arguments of
 * its call sites (gcc would then warn about reads past small weight
 * arrays on paths those arguments never take: -Warray-bounds). */
#if defined(__clang__)
#define TE_AVX2_ENTRY TE_AVX2_ATTR __attribute__((noinline))
#else
#define TE_AVX2_ENTRY TE_AVX2_ATTR __attribute__((noipa))
#endif
/* te:end */
#endif

/* te:section TE_STATIC_ASSERT */
/* Compile-time check, C99: the array size is negative when cond is false.
 * The kernels with assembly check with it every offset the assembly reads. */
#define TE_STATIC_ASSERT(cond, name) typedef char te_static_assert_##name[(cond) ? 1 : -1]
/* te:end */

#define TE_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TE_MAX(a, b) ((a) > (b) ? (a) : (b))

/* te:section te_clamp_i32 */
static inline TE_UNUSED int32_t te_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}
/* te:end */

/* te:section te_shl_i32 */
/* x * 2^s for 0 <= s <= 31 with two's-complement wrap-around, as TFLite's
 * `x * (1 << s)` behaves on every target it runs on, minus the UB. */
static inline TE_UNUSED int32_t te_shl_i32(int32_t x, int s)
{
    return (int32_t)((uint32_t)x << s);
}
/* te:end */

/* te:section te_sat_round_doubling_high_mul */
/* gemmlowp SaturatingRoundingDoublingHighMul: (a*b*2 + 2^31) >> 32 with
 * round-half-away-from-zero, saturating the single overflow case. */
static inline TE_UNUSED int32_t te_sat_round_doubling_high_mul(int32_t a, int32_t b)
{
    int64_t ab, nudge;
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    ab = (int64_t)a * (int64_t)b;
    nudge = ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
    return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}
/* te:end */

/* te:section te_rounding_divide_by_pot */
/* gemmlowp RoundingDivideByPOT: x / 2^exponent, rounding half away from
 * zero.  exponent in [0, 31]. */
static inline TE_UNUSED int32_t te_rounding_divide_by_pot(int32_t x, int exponent)
{
    int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
    int32_t remainder = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}
/* te:end */

/* te:section te_mul_by_quant_mult */
/* TFLite MultiplyByQuantizedMultiplier (double rounding, the reference
 * kernels' default): shift > 0 is a left shift before the multiply. */
static inline TE_UNUSED int32_t te_mul_by_quant_mult(int32_t x, int32_t multiplier, int shift)
{
    int left = shift > 0 ? shift : 0;
    int right = shift > 0 ? 0 : -shift;
    return te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul(te_shl_i32(x, left), multiplier), right);
}
/* te:end */

/* te:section te_mul_by_quant_mult_i64 */
/* TFLite MultiplyByQuantizedMultiplier for an int64 accumulator (the
 * int16x8 kernels): the multiplier rounded to 16 bits (0x7FFF from
 * 0x7FFF0000 up), then one rounding right shift by 15 - shift.  mult >= 0,
 * -31 <= shift <= 7.  Wraps (no UB) where TFLite's arithmetic would
 * overflow; the int32 result is the low 32 bits as in TFLite. */
static inline TE_UNUSED int32_t te_mul_by_quant_mult_i64(int64_t x, int32_t multiplier, int shift)
{
    int64_t reduced = multiplier < 0x7FFF0000 ? ((int64_t)multiplier + (1 << 15)) >> 16 : 0x7FFF;
    int total = 15 - shift;
    uint64_t r = (uint64_t)x * (uint64_t)reduced + ((uint64_t)1 << (total - 1));
    return (int32_t)(uint32_t)(uint64_t)((int64_t)r >> total);
}
/* te:end */

/* te:section te_mul_by_quant_mult_smaller_than_one */
/* TFLite MultiplyByQuantizedMultiplierSmallerThanOneExp (left_shift <= 0). */
static inline TE_UNUSED int32_t te_mul_by_quant_mult_smaller_than_one(int32_t x, int32_t multiplier,
                                                                      int left_shift)
{
    return te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(x, multiplier), -left_shift);
}
/* te:end */

/* te:section te_mul_by_quant_mult_greater_than_one */
/* TFLite MultiplyByQuantizedMultiplierGreaterThanOne (left_shift >= 0). */
static inline TE_UNUSED int32_t te_mul_by_quant_mult_greater_than_one(int32_t x, int32_t multiplier,
                                                                      int left_shift)
{
    return te_sat_round_doubling_high_mul(te_shl_i32(x, left_shift), multiplier);
}
/* te:end */

/* te:section te_fp_add */
/* ---- gemmlowp fixed-point arithmetic, the kernels' and the compiler's
 * (src/quant/fixedpoint.h): int32 values with ib integer bits ---------- */
static inline TE_UNUSED int32_t te_fp_add(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}
/* te:end */

/* te:section te_fp_sub */
static inline TE_UNUSED int32_t te_fp_sub(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a - (uint32_t)b);
}
/* te:end */

/* te:section te_fp_neg */
static inline TE_UNUSED int32_t te_fp_neg(int32_t a)
{
    return (int32_t)(0u - (uint32_t)a);
}
/* te:end */

/* te:section te_fp_mul */
/* Product of two fixed-point values (integer bits add up). */
static inline TE_UNUSED int32_t te_fp_mul(int32_t a, int32_t b)
{
    return te_sat_round_doubling_high_mul(a, b);
}
/* te:end */

/* te:section te_fp_sat_shl */
/* x * 2^e for 0 <= e <= 31, saturating (SaturatingRoundingMultiplyByPOT
 * with a left shift); e <= 0 leaves x unchanged. */
static inline TE_UNUSED int32_t te_fp_sat_shl(int32_t x, int e)
{
    int32_t threshold;
    if (e <= 0)
        return x;
    threshold = (int32_t)(((int64_t)1 << (31 - e)) - 1);
    if (x > threshold)
        return INT32_MAX;
    if (x < -threshold)
        return INT32_MIN;
    return te_shl_i32(x, e);
}
/* te:end */

/* te:section te_fp_mul_pot */
/* x * 2^e: saturating left shift for e > 0, rounding right shift for e < 0
 * (SaturatingRoundingMultiplyByPOT). */
static inline TE_UNUSED int32_t te_fp_mul_pot(int32_t x, int e)
{
    return e < 0 ? te_rounding_divide_by_pot(x, -e) : te_fp_sat_shl(x, e);
}
/* te:end */

/* te:section te_fp_rescale */
/* The same value with dst_ib integer bits instead of src_ib (Rescale). */
static inline TE_UNUSED int32_t te_fp_rescale(int32_t x, int src_ib, int dst_ib)
{
    return te_fp_mul_pot(x, src_ib - dst_ib);
}
/* te:end */

/* te:section te_fp_rounding_half_sum */
/* (a + b) / 2 rounded half away from zero (RoundingHalfSum). */
static inline TE_UNUSED int32_t te_fp_rounding_half_sum(int32_t a, int32_t b)
{
    int64_t sum = (int64_t)a + (int64_t)b;
    return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}
/* te:end */

/* te:section te_fp_sat_add */
/* int64-clamped add (TFLite's SaturatingAddNonGemmlowp). */
static inline TE_UNUSED int32_t te_fp_sat_add(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a + (int64_t)b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}
/* te:end */

/* te:section te_fp_sat_sub */
/* int64-clamped subtract (TFLite's SaturatingSub). */
static inline TE_UNUSED int32_t te_fp_sat_sub(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a - (int64_t)b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}
/* te:end */

/* te:section te_fp_clz */
/* Count of leading zero bits of a 32-bit word (32 for 0). */
static inline TE_UNUSED int te_fp_clz(uint32_t x)
{
    int n = 0;
    if (x == 0)
        return 32;
    while (!(x & 0x80000000u)) {
        x <<= 1;
        n++;
    }
    return n;
}
/* te:end */

/* te:section te_fp_one_over_one_plus_x */
/* 1 / (1 + a) for a in [0, 1), Q0.31: Newton-Raphson on d = (1 + a) / 2 in
 * Q2.29 (one function: split, gcc compiles the Cortex-M4 softmax otherwise). */
static inline TE_UNUSED int32_t te_fp_one_over_one_plus_x(int32_t a)
{
    int32_t d = te_fp_rounding_half_sum(a, INT32_MAX);
    int32_t x = te_fp_add(1515870810, te_sat_round_doubling_high_mul(d, -1010580540));
    int i;
    for (i = 0; i < 3; i++) {
        int32_t err = te_fp_sub((int32_t)1 << 29, te_sat_round_doubling_high_mul(d, x));
        x = te_fp_add(x, te_fp_sat_shl(te_sat_round_doubling_high_mul(x, err), 2));
    }
    return te_fp_sat_shl(x, 1);
}
/* te:end */

/* te:section te_fp_log_x_ge_1 */
/* log(x) for x >= 1 with in_ib integer bits, result with out_ib integer
 * bits (gemmlowp's log_x_for_x_greater_than_or_equal_to_1_impl): x = 2^k r
 * with r near 1, log r from a rational approximation. */
static inline TE_UNUSED int32_t te_fp_log_x_ge_1(int32_t x, int in_ib, int out_ib)
{
    const int acc_ib = out_ib + 1;
    const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
    const int32_t alpha_n = 117049297, alpha_d = 127690142;
    const int32_t alpha_i = 1057819769, alpha_f = 638450708;
    const int32_t quarter = te_fp_rescale(536870912, 0, acc_ib); /* 1/4 */
    int ha = te_fp_clz((uint32_t)x);
    int hb = te_fp_clz((uint32_t)te_fp_mul(x, sqrt_half)) - 1;
    int32_t ra = te_fp_sat_shl(te_fp_mul(te_fp_sat_shl(x, ha - 1), sqrt_half), 1);
    int32_t za_adj = te_fp_sat_add(te_fp_sat_shl(in_ib - ha, 31 - acc_ib), quarter);
    int32_t rb = te_fp_sat_shl(x, hb);
    int32_t zb_adj = te_fp_sat_sub(te_fp_sat_shl(in_ib - hb, 31 - acc_ib), quarter);
    int32_t r = ra < rb ? ra : rb;
    int32_t z_adj = za_adj > zb_adj ? za_adj : zb_adj;
    int32_t p = te_fp_rounding_half_sum(r, sqrt_sqrt_half);
    int32_t q = te_fp_sub(r, sqrt_sqrt_half);
    int32_t q2, num, den;
    q = te_fp_add(q, q);
    q2 = te_fp_mul(q, q);
    num = te_fp_add(te_fp_mul(q, r), te_fp_mul(te_fp_mul(q, q2), alpha_n));
    den = te_fp_add(te_fp_mul(p, te_fp_add(te_fp_add(alpha_i, q), te_fp_mul(alpha_d, q2))),
                    te_fp_mul(alpha_f, q));
    return te_fp_rescale(te_fp_add(te_fp_mul(z_adj, log_2),
                                   te_fp_mul(te_fp_rescale(num, 0, acc_ib),
                                             te_fp_one_over_one_plus_x(den))),
                         acc_ib, out_ib);
}
/* te:end */

/* te:section te_lut_interp_s16 */
/* TFLite's int16 table lookup with linear interpolation
 * (lut_lookup_with_interpolation): lut has 513 entries over the int16
 * range, 128 inputs apart; the slope is taken as int16, the offset's
 * product rounded by 7 bits. */
static inline TE_UNUSED int16_t te_lut_interp_s16(int16_t x, const int16_t *lut)
{
    int index = 256 + (x >> 7);
    int32_t offset = x & 0x7f;
    int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
    return (int16_t)(lut[index] + ((slope * offset + 64) >> 7));
}
/* te:end */

#if defined(TE_TARGET_DSP)
/* te:section te_sxtb16 te_sxtb16_ror8 te_smlad te_sxtab16 */
/* ---- Armv7E-M DSP SIMD primitives --------------------------------------
 * Kernels compiled with TE_TARGET_DSP use these.  On a core with the DSP
 * extension they are the real instructions; elsewhere (host tests of the
 * same kernels, --target cortex-m4 on a PC) exact portable equivalents, so
 * the SIMD kernels' data layout and arithmetic are checked everywhere. */
#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#endif
/* te:end */
#if defined(__ARM_FEATURE_DSP)
/* te:section te_sxtb16 */
/* bytes 0 and 2, sign-extended to two int16 halves */
static inline TE_UNUSED uint32_t te_sxtb16(uint32_t x) { return (uint32_t)__sxtb16((int32_t)x); }
/* te:end */
/* te:section te_sxtb16_ror8 */
/* bytes 1 and 3 (SXTB16 with ROR #8) */
static inline TE_UNUSED uint32_t te_sxtb16_ror8(uint32_t x)
{
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
}
/* te:end */
/* te:section te_smlad */
/* acc + lo(a)*lo(b) + hi(a)*hi(b), int16 halves, 32-bit wrap */
static inline TE_UNUSED int32_t te_smlad(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlad((int32_t)a, (int32_t)b, acc);
}
/* te:end */
/* te:section te_sxtab16 */
/* a + sxtb16(b) per 16-bit half */
static inline TE_UNUSED uint32_t te_sxtab16(uint32_t a, uint32_t b) {
    return (uint32_t)__sxtab16((int32_t)a, (int32_t)b);
}
/* te:end */
#else
/* te:section te_sxtb16 */
static inline TE_UNUSED uint32_t te_sxtb16(uint32_t x)
{
    uint32_t lo = (uint32_t)(uint16_t)(int16_t)(int8_t)(x & 0xffu);
    uint32_t hi = (uint32_t)(uint16_t)(int16_t)(int8_t)((x >> 16) & 0xffu);
    return lo | hi << 16;
}
/* te:end */
/* te:section te_sxtb16_ror8 */
static inline TE_UNUSED uint32_t te_sxtb16_ror8(uint32_t x) { return te_sxtb16(x >> 8 | x << 24); }
/* te:end */
/* te:section te_smlad */
static inline TE_UNUSED int32_t te_smlad(uint32_t a, uint32_t b, int32_t acc)
{
    int32_t p = (int32_t)(int16_t)(a & 0xffffu) * (int32_t)(int16_t)(b & 0xffffu);
    int32_t q = (int32_t)(int16_t)(a >> 16) * (int32_t)(int16_t)(b >> 16);
    return (int32_t)((uint32_t)acc + (uint32_t)p + (uint32_t)q);
}
/* te:end */
/* te:section te_sxtab16 */
static inline TE_UNUSED uint32_t te_sxtab16(uint32_t a, uint32_t b)
{
    uint32_t s = te_sxtb16(b);
    return ((a + s) & 0xffffu) | ((((a >> 16) + (s >> 16)) & 0xffffu) << 16);
}
/* te:end */
#endif

/* te:section te_read_u32 */
/* 4 bytes from any address as one word (the compiler emits a plain load on
 * cores that allow unaligned access) */
static inline TE_UNUSED uint32_t te_read_u32(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
/* te:end */
#endif

/* te:section TE_BCAST_ROWS_AB */
/* The element-wise kernels' broadcast walk, input 1 of element type TA and
 * input 2 of TB: ROW for every innermost row of a 6-D broadcast (dims D,
 * element strides S1 and S2 of the inputs IN1 and IN2), with the row's
 * first inputs in te_a and te_b and the lvalue OUT at its first output; OUT
 * advances D[5] a row.  A macro, so ROW inlines. */
#define TE_BCAST_ROWS_AB(TA, TB, D, S1, S2, IN1, IN2, OUT, ROW)                              \
    do {                                                                                     \
        int i0_, i1_, i2_, i3_, i4_;                                                         \
        for (i0_ = 0; i0_ < (D)[0]; i0_++)                                                   \
            for (i1_ = 0; i1_ < (D)[1]; i1_++)                                               \
                for (i2_ = 0; i2_ < (D)[2]; i2_++)                                           \
                    for (i3_ = 0; i3_ < (D)[3]; i3_++)                                       \
                        for (i4_ = 0; i4_ < (D)[4]; i4_++, (OUT) += (D)[5]) {                \
                            const TA *te_a = (IN1) + i0_ * (S1)[0] + i1_ * (S1)[1] +         \
                                             i2_ * (S1)[2] + i3_ * (S1)[3] + i4_ * (S1)[4];  \
                            const TB *te_b = (IN2) + i0_ * (S2)[0] + i1_ * (S2)[1] +         \
                                             i2_ * (S2)[2] + i3_ * (S2)[3] + i4_ * (S2)[4];  \
                            ROW;                                                             \
                        }                                                                    \
    } while (0)
/* te:end */

/* te:section TE_BCAST_ROWS_T */
/* TE_BCAST_ROWS_AB with both inputs of element type T. */
#define TE_BCAST_ROWS_T(T, D, S1, S2, IN1, IN2, OUT, ROW)                                    \
    TE_BCAST_ROWS_AB(T, T, D, S1, S2, IN1, IN2, OUT, ROW)
/* te:end */

/* te:section TE_BCAST_ROWS */
/* TE_BCAST_ROWS_T over int8 elements. */
#define TE_BCAST_ROWS(D, S1, S2, IN1, IN2, OUT, ROW)                                         \
    TE_BCAST_ROWS_T(int8_t, D, S1, S2, IN1, IN2, OUT, ROW)
/* te:end */

/* te:section te_inv_sqrt_multiplier_exp */
/* TFLite GetInvSqrtQuantizedMultiplierExp with reverse_shift -1 (the only
 * one its kernels use): 1/sqrt(input) as a multiplier and a shift (> 0:
 * left) for MultiplyByQuantizedMultiplier; input 0 and 1 give
 * (INT32_MAX, 0).  Five Newton-Raphson steps in Q3.28 on the input scaled
 * by a power of four into [2^27, 2^29). */
static inline TE_UNUSED void te_inv_sqrt_multiplier_exp(int32_t input, int32_t *multiplier,
                                                        int *shift)
{
    int32_t half_input, x = (int32_t)1 << 28, in;
    int out_shift = 11, i, clz = 0;
    unsigned pairs;
    if (input <= 1) {
        *multiplier = INT32_MAX;
        *shift = 0;
        return;
    }
    while (input >= ((int32_t)1 << 29)) {
        input /= 4;
        ++out_shift;
    }
    while (!((uint32_t)input & (0x80000000u >> clz)))
        clz++;
    pairs = (unsigned)(clz - 1) / 2 - 1;
    out_shift -= (int)pairs;
    input <<= 2 * pairs;
    in = input >> 1;
    half_input = te_rounding_divide_by_pot(in, 1);
    for (i = 0; i < 5; i++) {
        /* x3 = Rescale<3>(x * x * x): Q9 -> Q3; x = Rescale<3>(1.5 x - half_input x3) */
        int32_t x3 = te_sat_round_doubling_high_mul(te_sat_round_doubling_high_mul(x, x), x);
        int32_t a, b, d;
        x3 = x3 > 0x1FFFFFF ? INT32_MAX : x3 < -0x1FFFFFF ? INT32_MIN : te_shl_i32(x3, 6);
        a = te_sat_round_doubling_high_mul((1 << 28) + (1 << 27), x);
        b = te_sat_round_doubling_high_mul(half_input, x3);
        d = (int32_t)((uint32_t)a - (uint32_t)b);
        x = d > 0xFFFFFFF ? INT32_MAX : d < -0xFFFFFFF ? INT32_MIN : te_shl_i32(d, 3);
    }
    x = te_sat_round_doubling_high_mul(x, 1518500250); /* sqrt(2) / 2 in Q0.31 */
    if (out_shift < 0) {
        x = te_shl_i32(x, -out_shift);
        out_shift = 0;
    }
    *multiplier = x;
    *shift = -out_shift;
}
/* te:end */

/* te:section TE_BCAST_WALK */
/* The type-free form of TE_BCAST_ROWS, for element-wise kernels on any
 * element type: ROW for every innermost row of a 6-D broadcast (dims D,
 * element strides S1 and S2), with the element indices of the row's first
 * inputs in te_i1 and te_i2 and of its first output in te_o. */
#define TE_BCAST_WALK(D, S1, S2, ROW)                                                        \
    do {                                                                                     \
        int i0_, i1_, i2_, i3_, i4_, te_o = 0;                                               \
        for (i0_ = 0; i0_ < (D)[0]; i0_++)                                                   \
            for (i1_ = 0; i1_ < (D)[1]; i1_++)                                               \
                for (i2_ = 0; i2_ < (D)[2]; i2_++)                                           \
                    for (i3_ = 0; i3_ < (D)[3]; i3_++)                                       \
                        for (i4_ = 0; i4_ < (D)[4]; i4_++, te_o += (D)[5]) {                 \
                            int te_i1 = i0_ * (S1)[0] + i1_ * (S1)[1] + i2_ * (S1)[2] +      \
                                        i3_ * (S1)[3] + i4_ * (S1)[4];                       \
                            int te_i2 = i0_ * (S2)[0] + i1_ * (S2)[1] + i2_ * (S2)[2] +      \
                                        i3_ * (S2)[3] + i4_ * (S2)[4];                       \
                            ROW;                                                             \
                        }                                                                    \
    } while (0)
/* te:end */

#if defined(TE_TARGET_AVX2)
/* te:section te_avx2_rq8 te_avx2_rq_exact te_avx2_rq te_avx2_store16 */
/* ---- AVX2 requantization (target x86-64-v3), shared by its kernels ---- */
/* te:end */

/* te:section te_avx2_rq8 */
/* te_convfam_fast_requant on 8 lanes: (smmulr(a, m) + H - [a < 0]) >> e,
 * a the doubled accumulator; r: the block's rows {bias, m, H, e}. */
TE_AVX2_FN __m256i te_avx2_rq8(__m256i a, const int32_t *r)
{
    const __m256i half = _mm256_set1_epi64x((long long)1 << 31);
    const __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)(r + 8));
    __m256i pe = _mm256_mul_epi32(a, m);
    __m256i po = _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(m, 32));
    __m256i v;
    pe = _mm256_srli_epi64(_mm256_add_epi64(pe, half), 32);
    po = _mm256_add_epi64(po, half);
    v = _mm256_blend_epi32(pe, po, 0xAA);
    v = _mm256_add_epi32(v, _mm256_loadu_si256((const __m256i *)(const void *)(r + 16)));
    v = _mm256_add_epi32(v, _mm256_srai_epi32(a, 31));
    return _mm256_srav_epi32(v, _mm256_loadu_si256((const __m256i *)(const void *)(r + 24)));
}
/* te:end */

/* te:section te_avx2_rq_exact */
/* te_avx2_rq's exact form (fast_rq 0) out of line, for a kernel that keeps
 * the rare path (layers the fast form cannot take) out of its pixel loop. */
static TE_UNUSED TE_AVX2_ATTR __attribute__((noinline, cold)) __m256i
te_avx2_rq_exact(int32_t output_offset, __m256i a, const int32_t *r)
{
    int32_t v[8];
    int l;
    _mm256_storeu_si256((__m256i *)(void *)v, a);
    for (l = 0; l < 8; l++)
        v[l] = (int32_t)((uint32_t)te_mul_by_quant_mult(v[l], r[8 + l], (int)r[16 + l]) +
                         (uint32_t)output_offset);
    return _mm256_loadu_si256((const __m256i *)(const void *)v);
}
/* te:end */

/* te:section te_avx2_rq */
/* The 8 lanes' requantization of accumulator a (int8 weights, bias not
 * doubled): the fast form on a doubled (2a wraps as the doubled weights' sum
 * would), or (fast_rq 0: rows {bias, mult, shift}) TFLite's exact one lane
 * by lane, plus the output zero point. */
TE_AVX2_FN __m256i te_avx2_rq(int fast_rq, int32_t output_offset, __m256i a, const int32_t *r)
{
    int32_t v[8];
    int l;
    if (fast_rq)
        return te_avx2_rq8(_mm256_add_epi32(a, a), r);
    _mm256_storeu_si256((__m256i *)(void *)v, a);
    for (l = 0; l < 8; l++)
        v[l] = (int32_t)((uint32_t)te_mul_by_quant_mult(v[l], r[8 + l], (int)r[16 + l]) +
                         (uint32_t)output_offset);
    return _mm256_loadu_si256((const __m256i *)(const void *)v);
}
/* te:end */

/* te:section te_avx2_store16 */
/* Requantized lanes of a0 (channels c0..c0+7) and a1 (c0+8..) clamped to
 * [lo, hi] and stored to o[0, n), n <= 16. */
TE_AVX2_FN void te_avx2_store16(__m256i a0, __m256i a1, __m256i lo, __m256i hi, int8_t *o,
                                int n)
{
    __m256i v = _mm256_permute4x64_epi64(_mm256_packs_epi32(a0, a1), 0xD8);
    __m128i b;
    v = _mm256_min_epi16(_mm256_max_epi16(v, lo), hi);
    b = _mm_packs_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    if (n >= 16) {
        _mm_storeu_si128((__m128i *)(void *)o, b);
    } else if (n == 8) {
        _mm_storel_epi64((__m128i *)(void *)o, b);
    } else {
        int8_t t[16];
        int i;
        _mm_storeu_si128((__m128i *)(void *)t, b);
        for (i = 0; i < n; i++)
            o[i] = t[i];
    }
}
/* te:end */

#endif /* TE_TARGET_AVX2 */

#endif
