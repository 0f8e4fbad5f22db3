/* test_select.c - SELECT (v1) against a plain reference written here from
 * TensorFlow Lite's kernel (tensorflow/lite/kernels/select.cc): a condition
 * of x's shape picks element by element, a scalar condition picks the whole
 * tensor, a rank-1 condition of x's first dimension picks each outermost
 * slice.  Models built with tools/tflite_builder, every type the op takes
 * (int8, int16, float32 on their own SELECT_V2 kernels; int32, int64, bool
 * as bytes through the int8 one), compiled to C, built and run (e2e_run.h)
 * on random inputs; then check() refuses what TFLite refuses. */
#include "e2e_run.h"

#include <string.h>

#include "compiler.h"
#include "testlib.h"
#include "tflite_builder.h"

#define N 24 /* elements of the [2, 3, 4] tensors */

/* ---- the reference --------------------------------------------------------- */

/* out = cond ? x : y, elements of `size` bytes; n_cond condition elements
 * (N: element by element; 1: a scalar; 2: one per slice of the first
 * dimension). */
static void ref_select(const uint8_t *cond, int n_cond, const void *x, const void *y, void *out,
                       size_t size)
{
    int i, per = N / n_cond;
    for (i = 0; i < N; i++) {
        const uint8_t *src = cond[i / per] ? (const uint8_t *)x : (const uint8_t *)y;
        memcpy((uint8_t *)out + i * size, src + i * size, size);
    }
}

/* ---- the model ------------------------------------------------------------- */

enum { T_CF, T_C1, T_X8, T_Y8, T_X32, T_Y32, T_XF, T_YF, /* inputs */
       T_CS, T_X16, T_Y16, T_X64, T_Y64, T_YB,            /* constants */
       T_O8, T_O32R, T_OFS, T_O16R, T_OB, T_O32, T_O64R,  /* outputs */
       T_COUNT };

typedef struct {
    uint8_t cs;
    int16_t x16[N], y16[N];
    int64_t x64[N], y64[N];
    uint8_t yb[N];
} consts;

static uint8_t *build_model(size_t *size, const consts *k)
{
    static const float scale = 0.5f;
    static const int64_t zp = 0;
    tflb_model m;
    tflb_quant q = tflb_quant1(&scale, &zp);
    tflb_options none = tflb_opt_none();
    int32_t s[3] = {2, 3, 4}, s2[1] = {2}, t[T_COUNT], in[8], outs[7];
    uint8_t *data = NULL;
    int i;
    tflb_init(&m);
    t[T_CF] = tflb_add_tensor(&m, "cf", TFLB_BOOL, s, 3, 0, NULL);
    t[T_C1] = tflb_add_tensor(&m, "c1", TFLB_BOOL, s2, 1, 0, NULL);
    t[T_X8] = tflb_add_tensor(&m, "x8", TFLB_INT8, s, 3, 0, &q);
    t[T_Y8] = tflb_add_tensor(&m, "y8", TFLB_INT8, s, 3, 0, &q);
    t[T_X32] = tflb_add_tensor(&m, "x32", TFLB_INT32, s, 3, 0, NULL);
    t[T_Y32] = tflb_add_tensor(&m, "y32", TFLB_INT32, s, 3, 0, NULL);
    t[T_XF] = tflb_add_tensor(&m, "xf", TFLB_FLOAT32, s, 3, 0, NULL);
    t[T_YF] = tflb_add_tensor(&m, "yf", TFLB_FLOAT32, s, 3, 0, NULL);
    t[T_CS] = tflb_add_const(&m, "cs", TFLB_BOOL, s, 0, &k->cs, 1, NULL);
    t[T_X16] = tflb_add_const(&m, "x16", TFLB_INT16, s, 3, k->x16, sizeof k->x16, NULL);
    t[T_Y16] = tflb_add_const(&m, "y16", TFLB_INT16, s, 3, k->y16, sizeof k->y16, NULL);
    t[T_X64] = tflb_add_const(&m, "x64", TFLB_INT64, s, 3, k->x64, sizeof k->x64, NULL);
    t[T_Y64] = tflb_add_const(&m, "y64", TFLB_INT64, s, 3, k->y64, sizeof k->y64, NULL);
    t[T_YB] = tflb_add_const(&m, "yb", TFLB_BOOL, s, 3, k->yb, sizeof k->yb, NULL);
    t[T_O8] = tflb_add_tensor(&m, "o8", TFLB_INT8, s, 3, 0, &q);
    t[T_O32R] = tflb_add_tensor(&m, "o32r", TFLB_INT32, s, 3, 0, NULL);
    t[T_OFS] = tflb_add_tensor(&m, "ofs", TFLB_FLOAT32, s, 3, 0, NULL);
    t[T_O16R] = tflb_add_tensor(&m, "o16r", TFLB_INT16, s, 3, 0, NULL);
    t[T_OB] = tflb_add_tensor(&m, "ob", TFLB_BOOL, s, 3, 0, NULL);
    t[T_O32] = tflb_add_tensor(&m, "o32", TFLB_INT32, s, 3, 0, NULL);
    t[T_O64R] = tflb_add_tensor(&m, "o64r", TFLB_INT64, s, 3, 0, NULL);
#define SEL(c_, x, y, o)                                                                        \
    do {                                                                                        \
        int32_t i3[3] = {t[c_], t[x], t[y]};                                                    \
        tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_SELECT, 1), i3, 3, &t[o], 1, &none);          \
    } while (0)
    SEL(T_CF, T_X8, T_Y8, T_O8);      /* element by element, int8 kernel */
    SEL(T_C1, T_X32, T_Y32, T_O32R);  /* rank 1, int32 as bytes */
    SEL(T_CS, T_XF, T_YF, T_OFS);     /* scalar, float32 kernel */
    SEL(T_C1, T_X16, T_Y16, T_O16R);  /* rank 1, int16 kernel */
    SEL(T_CF, T_CF, T_YB, T_OB);      /* bool values */
    SEL(T_CF, T_X32, T_Y32, T_O32);   /* element by element, int32 as bytes */
    SEL(T_C1, T_X64, T_Y64, T_O64R);  /* rank 1, int64 as bytes */
