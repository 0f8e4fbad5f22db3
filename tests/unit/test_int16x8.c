/* test_int16x8.c - the int16x8 element-wise kernels: te_add_s16, te_mul_s16
 * (broadcasting), te_pool_avg_s16 / te_pool_max_s16, te_mean_s16 and
 * te_softmax_s16, each with the parameters the compiler derives, against
 * plain references written here from TFLite Micro's formulas (its int16 ADD
 * with left shift 15, MUL, pooling, QuantizedMeanOrSum, also with equal
 * input and output quantization, SoftmaxInt16 and gen_lut); plus the
 * operators' check() on int16 graphs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"
#include "ops/pool.h" /* te_pool_make_params */
#include "qt_graph.h"
#include "qtensor.h"
#include "quant/lut_softmax_s16.h"
#include "quant/quant.h"
#include "ref_bcast.h"
#include "ref_pool.h"
#include "ref_reduce.h"
#include "te_add.h"
#include "te_common.h"
#include "te_mean.h"
#include "te_mul.h"
#include "te_pool.h"
#include "te_softmax.h"
#include "testlib.h"

/* Compiler-side parameter builders (src/ops/op_*.c). */
void te_add_make_params_s16(te_activation act, const te_tensor *a, const te_tensor *b,
                            const te_tensor *o, te_add_params *p);
void te_mul_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_mul_params *p);
void te_mean_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                         te_mean_params *p);

#define MAXN 4096
#define GUARD 0x5555

/* ---- test tensors ------------------------------------------------------ */

static void qt_init(qtensor *q, int id, int rank, const int *shape, float scale, int zp)
{
    qt_init_type(q, id, TE_DT_INT16, rank, shape, scale, zp);
}

/* int16x8 activation scales: ranges of about 0.01 .. 40 over 32768 steps. */
static float rand_scale(void)
{
    return (float)(3.0e-7 * pow(4000.0, (double)(test_rand() % 10000) / 10000.0));
}

static void fill_rand(int16_t *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = (int16_t)test_rand_range(-32768, 32767);
}

static int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static void act_bounds(te_activation act, float scale, int zp, int32_t *lo, int32_t *hi)
{
    *lo = -32768;
    *hi = 32767;
    te_activation_range(act, scale, zp, -32768, 32767, lo, hi);
}

/* Output and its guard words after n elements match ref. */
static int same_s16(const int16_t *out, const int16_t *ref, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (out[i] != ref[i])
            return 0;
    for (; i < n + 16; i++)
        if (out[i] != GUARD)
            return 0;
    return 1;
}

static void guard_fill(int16_t *out, int n)
{
    int i;
    for (i = 0; i < n + 16; i++)
        out[i] = GUARD;
}

/* ---- ADD / MUL ------------------------------------------------------------ */

/* TFLite's int16 AddElementwise (left shift 15), written out. */
static int16_t ref_add(int16_t x, int16_t y, float s1, float s2, float so, int32_t lo, int32_t hi)
{
    double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
    int32_t m1, m2, mo, a, b, sum;
    int e1, e2, eo;
    te_quantize_multiplier((double)s1 / twice_max, &m1, &e1);
    te_quantize_multiplier((double)s2 / twice_max, &m2, &e2);
    te_quantize_multiplier(twice_max / (32768.0 * (double)so), &mo, &eo);
    a = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(x * 32768, m1), -e1);
    b = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(y * 32768, m2), -e2);
    sum = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(a + b, mo), -eo);
    return (int16_t)clamp(sum, lo, hi);
}

static int16_t ref_mul(int16_t x, int16_t y, float s1, float s2, float so, int32_t lo, int32_t hi)
{
    int32_t m;
    int e;
    te_quantize_multiplier((double)s1 * (double)s2 / (double)so, &m, &e);
    return (int16_t)clamp(te_mul_by_quant_mult(x * y, m, e), lo, hi);
}

