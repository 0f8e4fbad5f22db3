/* fixedpoint.h - the gemmlowp-style fixed-point math TFLite's quantized
 * nonlinear kernels are built from (exp on negative values, 1/(1+x),
 * (1-x)/(1+x), logistic, tanh, log x for x >= 1), on int32 raw values, for
 * the compiler to evaluate at compile time (lookup tables) and for the
 * unit tests to use as the reference.
 *
 * A fixed-point value is its raw int32 plus a number of integer bits `ib`
 * (format Q<ib>.<31-ib>).  Plain additions wrap like the two's-complement
 * machines TFLite runs on; products are saturating rounding doubling high
 * multiplies; rescales round (right) or saturate (left). */
#ifndef TE_FIXEDPOINT_H
#define TE_FIXEDPOINT_H

#include <stdint.h>

#include "te_common.h"

/* Wrapping int32 arithmetic (gemmlowp's Add/Sub/Neg on int32). */
static inline int32_t te_fp_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t te_fp_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static inline int32_t te_fp_neg(int32_t a) { return (int32_t)(0u - (uint32_t)a); }

/* Product of two fixed-point values (integer bits add up). */
static inline int32_t te_fp_mul(int32_t a, int32_t b) { return te_sat_round_doubling_high_mul(a, b); }

/* x * 2^exponent: saturating left shift for exponent > 0, rounding right
 * shift for exponent < 0 (SaturatingRoundingMultiplyByPOT). */
static inline int32_t te_fp_mul_pot(int32_t x, int exponent)
{
    int32_t threshold;
    if (exponent == 0)
        return x;
    if (exponent < 0)
        return te_rounding_divide_by_pot(x, -exponent);
    threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
    if (x > threshold)
        return INT32_MAX;
    if (x < -threshold)
        return INT32_MIN;
    return te_shl_i32(x, exponent);
}

/* Changes the number of integer bits from src_ib to dst_ib (Rescale). */
static inline int32_t te_fp_rescale(int32_t x, int src_ib, int dst_ib)
{
    return te_fp_mul_pot(x, src_ib - dst_ib);
}