#undef SEL
    for (i = 0; i < 8; i++)
        in[i] = t[T_CF + i];
    for (i = 0; i < 7; i++)
        outs[i] = t[T_O8 + i];
    tflb_set_inputs(&m, in, 8);
    tflb_set_outputs(&m, outs, 7);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_e2e(int runs)
{
    static consts k;
    uint8_t cf[N], c1[2], ob[N], wb[N];
    int8_t x8[N], y8[N], o8[N], w8[N];
    int32_t x32[N], y32[N], o32r[N], o32[N], w32r[N], w32[N];
    float xf[N], yf[N], ofs[N], wfs[N];
    int16_t o16r[N], w16r[N];
    int64_t o64r[N], w64r[N];
    const void *ins[8] = {cf, c1, x8, y8, x32, y32, xf, yf};
    size_t in_bytes[8] = {N, 2, N, N, 4 * N, 4 * N, 4 * N, 4 * N};
    size_t out_bytes[7] = {N, 4 * N, 4 * N, 2 * N, N, 4 * N, 8 * N};
    void *outs[7] = {o8, o32r, ofs, o16r, ob, o32, o64r};
    int r, i, ok;
    for (r = 0; r < runs; r++) {
        size_t size;
        uint8_t *model;
        k.cs = (uint8_t)(r % 2);
        c1[0] = (uint8_t)(test_rand() % 2);
        c1[1] = (uint8_t)!c1[0];
        for (i = 0; i < N; i++) {
            cf[i] = (uint8_t)(test_rand() % 2);
            x8[i] = (int8_t)test_rand();
            y8[i] = (int8_t)test_rand();
            x32[i] = (int32_t)test_rand(); /* any bit pattern, NaN ones included */
            y32[i] = (int32_t)test_rand();
            xf[i] = (float)test_rand_range(-1000, 1000) / 8;
            yf[i] = (float)test_rand_range(-1000, 1000) / 8;
            k.x16[i] = (int16_t)test_rand();
            k.y16[i] = (int16_t)test_rand();
            k.x64[i] = (int64_t)(((uint64_t)test_rand() << 32) | test_rand());
            k.y64[i] = (int64_t)(((uint64_t)test_rand() << 32) | test_rand());
            k.yb[i] = (uint8_t)(test_rand() % 2);
        }
        ref_select(cf, N, x8, y8, w8, 1);
        ref_select(c1, 2, x32, y32, w32r, 4);
        ref_select(&k.cs, 1, xf, yf, wfs, 4);
        ref_select(c1, 2, k.x16, k.y16, w16r, 2);
        ref_select(cf, N, cf, k.yb, wb, 1);
        ref_select(cf, N, x32, y32, w32, 4);
        ref_select(c1, 2, k.x64, k.y64, w64r, 8);
        model = build_model(&size, &k);
        CHECK(model != NULL);
        if (!model)
            return;
        ok = e2e_run(model, size, 8, ins, in_bytes, 7, outs, out_bytes) == 0;
        CHECK(ok);
        if (ok) {
            CHECK(!memcmp(o8, w8, sizeof w8));
            CHECK(!memcmp(o32r, w32r, sizeof w32r));
            CHECK(!memcmp(ofs, wfs, sizeof wfs));
            CHECK(!memcmp(o16r, w16r, sizeof w16r));
            CHECK(!memcmp(ob, wb, sizeof wb));
            CHECK(!memcmp(o32, w32, sizeof w32));
            CHECK(!memcmp(o64r, w64r, sizeof w64r));
        }
        free(model);
    }
}