/* Output shape (rank 0..6) and two inputs that broadcast to it. */
static void rand_bcast_shapes(int *r, int *out, int *ra, int *sa, int *rb, int *sb)
{
    int i;
    *r = test_rand_range(0, 6);
    for (i = 0; i < *r; i++)
        out[i] = test_rand_range(1, *r > 4 ? 3 : 6);
    *ra = test_rand() % 3 ? *r : test_rand_range(0, *r);
    *rb = test_rand() % 3 ? *r : test_rand_range(0, *r);
    for (i = 0; i < *ra; i++)
        sa[i] = test_rand() % 3 ? out[*r - *ra + i] : 1;
    for (i = 0; i < *rb; i++)
        sb[i] = test_rand() % 3 ? out[*r - *rb + i] : 1;
    for (i = 0; i < *r; i++) { /* every output dim comes from an input */
        int ia = i - (*r - *ra), ib = i - (*r - *rb);
        if ((ia < 0 || sa[ia] != out[i]) && (ib < 0 || sb[ib] != out[i])) {
            if (ia >= 0)
                sa[ia] = out[i];
            else if (ib >= 0)
                sb[ib] = out[i];
            else
                out[i] = 1;
        }
    }
}

static void test_binary(int is_mul, int cases)
{
    static int16_t a[MAXN], b[MAXN], out[MAXN + 16], ref[MAXN];
    int c;
    for (c = 0; c < cases; c++) {
        int r, ra, rb, so[6], sa[6], sb[6], idx[6] = {0}, n, i, ok;
        float s1 = rand_scale(), s2 = c % 5 == 0 ? s1 : rand_scale(), sout = rand_scale();
        te_activation act = rand_act();
        qtensor ta, tb, to;
        int32_t lo, hi;
        rand_bcast_shapes(&r, so, &ra, sa, &rb, sb);
        n = ref_elems(so, r);
        if (!is_mul && !(2.0 * (s1 > s2 ? s1 : s2) < 32768.0 * sout))
            sout = (float)(2.0 * (s1 > s2 ? s1 : s2) / 16384.0); /* rescale below 1 */
        qt_init(&ta, 0, ra, sa, s1, 0);
        qt_init(&tb, 1, rb, sb, s2, 0);
        qt_init(&to, 2, r, so, sout, 0);
        fill_rand(a, ref_elems(sa, ra));
        fill_rand(b, ref_elems(sb, rb));
        if (c % 4 == 0) { /* the extremes */
            a[0] = -32768;
            b[0] = c % 8 ? -32768 : 32767;
        }
        act_bounds(act, sout, 0, &lo, &hi);
        for (i = 0; i < n; i++) {
            int16_t x = a[ref_bcast_index(idx, r, sa, ra)], y = b[ref_bcast_index(idx, r, sb, rb)];
            ref[i] = is_mul ? ref_mul(x, y, s1, s2, sout, lo, hi)
                            : ref_add(x, y, s1, s2, sout, lo, hi);
            ref_next_index(idx, so, r);
        }
        guard_fill(out, n);
        if (is_mul) {
            te_mul_params p;
            te_mul_make_params(act, &ta.t, &tb.t, &to.t, &p);
            te_mul_s16(&p, a, b, out);
        } else {
            te_add_params p;
            te_add_make_params_s16(act, &ta.t, &tb.t, &to.t, &p);
            CHECK(p.left_shift == 15);
            te_add_s16(&p, a, b, out);
        }
        ok = same_s16(out, ref, n);
        if (!ok)
            fprintf(stderr, "%s s16 case %d: rank %d (%d, %d) mismatch\n", is_mul ? "mul" : "add",
                    c, r, ra, rb);
        CHECK(ok);
    }
}

/* ---- pooling ---------------------------------------------------------------- */

static void test_pool(int is_max, int cases)
{
    static int16_t in[MAXN], out[MAXN + 16], ref[MAXN];
    int c;
    for (c = 0; c < cases; c++) {
        int n = test_rand_range(1, 2), h = test_rand_range(1, 12), w = test_rand_range(1, 12);
        int ch = test_rand_range(1, 6), fh = test_rand_range(1, 5), fw = test_rand_range(1, 5);
        int sh = test_rand_range(1, 3), sw = test_rand_range(1, 3), oh, ow, ok;
        int ishape[4], oshape[4];
        float s = rand_scale();
        te_padding pad = test_rand() % 2 ? TE_PAD_SAME : TE_PAD_VALID;
        te_options opt;
        te_pool_params p;
        qtensor ti, to;
        int32_t lo, hi;
        if (pad == TE_PAD_VALID) {
            fh = fh > h ? h : fh;
            fw = fw > w ? w : fw;
        }
        ref_pool_geometry(pad, n, h, w, ch, fh, fw, sh, sw, &opt, ishape, oshape);
        oh = oshape[1];
        ow = oshape[2];
        opt.activation = rand_act();
        qt_init(&ti, 0, 4, ishape, s, 0);
        qt_init(&to, 1, 4, oshape, s, 0);
        fill_rand(in, n * h * w * ch);
        act_bounds(opt.activation, s, 0, &lo, &hi);
        ref_pool(is_max, in, (int)sizeof in[0], n, h, w, ch, fh, fw, sh, sw, pad, oh, ow, lo, hi,
                 ref);
        te_pool_make_params(&opt, &ti.t, &to.t, &p);
        CHECK(p.act_min == lo && p.act_max == hi);
        guard_fill(out, n * oh * ow * ch);
        if (is_max)
            te_pool_max_s16(&p, in, out);
        else
            te_pool_avg_s16(&p, in, out);
        ok = same_s16(out, ref, n * oh * ow * ch);
        if (!ok)
            fprintf(stderr, "%s pool s16 case %d mismatch\n", is_max ? "max" : "avg", c);
        CHECK(ok);
    }
}

