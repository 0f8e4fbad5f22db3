/* test_schedule.c - the candidate execution orders (src/plan/schedule.c,
 * schedule_beam.c) on a small hand-built detector-like graph: a feature
 * map read by the backbone and by a head, the head written after the
 * backbone in the model, which keeps the map alive across the backbone's
 * expansion; the one-step greedy order does better, a beam candidate best
 * (the head first), and plans to a smaller arena.  Every candidate is a
 * valid order of the same operators, each keeping its model index; a graph
 * that keeps its order gets no other; the order after a patch stage
 * changes only after it. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "plan/plan.h"
#include "plan/schedule.h"
#include "testlib.h"

enum { N_OPS = 6, N_TENSORS = 7 };

/* Tensor bytes: 0 input, 1 feature map, 2..4 backbone, 5 head's wide
 * intermediate, 6 head output (a graph output with 4, the backbone's). */
static const int bytes[N_TENSORS] = {64, 1000, 300, 800, 300, 500, 16};
/* op: input tensor -> output tensor, in the model's order: the backbone
 * (0..3), then the head (4, 5) reading the feature map. */
static const int op_in[N_OPS] = {0, 1, 2, 3, 1, 5};
static const int op_out[N_OPS] = {1, 2, 3, 4, 5, 6};

static te_graph *detector_graph(void)
{
    te_graph *g = calloc(1, sizeof *g);
    int i;
    g->n_tensors = N_TENSORS;
    g->tensors = calloc(N_TENSORS, sizeof *g->tensors);
    g->n_ops = N_OPS;
    g->ops = calloc(N_OPS, sizeof *g->ops);
    for (i = 0; i < N_TENSORS; i++) {
        te_tensor *t = &g->tensors[i];
        t->id = i;
        t->name = calloc(1, 1);
        t->type = TE_DT_INT8;
        t->rank = 1;
        t->shape[0] = bytes[i];
        t->alias_of = -1;
        t->producer = -1;
    }
    for (i = 0; i < N_OPS; i++) {
        te_op *op = &g->ops[i];
        op->index = i;
        op->opcode = TE_OP_ADD;
        op->n_in = op->n_out = 1;
        op->in = calloc(1, sizeof(int));
        op->out = calloc(1, sizeof(int));
        op->in[0] = op_in[i];
        op->out[0] = op_out[i];
        g->tensors[op_out[i]].producer = i;
    }
    g->n_inputs = 1;
    g->inputs = calloc(1, sizeof(int));
    g->n_outputs = 2;
    g->outputs = calloc(2, sizeof(int));
    g->outputs[0] = 4;
    g->outputs[1] = 6;
    return g;
}

/* 1 if every op comes after the producer of its input and the ops are the
 * model's, each once. */
static int valid_order(const te_graph *g)
{
    int seen[N_OPS] = {0}, i;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        int p = g->tensors[op->in[0]].producer;
        if (op->index < 0 || op->index >= N_OPS || seen[op->index]++ || p >= i)
            return 0;
        if (g->tensors[op->out[0]].producer != i || op->out[0] != op_out[op->index])
            return 0;
    }
    return 1;
}

static size_t arena_of(te_graph *g)
{
    te_diag d = {{0}, 0};
    te_plan *p = te_plan_build(g, NULL, &d);
    size_t a = p ? p->arena_bytes : 0;
    te_plan_free(p);
    return a;
}

static void test_head_first(void)
{
    te_graph *g = detector_graph();
    te_schedule_orders c;
    size_t model_peak, best_peak = (size_t)-1, model_arena = arena_of(g), best_arena;
    int k, best = 0;
    CHECK(te_schedule_candidates(g, 0, &c) == 0);
    CHECK(c.n == N_OPS && c.n_orders >= 2);
    for (k = 0; k < N_OPS; k++)
        CHECK(c.index[0][k] == k); /* the graph's own order first */
    model_peak = te_schedule_peak(g, 0, c.index[0], c.n);
    CHECK(model_peak == 1000 + 300 + 800); /* the map alive across the expansion */
    for (k = 1; k < c.n_orders; k++) {
        size_t peak = te_schedule_peak(g, 0, c.index[k], c.n);
        if (peak < best_peak) {
            best_peak = peak;
            best = k;
        }
    }
    /* the head first: map + its wide intermediate + output, then the map dies */
    CHECK(best_peak == 1000 + 500 + 16);
    CHECK(c.index[best][1] == 4 && c.index[best][2] == 5);
    CHECK(te_schedule_apply(g, c.index[best], c.n) == 0);
    CHECK(valid_order(g));
    best_arena = arena_of(g);
    CHECK(best_arena > 0 && best_arena < model_arena);
    /* and back: the same plan as before */
    CHECK(te_schedule_apply(g, c.index[0], c.n) == 0);
    CHECK(valid_order(g) && arena_of(g) == model_arena);
    te_schedule_orders_free(&c);
    te_graph_free(g);
}

