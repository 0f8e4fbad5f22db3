/* op_resize_nearest_neighbor.c - RESIZE_NEAREST_NEIGHBOR (4D NHWC; int8,
 * int16 or float32; constant int32 size tensor; align_corners and
 * half_pixel_centers).  The source row and column of every output row and
 * column are computed here with the float arithmetic of TFLite's reference
 * GetNearestNeighbor and handed to the kernel as tables. */
#include <math.h>
#include <stdlib.h>

#include "movement.h"

/* TFLite's GetNearestNeighbor: scale and source position in float, then
 * round (align_corners) or floor, capped at in_size - 1 (and at 0 with
 * half_pixel_centers). */
static int32_t nearest(int v, int32_t in_size, int32_t out_size, int align_corners,
                       int half_pixel_centers)
{
    float scale = (align_corners && out_size > 1) ? (float)(in_size - 1) / (float)(out_size - 1)
                                                  : (float)in_size / (float)out_size;
    float offset = half_pixel_centers ? 0.5f : 0.0f;
    float pos = ((float)v + offset) * scale;
    int32_t r = align_corners ? (int32_t)roundf(pos) : (int32_t)floorf(pos);
    if (r > in_size - 1)
        r = in_size - 1;
    if (half_pixel_centers && r < 0)
        r = 0;
    return r;
}

static int resize_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *size = te_in(g, op, 1), *out = te_out(g, op, 0);
    int k;
    if (te_check_io_count(d, op, 2, 2, 1))
        return -1;
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (in->type != TE_DT_INT8 && in->type != TE_DT_INT16 && in->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has type %s, expected int8, int16 or "
                          "float32", in->id, in->name, te_dtype_name(in->type));
    if (te_check_type(d, op, out, "output 0", in->type))
        return -1;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input 0 and output 0 must have rank 4");
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
    for (k = 1; k < 3; k++) {
        if (in->shape[k] <= 0 && out->shape[k] > 0)
            return te_op_fail(d, op, "input 0 has an empty dimension %d", k);
        if (in->shape[k] > (1 << 24) || out->shape[k] > (1 << 24))
            return te_op_fail(d, op, "height and width above 2^24 are not supported");
    }
    if (te_tensor_bytes(out) > 0x7fffffff || te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "tensors are too large");
    return 0;
}

/* Table of source indices for one spatial axis. */
static te_name emit_map(te_emit *e, int32_t in_size, int32_t out_size, const te_op *op, int x,
                        const char *hint, int *ok)
{
    /* a patch clone: positions in the whole tensors, from its regions' origins */
    int reg = op->opt.region.set;
    int32_t origin_out = reg ? (x ? op->opt.region.ox : op->opt.region.oy) : 0;
    int32_t origin_in = reg ? (x ? op->opt.region.ix : op->opt.region.iy) : 0;
    int32_t out_size_whole = reg ? (x ? op->opt.region.out_w : op->opt.region.out_h) : out_size;
    int32_t *map = malloc(sizeof *map * (size_t)out_size);
    te_name name;
    int v;
    *ok = map != NULL;
    if (!map)
        return te_emit_const_i32(e, NULL, 0, hint);
    for (v = 0; v < out_size; v++)
        map[v] = nearest(v + origin_out, in_size, out_size_whole, op->opt.align_corners,
                         op->opt.half_pixel_centers) - origin_in;
    name = te_emit_const_i32(e, map, (size_t)out_size, hint);
    free(map);
    return name;
}

static int resize_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    int depth = in->shape[3] * (int)te_dtype_size(in->type), ok_y, ok_x;
    te_name ymap, xmap, src, dst;
    if (te_tensor_elems(out) == 0)
        return 0;
    ymap = emit_map(e, op->opt.region.set ? op->opt.region.in_h : in->shape[1], out->shape[1], op,
                    0, "ymap", &ok_y);
    xmap = emit_map(e, op->opt.region.set ? op->opt.region.in_w : in->shape[2], out->shape[2], op,
                    1, "xmap", &ok_x);
    if (!ok_y || !ok_x)
        return te_op_fail(e->diag, op, "out of memory");
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, TE_K_RESIZE_NEAREST_S8);
    te_emit_kernel_call(e, TE_K_RESIZE_NEAREST_S8, te_expr("(const int8_t *)%s", src.s).s,
                 te_expr("(int8_t *)%s", dst.s).s, te_expr("%d", in->shape[0]).s,
                 te_expr("%d", in->shape[1]).s, te_expr("%d", in->shape[2]).s,
                 te_expr("%d", depth).s, te_expr("%d", out->shape[1]).s,
                 te_expr("%d", out->shape[2]).s, ymap.s, xmap.s,
                 te_expr("%d", e->low->slice_pitch ? (int)e->low->slice_pitch : depth).s);
    return 0;
}

/* Patch stages: an int8 NHWC resize runs on a region, its source tables
 * taken from the whole tensors' (emit_map). */
static te_patch_kind resize_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    return in && in->type == TE_DT_INT8 && !in->data ? TE_PATCH_REMAP : TE_PATCH_NONE;
}

/* Source rows/columns of an output box: the map is nondecreasing, so its
 * first and last entries bound them. */
static int resize_patch_remap(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                              te_region *in)
{
    const te_tensor *x = &g->tensors[op->in[0]], *y = &g->tensors[op->out[0]];
    int ac = op->opt.align_corners, hp = op->opt.half_pixel_centers;
    if (ay != 1 || ax != 2 || out.y1 <= out.y0 || out.x1 <= out.x0 || out.y0 < 0 || out.x0 < 0 ||
        out.y1 > y->shape[1] || out.x1 > y->shape[2]) /* (an empty output has no patch) */
        return -1;
    in->y0 = nearest(out.y0, x->shape[1], y->shape[1], ac, hp);
    in->y1 = nearest(out.y1 - 1, x->shape[1], y->shape[1], ac, hp) + 1;
    in->x0 = nearest(out.x0, x->shape[2], y->shape[2], ac, hp);
    in->x1 = nearest(out.x1 - 1, x->shape[2], y->shape[2], ac, hp) + 1;
    return in->y0 >= 0 && in->x0 >= 0 && in->y1 > in->y0 && in->x1 > in->x0 ? 0 : -1;
}

const te_op_def te_op_resize_nearest_neighbor = {
    .opcode = TE_OP_RESIZE_NEAREST_NEIGHBOR,
    .int16x8 = 1,
    .check = resize_check,
    .emit = resize_emit,
    .slice_output = te_slice_output_always, /* any output pixel stride */
    .kernel = TE_ONE_KERNEL(TE_K_RESIZE_NEAREST_S8),
    .patch_kind = resize_patch_kind,
    .patch_remap = resize_patch_remap,
};