/* ---- MEAN ------------------------------------------------------------------- */

/* QuantizedMeanOrSum (zero points 0). */
static int16_t ref_mean_value(int64_t sum, int64_t count, float si, float so)
{
    int32_t m, v;
    int e, k = 0;
    if (count == 0)
        return 0;
    te_quantize_multiplier((double)si / (double)so, &m, &e);
    while (((int64_t)2 << k) <= count)
        k++;
    k = k > 32 ? 32 : k;
    k = k > 31 + e ? 31 + e : k;
    m = (int32_t)(((int64_t)m << k) / count);
    v = te_mul_by_quant_mult((int32_t)sum, m, e - k);
    return (int16_t)clamp(v, -32768, 32767);
}

static void test_mean(int cases)
{
    static int16_t in[MAXN], out[MAXN + 16], ref[MAXN];
    static int64_t sums[MAXN];
    int c;
    for (c = 0; c < cases; c++) {
        int r = test_rand_range(1, 5), shape[6], axes[8], n_axes, red[6], i, ok;
        int oshape[6], orank, idx[6] = {0}, n, nout, keep = (int)(test_rand() % 2);
        int same = c % 4 == 0;
        float si = rand_scale(), so = same ? si : rand_scale();
        int64_t count;
        qtensor ti, to;
        te_tensor tax;
        te_mean_params p;
        uint8_t axbytes[32];
        for (i = 0; i < r; i++)
            shape[i] = test_rand_range(1, r > 3 ? 5 : 9);
        n_axes = test_rand_range(1, 3);
        for (i = 0; i < n_axes; i++)
            axes[i] = test_rand_range(-r, r - 1); /* negatives and duplicates */
        count = ref_reduce_shape(shape, r, axes, n_axes, keep, red, oshape, &orank);
        n = ref_elems(shape, r);
        nout = ref_elems(oshape, orank);
        fill_rand(in, n);
        memset(sums, 0, sizeof sums);
        for (i = 0; i < n; i++) {
            sums[ref_reduce_out_index(idx, shape, red, r)] += in[i];
            ref_next_index(idx, shape, r);
        }
        for (i = 0; i < nout; i++)
            ref[i] = ref_mean_value(sums[i], count, si, so);
        qt_init(&ti, 0, r, shape, si, 0);
        qt_init(&to, 2, orank, oshape, so, 0);
        qt_axis_tensor(&tax, 1, axes, n_axes, axbytes);
        te_mean_make_params(&ti.t, &tax, &to.t, &p);
        guard_fill(out, nout);
        te_mean_s16(&p, in, out);
        ok = same_s16(out, ref, nout);
        if (!ok)
            fprintf(stderr, "mean s16 case %d: rank %d, %d axes, keep %d mismatch\n", c, r, n_axes,
                    keep);
        CHECK(ok);
    }
}

/* Equal input and output quantization requantizes, rounding: -5 / 3. */
static void test_mean_rounds(void)
{
    CHECK(ref_mean_value(-5, 3, 0.5f, 0.5f) == -2);
    CHECK(ref_mean_value(5, 3, 0.5f, 0.5f) == 2);
}

/* ---- SOFTMAX ------------------------------------------------------------------ */

static float ref_exp(float x) { return expf(x); }
static float ref_recip(float x) { return 1.0f / (1.0f + x); }

