/* test_plan.c - memory planner invariants on random graphs: buffers that
 * are alive at the same step never overlap, every tensor lies inside the
 * arena, aliases point into their root's storage, the arena is never below
 * the lifetime lower bound, and a simple chain reaches that bound; variable
 * tensors (LSTM/SVDF state) live outside the arena, in the state region.
 * The plan follows the candidate's storage decisions (te_storage: views,
 * in-place links) and leaves the graph as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/storage.h"
#include "plan/plan.h"
#include "testlib.h"

/* A random DAG: tensor 0 is the input; op i reads one or two earlier
 * tensors and writes tensor i+1; the last tensor is the output. */
static te_graph *random_graph(int n_ops, int with_alias)
{
    te_graph *g = calloc(1, sizeof *g);
    int i;
    g->n_tensors = n_ops + 1;
    g->tensors = calloc((size_t)g->n_tensors, sizeof *g->tensors);
    g->n_ops = n_ops;
    g->ops = calloc((size_t)n_ops, sizeof *g->ops);
    for (i = 0; i < g->n_tensors; i++) {
        te_tensor *t = &g->tensors[i];
        t->id = i;
        t->name = calloc(1, 1);
        t->type = TE_DT_INT8;
        t->rank = 1;
        t->shape[0] = test_rand_range(1, 4000);
        t->alias_of = -1;
        t->producer = i - 1;
    }
    for (i = 0; i < n_ops; i++) {
        te_op *op = &g->ops[i];
        op->index = i;
        op->opcode = TE_OP_ADD;
        op->n_in = (i > 0 && test_rand() % 2) ? 2 : 1;
        op->in = calloc(2, sizeof(int));
        op->out = calloc(1, sizeof(int));
        op->in[0] = i - (int)(test_rand() % (unsigned)(i < 3 ? i + 1 : 3));
        if (op->n_in == 2)
            op->in[1] = test_rand_range(0, i);
        op->n_out = 1;
        op->out[0] = i + 1;
        if (with_alias && i > 0 && test_rand() % 5 == 0 && op->in[0] > 0) {
            g->tensors[i + 1].shape[0] = g->tensors[op->in[0]].shape[0];
            g->tensors[i + 1].alias_of = op->in[0];
        }
    }
    g->n_inputs = g->n_outputs = 1;
    g->inputs = calloc(1, sizeof(int));
    g->outputs = calloc(1, sizeof(int));
    g->outputs[0] = n_ops;
    return g;
}

static void check_plan(te_graph *g, te_plan *p)
{
    int i, j;
    CHECK(p->arena_bytes >= p->lower_bound);
    for (i = 0; i < p->n_buffers; i++) {
        const te_buffer *a = &p->buffers[i];
        if (a->last < a->first)
            continue;
        CHECK(a->offset % TE_ARENA_ALIGN == 0);
        CHECK(a->offset + a->bytes <= p->arena_bytes);
        for (j = i + 1; j < p->n_buffers; j++) {
            const te_buffer *b = &p->buffers[j];
            int live_together = a->first <= b->last && b->first <= a->last && b->last >= b->first;
            int overlap = a->offset < b->offset + te_buffer_bytes_beside(b, a) &&
                          b->offset < a->offset + te_buffer_bytes_beside(a, b);
            int tied = p->has_tie && ((i == p->tie_anchor && j == p->tie_member) ||
                                      (j == p->tie_anchor && i == p->tie_member));
            CHECK(!(live_together && overlap) || tied);
        }
    }
    if (p->has_tie) /* the input the patch stage reads, inside its output's place */
        CHECK(p->buffers[p->tie_member].offset ==
              p->buffers[p->tie_anchor].offset + p->tie_offset);
    for (i = 0; i < g->n_tensors; i++) {
        const te_tensor *t = &g->tensors[i];
        const te_tensor_store *s = &p->st->t[i];
        if (!p->place[i].in_arena)
            continue;
        CHECK(p->place[i].arena_offset + te_tensor_bytes(t) <= p->arena_bytes);
        if (s->alias_of >= 0)
            CHECK(p->place[i].arena_offset == p->place[s->alias_of].arena_offset + s->alias_offset);
    }
    /* every tensor some op reads or writes has storage */
    for (i = 0; i < g->n_ops; i++)
        for (j = 0; j < g->ops[i].n_in; j++)
            CHECK(p->place[g->ops[i].in[j]].in_arena);
}

static void test_random(void)
{
    int trial;
    for (trial = 0; trial < 300; trial++) {
        te_diag d = {{0}, 0};
        te_graph *g = random_graph(test_rand_range(1, 60), trial % 2);
        te_plan *p = te_plan_build(g, NULL, &d);
        CHECK(p != NULL);
        if (p)
            check_plan(g, p);
        te_plan_free(p);
        te_graph_free(g);
    }
}

/* The last op reading tensor t (-1: none). */
static int last_reader(const te_graph *g, int t)
{
    int i, j, last = -1;
    for (i = 0; i < g->n_ops; i++)
        for (j = 0; j < g->ops[i].n_in; j++)
            if (g->ops[i].in[j] == t)
                last = i;
    return last;
}

