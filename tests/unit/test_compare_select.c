/* test_compare_select.c - EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS,
 * LESS_EQUAL, LOGICAL_AND / OR / NOT and SELECT_V2.
 *
 * The kernels run on random broadcast shapes (every type each op takes)
 * against plain references written here from TFLite Micro's definitions
 * (int8 comparisons: (q - zp) << 8 rescaled by each input's
 * QuantizeMultiplierSmallerThanOneExp multiplier, then compared); then a
 * small model chaining all of them is built with tools/tflite_builder,
 * compiled to C, built and run (e2e_run.h) and its outputs checked against
 * the same references; and check() refuses what TFLite Micro refuses. */
#include "e2e_run.h"

#include <string.h>

#include "compiler.h"
#include "ops/broadcast.h"
#include "ref_bcast.h"
#include "te_common.h"
#include "te_compare.h"
#include "te_logical.h"
#include "te_select.h"
#include "testlib.h"
#include "tflite_builder.h"

#define MAXN 4096

/* ---- references ---------------------------------------------------------- */

static int ref_cmp(int op, double x, double y)
{
    switch (op) {
    case TE_CMP_EQ: return x == y;
    case TE_CMP_NE: return x != y;
    case TE_CMP_GT: return x > y;
    case TE_CMP_GE: return x >= y;
    case TE_CMP_LT: return x < y;
    default: return x <= y;
    }
}

/* An int8 value on TFLM's comparison scale. */
static int32_t ref_cmp_scale(int8_t q, float scale, int zp)
{
    int32_t m;
    int shift;
    ref_quantize_multiplier((double)scale, &m, &shift);
    return ref_rdbp(ref_srdhm((q - zp) * 256, m), -shift);
}

/* ---- kernels on random shapes ---------------------------------------------- */

static void shape_tensor(te_tensor *t, int rank, const int *s)
{
    int i;
    memset(t, 0, sizeof *t);
    t->rank = rank;
    for (i = 0; i < rank; i++)
        t->shape[i] = s[i];
}

static void fill_layout(int r, const int *out, int ra, const int *sa, int rb, const int *sb,
                        te_compare_params *p)
{
    te_tensor a, b;
    shape_tensor(&a, ra, sa);
    shape_tensor(&b, rb, sb);
    (void)r;
    (void)out;
    te_bcast_fill(&a, &b, &p->broadcast, &p->size, p->dims, p->stride1, p->stride2);
}

