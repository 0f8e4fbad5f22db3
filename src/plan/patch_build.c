/* patch_build.c - turns an analysed patch stage into a graph derived from
 * the model's (te_patch_graph; the model's graph is only read) holding the
 * objects the code emitter already understands: for every patch, region
 * tensors (the original tensor with a smaller height/width, stored in the
 * stage scratch), a clone of every stage operator on them (explicit
 * padding only at the tensor border) and the crop / write-back copies
 * between. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/flash_budget.h"
#include "../ops/ops.h"
#include "patch_internal.h"
#include "patch_walk.h"

typedef struct {
    te_graph *g;      /* the derived graph being built */
    te_patch_plan *p; /* its patch plan (the first stage: every stage's clones and steps) */
    te_patch_walk *w; /* the stage being built */
    int stage;        /* its index in the chain */
    int *slot_tensor; /* original tensor -> region tensor of the current patch */
    /* halo caching, per column gx and original tensor (keep_at): the
     * region tensor of its keep buffer the patch above wrote, its first row */
    int *keep_tensor, *keep_y0;
    struct clone_seen *seen; /* per stage op: the clone signatures checked */
} builder;

/* The signatures (te_patch_clone_signature) of the clones of one stage op
 * that passed build_op's checks (its lowering without scratch, its op's
 * check): those depend on nothing else, and the cells inside the grid all
 * have the same, so each is checked once per stage.  A hash index (slot:
 * entry + 1, 0 free; at most half full) finds one: the clones of a RESIZE
 * or a PAD each sit in their own place, so a grid can have as many
 * signatures as cells. */
typedef struct clone_seen {
    int (*sig)[TE_PATCH_CLONE_SIG_INTS];
    int n, cap;
    int *slot;
    size_t mask;
} clone_seen;

/* The slot of signature sig in s: its entry's, or the free one to take. */
static size_t seen_slot(const clone_seen *s, int i, const int *sig)
{
    size_t j;
    for (j = te_patch_sig_hash(i, sig) & s->mask; s->slot[j]; j = (j + 1) & s->mask)
        if (!memcmp(s->sig[s->slot[j] - 1], sig, sizeof s->sig[0]))
            break;
    return j;
}

/* 1 if a clone of stage op i with signature sig passed the checks before. */
static int checked_before(const builder *b, int i, const int *sig)
{
    const clone_seen *s = b->seen ? &b->seen[i] : NULL;
    return s && s->slot && s->slot[seen_slot(s, i, sig)] != 0;
}

/* s's arrays for one more entry: 0, or -1 when memory runs out. */
static int seen_grow(clone_seen *s, int i)
{
    size_t mask = 2 * (s->mask + 1) - 1, j;
    int *slot;
    int cap = s->cap ? 2 * s->cap : 8, k;
    void *a;
    while (mask + 1 < 2 * (size_t)cap)
        mask = 2 * mask + 1;
    slot = calloc(mask + 1, sizeof *slot);
    a = slot ? realloc(s->sig, (size_t)cap * sizeof *s->sig) : NULL;
    if (!a) { /* s unchanged */
        free(slot);
        return -1;
    }
    s->sig = a;
    s->cap = cap;
    free(s->slot);
    s->slot = slot;
    s->mask = mask;
    for (k = 0; k < s->n; k++) {
        for (j = te_patch_sig_hash(i, s->sig[k]) & mask; slot[j]; j = (j + 1) & mask)
            ;
        slot[j] = k + 1;
    }
    return 0;
}

/* Notes that a clone of stage op i with signature sig passed (when memory
 * allows: else it is checked again). */
static void note_checked(builder *b, int i, const int *sig)
{
    clone_seen *s = b->seen ? &b->seen[i] : NULL;
    if (!s || (s->n == s->cap && seen_grow(s, i) < 0))
        return;
    memcpy(s->sig[s->n++], sig, sizeof s->sig[0]);
    s->slot[seen_slot(s, i, sig)] = s->n;
}

static void seen_free(builder *b, int n_ops)
{
    int i;
    for (i = 0; b->seen && i < n_ops; i++) {
        free(b->seen[i].sig);
        free(b->seen[i].slot);
    }
    free(b->seen);
}

/* Name a with the patch's suffix, in g's blocks (te_graph_alloc). */
static char *dup_name(te_graph *g, const char *a, int stage, int patch)
{
    char suffix[48];
    const size_t n = strlen(a);
    const int k = stage ? snprintf(suffix, sizeof suffix, "@stage%dpatch%d", stage + 1, patch)
                        : snprintf(suffix, sizeof suffix, "@patch%d", patch);
    char *s = te_graph_alloc(g, n + (size_t)k + 1);
    if (s) {
        memcpy(s, a, n);
        memcpy(s + n, suffix, (size_t)k + 1);
    }
    return s;
}

