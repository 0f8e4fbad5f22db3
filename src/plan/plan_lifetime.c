/* plan_lifetime.c - builds the schedule and the buffers of the memory plan:
 * one buffer per stored (non-constant, non-alias) tensor with the lifetime
 * from its producer to its last consumer, plus one per operator scratch.
 * Graph inputs live from step 0, graph outputs until the last step.
 * Variable tensors (LSTM/SVDF state) are not in the arena: they live for the
 * whole program in the state region, laid out one after the other. */
#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"
#include "patch.h"
#include "plan.h"


/* te_storage_root(p->st, t, offset), from p->root while the plan is built. */
static int plan_root(const te_plan *p, int t, size_t *offset)
{
    if (!p->root || p->root[t] < 0)
        return te_storage_root(p->st, t, offset);
    if (offset)
        *offset = p->root_off[t];
    return p->root[t];
}

static int root_of(const te_plan *p, int t) { return plan_root(p, t, NULL); }

/* Root and offset of tensor t from those of the tensor it aliases (known). */
static void root_from(te_plan *p, int t)
{
    const int a = p->st->t[t].alias_of;
    p->root[t] = a >= 0 ? p->root[a] : t;
    p->root_off[t] = a >= 0 ? p->root_off[a] + p->st->t[t].alias_offset : 0;
}

/* p->root / root_off (in p->scratch): every tensor's storage root, each
 * alias chain walked once (the in-place links of a long run of operators
 * make chains as long); -1 for a tensor the storage decisions do not hold;
 * NULL (te_storage_root every time) when a chain does not end (never
 * expected) or out of memory. */
static void find_roots(te_plan *p, const te_graph *g)
{
    const int nt = g->n_tensors < p->st->n_tensors ? g->n_tensors : p->st->n_tensors;
    const size_t n1 = (size_t)g->n_tensors + 1;
    char *at = te_plan_scratch_get(p->scratch, TE_SCRATCH_ROOTS,
                                   te_scratch_bytes(n1, sizeof(size_t)) +
                                       2 * te_scratch_bytes(n1, sizeof(int)));
    int t, u, n, *path = NULL;
    p->root = NULL;
    p->root_off = NULL;
    if (at) {
        p->root_off = te_scratch_take(&at, n1, sizeof(size_t));
        p->root = te_scratch_take(&at, n1, sizeof(int));
        path = te_scratch_take(&at, n1, sizeof(int));
    }
    for (t = 0; path && t < g->n_tensors; t++)
        p->root[t] = -1;
    for (t = 0; path && t < nt; t++) {
        for (u = t, n = 0; p->root[u] < 0 && n < nt; u = p->st->t[u].alias_of) {
            path[n++] = u;
            if (p->st->t[u].alias_of < 0 || p->st->t[u].alias_of >= nt)
                break;
        }
        if (p->root[u] < 0 && p->st->t[u].alias_of >= 0)
            break; /* a chain longer than the tensors (a cycle) or out of them */
        while (n > 0)
            root_from(p, path[--n]);
    }
    if (!path || t < nt) {
        p->root = NULL;
        p->root_off = NULL;
    }
}

static size_t align_up(size_t n) { return (n + TE_ARENA_ALIGN - 1) & ~(size_t)(TE_ARENA_ALIGN - 1); }

static int add_buffer(te_plan *p, size_t bytes, int first, int last, int tensor, int op)
{
    te_buffer *b = &p->buffers[p->n_buffers];
    b->bytes = align_up(bytes ? bytes : 1);
    b->first = first;
    b->last = last;
    b->offset = 0;
    b->region = 0;
    b->tensor = tensor;
    b->op = op;
    b->shrink_after = -1;
    b->shrunk_bytes = b->bytes;
    return p->n_buffers++;
}

/* Extends the lifetime of tensor t's buffer to cover `step`. */
static void touch(te_plan *p, const te_graph *g, int t, int step)
{
    int b;
    if (t < 0 || g->tensors[t].data)
        return;
    b = p->tensor_buffer[root_of(p, t)];
    if (b < 0)
        return;
    if (step < p->buffers[b].first)
        p->buffers[b].first = step;
    if (step > p->buffers[b].last)
        p->buffers[b].last = step;
}

