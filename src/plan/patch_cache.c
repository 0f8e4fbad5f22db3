/* patch_cache.c - halo caching of a patch stage (te_patch_plan.cache): a
 * patch's region of an intermediate tensor shares rows with that tensor's
 * region in the patch of the cell above (same column band, so the same
 * columns: whole rows, at the end of the one above's).  Those rows are
 * kept: after the producing clone, a copy saves the last rows of the region
 * into the column's part of a keep buffer (a line buffer, live through the
 * whole patch); in the patch below a copy puts them at the front of the
 * region buffer and the clone computes only the rows after them
 * (te_patch_walk.comp, written at a byte offset in the same slot), so the
 * operators before it are asked for less too (patch_analyse.c,
 * patch_build.c).  The patches still run in raster order.
 *
 * A tensor is cached only where that is simple: made by a window or
 * pointwise operator of the stage, read by exactly one operator of it
 * (once, pixel by pixel, so never through a crop), neither S nor a cut
 * tensor, rows contiguous in its region (every axis before the height
 * axis of size 1).  Elsewhere the stage recomputes as without caching.
 * TE_PATCH_CACHE_LEAN caches only as many as leave the patch's working
 * memory no larger than without caching. */
#include <stdlib.h>

#include "patch_internal.h"
#include "patch_walk.h"

/* 1 if stage tensor t (made by stage op at position i) can keep rows. */
static int cacheable(const te_patch_walk *w, const te_graph *g, int i, int t)
{
    const te_op *op = &g->ops[w->ops[i]];
    const te_tensor *tt = &g->tensors[t];
    te_patch_kind kind = te_patch_kind_of(g, op);
    int c, d, j, k, reads = 0;
    if (t == w->s || w->ay[t] < 0 || w->ax[t] <= w->ay[t] ||
        (kind != TE_PATCH_WINDOW && kind != TE_PATCH_POINTWISE))
        return 0;
    for (c = 0; c < w->n_cuts; c++)
        if (w->cuts[c] == t)
            return 0;
    for (d = 0; d < w->ay[t]; d++)
        if (tt->shape[d] != 1)
            return 0;
    for (j = 0; j < w->n_ops; j++)
        for (k = 0; k < g->ops[w->ops[j]].n_in; k++)
            if (g->ops[w->ops[j]].in[k] == t) {
                te_patch_need need;
                te_region any = {0, 1, 0, 1};
                const te_op *r = &g->ops[w->ops[j]];
                int o = r->out[0];
                if (te_patch_input_region(g, r, k, any, w->ay[o], w->ax[o], &need) < 0 ||
                    need.whole)
                    return 0;
                reads++;
            }
    return reads == 1;
}

/* 1 if tensor t is on p's list of cached tensors. */
static int listed(const te_patch_plan *p, int t)
{
    int c;
    for (c = 0; c < p->n_cached; c++)
        if (p->cached[c] == t)
            return 1;
    return 0;
}

int te_patch_cache_setup(te_patch_walk *w, const te_graph *g, const te_patch_plan *p)
{
    int i, n = 0;
    if (w->grid_h < 2)
        return -1;
    if (!w->prev && !(w->prev = calloc(((size_t)w->n_tensors + 1) * (size_t)w->grid_w,
                                       sizeof *w->prev)))
        return -1; /* out of memory: not cached */
    w->cache = 1;
    for (i = 0; i < w->n_ops; i++) {
        int t = g->ops[w->ops[i]].out[0];
        w->cached[t] = (unsigned char)(cacheable(w, g, i, t) && (!p || !p->n_cached || listed(p, t)) &&
                                       n < TE_PATCH_MAX_CACHED);
        n += w->cached[t];
    }
    for (i = 0; i < w->grid_w; i++)
        w->col_gy[i] = -2;
    return n ? 0 : -1;
}

/* Measures w into p (MACs, scratch: the micro plan); -1 when it cannot. */
static int measure(te_patch_walk *w, const te_graph *g, te_patch_plan *p)
{
    p->patched_macs = 0;
    if (te_patch_measure(w, g, p) < 0)
        return -1;
    p->scratch_bytes = te_patch_micro_plan(w, g);
    return p->scratch_bytes == (size_t)-1 ? -1 : 0;
}

/* p's list: the tensors w caches (p->cache: level, or 0 if none). */
static void list_cached(const te_patch_walk *w, const te_graph *g, te_patch_plan *p, int level)
{
    int i;
    p->n_cached = 0;
    for (i = 0; i < w->n_ops; i++)
        if (w->cached[g->ops[w->ops[i]].out[0]])
            p->cached[p->n_cached++] = g->ops[w->ops[i]].out[0];
    p->cache = p->n_cached > 0 ? level : 0;
}

/* Drops from p's list (w's cached tensors) the one with the largest
 * slot. */
static void drop_largest(const te_patch_walk *w, const te_graph *g, te_patch_plan *p, int level)
{
    int c, big = 0, n = 0;
    list_cached(w, g, p, level);
    for (c = 1; c < p->n_cached; c++)
        if (w->slot_bytes[p->cached[c]] > w->slot_bytes[p->cached[big]])
            big = c;
    for (c = 0; c < p->n_cached; c++)
        if (c != big)
            p->cached[n++] = p->cached[c];
    p->n_cached = n;
}

/* w sharing the probe answers of seen (when not NULL). */
static te_patch_walk *share(te_patch_walk *w, struct te_probe_seen *seen)
{
    if (w && seen) {
        w->probe_seen = seen;
        w->probe_shared = 1;
    }
    return w;
}

te_patch_walk *te_patch_cache_measure(te_patch_walk *w, const te_graph *g, te_patch_plan *p,
                                      int level)
{
    struct te_probe_seen *seen = w->probe_shared ? w->probe_seen : NULL;
    size_t plain = 0;
    p->n_cached = 0;
    if (level == TE_PATCH_CACHE_LEAN) { /* the scratch without caching: the bound */
        if (measure(w, g, p) < 0)
            goto fail;
        plain = p->scratch_bytes;
        te_patch_walk_free(w);
        w = share(te_patch_walk_new_at(g, p->first, p->n_ops, p->grid_h, p->grid_w, NULL, 0),
                  seen);
    }
    if (!w || te_patch_cache_setup(w, g, NULL) < 0 || measure(w, g, p) < 0)
        goto fail;
    while (level == TE_PATCH_CACHE_LEAN && p->scratch_bytes > plain) {
        drop_largest(w, g, p, level); /* computed again from now on */
        te_patch_walk_free(w);
        w = NULL;
        if (!p->n_cached)
            goto fail;
        w = share(te_patch_walk_new_at(g, p->first, p->n_ops, p->grid_h, p->grid_w, NULL, 0),
                  seen);
        if (!w || te_patch_cache_setup(w, g, p) < 0 || measure(w, g, p) < 0)
            goto fail;
    }
    list_cached(w, g, p, level);
    return w;
fail:
    te_patch_walk_free(w);
    p->n_cached = 0;
    return NULL;
}