/* Appends a region tensor of `orig` with region r (its name and a copy of
 * orig's quantization in g's blocks); returns its id or -1. */
static int add_region_tensor(builder *b, int orig, te_region r, size_t slot_off, int patch)
{
    te_graph *g = b->g;
    te_tensor *t = &g->tensors[g->n_tensors], *o = &g->tensors[orig];
    *t = *o;
    t->id = g->n_tensors;
    t->name = dup_name(g, o->name, b->stage, patch);
    t->q.scale = NULL;
    t->q.zero_point = NULL;
    if (o->q.count > 0) {
        t->q.zero_point = te_graph_alloc(g, sizeof(int64_t) * (size_t)o->q.count);
        t->q.scale = te_graph_alloc(g, sizeof(float) * (size_t)o->q.count);
        if (t->q.scale && t->q.zero_point) {
            memcpy(t->q.scale, o->q.scale, sizeof(float) * (size_t)o->q.count);
            memcpy(t->q.zero_point, o->q.zero_point, sizeof(int64_t) * (size_t)o->q.count);
        }
    }
    if (!t->name || (o->q.count > 0 && (!t->q.scale || !t->q.zero_point)))
        return -1;
    t->shape[b->w->ay[orig]] = r.y1 - r.y0;
    t->shape[b->w->ax[orig]] = r.x1 - r.x0;
    t->data = NULL;
    t->data_bytes = 0;
    t->producer = -1;
    te_tensor_unalias(t);
    t->patch_role = 2;
    t->slot_offset = slot_off;
    t->patch_stage = b->stage;
    g->n_tensors++;
    return t->id;
}