/* 1 if t is stored in the state region (a variable tensor or a view of one). */
static int in_state(const te_plan *p, const te_graph *g, int t)
{
    return g->tensors[root_of(p, t)].is_variable;
}

static int make_tensor_buffers(te_plan *p, const te_graph *g)
{
    int t;
    for (t = 0; t < g->n_tensors; t++) {
        const te_tensor *tt = &g->tensors[t];
        p->tensor_buffer[t] = -1;
        if (tt->data || te_storage_alias_of(p->st, t) >= 0 || p->patch_role[t] || tt->is_variable)
            continue;
        p->tensor_buffer[t] = add_buffer(p, te_tensor_bytes(tt), 1 << 30, -1, t, -1);
    }
    /* an alias may be larger than its root's own view (never in practice) */
    for (t = 0; t < g->n_tensors; t++) {
        const te_tensor *tt = &g->tensors[t];
        if (te_storage_alias_of(p->st, t) >= 0 && !tt->data && !p->patch_role[t] &&
            !in_state(p, g, t)) {
            size_t off;
            te_buffer *b = &p->buffers[p->tensor_buffer[plan_root(p, t, &off)]];
            size_t need = align_up(off + te_tensor_bytes(tt));
            if (need > b->bytes)
                b->bytes = need;
        }
    }
    return 0;
}

/* The schedule steps [*first, *last] of the patch stage holding step s;
 * 0 when s is in none. */
static int stage_span(const te_plan *p, int s, int *first, int *last)
{
    const te_patch_plan *st = te_patch_stage_of(p->stage, s, NULL);
    if (!st)
        return 0;
    *first = st->first;
    *last = te_patch_stage_last(st);
    return 1;
}

/* The last step of the first patch stage, or -1. */
static int stage_last_step(const te_plan *p) { return p->stage ? te_patch_stage_last(p->stage) : -1; }

static void compute_lifetimes(te_plan *p, const te_graph *g)
{
    int s, i, sf = 0, sl = 0;
    for (i = 0; i < g->n_inputs; i++)
        touch(p, g, g->inputs[i], 0);
    for (s = 0; s < p->n_steps; s++) {
        const te_op *op = &g->ops[p->schedule[s]];
        int in_stage = stage_span(p, s, &sf, &sl);
        for (i = 0; i < op->n_in + op->n_out; i++) {
            int t = i < op->n_in ? op->in[i] : op->out[i - op->n_in];
            touch(p, g, t, s);
            if (in_stage) { /* patches read and write all through the stage */
                touch(p, g, t, sf);
                touch(p, g, t, sl);
            }
        }
    }
    for (i = 0; i < g->n_outputs; i++)
        touch(p, g, g->outputs[i], p->n_steps > 0 ? p->n_steps - 1 : 0);
}

static void add_scratch_buffers(te_plan *p, const te_graph *g, const te_lowered *low)
{
    const te_patch_plan *st;
    int s, k = 0, sf = 0, sl = 0;
    for (s = 0; s < TE_PATCH_MAX_STAGES; s++)
        p->stage_scratch[s] = -1;
    for (st = p->stage; st && k < TE_PATCH_MAX_STAGES; st = st->next, k++)
        p->stage_scratch[k] =
            add_buffer(p, st->scratch_bytes, st->first, te_patch_stage_last(st), -1, -1);
    p->patch_scratch = p->stage_scratch[0];
    for (s = 0; s < p->n_steps; s++) {
        int oi = p->schedule[s];
        if (stage_span(p, s, &sf, &sl))
            continue;
        const te_lowering *l = te_lowered_find(low, g, &g->ops[oi]);
        size_t bytes = l ? l->scratch_bytes : 0;
        p->op_scratch[oi] = bytes ? add_buffer(p, bytes, s, s, -1, oi) : -1;
    }
}

/* The stage's overlay (te_patch_plan.overlay_in): ties the input's buffer
 * to S's (the input overlay_offset bytes into it) when both are their
 * tensors' own (or the input a whole view of a network input's: a flat
 * input RESHAPEd before the stage, te_patch_skip_head), S's from the
 * stage's first step, and the input is dead once the stage is over
 * (nothing after it reads a view of it). */
