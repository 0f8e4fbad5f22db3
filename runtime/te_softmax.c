/* te_softmax.c - int8 SOFTMAX / LOG_SOFTMAX kernels (see te_softmax.h):
 * row max, sum of table exps in Q12.19, gemmlowp's fixed-point reciprocal
 * and log, output rescaling.  Integer only. */
#include "te_common.h"
#include "te_softmax.h"

/* Wrapping int32 add / subtract (TFLite's fixed-point + and -). */
static inline TE_UNUSED int32_t te_softmax_add(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}
static inline TE_UNUSED int32_t te_softmax_sub(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a - (uint32_t)b);
}

static inline TE_UNUSED int te_softmax_clz(uint32_t x)
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

/* x * 2^e for 0 <= e <= 31, saturating (SaturatingRoundingMultiplyByPOT);
 * e <= 0 (never reached for positive sums) leaves x unchanged. */
static inline TE_UNUSED int32_t te_softmax_sat_shl(int32_t x, int e)
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

static inline TE_UNUSED int32_t te_softmax_sat_add(int32_t a, int32_t b, int negate_b)
{
    int64_t s = negate_b ? (int64_t)a - b : (int64_t)a + b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}

static inline TE_UNUSED int32_t te_softmax_half_sum(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a + b;
    return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
}

/* 1 / (1 + a) for a in [0, 1), Q0.31: Newton-Raphson on d = (1 + a) / 2. */
static inline TE_UNUSED int32_t te_softmax_one_over_one_plus_x(int32_t a)
{
    int32_t d = te_softmax_half_sum(a, INT32_MAX);
    /* x ~ 1/d in Q2.29, starting from 48/17 - 32/17 d */
    int32_t x = te_softmax_add(1515870810, te_sat_round_doubling_high_mul(d, -1010580540));
    int i;
    for (i = 0; i < 3; i++) {
        int32_t err = te_softmax_sub((int32_t)1 << 29, te_sat_round_doubling_high_mul(d, x));
        x = te_softmax_add(x, te_softmax_sat_shl(te_sat_round_doubling_high_mul(x, err), 2));
    }
    return te_softmax_sat_shl(x, 1);
}

/* TFLite GetReciprocal of a positive Q12.19 sum: 1/sum as a Q0.31 scale and
 * the number of bits the sum has above 1.0. */
static inline TE_UNUSED int32_t te_softmax_reciprocal(int32_t sum, int *bits_over_unit)
{
    int headroom = te_softmax_clz((uint32_t)sum);
    uint32_t shifted = headroom < 32 ? (uint32_t)sum << headroom : 0u;
    *bits_over_unit = 12 - headroom;
    return te_softmax_one_over_one_plus_x((int32_t)(shifted - 0x80000000u));
}

/* log(x) for a Q12.19 x >= 1, result in Q5.26 (TFLite's
 * log_x_for_x_greater_than_or_equal_to_1<5> on a 12-integer-bit input):
 * x = 2^k * r with r near 1, log r from a rational approximation. */
