/* test_nonlinear.c - the nonlinear operators: gemmlowp-style fixed-point
 * helpers (src/quant/fixedpoint.h) against plain math, the compile-time
 * tables (src/quant/lut_*.c) against hand-computed values and float math,
 * the runtime kernels te_lut_s8 / te_softmax_s8 / te_log_softmax_s8 against
 * TFLite's per-element algorithm written out plainly here, and the float
 * LOG_SOFTMAX's expf/logf against the C library's.
 *
 * The runtime files are compiled into this test as static functions (as
 * they are in generated code) so their private expf/logf can be called. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#undef TE_KERNEL
#include "te_common.h" /* TE_KERNEL = static TE_UNUSED */
#include "te_lut.c"
#include "te_softmax.c"

#include "quant/fixedpoint.h"
#include "quant/lut_nonlinear.h"
#include "testlib.h"

static double q_to_real(int32_t raw, int ib) { return raw / ldexp(1.0, 31 - ib); }

/* A random negative/zero raw value with ib integer bits, biased to small magnitudes. */
static int32_t rand_nonpos(void)
{
    int bits = test_rand_range(1, 31);
    return -(int32_t)(test_rand() >> (32 - bits));
}

static float rand_scale(float lo_log2, float hi_log2)
{
    double e = lo_log2 + (hi_log2 - lo_log2) * (test_rand() / 4294967296.0);
    return (float)ldexp(1.0 + (test_rand() % 1000) / 1000.0, (int)floor(e));
}

/* ---- fixed-point helpers ------------------------------------------------- */

static void test_mul_pot(void)
{
    CHECK(te_fp_mul_pot(5, -1) == 3);         /* 2.5 rounds away from zero */
    CHECK(te_fp_mul_pot(-5, -1) == -3);
    CHECK(te_fp_mul_pot(-6, -2) == -2);       /* -1.5 */
    CHECK(te_fp_mul_pot(1 << 29, 2) == INT32_MAX);
    CHECK(te_fp_mul_pot(-(1 << 29), 2) == INT32_MIN);
    CHECK(te_fp_mul_pot((1 << 29) - 1, 2) == ((1 << 29) - 1) * 4);
    CHECK(te_fp_mul_pot(-((1 << 29) - 1), 2) == -((1 << 29) - 1) * 4);
    CHECK(te_fp_rounding_half_sum(3, 4) == 4 && te_fp_rounding_half_sum(-3, -4) == -4);
    CHECK(te_fp_rounding_half_sum(INT32_MAX, INT32_MAX) == INT32_MAX);
    CHECK(te_fp_clz(0) == 32 && te_fp_clz(1) == 31 && te_fp_clz(0x80000000u) == 0);
    CHECK(te_fp_add(INT32_MAX, 1) == INT32_MIN && te_fp_neg(INT32_MIN) == INT32_MIN);
}

static void test_exp(void)
{
    int i, ib, bad = 0;
    CHECK(te_fp_exp_on_negative_values(0, 5) == INT32_MAX);
    for (ib = 0; ib <= 6; ib++) {
        for (i = 0; i < 20000; i++) {
            int32_t a = rand_nonpos();
            double got = q_to_real(te_fp_exp_on_negative_values(a, ib), 0);
            double want = exp(q_to_real(a, ib));
            if (fabs(got - want) > 3e-7)
                bad++;
        }
    }
    CHECK(bad == 0);
}

static void test_reciprocals(void)
{
    int i, bad = 0;
    for (i = 0; i < 100000; i++) {
        int32_t a = (int32_t)(test_rand() >> 1);
        double x = q_to_real(a, 0);
        if (fabs(q_to_real(te_fp_one_over_one_plus_x(a), 0) - 1.0 / (1.0 + x)) > 1e-8)
            bad++;
        if (fabs(q_to_real(te_fp_one_minus_x_over_one_plus_x(a), 0) - (1 - x) / (1 + x)) > 1e-8)
            bad++;
    }
    CHECK(bad == 0);
}

static void test_logistic_tanh(void)
{
    int i, bad = 0;
    CHECK(te_fp_logistic(0, 4) == (1 << 30));
    CHECK(te_fp_tanh(0, 4) == 0);
    for (i = 0; i < 100000; i++) {
        int32_t a = (int32_t)test_rand();
        double x = q_to_real(a, 4);
        if (fabs(q_to_real(te_fp_logistic(a, 4), 0) - 1.0 / (1.0 + exp(-x))) > 3e-7)
            bad++;
        if (fabs(q_to_real(te_fp_tanh(a, 4), 0) - tanh(x)) > 3e-7)
            bad++;
    }
    CHECK(bad == 0);
}

