/* test_gather_nd_div.c - GATHER_ND, DIV (float32, int32, int8), FLOOR_DIV
 * and FLOOR_MOD (float32).
 *
 * References are written here from TFLite Micro's definitions: GATHER_ND's
 * flat-position slice copy with its bounds check; DIV int8's
 * DivElementwise (sign normalisation, GetReciprocal, CountLeadingSignBits,
 * the two rescales; RoundingDivideByPOT as TFLite runs it on x86-64 where
 * the exponent reaches 32 or more); float DIV clamped by std::max/std::min
 * to the activation range (infinities become +-FLT_MAX); FLOOR_DIV through
 * double; FLOOR_MOD by fmodf.  Kernels run on random broadcast shapes, one
 * model with all of them is compiled, built and run (e2e_run.h), and
 * constant GATHER_ND folds away. */
#include "e2e_run.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "compiler.h"
#include "ops/broadcast.h"
#include "quant/fixedpoint.h"
#include "ref_bcast.h"
#include "te_common.h"
#include "te_div.h"
#include "te_gather_nd.h"
#include "testlib.h"
#include "tflite_builder.h"

#define MAXN 4096

/* ---- references ------------------------------------------------------------ */

static int ref_clz(uint32_t x)
{
    int n = 0;
    while (n < 32 && !(x & (0x80000000u >> n)))
        n++;
    return n;
}

/* gemmlowp RoundingDivideByPOT as compiled for x86-64, for any exponent
 * TFLite's int8 DIV reaches: the int64 mask (1ll << e) - 1 shifts by e mod
 * 64, the int32 x >> e by e mod 32 (within gemmlowp's contract, e <= 31,
 * the plain rounding divide). */
static int32_t ref_rdbp_x86(int32_t x, int e)
{
    int32_t mask = (int32_t)(uint32_t)(((uint64_t)1 << (e & 63)) - 1), rem = x & mask;
    int32_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> (e & 31)) + (rem > thr ? 1 : 0);
}

static int8_t ref_div_s8(int8_t x, int8_t y, int z1, int z2, int zo, int32_t m, int shift, int lo,
                         int hi)
{
    int32_t a = x - z1, b = y - z2, inv, q, r;
    int hp1, recip, head;
    if (b < 0) {
        a = -a;
        b = -b;
    }
    hp1 = ref_clz((uint32_t)b);
    recip = 31 - hp1;
    inv = te_fp_one_over_one_plus_x((int32_t)(((uint32_t)b << hp1) - 0x80000000u));
    head = a == 0 ? 31 : a > 0 ? ref_clz((uint32_t)a) - 1 : ref_clz((uint32_t)(2 * (uint32_t)-a - 1));
    q = ref_srdhm((int32_t)((uint32_t)a << head), inv);
    r = ref_rdbp_x86(ref_srdhm(q, m), -(shift - recip - head)) + zo;
    return (int8_t)(r < lo ? lo : r > hi ? hi : r);
}

static float ref_div_f32(float x, float y, float lo, float hi)
{
    float v = x / y;
    v = v < lo ? lo : v;
    return hi < v ? hi : v;
}

static float ref_floor_mod(float x, float y)
{
    float m = fmodf(x, y);
    return m != 0 && ((y < 0) != (m < 0)) ? m + y : m;
}

static int same_f(float a, float b) { return memcmp(&a, &b, 4) == 0 || (a != a && b != b); }

/* ---- kernels ------------------------------------------------------------------ */

static void shape_tensor(te_tensor *t, int rank, const int *s)
{
    int i;
    memset(t, 0, sizeof *t);
    t->rank = rank;
    for (i = 0; i < rank; i++)
        t->shape[i] = s[i];
}

