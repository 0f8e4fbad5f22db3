/* patch_internal.h - what the patch-stage files share (not for other
 * modules): receptive-field geometry and the per-patch analysis state. */
#ifndef TE_PATCH_INTERNAL_H
#define TE_PATCH_INTERNAL_H

#include "../ops/ops.h"
#include "patch.h"

/* An input region an operator needs, in that input's own coordinates. */
typedef struct {
    te_region r;
    int ay, ax;   /* the input's height and width axes */
    int whole;    /* broadcast operand: passed whole, never cropped */
    int pad[4];   /* clone's explicit padding: top, bottom, left, right */
} te_patch_need;

/* 1 if the operator can run on a spatial region of its tensors. */
int te_patch_op_supported(const te_graph *g, const te_op *op);

/* Region of non-constant input k that op needs for output region r (axes
 * oy, ox of the output).  -1 if the region cannot be expressed. */
int te_patch_input_region(const te_graph *g, const te_op *op, int k, te_region r, int oy, int ox,
                          te_patch_need *need);

/* How the op runs on a region (te_op_def.patch_kind), TE_PATCH_NONE if not. */
te_patch_kind te_patch_kind_of(const te_graph *g, const te_op *op);
/* The input a TE_PATCH_REMAP op's patch_remap maps: its first non-constant
 * one (0 but for TRANSPOSE_CONV, whose first inputs are its output shape and
 * weights). */
int te_patch_remap_input(const te_graph *g, const te_op *op);

static inline int te_region_empty(te_region r) { return r.y1 <= r.y0 || r.x1 <= r.x0; }
static inline int te_region_eq(te_region a, te_region b)
{
    return a.y0 == b.y0 && a.y1 == b.y1 && a.x0 == b.x0 && a.x1 == b.x1;
}
static inline te_region te_region_union(te_region a, te_region b)
{
    te_region u;
    if (te_region_empty(a))
        return b;
    u.y0 = a.y0 < b.y0 ? a.y0 : b.y0;
    u.y1 = a.y1 > b.y1 ? a.y1 : b.y1;
    u.x0 = a.x0 < b.x0 ? a.x0 : b.x0;
    u.x1 = a.x1 > b.x1 ? a.x1 : b.x1;
    return u;
}

#endif
