/* schedule.c - the execution order.  In a branching graph the order
 * decides how many wide tensors are alive at once; the model's own order
 * often starts every branch before finishing any.  Two orders are compared
 * by their peak of live bytes: the model's, and a greedy one that always
 * runs the ready operator adding the fewest bytes (outputs made minus
 * inputs it is the last reader of).  The ops array is reordered in place;
 * each op keeps its model index (op->index) for dumps and messages.  A
 * graph whose ops read and write state (resource variables: keep_order)
 * keeps the model's order.  For patch-based execution a second rule moves
 * the operators that cannot run on a patch, and all that depend on them,
 * after the others (te_schedule_for_patches), so that a side branch ending
 * in, say, a RESHAPE does not cut the stage short. */
#include <stdlib.h>
#include <string.h>

#include "patch_internal.h" /* te_patch_op_supported */
#include "schedule.h"
#include "schedule_internal.h"

/* Position in `order` of each tensor's last reader (-1: none). */
static void last_readers(const te_graph *g, const int *order, int n, int *last)
{
    int s, j;
    for (s = 0; s < g->n_tensors; s++)
        last[s] = -1;
    for (s = 0; s < n; s++)
        for (j = 0; j < g->ops[order[s]].n_in; j++)
            if (g->ops[order[s]].in[j] >= 0)
                last[g->ops[order[s]].in[j]] = s;
}


size_t te_schedule_stored_bytes(const te_graph *g, int t)
{
    const te_tensor *tt = &g->tensors[t];
    return tt->data || tt->alias_of >= 0 ? 0 : te_tensor_bytes(tt);
}

/* Peak of bytes alive over `order` (each tensor from its producer to its
 * last reader; last: its last readers, which it consumes), starting with
 * `live` bytes held before the first step.  A tensor one op reads twice is
 * freed once. */
static size_t peak_from(const te_graph *g, const int *order, int n, int *last, size_t live)
{
    size_t peak = live;
    int s, j;
    for (s = 0; s < n; s++) {
        const te_op *op = &g->ops[order[s]];
        for (j = 0; j < op->n_out; j++)
            if (op->out[j] >= 0)
                live += te_schedule_stored_bytes(g, op->out[j]);
        if (live > peak)
            peak = live;
        for (j = 0; j < op->n_in; j++) {
            int t = op->in[j];
            if (t >= 0 && last[t] == s && !te_graph_is_output(g, t)) {
                live -= te_schedule_stored_bytes(g, t);
                last[t] = -1;
            }
        }
    }
    return peak;
}

/* Peak of bytes alive of the whole graph in `order`, the network inputs
 * held from the start. */
static size_t peak_of(const te_graph *g, const int *order, int n, int *last)
{
    size_t live = 0;
    int j;
    last_readers(g, order, n, last);
    for (j = 0; j < g->n_inputs; j++)
        live += te_schedule_stored_bytes(g, g->inputs[j]);
    return peak_from(g, order, n, last, live);
}

/* Greedy order; returns 0, or -1 if the graph is not a DAG in op order. */
static int greedy_order(const te_graph *g, const int *live_ops, int n, int *order, int *readers,
                        int from)
{
    char *done = calloc((size_t)g->n_ops + 1, 1), *avail = calloc((size_t)g->n_tensors + 1, 1);
    int s, i, j, rc = -1;
    if (!done || !avail)
        goto out;
    for (i = 0; i < g->n_tensors; i++)
        avail[i] = g->tensors[i].data != NULL || g->tensors[i].producer < from;
    for (s = 0; s < n; s++) {
        int best = -1;
        long long best_cost = 0;
        for (i = 0; i < n; i++) {
            const te_op *op = &g->ops[live_ops[i]];
            long long cost = 0;
            int ready = !done[live_ops[i]];
            for (j = 0; j < op->n_in && ready; j++)
                ready = op->in[j] < 0 || avail[op->in[j]];
            if (!ready)
                continue;
            for (j = 0; j < op->n_out; j++)
                cost += op->out[j] >= 0 ? (long long)te_schedule_stored_bytes(g, op->out[j]) : 0;
            for (j = 0; j < op->n_in; j++) /* frees inputs with no other reader left */
                if (op->in[j] >= 0 && readers[op->in[j]] == 1 &&
                    !te_graph_is_output(g, op->in[j]))
                    cost -= (long long)te_schedule_stored_bytes(g, op->in[j]);
            if (best < 0 || cost < best_cost) {
                best = i;
                best_cost = cost;
            }
        }
        if (best < 0)
            goto out;
        order[s] = live_ops[best];
        done[live_ops[best]] = 1;
        for (j = 0; j < g->ops[live_ops[best]].n_out; j++)
            if (g->ops[live_ops[best]].out[j] >= 0)
                avail[g->ops[live_ops[best]].out[j]] = 1;
        for (j = 0; j < g->ops[live_ops[best]].n_in; j++)
            if (g->ops[live_ops[best]].in[j] >= 0)
                readers[g->ops[live_ops[best]].in[j]]--;
    }
    rc = 0;
out:
    free(done);
    free(avail);
    return rc;
}