static void test_compare_kernels(int cases)
{
    static int8_t a8[MAXN], b8[MAXN];
    static int32_t a32[MAXN], b32[MAXN];
    static int64_t a64[MAXN], b64[MAXN];
    static float af[MAXN], bf[MAXN];
    static uint8_t ab[MAXN], bb[MAXN], out[MAXN];
    int c, i;
    for (c = 0; c < cases; c++) {
        int r, ra, rb, so[6], sa[6], sb[6], idx[6] = {0}, n, na, nb, type = c % 5, ok = 1;
        float s1 = 0.001f + 0.9f * (float)(test_rand() % 1000) / 1000.0f;
        float s2 = (c % 3 == 0) ? s1 : 0.001f + 0.9f * (float)(test_rand() % 1000) / 1000.0f;
        int z1 = test_rand_range(-128, 127), z2 = test_rand_range(-128, 127);
        te_compare_params p;
        memset(&p, 0, sizeof p);
        ref_rand_bcast(6, &r, so, &ra, sa, &rb, sb);
        n = ref_elems(so, r);
        na = ref_elems(sa, ra);
        nb = ref_elems(sb, rb);
        fill_layout(r, so, ra, sa, rb, sb, &p);
        p.op = type == 4 ? test_rand_range(0, 1) : test_rand_range(0, 5);
        for (i = 0; i < na || i < nb; i++) {
            a8[i] = (int8_t)test_rand_range(-128, 127);
            b8[i] = (int8_t)(test_rand() % 4 ? test_rand_range(-128, 127) : a8[i]);
            a32[i] = test_rand_range(-5, 5);
            b32[i] = test_rand_range(-5, 5);
            a64[i] = (int64_t)a32[i] * ((int64_t)1 << 33);
            b64[i] = (int64_t)b32[i] * ((int64_t)1 << 33);
            af[i] = (float)a32[i] * 0.5f;
            bf[i] = i % 7 == 3 ? NAN : (float)b32[i] * 0.5f;
            ab[i] = (uint8_t)(test_rand() % 2);
            bb[i] = (uint8_t)(test_rand() % 2);
        }
        p.left_shift = 8;
        {
            int sh;
            p.in1_offset = -z1;
            p.in2_offset = -z2;
            ref_quantize_multiplier((double)s1, &p.in1_multiplier, &sh);
            p.in1_shift = sh;
            ref_quantize_multiplier((double)s2, &p.in2_multiplier, &sh);
            p.in2_shift = sh;
        }
        memset(out, 0xAA, (size_t)n + 1);
        switch (type) {
        case 0: te_compare_s8(&p, a8, b8, out); break;
        case 1: te_compare_i32(&p, a32, b32, out); break;
        case 2: te_compare_i64(&p, a64, b64, out); break;
        case 3: te_compare_f32(&p, af, bf, out); break;
        default: te_compare_bool(&p, ab, bb, out); break;
        }
        for (i = 0; i < n; i++, ref_next_index(idx, so, r)) {
            int ia = ref_bcast_index(idx, r, sa, ra), ib = ref_bcast_index(idx, r, sb, rb), want;
            switch (type) {
            case 0:
                want = ref_cmp(p.op, ref_cmp_scale(a8[ia], s1, z1), ref_cmp_scale(b8[ib], s2, z2));
                break;
            case 1: want = ref_cmp(p.op, a32[ia], b32[ib]); break;
            case 2: want = ref_cmp(p.op, (double)a64[ia], (double)b64[ib]); break;
            case 3: want = ref_cmp(p.op, af[ia], bf[ib]); break;
            default: want = ref_cmp(p.op, ab[ia], bb[ib]); break;
            }
            ok &= out[i] == want;
        }
        ok &= out[n] == 0xAA;
        CHECK(ok);
        if (!ok)
            printf("  compare case %d: type %d op %d rank %d\n", c, type, p.op, r);
    }
}

static void test_logical_kernels(int cases)
{
    static uint8_t a[MAXN], b[MAXN], out[MAXN];
    int c, i;
    for (c = 0; c < cases; c++) {
        int r, ra, rb, so[6], sa[6], sb[6], idx[6] = {0}, n, ok = 1;
        te_logical_params p;
        te_tensor ta, tb;
        ref_rand_bcast(6, &r, so, &ra, sa, &rb, sb);
        n = ref_elems(so, r);
        shape_tensor(&ta, ra, sa);
        shape_tensor(&tb, rb, sb);
        te_bcast_fill(&ta, &tb, &p.broadcast, &p.size, p.dims, p.stride1, p.stride2);
        p.is_or = c % 2;
        for (i = 0; i < MAXN; i++) {
            a[i] = (uint8_t)(test_rand() % 2);
            b[i] = (uint8_t)(test_rand() % 2);
        }
        te_logical_binary(&p, a, b, out);
        for (i = 0; i < n; i++, ref_next_index(idx, so, r)) {
            int x = a[ref_bcast_index(idx, r, sa, ra)], y = b[ref_bcast_index(idx, r, sb, rb)];
            ok &= out[i] == (p.is_or ? (x || y) : (x && y));
        }
        CHECK(ok);
    }
    for (i = 0; i < 16; i++)
        a[i] = (uint8_t)(i % 3 == 0);
    te_logical_not(a, a, 16); /* in place */
    for (i = 0; i < 16; i++)
        CHECK(a[i] == (i % 3 != 0));
}

/* Row-major element strides of shape s (rank r) right-aligned in 6 dims,
 * 0 where the extended dim is 1. */
static void strides6(const int *s, int r, int *st, int *ext)
{
    int i, acc = 1;
    for (i = 5; i >= 0; i--) {
        int k = i - (6 - r);
        ext[i] = k >= 0 ? s[k] : 1;
        st[i] = ext[i] == 1 ? 0 : acc;
        acc *= ext[i];
    }
}

