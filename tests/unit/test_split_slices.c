/* test_split_slices.c - pass_split_slices inside a whole compile: x
 * [1,8,4,4] -> SPLIT into a, b -> RELU of b -> CONCATENATION of a and it (or
 * RELU of b alone, a unused).  With --patch auto or --sram-limit a split
 * along the channels becomes one SLICE per output (new op indices, the
 * SPLIT's in part_of / part, producers at their positions), the slice of an
 * unused output dies, and the generated layer hooks name the SPLIT's
 * outputs (op 0, output j); a split along the height (views) and every
 * split without those options stay SPLITs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "testlib.h"
#include "tflite_builder.h"

static const float s_x = 0.05f;
static const int64_t zp_x = -3;

/* axis 1: halves of the height; axis 3: halves of the channels.  use_a:
 * output a is read (by the concatenation). */
static uint8_t *build_model(int axis, int use_a, size_t *size)
{
    tflb_model m;
    tflb_quant q = tflb_quant1(&s_x, &zp_x);
    int32_t s_in[4] = {1, 8, 4, 4}, s_half[4] = {1, 8, 4, 4}, s_ax[1] = {1};
    int32_t x, a, b, rb, y, ax, in[2], outs[2], axis_v = axis;
    tflb_options none = tflb_opt_none(), cat;
    uint8_t *data = NULL;
    s_half[axis] /= 2;
    tflb_init(&m);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, s_in, 4, 0, &q);
    ax = tflb_add_const(&m, "axis", TFLB_INT32, s_ax, 0, &axis_v, 4, NULL);
    a = tflb_add_tensor(&m, "a", TFLB_INT8, s_half, 4, 0, &q);
    b = tflb_add_tensor(&m, "b", TFLB_INT8, s_half, 4, 0, &q);
    rb = tflb_add_tensor(&m, "rb", TFLB_INT8, s_half, 4, 0, &q);
    y = use_a ? tflb_add_tensor(&m, "y", TFLB_INT8, s_in, 4, 0, &q) : rb;
    in[0] = ax;
    in[1] = x;
    outs[0] = a;
    outs[1] = b;
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_SPLIT, 1), in, 2, outs, 2, &none);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_RELU, 1), &b, 1, &rb, 1, &none);
    if (use_a) {
        in[0] = a;
        in[1] = rb;
        cat = tflb_opt_concat(axis, TFLB_ACT_NONE);
        tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_CONCATENATION, 1), in, 2, &y, 1, &cat);
    }
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, &y, 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

/* The live ops of opcode op in g: how many; *parts: a bit per part. */
static int live_ops(const te_graph *g, int opcode, int *parts)
{
    int i, n = 0;
    *parts = 0;
    for (i = 0; i < g->n_ops; i++)
        if (!g->ops[i].dead && g->ops[i].opcode == opcode) {
            n++;
            *parts |= 1 << g->ops[i].part;
        }
    return n;
}

/* Every slice stands for op 0 with a new index of its own, and writes the
 * tensor whose producer is its position. */
static int slices_consistent(const te_graph *g)
{
    int i, j, ok = 1;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        if (op->opcode != TE_OP_SLICE)
            continue;
        ok &= op->part_of == 1 && te_op_model_index(op) == 0 && op->index > 0;
        ok &= op->dead || g->tensors[op->out[0]].producer == i;
        for (j = 0; j < g->n_ops; j++)
            ok &= j == i || g->ops[j].index != op->index;
    }
    return ok;
}

/* mode: 0 no options, 1 --patch auto, 2 --sram-limit. */
static void check(int axis, int use_a, int mode)
{
    size_t size;
    uint8_t *data = build_model(axis, use_a, &size);
    te_compile_opts o = TE_COMPILE_OPTS_DEFAULT;
    int slices = mode && axis == 3, parts;
    te_diag d;
    te_model *m;
    te_buf h, c;
    memset(&d, 0, sizeof d);
    memset(&h, 0, sizeof h);
    memset(&c, 0, sizeof c);
    if (mode == 1)
        o.patch.mode = TE_PATCH_AUTO;
    if (mode == 2)
        o.sram_limit = 1 << 20;
    m = data ? te_model_load(data, size, &o, &d) : NULL;
    CHECK(m != NULL);
    if (m) {
        const te_graph *g = m->g;
        CHECK(live_ops(g, TE_OP_SPLIT, &parts) == !slices);
        CHECK(live_ops(g, TE_OP_SLICE, &parts) == (slices ? 1 + use_a : 0));
        CHECK(!slices || parts == (use_a ? 3 : 2));
        CHECK(slices_consistent(g));
        CHECK(te_model_generate(m, "s", "", &h, &c, &d) == 0);
        CHECK(c.s && (strstr(c.s, "TE_LAYER_DONE(0, 0,") != NULL) == (use_a || !slices));
        CHECK(c.s && strstr(c.s, "TE_LAYER_DONE(0, 1,") != NULL);
    } else {
        printf("split slices (axis %d, mode %d): %s\n", axis, mode, d.msg);
    }
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    free(data);
}

int main(void)
{
    int mode, use_a;
    for (mode = 0; mode < 3; mode++)
        for (use_a = 0; use_a < 2; use_a++) {
            check(3, use_a, mode);
            check(1, use_a, mode);
        }
    return test_summary();
}
