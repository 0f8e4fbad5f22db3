/* te_softmax.c - int8 SOFTMAX / LOG_SOFTMAX kernels (see te_softmax.h):
 * row max, sum of table exps in Q12.19, gemmlowp's fixed-point reciprocal
 * and log, output rescaling.  Integer only. */
#include "te_common.h"
#include "te_softmax.h"

/* te:section te_softmax_reciprocal */
/* TFLite GetReciprocal of a positive Q12.19 sum: 1/sum as a Q0.31 scale and
 * the number of bits the sum has above 1.0. */
static inline TE_UNUSED int32_t te_softmax_reciprocal(int32_t sum, int *bits_over_unit)
{
    int headroom = te_fp_clz((uint32_t)sum);
    uint32_t shifted = headroom < 32 ? (uint32_t)sum << headroom : 0u;
    *bits_over_unit = 12 - headroom;
    return te_fp_one_over_one_plus_x((int32_t)(shifted - 0x80000000u));
}
/* te:end */

/* te:section te_softmax_row_max */
static inline TE_UNUSED int te_softmax_row_max(const int8_t *row, int depth)
{
    int c, m = -128;
    for (c = 0; c < depth; c++)
        m = row[c] > m ? row[c] : m;
    return m;
}
/* te:end */

/* te:section te_softmax_row_sum */
/* Sum over the row of exp(x - max) in Q12.19, skipping ignored entries. */
static inline TE_UNUSED int32_t te_softmax_row_sum(const int8_t *row, int depth, int max,
                                                   const int32_t *exp_table)
{
    int32_t sum = 0;
    int c;
    for (c = 0; c < depth; c++) {
        int32_t e = exp_table[max - row[c]];
        if (e >= 0)
            sum = te_fp_add(sum, te_rounding_divide_by_pot(e, 12));
    }
    return sum;
}
/* te:end */

/* te:section te_softmax_row_scale */
/* The row's max, 1/sum(exp) as a Q0.31 scale, and the rounding shift that
 * brings scale * exp (Q0.31) to out_bits output bits. */
static inline TE_UNUSED int32_t te_softmax_row_scale(const int8_t *row, int depth,
                                                     const int32_t *exp_table, int out_bits,
                                                     int *max, int *exponent)
{
    int bits;
    int32_t scale;
    *max = te_softmax_row_max(row, depth);
    scale = te_softmax_reciprocal(te_softmax_row_sum(row, depth, *max, exp_table), &bits);
    *exponent = bits + 31 - out_bits; /* TFLite requires 0..31 */
    *exponent = *exponent < 0 ? 0 : (*exponent > 31 ? 31 : *exponent);
    return scale;
}
/* te:end */

/* te:section te_softmax_s8 */
TE_KERNEL void te_softmax_s8(const int8_t *in, int8_t *out, int rows, int depth,
                             const int32_t *exp_table)
{
    int i, c, max, exponent;
    for (i = 0; i < rows; i++) {
        const int8_t *row = in + (size_t)i * (size_t)depth;
        int8_t *dst = out + (size_t)i * (size_t)depth;
        int32_t scale = te_softmax_row_scale(row, depth, exp_table, 8, &max, &exponent);
        for (c = 0; c < depth; c++) {
            int32_t e = exp_table[max - row[c]], v;
            if (e < 0) {
                dst[c] = -128;
                continue;
            }
            v = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(scale, e), exponent);
            dst[c] = (int8_t)te_clamp_i32(v - 128, -128, 127);
        }
    }
}
/* te:end */