static void test_log(void)
{
    int i, bad = 0;
    for (i = 0; i < 100000; i++) {
        /* x in [1, 4096) as Q12.19 */
        int32_t a = (int32_t)((1u << 19) + test_rand() % (0x7FFFFFFFu - (1u << 19)));
        double got = q_to_real(te_fp_log_x_ge_1(a, 12, 5), 5);
        if (fabs(got - log(q_to_real(a, 12))) > 1e-6)
            bad++;
    }
    CHECK(bad == 0);
}

/* ---- compile-time tables -------------------------------------------------- */

static int max_err(const int8_t *table, const double *want)
{
    int v, worst = 0;
    for (v = -128; v <= 127; v++) {
        double w = want[v + 128] < -128 ? -128 : (want[v + 128] > 127 ? 127 : want[v + 128]);
        int err = (int)ceil(fabs(table[(uint8_t)v] - w) - 0.5);
        worst = err > worst ? err : worst;
    }
    return worst;
}

static void test_sigmoid_tables(void)
{
    te_lut_sigmoid_params p;
    int8_t t[256];
    double want[256];
    int k, v;
    /* scale 2^-5: multiplier 0.5 * 2^31 with shift 23, radius 15 * 2^27 / 2^23 */
    CHECK(te_lut_sigmoid_prepare(1.0f / 32, 3, &p) == 0);
    CHECK(p.input_multiplier == (1 << 30) && p.input_left_shift == 23);
    CHECK(p.input_range_radius == 240);
    te_lut_logistic(&p, t);
    CHECK(t[3] == 0);                                /* sigmoid(0) = 0.5 */
    te_lut_tanh(&p, t);
    CHECK(t[3] == 0 && t[(uint8_t)-128] < -120);     /* tanh(0) = 0, tanh(-4.1) ~ -1 */
    CHECK(te_lut_sigmoid_prepare(1e-12f, 0, &p) < 0);
    for (k = 0; k < 200; k++) {
        float s = rand_scale(-9, 0);
        int32_t zp = test_rand_range(-128, 127);
        CHECK(te_lut_sigmoid_prepare(s, zp, &p) == 0);
        te_lut_logistic(&p, t);
        for (v = -128; v <= 127; v++)
            want[v + 128] = 256.0 / (1.0 + exp(-(double)s * (v - zp))) - 128;
        CHECK(max_err(t, want) <= 1);
        te_lut_tanh(&p, t);
        for (v = -128; v <= 127; v++)
            want[v + 128] = 128.0 * tanh((double)s * (v - zp));
        CHECK(max_err(t, want) <= 1);
    }
}

static void test_hard_swish_table(void)
{
    te_lut_hard_swish_params p;
    int8_t t[256];
    double want[256];
    int k, v;
    for (k = 0; k < 300; k++) {
        float si = rand_scale(-7, -2), so = rand_scale(-7, -2);
        int32_t zi = test_rand_range(-128, 127), zo = test_rand_range(-128, 127);
        if (te_lut_hard_swish_prepare(si, zi, so, zo, &p) < 0) {
            CHECK(si / 128.0f / so >= 0.5f);
            continue;
        }
        te_lut_hard_swish(&p, t);
        CHECK(t[(uint8_t)zi] == (zo < -128 ? -128 : zo)); /* hswish(0) = 0 */
        for (v = -128; v <= 127; v++) {
            double x = (double)si * (v - zi);
            double r6 = x + 3 < 0 ? 0 : (x + 3 > 6 ? 6 : x + 3);
            want[v + 128] = x * r6 / 6 / so + zo;
        }
        CHECK(max_err(t, want) <= 1);
    }
}

