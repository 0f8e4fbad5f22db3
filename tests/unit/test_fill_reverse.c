/* test_fill_reverse.c - FILL, ZEROS_LIKE, BROADCAST_TO, REVERSE_V2 and
 * EMBEDDING_LOOKUP: one model with each (computed and constant inputs) is
 * built with tools/tflite_builder, compiled, built and run (e2e_run.h), and
 * its outputs compared with plain index arithmetic written here from
 * TFLite Micro's definitions; constant cases must fold (no kernel call),
 * a lookup index out of range fails the invoke, the hybrid lookup (int8
 * table into float32) dequantizes its rows, and check() refuses what
 * TFLite Micro refuses (non-contiguous reverse axes, a hybrid table with a
 * zero point). */
#include "e2e_run.h"

#include <string.h>

#include "compiler.h"
#include "testlib.h"
#include "tflite_builder.h"

enum { N_IN = 4, N_OUT = 7 };

/* inputs: v (float scalar), x (int8 [2,1,3]), r (float [2,3,4]), ids (int32 [3]) */
/* hybrid: 1 an int8 lookup table (scale 0.1), 2 the same with zero point 3. */
static uint8_t *build_model(size_t *size, int reverse_axes_bad, int hybrid)
{
    tflb_model m;
    float sc = 0.1f;
    int64_t zp = 0, zp_table = hybrid == 2 ? 3 : 0;
    tflb_quant q = tflb_quant1(&sc, &zp), qt = tflb_quant1(&sc, &zp_table);
    tflb_options none = tflb_opt_none();
    int32_t s0[1] = {0}, s213[3] = {2, 1, 3}, s234[3] = {2, 3, 4}, s3[1] = {3}, s2[1] = {2};
    int32_t s2x3[2] = {2, 3}, s4233[4] = {4, 2, 3, 3}, s42[2] = {4, 2}, s32[2] = {3, 2};
    int32_t dims_v[2] = {2, 3}, bshape[4] = {4, 2, 3, 3}, axes[2] = {1, 2}, axes_bad[2] = {0, 2};
    int32_t cfill_dims[1] = {3};
    float table[8] = {1, 2, 3, 4, 5, 6, 7, 8}, cval = 2.5f;
    int32_t v, x, r, ids, dims, fill, cdims, cv, cfill, zl, bs, bt, ax, rv, tb, emb, in[N_IN];
    int32_t outs[N_OUT], i2[2];
    uint8_t *data = NULL;
    tflb_init(&m);
    v = tflb_add_tensor(&m, "v", TFLB_FLOAT32, s0, 0, 0, NULL);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, s213, 3, 0, &q);
    r = tflb_add_tensor(&m, "r", TFLB_FLOAT32, s234, 3, 0, NULL);
    ids = tflb_add_tensor(&m, "ids", TFLB_INT32, s3, 1, 0, NULL);
    dims = tflb_add_const(&m, "dims", TFLB_INT32, s2, 1, dims_v, 8, NULL);
    fill = tflb_add_tensor(&m, "fill", TFLB_FLOAT32, s2x3, 2, 0, NULL);
    cdims = tflb_add_const(&m, "cdims", TFLB_INT32, s3 + 0 /* [1] */, 1, cfill_dims, 4, NULL);
    m.tensors[cdims].shape[0] = 1;
    cv = tflb_add_const(&m, "cv", TFLB_FLOAT32, s0, 0, &cval, 4, NULL);
    cfill = tflb_add_tensor(&m, "cfill", TFLB_FLOAT32, s3, 1, 0, NULL);
    zl = tflb_add_tensor(&m, "zl", TFLB_INT8, s213, 3, 0, &q);
    bs = tflb_add_const(&m, "bshape", TFLB_INT32, s3 + 0, 1, bshape, 16, NULL);
    m.tensors[bs].shape[0] = 4;
    bt = tflb_add_tensor(&m, "bt", TFLB_INT8, s4233, 4, 0, &q);
    ax = tflb_add_const(&m, "axes", TFLB_INT32, s2, 1, reverse_axes_bad ? axes_bad : axes, 8,
                        NULL);
    rv = tflb_add_tensor(&m, "rv", TFLB_FLOAT32, s234, 3, 0, NULL);
    tb = hybrid ? tflb_add_const(&m, "table", TFLB_INT8, s42, 2, "\1\2\3\4\5\6\7\10", 8, &qt)
                : tflb_add_const(&m, "table", TFLB_FLOAT32, s42, 2, table, 32, NULL);
    emb = tflb_add_tensor(&m, "emb", TFLB_FLOAT32, s32, 2, 0, NULL);
    i2[0] = dims;
    i2[1] = v;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_FILL, 1), i2, 2, &fill, 1, &none);
    i2[0] = cdims;
    i2[1] = cv;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_FILL, 1), i2, 2, &cfill, 1, &none);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_ZEROS_LIKE, 1), &x, 1, &zl, 1, &none);
    i2[0] = x;
    i2[1] = bs;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_BROADCAST_TO, 2), i2, 2, &bt, 1, &none);
    i2[0] = r;
    i2[1] = ax;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_REVERSE_V2, 1), i2, 2, &rv, 1, &none);
    i2[0] = ids;
    i2[1] = tb;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_EMBEDDING_LOOKUP, 1), i2, 2, &emb, 1, &none);
    in[0] = v;
    in[1] = x;
    in[2] = r;
    in[3] = ids;
    outs[0] = fill;
    outs[1] = cfill;
    outs[2] = zl;
    outs[3] = bt;
    outs[4] = rv;
    outs[5] = emb;
    outs[6] = x; /* keeps x an output too (ZEROS_LIKE folds its reader away) */
    tflb_set_inputs(&m, in, N_IN);
    tflb_set_outputs(&m, outs, N_OUT);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (s = strstr(s, what); s; s = strstr(s + 1, what))
        n++;
    return n;
}

