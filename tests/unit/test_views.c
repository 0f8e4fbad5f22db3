/* test_views.c - zero-copy views of data-movement outputs (pass_alias with
 * te_op_def.view_input) inside a whole compile: x [1,8,4,4] -> SPLIT along
 * the height into a, b (contiguous halves: views of x at byte offsets 0
 * and 64) -> RELU each -> CONCATENATION along the height.  The views sit
 * at their offsets inside x's buffer, the split emits no copy, the RELU of
 * a is not run in place (b, which shares x's buffer, is read later) and
 * the arena stays within the lifetime bound.  With the split along the
 * channels instead (outer dimensions not 1) there is no view but a gather.
 * Running views is left to the golden tests (split_axis1_2_h8, unpack_*). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "testlib.h"
#include "tflite_builder.h"

static const float s_x = 0.05f;
static const int64_t zp_x = -3;

/* axis 1: halves of the height; axis 3: halves of the channels. */
static uint8_t *build_split_model(int axis, size_t *size)
{
    tflb_model m;
    tflb_quant q = tflb_quant1(&s_x, &zp_x);
    int32_t s_in[4] = {1, 8, 4, 4}, s_half[4] = {1, 8, 4, 4}, s_ax[1] = {1};
    int32_t x, a, b, ra, rb, y, ax, in[2], outs[2], axis_v = axis;
    tflb_options none = tflb_opt_none(), cat;
    uint8_t *data = NULL;
    int relu;
    s_half[axis] /= 2;
    tflb_init(&m);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, s_in, 4, 0, &q);
    ax = tflb_add_const(&m, "axis", TFLB_INT32, s_ax, 0, &axis_v, 4, NULL);
    a = tflb_add_tensor(&m, "a", TFLB_INT8, s_half, 4, 0, &q);
    b = tflb_add_tensor(&m, "b", TFLB_INT8, s_half, 4, 0, &q);
    ra = tflb_add_tensor(&m, "ra", TFLB_INT8, s_half, 4, 0, &q);
    rb = tflb_add_tensor(&m, "rb", TFLB_INT8, s_half, 4, 0, &q);
    y = tflb_add_tensor(&m, "y", TFLB_INT8, s_in, 4, 0, &q);
    in[0] = ax;
    in[1] = x;
    outs[0] = a;
    outs[1] = b;
    tflb_add_op(&m, tflb_add_opcode(&m, 49 /* SPLIT */, 1), in, 2, outs, 2, &none);
    relu = tflb_add_opcode(&m, 19 /* RELU */, 1);
    tflb_add_op(&m, relu, &a, 1, &ra, 1, &none);
    tflb_add_op(&m, relu, &b, 1, &rb, 1, &none);
    in[0] = ra;
    in[1] = rb;
    cat = tflb_opt_concat(axis, TFLB_ACT_NONE);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_CONCATENATION, 1), in, 2, &y, 1, &cat);
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, &y, 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_split_views(int axis)
{
    size_t size;
    uint8_t *data = build_split_model(axis, &size);
    te_diag d;
    te_model *m;
    te_buf h, c;
    memset(&d, 0, sizeof d);
    memset(&h, 0, sizeof h);
    memset(&c, 0, sizeof c);
    m = data ? te_model_load(data, size, NULL, &d) : NULL;
    CHECK(m != NULL);
    if (m) {
        const te_graph *g = m->g;
        const te_tensor *x = &g->tensors[g->ops[0].in[1]];
        const te_tensor *a = &g->tensors[g->ops[0].out[0]];
        const te_tensor *b = &g->tensors[g->ops[0].out[1]];
        const te_tensor *ra = &g->tensors[g->ops[1].out[0]];
        if (axis == 1) {
            const te_storage *st = m->st;
            const te_tensor_place *pl = m->plan->place;
            CHECK(a->alias_of == x->id && a->alias_offset == 0 && !te_storage_inplace(st, a->id));
            CHECK(b->alias_of == x->id && b->alias_offset == 64 && !te_storage_inplace(st, b->id));
            CHECK(pl[a->id].arena_offset == pl[x->id].arena_offset);
            CHECK(pl[b->id].arena_offset == pl[x->id].arena_offset + 64);
            /* b still needs x's bytes */
            CHECK(!(te_storage_inplace(st, ra->id) && te_storage_alias_of(st, ra->id) == a->id));
        } else {
            CHECK(a->alias_of < 0 && b->alias_of < 0);
        }
        CHECK(m->plan->arena_bytes <= m->plan->lower_bound);
        CHECK(te_model_generate(m, "v", "", &h, &c, &d) == 0);
        CHECK(c.s && (strstr(c.s, "te_copy_gather_s8(") != NULL) == (axis == 3));
    } else {
        printf("split views (axis %d): %s\n", axis, d.msg);
    }
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    free(data);
}

int main(void)
{
    test_split_views(1);
    test_split_views(3);
    return test_summary();
}