/* gen_lut<float, int16_t, int16_t> as TFLite writes it. */
static void ref_gen_lut(float (*f)(float), float lo, float hi, int16_t *lut)
{
    const float step = (hi - lo) / 512, half = step / 2, inv = 65536.0f / 2.0f;
    int i;
    for (i = 0; i < 512; i++) {
        volatile float a = (float)i * step, b = (float)(i + 1) * step;
        volatile float v = f(lo + a) * inv, m = f(lo + a + half) * inv, nx = f(lo + b) * inv;
        float sample = roundf(v);
        float bias = roundf((roundf((nx + roundf(v)) / 2) - roundf(m)) / 2);
        lut[i] = (int16_t)fminf(fmaxf(sample - bias, -32768.0f), 32767.0f);
    }
    lut[512] = (int16_t)fminf(fmaxf(roundf(f(hi) * inv), -32768.0f), 32767.0f);
}

static int16_t ref_lookup(int16_t x, const int16_t *lut)
{
    int i = 256 + (x >> 7), off = x & 127;
    int16_t slope = (int16_t)(lut[i + 1] - lut[i]);
    return (int16_t)(lut[i] + ((slope * off + 64) >> 7));
}

/* SoftmaxInt16, one row. */
static void ref_softmax_row(const int16_t *in, int16_t *out, int depth, int32_t mult, int shift,
                            const int16_t *exp_lut, const int16_t *recip_lut)
{
    int32_t mx = -32768, sum = 0, e[1024], shifted, recip;
    int c, clz = 0;
    for (c = 0; c < depth; c++)
        mx = in[c] > mx ? in[c] : mx;
    for (c = 0; c < depth; c++) {
        int32_t d = te_mul_by_quant_mult(in[c] - mx, mult, shift) + 32767;
        e[c] = ref_lookup((int16_t)clamp(d, -32768, 32767), exp_lut);
        sum += e[c];
    }
    while (!((uint32_t)sum << clz & 0x80000000u))
        clz++;
    shifted = (int32_t)((((int64_t)sum << (clz - 1)) + (1 << 13)) >> 14);
    recip = ref_lookup((int16_t)clamp(shifted - 98304, -32768, 32767), recip_lut);
    for (c = 0; c < depth; c++) {
        int rs = 31 - clz;
        int64_t v = ((int64_t)e[c] * recip + ((int64_t)1 << (rs - 1))) >> rs;
        out[c] = (int16_t)clamp((int32_t)v, 0, 32767);
    }
}

static void test_softmax_tables(const int16_t *exp_lut, const int16_t *recip_lut)
{
    int16_t e[513], r[513];
    ref_gen_lut(ref_exp, -10.0f, 0.0f, e);
    ref_gen_lut(ref_recip, 0.0f, 1.0f, r);
    CHECK(memcmp(e, exp_lut, sizeof e) == 0);
    CHECK(memcmp(r, recip_lut, sizeof r) == 0);
    CHECK(exp_lut[512] == 32767 && exp_lut[0] >= 0 && exp_lut[0] <= 2);
    CHECK(recip_lut[0] == 32767 && recip_lut[512] == 16384);
}

static void test_softmax(int cases)
{
    static int16_t in[MAXN], out[MAXN + 16], ref[MAXN];
    int16_t exp_lut[513], recip_lut[513];
    double worst = 0.0;
    int c;
    te_lut_softmax_s16_tables(exp_lut, recip_lut);
    test_softmax_tables(exp_lut, recip_lut);
    for (c = 0; c < cases; c++) {
        int rows = test_rand_range(1, 4), depth = test_rand_range(1, 300), n = rows * depth;
        int i, k, ok, in_place = c % 3 == 0;
        float s = rand_scale(), beta = c % 2 ? 1.0f : (float)test_rand_range(1, 20) / 8.0f;
        te_softmax_s16_params p;
        if (te_lut_softmax_s16_prepare(beta, s, &p.input_mult, &p.input_shift) < 0 ||
            p.input_shift > 30)
            continue;
        fill_rand(in, n);
        if (c % 5 == 0) /* close values: the exps matter */
            for (i = 0; i < n; i++)
                in[i] = (int16_t)(in[i] / 512);
        for (i = 0; i < rows; i++)
            ref_softmax_row(in + i * depth, ref + i * depth, depth, p.input_mult, p.input_shift,
                            exp_lut, recip_lut);
        p.rows = rows;
        p.depth = depth;
        p.exp_lut = exp_lut;
        p.recip_lut = recip_lut;
        guard_fill(out, n);
        if (in_place) {
            memcpy(out, in, (size_t)n * sizeof *in);
            te_softmax_s16(&p, out, out);
        } else {
            te_softmax_s16(&p, in, out);
        }
        ok = same_s16(out, ref, n);
        if (!ok)
            fprintf(stderr, "softmax s16 case %d: %dx%d mismatch\n", c, rows, depth);
        CHECK(ok);
        /* and close to the real softmax */
        for (i = 0; i < rows; i++) {
            const int16_t *x = in + i * depth;
            double mx = -1e30, sum = 0.0;
            for (k = 0; k < depth; k++)
                mx = x[k] * (double)s > mx ? x[k] * (double)s : mx;
            for (k = 0; k < depth; k++)
                sum += exp(beta * (x[k] * (double)s - mx));
            for (k = 0; k < depth; k++) {
                double want = exp(beta * (x[k] * (double)s - mx)) / sum;
                /* every difference below -10 still adds exp(-10) ~ 2^-15 to the sum */
                double err = fabs(out[i * depth + k] / 32768.0 - want) - depth / 32768.0;
                worst = err > worst ? err : worst;
            }
        }
    }
    if (worst > 0.004)
        fprintf(stderr, "softmax s16: worst error %g\n", worst);
    CHECK(worst <= 0.004);
}

