/* test_binary_s8.c - the broadcasting int8 binary kernels added for issue
 * 13 (MINIMUM / MAXIMUM, SUB, SQUARED_DIFFERENCE, PRELU): each kernel, with
 * the parameters the compiler derives for it, against a plain reference
 * written here from TFLite Micro's formulas, over random shapes (ranks 0-6),
 * broadcast patterns, scales and zero points; plus the int8 unary tables
 * (LEAKY_RELU, ELU, ABS) against the same per-value formulas. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/broadcast.h"
#include "quant/lut_unary.h"
#include "quant/quant.h"
#include "qtensor.h"
#include "ref_bcast.h"
#include "te_add.h"
#include "te_common.h"
#include "te_minmax.h"
#include "te_prelu.h"
#include "te_squared_difference.h"
#include "te_sub.h"
#include "testlib.h"

#define MAXN 4096

/* Compiler-side parameter builders (src/ops/op_*.c). */
void te_sub_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_sub_params *p);
int te_add_make_lut_signed(const te_add_params *p, int subtract, int shift, int32_t *u1,
                           int32_t *u2);
void te_prelu_make_params(const te_tensor *in, const te_tensor *alpha, const te_tensor *o,
                          te_prelu_params *p);
void te_squared_difference_make_params(const te_tensor *a, const te_tensor *b,
                                       const te_tensor *o, te_squared_difference_params *p);

/* ---- test tensors and broadcast shapes ------------------------------------ */

static void qt_init(qtensor *q, int id, int rank, const int *shape, float scale, int zp)
{
    qt_init_type(q, id, TE_DT_INT8, rank, shape, scale, zp);
}

/* ---- one random broadcast case, any kernel --------------------------------- */

typedef struct {
    qtensor a, b, o;
    int r, n, so[6], ra, sa[6], rb, sb[6];
    int8_t in1[MAXN], in2[MAXN], out[MAXN + 16], ref[MAXN];
} bcase;

/* ref(x, y, case) for each output element. */
typedef int8_t (*ref_fn)(int8_t x, int8_t y, const bcase *c);

static void bcase_make(bcase *c, ref_fn ref)
{
    int idx[6] = {0}, i;
    ref_rand_bcast_dims(6, 6, &c->r, c->so, &c->ra, c->sa, &c->rb, c->sb);
    c->n = ref_elems(c->so, c->r);
    qt_init(&c->a, 0, c->ra, c->sa, rand_scale_s8(), test_rand_range(-128, 127));
    qt_init(&c->b, 1, c->rb, c->sb, rand_scale_s8(), test_rand_range(-128, 127));
    qt_init(&c->o, 2, c->r, c->so, rand_scale_s8(), test_rand_range(-128, 127));
    if (test_rand() % 5 == 0)
        c->b.scale = c->a.scale; /* equal input scales: exact ties */
    fill_rand_s8(c->in1, ref_elems(c->sa, c->ra));
    fill_rand_s8(c->in2, ref_elems(c->sb, c->rb));
    for (i = 0; i < c->n; i++) {
        int ia = ref_bcast_index(idx, c->r, c->sa, c->ra), ib = ref_bcast_index(idx, c->r, c->sb, c->rb);
        c->ref[i] = ref(c->in1[ia], c->in2[ib], c);
        ref_next_index(idx, c->so, c->r);
    }
    memset(c->out, 0x55, sizeof c->out);
}

static int bcase_same(const bcase *c, const char *what, int k)
{
    int i;
    for (i = 0; i < c->n; i++)
        if (c->out[i] != c->ref[i]) {
            fprintf(stderr, "%s case %d: rank %d (%d, %d), element %d: %d, expected %d\n", what,
                    k, c->r, c->ra, c->rb, i, c->out[i], c->ref[i]);
            return 0;
        }
    for (i = c->n; i < c->n + 16; i++)
        if (c->out[i] != 0x55)
            return 0;
    return 1;
}

#define FILL_LAYOUT(c, p)                                                                     \
    te_bcast_fill(&(c)->a.t, &(c)->b.t, &(p).broadcast, &(p).size, (p).dims, (p).stride1,     \
                  (p).stride2)