static void test_div_kernels(int cases)
{
    static int8_t a8[MAXN], b8[MAXN], o8[MAXN];
    static int32_t a32[MAXN], b32[MAXN], o32[MAXN];
    static float af[MAXN], bf[MAXN], of[MAXN];
    int c, i;
    for (c = 0; c < cases; c++) {
        int r, ra, rb, so[6], sa[6], sb[6], idx[6] = {0}, n, ok = 1, shift;
        float s1 = 0.01f + (float)(test_rand() % 100) * 0.002f;
        float s2 = 0.01f + (float)(test_rand() % 100) * 0.002f;
        float s3 = 0.005f + (float)(test_rand() % 100) * 0.004f;
        int z1 = test_rand_range(-128, 127), z2 = test_rand_range(-128, 127);
        int zo = test_rand_range(-128, 127);
        te_div_params p;
        te_tensor ta, tb;
        memset(&p, 0, sizeof p);
        ref_rand_bcast(5, &r, so, &ra, sa, &rb, sb);
        n = ref_elems(so, r);
        shape_tensor(&ta, ra, sa);
        shape_tensor(&tb, rb, sb);
        te_bcast_fill(&ta, &tb, &p.broadcast, &p.size, p.dims, p.stride1, p.stride2);
        for (i = 0; i < MAXN; i++) {
            a8[i] = (int8_t)test_rand_range(-128, 127);
            do
                b8[i] = (int8_t)test_rand_range(-128, 127);
            while (b8[i] == z2);
            a32[i] = test_rand_range(-100000, 100000);
            do
                b32[i] = test_rand_range(-300, 300);
            while (b32[i] == 0);
            af[i] = (float)test_rand_range(-1000, 1000) * 0.01f;
            bf[i] = i % 11 == 5 ? 0.0f : (float)test_rand_range(-1000, 1000) * 0.003f;
        }
        p.in1_offset = -z1;
        p.in2_offset = -z2;
        p.out_offset = zo;
        ref_quantize_multiplier((double)(s1 / (s2 * s3)), &p.out_multiplier, &shift);
        p.out_shift = shift;
        p.act_min = c % 3 ? -128 : zo;
        p.act_max = 127;
        te_div_s8(&p, a8, b8, o8);
        p.act_min = c % 2 ? INT32_MIN : 0;
        p.act_max = c % 2 ? INT32_MAX : 6;
        te_div_i32(&p, a32, b32, o32);
        p.f_min = c % 2 ? -FLT_MAX : 0.0f;
        p.f_max = c % 2 ? FLT_MAX : 6.0f;
        te_div_f32(&p, af, bf, of);
        for (i = 0; i < n; i++, ref_next_index(idx, so, r)) {
            int ia = ref_bcast_index(idx, r, sa, ra), ib = ref_bcast_index(idx, r, sb, rb);
            int32_t w32 = a32[ia] / b32[ib];
            ok &= o8[i] == ref_div_s8(a8[ia], b8[ib], z1, z2, zo, p.out_multiplier, shift,
                                      c % 3 ? -128 : zo, 127);
            if (c % 2 == 0)
                w32 = w32 < 0 ? 0 : w32 > 6 ? 6 : w32;
            ok &= o32[i] == w32;
            ok &= same_f(of[i], ref_div_f32(af[ia], bf[ib], p.f_min, p.f_max));
        }
        CHECK(ok);
        if (!ok)
            printf("  div case %d rank %d\n", c, r);
    }
}

/* Scales so far apart that the final rounding divide's exponent passes 63
 * (s1 / (s2 * s_out) = 2^-28): every (a, b) of int8 against the x86-64
 * reference. */
static void test_div_extreme_scales(void)
{
    static int8_t a8[256 * 255], b8[256 * 255], o8[256 * 255];
    te_div_params p;
    int i = 0, a, b, shift, ok = 1;
    memset(&p, 0, sizeof p);
    for (a = -128; a <= 127; a++)
        for (b = -128; b <= 127; b++)
            if (b != 0) {
                a8[i] = (int8_t)a;
                b8[i++] = (int8_t)b;
            }
    p.size = i;
    ref_quantize_multiplier((double)(1.0f / (16384.0f * 16384.0f)), &p.out_multiplier, &shift);
    p.out_shift = shift;
    p.act_min = -128;
    p.act_max = 127;
    te_div_s8(&p, a8, b8, o8);
    for (i = 0; i < p.size; i++)
        ok &= o8[i] == ref_div_s8(a8[i], b8[i], 0, 0, 0, p.out_multiplier, shift, -128, 127);
    CHECK(ok);
}

