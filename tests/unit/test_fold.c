/* test_fold.c - constant folding (src/passes/pass_fold_const.c): Keras'
 * dynamic-batch shape arithmetic (SHAPE -> STRIDED_SLICE -> PACK ->
 * RESHAPE) folds away and generates no code; TILE of a constant becomes
 * the tiled constant; TILE of an activation stays unsupported;
 * BROADCAST_ARGS of constant shapes becomes the broadcast shape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "tflite_builder.h"
#include "testlib.h"

static float scale = 0.05f;
static int64_t zp = 3;

static te_model *load(tflb_model *b, te_diag *d)
{
    uint8_t *img = NULL;
    size_t n = 0;
    te_model *m;
    CHECK(tflb_finish(b, &img, &n) == 0);
    m = img ? te_model_load(img, n, NULL, d) : NULL;
    free(img);
    return m;
}

/* in int8[1,4,4,8] -> SHAPE -> [0:1] -> PACK(batch, 128) -> RESHAPE -> int8[1,128] */
static void test_dynamic_batch_reshape(void)
{
    tflb_model b;
    te_diag d = {0};
    te_buf h = {0}, c = {0};
    te_model *m;
    tflb_quant q = tflb_quant1(&scale, &zp);
    int32_t s4[] = {1, 4, 4, 8}, s1[] = {1}, s2[] = {2}, s128[] = {1, 128}, one = 1, zero = 0,
            v128 = 128;
    int32_t in, shp, bs, begin, end, strides, cst, packed, out, ops[3];
    tflb_options ss, pk;
    tflb_init(&b);
    in = tflb_add_tensor(&b, "in", TFLB_INT8, s4, 4, 0, &q);
    shp = tflb_add_tensor(&b, "shape4", TFLB_INT32, (int32_t[]){4}, 1, 0, NULL);
    begin = tflb_add_const(&b, "begin", TFLB_INT32, s1, 1, &zero, 4, NULL);
    end = tflb_add_const(&b, "end", TFLB_INT32, s1, 1, &one, 4, NULL);
    strides = tflb_add_const(&b, "strides", TFLB_INT32, s1, 1, &one, 4, NULL);
    bs = tflb_add_tensor(&b, "batch", TFLB_INT32, s1, 0, 0, NULL);
    cst = tflb_add_const(&b, "flat", TFLB_INT32, s1, 0, &v128, 4, NULL);
    packed = tflb_add_tensor(&b, "packed", TFLB_INT32, s2, 1, 0, NULL);
    out = tflb_add_tensor(&b, "out", TFLB_INT8, s128, 2, 0, &q);
    ops[0] = tflb_add_opcode(&b, TE_OP_SHAPE, 1);
    ops[1] = tflb_add_opcode(&b, TE_OP_STRIDED_SLICE, 1);
    ops[2] = tflb_add_opcode(&b, TE_OP_PACK, 1);
    ss = tflb_opt_strided_slice(0, 0, 1);
    pk = tflb_opt_empty(TE_OPT_PACK); /* axis 0 */
    tflb_add_op(&b, ops[0], &in, 1, &shp, 1, NULL);
    tflb_add_op(&b, ops[1], (int32_t[]){shp, begin, end, strides}, 4, &bs, 1, &ss);
    tflb_add_op(&b, ops[2], (int32_t[]){bs, cst}, 2, &packed, 1, &pk);
    tflb_add_op(&b, tflb_add_opcode(&b, TE_OP_RESHAPE, 1), (int32_t[]){in, packed}, 2, &out, 1, NULL);
    tflb_set_inputs(&b, &in, 1);
    tflb_set_outputs(&b, &out, 1);
    m = load(&b, &d);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "load failed: %s\n", d.msg);
    } else {
        const int32_t *p = (const int32_t *)m->g->tensors[packed].data;
        CHECK(m->g->ops[0].dead && m->g->ops[1].dead && m->g->ops[2].dead);
        CHECK(!m->g->ops[3].dead);
        CHECK(p != NULL && p[0] == 1 && p[1] == 128);
        CHECK(te_model_generate(m, "fold", "test", &h, &c, &d) == 0);
        /* no kernel runs for the shape arithmetic: the reshape is a view */
        CHECK(c.s && strstr(c.s, "gather") == NULL && strstr(c.s, "copy") == NULL);
        CHECK(c.s && strstr(c.s, "op 0:") == NULL && strstr(c.s, "op 1:") == NULL &&
              strstr(c.s, "op 2:") == NULL && strstr(c.s, "op 3: RESHAPE") != NULL);
    }
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    tflb_free(&b);
}