static inline TE_UNUSED int32_t te_softmax_log(int32_t x)
{
    const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
    const int32_t quarter_q6 = 8388608; /* 1/4 in Q6.25 */
    int32_t ra, rb, za_adj, zb_adj, r, z_adj, p, q, q2, num, den, acc;
    int ha = te_softmax_clz((uint32_t)x);
    int hb = te_softmax_clz((uint32_t)te_sat_round_doubling_high_mul(x, sqrt_half)) - 1;
    ra = te_softmax_sat_shl(te_sat_round_doubling_high_mul(te_softmax_sat_shl(x, ha - 1), sqrt_half), 1);
    za_adj = te_softmax_sat_add(te_softmax_sat_shl(12 - ha, 25), quarter_q6, 0);
    rb = te_softmax_sat_shl(x, hb);
    zb_adj = te_softmax_sat_add(te_softmax_sat_shl(12 - hb, 25), quarter_q6, 1);
    r = ra < rb ? ra : rb;
    z_adj = za_adj > zb_adj ? za_adj : zb_adj;
    p = te_softmax_half_sum(r, sqrt_sqrt_half);
    q = te_softmax_sub(r, sqrt_sqrt_half);
    q = te_softmax_add(q, q);
    q2 = te_sat_round_doubling_high_mul(q, q);
    num = te_softmax_add(te_sat_round_doubling_high_mul(q, r),
                         te_sat_round_doubling_high_mul(te_sat_round_doubling_high_mul(q, q2),
                                                        117049297));
    den = te_softmax_add(1057819769, q);
    den = te_softmax_add(den, te_sat_round_doubling_high_mul(127690142, q2));
    den = te_softmax_add(te_sat_round_doubling_high_mul(p, den),
                         te_sat_round_doubling_high_mul(638450708, q));
    acc = te_softmax_add(te_sat_round_doubling_high_mul(z_adj, log_2),
                         te_sat_round_doubling_high_mul(te_rounding_divide_by_pot(num, 6),
                                                        te_softmax_one_over_one_plus_x(den)));
    return te_softmax_sat_shl(acc, 1);
}

static inline TE_UNUSED int te_softmax_row_max(const int8_t *row, int depth)
{
    int c, m = -128;
    for (c = 0; c < depth; c++)
        m = row[c] > m ? row[c] : m;
    return m;
}

/* Sum over the row of exp(x - max) in Q12.19, skipping ignored entries. */
static inline TE_UNUSED int32_t te_softmax_row_sum(const int8_t *row, int depth, int max,
                                                   const int32_t *exp_table)
{
    int32_t sum = 0;
    int c;
    for (c = 0; c < depth; c++) {
        int32_t e = exp_table[max - row[c]];
        if (e >= 0)
            sum = te_softmax_add(sum, te_rounding_divide_by_pot(e, 12));
    }
    return sum;
}

TE_KERNEL void te_softmax_s8(const int8_t *in, int8_t *out, int rows, int depth,
                             const int32_t *exp_table)
{
    int i, c;
    for (i = 0; i < rows; i++) {
        const int8_t *row = in + (size_t)i * depth;
        int8_t *dst = out + (size_t)i * depth;
        int max = te_softmax_row_max(row, depth), bits;
        int32_t sum = te_softmax_row_sum(row, depth, max, exp_table);
        int32_t scale = te_softmax_reciprocal(sum, &bits);
        int exponent = bits + 31 - 8; /* TFLite requires 0..31 */
        exponent = exponent < 0 ? 0 : (exponent > 31 ? 31 : exponent);
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

TE_KERNEL void te_log_softmax_s8(const int8_t *in, int8_t *out, int rows, int depth,
                                 const int32_t *exp_table, const int32_t *q5_table,
                                 int32_t diff_min, int32_t reverse_divisor,
                                 int reverse_right_shift)
{
    int i, c;
    for (i = 0; i < rows; i++) {
        const int8_t *row = in + (size_t)i * depth;
        int8_t *dst = out + (size_t)i * depth;
        int max = te_softmax_row_max(row, depth);
        int32_t log_sum = te_softmax_log(te_softmax_row_sum(row, depth, max, exp_table));
        int32_t limit = te_mul_by_quant_mult(te_softmax_add(log_sum, INT32_MIN), reverse_divisor,
                                             -reverse_right_shift);
        limit = limit > diff_min - 1 ? limit : diff_min - 1;
        for (c = 0; c < depth; c++) {
            int32_t diff = (int32_t)row[c] - max, v;
            if (diff <= limit) {
                dst[c] = -128;
                continue;
            }
            v = te_rounding_divide_by_pot(te_softmax_sub(q5_table[-diff], log_sum), 22) + 127;
            dst[c] = (int8_t)te_clamp_i32(v, -128, 127);
        }
    }
}