/* Above this input size the overlay tie is not tried: te_patch_overlay_check
 * verifies a tie byte by byte, and no microcontroller has a 64 MiB SRAM to
 * save it in (hostile models with gigabyte tensors took seconds, minutes
 * under the sanitizers). */
#define TE_OVERLAY_MAX_BYTES ((size_t)64 << 20)

static void tie_overlay(te_plan *p, const te_graph *g)
{
    const te_patch_plan *st = p->stage;
    size_t off_x = 1, off_s = 1;
    int bx, bs, x;
    p->has_tie = 0;
    if (!st || st->overlay_in < 0 || te_storage_root(p->st, st->out_tensor, &off_s) != st->out_tensor ||
        off_s || te_tensor_bytes(&g->tensors[st->overlay_in]) > TE_OVERLAY_MAX_BYTES)
        return;
    x = te_storage_root(p->st, st->overlay_in, &off_x);
    if (off_x || (x != st->overlay_in &&
                  (!te_graph_is_input(g, x) ||
                   te_tensor_bytes(&g->tensors[x]) != te_tensor_bytes(&g->tensors[st->overlay_in]))))
        return;
    bx = p->tensor_buffer[x];
    bs = p->tensor_buffer[st->out_tensor];
    if (bx < 0 || bs < 0 || bx == bs || p->buffers[bx].last > stage_last_step(p) ||
        p->buffers[bx].last < p->buffers[bx].first || p->buffers[bs].first != st->first ||
        p->buffers[bs].last < 0)
        return;
    p->has_tie = 1;
    p->tie_anchor = bs;
    p->tie_member = bx;
    p->tie_offset = st->overlay_offset;
}

/* Steps tensor t itself is live (not its buffer's union): from its
 * producer (graph inputs: step 0) to its last reader (graph outputs: the
 * last step; the patch stage's tensors: all through the stage). */
static void tensor_lifetimes(const te_plan *p, const te_graph *g, int *first, int *last)
{
    int s, i, t, sf = 0, sl = 0, end = p->n_steps > 0 ? p->n_steps - 1 : 0;
    for (t = 0; t < g->n_tensors; t++)
        first[t] = 1 << 30, last[t] = -1;
#define TOUCH(t_, s_)                                                                              \
    do {                                                                                           \
        if ((s_) < first[t_]) first[t_] = (s_);                                                    \
        if ((s_) > last[t_]) last[t_] = (s_);                                                      \
    } while (0)
    for (i = 0; i < g->n_inputs; i++)
        if (g->inputs[i] >= 0)
            TOUCH(g->inputs[i], 0);
    for (s = 0; s < p->n_steps; s++) {
        const te_op *op = &g->ops[p->schedule[s]];
        int in_stage = stage_span(p, s, &sf, &sl);
        for (i = 0; i < op->n_in + op->n_out; i++) {
            t = i < op->n_in ? op->in[i] : op->out[i - op->n_in];
            if (t < 0)
                continue;
            TOUCH(t, s);
            if (in_stage) {
                TOUCH(t, sf);
                TOUCH(t, sl);
            }
        }
    }
    for (i = 0; i < g->n_outputs; i++)
        if (g->outputs[i] >= 0)
            TOUCH(g->outputs[i], end);
#undef TOUCH
}

/* A buffer whose largest tensor dies before the buffer does (an operator
 * wrote a smaller output over its input: a strided or narrowing in-place
 * link) takes only the bytes of the tensors still alive from then on
 * (te_buffer.shrink_after): the rest of its place is free for others.  Not
 * for the patch stage's tied pair, placed as one piece. */
