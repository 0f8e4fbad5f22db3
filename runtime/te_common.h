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

#define TE_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TE_MAX(a, b) ((a) > (b) ? (a) : (b))

static inline TE_UNUSED int32_t te_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* x * 2^s for 0 <= s <= 31 with two's-complement wrap-around, as TFLite's
 * `x * (1 << s)` behaves on every target it runs on, minus the UB. */
static inline TE_UNUSED int32_t te_shl_i32(int32_t x, int s)
{
    return (int32_t)((uint32_t)x << s);
}

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

/* gemmlowp RoundingDivideByPOT: x / 2^exponent, rounding half away from
 * zero.  exponent in [0, 31]. */
static inline TE_UNUSED int32_t te_rounding_divide_by_pot(int32_t x, int exponent)
{
    int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
    int32_t remainder = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* TFLite MultiplyByQuantizedMultiplier (double rounding, the reference
 * kernels' default): shift > 0 is a left shift before the multiply. */
static inline TE_UNUSED int32_t te_mul_by_quant_mult(int32_t x, int32_t multiplier, int shift)
{
    int left = shift > 0 ? shift : 0;
    int right = shift > 0 ? 0 : -shift;
    return te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul(te_shl_i32(x, left), multiplier), right);
}

/* TFLite MultiplyByQuantizedMultiplierSmallerThanOneExp (left_shift <= 0). */
static inline TE_UNUSED int32_t te_mul_by_quant_mult_smaller_than_one(int32_t x, int32_t multiplier,
                                                                      int left_shift)
{
    return te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(x, multiplier), -left_shift);
}

/* TFLite MultiplyByQuantizedMultiplierGreaterThanOne (left_shift >= 0). */
static inline TE_UNUSED int32_t te_mul_by_quant_mult_greater_than_one(int32_t x, int32_t multiplier,
                                                                      int left_shift)
{
    return te_sat_round_doubling_high_mul(te_shl_i32(x, left_shift), multiplier);
}

/* ---- Armv7E-M DSP SIMD primitives --------------------------------------
 * Kernels compiled with TE_TARGET_DSP use these.  On a core with the DSP
 * extension they are the real instructions; elsewhere (host tests of the
 * same kernels, --target cortex-m4 on a PC) exact portable equivalents, so
 * the SIMD kernels' data layout and arithmetic are checked everywhere. */
#if defined(TE_TARGET_DSP)
#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
/* bytes 0 and 2, sign-extended to two int16 halves */
static inline TE_UNUSED uint32_t te_sxtb16(uint32_t x) { return __sxtb16(x); }
/* bytes 1 and 3 (SXTB16 with ROR #8) */
static inline TE_UNUSED uint32_t te_sxtb16_ror8(uint32_t x)
{
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
}
/* acc + lo(a)*lo(b) + hi(a)*hi(b), int16 halves, 32-bit wrap */
static inline TE_UNUSED int32_t te_smlad(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlad(a, b, acc);
}
/* a + sxtb16(b) per 16-bit half */
static inline TE_UNUSED uint32_t te_sxtab16(uint32_t a, uint32_t b) { return __sxtab16(a, b); }
#else
static inline TE_UNUSED uint32_t te_sxtb16(uint32_t x)
{
    uint32_t lo = (uint32_t)(uint16_t)(int16_t)(int8_t)(x & 0xffu);
    uint32_t hi = (uint32_t)(uint16_t)(int16_t)(int8_t)((x >> 16) & 0xffu);
    return lo | hi << 16;
}
static inline TE_UNUSED uint32_t te_sxtb16_ror8(uint32_t x) { return te_sxtb16(x >> 8 | x << 24); }
static inline TE_UNUSED int32_t te_smlad(uint32_t a, uint32_t b, int32_t acc)
{
    int32_t p = (int32_t)(int16_t)(a & 0xffffu) * (int32_t)(int16_t)(b & 0xffffu);
    int32_t q = (int32_t)(int16_t)(a >> 16) * (int32_t)(int16_t)(b >> 16);
    return (int32_t)((uint32_t)acc + (uint32_t)p + (uint32_t)q);
}
static inline TE_UNUSED uint32_t te_sxtab16(uint32_t a, uint32_t b)
{
    uint32_t s = te_sxtb16(b);
    return ((a + s) & 0xffffu) | ((((a >> 16) + (s >> 16)) & 0xffffu) << 16);
}
#endif

/* 4 bytes from any address as one word (the compiler emits a plain load on
 * cores that allow unaligned access) */
static inline TE_UNUSED uint32_t te_read_u32(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
#endif

#endif