static void test_floor_kernels(int cases)
{
    static float a[MAXN], b[MAXN], o[MAXN];
    int c, i;
    for (c = 0; c < cases; c++) {
        int r, ra, rb, so[6], sa[6], sb[6], idx[6] = {0}, n, ok = 1;
        te_div_params p;
        te_tensor ta, tb;
        memset(&p, 0, sizeof p);
        ref_rand_bcast(4, &r, so, &ra, sa, &rb, sb);
        n = ref_elems(so, r);
        shape_tensor(&ta, ra, sa);
        shape_tensor(&tb, rb, sb);
        te_bcast_fill(&ta, &tb, &p.broadcast, &p.size, p.dims, p.stride1, p.stride2);
        p.in2_size = ref_elems(sb, rb);
        for (i = 0; i < MAXN; i++) {
            a[i] = (float)test_rand_range(-1000, 1000) * 0.37f;
            do
                b[i] = (float)test_rand_range(-50, 50) * 0.7f;
            while (b[i] == 0.0f);
        }
        ok &= te_floor_div_f32(&p, a, b, o) == 0;
        for (i = 0; i < n; i++, ref_next_index(idx, so, r)) {
            int ia = ref_bcast_index(idx, r, sa, ra), ib = ref_bcast_index(idx, r, sb, rb);
            ok &= same_f(o[i], (float)floor((double)a[ia] / (double)b[ib]));
        }
        te_floor_mod_f32(&p, a, b, o);
        memset(idx, 0, sizeof idx);
        for (i = 0; i < n; i++, ref_next_index(idx, so, r)) {
            int ia = ref_bcast_index(idx, r, sa, ra), ib = ref_bcast_index(idx, r, sb, rb);
            ok &= same_f(o[i], ref_floor_mod(a[ia], b[ib]));
        }
        b[p.in2_size - 1] = 0.0f;
        o[0] = 42.0f;
        ok &= te_floor_div_f32(&p, a, b, o) == -1 && o[0] == 42.0f; /* nothing written */
        CHECK(ok);
    }
}

static void test_gather_nd_kernel(int cases)
{
    static int8_t params[MAXN], out[MAXN], want[MAXN];
    int32_t idx[64];
    int c, i, j;
    for (c = 0; c < cases; c++) {
        int pr = test_rand_range(1, 5), ps[5], nd = test_rand_range(1, pr), esz = c % 2 ? 4 : 1;
        int n_slices = test_rand_range(1, 6), slice = 1, total = 1, bad = c % 5 == 4, ok = 1;
        int32_t dims[10];
        for (i = 0; i < pr; i++) {
            ps[i] = test_rand_range(1, 4);
            total *= ps[i];
        }
        for (i = nd; i < pr; i++)
            slice *= ps[i];
        dims[0] = n_slices;
        dims[1] = nd;
        dims[2] = slice;
        dims[3] = total;
        dims[4] = esz;
        {
            int remain = total;
            for (i = 0; i < nd; i++) {
                remain /= ps[i];
                dims[5 + i] = remain;
            }
        }
        for (i = 0; i < total * esz; i++)
            params[i] = (int8_t)test_rand_range(-128, 127);
        for (i = 0; i < n_slices; i++)
            for (j = 0; j < nd; j++)
                idx[i * nd + j] = test_rand_range(0, ps[j] - 1);
        if (bad)
            idx[(n_slices - 1) * nd] = ps[0]; /* the last slice past the end */
        for (i = 0; i < n_slices; i++) {
            int from = 0;
            for (j = 0; j < nd; j++)
                from += idx[i * nd + j] * dims[5 + j];
            if (from + slice <= total)
                memcpy(want + i * slice * esz, params + from * esz, (size_t)(slice * esz));
        }
        ok &= te_gather_nd(params, out, dims, idx) == (bad ? -1 : 0);
        ok &= !memcmp(out, want, (size_t)((n_slices - bad) * slice * esz));
        CHECK(ok);
    }
}

/* ---- end to end --------------------------------------------------------------- */

static int count(const char *s, const char *what)
{
    int n = 0;
    for (s = strstr(s, what); s; s = strstr(s + 1, what))
        n++;
    return n;
}

static const float S1 = 0.04f, S2 = 0.03f, SO = 0.05f;
static const int64_t Z1 = 5, Z2 = -7, ZO = -3;