static void test_relu_tables(void)
{
    int8_t t[256];
    double want[256];
    int k, v;
    /* same quantization: identity above the zero point */
    CHECK(te_lut_relu(0.1f, -5, 0.1f, -5, t) == 0);
    CHECK(t[(uint8_t)-128] == -5 && t[(uint8_t)-5] == -5 && t[100] == 100 && t[127] == 127);
    /* scale 6/255, zero point -128: 6.0 is 127 */
    te_lut_relu6(6.0f / 255, -128, t);
    CHECK(t[(uint8_t)-128] == -128 && t[127] == 127 && t[0] == 0);
    te_lut_relu6(0.1f, 10, t); /* 6.0 -> 60 + 10 = 70 */
    CHECK(t[(uint8_t)-50] == 10 && t[9] == 10 && t[40] == 40 && t[70] == 70 && t[71] == 70);
    for (k = 0; k < 300; k++) {
        float si = rand_scale(-8, 0), so = rand_scale(-8, 0);
        int32_t zi = test_rand_range(-128, 127), zo = test_rand_range(-128, 127);
        CHECK(te_lut_relu(si, zi, so, zo, t) == 0);
        for (v = -128; v <= 127; v++) {
            double y = (double)si * (v - zi) / so + zo;
            want[v + 128] = y < zo ? zo : y;
        }
        CHECK(max_err(t, want) <= 1);
        te_lut_relu6(si, zi, t);
        for (v = -128; v <= 127; v++) {
            double x = (double)si * (v - zi);
            double six = (double)roundf(6.0f / si) + zi;
            want[v + 128] = x < 0 ? zi : (v > six ? six : v);
        }
        CHECK(max_err(t, want) == 0);
    }
}

static void test_softmax_tables(void)
{
    te_lut_softmax_params p;
    int32_t t[256];
    /* beta 1, scale 1/16: real multiplier 2^22 = 0.5 * 2^23 */
    CHECK(te_lut_softmax_prepare(1.0, 1.0f / 16, &p) == 0);
    CHECK(p.input_multiplier == (1 << 30) && p.input_left_shift == 23);
    CHECK(p.diff_min == -248); /* floor(31 * 2^26 / 2^23) */
    te_lut_softmax_exp(&p, t);
    CHECK(t[0] == INT32_MAX && t[248] >= 0 && t[249] == -1 && t[255] == -1);
    CHECK(labs((long)t[16] - 790015084L) < 1000); /* exp(-1), ~1e-7 relative */
    te_lut_softmax_q5(&p, t);
    CHECK(t[16] == -(1 << 26) && t[249] == 0);
    CHECK(te_lut_log_softmax_prepare(1.0f / 16, &p) == 0);
    /* reverse: 2^(31-23) / 2^30 = 2^-22 = 0.5 * 2^-21 */
    CHECK(p.reverse_scaling_divisor == (1 << 30) && p.reverse_scaling_right_shift == 21);
    CHECK(te_lut_softmax_prepare(1.0, 1e-9f, &p) < 0);
}

/* ---- runtime kernels ------------------------------------------------------ */

static void test_lut_kernel(void)
{
    int8_t table[256], in[300], out[300];
    int i, bad = 0;
    for (i = 0; i < 256; i++)
        table[i] = (int8_t)(test_rand() & 0xFF);
    for (i = 0; i < 300; i++)
        in[i] = (int8_t)(test_rand() & 0xFF);
    te_lut_s8(in, out, 300, table);
    for (i = 0; i < 300; i++)
        bad += out[i] != table[(uint8_t)in[i]];
    te_lut_s8(in, in, 300, table); /* in place */
    for (i = 0; i < 300; i++)
        bad += in[i] != out[i];
    CHECK(bad == 0);
}

/* Q12.19 sum of exps of one row, TFLite's loop. */
static int32_t ref_sum(const int8_t *row, int depth, int max, const te_lut_softmax_params *p)
{
    int32_t sum = 0;
    int c;
    for (c = 0; c < depth; c++) {
        int32_t diff = row[c] - max;
        if (diff >= p->diff_min) {
            int32_t r = te_mul_by_quant_mult_greater_than_one(diff, p->input_multiplier,
                                                              p->input_left_shift);
            sum = te_fp_add(sum, te_fp_rescale(te_fp_exp_on_negative_values(r, 5), 0, 12));
        }
    }
    return sum;
}

static int row_max(const int8_t *row, int depth)
{
    int c, m = -128;
    for (c = 0; c < depth; c++)
        m = row[c] > m ? row[c] : m;
    return m;
}