/* hybrid: the lookup's table is int8 (1..8, scale 0.1): rows dequantized. */
static void e2e_case(int hybrid)
{
    float v = -1.25f, r[24], fill[6], cfill[3], rv[24], emb[6];
    int8_t x[6] = {1, -2, 3, -4, 5, -6}, zl[6], bt[72], xo[6];
    int32_t ids[3] = {3, 0, 2};
    const void *ins[N_IN] = {&v, x, r, ids};
    size_t in_bytes[N_IN] = {4, 6, 96, 12}, out_bytes[N_OUT] = {24, 12, 6, 72, 96, 24, 6};
    void *outs[N_OUT] = {fill, cfill, zl, bt, rv, emb, xo};
    size_t size;
    uint8_t *model = build_model(&size, 0, hybrid);
    char err[256];
    te_generated *gen;
    int i, a, b, c, d, ok;
    for (i = 0; i < 24; i++)
        r[i] = (float)i * 0.5f - 3.0f;
    CHECK(model != NULL);
    if (!model)
        return;
    gen = te_compile_memory(model, size, "net", NULL, err, sizeof err);
    CHECK(gen != NULL);
    if (gen) /* FILL (computed value), BROADCAST_TO, REVERSE_V2 run; the rest folded */
        CHECK(count(gen->source, "te_copy_gather_s8(") - count(gen->source, "void te_copy_gather_s8(") <= 3);
    te_generated_free(gen);
    ok = e2e_run(model, size, N_IN, ins, in_bytes, N_OUT, outs, out_bytes) == 0;
    CHECK(ok);
    if (ok) {
        for (i = 0; i < 6; i++)
            CHECK(fill[i] == v && zl[i] == 0);
        for (i = 0; i < 3; i++)
            CHECK(cfill[i] == 2.5f);
        for (a = 0; a < 4; a++)
            for (b = 0; b < 2; b++)
                for (c = 0; c < 3; c++)
                    for (d = 0; d < 3; d++)
                        CHECK(bt[((a * 2 + b) * 3 + c) * 3 + d] == x[b * 3 + d]);
        for (a = 0; a < 2; a++)
            for (b = 0; b < 3; b++)
                for (c = 0; c < 4; c++)
                    CHECK(rv[(a * 3 + b) * 4 + c] == r[(a * 3 + (2 - b)) * 4 + (3 - c)]);
        for (i = 0; i < 3; i++) {
            float lo = (float)(2 * ids[i] + 1), hi = (float)(2 * ids[i] + 2);
            CHECK(emb[2 * i] == (hybrid ? lo * 0.1f : lo) &&
                  emb[2 * i + 1] == (hybrid ? hi * 0.1f : hi));
        }
    }
    ids[1] = 4; /* out of range: TFLite's invoke fails */
    CHECK(e2e_run(model, size, N_IN, ins, in_bytes, N_OUT, outs, out_bytes) != 0);
    free(model);
}

static void test_refusals(void)
{
    char err[256] = "";
    size_t size;
    uint8_t *model = build_model(&size, 1, 0);
    te_generated *gen = te_compile_memory(model, size, "net", NULL, err, sizeof err);
    CHECK(gen == NULL && strstr(err, "REVERSE_V2") && strstr(err, "contiguous"));
    te_generated_free(gen);
    free(model);
    model = build_model(&size, 0, 2);
    gen = te_compile_memory(model, size, "net", NULL, err, sizeof err);
    CHECK(gen == NULL && strstr(err, "EMBEDDING_LOOKUP") && strstr(err, "zero point 0"));
    te_generated_free(gen);
    free(model);
}

int main(void)
{
    e2e_case(0);
    e2e_case(1);
    test_refusals();
    return test_summary();
}