/* Puts the live ops in `order` first (dead ones after, in model order) and
 * renumbers producers to array positions. */
static int apply_order(te_graph *g, const int *order, int n)
{
    te_op *ops = malloc(sizeof *ops * ((size_t)g->n_ops + 1));
    int i, k = n, j;
    if (!ops)
        return -1;
    for (i = 0; i < n; i++)
        ops[i] = g->ops[order[i]];
    for (i = 0; i < g->n_ops; i++)
        if (g->ops[i].dead)
            ops[k++] = g->ops[i];
    memcpy(g->ops, ops, sizeof *ops * (size_t)g->n_ops);
    free(ops);
    for (i = 0; i < g->n_ops; i++)
        for (j = 0; j < g->ops[i].n_out; j++)
            if (g->ops[i].out[j] >= 0)
                g->tensors[g->ops[i].out[j]].producer = i;
    return 0;
}

void te_schedule_for_memory(te_graph *g)
{
    int *live = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    int *order = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    int *scratch = malloc(sizeof(int) * ((size_t)g->n_tensors + 1));
    int n = 0, i, j;
    if (live && order && scratch && !g->keep_order) {
        for (i = 0; i < g->n_ops; i++)
            if (!g->ops[i].dead)
                live[n++] = i;
        for (i = 0; i < g->n_tensors; i++)
            scratch[i] = 0;
        for (i = 0; i < n; i++)
            for (j = 0; j < g->ops[live[i]].n_in; j++)
                if (g->ops[live[i]].in[j] >= 0)
                    scratch[g->ops[live[i]].in[j]]++;
        if (greedy_order(g, live, n, order, scratch, 0) == 0) {
            size_t before = peak_of(g, live, n, scratch);
            size_t after = peak_of(g, order, n, scratch);
            if (after < before)
                apply_order(g, order, n);
        }
    }
    free(live);
    free(order);
    free(scratch);
}

/* The positions of the live ops at or after `from` into live (n of
 * them). */
static int live_positions(const te_graph *g, int from, int *live)
{
    int i, n = 0;
    for (i = from; i < g->n_ops; i++)
        if (!g->ops[i].dead)
            live[n++] = i;
    return n;
}

/* 1 if the live ops' model indices are distinct (they name the ops). */
static int indices_distinct(const te_graph *g, const int *live, int n)
{
    int i, max = -1, ok = 1;
    char *seen;
    for (i = 0; i < n; i++) {
        if (g->ops[live[i]].index < 0)
            return 0;
        if (g->ops[live[i]].index > max)
            max = g->ops[live[i]].index;
    }
    seen = calloc((size_t)max + 2, 1);
    if (!seen)
        return 0;
    for (i = 0; i < n && ok; i++) {
        ok = !seen[g->ops[live[i]].index];
        seen[g->ops[live[i]].index] = 1;
    }
    free(seen);
    return ok;
}

/* 1 if every op of `order` (n positions) comes after the producers of its
 * inputs among them (the model's indices need not be an order: operators
 * of an inlined subgraph are numbered after the model's). */