/* TFLite's Softmax<int8, int8 or int16> with out_bits output bits. */
static void ref_softmax(const int8_t *in, int32_t *out, int rows, int depth,
                        const te_lut_softmax_params *p, int out_bits)
{
    const int32_t out_min = -(1 << (out_bits - 1)), out_max = (1 << (out_bits - 1)) - 1;
    int i, c;
    for (i = 0; i < rows; i++) {
        const int8_t *row = in + i * depth;
        int max = row_max(row, depth);
        int32_t sum = ref_sum(row, depth, max, p);
        int headroom = te_fp_clz((uint32_t)sum);
        int32_t x = (int32_t)(((uint32_t)sum << headroom) - 0x80000000u);
        int32_t scale = te_fp_one_over_one_plus_x(x);
        int exponent = 12 - headroom + 31 - out_bits;
        for (c = 0; c < depth; c++) {
            int32_t diff = row[c] - max, r, o;
            if (diff < p->diff_min) {
                out[i * depth + c] = out_min;
                continue;
            }
            r = te_mul_by_quant_mult_greater_than_one(diff, p->input_multiplier,
                                                      p->input_left_shift);
            o = te_rounding_divide_by_pot(te_fp_mul(scale, te_fp_exp_on_negative_values(r, 5)),
                                          exponent) + out_min;
            out[i * depth + c] = te_clamp_i32(o, out_min, out_max);
        }
    }
}

static void ref_log_softmax(const int8_t *in, int8_t *out, int rows, int depth,
                            const te_lut_softmax_params *p)
{
    int i, c;
    for (i = 0; i < rows; i++) {
        const int8_t *row = in + i * depth;
        int max = row_max(row, depth);
        int32_t log_sum = te_fp_log_x_ge_1(ref_sum(row, depth, max, p), 12, 5);
        int32_t adj = te_mul_by_quant_mult(log_sum + INT32_MIN, p->reverse_scaling_divisor,
                                           -p->reverse_scaling_right_shift);
        if (adj < p->diff_min - 1)
            adj = p->diff_min - 1;
        for (c = 0; c < depth; c++) {
            int32_t diff = row[c] - max, q5, o;
            if (diff <= adj) {
                out[i * depth + c] = -128;
                continue;
            }
            q5 = te_mul_by_quant_mult(diff, p->input_multiplier, p->input_left_shift);
            o = te_rounding_divide_by_pot(te_fp_sub(q5, log_sum), 22) + 127;
            out[i * depth + c] = (int8_t)te_clamp_i32(o, -128, 127);
        }
    }
}