/* const int8[1,3] tiled by [2,1] + in int8[2,3] -> ADD */
static int tile_model(int tile_an_activation, te_model **mp, te_diag *d)
{
    tflb_model b;
    tflb_quant q = tflb_quant1(&scale, &zp);
    int32_t s13[] = {1, 3}, s23[] = {2, 3}, s2[] = {2}, mult[] = {2, 1};
    int8_t v[] = {-5, 7, 100};
    int32_t in, in2, k, mt, tiled, out, add_in[2];
    tflb_options add = tflb_opt_add(TFLB_ACT_NONE);
    tflb_init(&b);
    in = tflb_add_tensor(&b, "in", TFLB_INT8, s23, 2, 0, &q);
    in2 = tflb_add_tensor(&b, "in2", TFLB_INT8, s13, 2, 0, &q);
    k = tile_an_activation ? in2 : tflb_add_const(&b, "k", TFLB_INT8, s13, 2, v, 3, &q);
    mt = tflb_add_const(&b, "multiples", TFLB_INT32, s2, 1, mult, 8, NULL);
    tiled = tflb_add_tensor(&b, "tiled", TFLB_INT8, s23, 2, 0, &q);
    out = tflb_add_tensor(&b, "out", TFLB_INT8, s23, 2, 0, &q);
    tflb_add_op(&b, tflb_add_opcode(&b, TE_OP_TILE, 1), (int32_t[]){k, mt}, 2, &tiled, 1, NULL);
    add_in[0] = in;
    add_in[1] = tiled;
    tflb_add_op(&b, tflb_add_opcode(&b, TE_OP_ADD, 1), add_in, 2, &out, 1, &add);
    tflb_set_inputs(&b, tile_an_activation ? (int32_t[]){in, in2} : &in,
                    tile_an_activation ? 2 : 1);
    tflb_set_outputs(&b, &out, 1);
    *mp = load(&b, d);
    tflb_free(&b);
    return tiled;
}

static void test_tile(void)
{
    te_diag d = {0};
    te_model *m;
    int tiled = tile_model(0, &m, &d);
    static const int8_t want[] = {-5, 7, 100, -5, 7, 100};
    CHECK(m != NULL);
    if (m) {
        const te_tensor *t = &m->g->tensors[tiled];
        CHECK(m->g->ops[0].dead);
        CHECK(t->data && t->data_bytes == 6 && memcmp(t->data, want, 6) == 0);
    }
    te_model_free(m);
    memset(&d, 0, sizeof d);
    tile_model(1, &m, &d);
    CHECK(m == NULL);
    CHECK(strstr(d.msg, "TILE") != NULL);
    te_model_free(m);
}

/* BROADCAST_ARGS([1,4,1,3], [5,1]) as the shape of a RESHAPE: it folds to
 * [1,4,5,3]; of a computed shape it stays unsupported. */
static te_model *bargs_model(int computed, int dtype, int32_t *result, te_diag *d)
{
    tflb_model b;
    te_model *m;
    int64_t v64a[] = {1, 4, 1, 3}, v64b[] = {5, 1};
    int32_t v32a[] = {1, 4, 1, 3}, v32b[] = {5, 1}, s4[] = {4}, s2[] = {2};
    int32_t sa, sb, in, out, op_ba, i8 = dtype == TFLB_INT64 ? 8 : 4;
    tflb_quant q = tflb_quant1(&scale, &zp);
    tflb_init(&b);
    in = tflb_add_tensor(&b, "in", TFLB_INT8, (int32_t[]){1, 4, 5, 3}, 4, 0, &q);
    sa = computed ? tflb_add_tensor(&b, "sa", dtype, s4, 1, 0, NULL)
                  : tflb_add_const(&b, "sa", dtype, s4, 1,
                                   dtype == TFLB_INT64 ? (void *)v64a : (void *)v32a, 4 * i8, NULL);
    sb = tflb_add_const(&b, "sb", dtype, s2, 1,
                        dtype == TFLB_INT64 ? (void *)v64b : (void *)v32b, 2 * i8, NULL);
    *result = tflb_add_tensor(&b, "bshape", dtype, s4, 1, 0, NULL);
    out = tflb_add_tensor(&b, "out", TFLB_INT8, (int32_t[]){1, 4, 5, 3}, 4, 0, &q);
    op_ba = tflb_add_opcode(&b, TE_OP_BROADCAST_ARGS, 1);
    tflb_add_op(&b, op_ba, (int32_t[]){sa, sb}, 2, result, 1, NULL);
    tflb_add_op(&b, tflb_add_opcode(&b, TE_OP_RESHAPE, 1), (int32_t[]){in, *result}, 2, &out, 1,
                NULL);
    tflb_set_inputs(&b, computed ? (int32_t[]){in, sa} : &in, computed ? 2 : 1);
    tflb_set_outputs(&b, &out, 1);
    m = load(&b, d);
    tflb_free(&b);
    return m;
}

static void test_broadcast_args(void)
{
    int dt;
    for (dt = 0; dt < 2; dt++) {
        te_diag d = {0};
        int32_t r;
        int type = dt ? TFLB_INT64 : TFLB_INT32;
        te_model *m = bargs_model(0, type, &r, &d);
        CHECK(m != NULL);
        if (!m) {
            fprintf(stderr, "load failed: %s\n", d.msg);
        } else {
            const te_tensor *t = &m->g->tensors[r];
            int64_t want[] = {1, 4, 5, 3}, got[4] = {0};
            int k;
            CHECK(m->g->ops[0].dead && t->data != NULL);
            for (k = 0; t->data && k < 4; k++) {
                if (dt) {
                    memcpy(&got[k], t->data + 8 * k, 8);
                } else {
                    int32_t v;
                    memcpy(&v, t->data + 4 * k, 4);
                    got[k] = v;
                }
            }
            CHECK(memcmp(got, want, sizeof want) == 0);
        }
        te_model_free(m);
        memset(&d, 0, sizeof d);
        m = bargs_model(1, type, &r, &d);
        CHECK(m == NULL || te_model_generate(m, "f", "t", &(te_buf){0}, &(te_buf){0}, &d) != 0);
        CHECK(strstr(d.msg, "BROADCAST_ARGS") != NULL);
        te_model_free(m);
    }
}

int main(void)
{
    test_broadcast_args();
    test_dynamic_batch_reshape();
    test_tile();
    return test_summary();
}