static void find_shrinks(te_plan *p, const te_graph *g)
{
    const size_t nt1 = (size_t)g->n_tensors + 1, nb1 = (size_t)p->n_buffers + 1;
    char *at = te_plan_scratch_get(p->scratch, TE_SCRATCH_LIFETIMES,
                                   te_scratch_bytes(nb1, sizeof(size_t)) +
                                       2 * te_scratch_bytes(nt1, sizeof(int)) +
                                       te_scratch_bytes(nb1, sizeof(int)));
    int t, b, pass;
    if (at) {
        size_t *shrunk = te_scratch_take(&at, nb1, sizeof(size_t));
        int *first = te_scratch_take(&at, nt1, sizeof(int));
        int *last = te_scratch_take(&at, nt1, sizeof(int));
        int *full_last = te_scratch_take(&at, nb1, sizeof(int));
        memset(shrunk, 0, nb1 * sizeof(size_t));
        tensor_lifetimes(p, g, first, last);
        for (b = 0; b < p->n_buffers; b++)
            full_last[b] = -1;
        /* pass 0: the last step a full-size member lives; pass 1: the bytes
         * the members alive after it need */
        for (pass = 0; pass < 2; pass++)
            for (t = 0; t < g->n_tensors; t++) {
                size_t off = 0, end;
                if (g->tensors[t].data || last[t] < first[t] ||
                    (b = p->tensor_buffer[plan_root(p, t, &off)]) < 0)
                    continue;
                end = align_up(off + te_tensor_bytes(&g->tensors[t]));
                if (pass == 0 && end >= p->buffers[b].bytes && last[t] > full_last[b])
                    full_last[b] = last[t];
                if (pass == 1 && last[t] > full_last[b] && end > shrunk[b])
                    shrunk[b] = end;
            }
        for (b = 0; b < p->n_buffers; b++) {
            te_buffer *buf = &p->buffers[b];
            if (buf->tensor < 0 || full_last[b] < buf->first || full_last[b] >= buf->last ||
                !shrunk[b] || shrunk[b] >= buf->bytes ||
                (p->has_tie && (b == p->tie_anchor || b == p->tie_member)))
                continue;
            buf->shrink_after = full_last[b];
            buf->shrunk_bytes = shrunk[b];
        }
    }
}

/* Unused buffers (a tensor no step touches) get an empty lifetime. */
static void drop_unused(te_plan *p)
{
    int i;
    for (i = 0; i < p->n_buffers; i++)
        if (p->buffers[i].last < p->buffers[i].first) {
            p->buffers[i].first = 0;
            p->buffers[i].last = -1;
        }
}

/* Lays the variable tensors out in the state region, in tensor order. */
static void place_state(te_plan *p, const te_graph *g)
{
    int t;
    p->state_bytes = 0;
    for (t = 0; t < g->n_tensors; t++) {
        const te_tensor *tt = &g->tensors[t];
        if (tt->is_variable && !tt->data && te_storage_alias_of(p->st, t) < 0) {
            p->place[t].state_offset = p->state_bytes;
            p->state_bytes += align_up(te_tensor_bytes(tt));
        }
    }
}

void te_plan_assign_offsets(te_plan *p, const te_graph *g)
{
    int t;
    for (t = 0; t < g->n_tensors; t++) {
        const te_tensor *tt = &g->tensors[t];
        te_tensor_place *pl = &p->place[t];
        size_t off;
        int r = plan_root(p, t, &off), b = tt->data ? -1 : p->tensor_buffer[r];
        if (!tt->data && g->tensors[r].is_variable) {
            pl->in_arena = 0;
            pl->in_state = 1;
            pl->state_offset = p->place[r].state_offset + off;
            continue;
        }
        if (p->patch_role[t] == 2 && tt->patch_stage >= 0 &&
            tt->patch_stage < TE_PATCH_MAX_STAGES && p->stage_scratch[tt->patch_stage] >= 0) {
            const te_buffer *sb = &p->buffers[p->stage_scratch[tt->patch_stage]];
            pl->in_arena = 1;
            pl->arena_offset = sb->offset + tt->slot_offset;
            pl->region = sb->region;
            continue;
        }
        pl->in_arena = b >= 0 && p->buffers[b].last >= p->buffers[b].first;
        if (pl->in_arena) {
            pl->arena_offset = p->buffers[b].offset + off;
            pl->region = p->buffers[b].region;
        }
    }
}

/* Storage root when in-place and concatenation-slice links are ignored
 * (zero-copy views kept). */
static int view_root(const te_plan *p, int t) { return te_storage_view_root(p->st, t); }