/* Random graphs planned with storage decisions of their own: op i writes
 * in place over its input 0 when that input dies there.  The plan follows
 * the links (one buffer, one offset) and the graph is left untouched. */
static void test_random_storage(void)
{
    int trial;
    for (trial = 0; trial < 200; trial++) {
        te_diag d = {{0}, 0};
        te_graph *g = random_graph(test_rand_range(1, 60), trial % 2);
        te_storage *st = te_storage_new(g);
        te_tensor *before = malloc(sizeof *before * (size_t)g->n_tensors);
        te_lowered low;
        te_plan *p;
        int i, links = 0;
        memset(&low, 0, sizeof low);
        memcpy(before, g->tensors, sizeof *before * (size_t)g->n_tensors);
        for (i = 0; st && i < g->n_ops; i++) {
            int in = g->ops[i].in[0], out = g->ops[i].out[0];
            if (in > 0 && out != g->outputs[0] && te_storage_alias_of(st, out) < 0 &&
                te_storage_root(st, in, NULL) != 0 && last_reader(g, in) == i &&
                test_rand() % 2 &&
                te_tensor_bytes(&g->tensors[out]) <= te_tensor_bytes(&g->tensors[in])) {
                int k, root = te_storage_root(st, in, NULL), shared = 0;
                for (k = 0; k < g->n_tensors; k++) /* nothing else in in's storage */
                    shared |= k != in && te_storage_root(st, k, NULL) == root;
                if (shared)
                    continue;
                te_storage_link(st, out, TE_STORE_INPLACE, in, 0);
                links++;
            }
        }
        low.opts.st = st;
        p = st ? te_plan_build(g, &low, &d) : NULL;
        CHECK(p != NULL);
        if (p) {
            CHECK(p->st == st);
            check_plan(g, p);
            for (i = 0; i < g->n_tensors; i++)
                if (te_storage_inplace(st, i))
                    CHECK(p->place[i].arena_offset == p->place[st->t[i].alias_of].arena_offset);
            CHECK(links == 0 || te_storage_any(st, TE_STORE_INPLACE));
        }
        CHECK(memcmp(before, g->tensors, sizeof *before * (size_t)g->n_tensors) == 0);
        te_plan_free(p);
        te_storage_free(st);
        free(before);
        te_graph_free(g);
    }
}

/* A chain a -> b -> c -> ...: two tensors alive per step; the planner must
 * reach the bound exactly. */
static void test_chain_reaches_bound(void)
{
    te_diag d = {{0}, 0};
    te_graph *g = random_graph(20, 0);
    te_plan *p;
    int i;
    for (i = 0; i < g->n_ops; i++) {
        g->ops[i].n_in = 1;
        g->ops[i].in[0] = i;
    }
    p = te_plan_build(g, NULL, &d);
    CHECK(p && p->arena_bytes == p->lower_bound);
    te_plan_free(p);
    te_graph_free(g);
}

/* A chain whose ops 3 and 9 also read variable tensors: the arena is that
 * of the chain alone, the variables lie one after the other in the state
 * region, and nothing in the arena is placed for them. */
static void test_variable_state(void)
{
    te_diag d = {{0}, 0};
    te_graph *g = random_graph(12, 0);
    te_plan *p;
    size_t chain_arena;
    int i, v0 = g->n_tensors, v1 = v0 + 1;
    for (i = 0; i < g->n_ops; i++) {
        g->ops[i].n_in = 1;
        g->ops[i].in[0] = i;
    }
    p = te_plan_build(g, NULL, &d);
    chain_arena = p ? p->arena_bytes : 0;
    te_plan_free(p);
    g->tensors = realloc(g->tensors, sizeof *g->tensors * (size_t)(g->n_tensors + 2));
    g->n_tensors += 2;
    for (i = v0; i <= v1; i++) {
        te_tensor *t = &g->tensors[i];
        memset(t, 0, sizeof *t);
        t->id = i;
        t->name = calloc(1, 1);
        t->type = TE_DT_INT16;
        t->rank = 1;
        t->shape[0] = i == v0 ? 20 : 7;
        t->alias_of = -1;
        t->producer = -1;
        t->is_variable = 1;
    }
    g->ops[3].n_in = g->ops[9].n_in = 2;
    g->ops[3].in[1] = v0;
    g->ops[9].in[1] = v1;
    p = te_plan_build(g, NULL, &d);
    CHECK(p != NULL);
    if (p) {
        CHECK(p->arena_bytes == chain_arena);
        CHECK(p->state_bytes == 48 + 16);
        CHECK(p->tensor_buffer[v0] < 0 && p->tensor_buffer[v1] < 0);
        CHECK(p->place[v0].in_state && !p->place[v0].in_arena);
        CHECK(p->place[v0].state_offset == 0 && p->place[v1].state_offset == 48);
        CHECK(!p->place[0].in_state && p->place[0].in_arena);
    }
    te_plan_free(p);
    te_graph_free(g);
}