/* ---- MINIMUM / MAXIMUM ----------------------------------------------------- */

static int8_t ref_min(int8_t x, int8_t y, const bcase *c) { (void)c; return x < y ? x : y; }
static int8_t ref_max(int8_t x, int8_t y, const bcase *c) { (void)c; return x > y ? x : y; }

static void test_minmax(int cases)
{
    static bcase c;
    int k;
    for (k = 0; k < cases; k++) {
        int is_max = k % 2;
        te_minmax_params p;
        bcase_make(&c, is_max ? ref_max : ref_min);
        FILL_LAYOUT(&c, p);
        p.is_max = is_max;
        te_minmax_s8(&p, c.in1, c.in2, c.out);
        CHECK(bcase_same(&c, is_max ? "maximum" : "minimum", k));
    }
}

static void test_minmax_scalar_table(void)
{
    int8_t table[256];
    int v, c, ok = 1;
    for (c = -128; c <= 127; c += 17) {
        te_lut_min_max_scalar(0, (int8_t)c, table);
        for (v = -128; v <= 127; v++)
            ok &= table[(uint8_t)v] == (v < c ? v : c);
        te_lut_min_max_scalar(1, (int8_t)c, table);
        for (v = -128; v <= 127; v++)
            ok &= table[(uint8_t)v] == (v > c ? v : c);
    }
    CHECK(ok);
}

/* ---- SUB ------------------------------------------------------------------- */

static te_activation g_act;

static void act_bounds(te_activation act, float scale, int zp, int32_t *lo, int32_t *hi)
{
    *lo = -128;
    *hi = 127;
    te_activation_range(act, scale, zp, -128, 127, lo, hi);
}

/* (x - z1) s1 - (y - z2) s2, requantized with TFLM's float ratios. */
static int8_t ref_sub(int8_t x, int8_t y, const bcase *c)
{
    float s1 = c->a.scale, s2 = c->b.scale, twice = 2.0f * (s1 > s2 ? s1 : s2);
    int32_t m1, m2, mo, u, v, r, lo, hi;
    int e1, e2, eo;
    te_quantize_multiplier((double)(s1 / twice), &m1, &e1);
    te_quantize_multiplier((double)(s2 / twice), &m2, &e2);
    te_quantize_multiplier((double)(twice / (1048576.0f * c->o.scale)), &mo, &eo);
    u = te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul((x - (int32_t)c->a.zp) * 1048576, m1), -e1);
    v = te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul((y - (int32_t)c->b.zp) * 1048576, m2), -e2);
    r = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(u - v, mo), -eo) +
        (int32_t)c->o.zp;
    act_bounds(g_act, c->o.scale, (int)c->o.zp, &lo, &hi);
    return (int8_t)(r < lo ? lo : r > hi ? hi : r);
}

static void test_sub(int cases)
{
    static const te_activation acts[] = {TE_ACT_NONE, TE_ACT_RELU, TE_ACT_RELU6,
                                         TE_ACT_RELU_N1_TO_1};
    static bcase c;
    int k;
    for (k = 0; k < cases; k++) {
        te_sub_params p;
        g_act = acts[k % 4];
        bcase_make(&c, ref_sub);
        te_sub_make_params(g_act, &c.a.t, &c.b.t, &c.o.t, &p);
        te_sub_s8(&p, c.in1, c.in2, c.out);
        CHECK(bcase_same(&c, "sub", k));
    }
}

/* ---- SQUARED_DIFFERENCE ---------------------------------------------------- */

static int8_t ref_sqdiff(int8_t x, int8_t y, const bcase *c)
{
    double s1 = c->a.scale, s2 = c->b.scale, twice = 2.0 * (s1 > s2 ? s1 : s2);
    int32_t m1, m2, mo, u, v, r;
    int e1, e2, eo;
    te_quantize_multiplier(s1 / twice, &m1, &e1);
    te_quantize_multiplier(s2 / twice, &m2, &e2);
    te_quantize_multiplier(twice * twice / (double)(16384.0f * c->o.scale), &mo, &eo);
    u = te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul((x - (int32_t)c->a.zp) * 128, m1), -e1);
    v = te_rounding_divide_by_pot(
        te_sat_round_doubling_high_mul((y - (int32_t)c->b.zp) * 128, m2), -e2);
    r = te_mul_by_quant_mult((u - v) * (u - v), mo, eo) + (int32_t)c->o.zp;
    return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

