/* patch_grid.c - a grid's regions by rows and columns.  Every receptive
 * field is taken axis by axis (te_patch_input_region: a window per axis,
 * element-wise, a whole broadcast operand, each op's patch_remap), so the
 * rows of a patch's region of any stage tensor depend only on its grid row
 * and the columns only on its grid column.  Without halo caching
 * te_patch_measure then works out the regions of the cells of the first
 * column (every grid row's rows) and of the first row (every grid column's
 * columns) and composes each cell from them; and since an in-place probe's
 * key is made of a row part and a column part, two cells whose rows and
 * columns give the same parts for an operator share its answer: the grid
 * probes each operator once per pair of classes, not once per cell. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "patch_walk.h"

/* The ints of one operator's row (or column) part of its probe key: its
 * output's extent, for a remap where the output and input 0 start, and per
 * input the extent, padding, whether it is the slot's region and whole. */
#define SIG_INTS (3 + 5 * TE_PATCH_MAX_IN)

/* One axis of the grid: per line (grid row or column) and stage op, its
 * output's region and its inputs' needs (only this axis's part is used),
 * and the first line whose key part is the same (its class). */
typedef struct {
    int n;
    te_region *reg;     /* [line * n_ops + i] */
    te_patch_need *need; /* [(line * n_ops + i) * TE_PATCH_MAX_IN + k] */
    int *sig;           /* [(line * n_ops + i) * SIG_INTS] */
    int *rep;           /* [line * n_ops + i] */
} grid_axis;

/* The grid and all its arrays are one block (a search analyses thousands
 * of grids); each entry is written before it is read (note_line every
 * line, te_patch_grid_probe a class's scratch with its answer). */
struct te_patch_grid {
    int n_ops;
    grid_axis y, x;
    int *k;          /* [(class cell) * n_ops + i]: the probe's answer, INT_MIN: not yet */
    size_t *scratch; /* its scratch */
};

/* Bytes of the arrays of an axis of n lines. */
static size_t axis_bytes(int n, int n_ops)
{
    const size_t m = (size_t)n * (size_t)n_ops + 1;
    return m * (sizeof(te_region) + TE_PATCH_MAX_IN * sizeof(te_patch_need) +
                SIG_INTS * sizeof(int) + sizeof(int));
}

/* Axis a's arrays for n lines from *at (then past them). */
static void axis_take(grid_axis *a, int n, int n_ops, char **at)
{
    const size_t m = (size_t)n * (size_t)n_ops + 1;
    a->n = n;
    a->need = (te_patch_need *)(void *)*at;
    *at += m * TE_PATCH_MAX_IN * sizeof *a->need;
    a->reg = (te_region *)(void *)*at;
    *at += m * sizeof *a->reg;
    a->sig = (int *)(void *)*at;
    *at += m * SIG_INTS * sizeof *a->sig;
    a->rep = (int *)(void *)*at;
    *at += m * sizeof *a->rep;
}

void te_patch_grid_free(te_patch_grid *gr) { free(gr); }

/* lo / hi of region r along axis x (0: rows, 1: columns). */
static int lo_of(te_region r, int x) { return x ? r.x0 : r.y0; }
static int hi_of(te_region r, int x) { return x ? r.x1 : r.y1; }

/* Op i's part of its probe key along axis x for the cell w holds (see
 * probe_key in patch_inplace.c: sizes, a remap's places, padding, and
 * whether an input is read as its slot's region). */
static void key_part(const te_patch_walk *w, const te_graph *g, int i, int x, int *sig)
{
    const te_op *op = &g->ops[w->ops[i]];
    const te_region r = w->region[op->out[0]];
    int k, n = 0;
    memset(sig, 0, sizeof(int) * SIG_INTS);
    sig[n++] = hi_of(r, x) - lo_of(r, x);
    if (te_patch_kind_of(g, op) == TE_PATCH_REMAP) {
        sig[n++] = lo_of(w->comp[op->out[0]], x);
        sig[n++] = lo_of(w->need[i][te_patch_remap_input(g, op)].r, x);
    } else {
        n += 2;
    }
    for (k = 0; k < op->n_in && k < TE_PATCH_MAX_IN; k++, n += 5) {
        const te_patch_need *nd = &w->need[i][k];
        const int t = op->in[k];
        if (t < 0 || g->tensors[t].data)
            continue;
        sig[n] = hi_of(nd->r, x) - lo_of(nd->r, x);
        sig[n + 1] = nd->pad[2 * x];
        sig[n + 2] = nd->pad[2 * x + 1];
        sig[n + 3] = lo_of(nd->r, x) == lo_of(w->region[t], x) &&
                     hi_of(nd->r, x) == hi_of(w->region[t], x);
        sig[n + 4] = nd->whole;
    }
}

/* 1 if two key parts are the same (a loop from the extents, where most
 * lines differ: memcmp under AddressSanitizer checks both ranges first). */
static int same_sig(const int *a, const int *b)
{
    int n;
    for (n = 0; n < SIG_INTS && a[n] == b[n]; n++)
        ;
    return n == SIG_INTS;
}

