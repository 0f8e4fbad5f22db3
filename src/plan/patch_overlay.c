/* patch_overlay.c - where the network input X the patch stage reads may
 * lie inside the place of the stage's output S, so that while the stage
 * runs the two need max(S, offset + X) bytes instead of X + S.
 *
 * The patches run in raster order; patch p reads boxes of X (its crop
 * copies) and writes its cell of S.  With X placed `offset` bytes after the
 * start of S, the cell p writes must end at or below every byte of X that
 * a patch q >= p still reads (q == p too: no assumption on the order of
 * one patch's steps), so offset = max over p of (end of p's cell in S -
 * lowest byte of X read by any q >= p), rounded up to the arena alignment.
 * Spans are byte ranges of the boxes in each tensor's own layout (first to
 * last byte touched).  X qualifies when the stage alone reads it, always by
 * crops (never whole), and it is not a network output. */
#include <stdint.h>
#include <stdlib.h>

#include "../ops/ops.h"
#include "patch_internal.h"
#include "patch_walk.h"
#include "plan.h"

/* First and one-past-last byte of box r of tensor t (height/width axes
 * ay, ax; every other axis whole). */
static void box_span(const te_tensor *t, int ay, int ax, te_region r, size_t *lo, size_t *hi)
{
    size_t stride = te_dtype_size(t->type), first = 0, last = 0, es = stride;
    int d;
    for (d = t->rank - 1; d >= 0; d--) {
        size_t a = d == ay ? (size_t)r.y0 : d == ax ? (size_t)r.x0 : 0;
        size_t b = d == ay ? (size_t)(r.y1 - 1) : d == ax ? (size_t)(r.x1 - 1)
                                                           : (size_t)(t->shape[d] - 1);
        first += a * stride;
        last += b * stride;
        stride *= (size_t)t->shape[d];
    }
    *lo = first;
    *hi = last + es;
}

/* 1 if x, a tensor the stage reads from outside, is read by nothing after
 * the stage and is no network output. */
static int read_by_stage_only(const te_patch_walk *w, const te_graph *g, int x)
{
    return !g->tensors[x].data && !g->tensors[x].is_variable && !te_patch_used_after(w, g, x);
}

/* The stage's tensors read from outside (w->ext: the first TE_PATCH_MAX_IN
 * non-constant ones) and the arrays of the overlay's notes; -1 when out of
 * memory. */
static int note_setup(te_patch_walk *w, const te_graph *g)
{
    const size_t cells = (size_t)w->grid_h * (size_t)w->grid_w;
    int i, k, j;
    w->n_ext = 0;
    for (i = 0; i < w->n_ops; i++)
        for (k = 0; k < g->ops[w->ops[i]].n_in; k++) {
            const int x = g->ops[w->ops[i]].in[k];
            if (x < 0 || g->tensors[x].data || w->produced_by[x] >= 0)
                continue;
            for (j = 0; j < w->n_ext && w->ext[j] != x; j++)
                ;
            if (j == w->n_ext && w->n_ext < TE_PATCH_MAX_IN) {
                w->ext_whole[w->n_ext] = 0;
                w->ext[w->n_ext++] = x;
            }
        }
    if (!w->s_hi && !(w->s_hi = malloc(sizeof(size_t) * (cells + 1))))
        return -1;
    if (!w->ext_lo && !(w->ext_lo = malloc(sizeof(size_t) * (cells + 1) * TE_PATCH_MAX_IN)))
        return -1;
    return 0;
}

int te_patch_overlay_note(te_patch_walk *w, const te_graph *g, int c)
{
    size_t lo, hi, *ext_lo;
    int i, k, j;
    if (c == 0 && (w->ext_ok = note_setup(w, g) == 0 ? 1 : 0) == 0)
        return -1;
    if (!w->ext_ok)
        return -1;
    ext_lo = &w->ext_lo[(size_t)c * TE_PATCH_MAX_IN];
    for (j = 0; j < w->n_ext; j++)
        ext_lo[j] = SIZE_MAX;
    for (i = 0; i < w->n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        for (k = 0; k < op->n_in; k++) {
            for (j = 0; j < w->n_ext && w->ext[j] != op->in[k]; j++)
                ;
            if (j == w->n_ext)
                continue;
            if (k >= TE_PATCH_MAX_IN) { /* no need kept: te_patch_overlay walks */
                w->ext_ok = 0;
                return -1;
            }
            if (w->need[i][k].whole) { /* te_patch_regions' need */
                w->ext_whole[j] = 1;
                continue;
            }
            box_span(&g->tensors[op->in[k]], w->need[i][k].ay, w->need[i][k].ax, w->need[i][k].r,
                     &lo, &hi);
            if (lo < ext_lo[j])
                ext_lo[j] = lo;
        }
    }
    box_span(&g->tensors[w->s], w->ay[w->s], w->ax[w->s], w->region[w->s], &lo, &hi);
    w->s_hi[c] = hi;
    return 0;
}

