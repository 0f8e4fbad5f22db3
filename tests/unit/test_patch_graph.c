/* test_patch_graph.c - a patch stage is a graph derived from the model's
 * (te_patch_graph): the model's graph after the passes is never modified,
 * not by the estimate of a stage nor by the stage chosen; the derived graph
 * owns its tensors and patch and borrows the rest; the stage's input may
 * lie inside its output's place.  The search's memo of analyses and
 * estimates answers as the analysis and the estimate themselves; a cell's
 * regions composed from its grid row and column (te_patch_grid) are the
 * ones te_patch_regions computes for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "plan/patch_memo.h"
#include "plan/patch_walk.h"
#include "testlib.h"
#include "tflite_builder.h"

static const float s_x = 0.05f, s_w = 0.02f, s_b = 0.001f, s_y = 0.1f;
static const int64_t zp_x = -3, zp_0 = 0, zp_y = 4;

/* x [1,16,16,4] -> CONV 3x3 SAME (relu) -> a -> CONV 3x3 SAME -> b ->
 * CONV 3x3 stride 2 VALID -> y [1,7,7,4]: a stage of two operators. */
static uint8_t *build_model(size_t *size)
{
    tflb_model m;
    tflb_quant qx = tflb_quant1(&s_x, &zp_x), qw = tflb_quant1(&s_w, &zp_0),
               qb = tflb_quant1(&s_b, &zp_0), qy = tflb_quant1(&s_y, &zp_y);
    int32_t s_in[4] = {1, 16, 16, 4}, s_wt[4] = {4, 3, 3, 4}, s_bias[1] = {4};
    int32_t s_out[4] = {1, 7, 7, 4}, bias[4] = {10, -20, 30, 0};
    int8_t wdata[144];
    int32_t ins[3], outs[1], t_prev;
    uint8_t *data = NULL;
    int i, k;
    tflb_init(&m);
    for (i = 0; i < 144; i++)
        wdata[i] = (int8_t)(i * 7 % 19 - 9);
    t_prev = tflb_add_tensor(&m, "x", TFLB_INT8, s_in, 4, 0, &qx);
    tflb_set_inputs(&m, &t_prev, 1);
    for (k = 0; k < 3; k++) {
        char wn[16], bn[16], on[8];
        tflb_options o = tflb_opt_conv2d(k < 2 ? TFLB_PAD_SAME : TFLB_PAD_VALID, k < 2 ? 1 : 2,
                                         k < 2 ? 1 : 2, k == 0 ? TFLB_ACT_RELU : TFLB_ACT_NONE);
        snprintf(wn, sizeof wn, "w%d", k);
        snprintf(bn, sizeof bn, "b%d", k);
        snprintf(on, sizeof on, "%c", k == 2 ? 'y' : 'a' + k);
        ins[0] = t_prev;
        ins[1] = tflb_add_const(&m, wn, TFLB_INT8, s_wt, 4, wdata, sizeof wdata, &qw);
        ins[2] = tflb_add_const(&m, bn, TFLB_INT32, s_bias, 1, bias, sizeof bias, &qb);
        outs[0] = tflb_add_tensor(&m, on, TFLB_INT8, k == 2 ? s_out : s_in, 4, 0, &qy);
        tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_CONV_2D, 3), ins, 3, outs, 1, &o);
        t_prev = outs[0];
    }
    tflb_set_outputs(&m, outs, 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

/* 1 if the tensors of a and b are the same records (names, quantization
 * and constant data compared by value). */
static int same_tensors(const te_graph *a, const te_graph *b)
{
    int t;
    if (a->n_tensors != b->n_tensors)
        return 0;
    for (t = 0; t < a->n_tensors; t++) {
        const te_tensor *x = &a->tensors[t], *y = &b->tensors[t];
        if (strcmp(x->name, y->name) || x->type != y->type || x->rank != y->rank ||
            memcmp(x->shape, y->shape, sizeof x->shape) || x->alias_of != y->alias_of ||
            x->alias_offset != y->alias_offset || x->patch_role != y->patch_role ||
            x->slot_offset != y->slot_offset || x->producer != y->producer ||
            x->data_bytes != y->data_bytes || !x->data != !y->data ||
            (x->data && memcmp(x->data, y->data, x->data_bytes)))
            return 0;
    }
    return 1;
}

static te_model *load(const uint8_t *data, size_t size, const char *patch)
{
    te_compile_opts o = TE_COMPILE_OPTS_DEFAULT;
    te_diag d;
    te_model *m;
    memset(&d, 0, sizeof d);
    CHECK(te_patch_opts_parse(patch, &o.patch) == 0);
    m = te_model_load(data, size, &o, &d);
    if (!m)
        printf("--patch %s: %s\n", patch, d.msg);
    return m;
}

static void test_derived_graph(void)
{
    size_t size;
    uint8_t *data = build_model(&size);
    te_model *plain = data ? load(data, size, "off") : NULL;
    te_model *m = data ? load(data, size, "2:2x2") : NULL;
    te_buf h = {0}, c = {0};
    te_diag d;
    int t, roles = 0;
    memset(&d, 0, sizeof d);
    CHECK(plain && m);
    if (!plain || !m)
        goto out;
    CHECK(plain->g == plain->source && !plain->g->patch && !plain->g->base);
    /* the model's graph is the one without patches; the derived one adds to it */
    CHECK(m->g != m->source && m->g->base == m->source && !m->source->patch);
    CHECK(same_tensors(m->source, plain->g));
    CHECK(m->g->patch && m->g->patch->n_ops == 2 && m->g->patch->n_clones == 8);
    CHECK(m->g->ops == m->source->ops && m->g->model_data == m->source->model_data);
    CHECK(m->g->n_tensors > m->source->n_tensors);
    for (t = 0; t < m->g->n_tensors; t++)
        roles += m->g->tensors[t].patch_role == 1;
    CHECK(roles == 1); /* a: never stored whole */
    for (t = m->source->n_tensors; t < m->g->n_tensors; t++)
        CHECK(m->g->tensors[t].patch_role == 2);
    CHECK(m->plan->stage == m->g->patch);
    CHECK(te_model_generate(m, "pg", "test", &h, &c, &d) == 0);
    CHECK(c.s && strstr(c.s, "patch"));
    /* estimating a stage builds and frees a derived graph: nothing changes */
    {
        const te_graph *g = plain->g;
        te_patch_plan *p = te_patch_analyse(g, 2, 2, 2, NULL);
        CHECK(p != NULL);
        if (p) {
            CHECK(te_patch_estimate(g, plain->low, p) == 0);
            CHECK(p->patched_instructions > p->stage_instructions && !p->clones && !p->n_steps);
            CHECK(same_tensors(g, m->source) && !g->patch);
        }
        te_patch_plan_free(p);
    }
out:
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    te_model_free(plain);
    free(data);
}

/* The stage's input lies inside its output's place (patch_overlay.c): the
 * planner ties the two, every crop copy of the input reads bytes no
 * earlier patch wrote, and a place that breaks that is caught. */
static void test_overlay(void)
{
    size_t size;
    uint8_t *data = build_model(&size);
    te_model *m = data ? load(data, size, "2:2x2") : NULL;
    const te_patch_plan *pp;
    te_plan *p;
    int x, s;
    size_t apart;
    CHECK(m != NULL);
    if (!m)
        goto out;
    pp = m->g->patch;
    p = m->plan;
    x = m->g->inputs[0];
    s = pp->out_tensor;
    CHECK(pp->overlay_in == x && pp->overlay_offset % TE_ARENA_ALIGN == 0);
    CHECK(pp->overlay_offset > 0 && pp->overlay_offset < te_tensor_bytes(&m->g->tensors[s]));
    CHECK(p->has_tie);
    CHECK(p->place[x].arena_offset == p->place[s].arena_offset + pp->overlay_offset);
    apart = te_tensor_bytes(&m->g->tensors[x]) + te_tensor_bytes(&m->g->tensors[s]) +
            pp->scratch_bytes;
    CHECK(p->arena_bytes < apart);
    CHECK(te_patch_overlay_check(m->g, p) == 0);
    p->place[x].arena_offset = p->place[s].arena_offset; /* the input where S begins */
    CHECK(te_patch_overlay_check(m->g, p) < 0);
out:
    te_model_free(m);
    free(data);
}

/* te_patch_memo_analyse / _estimate, asked twice (the second from the
 * memo), equal te_patch_analyse_cache / te_patch_estimate, failures too. */
static void test_memo(void)
{
    static const int grids[][3] = {{2, 2, 0}, {3, 3, 0}, {1, 2, 0}, {2, 2, 1}, {20, 20, 0}};
    size_t size;
    uint8_t *data = build_model(&size);
    te_model *plain = data ? load(data, size, "off") : NULL;
    te_patch_memo *memo = te_patch_memo_new();
    int i, again;
    CHECK(plain && memo);
    for (i = 0; plain && memo && i < (int)(sizeof grids / sizeof grids[0]); i++) {
        const te_graph *g = plain->g;
        te_patch_plan *want = te_patch_analyse_cache(g, 0, 2, grids[i][0], grids[i][1],
                                                     grids[i][2], NULL), analysed;
        memset(&analysed, 0, sizeof analysed);
        if (want) /* (the estimate below sets its results) */
            memcpy(&analysed, want, sizeof analysed);
        for (again = 0; again < 2; again++) {
            te_patch_plan *got = te_patch_memo_analyse(memo, g, 0, 2, grids[i][0], grids[i][1],
                                                       grids[i][2]);
            CHECK(!want == !got);
            if (want && got) {
                CHECK(!memcmp(&analysed, got, sizeof analysed));
                if (!again)
                    CHECK(te_patch_estimate(g, plain->low, want) == 0);
                CHECK(te_patch_memo_estimate(memo, g, plain->low, got) == 0);
                CHECK(got->code_bytes == want->code_bytes && got->stack_bytes == want->stack_bytes &&
                      got->patched_instructions == want->patched_instructions &&
                      got->stage_instructions == want->stage_instructions &&
                      got->model_instructions == want->model_instructions);
            }
            te_patch_plan_free(got);
        }
        te_patch_plan_free(want);
    }
    CHECK(i == 5); /* 20x20 is finer than the 16x16 output: no plan, twice */
    te_patch_memo_free(memo);
    te_model_free(plain);
    free(data);
}

/* 1 if walks a and b hold the same regions and non-constant inputs' needs. */
static int same_cell(const te_patch_walk *a, const te_patch_walk *b, const te_graph *g)
{
    int i, k;
    for (i = 0; i < a->n_ops; i++) {
        const te_op *op = &g->ops[a->ops[i]];
        const te_patch_need *na = a->need[i], *nb = b->need[i];
        if (memcmp(&a->region[op->out[0]], &b->region[op->out[0]], sizeof(te_region)) ||
            memcmp(&a->comp[op->out[0]], &b->comp[op->out[0]], sizeof(te_region)))
            return 0;
        for (k = 0; k < op->n_in && k < TE_PATCH_MAX_IN; k++)
            if (op->in[k] >= 0 && !g->tensors[op->in[k]].data &&
                (memcmp(&na[k].r, &nb[k].r, sizeof na[k].r) || memcmp(na[k].pad, nb[k].pad,
                                                                      sizeof na[k].pad) ||
                 na[k].ay != nb[k].ay || na[k].ax != nb[k].ax || na[k].whole != nb[k].whole))
                return 0;
    }
    return 1;
}

/* te_patch_grid_cell gives every cell the regions te_patch_regions does;
 * a grid finer than the stage allows fails as a cell does. */
static void test_grid(void)
{
    static const int grids[][2] = {{2, 2}, {3, 3}, {1, 2}, {4, 3}, {5, 7}, {7, 7}};
    size_t size;
    uint8_t *data = build_model(&size);
    te_model *plain = data ? load(data, size, "off") : NULL;
    int i, gy, gx;
    CHECK(plain != NULL);
    for (i = 0; plain && i < (int)(sizeof grids / sizeof grids[0]); i++) {
        const te_graph *g = plain->g;
        te_patch_walk *a = te_patch_walk_new(g, 2, grids[i][0], grids[i][1]);
        te_patch_walk *b = te_patch_walk_new(g, 2, grids[i][0], grids[i][1]);
        te_patch_grid *gr = NULL;
        int same = 1;
        CHECK(a && b);
        if (a && b) {
            CHECK(te_patch_grid_new(a, g, &gr) == 0 && gr);
            for (gy = 0; gr && gy < grids[i][0]; gy++)
                for (gx = 0; gx < grids[i][1]; gx++) {
                    te_patch_grid_cell(gr, a, g, gy, gx);
                    same &= te_patch_regions(b, g, gy, gx) == 0 && same_cell(a, b, g);
                }
            CHECK(same);
        }
        te_patch_grid_free(gr);
        te_patch_walk_free(a);
        te_patch_walk_free(b);
    }
    te_model_free(plain);
    free(data);
}

/* --patch settings parse to the explicit form and print back the same;
 * malformed ones are refused. */
static void test_opts_text(void)
{
    static const char *good[] = {"4:3x3", "4:3x3:cache", "4:3x3+6:2x2", "4:3x3:cache+6:2x2:cache",
                                 "6@11:2x2", "6@11:2x14:cache"};
    static const char *bad[] = {"6@0:2x2", "6@11:1x1", "6@11:2x2+1:2x2", "x@3:2x2", "6@3",
                                "6@-1:2x2", "@3:2x2", "6@11:2x2:cach", "4:3x3+"};
    int i;
    for (i = 0; i < (int)(sizeof good / sizeof good[0]); i++) {
        te_patch_opts p;
        char back[64] = "";
        memset(&p, 0, sizeof p);
        CHECK(te_patch_opts_parse(good[i], &p) == 0 && p.mode == TE_PATCH_EXPLICIT);
        te_patch_opts_format(&p, back, sizeof back);
        CHECK(!strcmp(back, good[i]));
    }
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        te_patch_opts p;
        memset(&p, 0, sizeof p);
        CHECK(te_patch_opts_parse(bad[i], &p) < 0);
    }
}

int main(void)
{
    test_opts_text();
    test_derived_graph();
    test_overlay();
    test_memo();
    test_grid();
    return test_summary();
}