static int is_valid_order(const te_graph *g, const int *order, int n)
{
    char *done = calloc((size_t)g->n_ops + 1, 1), *listed = calloc((size_t)g->n_ops + 1, 1);
    int s, j, ok = done && listed;
    for (s = 0; ok && s < n; s++)
        listed[order[s]] = 1;
    for (s = 0; ok && s < n; s++) {
        const te_op *op = &g->ops[order[s]];
        for (j = 0; ok && j < op->n_in; j++) {
            int p = op->in[j] >= 0 ? g->tensors[op->in[j]].producer : -1;
            ok = p < 0 || !listed[p] || done[p];
        }
        done[order[s]] = 1;
    }
    free(done);
    free(listed);
    return ok;
}

/* Adds `order` (positions) to c as model indices unless c has it or it is
 * not a valid order. */
static void add_order(const te_graph *g, const int *order, te_schedule_orders *c)
{
    int *idx, k, i;
    if (c->n_orders >= TE_SCHEDULE_MAX_ORDERS || !is_valid_order(g, order, c->n))
        return;
    idx = malloc(sizeof(int) * ((size_t)c->n + 1));
    if (!idx)
        return;
    for (i = 0; i < c->n; i++)
        idx[i] = g->ops[order[i]].index;
    for (k = 0; k < c->n_orders; k++)
        if (memcmp(c->index[k], idx, sizeof(int) * (size_t)c->n) == 0) {
            free(idx);
            return;
        }
    c->index[c->n_orders++] = idx;
}

/* 1 if op a comes after op b in the model: by the model operator each
 * stands for (a SPLIT's slices at the SPLIT's place, in output order). */
static int model_after(const te_op *a, const te_op *b)
{
    int ia = te_op_model_index(a), ib = te_op_model_index(b);
    return ia > ib || (ia == ib && a->part > b->part);
}

/* Positions in model order: the model's order of the live ops. */
static void model_order(const te_graph *g, const int *live, int n, int *order)
{
    int i, j;
    memcpy(order, live, sizeof(int) * (size_t)n);
    for (i = 1; i < n; i++) { /* insertion sort: nearly sorted already */
        int v = order[i];
        for (j = i; j > 0 && model_after(&g->ops[order[j - 1]], &g->ops[v]); j--)
            order[j] = order[j - 1];
        order[j] = v;
    }
}

/* The beam's width for n ops: TE_SCHEDULE_BEAM_WIDTH, narrower past 512
 * ops (each step scans every op of every state: width x n^2 in all), 0
 * (no beam) past 2048. */
static int beam_width(int n)
{
    const long long budget = 512LL * 512 * TE_SCHEDULE_BEAM_WIDTH;
    long long w = n > 0 ? budget / ((long long)n * n) : 0;
    return w > TE_SCHEDULE_BEAM_WIDTH ? TE_SCHEDULE_BEAM_WIDTH : (int)w;
}

int te_schedule_candidates(const te_graph *g, int from, te_schedule_orders *c)
{
    int *live = calloc((size_t)g->n_ops + 1, sizeof(int));
    int *order = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    int *readers = malloc(sizeof(int) * ((size_t)g->n_tensors + 1));
    int i, j, mode;
    memset(c, 0, sizeof *c);
    if (!live || !order || !readers)
        goto out;
    c->n = live_positions(g, from, live);
    add_order(g, live, c);
    if (g->keep_order || c->n < 2 || !indices_distinct(g, live, c->n))
        goto out;
    model_order(g, live, c->n, order);
    add_order(g, order, c);
    for (i = 0; i < g->n_tensors; i++)
        readers[i] = 0;
    for (i = 0; i < c->n; i++)
        for (j = 0; j < g->ops[live[i]].n_in; j++)
            if (g->ops[live[i]].in[j] >= 0)
                readers[g->ops[live[i]].in[j]]++;
    if (greedy_order(g, live, c->n, order, readers, from) == 0)
        add_order(g, order, c);
    for (mode = 0; mode < 2 && beam_width(c->n) > 0; mode++)
        if (te_schedule_beam(g, live, c->n, beam_width(c->n), mode, order) == 0)
            add_order(g, order, c);
out:
    free(live);
    free(order);
    free(readers);
    return c->n_orders > 0 ? 0 : -1;
}