/* offset_over() from the notes of the last measure (-1: none for x). */
static int offset_noted(const te_patch_walk *w, int x, size_t *offset)
{
    size_t lowest = SIZE_MAX, off = 0;
    int c, j;
    for (j = 0; w->ext_ok && j < w->n_ext && w->ext[j] != x; j++)
        ;
    if (!w->ext_ok || j == w->n_ext)
        return -1;
    if (w->ext_whole[j]) {
        *offset = SIZE_MAX;
        return 0;
    }
    for (c = w->grid_h * w->grid_w - 1; c >= 0; c--) {
        const size_t read_lo = w->ext_lo[(size_t)c * TE_PATCH_MAX_IN + (size_t)j];
        if (read_lo < lowest)
            lowest = read_lo;
        if (lowest != SIZE_MAX && w->s_hi[c] > lowest && w->s_hi[c] - lowest > off)
            off = w->s_hi[c] - lowest;
    }
    *offset = (off + TE_ARENA_ALIGN - 1) & ~(size_t)(TE_ARENA_ALIGN - 1);
    return 0;
}

/* Where x may start in S's place (see the top of the file); SIZE_MAX when
 * the stage reads x whole somewhere or a region cannot be computed. */
static size_t offset_over(te_patch_walk *w, const te_graph *g, int x)
{
    const int cells = w->grid_h * w->grid_w;
    size_t *read_lo = malloc(sizeof(size_t) * (size_t)cells);
    size_t *write_hi = malloc(sizeof(size_t) * (size_t)cells);
    size_t offset = SIZE_MAX, lowest = SIZE_MAX;
    int c, i, k;
    if (!read_lo || !write_hi)
        goto out;
    for (c = 0; c < cells; c++) {
        size_t lo, hi;
        if (te_patch_regions(w, g, c / w->grid_w, c % w->grid_w) < 0)
            goto out;
        read_lo[c] = SIZE_MAX;
        for (i = 0; i < w->n_ops; i++) {
            const te_op *op = &g->ops[w->ops[i]];
            int o = op->out[0];
            for (k = 0; k < op->n_in; k++) {
                te_patch_need need;
                if (op->in[k] != x)
                    continue;
                if (te_patch_input_region(g, op, k, w->comp[o], w->ay[o], w->ax[o], &need) < 0 ||
                    need.whole)
                    goto out;
                box_span(&g->tensors[x], need.ay, need.ax, need.r, &lo, &hi);
                if (lo < read_lo[c])
                    read_lo[c] = lo;
            }
        }
        box_span(&g->tensors[w->s], w->ay[w->s], w->ax[w->s], w->region[w->s], &lo, &hi);
        write_hi[c] = hi;
    }
    offset = 0;
    for (c = cells - 1; c >= 0; c--) { /* lowest: the least byte of x read from patch c on */
        if (read_lo[c] < lowest)
            lowest = read_lo[c];
        if (lowest != SIZE_MAX && write_hi[c] > lowest && write_hi[c] - lowest > offset)
            offset = write_hi[c] - lowest;
    }
    offset = (offset + TE_ARENA_ALIGN - 1) & ~(size_t)(TE_ARENA_ALIGN - 1);
out:
    free(read_lo);
    free(write_hi);
    return offset;
}

int te_patch_overlay_input(const te_patch_walk *w, const te_graph *g)
{
    size_t most = 0;
    int i, k, best = -1;
    for (i = 0; i < w->n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        for (k = 0; k < op->n_in; k++) {
            int x = op->in[k];
            if (x >= 0 && w->produced_by[x] < 0 && read_by_stage_only(w, g, x) &&
                te_tensor_bytes(&g->tensors[x]) > most) {
                most = te_tensor_bytes(&g->tensors[x]);
                best = x;
            }
        }
    }
    return best;
}