/* ---- refusals ------------------------------------------------------------ */

/* One SELECT: condition of shape sc, x of sx, y of sy, output of so. */
static uint8_t *select_model(int type, const int32_t *sc, int rc, const int32_t *sx, int rx,
                             const int32_t *sy, int ry, const int32_t *so, int ro, size_t *size)
{
    tflb_model m;
    tflb_options none = tflb_opt_none();
    int32_t in[3], o;
    uint8_t *data = NULL;
    tflb_init(&m);
    in[0] = tflb_add_tensor(&m, "c", TFLB_BOOL, sc, rc, 0, NULL);
    in[1] = tflb_add_tensor(&m, "x", type, sx, rx, 0, NULL);
    in[2] = tflb_add_tensor(&m, "y", type, sy, ry, 0, NULL);
    o = tflb_add_tensor(&m, "o", type, so, ro, 0, NULL);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_SELECT, 1), in, 3, &o, 1, &none);
    tflb_set_inputs(&m, in, 3);
    tflb_set_outputs(&m, &o, 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_refusals(void)
{
    int32_t s23[2] = {2, 3}, s13[2] = {1, 3}, s2[1] = {2}, s3[1] = {3}, s32[2] = {3, 2};
    size_t n;
    uint8_t *m;
    m = select_model(TFLB_FLOAT32, s23, 2, s23, 2, s23, 2, s23, 2, &n);
    CHECK(e2e_compiles(m, n, NULL));
    m = select_model(TFLB_INT32, s2, 1, s23, 2, s23, 2, s23, 2, &n);
    CHECK(e2e_compiles(m, n, NULL));
    m = select_model(TFLB_INT32, s3, 1, s3, 1, s3, 1, s3, 1, &n);
    CHECK(e2e_compiles(m, n, NULL));
    m = select_model(TFLB_FLOAT32, s3, 1, s23, 2, s23, 2, s23, 2, &n);
    CHECK(e2e_compiles(m, n, "must have the shape of input 1, be a scalar, or be rank 1"));
    m = select_model(TFLB_FLOAT32, s13, 2, s23, 2, s23, 2, s23, 2, &n);
    CHECK(e2e_compiles(m, n, "must have the shape of input 1")); /* no broadcasting in v1 */
    m = select_model(TFLB_FLOAT32, s23, 2, s23, 2, s13, 2, s23, 2, &n);
    CHECK(e2e_compiles(m, n, "differ in shape"));
    m = select_model(TFLB_FLOAT32, s2, 1, s23, 2, s23, 2, s32, 2, &n);
    CHECK(e2e_compiles(m, n, "does not have the shape of input 1"));
    m = select_model(1 /* float16 */, s23, 2, s23, 2, s23, 2, s23, 2, &n);
    CHECK(e2e_compiles(m, n, "float16"));
}

int main(void)
{
    test_seed(4747);
    test_e2e(2);
    test_refusals();
    return test_summary();
}