void te_schedule_orders_free(te_schedule_orders *c)
{
    int k;
    for (k = 0; k < c->n_orders; k++)
        free(c->index[k]);
    memset(c, 0, sizeof *c);
}

/* Per model index, the position of the live op with it (-1: none);
 * *max: the highest index.  NULL when out of memory. */
static int *positions_by_index(const te_graph *g, int *max)
{
    int i, *at;
    *max = -1;
    for (i = 0; i < g->n_ops; i++)
        if (!g->ops[i].dead && g->ops[i].index > *max)
            *max = g->ops[i].index;
    at = malloc(sizeof(int) * ((size_t)*max + 2));
    for (i = 0; at && i <= *max; i++)
        at[i] = -1;
    for (i = 0; at && i < g->n_ops; i++)
        if (!g->ops[i].dead && g->ops[i].index >= 0)
            at[g->ops[i].index] = i;
    return at;
}

/* Into order, the positions of the live ops at or after position `from`
 * in the order of model indices `index` (n); returns how many, or -1 when
 * `index` names an op that is not live. */
static int positions_of(const te_graph *g, const int *index, int n, int from, int *order)
{
    int max, i, k = 0, *at = positions_by_index(g, &max);
    if (!at)
        return -1;
    for (i = 0; i < n && k >= 0; i++) {
        if (index[i] < 0 || index[i] > max || at[index[i]] < 0)
            k = -1;
        else if (at[index[i]] >= from)
            order[k++] = at[index[i]];
    }
    free(at);
    return k;
}

int te_schedule_apply(te_graph *g, const int *index, int n)
{
    int *live = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    int *order = malloc(sizeof(int) * ((size_t)n + 1));
    int rc = -1;
    if (live && order && live_positions(g, 0, live) == n && positions_of(g, index, n, 0, order) == n)
        rc = apply_order(g, order, n);
    free(live);
    free(order);
    return rc;
}

/* Renumbers producers to array positions. */
static void renumber(te_graph *g)
{
    int i, j;
    for (i = 0; i < g->n_ops; i++)
        for (j = 0; j < g->ops[i].n_out; j++)
            if (g->ops[i].out[j] >= 0)
                g->tensors[g->ops[i].out[j]].producer = i;
}

int te_schedule_apply_tail(te_graph *g, int keep, const int *index, int n)
{
    int *live = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    int *order = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    te_op *ops = malloc(sizeof *ops * ((size_t)g->n_ops + 1));
    int i, k, m = keep, n_live, rc = -1;
    if (!live || !order || !ops || keep < 0 || keep > g->n_ops)
        goto out;
    n_live = live_positions(g, keep, live);
    k = n_live == n ? positions_of(g, index, n, keep, order) : -1;
    if (k != n)
        goto out;
    rc = 0; /* 0 when in that order already */
    for (i = 0; i < k && rc == 0; i++)
        rc = order[i] != live[i];
    if (rc == 0)
        goto out;
    memcpy(ops, g->ops, sizeof *ops * (size_t)g->n_ops);
    for (i = 0; i < k; i++)
        g->ops[m++] = ops[order[i]];
    for (i = keep; i < g->n_ops; i++)
        if (ops[i].dead)
            g->ops[m++] = ops[i];
    renumber(g);
out:
    free(live);
    free(order);
    free(ops);
    return rc;
}

size_t te_schedule_peak(const te_graph *g, int from, const int *index, int n)
{
    int *order = malloc(sizeof(int) * ((size_t)n + 1));
    int *last = malloc(sizeof(int) * ((size_t)g->n_tensors + 1));
    size_t live = 0, peak;
    int t;
    if (!order || !last || positions_of(g, index, n, from, order) != n) {
        free(order);
        free(last);
        return (size_t)-1;
    }
    last_readers(g, order, n, last);
    for (t = 0; t < g->n_tensors; t++) /* read, made before: inputs, a stage's outputs */
        if (last[t] >= 0 && g->tensors[t].producer < from)
            live += te_schedule_stored_bytes(g, t);
    peak = peak_from(g, order, n, last, live);
    free(order);
    free(last);
    return peak;
}