void te_patch_overlay(te_patch_walk *w, const te_graph *g, te_patch_plan *p)
{
    size_t best_saving = 0;
    int i, k;
    p->overlay_in = -1;
    p->overlay_offset = 0;
    for (i = 0; i < w->n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        for (k = 0; k < op->n_in; k++) {
            int x = op->in[k];
            size_t xb, sb, off, saving;
            if (x < 0 || w->produced_by[x] >= 0 || x == p->overlay_in ||
                !read_by_stage_only(w, g, x))
                continue;
            xb = te_tensor_bytes(&g->tensors[x]);
            sb = te_tensor_bytes(&g->tensors[w->s]);
            if (offset_noted(w, x, &off) < 0)
                off = offset_over(w, g, x);
            if (off >= sb) /* also SIZE_MAX: no overlay */
                continue;
            saving = xb + sb - (off + xb > sb ? off + xb : sb);
            if (saving > best_saving) {
                best_saving = saving;
                p->overlay_in = x;
                p->overlay_offset = off;
            }
        }
    }
}

/* Calls visit(ctx, byte offset) for every byte of the h x w box at (y, x)
 * of tensor t (height/width axes ay, ax; every other axis whole), in its
 * own layout; stops at the first nonzero return. */
static int each_box_byte(const te_tensor *t, int ay, int ax, int y, int x, int h, int w,
                         int (*visit)(void *, size_t), void *ctx)
{
    size_t es = te_dtype_size(t->type), stride[TE_MAX_RANK], n = 1, i;
    int d, lo[TE_MAX_RANK], cnt[TE_MAX_RANK];
    for (d = t->rank - 1; d >= 0; d--) {
        stride[d] = d == t->rank - 1 ? es : stride[d + 1] * (size_t)t->shape[d + 1];
        lo[d] = d == ay ? y : d == ax ? x : 0;
        cnt[d] = d == ay ? h : d == ax ? w : t->shape[d];
        n *= (size_t)cnt[d];
    }
    for (i = 0; i < n; i++) {
        size_t rest = i, off = 0, b;
        for (d = t->rank - 1; d >= 0; d--) {
            off += (size_t)(lo[d] + (int)(rest % (size_t)cnt[d])) * stride[d];
            rest /= (size_t)cnt[d];
        }
        for (b = 0; b < es; b++)
            if (visit(ctx, off + b))
                return -1;
    }
    return 0;
}

typedef struct {
    unsigned char *written; /* by arena byte */
    size_t base, limit;     /* the tensor's arena offset; the arena's bytes */
} overlay_sim;

static int mark(void *ctx, size_t off)
{
    overlay_sim *s = ctx;
    if (s->base + off >= s->limit)
        return 1;
    s->written[s->base + off] = 1;
    return 0;
}

static int clobbered(void *ctx, size_t off)
{
    const overlay_sim *s = ctx;
    return s->base + off >= s->limit || s->written[s->base + off];
}

int te_patch_overlay_check(const te_graph *dg, const te_plan *p)
{
    const te_patch_plan *pp = dg->patch;
    overlay_sim sim;
    int i, bad = 0;
    if (!pp || pp->overlay_in < 0 || !pp->steps)
        return 0;
    sim.limit = p->arena_bytes;
    sim.written = calloc(sim.limit + 1, 1);
    if (!sim.written)
        return -1;
    for (i = 0; i < pp->n_steps && !bad; i++) {
        const te_patch_step *st = &pp->steps[i];
        if (st->stage != 0) /* the first stage's overlay: its steps alone */
            break;
        if (st->kind == TE_PSTEP_COPY_OUT && st->dst == pp->out_tensor) {
            sim.base = p->place[st->dst].arena_offset;
            bad = each_box_byte(&dg->tensors[st->dst], st->dst_ay, st->dst_ax, st->dst_y,
                                st->dst_x, st->h, st->w, mark, &sim) < 0;
        } else if (st->kind == TE_PSTEP_COPY_IN && st->src == pp->overlay_in) {
            sim.base = p->place[st->src].arena_offset;
            bad = each_box_byte(&dg->tensors[st->src], st->src_ay, st->src_ax, st->src_y,
                                st->src_x, st->h, st->w, clobbered, &sim) < 0;
        }
    }
    free(sim.written);
    return bad ? -1 : 0;
}