static void widen(int *first, int *last, int r, int step)
{
    if (step < first[r])
        first[r] = step;
    if (step > last[r])
        last[r] = step;
}

/* Peak live bytes if every in-place output had storage of its own: each
 * step's sum gathered in one sweep (delta[s]: what starts living at step
 * s less what stopped after s - 1). */
static size_t bound_without_inplace(const te_plan *p, const te_graph *g)
{
    const size_t nt1 = (size_t)g->n_tensors + 1, ns1 = (size_t)p->n_steps + 1;
    char *at = te_plan_scratch_get(p->scratch, TE_SCRATCH_LIFETIMES,
                                   te_scratch_bytes(ns1, sizeof(size_t)) +
                                       2 * te_scratch_bytes(nt1, sizeof(int)));
    size_t peak = 0, live = 0, *delta;
    int t, s, i, *first, *last;
    if (!at)
        return p->lower_bound;
    delta = te_scratch_take(&at, ns1, sizeof(size_t));
    first = te_scratch_take(&at, nt1, sizeof(int));
    last = te_scratch_take(&at, nt1, sizeof(int));
    memset(delta, 0, ns1 * sizeof(size_t));
    for (t = 0; t < g->n_tensors; t++) {
        first[t] = 1 << 30;
        last[t] = -1;
    }
    for (i = 0; i < g->n_inputs; i++)
        widen(first, last, view_root(p, g->inputs[i]), 0);
    for (s = 0; s < p->n_steps; s++) {
        const te_op *op = &g->ops[p->schedule[s]];
        for (i = 0; i < op->n_in + op->n_out; i++) {
            int tid = i < op->n_in ? op->in[i] : op->out[i - op->n_in];
            if (tid >= 0 && !g->tensors[tid].data && !p->patch_role[tid] &&
                !in_state(p, g, tid))
                widen(first, last, view_root(p, tid), s);
        }
    }
    for (i = 0; i < g->n_outputs; i++)
        widen(first, last, view_root(p, g->outputs[i]), p->n_steps ? p->n_steps - 1 : 0);
    for (t = 0; t < g->n_tensors; t++) {
        const int f = first[t] < 0 ? 0 : first[t];
        const int l = last[t] >= p->n_steps ? p->n_steps - 1 : last[t];
        if (f <= l) {
            const size_t bytes = align_up(te_tensor_bytes(&g->tensors[t]));
            delta[f] += bytes;
            delta[l + 1] -= bytes;
        }
    }
    for (i = 0; i < p->n_buffers; i++) {
        const te_buffer *b = &p->buffers[i];
        const te_op *op = b->op >= 0 ? &g->ops[b->op] : NULL;
        /* scratch at its first step, except what only in-place execution
         * (or a concatenation slice) needs */
        if (op && b->first >= 0 && b->first < p->n_steps &&
            !(op->n_out > 0 && op->out[0] >= 0 &&
              (te_storage_inplace(p->st, op->out[0]) || te_storage_slice(p->st, op->out[0])))) {
            delta[b->first] += b->bytes;
            delta[b->first + 1] -= b->bytes;
        }
    }
    for (s = 0; s < p->n_steps; s++) {
        live += delta[s];
        if (live > peak)
            peak = live;
    }
    return peak;
}

/* The patch roles of the tensors: g's, or those of a trial stage (the
 * outputs of its operators, but its cut tensors, are intermediates). */
static void set_patch_roles(te_plan *p, const te_graph *g, const te_patch_plan *trial)
{
    const te_patch_plan *st;
    int t, i, n;
    for (t = 0; t < g->n_tensors; t++)
        p->patch_role[t] = (unsigned char)g->tensors[t].patch_role;
    for (st = trial; st; st = st->next)
        for (i = 0, n = 0; i < g->n_ops && n < st->first + st->n_ops; i++) {
            const te_op *op = &g->ops[i];
            if (op->dead || n++ < st->first)
                continue;
            if (op->n_out > 0 && op->out[0] >= 0)
                p->patch_role[op->out[0]] = !te_patch_is_cut(trial, op->out[0]);
        }
}

/* p's arrays for g: its own (zeroed), or from p->scratch when `borrowed`
 * (a trial: p->place zeroed, the others all written before they are
 * read); -1 when out of memory. */