static void test_select_kernels(int cases)
{
    static uint8_t cond[MAXN];
    static float x[MAXN], y[MAXN], out[MAXN];
    static int8_t x8[MAXN], y8[MAXN], out8[MAXN];
    int c, i;
    for (c = 0; c < cases; c++) {
        int r, rc, rx, ry, so[6], sc[6], sx[6], sy[6], idx[6] = {0}, n, ok = 1, e[6];
        te_select_params p;
        ref_rand_bcast(5, &r, so, &rx, sx, &ry, sy);
        rc = test_rand_range(0, r);
        for (i = 0; i < rc; i++)
            sc[i] = test_rand() % 2 ? so[r - rc + i] : 1;
        n = ref_elems(so, r);
        memset(&p, 0, sizeof p);
        p.broadcast = 1;
        p.size = n;
        strides6(so, r, e, p.dims);
        strides6(sc, rc, p.stride_c, e);
        strides6(sx, rx, p.stride_x, e);
        strides6(sy, ry, p.stride_y, e);
        for (i = 0; i < MAXN; i++) {
            cond[i] = (uint8_t)(test_rand() % 2);
            x[i] = (float)i;
            y[i] = -(float)i;
            x8[i] = (int8_t)(i % 100);
            y8[i] = (int8_t)(-(i % 100));
        }
        te_select_f32(&p, cond, x, y, out);
        te_select_s8(&p, cond, x8, y8, out8);
        for (i = 0; i < n; i++, ref_next_index(idx, so, r)) {
            int ic = ref_bcast_index(idx, r, sc, rc), ix = ref_bcast_index(idx, r, sx, rx),
                iy = ref_bcast_index(idx, r, sy, ry);
            ok &= out[i] == (cond[ic] ? x[ix] : y[iy]);
            ok &= out8[i] == (cond[ic] ? x8[ix] : y8[iy]);
        }
        CHECK(ok);
    }
}

/* ---- the end-to-end model ------------------------------------------------ */

enum { T_A, T_B, T_K, T_CA, T_CB, T_CBOOL, T_CY, T_CK, T_CF, T_C1, T_C2, T_C3, T_C4, T_C5, T_Y,
       T_E, T_NE, T_F, T_COUNT };

static const float sa_ = 0.05f, sca = 0.07f;
static const int64_t za = 3, zca = -5;

static uint8_t *build_model(size_t *size, const int8_t *ca, float cb, const uint8_t *cbool,
                            const int8_t *cy, const int32_t *ck, float cf)
{
    tflb_model m;
    tflb_quant qa = tflb_quant1(&sa_, &za), qc = tflb_quant1(&sca, &zca);
    tflb_options none = tflb_opt_none();
    int32_t s24[3] = {2, 3, 4}, s4[1] = {4}, s1[1] = {1}, s31[2] = {3, 1}, s34[2] = {3, 4};
    int32_t t[T_COUNT], in[3], outs[7];
    uint8_t *data = NULL;
    tflb_init(&m);
    t[T_A] = tflb_add_tensor(&m, "a", TFLB_INT8, s24, 3, 0, &qa);
    t[T_B] = tflb_add_tensor(&m, "b", TFLB_FLOAT32, s24, 3, 0, NULL);
    t[T_K] = tflb_add_tensor(&m, "k", TFLB_INT32, s31, 2, 0, NULL);
    t[T_CA] = tflb_add_const(&m, "ca", TFLB_INT8, s4, 1, ca, 4, &qc);
    t[T_CB] = tflb_add_const(&m, "cb", TFLB_FLOAT32, s1, 1, &cb, 4, NULL);
    t[T_CBOOL] = tflb_add_const(&m, "cbool", TFLB_BOOL, s31, 2, cbool, 3, NULL);
    t[T_CY] = tflb_add_const(&m, "cy", TFLB_INT8, s31, 2, cy, 3, &qa);
    t[T_CK] = tflb_add_const(&m, "ck", TFLB_INT32, s4, 1, ck, 16, NULL);
    t[T_CF] = tflb_add_const(&m, "cf", TFLB_FLOAT32, s1, 1, &cf, 4, NULL);
    t[T_C1] = tflb_add_tensor(&m, "c1", TFLB_BOOL, s24, 3, 0, NULL);
    t[T_C2] = tflb_add_tensor(&m, "c2", TFLB_BOOL, s24, 3, 0, NULL);
    t[T_C3] = tflb_add_tensor(&m, "c3", TFLB_BOOL, s24, 3, 0, NULL);
    t[T_C4] = tflb_add_tensor(&m, "c4", TFLB_BOOL, s24, 3, 0, NULL);
    t[T_C5] = tflb_add_tensor(&m, "c5", TFLB_BOOL, s24, 3, 0, NULL);
    t[T_Y] = tflb_add_tensor(&m, "y", TFLB_INT8, s24, 3, 0, &qa);
    t[T_E] = tflb_add_tensor(&m, "e", TFLB_BOOL, s34, 2, 0, NULL);
    t[T_NE] = tflb_add_tensor(&m, "ne", TFLB_BOOL, s24, 3, 0, NULL);
    t[T_F] = tflb_add_tensor(&m, "f", TFLB_FLOAT32, s24, 3, 0, NULL);
#define OP2(code, x, y, o)                                                                      \
    do {                                                                                        \
        int32_t i2[2] = {t[x], t[y]};                                                           \
        tflb_add_op(&m, tflb_add_opcode(&m, code, 1), i2, 2, &t[o], 1, &none);                  \
    } while (0)
#define OP3(code, c_, x, y, o)                                                                  \
    do {                                                                                        \
        int32_t i3[3] = {t[c_], t[x], t[y]};                                                    \
        tflb_add_op(&m, tflb_add_opcode(&m, code, 1), i3, 3, &t[o], 1, &none);                  \
    } while (0)
    OP2(TE_OP_GREATER, T_A, T_CA, T_C1);
    OP2(TE_OP_LESS_EQUAL, T_B, T_CB, T_C2);
    OP2(TE_OP_LOGICAL_AND, T_C1, T_C2, T_C3);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_LOGICAL_NOT, 1), &t[T_C3], 1, &t[T_C4], 1, &none);
    OP2(TE_OP_LOGICAL_OR, T_C4, T_CBOOL, T_C5);
    OP3(TE_OP_SELECT_V2, T_C5, T_A, T_CY, T_Y);
    OP2(TE_OP_EQUAL, T_K, T_CK, T_E);
    OP2(TE_OP_NOT_EQUAL, T_C1, T_C2, T_NE);
    OP3(TE_OP_SELECT_V2, T_C2, T_B, T_CF, T_F);