/* Memory regions (--memory-region): every live buffer lies inside its
 * region, no two buffers alive at the same step overlap within a region,
 * every region but the last within its limit, each tensor in its buffer's
 * region; a last region too small fails naming it and the size it needs,
 * which then fits. */
static void check_regions(te_graph *g, te_plan *p, const te_regions *rs)
{
    int i, r;
    size_t end = 0;
    CHECK(p->n_regions == rs->n);
    for (r = 0; r < p->n_regions; r++) {
        CHECK(p->regions[r].base == end);
        CHECK(p->regions[r].bytes % TE_ARENA_ALIGN == 0);
        if (r + 1 < p->n_regions)
            CHECK(p->regions[r].bytes <= p->regions[r].spec.limit);
        end += p->regions[r].bytes;
    }
    CHECK(p->arena_bytes == end);
    check_plan(g, p); /* no overlap of buffers alive together, all within the total */
    for (i = 0; i < p->n_buffers; i++) {
        const te_buffer *b = &p->buffers[i];
        const te_plan_region *pr;
        if (b->last < b->first)
            continue;
        CHECK(b->region >= 0 && b->region < p->n_regions);
        pr = &p->regions[b->region];
        CHECK(b->offset >= pr->base && b->offset + b->bytes <= pr->base + pr->bytes);
    }
    for (i = 0; i < g->n_tensors; i++) {
        const te_tensor_place *pl = &p->place[i];
        const te_plan_region *pr = &p->regions[pl->region];
        if (!pl->in_arena)
            continue;
        CHECK(pl->arena_offset >= pr->base &&
              pl->arena_offset + te_tensor_bytes(&g->tensors[i]) <= pr->base + pr->bytes);
    }
}

static void test_regions(void)
{
    int trial;
    for (trial = 0; trial < 200; trial++) {
        te_diag d = {{0}, 0};
        te_graph *g = random_graph(test_rand_range(1, 60), trial % 2);
        te_plan *p = te_plan_build(g, NULL, &d), *again;
        te_regions rs;
        char err[200], spec[64];
        int r, n = test_rand_range(1, 3);
        memset(&rs, 0, sizeof rs);
        for (r = 0; r < n; r++) {
            snprintf(spec, sizeof spec, "R%d=%d", r, r + 1 < n ? test_rand_range(16, 12000)
                                                                 : 64 * 1024 * 1024);
            CHECK(te_regions_add(&rs, spec, err, sizeof err) == 0);
        }
        CHECK(p != NULL && te_plan_regions(p, g, &rs, &d) == 0);
        if (p)
            check_regions(g, p, &rs);
        /* the last region 1 byte short of what it needs: one line, then it fits */
        if (p && p->regions[n - 1].bytes > 16) {
            size_t need = p->regions[n - 1].bytes;
            te_plan_free(p);
            p = te_plan_build(g, NULL, &d);
            rs.r[n - 1].limit = need - 1;
            d.failed = 0;
            CHECK(p && te_plan_regions(p, g, &rs, &d) < 0 && strstr(d.msg, "R") &&
                  strstr(d.msg, "would fit"));
            again = te_plan_build(g, NULL, &d);
            rs.r[n - 1].limit = need;
            CHECK(again && te_plan_regions(again, g, &rs, &d) == 0);
            te_plan_free(again);
        }
        te_plan_free(p);
        te_graph_free(g);
    }
}

/* NAME=BYTES: suffixes, and the refusals (syntax, not an identifier, a
 * name twice ignoring case, a name the generated code uses). */
static void test_region_specs(void)
{
    te_regions rs;
    char err[200];
    memset(&rs, 0, sizeof rs);
    CHECK(te_regions_add(&rs, "DTCM=128K", err, sizeof err) == 0 && rs.r[0].limit == 131072);
    CHECK(te_regions_add(&rs, "sram_2=1M", err, sizeof err) == 0 && rs.r[1].limit == 1048576);
    CHECK(te_regions_add(&rs, "dtcm=4K", err, sizeof err) < 0 && strstr(err, "twice"));
    CHECK(te_regions_add(&rs, "DTCM", err, sizeof err) < 0 && strstr(err, "NAME=BYTES"));
    CHECK(te_regions_add(&rs, "X=12Q", err, sizeof err) < 0 && strstr(err, "NAME=BYTES"));
    CHECK(te_regions_add(&rs, "X=0", err, sizeof err) < 0);
    CHECK(te_regions_add(&rs, "=4K", err, sizeof err) < 0);
    CHECK(te_regions_add(&rs, "9X=4K", err, sizeof err) < 0 && strstr(err, "identifier"));
    CHECK(te_regions_add(&rs, "a-b=4K", err, sizeof err) < 0 && strstr(err, "identifier"));
    CHECK(te_regions_add(&rs, "arena=4K", err, sizeof err) < 0 && strstr(err, "taken"));
    CHECK(rs.n == 2);
}

int main(void)
{
    test_seed(7);
    test_random();
    test_random_storage();
    test_chain_reaches_bound();
    test_variable_state();
    test_regions();
    test_region_specs();
    return test_summary();
}
