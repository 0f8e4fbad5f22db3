/* op_resize_bilinear.c - RESIZE_BILINEAR (4D NHWC int8; constant int32 size
 * tensor; align_corners, half_pixel_centers, any up or down ratio).  The
 * integer source positions of TFLite Micro's ResizeBilinearInteger (scale
 * and positions with 10 fractional bits) are computed here, once per output
 * row and column, and handed to te_resize_bilinear_s8 as tables.  Like
 * TFLite Micro, the values are interpolated without requantization. */
#include <stdint.h>
#include <stdlib.h>

#include "movement.h"

/* TFLite's scale_10: the input/output ratio in 1/1024 units, rounded. */
static int64_t bilinear_scale_10(int64_t in_size, int64_t out_size, int align_corners)
{
    if (align_corners && out_size > 1)
        return (1024 * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
    return (1024 * in_size + out_size / 2) / out_size;
}

int te_resize_bilinear_table(int32_t in_size, int32_t out_size, int align_corners,
                             int half_pixel_centers, int32_t step, int32_t *tab);

/* Fills tab[3 * v .. 3 * v + 2] for every output position v: the two
 * source positions times `step` (elements between consecutive positions)
 * and the fraction input_pos - 1024 * lower.  Returns -1 where TFLite's
 * int32 arithmetic would overflow or read past the input. */
int te_resize_bilinear_table(int32_t in_size, int32_t out_size, int align_corners,
                             int half_pixel_centers, int32_t step, int32_t *tab)
{
    int64_t s = bilinear_scale_10(in_size, out_size, align_corners);
    int32_t v;
    if (1024 * (int64_t)in_size > INT32_MAX || s * (int64_t)out_size > INT32_MAX)
        return -1;
    for (v = 0; v < out_size; v++) {
        /* C division truncates toward zero, as TFLite's int32 division */
        int32_t pos = half_pixel_centers ? (int32_t)(v * s + s / 2 - 512) : (int32_t)(v * s);
        int32_t lo = pos / 1024 > 0 ? pos / 1024 : 0;
        int32_t hi = (pos + 1023) / 1024 < in_size - 1 ? (pos + 1023) / 1024 : in_size - 1;
        if (lo > in_size - 1 || (int64_t)lo * step > INT32_MAX)
            return -1;
        tab[3 * v] = lo * step;
        tab[3 * v + 1] = hi * step;
        tab[3 * v + 2] = pos - 1024 * lo;
    }
    return 0;
}

static int bilinear_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *size = te_in(g, op, 1), *out = te_out(g, op, 0);
    int32_t *tab;
    int k, bad = 0;
    if (te_check_io_count(d, op, 2, 2, 1))
        return -1;
    if (te_check_type(d, op, in, "input 0", TE_DT_INT8) ||
        te_check_type(d, op, out, "output 0", TE_DT_INT8))
        return -1;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input 0 and output 0 must have rank 4");
    if (op->opt.align_corners && op->opt.half_pixel_centers)
        return te_op_fail(d, op, "align_corners and half_pixel_centers are both set");
    if (te_move_check_index_tensor(d, op, size, "input 1 (size)", 0))
        return -1;
    if (size->rank != 1 || te_tensor_elems(size) != 2)
        return te_op_fail(d, op, "input 1 (size, tensor %d '%s') must have shape [2]", size->id,
                          size->name);
    if (!op->opt.region.set && /* a patch clone: a region of the whole output */
        (te_move_const_int(size, 0) != out->shape[1] || te_move_const_int(size, 1) != out->shape[2]))
        return te_op_fail(d, op, "size [%lld,%lld] does not match the output's height and width "
                          "%dx%d", (long long)te_move_const_int(size, 0),
                          (long long)te_move_const_int(size, 1), out->shape[1], out->shape[2]);
    if (in->shape[0] != out->shape[0] || in->shape[3] != out->shape[3])
        return te_op_fail(d, op, "output 0 must have the input's batch and channel counts");
    if (te_tensor_bytes(out) > 0x7fffffff || te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "tensors are too large");
    if (te_tensor_elems(out) == 0)
        return 0;
    for (k = 1; k < 3; k++)
        if (in->shape[k] <= 0)
            return te_op_fail(d, op, "input 0 has an empty dimension %d", k);
    tab = malloc(sizeof *tab * 3 * (size_t)(out->shape[1] > out->shape[2] ? out->shape[1]
                                                                           : out->shape[2]));
    if (!tab)
        return te_op_fail(d, op, "out of memory");
    for (k = 1; k < 3 && !bad && !op->opt.region.set; k++) /* a clone: checked whole */
        bad = te_resize_bilinear_table(in->shape[k], out->shape[k], op->opt.align_corners,
                                       op->opt.half_pixel_centers, 1, tab) < 0;
    free(tab);
    if (bad)
        return te_op_fail(d, op, "resizing %dx%d to %dx%d overflows TFLite's 10-bit fixed-point "
                          "positions", in->shape[1], in->shape[2], out->shape[1], out->shape[2]);
    return 0;
}