/* te:section te_softmax_s8_s16 */
TE_KERNEL void te_softmax_s8_s16(const int8_t *in, int16_t *out, int rows, int depth,
                                 const int32_t *exp_table)
{
    int i, c, max, exponent;
    for (i = 0; i < rows; i++) {
        const int8_t *row = in + (size_t)i * (size_t)depth;
        int16_t *dst = out + (size_t)i * (size_t)depth;
        int32_t scale = te_softmax_row_scale(row, depth, exp_table, 16, &max, &exponent);
        for (c = 0; c < depth; c++) {
            int32_t e = exp_table[max - row[c]], v;
            if (e < 0) {
                dst[c] = INT16_MIN;
                continue;
            }
            v = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(scale, e), exponent);
            dst[c] = (int16_t)te_clamp_i32(v - 32768, INT16_MIN, INT16_MAX);
        }
    }
}
/* te:end */

/* te:section te_softmax_s16_exp */
/* exp(x - max) in Q0.15 from the table: the difference rescaled, moved to
 * the table's symmetric input range and saturated to int16. */
static inline TE_UNUSED int16_t te_softmax_s16_exp(const te_softmax_s16_params *p, int32_t diff)
{
    int32_t v = te_mul_by_quant_mult(diff, p->input_mult, p->input_shift) + 32767;
    return te_lut_interp_s16((int16_t)te_clamp_i32(v, -32768, 32767), p->exp_lut);
}
/* te:end */

/* te:section te_softmax_s16 */
TE_KERNEL void te_softmax_s16(const te_softmax_s16_params *p, const int16_t *in, int16_t *out)
{
    int r, c, depth = p->depth;
    for (r = 0; r < p->rows; r++, in += depth, out += depth) {
        int32_t mx = -32768, sum = 0, shifted, recip;
        int headroom, right;
        for (c = 0; c < depth; c++)
            mx = TE_MAX(mx, in[c]);
        for (c = 0; c < depth; c++) { /* the exps wait in out (Q0.15) */
            out[c] = te_softmax_s16_exp(p, in[c] - mx);
            sum += out[c];
        }
        /* 1 / sum: sum normalised to Q1.30 then Q1.16 (rounded), less 1 and
         * recentred for the 1 / (1 + x) table */
        headroom = te_fp_clz((uint32_t)sum);
        shifted = (int32_t)((((int64_t)sum << (headroom - 1)) + (1 << 13)) >> 14);
        recip = te_lut_interp_s16(
            (int16_t)te_clamp_i32(shifted - ((1 << 15) + (1 << 16)), -32768, 32767),
            p->recip_lut);
        right = 31 - headroom;
        for (c = 0; c < depth; c++) {
            int32_t v = (int32_t)(((int64_t)out[c] * recip + ((int64_t)1 << (right - 1))) >> right);
            out[c] = (int16_t)te_clamp_i32(v, 0, 32767);
        }
    }
}
/* te:end */

/* te:section te_log_softmax_s8 */
TE_KERNEL void te_log_softmax_s8(const int8_t *in, int8_t *out, int rows, int depth,
                                 const int32_t *exp_table, const int32_t *q5_table,
                                 int32_t diff_min, int32_t reverse_divisor,
                                 int reverse_right_shift)
{
    int i, c;
    for (i = 0; i < rows; i++) {
        const int8_t *row = in + (size_t)i * (size_t)depth;
        int8_t *dst = out + (size_t)i * (size_t)depth;
        int max = te_softmax_row_max(row, depth);
        int32_t log_sum = te_fp_log_x_ge_1(te_softmax_row_sum(row, depth, max, exp_table), 12, 5);
        int32_t limit = te_mul_by_quant_mult(te_fp_add(log_sum, INT32_MIN), reverse_divisor,
                                             -reverse_right_shift);
        limit = limit > diff_min - 1 ? limit : diff_min - 1;
        for (c = 0; c < depth; c++) {
            int32_t diff = (int32_t)row[c] - max, v;
            if (diff <= limit) {
                dst[c] = -128;
                continue;
            }
            v = te_rounding_divide_by_pot(te_fp_sub(q5_table[-diff], log_sum), 22) + 127;
            dst[c] = (int8_t)te_clamp_i32(v, -128, 127);
        }
    }
}
/* te:end */