/* Random row data: full range, narrow range around a level, or a few spikes. */
static void fill_rows(int8_t *in, int n)
{
    int mode = test_rand_range(0, 2), i;
    int base = test_rand_range(-128, 127), spread = test_rand_range(1, 40);
    for (i = 0; i < n; i++) {
        int v = mode == 0 ? test_rand_range(-128, 127) : base + test_rand_range(-spread, spread);
        if (mode == 2 && test_rand() % 8 == 0)
            v = 127;
        in[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
    }
}

static void test_softmax_kernels(void)
{
    static int8_t in[4096], out[4096], want[4096];
    static int16_t out16[4096];
    static int32_t ref[4096];
    int k, i, bad = 0, bad16 = 0, bad_log = 0, far = 0;
    for (k = 0; k < 400; k++) {
        te_lut_softmax_params p;
        int32_t exp_t[256], q5_t[256];
        int depth = test_rand_range(1, 300), rows = test_rand_range(1, 4096 / depth);
        double beta = (k % 3 == 0) ? 1.0 : 0.25 + (test_rand() % 1000) / 250.0;
        float s = rand_scale(-8, 1);
        fill_rows(in, rows * depth);
        if (te_lut_softmax_prepare(beta, s, &p) == 0) {
            te_lut_softmax_exp(&p, exp_t);
            te_softmax_s8(in, out, rows, depth, exp_t);
            te_softmax_s8_s16(in, out16, rows, depth, exp_t);
            ref_softmax(in, ref, rows, depth, &p, 16);
            for (i = 0; i < rows * depth; i++)
                bad16 += out16[i] != ref[i];
            ref_softmax(in, ref, rows, depth, &p, 8);
            for (i = 0; i < rows * depth; i++) {
                int r = i / depth, c, m = row_max(in + r * depth, depth);
                double sum = 0, f;
                bad += out[i] != ref[i];
                for (c = 0; c < depth; c++)
                    sum += exp(beta * s * (in[r * depth + c] - m));
                f = 256.0 * exp(beta * s * (in[i] - m)) / sum - 128;
                far += fabs(out[i] - (f > 127 ? 127 : f)) > 1.5;
            }
        }
        if (te_lut_log_softmax_prepare(s, &p) == 0) {
            te_lut_softmax_exp(&p, exp_t);
            te_lut_softmax_q5(&p, q5_t);
            te_log_softmax_s8(in, out, rows, depth, exp_t, q5_t, p.diff_min,
                              p.reverse_scaling_divisor, p.reverse_scaling_right_shift);
            ref_log_softmax(in, want, rows, depth, &p);
            for (i = 0; i < rows * depth; i++) {
                int r = i / depth, c, m = row_max(in + r * depth, depth);
                double sum = 0, f;
                bad_log += out[i] != want[i];
                for (c = 0; c < depth; c++)
                    sum += exp(s * (in[r * depth + c] - m));
                f = (s * (in[i] - m) - log(sum)) * 16.0 + 127; /* scale 16/256 */
                /* differences below diff_min (about -16 real) give -128 */
                far += in[i] - m >= p.diff_min && fabs(out[i] - (f < -128 ? -128 : f)) > 1.5;
            }
        }
    }
    CHECK(bad == 0);
    CHECK(bad16 == 0);
    CHECK(bad_log == 0);
    CHECK(far == 0);
}

/* ---- float32 LOG_SOFTMAX ---------------------------------------------- */

static float from_bits(uint32_t u)
{
    te_softmax_f32bits b;
    b.u = u;
    return b.f;
}

static uint32_t to_bits(float f)
{
    te_softmax_f32bits b;
    b.f = f;
    return b.u;
}

/* glibc's expf / logf agree with ours bit for bit (its x86-64 FMA build:
 * the two inputs where that differs from plain double arithmetic are
 * checked by value); elsewhere within one ulp. */
static void test_expf_logf(void)
{
    uint32_t u;
    long bad = 0, n = 0;
#if defined(__GLIBC__)
    const int exact = 1;
#else
    const int exact = 0;
#endif
    CHECK(to_bits(te_softmax_expf(from_bits(0xc27c65d9u))) == 0x11fa2993u);
    CHECK(to_bits(te_softmax_expf(from_bits(0x4202422fu))) == 0x56fc9f1cu);
    CHECK(te_softmax_expf(0.0f) == 1.0f && te_softmax_expf(-200.0f) == 0.0f);
    CHECK(te_softmax_expf(-INFINITY) == 0.0f && te_softmax_logf(1.0f) == 0.0f);
    for (u = 0x80000000u; u < 0xc2d00000u; u += 97) { /* -0 down to -104 */
        float x = from_bits(u), want = expf(x), got = te_softmax_expf(x);
        long d = (long)to_bits(got) - (long)to_bits(want);
        bad += exact ? d != 0 : labs(d) > 1;
        n++;
    }
    for (u = 0x3f800000u; u < 0x4b000000u; u += 31) { /* 1 .. 2^23 */
        float x = from_bits(u), want = logf(x), got = te_softmax_logf(x);
        long d = (long)to_bits(got) - (long)to_bits(want);
        bad += exact ? d != 0 : labs(d) > 1;
        n++;
    }
    CHECK(n > 17000000);
    CHECK(bad == 0);
}

static void test_log_softmax_f32(void)
{
    static float in[2048], out[2048];
    int k, i, c, bad = 0;
    for (k = 0; k < 200; k++) {
        int depth = test_rand_range(1, 64), rows = test_rand_range(1, 2048 / depth);
        float range = (float)ldexp(1.0, test_rand_range(-3, 6));
        for (i = 0; i < rows * depth; i++)
            in[i] = range * (float)((int32_t)test_rand() / 2147483648.0);
        te_log_softmax_f32(in, out, rows, depth);
        for (i = 0; i < rows; i++) {
            const float *x = in + i * depth;
            float max = -FLT_MAX, sum = 0.0f, log_sum;
            for (c = 0; c < depth; c++)
                max = max < x[c] ? x[c] : max;
            for (c = 0; c < depth; c++)
                sum += expf(x[c] - max);
            log_sum = logf(sum);
            for (c = 0; c < depth; c++) {
                float want = x[c] - max - log_sum;
                bad += fabsf(out[i * depth + c] - want) > 1e-6f * (1.0f + fabsf(want));
            }
        }
    }
    CHECK(bad == 0);
}

int main(void)
{
    test_mul_pot();
    test_exp();
    test_reciprocals();
    test_logistic_tanh();
    test_log();
    test_sigmoid_tables();
    test_hard_swish_table();
    test_relu_tables();
    test_softmax_tables();
    test_lut_kernel();
    test_softmax_kernels();
    test_expf_logf();
    test_log_softmax_f32();
    return test_summary();
}