#undef OP2
#undef OP3
    in[0] = t[T_A];
    in[1] = t[T_B];
    in[2] = t[T_K];
    outs[0] = t[T_C1];
    outs[1] = t[T_C3];
    outs[2] = t[T_C5];
    outs[3] = t[T_Y];
    outs[4] = t[T_E];
    outs[5] = t[T_NE];
    outs[6] = t[T_F];
    tflb_set_inputs(&m, in, 3);
    tflb_set_outputs(&m, outs, 7);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_e2e(void)
{
    int8_t a[24], ca[4] = {-100, 0, 7, 90}, cy[3] = {-128, 5, 127}, y[24], want_y[24];
    float b[24], cb = 0.25f, cf = -3.5f, f[24], want_f[24];
    int32_t k[3] = {1, -7, 1 << 20}, ck[4] = {1, 1 << 20, -7, 0};
    uint8_t cbool[3] = {0, 1, 0}, c1[24], c3[24], c5[24], e[12], ne[24];
    uint8_t w1[24], w2[24], w3[24], w5[24], we[12];
    const void *ins[3] = {a, b, k};
    size_t in_bytes[3] = {24, 96, 12}, out_bytes[7] = {24, 24, 24, 24, 12, 24, 96};
    void *outs[7] = {c1, c3, c5, y, e, ne, f};
    size_t size;
    uint8_t *model;
    int i, ok = 1;
    for (i = 0; i < 24; i++) {
        a[i] = (int8_t)(i * 11 - 128);
        b[i] = i % 5 == 0 ? 0.25f : (float)(i - 12) * 0.1f;
    }
    for (i = 0; i < 24; i++) {
        int x = i / 4 % 3; /* the [3, 1] index */
        w1[i] = ref_cmp_scale(a[i], sa_, (int)za) > ref_cmp_scale(ca[i % 4], sca, (int)zca);
        w2[i] = b[i] <= cb;
        w3[i] = w1[i] && w2[i];
        w5[i] = !w3[i] || cbool[x];
        want_y[i] = w5[i] ? a[i] : cy[x];
        want_f[i] = w2[i] ? b[i] : cf;
    }
    for (i = 0; i < 12; i++)
        we[i] = k[i / 4] == ck[i % 4];
    model = build_model(&size, ca, cb, cbool, cy, ck, cf);
    CHECK(model != NULL);
    if (!model)
        return;
    ok = e2e_run(model, size, 3, ins, in_bytes, 7, outs, out_bytes) == 0;
    CHECK(ok);
    if (ok) {
        CHECK(!memcmp(c1, w1, 24));
        CHECK(!memcmp(c3, w3, 24));
        CHECK(!memcmp(c5, w5, 24));
        CHECK(!memcmp(y, want_y, 24));
        CHECK(!memcmp(e, we, 12));
        for (i = 0; i < 24; i++)
            ok &= ne[i] == (w1[i] != w2[i]);
        CHECK(ok);
        CHECK(!memcmp(f, want_f, 96));
    }
    free(model);
}

