/* test_unary_math.c - RSQRT (int8 and float32), L2_NORMALIZATION (int8 and
 * float32) and the float32-only math of TFLite Micro (EXP, LOG, SQRT, SIN,
 * COS, SQUARE, FLOOR, CEIL, ROUND).
 *
 * References are written here from TFLite's definitions: gemmlowp's
 * fixed-point Newton-Raphson of GetInvSqrtQuantizedMultiplierExp, the int8
 * RSQRT and L2 normalization arithmetic, round half to even; the float ops
 * call the C library as TFLite does.  Then one model with all of them is
 * built with tools/tflite_builder, compiled, built and run (e2e_run.h);
 * an int8 RSQRT input below the zero point fails the invoke as in TFLite. */
#include "e2e_run.h"

#include <math.h>
#include <string.h>

#include "compiler.h"
#include "quant/lut_unary.h"
#include "ref_bcast.h"
#include "te_common.h"
#include "te_l2norm.h"
#include "te_math_f32.h"
#include "testlib.h"
#include "tflite_builder.h"

/* ---- references ------------------------------------------------------------ */

/* gemmlowp SaturatingRoundingMultiplyByPOT */
static int32_t ref_pot(int32_t x, int e)
{
    int64_t v;
    if (e <= 0)
        return e == 0 ? x : ref_rdbp(x, -e);
    v = (int64_t)x * ((int64_t)1 << e);
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* GetInvSqrtQuantizedMultiplierExp(input, -1, ...) from its definition */
static void ref_inv_sqrt(int32_t input, int32_t *mult, int *shift)
{
    int s = 11, i, lz = 0;
    int32_t x, half;
    if (input <= 1) {
        *mult = INT32_MAX;
        *shift = 0;
        return;
    }
    while (input >= (1 << 29)) {
        input /= 4;
        s++;
    }
    while (lz < 32 && !((uint32_t)input & (1u << (31 - lz))))
        lz++;
    s -= (lz - 1) / 2 - 1;
    input <<= 2 * ((lz - 1) / 2 - 1);
    half = ref_pot(input >> 1, -1);
    x = 1 << 28; /* F3 one */
    for (i = 0; i < 5; i++) {
        int32_t x3 = ref_pot(ref_srdhm(ref_srdhm(x, x), x), 6); /* F9 -> F3 */
        int32_t t = (int32_t)((int64_t)ref_srdhm((1 << 28) + (1 << 27), x) -
                              (int64_t)ref_srdhm(half, x3));
        x = ref_pot(t, 3); /* F6 -> F3 */
    }
    x = ref_srdhm(x, 1518500250);
    if (s < 0) {
        x = (int32_t)((uint32_t)x << -s);
        s = 0;
    }
    *mult = x;
    *shift = -s;
}

static int8_t ref_clamp8(int32_t v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }

static int8_t ref_rsqrt_s8(int8_t q, float si, int zi, float so, int zo)
{
    int32_t m, im, v = q - zi, data;
    int s, is;
    if (v == 0)
        return 127;
    ref_quantize_multiplier(1.0 / (sqrt((double)si) * (double)so), &m, &s);
    ref_inv_sqrt(v, &im, &is);
    data = ref_mbqm(1, im, is + 20);
    return ref_clamp8(ref_mbqm(data, m, s - 20) + zo);
}

static void ref_l2norm_s8(const int8_t *in, int8_t *out, int outer, int depth, int zp)
{
    int i, c;
    for (i = 0; i < outer; i++) {
        int32_t acc = 0, m;
        int s;
        for (c = 0; c < depth; c++)
            acc += (in[i * depth + c] - zp) * (in[i * depth + c] - zp);
        ref_inv_sqrt(acc, &m, &s);
        for (c = 0; c < depth; c++)
            out[i * depth + c] = ref_clamp8(ref_mbqm(in[i * depth + c] - zp, m, s + 7));
    }
}

static void ref_l2norm_f32(const float *in, float *out, int outer, int depth)
{
    int i, c;
    for (i = 0; i < outer; i++) {
        float sq = 0, n;
        for (c = 0; c < depth; c++)
            sq += in[i * depth + c] * in[i * depth + c];
        n = sqrtf(sq);
        n = n < 1e-6f ? 1e-6f : n;
        for (c = 0; c < depth; c++)
            out[i * depth + c] = in[i * depth + c] / n;
    }
}

static float ref_round(float x)
{
    float f = floorf(x), d = x - f;
    if (d < 0.5f || (d == 0.5f && fmodf(f, 2.0f) == 0.0f))
        return f;
    return f + 1.0f;
}

static int same_f(float a, float b) { return memcmp(&a, &b, 4) == 0 || (a != a && b != b); }

/* ---- kernels and tables ------------------------------------------------------ */

static void test_inv_sqrt(void)
{
    int32_t v, m1, m2;
    int s1, s2, ok = 1;
    for (v = 0; v < 70000; v++) {
        te_inv_sqrt_multiplier_exp(v, &m1, &s1);
        ref_inv_sqrt(v, &m2, &s2);
        ok &= m1 == m2 && s1 == s2;
    }
    for (v = 0; v < 20000; v++) {
        int32_t x = (int32_t)(test_rand() & 0x7FFFFFFF);
        te_inv_sqrt_multiplier_exp(x, &m1, &s1);
        ref_inv_sqrt(x, &m2, &s2);
        ok &= m1 == m2 && s1 == s2;
    }
    CHECK(ok);
}

static void test_rsqrt_tables(void)
{
    int c, v;
    for (c = 0; c < 300; c++) {
        float si = 0.001f + (float)(test_rand() % 1000) * 0.0005f;
        float so = 0.002f + (float)(test_rand() % 1000) * 0.0005f;
        int zi = test_rand_range(-128, 127), zo = test_rand_range(-128, 127), ok = 1;
        int8_t table[256];
        if (te_lut_rsqrt(si, zi, so, zo, table) < 0) {
            CHECK(0);
            continue;
        }
        for (v = -128; v <= 127; v++)
            if (v >= zi)
                ok &= table[(uint8_t)v] == ref_rsqrt_s8((int8_t)v, si, zi, so, zo);
        CHECK(ok);
    }
}

static void test_l2norm_kernels(void)
{
    static int8_t in[4096], out[4096], want[4096];
    static float fin[4096], fout[4096], fwant[4096];
    int c, i;
    for (c = 0; c < 200; c++) {
        int outer = test_rand_range(1, 8), depth = test_rand_range(1, 300), n = outer * depth;
        int zp = test_rand_range(-128, 127), ok = 1;
        for (i = 0; i < n; i++) {
            in[i] = (int8_t)(c % 7 == 0 ? zp : test_rand_range(-128, 127));
            fin[i] = c % 7 == 0 ? 0.0f : (float)test_rand_range(-1000, 1000) * 0.01f;
        }
        te_l2norm_s8(in, out, outer, depth, zp);
        ref_l2norm_s8(in, want, outer, depth, zp);
        for (i = 0; i < n; i++)
            ok &= out[i] == want[i];
        te_l2norm_f32(fin, fout, outer, depth);
        ref_l2norm_f32(fin, fwant, outer, depth);
        for (i = 0; i < n; i++)
            ok &= same_f(fout[i], fwant[i]);
        te_l2norm_s8(in, in, outer, depth, zp); /* in place */
        ok &= !memcmp(in, want, (size_t)n);
        CHECK(ok);
    }
}

static void test_float_kernels(void)
{
    float in[16] = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 3.7f, -3.7f,
                    1e-30f, 123456.5f, 8388609.0f, INFINITY, -INFINITY, NAN};
    float out[16];
    int i, ok = 1;
#define KCHECK(K, EXPR)                                                                            \
    do {                                                                                           \
        K(in, out, 16);                                                                            \
        for (i = 0; i < 16; i++) {                                                                 \
            const float x = in[i];                                                                 \
            ok &= same_f(out[i], (EXPR));                                                          \
        }                                                                                          \
    } while (0)
    KCHECK(te_exp_f32, expf(x));
    KCHECK(te_log_f32, logf(x));
    KCHECK(te_sqrt_f32, sqrtf(x));
    KCHECK(te_rsqrt_f32, 1.0f / sqrtf(x));
    KCHECK(te_sin_f32, sinf(x));
    KCHECK(te_cos_f32, cosf(x));
    KCHECK(te_square_f32, x * x);
    KCHECK(te_floor_f32, floorf(x));
    KCHECK(te_ceil_f32, ceilf(x));
    KCHECK(te_round_f32, ref_round(x));
#undef KCHECK
    CHECK(ok);
    te_round_f32(in, out, 8);
    CHECK(out[2] == 0.0f && out[3] == 2.0f && out[4] == 2.0f && out[5] == -0.0f &&
          out[6] == -2.0f && out[7] == -2.0f); /* half to even */
}

