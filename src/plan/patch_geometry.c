/* patch_geometry.c - receptive fields: which region of each input an
 * operator needs to produce a region of its output, and the explicit
 * padding its clone then uses (padding only where the region touches the
 * real border of the tensor).  Also says which operators can run on a
 * region at all (te_op_def.patch_kind, patch_axes). */
#include "patch_internal.h"

#include "../ops/conv_family.h"

int te_patch_op_supported(const te_graph *g, const te_op *op)
{
    const te_tensor *out = te_out((te_graph *)g, op, 0);
    int i;
    if (op->n_out != 1 || !out || out->rank != 4)
        return 0;
    for (i = 0; i < op->n_in; i++) {
        const te_tensor *t = op->in[i] >= 0 ? &g->tensors[op->in[i]] : NULL;
        if (t && !t->data && t->rank != 4)
            return 0;
    }
    return te_patch_kind_of(g, op) != TE_PATCH_NONE;
}

te_patch_kind te_patch_kind_of(const te_graph *g, const te_op *op)
{
    const te_op_def *def = te_op_find(op->opcode);
    return def && def->patch_kind ? def->patch_kind(g, op) : TE_PATCH_NONE;
}

int te_patch_remap_input(const te_graph *g, const te_op *op)
{
    int k;
    for (k = 0; k < op->n_in; k++)
        if (op->in[k] >= 0 && !g->tensors[op->in[k]].data)
            return k;
    return 0;
}

/* Spatial axes (height, width) of an input, given the output's (def: the
 * op's definition). */
static void input_axes(const te_graph *g, const te_op_def *def, const te_op *op, int oy, int ox,
                       int *iy, int *ix)
{
    *iy = oy;
    *ix = ox;
    if (def && def->patch_axes)
        def->patch_axes(g, op, oy, ox, iy, ix);
}

/* One axis of a window op: output rows [o0, o1) need input rows [i0, i1);
 * the clone pads pad_lo rows before and pad_hi after. */
static int window_axis(const te_op *op, int axis, int64_t in, int64_t k, int64_t out, int o0,
                       int o1, int *i0, int *i1, int *pad_lo, int *pad_hi)
{
    const te_options *o = &op->opt;
    int64_t s = axis ? o->stride_w : o->stride_h, dil = axis ? o->dilation_w : o->dilation_h;
    if (dil < 1) /* pools have no dilation */
        dil = 1;
    int64_t eff = (k - 1) * dil + 1, a, b;
    int64_t explicit_lo = axis ? o->pad_left : o->pad_top;
    int64_t explicit_hi = axis ? o->pad_right : o->pad_bottom;
    int64_t padded = in + explicit_lo + explicit_hi, before = explicit_lo;
    if (o->padding == TE_PAD_SAME)
        before += te_convfam_pad_before(padded, k, s, dil, out);
    a = (int64_t)o0 * s - before;
    b = (int64_t)(o1 - 1) * s - before + eff;
    *i0 = (int)(a > 0 ? a : 0);
    *i1 = (int)(b < in ? b : in);
    if (*i1 <= *i0)
        return -1;
    *pad_lo = (int)(*i0 - a);
    *pad_hi = (int)(b - *i1);
    return 0;
}

int te_patch_input_region(const te_graph *g, const te_op *op, int k, te_region r, int oy, int ox,
                          te_patch_need *need)
{
    const te_tensor *in = &g->tensors[op->in[k]], *out = &g->tensors[op->out[0]];
    /* looked up once: the patch analysis asks for every cell */
    const te_op_def *def = te_op_find(op->opcode);
    const te_patch_kind kind = def && def->patch_kind ? def->patch_kind(g, op) : TE_PATCH_NONE;
    int iy, ix;
    input_axes(g, def, op, oy, ox, &iy, &ix);
    need->ay = iy;
    need->ax = ix;
    need->whole = 0;
    need->pad[0] = need->pad[1] = need->pad[2] = need->pad[3] = 0;
    if (kind == TE_PATCH_WINDOW && k == 0) {
        /* the filter: a pool's options, else the weights' [., h, w, .] */
        const te_tensor *w = op->opt.filter_h ? NULL : &g->tensors[op->in[1]];
        int kh = w ? w->shape[1] : op->opt.filter_h, kw = w ? w->shape[2] : op->opt.filter_w;
        if (window_axis(op, 0, in->shape[1], kh, out->shape[1], r.y0, r.y1, &need->r.y0,
                        &need->r.y1, &need->pad[0], &need->pad[1]) < 0 ||
            window_axis(op, 1, in->shape[2], kw, out->shape[2], r.x0, r.x1, &need->r.x0,
                        &need->r.x1, &need->pad[2], &need->pad[3]) < 0)
            return -1;
        return 0;
    }
    if (kind == TE_PATCH_REMAP && k == te_patch_remap_input(g, op)) {
        return def && def->patch_remap && iy == oy && ix == ox
                   ? def->patch_remap(g, op, oy, ox, r, &need->r)
                   : -1;
    }
    if (in->shape[iy] == 1 && in->shape[ix] == 1 && (out->shape[oy] != 1 || out->shape[ox] != 1)) {
        need->whole = 1; /* broadcast operand: used as it is */
        need->r.y0 = 0, need->r.y1 = 1, need->r.x0 = 0, need->r.x1 = 1;
        return 0;
    }
    if (in->shape[iy] != out->shape[oy] || in->shape[ix] != out->shape[ox])
        return -1;
    need->r = r;
    return 0;
}