/* ---- refusals ------------------------------------------------------------ */

/* One binary op on inputs of type `type` and shapes sa / sb. */
static uint8_t *binary_model(int code, int type, int out_type, const int32_t *sa, int ra,
                             const int32_t *sb, int rb, const int32_t *so, int ro, float scale,
                             size_t *size)
{
    tflb_model m;
    int64_t zp = 0;
    tflb_quant q = tflb_quant1(&scale, &zp);
    tflb_options none = tflb_opt_none();
    int32_t in[2], o;
    uint8_t *data = NULL;
    tflb_init(&m);
    in[0] = tflb_add_tensor(&m, "a", type, sa, ra, 0, type == TFLB_INT8 ? &q : NULL);
    in[1] = tflb_add_tensor(&m, "b", type, sb, rb, 0, type == TFLB_INT8 ? &q : NULL);
    o = tflb_add_tensor(&m, "o", out_type, so, ro, 0, NULL);
    tflb_add_op(&m, tflb_add_opcode(&m, code, 1), in, 2, &o, 1, &none);
    tflb_set_inputs(&m, in, 2);
    tflb_set_outputs(&m, &o, 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_refusals(void)
{
    int32_t s5[5] = {2, 1, 2, 1, 3}, s5b[5] = {1, 2, 1, 2, 3}, s5o[5] = {2, 2, 2, 2, 3};
    int32_t s2[2] = {2, 3};
    size_t n;
    uint8_t *m;
    m = binary_model(TE_OP_GREATER, TFLB_INT8, TFLB_BOOL, s2, 2, s2, 2, s2, 2, 0.1f, &n);
    CHECK(e2e_compiles(m, n, NULL));
    m = binary_model(TE_OP_GREATER, TFLB_INT8, TFLB_BOOL, s2, 2, s2, 2, s2, 2, 1.5f, &n);
    CHECK(e2e_compiles(m, n, "needs a scale below 1"));
    m = binary_model(TE_OP_LESS, TFLB_BOOL, TFLB_BOOL, s2, 2, s2, 2, s2, 2, 0.1f, &n);
    CHECK(e2e_compiles(m, n, "input type bool is not supported"));
    m = binary_model(TE_OP_EQUAL, TFLB_BOOL, TFLB_BOOL, s2, 2, s2, 2, s2, 2, 0.1f, &n);
    CHECK(e2e_compiles(m, n, NULL));
    m = binary_model(TE_OP_EQUAL, TFLB_FLOAT32, TFLB_BOOL, s5, 5, s5b, 5, s5o, 5, 0.1f, &n);
    CHECK(e2e_compiles(m, n, NULL)); /* broadcasting at rank 5 */
    m = binary_model(TE_OP_EQUAL, TFLB_FLOAT32, TFLB_BOOL, s5o, 5, s5o, 5, s5o, 5, 0.1f, &n);
    CHECK(e2e_compiles(m, n, NULL)); /* same shapes: any rank */
    m = binary_model(TE_OP_LOGICAL_AND, TFLB_INT8, TFLB_BOOL, s2, 2, s2, 2, s2, 2, 0.1f, &n);
    CHECK(e2e_compiles(m, n, "LOGICAL_AND"));
    m = binary_model(TE_OP_EQUAL, TFLB_INT32, TFLB_INT32, s2, 2, s2, 2, s2, 2, 0.1f, &n);
    CHECK(e2e_compiles(m, n, "output 0"));
}

int main(void)
{
    test_seed(1313);
    test_compare_kernels(600);
    test_logical_kernels(200);
    test_select_kernels(200);
    test_e2e();
    test_refusals();
    return test_summary();
}
