/* patch_walk.h - the working state of one patch-stage analysis: the stage's
 * operators, every tensor's axes and current region, slot sizes and the
 * offsets the micro plan gave them. */
#ifndef TE_PATCH_WALK_H
#define TE_PATCH_WALK_H

#include "patch_internal.h"

#define TE_PATCH_MAX_IN 4

typedef struct {
    int *ops, n_ops;          /* op indices of the stage, in order */
    int first;                /* schedule position of ops[0] */
    int s;                    /* the stage output S */
    int n_cuts, cuts[TE_PATCH_MAX_CUTS]; /* the other cut tensors (patch.h) */
    /* per cut tensor c: the rows [own_y[c][2 gy], own_y[c][2 gy + 1]) and
     * columns (own_x, by gx) that patch (gy, gx) writes of it: the part of
     * its region the patches before it did not (te_patch_measure) */
    int *own_y[TE_PATCH_MAX_CUTS], *own_x[TE_PATCH_MAX_CUTS];
    int n_tensors;            /* tensors when the walk began (arrays' size) */
    int grid_h, grid_w;
    int *produced_by;         /* tensor -> position in ops, or -1 (external/const) */
    int *ay, *ax;             /* tensor -> height / width axis, -1 if not in stage */
    te_region *region;        /* tensor -> region for the current patch */
    te_patch_need (*need)[TE_PATCH_MAX_IN]; /* [op][input]: what input k of stage op i
                               * needs for comp[out] in the current patch
                               * (te_patch_regions; non-constant inputs only) */
    int64_t *macs;            /* per stage op: its MACs layer by layer (te_patch_measure) */
    /* halo caching (te_patch_plan.cache): cached[t] says tensor t keeps
     * the rows it shares with the patch of the cell above; comp[t] the
     * rows of region[t] the patch computes (its last rows; the whole
     * region when nothing is cached); prev[gx * n_tensors + t] region[t]
     * in the last patch of column gx so far (allocated by
     * te_patch_cache_setup), col_gy[gx] that patch's row */
    int cache;
    unsigned char *cached;
    te_region *comp, *prev;
    int *col_gy;
    /* per cached tensor: the most rows a patch takes from the cell above
     * (keep_rows; 0: none ever), its widest row, and the offset in the
     * stage scratch of its keep buffer, which carries those rows from a
     * patch to the one below: keep_rows x keep_row_bytes per column of
     * the grid, live through the whole patch (a line buffer) */
    int *keep_rows;
    size_t *keep_row_bytes, *keep_off;
    size_t *slot_bytes;       /* tensor -> largest region (bytes) over patches */
    size_t *slot_off;         /* tensor -> offset in the stage scratch */
    size_t (*crop_bytes)[TE_PATCH_MAX_IN]; /* [op][input] crop buffer size, 0 = none */
    size_t (*crop_off)[TE_PATCH_MAX_IN];
    /* in place (patch_inplace.c), per stage op: the input every patch's
     * clone may overwrite (te_patch_measure; -1 none, -2 not probed yet),
     * whether that link is only tried (te_op_def.inplace_on_trial), the
     * largest scratch of its clones in place; the micro plan's decision
     * (inplace_in: the input its clones overwrite, or -1) and the offset
     * of that scratch in the stage scratch */
    int *inplace_can, *inplace_trial, *inplace_in;
    size_t *inplace_scratch, *scratch_off;
    te_graph *probe;          /* the graph with room for one clone's region
                               * tensors (te_patch_inplace_probe), or NULL */
    struct te_storage *probe_st; /* its storage decisions (one link at a time) */
    struct te_probe_seen *probe_seen; /* per operator, the probes' answers by the
                                       * clone's shapes (patch_inplace.c), or NULL */
    int probe_shared;         /* 1: probe_seen is not the walk's (te_patch_memo's) */
    /* the overlay's view of the last measure (patch_overlay.c), per cell:
     * the end of its cell of S and, for each of the stage's first
     * TE_PATCH_MAX_IN tensors read from outside (ext), the lowest byte it
     * reads of it (SIZE_MAX: none); ext_whole: read whole somewhere */
    int n_ext, ext[TE_PATCH_MAX_IN], ext_whole[TE_PATCH_MAX_IN], ext_ok;
    size_t *ext_lo, *s_hi;
    char *why;                /* NULL, or where to say why the stage is refused */
    size_t why_n;
    void *block;              /* the arrays by tensor and by stage op above, in
                               * one zeroed block (te_patch_walk_new_at) */
} te_patch_walk;

te_patch_walk *te_patch_walk_new(const te_graph *g, int n_ops, int grid_h, int grid_w);
/* 1 if tensor t is a network output or read by an operator after the
 * stage. */
int te_patch_used_after(const te_patch_walk *w, const te_graph *g, int t);
/* The same, saying in why[why_n] why the stage is refused when it is. */
te_patch_walk *te_patch_walk_new_why(const te_graph *g, int n_ops, int grid_h, int grid_w,
                                     char *why, size_t why_n);