/* ---- check() ---------------------------------------------------------------- */

static void mini_binary(qt_graph *m, int opcode, te_dtype ta, te_dtype tb, int zp)
{
    static const int s8x4[] = {1, 8, 8, 4}, s1x4[] = {1, 1, 1, 4};
    qg_init(m, opcode, 2);
    qg_set(m, 0, ta, 4, s8x4, 0.001f, 0);
    qg_set(m, 1, tb, 4, s1x4, 0.001f, zp);
    qg_set(m, 3, ta, 4, s8x4, 0.002f, 0);
}

static void test_checks(void)
{
    static const int s1x10[] = {1, 10};
    qt_graph m;
    mini_binary(&m, TE_OP_ADD, TE_DT_INT16, TE_DT_INT16, 0);
    CHECK(qg_check(&m, NULL));
    mini_binary(&m, TE_OP_ADD, TE_DT_INT16, TE_DT_INT8, 0);
    CHECK(qg_check(&m, "input 1"));
    mini_binary(&m, TE_OP_MUL, TE_DT_INT16, TE_DT_INT16, 0);
    CHECK(qg_check(&m, NULL));
    mini_binary(&m, TE_OP_MUL, TE_DT_INT16, TE_DT_INT16, 5);
    CHECK(qg_check(&m, "zero point 0"));
    mini_binary(&m, TE_OP_SUB, TE_DT_INT16, TE_DT_INT16, 0);
    CHECK(qg_check(&m, NULL));
    mini_binary(&m, TE_OP_SUB, TE_DT_INT16, TE_DT_INT8, 0);
    CHECK(qg_check(&m, "input 1"));
    mini_binary(&m, TE_OP_SQUARED_DIFFERENCE, TE_DT_INT16, TE_DT_INT16, 5);
    CHECK(qg_check(&m, "zero point"));
    /* DIV keeps its int8-only check (TFLite Micro has no int16 DIV) */
    mini_binary(&m, TE_OP_DIV, TE_DT_INT16, TE_DT_INT16, 0);
    CHECK(qg_check(&m, "int16 is not supported"));

    qg_init(&m, TE_OP_SOFTMAX, 1);
    m.op.opt.beta = 1.0f;
    qg_set(&m, 0, TE_DT_INT16, 2, s1x10, 0.001f, 0);
    qg_set(&m, 3, TE_DT_INT16, 2, s1x10, 1.0f / 32768, 0);
    CHECK(qg_check(&m, NULL));
    qg_init(&m, TE_OP_SOFTMAX, 1);
    m.op.opt.beta = 1.0f;
    qg_set(&m, 0, TE_DT_INT16, 2, s1x10, 0.001f, 0);
    qg_set(&m, 3, TE_DT_INT16, 2, s1x10, 1.0f / 65536, 0);
    CHECK(qg_check(&m, "expected 1/32768"));
}

int main(void)
{
    test_seed(20261126u);
    test_binary(0, 1500);
    test_binary(1, 1500);
    test_pool(0, 800);
    test_pool(1, 800);
    test_mean(1500);
    test_mean_rounds();
    test_softmax(600);
    test_checks();
    return test_summary();
}