/* Records line l of axis a (x: 0 rows, 1 columns) from the cell w holds. */
static void note_line(grid_axis *a, const te_patch_walk *w, const te_graph *g, int l, int x)
{
    int i, m, k;
    for (i = 0; i < w->n_ops; i++) {
        const size_t j = (size_t)l * (size_t)w->n_ops + (size_t)i;
        a->reg[j] = w->region[g->ops[w->ops[i]].out[0]];
        for (k = 0; k < TE_PATCH_MAX_IN; k++) /* not memcpy: ASan's checks the ranges first */
            a->need[j * TE_PATCH_MAX_IN + (size_t)k] = w->need[i][k];
        key_part(w, g, i, x, &a->sig[j * SIG_INTS]);
        a->rep[j] = l;
        for (m = 0; m < l; m++)
            if (same_sig(&a->sig[((size_t)m * (size_t)w->n_ops + (size_t)i) * SIG_INTS],
                         &a->sig[j * SIG_INTS])) {
                a->rep[j] = m;
                break;
            }
    }
}

int te_patch_grid_new(te_patch_walk *w, const te_graph *g, te_patch_grid **out)
{
    const size_t cells = (size_t)w->grid_h * (size_t)w->grid_w * (size_t)w->n_ops + 1;
    const size_t head = (sizeof(te_patch_grid) + 15) & ~(size_t)15;
    te_patch_grid *gr = malloc(head + cells * (sizeof(size_t) + sizeof(int)) +
                               axis_bytes(w->grid_h, w->n_ops) + axis_bytes(w->grid_w, w->n_ops));
    char *at = (char *)gr + head;
    size_t c;
    int l;
    *out = NULL;
    if (!gr)
        return 0; /* out of memory: the caller goes cell by cell */
    gr->scratch = (size_t *)(void *)at;
    at += cells * sizeof *gr->scratch;
    axis_take(&gr->y, w->grid_h, w->n_ops, &at);
    axis_take(&gr->x, w->grid_w, w->n_ops, &at);
    gr->k = (int *)(void *)at;
    gr->n_ops = w->n_ops;
    for (c = 0; c < cells; c++)
        gr->k[c] = INT_MIN;
    /* a cell fails exactly when its row or its column does */
    for (l = 0; l < w->grid_h; l++) {
        if (te_patch_regions(w, g, l, 0) < 0) {
            te_patch_grid_free(gr);
            return -1;
        }
        note_line(&gr->y, w, g, l, 0);
    }
    for (l = 0; l < w->grid_w; l++) {
        if (te_patch_regions(w, g, 0, l) < 0) {
            te_patch_grid_free(gr);
            return -1;
        }
        note_line(&gr->x, w, g, l, 1);
    }
    *out = gr;
    return 0;
}

void te_patch_grid_cell(const te_patch_grid *gr, te_patch_walk *w, const te_graph *g, int gy,
                        int gx)
{
    int i, k;
    for (i = 0; i < w->n_ops; i++) {
        const te_op *op = &g->ops[w->ops[i]];
        const size_t jy = (size_t)gy * (size_t)gr->n_ops + (size_t)i;
        const size_t jx = (size_t)gx * (size_t)gr->n_ops + (size_t)i;
        te_region *r = &w->region[op->out[0]];
        r->y0 = gr->y.reg[jy].y0;
        r->y1 = gr->y.reg[jy].y1;
        r->x0 = gr->x.reg[jx].x0;
        r->x1 = gr->x.reg[jx].x1;
        w->comp[op->out[0]] = *r; /* no caching: every row computed */
        for (k = 0; k < op->n_in && k < TE_PATCH_MAX_IN; k++) {
            /* the needs te_patch_regions sets: the inputs not constant
             * (axes and wholeness are the same in every cell) */
            const te_patch_need *ny = &gr->y.need[jy * TE_PATCH_MAX_IN + (size_t)k];
            const te_patch_need *nx = &gr->x.need[jx * TE_PATCH_MAX_IN + (size_t)k];
            te_patch_need *n = &w->need[i][k];
            if (op->in[k] < 0 || g->tensors[op->in[k]].data)
                continue;
            n->r.y0 = ny->r.y0;
            n->r.y1 = ny->r.y1;
            n->r.x0 = nx->r.x0;
            n->r.x1 = nx->r.x1;
            n->pad[0] = ny->pad[0];
            n->pad[1] = ny->pad[1];
            n->pad[2] = nx->pad[2];
            n->pad[3] = nx->pad[3];
            n->ay = ny->ay;
            n->ax = ny->ax;
            n->whole = ny->whole;
        }
    }
}

int te_patch_grid_probe(te_patch_grid *gr, te_patch_walk *w, const te_graph *g, int i, int gy,
                        int gx, size_t *scratch)
{
    const int ry = gr->y.rep[(size_t)gy * (size_t)gr->n_ops + (size_t)i];
    const int cx = gr->x.rep[(size_t)gx * (size_t)gr->n_ops + (size_t)i];
    const size_t j = ((size_t)ry * (size_t)w->grid_w + (size_t)cx) * (size_t)gr->n_ops + (size_t)i;
    if (gr->k[j] == INT_MIN) /* the first cell of its class: the same key as this one */
        gr->k[j] = te_patch_inplace_probe(w, g, i, &gr->scratch[j]);
    *scratch = gr->scratch[j];
    return gr->k[j];
}