/* te:section te_softmax_f32bits te_softmax_f64bits */
/* ---- float32 LOG_SOFTMAX ------------------------------------------------- */

typedef union {
    float f;
    uint32_t u;
} te_softmax_f32bits;

typedef union {
    double d;
    uint64_t u;
} te_softmax_f64bits;
/* te:end */

/* te:section te_softmax_exp2_tab */
/* 2^(i/32) with i << 47 subtracted from the bits (glibc's exp2f table). */
static const uint64_t te_softmax_exp2_tab[32] = {
    0x3ff0000000000000u, 0x3fefd9b0d3158574u, 0x3fefb5586cf9890fu, 0x3fef9301d0125b51u,
    0x3fef72b83c7d517bu, 0x3fef54873168b9aau, 0x3fef387a6e756238u, 0x3fef1e9df51fdee1u,
    0x3fef06fe0a31b715u, 0x3feef1a7373aa9cbu, 0x3feedea64c123422u, 0x3feece086061892du,
    0x3feebfdad5362a27u, 0x3feeb42b569d4f82u, 0x3feeab07dd485429u, 0x3feea47eb03a5585u,
    0x3feea09e667f3bcdu, 0x3fee9f75e8ec5f74u, 0x3feea11473eb0187u, 0x3feea589994cce13u,
    0x3feeace5422aa0dbu, 0x3feeb737b0cdc5e5u, 0x3feec49182a3f090u, 0x3feed503b23e255du,
    0x3feee89f995ad3adu, 0x3feeff76f2fb5e47u, 0x3fef199bdd85529cu, 0x3fef3720dcef9069u,
    0x3fef5818dcfba487u, 0x3fef7c97337b9b5fu, 0x3fefa4afa2a490dau, 0x3fefd0765b6e4540u};
/* te:end */

/* te:section te_softmax_expf */
/* expf as glibc 2.28+ computes it: x = (k + r) ln2 / 32, 2^(k/32) from the
 * table, a cubic for 2^(r/32), all in double, one final rounding.  The two
 * float inputs where glibc's FMA build rounds differently are special-cased. */
static inline TE_UNUSED float te_softmax_expf(float x)
{
    const double inv_ln2_n = 0x1.71547652b82fep+0 * 32, shift = 0x1.8p+52;
    const double c0 = 0x1.c6af84b912394p-5 / 32 / 32 / 32;
    const double c1 = 0x1.ebfce50fac4f3p-3 / 32 / 32, c2 = 0x1.62e42ff0c52d6p-1 / 32;
    te_softmax_f32bits b;
    te_softmax_f64bits k, s;
    double z, r, p, q, r2, y;
    uint32_t abstop;
    b.f = x;
    abstop = (b.u >> 20) & 0x7ff;
    if (abstop >= 0x42b) { /* |x| >= 88, inf or nan */
        if (b.u == 0xff800000u)
            return 0.0f;
        if (abstop >= 0x7f8)
            return x + x;
        if (x > 0x1.62e42ep6f)
            return 0x1p97f * 0x1p97f;
        if (x < -0x1.9fe368p6f)
            return 0.0f;
    }
    if (b.u == 0xc27c65d9u || b.u == 0x4202422fu) {
        b.u = b.u == 0xc27c65d9u ? 0x11fa2993u : 0x56fc9f1cu;
        return b.f;
    }
    z = inv_ln2_n * (double)x;
    k.d = z + shift;
    r = z - (k.d - shift);
    s.u = te_softmax_exp2_tab[k.u % 32] + (k.u << 47);
    p = c0 * r;
    p = p + c1;
    r2 = r * r;
    q = c2 * r;
    q = q + 1.0;
    y = p * r2;
    y = y + q;
    return (float)(y * s.d);
}
/* te:end */