static te_patch_step *new_step(builder *b, int kind, int op, int patch)
{
    te_patch_step *s = &b->p->steps[b->p->n_steps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->op = op;
    s->inplace_input = -1;
    s->stage = b->stage;
    s->patch = patch;
    return s;
}

static void set_copy(te_patch_step *s, const te_patch_walk *w, int src, int orig_src, int sy,
                     int sx, int dst, int orig_dst, int dy, int dx, te_region size)
{
    s->src = src;
    s->dst = dst;
    s->src_y = sy;
    s->src_x = sx;
    s->dst_y = dy;
    s->dst_x = dx;
    s->h = size.y1 - size.y0;
    s->w = size.x1 - size.x0;
    s->src_ay = w->ay[orig_src];
    s->src_ax = w->ax[orig_src];
    s->dst_ay = w->ay[orig_dst];
    s->dst_ax = w->ax[orig_dst];
}

/* Input k of stage op i for this patch: a region tensor, a crop, or as is. */
static int clone_input(builder *b, int i, int k, te_region out_r, int patch, te_patch_need *need)
{
    te_graph *g = b->g;
    te_patch_walk *w = b->w;
    const te_op *op = &g->ops[w->ops[i]];
    int t = op->in[k], o = op->out[0], crop, src;
    te_region have;
    if (t < 0 || g->tensors[t].data)
        return t;
    if (te_patch_input_region(g, op, k, out_r, w->ay[o], w->ax[o], need) < 0)
        return -2;
    if (need->whole)
        return w->produced_by[t] >= 0 ? -2 : t;
    if (w->produced_by[t] >= 0 && te_region_eq(need->r, w->region[t]))
        return b->slot_tensor[t];
    crop = add_region_tensor(b, t, need->r, w->crop_off[i][k], patch);
    if (crop < 0)
        return -2;
    src = w->produced_by[t] >= 0 ? b->slot_tensor[t] : t;
    have = w->produced_by[t] >= 0 ? w->region[t] : (te_region){0, 0, 0, 0};
    set_copy(new_step(b, TE_PSTEP_COPY_IN, op->index, patch), w, src, t, need->r.y0 - have.y0,
             need->r.x0 - have.x0, crop, t, 0, 0, need->r);
    return crop;
}

/* Cut tensor o (if it is one): the part of its region this patch owns
 * (te_patch_walk.own_y / own_x) copied into the whole tensor. */
static void copy_out_cut(builder *b, int op_index, int o, int patch)
{
    const te_patch_walk *w = b->w;
    int c, gy = patch / w->grid_w, gx = patch % w->grid_w;
    te_region own, r = w->region[o];
    for (c = 0; c < w->n_cuts && w->cuts[c] != o; c++)
        ;
    if (c == w->n_cuts)
        return;
    own.y0 = w->own_y[c][2 * gy];
    own.y1 = w->own_y[c][2 * gy + 1];
    own.x0 = w->own_x[c][2 * gx];
    own.x1 = w->own_x[c][2 * gx + 1];
    if (te_region_empty(own))
        return;
    set_copy(new_step(b, TE_PSTEP_COPY_OUT, op_index, patch), w, b->slot_tensor[o], o, own.y0 - r.y0,
             own.x0 - r.x0, o, o, own.y0, own.x0, own);
}

/* Where builder b keeps the keep buffer record of tensor o in column gx. */
static size_t keep_at(const builder *b, int o, int gx)
{
    return (size_t)gx * ((size_t)b->g->base->n_tensors + 1) + (size_t)o;
}

/* Halo caching (patch_cache.c): the rows of cached tensor o that the
 * patch above kept (in its column's part of the keep buffer: region tensor
 * b->keep_tensor, whose first row is b->keep_y0) go to the front of this
 * patch's region tensor (b->slot_tensor[o]); returns the region tensor of
 * the rows after them, where the clone writes (comp[o], in the same
 * slot), or -1. */
static int restore_rows(builder *b, int o, int gx, int patch)
{
    const te_patch_walk *w = b->w;
    const size_t at = keep_at(b, o, gx);
    te_region r = w->region[o], kept = r;
    size_t row = te_patch_region_bytes(b->g, w, o, r) / (size_t)(r.y1 - r.y0);
    kept.y1 = w->comp[o].y0;
    set_copy(new_step(b, TE_PSTEP_COPY_IN, b->g->ops[w->ops[w->produced_by[o]]].index, patch), w,
             b->keep_tensor[at], o, r.y0 - b->keep_y0[at], 0, b->slot_tensor[o], o, 0, 0, kept);
    return add_region_tensor(b, o, w->comp[o], w->slot_off[o] + row * (size_t)(kept.y1 - r.y0),
                             patch);
}

/* Halo caching: the last rows of cached tensor o (as many as a patch takes
 * at most, keep_rows) into its column's part of the keep buffer for the
 * patch below (none after the last grid row).  0, or -1 when out of
 * memory. */
static int keep_rows(builder *b, int op_index, int o, int gy, int gx, int patch)
{
    const te_patch_walk *w = b->w;
    const size_t at = keep_at(b, o, gx);
    te_region r = w->region[o], last = r;
    if (!w->cache || !w->cached[o] || !w->keep_rows[o] || gy == w->grid_h - 1)
        return 0;
    if (last.y1 - last.y0 > w->keep_rows[o])
        last.y0 = last.y1 - w->keep_rows[o];
    b->keep_tensor[at] = add_region_tensor(
        b, o, last, w->keep_off[o] + (size_t)gx * (size_t)w->keep_rows[o] * w->keep_row_bytes[o],
        patch);
    b->keep_y0[at] = last.y0;
    if (b->keep_tensor[at] < 0)
        return -1;
    set_copy(new_step(b, TE_PSTEP_COPY_OUT, op_index, patch), w, b->slot_tensor[o], o,
             last.y0 - r.y0, 0, b->keep_tensor[at], o, 0, 0, last);
    return 0;
}

void te_patch_clone_options(const te_graph *g, const te_patch_walk *w, const te_op *op,
                            const te_patch_need *need, te_op *c)
{
    int o = op->out[0];
    if (te_patch_kind_of(g, op) == TE_PATCH_WINDOW) { /* explicit padding on the region */
        c->opt.padding = TE_PAD_VALID;
        c->opt.pad_top = need[0].pad[0];
        c->opt.pad_bottom = need[0].pad[1];
        c->opt.pad_left = need[0].pad[2];
        c->opt.pad_right = need[0].pad[3];
    }
    if (te_patch_kind_of(g, op) == TE_PATCH_REMAP) { /* its place in the whole tensors */
        const int k = te_patch_remap_input(g, op);
        const te_tensor *in = &g->tensors[op->in[k]], *out = &g->tensors[o];
        c->opt.region.set = 1;
        c->opt.region.ay = w->ay[o];
        c->opt.region.ax = w->ax[o];
        c->opt.region.oy = w->comp[o].y0;
        c->opt.region.ox = w->comp[o].x0;
        c->opt.region.iy = need[k].r.y0;
        c->opt.region.ix = need[k].r.x0;
        c->opt.region.in_h = in->shape[w->ay[o]];
        c->opt.region.in_w = in->shape[w->ax[o]];
        c->opt.region.out_h = out->shape[w->ay[o]];
        c->opt.region.out_w = out->shape[w->ax[o]];
    }
}

/* Clone c of stage op i (op) may run: its lowering needs no scratch (but
 * in place, whose scratch is in the micro plan) and its op's check passes;
 * -1 with d set when not. */
static int check_clone(builder *b, int i, const te_op *op, const te_op *c, te_diag *d)
{
    const te_op_def *def = te_op_find(op->opcode);
    int sig[TE_PATCH_CLONE_SIG_INTS];
    if (!def)
        return 0;
    te_patch_clone_signature(b->g, c, sig);
    if (checked_before(b, i, sig))
        return 0;
    if (b->w->inplace_in[i] < 0) {
        static const te_lower_opts plain;
        te_lowering low;
        te_lower_op(b->g, c, &plain, &low);
        if (low.scratch_bytes > 0)
            return te_op_fail(d, op, "needs scratch memory, which patches do not provide yet");
    }
    if (def->check && def->check(b->g, c, d) < 0)
        return -1;
    note_checked(b, i, sig);
    return 0;
}

static int build_op(builder *b, int i, int patch, te_diag *d)
{
    te_graph *g = b->g;
    te_patch_walk *w = b->w;
    const te_op *op = &g->ops[w->ops[i]];
    int o = op->out[0], k;
    te_op *c = &b->p->clones[b->p->n_clones];
    te_patch_need need[TE_PATCH_MAX_IN];
    te_patch_step *step;
    memset(need, 0, sizeof need);
    *c = *op;
    /* inputs and output in the graph's blocks: an estimate builds every
     * clone of every patch */
    c->in = te_graph_alloc(g, sizeof(int) * (size_t)(op->n_in + 1 + 2));
    c->custom_name = NULL;
    if (!c->in)
        return te_fail(d, "out of memory building patches");
    c->out = c->in + op->n_in + 1;
    b->p->n_clones++;
    for (k = 0; k < op->n_in; k++) {
        te_patch_need nk;
        memset(&nk, 0, sizeof nk); /* (a constant input: none) */
        c->in[k] = clone_input(b, i, k, w->comp[o], patch, &nk);
        if (c->in[k] == -2)
            return te_op_fail(d, op, "cannot run on a patch region");
        if (k < TE_PATCH_MAX_IN)
            need[k] = nk;
    }
    c->out[0] = b->slot_tensor[o] = add_region_tensor(b, o, w->region[o], w->slot_off[o], patch);
    if (b->slot_tensor[o] >= 0 && !te_region_eq(w->comp[o], w->region[o]))
        c->out[0] = restore_rows(b, o, patch % w->grid_w, patch); /* the clone: the rows after */
    if (b->slot_tensor[o] < 0 || c->out[0] < 0)
        return te_fail(d, "out of memory building patches");
    te_patch_clone_options(g, w, op, need, c);
    if (check_clone(b, i, op, c, d) < 0)
        return -1;
    step = new_step(b, TE_PSTEP_OP, op->index, patch);
    step->clone = b->p->n_clones - 1;
    step->inplace_input = w->inplace_in[i];
    step->scratch_off = w->scratch_off[i];
    step->scratch_bytes = w->inplace_in[i] >= 0 ? w->inplace_scratch[i] : 0;
    if (keep_rows(b, op->index, o, patch / w->grid_w, patch % w->grid_w, patch) < 0)
        return te_fail(d, "out of memory building patches");
    if (o == w->s)
        set_copy(new_step(b, TE_PSTEP_COPY_OUT, op->index, patch), w, b->slot_tensor[o], o, 0, 0, o, o,
                 w->region[o].y0, w->region[o].x0, w->region[o]);
    else
        copy_out_cut(b, op->index, o, patch);
    return 0;
}

/* Stage intermediates but the cut tensors are never stored whole; nothing in the stage runs in
 * place or aliases as a whole tensor (its clones work on region buffers, in place over one
 * where the micro plan says: te_patch_step.inplace_input).  dg: the
 * derived graph, whose tensors are its own copies. */
static void mark_stage(te_graph *dg, const te_patch_walk *w)
{
    int i;
    for (i = 0; i < w->n_ops; i++) {
        int o = dg->ops[w->ops[i]].out[0], c;
        for (c = 0; c < w->n_cuts && w->cuts[c] != o; c++)
            ;
        te_tensor_unalias(&dg->tensors[o]);
        if (o != w->s && c == w->n_cuts)
            dg->tensors[o].patch_role = 1;
    }
}

/* A graph derived from g (te_graph.base) with a copy of g's tensors, room
 * for every region tensor, and its own copy of p's chain with room for the
 * clones and steps of every stage (on the first); NULL when out of memory. */
static te_graph *derive(const te_graph *g, const te_patch_plan *p)
{
    const te_patch_plan *st;
    size_t extra = 0, clones = 0;
    te_graph *dg = malloc(sizeof *dg);
    te_patch_plan *dp = te_patch_plan_copy(p);
    if (!dg || !dp) {
        free(dg);
        te_patch_plan_free(dp);
        return NULL;
    }
    for (st = p; st; st = st->next) {
        size_t cells = (size_t)st->grid_h * (size_t)st->grid_w;
        extra += cells * (size_t)st->n_ops * (TE_PATCH_MAX_IN + 4); /* + halo copies */
        clones += cells * (size_t)st->n_ops;
    }
    *dg = *g;
    dg->base = g;
    dg->owned = NULL; /* its own blocks (te_graph_alloc), not g's buffers */
    dg->n_owned = 0;
    dg->block_at = NULL;
    dg->block_left = 0;
    /* room for the most there may be, written as they are made: not zeroed */
    dg->tensors = malloc(sizeof *dg->tensors * ((size_t)g->n_tensors + extra + 1));
    dp->clones = malloc(sizeof *dp->clones * (clones + 1));
    dp->steps = malloc(sizeof *dp->steps * (extra + 1));
    dg->patch = dp;
    if (!dg->tensors || !dp->clones || !dp->steps) {
        te_graph_free(dg);
        return NULL;
    }
    memcpy(dg->tensors, g->tensors, sizeof *dg->tensors * (size_t)g->n_tensors);
    return dg;
}

/* Builds stage sp (dg's copy, index k in the chain) into dg: its patches'
 * region tensors, clones and steps; -1 with d set when it cannot. */
static int build_stage(const te_graph *g, te_graph *dg, te_patch_plan *sp, int k, te_diag *d)
{
    builder b;
    int gy, gx, i, rc = -1;
    b.w = te_patch_walk_new_at(g, sp->first, sp->n_ops, sp->grid_h, sp->grid_w, NULL, 0);
    b.slot_tensor = calloc((size_t)g->n_tensors + 1, sizeof(int));
    b.keep_tensor = calloc(((size_t)g->n_tensors + 1) * (size_t)sp->grid_w, sizeof(int));
    b.keep_y0 = calloc(((size_t)g->n_tensors + 1) * (size_t)sp->grid_w, sizeof(int));
    b.seen = calloc((size_t)sp->n_ops + 1, sizeof *b.seen);
    sp->patched_macs = 0; /* the slot sizes, measured again: keep the MAC count right */
    if (b.w && sp->cache && te_patch_cache_setup(b.w, g, sp) < 0) {
        te_fail(d, "--patch: cannot build the patch stage with halo caching");
        goto out;
    }
    if (!b.w || !b.slot_tensor || !b.keep_tensor || !b.keep_y0 || te_patch_measure(b.w, g, sp) < 0 ||
        te_patch_micro_plan(b.w, g) == (size_t)-1) {
        te_fail(d, "--patch: cannot build the patch stage");
        goto out;
    }
    b.g = dg;
    b.p = dg->patch;
    b.stage = k;
    mark_stage(dg, b.w);
    for (gy = 0; gy < sp->grid_h; gy++)
        for (gx = 0; gx < sp->grid_w; gx++) {
            if (te_patch_regions(b.w, dg, gy, gx) < 0)
                goto out;
            for (i = 0; i < sp->n_ops; i++)
                if (build_op(&b, i, gy * sp->grid_w + gx, d) < 0)
                    goto out;
        }
    rc = 0;
out:
    te_patch_walk_free(b.w);
    free(b.slot_tensor);
    free(b.keep_tensor);
    free(b.keep_y0);
    seen_free(&b, sp->n_ops);
    return rc;
}

te_graph *te_patch_graph(const te_graph *g, const te_patch_plan *p, te_diag *d)
{
    te_graph *dg = NULL;
    te_patch_plan *sp;
    int k = 0;
    if (!g->base && !g->patch) /* a model's own graph, not a derived one */
        dg = derive(g, p);
    if (!dg) {
        te_fail(d, "--patch: cannot build the patch stage");
        return NULL;
    }
    for (sp = dg->patch; sp; sp = sp->next, k++)
        if (k >= TE_PATCH_MAX_STAGES || build_stage(g, dg, sp, k, d) < 0) {
            te_fail(d, "--patch: cannot build the patch stage"); /* when nothing said why */
            te_graph_free(dg);
            return NULL;
        }
    dg->patch->code_bytes = te_patch_code_bytes(dg, dg->patch); /* once: the flash budget reads it */
    dg->content_key = te_flash_graph_key(dg);                    /* and keys its memo on it */
    return dg;
}