static int plan_arrays(te_plan *p, const te_graph *g, int borrowed)
{
    const size_t nt1 = (size_t)g->n_tensors + 1, no1 = (size_t)g->n_ops + 1;
    const size_t nb1 = (size_t)(g->n_tensors + g->n_ops) + 1;
    char *at;
    if (!borrowed) {
        p->schedule = calloc(no1, sizeof *p->schedule);
        p->buffers = calloc(nb1, sizeof *p->buffers);
        p->tensor_buffer = calloc(nt1, sizeof *p->tensor_buffer);
        p->op_scratch = calloc(no1, sizeof *p->op_scratch);
        p->place = calloc(nt1, sizeof *p->place);
        p->patch_role = calloc(nt1, 1);
        return p->schedule && p->buffers && p->tensor_buffer && p->op_scratch && p->place &&
                       p->patch_role
                   ? 0
                   : -1;
    }
    at = te_plan_scratch_get(p->scratch, TE_SCRATCH_PLAN,
                             te_scratch_bytes(nb1, sizeof *p->buffers) +
                                 te_scratch_bytes(nt1, sizeof *p->place) +
                                 2 * te_scratch_bytes(no1, sizeof(int)) +
                                 te_scratch_bytes(nt1, sizeof(int)) + te_scratch_bytes(nt1, 1));
    if (!at)
        return -1;
    p->buffers = te_scratch_take(&at, nb1, sizeof *p->buffers);
    p->place = te_scratch_take(&at, nt1, sizeof *p->place);
    p->schedule = te_scratch_take(&at, no1, sizeof(int));
    p->op_scratch = te_scratch_take(&at, no1, sizeof(int));
    p->tensor_buffer = te_scratch_take(&at, nt1, sizeof(int));
    p->patch_role = te_scratch_take(&at, nt1, 1);
    memset(p->place, 0, nt1 * sizeof *p->place);
    return 0;
}

/* Plans g (p's arrays in place) as te_plan_build describes, patch stage
 * `trial` (or g's), quick placement or not; `whole`: with the lifetime
 * bound without in-place links and where each tensor lives, else (a
 * trial's arena alone) the latter only when a tied pair's overlay is
 * checked.  -1 when out of memory. */
static int plan_graph(te_plan *p, const te_graph *g, const te_lowered *low,
                      const te_patch_plan *trial, int quick, int whole)
{
    int i;
    for (i = 0; i < g->n_ops; i++) {
        p->op_scratch[i] = -1;
        if (!g->ops[i].dead)
            p->schedule[p->n_steps++] = i;
    }
    p->quick = quick;
    p->stage = trial ? trial : g->patch;
    set_patch_roles(p, g, trial);
    p->st = low && low->opts.st ? low->opts.st : (p->own_st = te_storage_new(g));
    if (!p->st)
        return -1;
    find_roots(p, g);
    make_tensor_buffers(p, g);
    compute_lifetimes(p, g);
    p->low = low;
    add_scratch_buffers(p, g, low);
    drop_unused(p);
    tie_overlay(p, g);
    find_shrinks(p, g);
    te_plan_place(p);
    if (whole)
        p->bound_no_inplace = bound_without_inplace(p, g);
    if (whole || p->has_tie) {
        place_state(p, g);
        te_plan_assign_offsets(p, g);
    }
    if (p->has_tie && te_patch_overlay_check(g, p) < 0) { /* never expected: apart then */
        p->has_tie = 0;
        te_plan_place(p);
        te_plan_assign_offsets(p, g);
    }
    p->root = NULL; /* in the scratch */
    p->root_off = NULL;
    return 0;
}

/* A plan of its own (te_plan_build), its working arrays in a scratch
 * freed once it is built. */
static te_plan *build(const te_graph *g, const te_lowered *low, int quick, te_diag *d)
{
    te_plan *p = calloc(1, sizeof *p);
    te_plan_scratch ws;
    memset(&ws, 0, sizeof ws);
    if (p) {
        p->scratch = &ws;
        if (plan_arrays(p, g, 0) < 0 || plan_graph(p, g, low, NULL, quick, 1) < 0) {
            te_plan_free(p);
            p = NULL;
        }
    }
    te_plan_scratch_free(&ws);
    if (!p) {
        te_fail(d, "out of memory while planning");
        return NULL;
    }
    p->scratch = NULL;
    return p;
}