/* te:section te_softmax_log_tab */
/* 1/c and log(c) for the 16 subintervals of [0x3f330000, 2 * 0x3f330000]. */
static const double te_softmax_log_tab[16][2] = {
    {0x1.661ec79f8f3bep+0, -0x1.57bf7808caadep-2}, {0x1.571ed4aaf883dp+0, -0x1.2bef0a7c06ddbp-2},
    {0x1.49539f0f010bp+0, -0x1.01eae7f513a67p-2},  {0x1.3c995b0b80385p+0, -0x1.b31d8a68224e9p-3},
    {0x1.30d190c8864a5p+0, -0x1.6574f0ac07758p-3}, {0x1.25e227b0b8eap+0, -0x1.1aa2bc79c81p-3},
    {0x1.1bb4a4a1a343fp+0, -0x1.a4e76ce8c0e5ep-4}, {0x1.12358f08ae5bap+0, -0x1.1973c5a611cccp-4},
    {0x1.0953f419900a7p+0, -0x1.252f438e10c1ep-5}, {0x1p+0, 0x0p+0},
    {0x1.e608cfd9a47acp-1, 0x1.aa5aa5df25984p-5},  {0x1.ca4b31f026aap-1, 0x1.c5e53aa362eb4p-4},
    {0x1.b2036576afce6p-1, 0x1.526e57720db08p-3},  {0x1.9c2d163a1aa2dp-1, 0x1.bc2860d22477p-3},
    {0x1.886e6037841edp-1, 0x1.1058bc8a07ee1p-2},  {0x1.767dcf5534862p-1, 0x1.4043057b6ee09p-2}};
/* te:end */

/* te:section te_softmax_logf */
/* logf as glibc 2.28+ computes it, for normal positive x (the sum of exps
 * is >= 1): x = 2^k z, log z = log c + log1p(z/c - 1) with a cubic. */
static inline TE_UNUSED float te_softmax_logf(float x)
{
    const double ln2 = 0x1.62e42fefa39efp-1;
    const double a0 = -0x1.00ea348b88334p-2, a1 = 0x1.5575b0be00b6ap-2;
    const double a2 = -0x1.ffffef20a4123p-2;
    te_softmax_f32bits b, zb;
    uint32_t tmp;
    int i, k;
    double r, y0, r2, y, t;
    b.f = x;
    if (b.u == 0x3f800000u)
        return 0.0f;
    if (!(x > 0.0f) || b.u >= 0x7f800000u) /* not reached: x >= 1 and finite */
        return x > 0.0f ? x : (x == 0.0f ? -0x1p127f * 0x1p127f : (x - x) / (x - x));
    tmp = b.u - 0x3f330000u;
    i = (int)((tmp >> 19) % 16);
    k = (int)(tmp >> 23) - (int)((tmp >> 31) << 9); /* arithmetic shift of int32 */
    zb.u = b.u - (tmp & 0xff800000u);
    r = (double)zb.f * te_softmax_log_tab[i][0];
    r = r - 1.0;
    t = (double)k * ln2;
    y0 = te_softmax_log_tab[i][1] + t;
    r2 = r * r;
    y = a1 * r;
    y = y + a2;
    t = a0 * r2;
    y = t + y;
    y = y * r2;
    return (float)(y + (y0 + r));
}
/* te:end */

/* te:section te_log_softmax_f32 */
TE_KERNEL void te_log_softmax_f32(const float *in, float *out, int rows, int depth)
{
    int i, c;
    for (i = 0; i < rows; i++) {
        const float *row = in + (size_t)i * (size_t)depth;
        float *dst = out + (size_t)i * (size_t)depth;
        float max = -0x1.fffffep127f, sum = 0.0f, log_sum;
        for (c = 0; c < depth; c++)
            max = max < row[c] ? row[c] : max;
        for (c = 0; c < depth; c++)
            sum += te_softmax_expf(row[c] - max);
        log_sum = te_softmax_logf(sum);
        for (c = 0; c < depth; c++)
            dst[c] = row[c] - max - log_sum;
    }
}
/* te:end */