/* "The first n_ops operators" (*first 0) as a stage: after the live
 * operators the schedule starts with that no patch can run (a RESHAPE of
 * a flat input to the image, a QUANTIZE of it), when it holds more than
 * them (*first, *n_ops moved); the stage reads their outputs whole, as it
 * reads the input.  te_patch_walk_new_at and te_patch_analyse_at call it. */
void te_patch_skip_head(const te_graph *g, int *first, int *n_ops);
/* The stage of the n_ops live operators from schedule position first. */
te_patch_walk *te_patch_walk_new_at(const te_graph *g, int first, int n_ops, int grid_h,
                                    int grid_w, char *why, size_t why_n);
void te_patch_walk_free(te_patch_walk *w);
/* Regions (region, comp) every tensor needs for patch (gy, gx); with
 * caching, called for the cells in the order they run (raster order). */
int te_patch_regions(te_patch_walk *w, const te_graph *g, int gy, int gx);
/* Turns caching on for w: marks the tensors that can keep rows (cached),
 * only those of p's list when p has one (p may be NULL); -1 when none can
 * or the grid has one row. */
int te_patch_cache_setup(te_patch_walk *w, const te_graph *g, const te_patch_plan *p);
/* Measures stage w (made, not measured; taken over) into p with halo
 * caching `level` (TE_PATCH_CACHE_*): p's scratch, MACs and cached list;
 * returns the walk measured (w or a new one), NULL when nothing can be
 * cached (or, lean, not within the scratch of no caching). */
te_patch_walk *te_patch_cache_measure(te_patch_walk *w, const te_graph *g, te_patch_plan *p,
                                      int level);
/* A grid's regions by rows and columns (patch_grid.c), for a walk without
 * halo caching. */
typedef struct te_patch_grid te_patch_grid;
/* Works out every grid row's and column's regions into *out: -1 when a
 * cell's regions cannot be computed (te_patch_regions), 0 otherwise
 * (*out NULL when out of memory: then go cell by cell). */
int te_patch_grid_new(te_patch_walk *w, const te_graph *g, te_patch_grid **out);
void te_patch_grid_free(te_patch_grid *gr);
/* Sets w's regions, comp and needs for cell (gy, gx), as te_patch_regions. */
void te_patch_grid_cell(const te_patch_grid *gr, te_patch_walk *w, const te_graph *g, int gy,
                        int gx);
/* te_patch_inplace_probe for stage op i in cell (gy, gx), w holding that
 * cell: asked once per class of cells with the same probe key. */
int te_patch_grid_probe(te_patch_grid *gr, te_patch_walk *w, const te_graph *g, int i, int gy,
                        int gx, size_t *scratch);
size_t te_patch_region_bytes(const te_graph *g, const te_patch_walk *w, int t, te_region r);
int te_patch_measure(te_patch_walk *w, const te_graph *g, te_patch_plan *p);
size_t te_patch_micro_plan(te_patch_walk *w, const te_graph *g);
int64_t te_op_macs_of(const te_graph *g, const te_op *op);
/* The clone c of stage op `op` on its region tensors: its explicit padding
 * or its place in the whole tensors (patch_build.c); need: what each input
 * of op needs (need[k] for input k). */
void te_patch_clone_options(const te_graph *g, const te_patch_walk *w, const te_op *op,
                            const te_patch_need *need, te_op *c);
/* Which input the clone of stage op i for the current patch (w->region)
 * may overwrite in place: the op's own rule (te_op_def.inplace_input) on
 * the clone's shapes, an input the stage computes, read whole from its
 * region (no crop), no smaller than the output; -1 when none.  *scratch:
 * the scratch its lowering in place takes (patch_inplace.c). */
int te_patch_inplace_probe(te_patch_walk *w, const te_graph *g, int i, size_t *scratch);
void te_patch_probe_free(te_patch_walk *w);
/* A store of probe answers for walks on one graph to share (te_patch_memo
 * keeps one): a walk given it (probe_seen, probe_shared) does not free it. */
struct te_probe_seen *te_probe_seen_new(void);
void te_probe_seen_free(struct te_probe_seen *s);
/* te_patch_analyse_cache(g, first, n_ops, grid_h, grid_w, cache, NULL),
 * its walks sharing the probe answers of seen (may be NULL). */
te_patch_plan *te_patch_analyse_seen(const te_graph *g, int first, int n_ops, int grid_h,
                                     int grid_w, int cache, struct te_probe_seen *seen);
/* Sets p->overlay_in / overlay_offset (patch_overlay.c): the network input
 * the stage's output may overlay, and where in it. */
void te_patch_overlay(te_patch_walk *w, const te_graph *g, te_patch_plan *p);
/* The input the stage's output might overlay whatever the grid (the
 * largest network input only the stage reads), or -1: the search's lower
 * bounds plan it at offset 0. */
int te_patch_overlay_input(const te_patch_walk *w, const te_graph *g);
/* Notes cell c's reads of the stage's outside inputs and its write of S
 * (te_patch_measure, after te_patch_regions): te_patch_overlay then needs
 * no walk of its own.  -1 when out of memory (it walks then). */
int te_patch_overlay_note(te_patch_walk *w, const te_graph *g, int c);

#endif