static void test_squared_difference(int cases)
{
    static bcase c;
    int k;
    for (k = 0; k < cases; k++) {
        te_squared_difference_params p;
        bcase_make(&c, ref_sqdiff);
        te_squared_difference_make_params(&c.a.t, &c.b.t, &c.o.t, &p);
        te_squared_difference_s8(&p, c.in1, c.in2, c.out);
        CHECK(bcase_same(&c, "squared_difference", k));
    }
}

/* ---- PRELU ----------------------------------------------------------------- */

static int8_t ref_prelu(int8_t x, int8_t a, const bcase *c)
{
    double si = c->a.scale, sa = c->b.scale, so = c->o.scale;
    int32_t m, v = x - (int32_t)c->a.zp, r;
    int e;
    if (v >= 0) {
        te_quantize_multiplier(si / so, &m, &e);
        r = te_mul_by_quant_mult(v, m, e);
    } else {
        te_quantize_multiplier(si * sa / so, &m, &e);
        r = te_mul_by_quant_mult(v * (a - (int32_t)c->b.zp), m, e);
    }
    r += (int32_t)c->o.zp;
    return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

static void test_prelu(int cases)
{
    static bcase c;
    int k;
    for (k = 0; k < cases; k++) {
        te_prelu_params p;
        bcase_make(&c, ref_prelu);
        te_prelu_make_params(&c.a.t, &c.b.t, &c.o.t, &p);
        te_prelu_s8(&p, c.in1, c.in2, c.out);
        CHECK(bcase_same(&c, "prelu", k));
    }
}

/* ---- unary tables: LEAKY_RELU, ELU, ABS ----------------------------------- */

static int8_t sat8(int64_t v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }

/* TFLM's per-value formulas written out (multipliers from float ratios). */
static int8_t ref_leaky(int v, float si, int zi, float so, int zo, float alpha)
{
    int32_t m, x = v - zi;
    int e;
    float ratio = x >= 0 ? si / so : si * alpha / so;
    te_quantize_multiplier((double)ratio, &m, &e);
    return sat8((int64_t)zo + te_mul_by_quant_mult(x, m, e));
}

static int8_t ref_abs(int v, float si, int zi, float so, int zo)
{
    int32_t m, x = abs(v - zi);
    int e;
    if (si == so)
        return sat8((int64_t)x + zo);
    te_quantize_multiplier((double)si / (double)so, &m, &e);
    return sat8((int64_t)te_mul_by_quant_mult(x, m, e) + zo);
}

static int8_t ref_elu(int v, float si, int zi, float so, int zo)
{
    float x = si * (float)(v - zi);
    float y = x < 0.0f ? expf(x) - 1.0f : x;
    return sat8((int64_t)(roundf(y * (1.0f / so)) + (float)zo));
}

static void test_unary_tables(int cases)
{
    int k, v;
    for (k = 0; k < cases; k++) {
        float si = rand_scale_s8(), so = k % 4 == 0 ? si : rand_scale_s8();
        int zi = test_rand_range(-128, 127), zo = test_rand_range(-128, 127);
        float alpha = (float)test_rand_range(-300, 300) / 100.0f;
        int8_t leaky[256], elu[256], absv[256];
        int ok = 1;
        CHECK(te_lut_leaky_relu(si, zi, so, zo, alpha, leaky) == 0);
        CHECK(te_lut_abs(si, zi, so, zo, absv) == 0);
        te_lut_elu(si, zi, so, zo, elu);
        for (v = -128; v <= 127; v++) {
            ok &= leaky[(uint8_t)v] == ref_leaky(v, si, zi, so, zo, alpha);
            ok &= absv[(uint8_t)v] == ref_abs(v, si, zi, so, zo);
            ok &= elu[(uint8_t)v] == ref_elu(v, si, zi, so, zo);
        }
        if (!ok)
            fprintf(stderr, "unary tables case %d: si %g zi %d so %g zo %d alpha %g\n", k,
                    (double)si, zi, (double)so, zo, (double)alpha);
        CHECK(ok);
    }
    /* identities: alpha 1 at equal quantization; ABS of a symmetric input */
    {
        int8_t t[256];
        int ok = 1;
        te_lut_leaky_relu(0.05f, 3, 0.05f, 3, 1.0f, t);
        for (v = -128; v <= 127; v++)
            ok &= t[(uint8_t)v] == v;
        te_lut_abs(0.1f, 0, 0.1f, 0, t);
        for (v = -127; v <= 127; v++)
            ok &= t[(uint8_t)v] == abs(v);
        ok &= t[(uint8_t)-128] == 127; /* |-128| saturates */
        CHECK(ok);
    }
}

/* SUB through ADD's table kernel: the tables the compiler finds for SUB's
 * rescaling, over all 65536 input pairs, against ref_sub (flat and in
 * place).  Returns how many of the cases had tables. */
static int test_sub_lut(int cases)
{
    static int8_t x[65536], y[65536], out[65536];
    static bcase c;
    int k, i, found = 0;
    for (i = 0; i < 65536; i++) {
        x[i] = (int8_t)(i / 256 - 128);
        y[i] = (int8_t)(i % 256 - 128);
    }
    for (k = 0; k < cases; k++) {
        static const te_activation acts[] = {TE_ACT_NONE, TE_ACT_RELU, TE_ACT_RELU6};
        int shape[1] = {65536}, ok = 1;
        te_sub_params sp;
        te_add_params p;
        int32_t u1[256], u2[256];
        g_act = acts[k % 3];
        qt_init(&c.a, 0, 1, shape, rand_scale_s8(), test_rand_range(-128, 127));
        qt_init(&c.b, 1, 1, shape, k % 4 == 0 ? c.a.scale : rand_scale_s8(),
                test_rand_range(-128, 127));
        qt_init(&c.o, 2, 1, shape, rand_scale_s8(), test_rand_range(-128, 127));
        te_sub_make_params(g_act, &c.a.t, &c.b.t, &c.o.t, &sp);
        memset(&p, 0, sizeof p);
        p.in1_offset = sp.in1_offset;
        p.in2_offset = sp.in2_offset;
        p.left_shift = sp.left_shift;
        p.in1_mult = sp.in1_mult;
        p.in1_shift = sp.in1_shift;
        p.in2_mult = sp.in2_mult;
        p.in2_shift = sp.in2_shift;
        p.out_mult = sp.out_mult;
        p.out_shift = sp.out_shift;
        p.out_offset = sp.out_offset;
        p.act_min = sp.act_min;
        p.act_max = sp.act_max;
        if (!te_add_make_lut_signed(&p, 1, TE_ADD_LUT_SHIFT, u1, u2))
            continue;
        found++;
        {
            te_add_lut_params lp;
            memset(&lp, 0, sizeof lp);
            lp.broadcast = 0;
            lp.size = 65536;
            lp.u1 = u1;
            lp.u2 = u2;
            lp.act_min = p.act_min;
            lp.act_max = p.act_max;
            te_add_s8_lut(&lp, x, y, out);
            for (i = 0; i < 65536; i++)
                ok &= out[i] == ref_sub(x[i], y[i], &c);
            memcpy(out, x, sizeof out); /* in place over input 1 */
            te_add_s8_lut(&lp, out, y, out);
            for (i = 0; i < 65536; i++)
                ok &= out[i] == ref_sub(x[i], y[i], &c);
        }
        if (!ok)
            fprintf(stderr, "sub table case %d differs\n", k);
        CHECK(ok);
    }
    return found;
}

int main(void)
{
    test_seed(1313);
    test_minmax(400);
    test_minmax_scalar_table();
    test_sub(400);
    CHECK(test_sub_lut(24) >= 12); /* most rescalings have tables */
    test_squared_difference(400);
    test_prelu(400);
    test_unary_tables(200);
    return test_summary();
}