/* (a + b) / 2 rounded half away from zero (RoundingHalfSum). */
static inline int32_t te_fp_rounding_half_sum(int32_t a, int32_t b)
{
    int64_t sum = (int64_t)a + (int64_t)b;
    return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* int64-clamped add / subtract (TFLite's SaturatingAddNonGemmlowp / SaturatingSub). */
static inline int32_t te_fp_sat_add(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a + (int64_t)b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}
static inline int32_t te_fp_sat_sub(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a - (int64_t)b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}

/* The value 1.0 in a format with `ib` integer bits (saturated for ib = 0). */
static inline int32_t te_fp_one(int ib) { return ib == 0 ? INT32_MAX : (int32_t)1 << (31 - ib); }

/* Count of leading zero bits of a 32-bit word (32 for 0). */
static inline int te_fp_clz(uint32_t x)
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

/* exp(a) for a in [-1/4, 0), Q0.31 in and out: Taylor series around -1/8. */
static inline int32_t te_fp_exp_quarter(int32_t a)
{
    const int32_t exp_minus_one_eighth = 1895147668;
    const int32_t one_third = 715827883;
    int32_t x = te_fp_add(a, (int32_t)1 << 28);
    int32_t x2 = te_fp_mul(x, x);
    int32_t x3 = te_fp_mul(x2, x);
    int32_t x4 = te_fp_mul(x2, x2);
    int32_t x4_over_4 = te_fp_mul_pot(x4, -2);
    int32_t poly = te_fp_mul_pot(te_fp_add(te_fp_mul(te_fp_add(x4_over_4, x3), one_third), x2), -1);
    return te_fp_add(exp_minus_one_eighth, te_fp_mul(exp_minus_one_eighth, te_fp_add(x, poly)));
}

/* exp(a) for a <= 0 given with `ib` integer bits; result Q0.31. */
static inline int32_t te_fp_exp_on_negative_values(int32_t a, int ib)
{
    /* exp(-2^k) in Q0.31 for k = -2 .. 4 */
    static const int32_t mults[7] = {1672461947, 1302514674, 790015084, 290630308,
                                     39332535,   720401,     242};
    const int frac = 31 - ib;
    const int32_t quarter = (int32_t)1 << (frac - 2);
    int32_t a_mod = te_fp_sub(a & (quarter - 1), quarter);
    int32_t result = te_fp_exp_quarter(te_fp_rescale(a_mod, ib, 0));
    int32_t remainder = te_fp_sub(a_mod, a);
    int k;
    for (k = -2; k <= 4; k++) {
        if (ib > k && (remainder & ((int32_t)1 << (frac + k))))
            result = te_fp_mul(result, mults[k + 2]);
    }
    if (ib > 5 && a < -((int32_t)1 << (36 - ib)))
        result = 0;
    if (a == 0)
        result = INT32_MAX;
    return result;
}

/* Shared Newton-Raphson division of 1/(1+x) and (1-x)/(1+x), x in [0, 1):
 * returns 1 / ((1 + a) / 2) = 2 / (1 + a) in Q2.29 (three iterations from
 * the initial guess 48/17 - 32/17 d, as gemmlowp does). */
static inline int32_t te_fp_reciprocal_q2(int32_t a)
{
    const int32_t c48_over_17 = 1515870810;
    const int32_t cneg32_over_17 = -1010580540;
    const int32_t one_q2 = (int32_t)1 << 29;
    int32_t half_denominator = te_fp_rounding_half_sum(a, INT32_MAX);
    int32_t x = te_fp_add(c48_over_17, te_fp_mul(half_denominator, cneg32_over_17));
    int i;
    for (i = 0; i < 3; i++) {
        int32_t one_minus = te_fp_sub(one_q2, te_fp_mul(half_denominator, x));
        x = te_fp_add(x, te_fp_rescale(te_fp_mul(x, one_minus), 4, 2));
    }
    return x;
}

/* 1 / (1 + a) for a in [0, 1), Q0.31 in and out. */
static inline int32_t te_fp_one_over_one_plus_x(int32_t a)
{
    /* 2/(1+a) in Q2.29 read as Q1.30 is 1/(1+a); rescale to Q0.31 */
    return te_fp_rescale(te_fp_reciprocal_q2(a), 1, 0);
}

/* (1 - a) / (1 + a) for a in [0, 1), Q0.31 in and out. */
static inline int32_t te_fp_one_minus_x_over_one_plus_x(int32_t a)
{
    return te_fp_rescale(te_fp_sub(te_fp_reciprocal_q2(a), (int32_t)1 << 29), 2, 0);
}

/* logistic(a) = 1 / (1 + exp(-a)), a with `ib` integer bits; Q0.31 result. */
static inline int32_t te_fp_logistic(int32_t a, int ib)
{
    int32_t abs_a = a > 0 ? a : te_fp_neg(a);
    int32_t pos = te_fp_one_over_one_plus_x(te_fp_exp_on_negative_values(te_fp_neg(abs_a), ib));
    if (a == 0)
        return (int32_t)1 << 30;
    return a > 0 ? pos : te_fp_sub(INT32_MAX, pos);
}

/* tanh(a), a with `ib` integer bits; Q0.31 result. */
static inline int32_t te_fp_tanh(int32_t a, int ib)
{
    int32_t n = a < 0 ? a : te_fp_neg(a);
    /* exp(2n) with n read as having ib + 1 integer bits */
    int32_t t = te_fp_one_minus_x_over_one_plus_x(te_fp_exp_on_negative_values(n, ib + 1));
    if (a == 0)
        return 0;
    return a < 0 ? te_fp_neg(t) : t;
}

/* TFLite SaturatingRoundingMultiplyByPOTParam for exponent >= 0. */
static inline int32_t te_fp_sat_shl(int32_t x, int exponent) { return te_fp_mul_pot(x, exponent); }

/* log(x) for x >= 1 (in practice x >= 1/x_max): x with in_ib integer bits,
 * result with out_ib integer bits (log_x_for_x_greater_than_or_equal_to_1). */
static inline int32_t te_fp_log_x_ge_1(int32_t x, int in_ib, int out_ib)
{
    const int acc_ib = out_ib + 1;
    const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
    const int32_t alpha_n = 117049297, alpha_d = 127690142;
    const int32_t alpha_i = 1057819769, alpha_f = 638450708;
    const int32_t shifted_quarter = te_fp_rescale(536870912, 0, acc_ib);
    int za_hr1 = te_fp_clz((uint32_t)x);
    int32_t ra_tmp = te_fp_sat_shl(x, za_hr1 - 1);
    int32_t ra = te_fp_sat_shl(te_fp_mul(ra_tmp, sqrt_half), 1);
    int32_t za_adj = te_fp_sat_add(te_fp_sat_shl(in_ib - za_hr1, 31 - acc_ib), shifted_quarter);
    int32_t zb = te_fp_mul(x, sqrt_half);
    int zb_hr = te_fp_clz((uint32_t)zb) - 1;
    int32_t rb = te_fp_sat_shl(x, zb_hr);
    int32_t zb_adj = te_fp_sat_sub(te_fp_sat_shl(in_ib - zb_hr, 31 - acc_ib), shifted_quarter);
    int32_t r = ra < rb ? ra : rb;
    int32_t z_adj = za_adj > zb_adj ? za_adj : zb_adj;
    int32_t p = te_fp_rounding_half_sum(r, sqrt_sqrt_half);
    int32_t q = te_fp_sub(r, sqrt_sqrt_half);
    int32_t common_sq, num, denom_m1, recip;
    q = te_fp_add(q, q);
    common_sq = te_fp_mul(q, q);
    num = te_fp_add(te_fp_mul(q, r), te_fp_mul(te_fp_mul(q, common_sq), alpha_n));
    denom_m1 = te_fp_add(
        te_fp_mul(p, te_fp_add(te_fp_add(alpha_i, q), te_fp_mul(alpha_d, common_sq))),
        te_fp_mul(alpha_f, q));
    recip = te_fp_one_over_one_plus_x(denom_m1);
    return te_fp_rescale(te_fp_add(te_fp_mul(z_adj, log_2),
                                   te_fp_mul(te_fp_rescale(num, 0, acc_ib), recip)),
                         acc_ib, out_ib);
}

#endif