te_op *te_schedule_save(const te_graph *g)
{
    te_op *ops = malloc(sizeof *ops * ((size_t)g->n_ops + 1));
    if (ops)
        memcpy(ops, g->ops, sizeof *ops * (size_t)g->n_ops);
    return ops;
}

void te_schedule_restore(te_graph *g, te_op *saved)
{
    memcpy(g->ops, saved, sizeof *saved * (size_t)g->n_ops);
    free(saved);
    renumber(g);
}

/* Marks in `early` (by position in live) the ops `e` depends on, and e. */
static void mark_ancestors(const te_graph *g, const int *live, int e, char *early)
{
    char *need = calloc((size_t)g->n_tensors + 1, 1);
    int i, j;
    if (!need)
        return;
    for (i = e; i >= 0; i--) {
        const te_op *op = &g->ops[live[i]];
        int wanted = i == e;
        for (j = 0; j < op->n_out && !wanted; j++)
            wanted = op->out[j] >= 0 && need[op->out[j]];
        if (!wanted)
            continue;
        early[i] = 1;
        for (j = 0; j < op->n_in; j++)
            if (op->in[j] >= 0)
                need[op->in[j]] = 1;
    }
    free(need);
}

/* How many ops `order` starts with that cannot run on a patch (a first
 * stage starts after them: te_patch_skip_head). */
static int unpatchable_head(const te_graph *g, const int *order, int n)
{
    int i = 0;
    while (i < n && !te_patch_op_supported(g, &g->ops[order[i]]))
        i++;
    return i;
}

/* The live ops in order with, first, the last op that can run on a patch
 * and needs no op that cannot (but those the order starts with), and
 * everything it depends on; then the rest (both in their order): the ops
 * that cannot run on a patch, those depending on them, and side branches
 * that do not lead to that op.  A valid order, as an op's inputs come from
 * ops it depends on.  Returns 1 if that moved any op. */
static int patch_first_order(const te_graph *g, const int *live, int n, int *order)
{
    char *blocked = calloc((size_t)g->n_tensors + 1, 1), *early = calloc((size_t)n + 1, 1);
    int i, j, k = 0, moved = 0, seen_late = 0, last = -1;
    if (!blocked || !early) {
        free(blocked);
        free(early);
        return 0;
    }
    for (i = unpatchable_head(g, live, n); i < n; i++) {
        const te_op *op = &g->ops[live[i]];
        int late = !te_patch_op_supported(g, op);
        for (j = 0; j < op->n_in && !late; j++)
            late = op->in[j] >= 0 && blocked[op->in[j]];
        for (j = 0; late && j < op->n_out; j++)
            if (op->out[j] >= 0)
                blocked[op->out[j]] = 1;
        if (!late)
            last = i;
    }
    if (last >= 0)
        mark_ancestors(g, live, last, early);
    for (i = 0; i < n; i++) {
        if (early[i]) {
            moved |= seen_late;
            order[k++] = live[i];
        }
        seen_late |= !early[i];
    }
    for (i = 0; i < n; i++)
        if (!early[i])
            order[k++] = live[i];
    free(blocked);
    free(early);
    return moved;
}

/* How many ops at the start of `order`, after its unpatchable head, can
 * run on a patch. */
static int patchable_prefix(const te_graph *g, const int *order, int n)
{
    int head = unpatchable_head(g, order, n), i = head;
    while (i < n && te_patch_op_supported(g, &g->ops[order[i]]))
        i++;
    return i - head;
}

int te_schedule_for_patches(te_graph *g)
{
    int *live = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    int *order = malloc(sizeof(int) * ((size_t)g->n_ops + 1));
    int n = 0, i, moved = 0;
    if (live && order && !g->keep_order) {
        for (i = 0; i < g->n_ops; i++)
            if (!g->ops[i].dead)
                live[n++] = i;
        /* worth a second compile only when a longer stage becomes possible */
        moved = patch_first_order(g, live, n, order) &&
                patchable_prefix(g, order, n) > patchable_prefix(g, live, n) &&
                apply_order(g, order, n) == 0;
    }
    free(live);
    free(order);
    return moved;
}