te_plan *te_plan_build(const te_graph *g, const te_lowered *low, te_diag *d)
{
    return build(g, low, 0, d);
}

te_plan *te_plan_build_quick(const te_graph *g, const te_lowered *low, te_diag *d)
{
    return build(g, low, 1, d);
}

size_t te_plan_trial_arena(const te_graph *g, const te_lowered *low,
                           const te_patch_plan *stage, int exact, te_plan_scratch *ws)
{
    te_plan p;
    te_plan_scratch own;
    size_t arena = (size_t)-1;
    memset(&p, 0, sizeof p);
    memset(&own, 0, sizeof own);
    p.scratch = ws ? ws : &own;
    if (plan_arrays(&p, g, 1) == 0 && plan_graph(&p, g, low, stage, !exact, 0) == 0)
        arena = p.arena_bytes;
    te_storage_free(p.own_st);
    te_plan_scratch_free(&own);
    return arena;
}

void te_plan_free(te_plan *p)
{
    if (!p)
        return;
    free(p->schedule);
    free(p->buffers);
    free(p->tensor_buffer);
    free(p->op_scratch);
    free(p->place);
    free(p->patch_role);
    te_storage_free(p->own_st);
    free(p);
}

size_t te_plan_scratch_offset(const te_plan *p, int op)
{
    int b = p->op_scratch[op];
    return b >= 0 ? p->buffers[b].offset : 0;
}

int te_plan_scratch_region(const te_plan *p, int op)
{
    int b = p->op_scratch[op];
    return b >= 0 ? p->buffers[b].region : 0;
}

size_t te_plan_clone_scratch_offset(const te_plan *p, const te_graph *g, const te_op *c)
{
    const te_patch_plan *pp = g->patch;
    int i;
    if (!pp || p->patch_scratch < 0 || c < pp->clones || c >= pp->clones + pp->n_clones)
        return 0;
    for (i = 0; i < pp->n_steps; i++) {
        const te_patch_step *st = &pp->steps[i];
        if (st->kind == TE_PSTEP_OP && st->clone == c - pp->clones && st->stage >= 0 &&
            st->stage < TE_PATCH_MAX_STAGES && p->stage_scratch[st->stage] >= 0)
            return p->buffers[p->stage_scratch[st->stage]].offset + st->scratch_off;
    }
    return 0;
}

int te_plan_clone_scratch_region(const te_plan *p, const te_graph *g, const te_op *c)
{
    const te_patch_plan *pp = g->patch;
    int i;
    for (i = 0; pp && c >= pp->clones && c < pp->clones + pp->n_clones && i < pp->n_steps; i++) {
        const te_patch_step *st = &pp->steps[i];
        if (st->kind == TE_PSTEP_OP && st->clone == c - pp->clones && st->stage >= 0 &&
            st->stage < TE_PATCH_MAX_STAGES && p->stage_scratch[st->stage] >= 0)
            return p->buffers[p->stage_scratch[st->stage]].region;
    }
    return p->patch_scratch >= 0 ? p->buffers[p->patch_scratch].region : 0;
}

static int live_at(const te_buffer *b, int step) { return b->first <= step && step <= b->last; }

size_t te_plan_live_bytes(const te_plan *p, int step)
{
    size_t sum = 0;
    int i;
    for (i = 0; i < p->n_buffers; i++)
        if (live_at(&p->buffers[i], step))
            sum += te_buffer_bytes_from(&p->buffers[i], step);
    if (p->has_tie && live_at(&p->buffers[p->tie_anchor], step) &&
        live_at(&p->buffers[p->tie_member], step)) {
        size_t a = p->buffers[p->tie_anchor].bytes, off = p->tie_offset;
        size_t end = off + p->buffers[p->tie_member].bytes;
        if (off < a) /* [off, min(a, end)) counted twice */
            sum -= (end < a ? end : a) - off;
    }
    return sum;
}
