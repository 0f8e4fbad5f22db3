/* fixedpoint.h - the gemmlowp-style fixed-point functions TFLite's quantized
 * nonlinear kernels are built from that only the compiler evaluates (exp
 * on negative values, (1-x)/(1+x), logistic, tanh), for compile-time
 * lookup tables and for the unit tests to use as the reference.
 *
 * The primitives they are built from (wrapping add/sub, doubling high
 * multiply, multiply by a power of two, rescale, half sum, saturating
 * add/sub, clz, 1/(1+x), log x for x >= 1) are runtime/te_common.h's
 * te_fp_*: one definition for the compiler and the kernels (te_softmax,
 * te_div) that run the same arithmetic at run time. */
#ifndef TE_FIXEDPOINT_H
#define TE_FIXEDPOINT_H

#include <stdint.h>

#include "te_common.h"

/* The value 1.0 in a format with `ib` integer bits (saturated for ib = 0). */
static inline int32_t te_fp_one(int ib) { return ib == 0 ? INT32_MAX : (int32_t)1 << (31 - ib); }

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

/* 2 / (1 + a) in Q2.29 for a in [0, 1): the Newton-Raphson steps of
 * te_fp_one_over_one_plus_x (runtime/te_common.h) without its last rescale,
 * what (1 - a) / (1 + a) starts from.  Repeated here, not shared: the
 * runtime function stays one function (see there). */
static inline int32_t te_fp_reciprocal_q2(int32_t a)
{
    int32_t d = te_fp_rounding_half_sum(a, INT32_MAX);
    int32_t x = te_fp_add(1515870810, te_fp_mul(d, -1010580540));
    int i;
    for (i = 0; i < 3; i++) {
        int32_t err = te_fp_sub((int32_t)1 << 29, te_fp_mul(d, x));
        x = te_fp_add(x, te_fp_sat_shl(te_fp_mul(x, err), 2));
    }
    return x;
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

#endif