/* ---- end to end ------------------------------------------------------------- */

#define NF 10
static const int float_ops[NF] = {TE_OP_EXP,    TE_OP_LOG,   TE_OP_SQRT, TE_OP_RSQRT,
                                  TE_OP_SIN,    TE_OP_COS,   TE_OP_SQUARE, TE_OP_FLOOR,
                                  TE_OP_CEIL,   TE_OP_ROUND};

static uint8_t *build_model(size_t *size, float si, int64_t zi, float so, int64_t zo)
{
    tflb_model m;
    float sl = 1.0f / 128;
    int64_t zl = 0;
    tflb_quant qi = tflb_quant1(&si, &zi), qo = tflb_quant1(&so, &zo), ql = tflb_quant1(&sl, &zl);
    tflb_options none = tflb_opt_none();
    int32_t sf[2] = {2, 8}, sq[2] = {3, 5};
    int32_t x, q, outs[NF + 3], ins[2];
    uint8_t *data = NULL;
    int k;
    tflb_init(&m);
    x = tflb_add_tensor(&m, "x", TFLB_FLOAT32, sf, 2, 0, NULL);
    q = tflb_add_tensor(&m, "q", TFLB_INT8, sq, 2, 0, &qi);
    for (k = 0; k < NF; k++) {
        outs[k] = tflb_add_tensor(&m, "f", TFLB_FLOAT32, sf, 2, 0, NULL);
        tflb_add_op(&m, tflb_add_opcode(&m, float_ops[k], 1), &x, 1, &outs[k], 1, &none);
    }
    outs[NF] = tflb_add_tensor(&m, "rq", TFLB_INT8, sq, 2, 0, &qo);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_RSQRT, 2), &q, 1, &outs[NF], 1, &none);
    outs[NF + 1] = tflb_add_tensor(&m, "lq", TFLB_INT8, sq, 2, 0, &ql);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_L2_NORMALIZATION, 2), &q, 1, &outs[NF + 1], 1,
                &none);
    outs[NF + 2] = tflb_add_tensor(&m, "lf", TFLB_FLOAT32, sf, 2, 0, NULL);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_L2_NORMALIZATION, 1), &x, 1, &outs[NF + 2], 1,
                &none);
    ins[0] = x;
    ins[1] = q;
    tflb_set_inputs(&m, ins, 2);
    tflb_set_outputs(&m, outs, NF + 3);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_e2e(void)
{
    const float si = 0.037f, so = 0.011f;
    const int zi = -20, zo = -100;
    static float x[16], fo[NF][16], lf[16], want[16];
    int8_t q[15], rq[15], lq[15], wq[15];
    const void *ins[2] = {x, q};
    size_t in_bytes[2] = {64, 15}, out_bytes[NF + 3];
    void *outs[NF + 3];
    size_t size;
    uint8_t *model = build_model(&size, si, zi, so, zo);
    int i, k, ok;
    for (i = 0; i < 16; i++)
        x[i] = (float)(i - 5) * 0.75f + (i % 3 == 0 ? 0.25f : 0.0f);
    for (i = 0; i < 15; i++)
        q[i] = (int8_t)(zi + i * 9);
    for (k = 0; k < NF; k++) {
        outs[k] = fo[k];
        out_bytes[k] = 64;
    }
    outs[NF] = rq;
    outs[NF + 1] = lq;
    outs[NF + 2] = lf;
    out_bytes[NF] = out_bytes[NF + 1] = 15;
    out_bytes[NF + 2] = 64;
    CHECK(model != NULL);
    if (!model)
        return;
    ok = e2e_run(model, size, 2, ins, in_bytes, NF + 3, outs, out_bytes) == 0;
    CHECK(ok);
    if (ok) {
        for (k = 0; k < NF; k++) {
            int good = 1;
            for (i = 0; i < 16; i++) {
                float v = x[i], w;
                switch (float_ops[k]) {
                case TE_OP_EXP: w = expf(v); break;
                case TE_OP_LOG: w = logf(v); break;
                case TE_OP_SQRT: w = sqrtf(v); break;
                case TE_OP_RSQRT: w = 1.0f / sqrtf(v); break;
                case TE_OP_SIN: w = sinf(v); break;
                case TE_OP_COS: w = cosf(v); break;
                case TE_OP_SQUARE: w = v * v; break;
                case TE_OP_FLOOR: w = floorf(v); break;
                case TE_OP_CEIL: w = ceilf(v); break;
                default: w = ref_round(v); break;
                }
                good &= same_f(fo[k][i], w);
            }
            CHECK(good);
            if (!good)
                printf("  %s differs\n", te_opcode_name(float_ops[k]));
        }
        for (i = 0; i < 15; i++)
            wq[i] = ref_rsqrt_s8(q[i], si, zi, so, zo);
        CHECK(!memcmp(rq, wq, 15));
        ref_l2norm_s8(q, wq, 3, 5, zi);
        CHECK(!memcmp(lq, wq, 15));
        ref_l2norm_f32(x, want, 2, 8);
        CHECK(!memcmp(lf, want, 64));
    }
    /* an int8 RSQRT input below the zero point: TFLite's invoke fails */
    q[7] = (int8_t)(zi - 1);
    CHECK(e2e_run(model, size, 2, ins, in_bytes, NF + 3, outs, out_bytes) != 0);
    free(model);
}

int main(void)
{
    test_seed(4242);
    test_inv_sqrt();
    test_rsqrt_tables();
    test_l2norm_kernels();
    test_float_kernels();
    test_e2e();
    return test_summary();
}