/* The one-step greedy order (te_schedule_for_memory) runs the backbone's
 * next op first (it adds fewer bytes than the head's wide intermediate),
 * then the head, which frees the map: 1800 bytes at once, above the 1516
 * of the head first. */
static void test_greedy_misses(void)
{
    te_graph *g = detector_graph();
    te_schedule_orders c;
    te_schedule_for_memory(g);
    CHECK(valid_order(g) && g->ops[1].index == 1 && g->ops[2].index == 4);
    CHECK(te_schedule_candidates(g, 0, &c) == 0);
    CHECK(te_schedule_peak(g, 0, c.index[0], c.n) == 1000 + 300 + 500);
    te_schedule_orders_free(&c);
    te_graph_free(g);
}

/* Deterministic: the same candidates twice. */
static void test_deterministic(void)
{
    te_graph *g = detector_graph();
    te_schedule_orders a, b;
    int k;
    CHECK(te_schedule_candidates(g, 0, &a) == 0 && te_schedule_candidates(g, 0, &b) == 0);
    CHECK(a.n_orders == b.n_orders);
    for (k = 0; k < a.n_orders && k < b.n_orders; k++)
        CHECK(memcmp(a.index[k], b.index[k], sizeof(int) * (size_t)a.n) == 0);
    te_schedule_orders_free(&a);
    te_schedule_orders_free(&b);
    te_graph_free(g);
}

static void test_keep_order(void)
{
    te_graph *g = detector_graph();
    te_schedule_orders c;
    g->keep_order = 1;
    CHECK(te_schedule_candidates(g, 0, &c) == 0 && c.n_orders == 1);
    te_schedule_orders_free(&c);
    te_graph_free(g);
}

/* After a two-op stage (ops 0 and 1) only the rest is ordered; the first
 * two stay where they are. */
static void test_tail(void)
{
    te_graph *g = detector_graph();
    te_schedule_orders c;
    int k, moved = 0;
    CHECK(te_schedule_candidates(g, 2, &c) == 0);
    CHECK(c.n == N_OPS - 2 && c.n_orders >= 2);
    for (k = 1; k < c.n_orders; k++) {
        int rc = te_schedule_apply_tail(g, 2, c.index[k], c.n);
        CHECK(rc == 0 || rc == 1);
        moved |= rc == 1;
        CHECK(valid_order(g) && g->ops[0].index == 0 && g->ops[1].index == 1);
        CHECK(te_schedule_peak(g, 2, c.index[k], c.n) != (size_t)-1);
    }
    CHECK(moved);
    CHECK(te_schedule_apply_tail(g, 2, c.index[0], c.n) == 1); /* back */
    for (k = 0; k < N_OPS; k++)
        CHECK(g->ops[k].index == k);
    te_schedule_orders_free(&c);
    te_graph_free(g);
}

/* Model indices that are no order (an inlined subgraph's ops are numbered
 * after the model's): the head's ops numbered first.  Sorting by index
 * would run the head before the map; no candidate does. */
static void test_indices_not_an_order(void)
{
    te_graph *g = detector_graph();
    te_schedule_orders c;
    int k, i;
    g->ops[4].index = 0, g->ops[5].index = 1;
    for (i = 0; i < 4; i++)
        g->ops[i].index = i + 2;
    CHECK(te_schedule_candidates(g, 0, &c) == 0 && c.n_orders >= 1);
    for (k = 0; k < c.n_orders; k++) {
        CHECK(te_schedule_apply(g, c.index[k], c.n) == 0);
        for (i = 0; i < N_OPS; i++)
            CHECK(g->tensors[g->ops[i].in[0]].producer < i);
    }
    te_schedule_orders_free(&c);
    te_graph_free(g);
}

int main(void)
{
    test_head_first();
    test_greedy_misses();
    test_deterministic();
    test_keep_order();
    test_tail();
    test_indices_not_an_order();
    return test_summary();
}
