/* patch_analyse.c - decides whether the first K operators can run patch by
 * patch over a grid, and what that costs: each patch's regions (backwards
 * from its cell of S), the working memory of one patch (a small plan of
 * region slots and crop buffers, placed like the arena) and the MACs
 * recomputed in overlaps. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"
#include "patch_internal.h"
#include "patch_walk.h"
#include "plan.h"

int64_t te_op_macs_of(const te_graph *g, const te_op *op)
{
    const te_op_def *def = te_op_find(op->opcode);
    return def && def->macs ? def->macs(g, op) : 0;
}

/* Why a stage is refused, into the walk's buffer (when it has one); -1. */
static int refuse(te_patch_walk *w, const char *fmt, ...)
{
    va_list ap;
    if (w->why) {
        va_start(ap, fmt);
        vsnprintf(w->why, w->why_n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Why op cannot run on a patch (te_patch_op_supported is 0). */
static int refuse_op(te_patch_walk *w, const te_graph *g, const te_op *op)
{
    const te_tensor *out = op->n_out > 0 ? te_out((te_graph *)g, op, 0) : NULL;
    const char *name = te_opcode_name(op->opcode);
    int i;
    if (op->n_out != 1)
        return refuse(w, "op %d %s cannot run on a patch: it has %d outputs",
                      te_op_model_index(op), name, op->n_out);
    if (!out || out->rank != 4)
        return refuse(w, "op %d %s cannot run on a patch: its output is not 4-D",
                      te_op_model_index(op), name);
    for (i = 0; i < op->n_in; i++)
        if (op->in[i] >= 0 && !g->tensors[op->in[i]].data && g->tensors[op->in[i]].rank != 4)
            return refuse(w, "op %d %s cannot run on a patch: input %d is not 4-D",
                          te_op_model_index(op), name, i);
    return refuse(w, "op %d %s cannot run on a patch: it has no region form for these tensors "
                     "(type, kernel or options)", te_op_model_index(op), name);
}

int te_patch_used_after(const te_patch_walk *w, const te_graph *g, int t)
{
    int j, k;
    for (j = 0; j < g->n_outputs; j++)
        if (g->outputs[j] == t)
            return 1;
    for (j = w->ops[w->n_ops - 1] + 1; j < g->n_ops; j++)
        for (k = 0; !g->ops[j].dead && k < g->ops[j].n_in; k++)
            if (g->ops[j].in[k] == t)
                return 1;
    return 0;
}

/* read[t] = te_patch_used_after(w, g, t) for every tensor, in one pass
 * over the operators after the stage; NULL when out of memory. */
static unsigned char *read_after_stage(const te_patch_walk *w, const te_graph *g)
{
    unsigned char *read = calloc((size_t)g->n_tensors + 1, 1);
    int j, k;
    if (!read)
        return NULL;
    for (j = 0; j < g->n_outputs; j++)
        if (g->outputs[j] >= 0 && g->outputs[j] < g->n_tensors)
            read[g->outputs[j]] = 1;
    for (j = w->ops[w->n_ops - 1] + 1; j < g->n_ops; j++)
        for (k = 0; !g->ops[j].dead && k < g->ops[j].n_in; k++)
            if (g->ops[j].in[k] >= 0 && g->ops[j].in[k] < g->n_tensors)
                read[g->ops[j].in[k]] = 1;
    return read;
}

static int find_stage(te_patch_walk *w, const te_graph *g, int first, int n_ops)
{
    unsigned char *read;
    int i, n = 0, live = 0, s;
    for (i = 0; i < g->n_ops && n < n_ops; i++)
        if (!g->ops[i].dead && live++ >= first)
            w->ops[n++] = i;
    if (n < n_ops)
        return refuse(w, "the model has only %d operators", live);
    w->n_ops = n_ops;
    for (i = 0; i < n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        if (!te_patch_op_supported(g, op))
            return refuse_op(w, g, op);
        w->produced_by[op->out[0]] = i;
    }
    /* S: the last operator's output; any other tensor the stage makes that
     * is used after it is a cut tensor too, stored whole */
    s = g->ops[w->ops[n_ops - 1]].out[0];
    read = read_after_stage(w, g);
    for (i = 0; i < g->n_tensors; i++) {
        if (w->produced_by[i] < 0 || i == s || !(read ? read[i] : te_patch_used_after(w, g, i)))
            continue;
        if (w->n_cuts == TE_PATCH_MAX_CUTS) {
            free(read);
            return refuse(w, "more than %d tensors it computes are used after it",
                          TE_PATCH_MAX_CUTS + 1);
        }
        w->cuts[w->n_cuts++] = i;
    }
    free(read);
    if (!te_patch_used_after(w, g, s))
        return refuse(w, "no cut tensor: the output of its last operator (op %d) is not used "
                         "after it", te_op_model_index(&g->ops[w->ops[n_ops - 1]]));
    if (g->tensors[s].type != TE_DT_INT8)
        return refuse(w, "the cut tensor %d is %s, not int8", s,
                      te_dtype_name(g->tensors[s].type));
    if (te_tensor_elems(&g->tensors[s]) == 0) /* (no cell to lay a grid over) */
        return refuse(w, "the cut tensor %d is empty", s);
    w->s = s;
    return 0;
}

/* Height/width axes of every stage tensor, from S's (1, 2) backwards. */
static int find_axes(te_patch_walk *w, const te_graph *g)
{
    int i, k;
    te_region any = {0, 1, 0, 1};
    w->ay[w->s] = 1;
    w->ax[w->s] = 2;
    for (i = w->n_ops - 1; i >= 0; i--) {
        const te_op *op = &g->ops[w->ops[i]];
        int o = op->out[0];
        if (w->ay[o] < 0)
            return refuse(w, "op %d %s: its output's height and width cannot be followed to the "
                             "cut tensor", te_op_model_index(op), te_opcode_name(op->opcode));
        for (k = 0; k < op->n_in; k++) {
            te_patch_need need;
            int t = op->in[k];
            if (t < 0 || g->tensors[t].data)
                continue;
            if (te_patch_input_region(g, op, k, any, w->ay[o], w->ax[o], &need) < 0 && k != 0)
                return refuse(w, "op %d %s cannot run on a patch: its input %d is not read "
                                 "pixel by pixel", te_op_model_index(op),
                              te_opcode_name(op->opcode), k);
            if (w->ay[t] >= 0 && (w->ay[t] != need.ay || w->ax[t] != need.ax))
                return refuse(w, "tensor %d is read along different height/width axes", t);
            w->ay[t] = need.ay;
            w->ax[t] = need.ax;
        }
    }
    return 0;
}

/* The rows of region[o] the current patch computes (comp[o]): with
 * caching, those after the rows the patch before (the cell above, when it
 * was the one before) computed of a cached tensor, when they are whole
 * rows at the end of its region and some rows are left to compute. */
static void compute_rows(te_patch_walk *w, int o, int above, int gx)
{
    te_region r = w->region[o], p;
    w->comp[o] = r;
    if (!above || !w->cached[o])
        return;
    p = w->prev[(size_t)gx * (size_t)w->n_tensors + (size_t)o];
    if (p.x0 == r.x0 && p.x1 == r.x1 && p.y0 <= r.y0 && r.y0 < p.y1 &&
        p.y1 < r.y1)
        w->comp[o].y0 = p.y1;
}

/* Regions every tensor needs for patch (gy, gx). */
int te_patch_regions(te_patch_walk *w, const te_graph *g, int gy, int gx)
{
    const te_tensor *s = &g->tensors[w->s];
    const int above = w->cache && gy > 0 && w->col_gy[gx] == gy - 1;
    int i, k, t;
    for (i = 0; i < w->n_ops; i++) /* every region empty (only the stage's are set) */
        memset(&w->region[g->ops[w->ops[i]].out[0]], 0, sizeof *w->region);
    if (w->cache)
        w->col_gy[gx] = -2; /* until this cell's regions are known */
    w->region[w->s].y0 = gy * s->shape[1] / w->grid_h;
    w->region[w->s].y1 = (gy + 1) * s->shape[1] / w->grid_h;
    w->region[w->s].x0 = gx * s->shape[2] / w->grid_w;
    w->region[w->s].x1 = (gx + 1) * s->shape[2] / w->grid_w;
    if (te_region_empty(w->region[w->s]))
        return -1;
    for (i = w->n_ops - 1; i >= 0; i--) {
        const te_op *op = &g->ops[w->ops[i]];
        int o = op->out[0];
        if (te_region_empty(w->region[o]))
            return -1; /* an operator this cell does not need: not a simple stage */
        compute_rows(w, o, above, gx);
        for (k = 0; k < op->n_in; k++) {
            te_patch_need need;
            t = op->in[k];
            if (t < 0 || g->tensors[t].data)
                continue;
            if (te_patch_input_region(g, op, k, w->comp[o], w->ay[o], w->ax[o], &need) < 0)
                return -1;
            if (k < TE_PATCH_MAX_IN)
                w->need[i][k] = need;
            if (!need.whole && w->produced_by[t] >= 0)
                w->region[t] = te_region_union(w->region[t], need.r);
        }
    }
    if (w->cache) {
        for (i = 0; i < w->n_ops; i++)
            w->prev[(size_t)gx * (size_t)w->n_tensors + (size_t)g->ops[w->ops[i]].out[0]] =
                w->region[g->ops[w->ops[i]].out[0]];
        w->col_gy[gx] = gy;
    }
    return 0;
}

size_t te_patch_region_bytes(const te_graph *g, const te_patch_walk *w, int t, te_region r)
{
    const te_tensor *tt = &g->tensors[t];
    size_t n = te_dtype_size(tt->type);
    int d;
    for (d = 0; d < tt->rank; d++)
        n *= (size_t)(d == w->ay[t] ? r.y1 - r.y0 : d == w->ax[t] ? r.x1 - r.x0 : tt->shape[d]);
    return n;
}

/* Records cut tensor c's region in patch (gy, gx): its rows must be the
 * same along a grid row, its columns along a grid column (boxes; -1 if
 * not).  own_y / own_x hold the regions until cut_owned() turns them into
 * the parts each patch writes. */
static int note_cut_region(te_patch_walk *w, int c, int gy, int gx)
{
    te_region r = w->region[w->cuts[c]];
    int *y = &w->own_y[c][2 * gy], *x = &w->own_x[c][2 * gx];
    if (gx == 0)
        y[0] = r.y0, y[1] = r.y1;
    if (gy == 0)
        x[0] = r.x0, x[1] = r.x1;
    return y[0] == r.y0 && y[1] == r.y1 && x[0] == r.x0 && x[1] == r.x1 ? 0 : -1;
}

/* The ranges [a[2i], a[2i+1]) of n cells, in order, become the part each
 * writes: from where the one before ended to its own end.  -1 unless they
 * leave no gap and end where the extent does. */
static int owned_ranges(int *a, int n, int extent)
{
    int i, done = 0;
    for (i = 0; i < n; i++) {
        if (a[2 * i] > done || a[2 * i + 1] < done)
            return -1;
        a[2 * i] = done;
        done = a[2 * i + 1];
    }
    return done == extent ? 0 : -1;
}

/* The part of every cut tensor each patch writes (own_y, own_x); -1 when
 * the patches' regions of one do not cover it. */
static int cut_owned(te_patch_walk *w, const te_graph *g)
{
    int c;
    for (c = 0; c < w->n_cuts; c++) {
        const te_tensor *t = &g->tensors[w->cuts[c]];
        int cy = w->ay[w->cuts[c]], cx = w->ax[w->cuts[c]];
        if (owned_ranges(w->own_y[c], w->grid_h, t->shape[cy]) < 0 ||
            owned_ranges(w->own_x[c], w->grid_w, t->shape[cx]) < 0)
            return -1;
    }
    return 0;
}

/* Stage op i's clone for the current patch in place (te_patch_inplace_probe):
 * the input every patch's clone may overwrite so far (w->inplace_can) and
 * the largest scratch in place. */
static void probe_inplace(te_patch_walk *w, const te_graph *g, int i, te_patch_grid *gr, int gy,
                          int gx)
{
    const te_op_def *def;
    size_t scratch;
    int k;
    if (w->inplace_can[i] == -1)
        return;
    def = te_op_find(g->ops[w->ops[i]].opcode);
    k = gr ? te_patch_grid_probe(gr, w, g, i, gy, gx, &scratch)
           : te_patch_inplace_probe(w, g, i, &scratch);
    if (w->inplace_can[i] != -2 && w->inplace_can[i] != k)
        k = -1;
    w->inplace_can[i] = k;
    w->inplace_trial[i] = def && def->inplace_on_trial;
    if (scratch > w->inplace_scratch[i])
        w->inplace_scratch[i] = scratch;
}

/* The last stage op (position) reading tensor t. */
static int last_reader(const te_patch_walk *w, const te_graph *g, int t)
{
    int j, k, last = -1;
    for (j = 0; j < w->n_ops; j++)
        for (k = 0; k < g->ops[w->ops[j]].n_in; k++)
            if (g->ops[w->ops[j]].in[k] == t)
                last = j;
    return last;
}

/* Halo caching: the rows cached tensor o takes from the patch before and
 * its widest row (region bytes b) so far: its keep buffer's size. */
static void note_kept_rows(te_patch_walk *w, int o, size_t b)
{
    const int rows = w->comp[o].y0 - w->region[o].y0;
    const size_t row = b / (size_t)(w->region[o].y1 - w->region[o].y0);
    if (rows > w->keep_rows[o])
        w->keep_rows[o] = rows;
    if (row > w->keep_row_bytes[o])
        w->keep_row_bytes[o] = row;
}

static int measure_cells(te_patch_walk *w, const te_graph *g, te_patch_plan *p,
                         te_patch_grid **gr);

/* Slot sizes (max over patches) and patched MACs, one patch at a time;
 * the parts of the cut tensors each patch writes.  Without caching the
 * cells' regions come from their rows and columns (te_patch_grid). */
int te_patch_measure(te_patch_walk *w, const te_graph *g, te_patch_plan *p)
{
    te_patch_grid *gr = NULL;
    int rc = measure_cells(w, g, p, &gr);
    te_patch_grid_free(gr);
    return rc;
}

static int measure_cells(te_patch_walk *w, const te_graph *g, te_patch_plan *p,
                         te_patch_grid **gr)
{
    int gy, gx, i, k, c, n;
    for (c = 0; c < w->n_cuts; c++) {
        if (!w->own_y[c])
            w->own_y[c] = calloc(2 * (size_t)w->grid_h, sizeof(int));
        if (!w->own_x[c])
            w->own_x[c] = calloc(2 * (size_t)w->grid_w, sizeof(int));
        if (!w->own_y[c] || !w->own_x[c])
            return -1;
    }
    for (i = 0; i < w->n_ops; i++) {
        w->inplace_can[i] = -2;
        w->inplace_scratch[i] = 0;
        w->macs[i] = te_op_macs_of(g, &g->ops[w->ops[i]]);
    }
    if (!w->cache && te_patch_grid_new(w, g, gr) < 0)
        return -1;
    for (n = 0; n < w->grid_h * w->grid_w; n++) {
        gy = n / w->grid_w;
        gx = n % w->grid_w;
        if (*gr)
            te_patch_grid_cell(*gr, w, g, gy, gx);
        else if (te_patch_regions(w, g, gy, gx) < 0)
            return -1;
        te_patch_overlay_note(w, g, n); /* when it fails, te_patch_overlay walks */
        for (c = 0; c < w->n_cuts; c++)
            if (note_cut_region(w, c, gy, gx) < 0)
                return -1;
        for (i = 0; i < w->n_ops; i++) {
            const te_op *op = &g->ops[w->ops[i]];
            int o = op->out[0];
            size_t b = te_patch_region_bytes(g, w, o, w->region[o]);
            const te_tensor *ot = &g->tensors[o];
            int64_t area = (int64_t)ot->shape[w->ay[o]] * ot->shape[w->ax[o]];
            int64_t part = (int64_t)(w->comp[o].y1 - w->comp[o].y0) *
                           (w->comp[o].x1 - w->comp[o].x0);
            p->patched_macs += w->macs[i] * part / (area ? area : 1);
            if (b > w->slot_bytes[o])
                w->slot_bytes[o] = b;
            if (w->cache && w->cached[o]) /* the rows kept for the next patch */
                note_kept_rows(w, o, b);
            probe_inplace(w, g, i, *gr, gy, gx);
            for (k = 0; k < op->n_in && k < TE_PATCH_MAX_IN; k++) {
                const te_patch_need need = w->need[i][k]; /* te_patch_regions' */
                int t = op->in[k];
                if (t < 0 || g->tensors[t].data)
                    continue;
                if (need.whole)
                    continue;
                if (w->produced_by[t] < 0 || !te_region_eq(need.r, w->region[t])) {
                    b = te_patch_region_bytes(g, w, t, need.r);
                    if (b > w->crop_bytes[i][k])
                        w->crop_bytes[i][k] = b;
                }
            }
        }
    }
    for (i = 0; i < w->n_ops; i++)
        if (w->inplace_can[i] < 0 || last_reader(w, g, g->ops[w->ops[i]].in[w->inplace_can[i]]) != i ||
            (w->cache && w->cached[g->ops[w->ops[i]].out[0]]))
            w->inplace_can[i] = -1; /* the clone writes its rows after the cached ones */
    return cut_owned(w, g);
}

static void add_micro(te_plan *mp, size_t bytes, int first, int last)
{
    te_buffer *b = &mp->buffers[mp->n_buffers++];
    b->bytes = (bytes + TE_ARENA_ALIGN - 1) & ~(size_t)(TE_ARENA_ALIGN - 1);
    b->first = first;
    b->last = last;
    b->offset = 0;
    b->tensor = -1;
    b->op = -1;
    b->shrink_after = -1;
    b->shrunk_bytes = b->bytes;
}

/* Buffer ids: the slot of op i's output (shared with its input's when op i
 * runs in place), op i's crops and its scratch in place. */
typedef struct {
    int *slot, (*crop)[TE_PATCH_MAX_IN], *scratch, *keep;
    int *last; /* the micro step after which op i's output is read no more */
} micro_ids;

/* The buffers of one patch at micro steps 2i (crops for op i) and 2i+1 (op
 * i itself), with the in-place links of w->inplace_in, placed into mp. */
static void place_micro(const te_patch_walk *w, const te_graph *g, te_plan *mp, micro_ids *id)
{
    int i, k;
    mp->n_buffers = 0;
    mp->n_steps = 2 * w->n_ops;
    for (i = 0; i < w->n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        int o = op->out[0], last = id->last[i];
        if (w->inplace_in[i] >= 0) { /* the input's buffer, for as long as either lives */
            te_buffer *b = &mp->buffers[id->slot[i] = id->slot[w->produced_by[op->in[w->inplace_in[i]]]]];
            size_t bytes = (w->slot_bytes[o] + TE_ARENA_ALIGN - 1) & ~(size_t)(TE_ARENA_ALIGN - 1);
            b->last = last > b->last ? last : b->last;
            b->bytes = bytes > b->bytes ? bytes : b->bytes;
        } else {
            id->slot[i] = mp->n_buffers;
            add_micro(mp, w->slot_bytes[o], 2 * i + 1, last);
        }
        id->keep[i] = -1;
        if (w->cache && w->cached[o] && w->keep_rows[o]) { /* from one patch to the next */
            id->keep[i] = mp->n_buffers;
            add_micro(mp, (size_t)w->keep_rows[o] * w->keep_row_bytes[o] * (size_t)w->grid_w, 0,
                      mp->n_steps - 1);
        }
        for (k = 0; k < op->n_in && k < TE_PATCH_MAX_IN; k++) {
            id->crop[i][k] = mp->n_buffers;
            if (w->crop_bytes[i][k])
                add_micro(mp, w->crop_bytes[i][k], 2 * i, 2 * i + 1);
        }
        id->scratch[i] = -1;
        if (w->inplace_in[i] >= 0 && w->inplace_scratch[i]) {
            id->scratch[i] = mp->n_buffers;
            add_micro(mp, w->inplace_scratch[i], 2 * i + 1, 2 * i + 1);
        }
    }
    te_plan_place(mp);
}

/* mp's buffers and id's arrays for n stage ops, in one zeroed block
 * (mp->buffers'); -1 when out of memory. */
static int micro_arrays(te_plan *mp, micro_ids *id, size_t n)
{
    const size_t nb = te_scratch_bytes(n * (TE_PATCH_MAX_IN + 3) + 1, sizeof *mp->buffers);
    const size_t ni = te_scratch_bytes(n + 1, sizeof(int));
    char *at = calloc(nb + te_scratch_bytes(n + 1, sizeof *id->crop) + 4 * ni, 1);
    if (!at)
        return -1;
    mp->buffers = te_scratch_take(&at, n * (TE_PATCH_MAX_IN + 3) + 1, sizeof *mp->buffers);
    id->crop = te_scratch_take(&at, n + 1, sizeof *id->crop);
    id->slot = te_scratch_take(&at, n + 1, sizeof(int));
    id->keep = te_scratch_take(&at, n + 1, sizeof(int));
    id->scratch = te_scratch_take(&at, n + 1, sizeof(int));
    id->last = te_scratch_take(&at, n + 1, sizeof(int));
    return 0;
}

/* Places the working memory of one patch (place_micro), keeping each
 * in-place link te_patch_measure found that can cost (an output smaller
 * than its input: the merged buffer keeps the larger size for both lives;
 * scratch for the kernel in place; a link only tried) only where it lowers
 * the peak, the others (same size, no scratch) always.  Fills w->inplace_in,
 * slot_off, crop_off and scratch_off; returns the bytes. */
size_t te_patch_micro_plan(te_patch_walk *w, const te_graph *g)
{
    te_plan mp;
    micro_ids id;
    te_plan_scratch ws; /* every placement's working arrays */
    size_t best;
    int i, k;
    memset(&mp, 0, sizeof mp);
    memset(&ws, 0, sizeof ws);
    if (micro_arrays(&mp, &id, (size_t)w->n_ops) < 0)
        return (size_t)-1;
    mp.scratch = &ws;
    for (i = 0; i < w->n_ops; i++) {
        int j = last_reader(w, g, g->ops[w->ops[i]].out[0]);
        id.last[i] = 2 * (j > i ? j : i) + 1;
        w->inplace_in[i] = w->inplace_can[i];
    }
    mp.quick = 1; /* the links are chosen on the quick placement, */
    place_micro(w, g, &mp, &id);
    best = mp.arena_bytes;
    for (i = 0; i < w->n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        if (w->inplace_in[i] < 0 ||
            (!w->inplace_trial[i] && !w->inplace_scratch[i] &&
             w->slot_bytes[op->out[0]] >= w->slot_bytes[op->in[w->inplace_in[i]]]))
            continue; /* same size, no scratch: nothing to lose */
        w->inplace_in[i] = -1;
        place_micro(w, g, &mp, &id);
        if (mp.arena_bytes <= best)
            best = mp.arena_bytes; /* the link saves nothing: run it apart */
        else
            w->inplace_in[i] = w->inplace_can[i];
    }
    mp.quick = 0; /* the slots placed by the full one */
    place_micro(w, g, &mp, &id);
    for (i = 0; i < w->n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        w->slot_off[op->out[0]] = mp.buffers[id.slot[i]].offset;
        for (k = 0; k < op->n_in && k < TE_PATCH_MAX_IN; k++)
            if (w->crop_bytes[i][k])
                w->crop_off[i][k] = mp.buffers[id.crop[i][k]].offset;
        w->scratch_off[i] = id.scratch[i] >= 0 ? mp.buffers[id.scratch[i]].offset : 0;
        w->keep_off[op->out[0]] = id.keep[i] >= 0 ? mp.buffers[id.keep[i]].offset : 0;
    }
    best = mp.arena_bytes;
    free(mp.buffers); /* and id's arrays, in its block */
    te_plan_scratch_free(&ws);
    return best;
}

te_patch_walk *te_patch_walk_new(const te_graph *g, int n_ops, int grid_h, int grid_w)
{
    return te_patch_walk_new_why(g, n_ops, grid_h, grid_w, NULL, 0);
}

int te_patch_stage_reason(const te_graph *g, int n_ops, char *why, size_t n)
{
    te_patch_walk *w;
    if (n)
        why[0] = 0;
    w = te_patch_walk_new_why(g, n_ops, 1, 1, why, n);
    if (!w && n && !why[0])
        snprintf(why, n, "out of memory");
    te_patch_walk_free(w);
    return w ? 0 : -1;
}

te_patch_walk *te_patch_walk_new_why(const te_graph *g, int n_ops, int grid_h, int grid_w,
                                     char *why, size_t why_n)
{
    return te_patch_walk_new_at(g, 0, n_ops, grid_h, grid_w, why, why_n);
}

/* w's arrays by tensor (nt), by stage op (no) and by grid column (gw),
 * carved from one zeroed block (w->block): a search makes thousands of
 * walks.  -1 when out of memory. */
static int walk_arrays(te_patch_walk *w, size_t nt, size_t no, size_t gw)
{
    char *at = NULL;
    size_t total = 0;
    int pass;
#define TAKE(field, n)                                                                             \
    (field = (void *)(at ? at + total : NULL), total += ((n) * sizeof *(field) + 15) & ~(size_t)15)
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1 && !(w->block = at = calloc(total, 1)))
            return -1;
        total = 0;
        TAKE(w->keep_row_bytes, nt);
        TAKE(w->keep_off, nt);
        TAKE(w->slot_bytes, nt);
        TAKE(w->slot_off, nt);
        TAKE(w->crop_bytes, no);
        TAKE(w->crop_off, no);
        TAKE(w->inplace_scratch, no);
        TAKE(w->scratch_off, no);
        TAKE(w->macs, no);
        TAKE(w->region, nt);
        TAKE(w->comp, nt);
        TAKE(w->need, no);
        TAKE(w->keep_rows, nt);
        TAKE(w->ay, nt);
        TAKE(w->ax, nt);
        TAKE(w->produced_by, nt);
        TAKE(w->ops, no);
        TAKE(w->inplace_can, no);
        TAKE(w->inplace_trial, no);
        TAKE(w->inplace_in, no);
        TAKE(w->col_gy, gw);
        TAKE(w->cached, nt);
    }
#undef TAKE
    return 0;
}

/* Live operators the schedule starts with that no patch can run: a view
 * of a flat network input as the image (an aliased RESHAPE: no bytes
 * move), a QUANTIZE of that flat input, ...  A first stage starts after
 * them and reads their outputs whole, as it reads the input. */
static int leading_unpatchable(const te_graph *g)
{
    int i, n = 0;
    for (i = 0; i < g->n_ops; i++) {
        if (g->ops[i].dead)
            continue;
        if (te_patch_op_supported(g, &g->ops[i]))
            break;
        n++;
    }
    return n;
}

void te_patch_skip_head(const te_graph *g, int *first, int *n_ops)
{
    int head = *first == 0 ? leading_unpatchable(g) : 0;
    if (head > 0 && head < *n_ops) {
        *first = head;
        *n_ops -= head;
    }
}

te_patch_walk *te_patch_walk_new_at(const te_graph *g, int first, int n_ops, int grid_h,
                                    int grid_w, char *why, size_t why_n)
{
    te_patch_walk *w = calloc(1, sizeof *w);
    int t;
    if (!w)
        return NULL;
    te_patch_skip_head(g, &first, &n_ops);
    if (walk_arrays(w, (size_t)g->n_tensors + 1, (size_t)n_ops + 1,
                    (size_t)(grid_w > 0 ? grid_w : 1)) < 0) {
        te_patch_walk_free(w);
        return NULL;
    }
    for (t = 0; t < n_ops; t++)
        w->inplace_can[t] = w->inplace_in[t] = -1;
    w->n_tensors = g->n_tensors;
    for (t = 0; t < g->n_tensors; t++)
        w->ay[t] = w->ax[t] = w->produced_by[t] = -1;
    w->grid_h = grid_h;
    w->grid_w = grid_w;
    w->why = why;
    w->why_n = why_n;
    w->first = first;
    if (find_stage(w, g, first, n_ops) < 0 || find_axes(w, g) < 0) {
        te_patch_walk_free(w);
        return NULL;
    }
    return w;
}

void te_patch_walk_free(te_patch_walk *w)
{
    int c;
    if (!w)
        return;
    free(w->block);
    free(w->prev);
    free(w->ext_lo);
    free(w->s_hi);
    te_patch_probe_free(w);
    for (c = 0; c < TE_PATCH_MAX_CUTS; c++) {
        free(w->own_y[c]);
        free(w->own_x[c]);
    }
    free(w);
}

te_patch_plan *te_patch_analyse(const te_graph *g, int n_ops, int grid_h, int grid_w, te_diag *d)
{
    return te_patch_analyse_at(g, 0, n_ops, grid_h, grid_w, d);
}

/* "the first 5 operators" or "the 5 operators from step 12" (a stage's words). */
static const char *stage_words(char *buf, size_t n, int first, int n_ops)
{
    if (first)
        snprintf(buf, n, "the %d operators from step %d", n_ops, first);
    else
        snprintf(buf, n, "the first %d operators", n_ops);
    return buf;
}

te_patch_plan *te_patch_analyse_at(const te_graph *g, int first, int n_ops, int grid_h,
                                   int grid_w, te_diag *d)
{
    return te_patch_analyse_cache(g, first, n_ops, grid_h, grid_w, 0, d);
}

/* te_patch_analyse_cache, its walks sharing the probe answers of seen
 * (NULL: their own). */
static te_patch_plan *analyse(const te_graph *g, int first, int n_ops, int grid_h, int grid_w,
                              int cache, te_diag *d, struct te_probe_seen *seen)
{
    char why[256] = "", words[64];
    te_patch_walk *w;
    te_patch_plan *p;
    int i, first_stage;
    if (n_ops < 1 || grid_h < 1 || grid_w < 1 || grid_h * grid_w < 2) {
        if (d)
            te_fail(d, "--patch: need at least 1 operator and 2 cells");
        return NULL;
    }
    stage_words(words, sizeof words, first, n_ops);
    /* the first stage: from 0 (its head then skipped), or from after its head
     * (a plan of it analysed again: the search's coarser grids) */
    first_stage = first == 0 || first == leading_unpatchable(g);
    te_patch_skip_head(g, &first, &n_ops);
    w = te_patch_walk_new_at(g, first, n_ops, grid_h, grid_w, why, d ? sizeof why : 0);
    if (w && seen) {
        w->probe_seen = seen;
        w->probe_shared = 1;
    }
    p = calloc(1, sizeof *p);
    if (!w || !p || grid_h > g->tensors[w->s].shape[1] || grid_w > g->tensors[w->s].shape[2]) {
        if (d && !w && why[0])
            te_fail(d, "--patch: %s cannot run patch by patch: %s", words, why);
        else if (d && w && p)
            te_fail(d, "--patch: a %dx%d grid is finer than the output of %s (%dx%d)", grid_h,
                    grid_w, words, g->tensors[w->s].shape[1], g->tensors[w->s].shape[2]);
        else if (d)
            te_fail(d, "out of memory");
        te_patch_walk_free(w);
        free(p);
        return NULL;
    }
    p->first = first;
    p->n_ops = n_ops;
    p->grid_h = grid_h;
    p->grid_w = grid_w;
    p->out_tensor = w->s;
    p->n_cuts = w->n_cuts;
    memcpy(p->cuts, w->cuts, sizeof p->cuts);
    for (i = 0; i < n_ops; i++)
        p->stage_macs += te_op_macs_of(g, &g->ops[w->ops[i]]);
    if (cache && !(w = te_patch_cache_measure(w, g, p, cache))) {
        if (d)
            te_fail(d, "--patch: %s in %dx%d patches cannot cache halos (%s)", words, grid_h,
                    grid_w, grid_h < 2 ? "one row of cells" : "no intermediate tensor qualifies");
        free(p);
        return NULL;
    }
    if (!cache && (te_patch_measure(w, g, p) < 0 ||
                   (p->scratch_bytes = te_patch_micro_plan(w, g)) == (size_t)-1)) {
        if (d)
            te_fail(d, "--patch: a %dx%d grid is too fine for %s", grid_h, grid_w, words);
        te_patch_walk_free(w);
        free(p);
        return NULL;
    }
    if (first_stage)
        te_patch_overlay(w, g, p);
    else
        p->overlay_in = -1; /* only the first stage overlays the network input */
    te_patch_walk_free(w);
    return p;
}

te_patch_plan *te_patch_analyse_cache(const te_graph *g, int first, int n_ops, int grid_h,
                                      int grid_w, int cache, te_diag *d)
{
    return analyse(g, first, n_ops, grid_h, grid_w, cache, d, NULL);
}

te_patch_plan *te_patch_analyse_seen(const te_graph *g, int first, int n_ops, int grid_h,
                                     int grid_w, int cache, struct te_probe_seen *seen)
{
    return analyse(g, first, n_ops, grid_h, grid_w, cache, NULL, seen);
}