/* The table of the whole axis (in_size -> out_size positions) from output
 * position `first` on, count entries, source positions from `origin` on,
 * times step; NULL when it cannot be computed. */
static int32_t *axis_table(const te_op *op, int32_t in_size, int32_t out_size, int32_t first,
                           int32_t count, int32_t origin, int32_t step)
{
    int32_t *tab = malloc(sizeof *tab * 3 * (size_t)out_size), v;
    if (!tab || first < 0 || first + count > out_size ||
        te_resize_bilinear_table(in_size, out_size, op->opt.align_corners,
                                 op->opt.half_pixel_centers, 1, tab) < 0) {
        free(tab);
        return NULL;
    }
    for (v = 0; v < count; v++) {
        if ((int64_t)(tab[3 * (first + v) + 1] - origin) * step > INT32_MAX) {
            free(tab);
            return NULL;
        }
        tab[3 * v] = (tab[3 * (first + v)] - origin) * step;
        tab[3 * v + 1] = (tab[3 * (first + v) + 1] - origin) * step;
        tab[3 * v + 2] = tab[3 * (first + v) + 2];
    }
    return tab;
}

/* One axis' table (x: the width); a patch clone's from the whole tensors'. */
static te_name emit_table(te_emit *e, const te_op *op, int x, int32_t in_size, int32_t out_size,
                          int32_t step, const char *hint, int *ok)
{
    int reg = op->opt.region.set;
    int32_t *tab = axis_table(op, reg ? (x ? op->opt.region.in_w : op->opt.region.in_h) : in_size,
                              reg ? (x ? op->opt.region.out_w : op->opt.region.out_h) : out_size,
                              reg ? (x ? op->opt.region.ox : op->opt.region.oy) : 0, out_size,
                              reg ? (x ? op->opt.region.ix : op->opt.region.iy) : 0, step);
    te_name name;
    *ok = tab != NULL;
    name = te_emit_const_i32(e, tab, tab ? 3 * (size_t)out_size : 0, hint);
    free(tab);
    return name;
}

/* Patch stages: runs on a region, its tables taken from the whole tensors'. */
static te_patch_kind bilinear_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    return in && in->type == TE_DT_INT8 && !in->data ? TE_PATCH_REMAP : TE_PATCH_NONE;
}

/* Source rows/columns of an output box: both tables' positions are
 * nondecreasing, so the first lower and the last upper bound them. */
static int bilinear_patch_remap(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                                te_region *in)
{
    const te_tensor *x = &g->tensors[op->in[0]], *y = &g->tensors[op->out[0]];
    int32_t *ty, *tx;
    int rc = -1;
    if (ay != 1 || ax != 2 || out.y1 <= out.y0 || out.x1 <= out.x0)
        return -1;
    ty = axis_table(op, x->shape[1], y->shape[1], 0, y->shape[1], 0, 1);
    tx = axis_table(op, x->shape[2], y->shape[2], 0, y->shape[2], 0, 1);
    if (ty && tx && out.y1 <= y->shape[1] && out.x1 <= y->shape[2]) {
        in->y0 = ty[3 * out.y0];
        in->y1 = ty[3 * (out.y1 - 1) + 1] + 1;
        in->x0 = tx[3 * out.x0];
        in->x1 = tx[3 * (out.x1 - 1) + 1] + 1;
        rc = in->y1 > in->y0 && in->x1 > in->x0 ? 0 : -1;
    }
    free(ty);
    free(tx);
    return rc;
}

static int bilinear_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    int32_t depth = in->shape[3];
    int ok_y, ok_x;
    te_name ytab, xtab, src, dst;
    if (te_tensor_elems(out) == 0)
        return 0;
    ytab = emit_table(e, op, 0, in->shape[1], out->shape[1], in->shape[2] * depth, "ytab", &ok_y);
    xtab = emit_table(e, op, 1, in->shape[2], out->shape[2], depth, "xtab", &ok_x);
    if (!ok_y || !ok_x)
        return te_op_fail(e->diag, op, "out of memory");
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, TE_K_RESIZE_BILINEAR_S8);
    te_emit_kernel_call(e, TE_K_RESIZE_BILINEAR_S8, src.s, dst.s, te_expr("%d", in->shape[0]).s,
                 te_expr("%d", in->shape[1] * in->shape[2] * depth).s, te_expr("%d", depth).s,
                 te_expr("%d", out->shape[1]).s, te_expr("%d", out->shape[2]).s, ytab.s, xtab.s,
                 te_expr("%d", e->low->slice_pitch ? (int)e->low->slice_pitch : depth).s);
    return 0;
}

static te_kernel_id bilinear_variant(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_K_RESIZE_BILINEAR_S8;
}

const te_op_def te_op_resize_bilinear = {
    .opcode = TE_OP_RESIZE_BILINEAR,
    .check = bilinear_check,
    .emit = bilinear_emit,
    .slice_output = te_slice_output_always, /* any output pixel stride */
    .variant = bilinear_variant,
    .patch_kind = bilinear_patch_kind,
    .patch_remap = bilinear_patch_remap,
};