static uint8_t *build_model(size_t *size, const float *gpf, const int32_t *gidx)
{
    tflb_model m;
    tflb_quant q1 = tflb_quant1(&S1, &Z1), q2 = tflb_quant1(&S2, &Z2), qo = tflb_quant1(&SO, &ZO);
    tflb_options none = tflb_opt_none(), relu = tflb_opt_div(TFLB_ACT_RELU),
                 nact = tflb_opt_div(TFLB_ACT_NONE);
    int32_t s432[3] = {4, 3, 2}, s22[2] = {2, 2}, s32[2] = {3, 2}, s12[2] = {1, 2};
    int32_t s23[2] = {2, 3}, s3[1] = {3}, s42[2] = {4, 2}, s21[2] = {2, 1};
    int32_t p8, ix, g8, a, b, d8, fa, fb, df, ia, ib, di, fd, fm, gp, gi, gf, cf;
    int32_t in[8], outs[7], i2[2];
    uint8_t *data = NULL;
    float cfv[3] = {0.5f, -2.0f, 0.0f};
    tflb_init(&m);
    p8 = tflb_add_tensor(&m, "p8", TFLB_INT8, s432, 3, 0, &q1);
    ix = tflb_add_tensor(&m, "ix", TFLB_INT32, s22, 2, 0, NULL);
    g8 = tflb_add_tensor(&m, "g8", TFLB_INT8, s22, 2, 0, &q1); /* [2] + [2] */
    a = tflb_add_tensor(&m, "a", TFLB_INT8, s32, 2, 0, &q1);
    b = tflb_add_tensor(&m, "b", TFLB_INT8, s12, 2, 0, &q2);
    d8 = tflb_add_tensor(&m, "d8", TFLB_INT8, s32, 2, 0, &qo);
    fa = tflb_add_tensor(&m, "fa", TFLB_FLOAT32, s23, 2, 0, NULL);
    fb = tflb_add_tensor(&m, "fb", TFLB_FLOAT32, s3, 1, 0, NULL);
    df = tflb_add_tensor(&m, "df", TFLB_FLOAT32, s23, 2, 0, NULL);
    ia = tflb_add_tensor(&m, "ia", TFLB_INT32, s23, 2, 0, NULL);
    ib = tflb_add_tensor(&m, "ib", TFLB_INT32, s23, 2, 0, NULL);
    di = tflb_add_tensor(&m, "di", TFLB_INT32, s23, 2, 0, NULL);
    fd = tflb_add_tensor(&m, "fd", TFLB_FLOAT32, s23, 2, 0, NULL);
    cf = tflb_add_const(&m, "cf", TFLB_FLOAT32, s3, 1, cfv, 12, NULL);
    fm = tflb_add_tensor(&m, "fm", TFLB_FLOAT32, s23, 2, 0, NULL);
    gp = tflb_add_const(&m, "gp", TFLB_FLOAT32, s42, 2, gpf, 32, NULL);
    gi = tflb_add_const(&m, "gi", TFLB_INT32, s21, 2, gidx, 8, NULL);
    gf = tflb_add_tensor(&m, "gf", TFLB_FLOAT32, s22, 2, 0, NULL);
    i2[0] = p8;
    i2[1] = ix;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_GATHER_ND, 1), i2, 2, &g8, 1, &none);
    i2[0] = a;
    i2[1] = b;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_DIV, 2), i2, 2, &d8, 1, &relu);
    i2[0] = fa;
    i2[1] = fb;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_DIV, 1), i2, 2, &df, 1, &nact);
    i2[0] = ia;
    i2[1] = ib;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_DIV, 1), i2, 2, &di, 1, &nact);
    i2[0] = fa;
    i2[1] = fb;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_FLOOR_DIV, 1), i2, 2, &fd, 1, &none);
    i2[1] = cf;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_FLOOR_MOD, 1), i2, 2, &fm, 1, &none);
    i2[0] = gp;
    i2[1] = gi;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_GATHER_ND, 1), i2, 2, &gf, 1, &none);
    in[0] = p8;
    in[1] = ix;
    in[2] = a;
    in[3] = b;
    in[4] = fa;
    in[5] = fb;
    in[6] = ia;
    in[7] = ib;
    tflb_set_inputs(&m, in, 8);
    outs[0] = g8;
    outs[1] = d8;
    outs[2] = df;
    outs[3] = fd;
    outs[4] = fm;
    outs[5] = gf;
    outs[6] = di;
    tflb_set_outputs(&m, outs, 7);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_e2e(void)
{
    int8_t p8[24], g8[4], a[6], b[2], d8[6], w8[6];
    int32_t ix[4] = {3, 1, 0, 2}, gidx[2] = {3, 1}, m;
    float fa[6] = {7.0f, -7.5f, 0.0f, 1e30f, -3.25f, 9.0f}, fb[3] = {2.0f, 0.5f, -1e-30f};
    float df[6], fd[6], fm[6], gf[4], gpf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float cfv[3] = {0.5f, -2.0f, 0.0f};
    int32_t ia[6] = {7, -7, 100, INT32_MIN + 1, 5, -9}, ib[6] = {2, 2, -3, 7, -5, 4}, di[6];
    const void *ins[8] = {p8, ix, a, b, fa, fb, ia, ib};
    size_t in_bytes[8] = {24, 16, 6, 2, 24, 12, 24, 24};
    size_t out_bytes[7] = {4, 6, 24, 24, 24, 16, 24};
    void *outs[7] = {g8, d8, df, fd, fm, gf, di};
    size_t size;
    int i, j, shift, ok;
    uint8_t *model = build_model(&size, gpf, gidx);
    te_generated *gen;
    char err[256];
    for (i = 0; i < 24; i++)
        p8[i] = (int8_t)(i * 7 - 80);
    for (i = 0; i < 6; i++)
        a[i] = (int8_t)(i * 40 - 120);
    b[0] = 20;
    b[1] = -90;
    CHECK(model != NULL);
    if (!model)
        return;
    gen = te_compile_memory(model, size, "net", NULL, err, sizeof err);
    /* one GATHER_ND call: the constant one folded away */
    CHECK(gen && count(gen->source, "if (te_gather_nd(") == 1);
    te_generated_free(gen);
    ok = e2e_run(model, size, 8, ins, in_bytes, 7, outs, out_bytes) == 0;
    CHECK(ok);
    if (ok) {
        for (i = 0; i < 2; i++)
            for (j = 0; j < 2; j++)
                CHECK(g8[i * 2 + j] == p8[(ix[i * 2] * 3 + ix[i * 2 + 1]) * 2 + j]);
        ref_quantize_multiplier((double)(S1 / (S2 * SO)), &m, &shift);
        for (i = 0; i < 6; i++)
            w8[i] = ref_div_s8(a[i], b[i % 2], (int)Z1, (int)Z2, (int)ZO, m, shift, (int)ZO, 127);
        CHECK(!memcmp(d8, w8, 6));
        for (i = 0; i < 6; i++) {
            CHECK(same_f(df[i], ref_div_f32(fa[i], fb[i % 3], -FLT_MAX, FLT_MAX)));
            CHECK(same_f(fd[i], (float)floor((double)fa[i] / (double)fb[i % 3])));
            CHECK(same_f(fm[i], ref_floor_mod(fa[i], cfv[i % 3])));
        }
        CHECK(gf[0] == 7.0f && gf[1] == 8.0f && gf[2] == 3.0f && gf[3] == 4.0f);
        for (i = 0; i < 6; i++)
            CHECK(di[i] == ia[i] / ib[i]);
    }
    /* a zero divisor fails FLOOR_DIV's invoke */
    fb[1] = 0.0f;
    CHECK(e2e_run(model, size, 8, ins, in_bytes, 7, outs, out_bytes) != 0);
    fb[1] = 0.5f;
    /* an index past the end fails GATHER_ND's invoke */
    ix[2] = 4;
    CHECK(e2e_run(model, size, 8, ins, in_bytes, 7, outs, out_bytes) != 0);
    free(model);
}

int main(void)
{
    test_seed(777);
    test_div_kernels(400);
    test_div_extreme_scales();
    test_floor_kernels(200);
    test_gather_nd_kernel(300);
    test_e2e();
    return test_summary();
}
