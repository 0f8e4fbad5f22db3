/* op_space_depth.c - DEPTH_TO_SPACE and SPACE_TO_DEPTH on NHWC tensors
 * (rank 4, any element type, block_size >= 1), TFLite Micro's reference
 * layout: DEPTH_TO_SPACE sends input channel (bh * b + bw) * C' + c of
 * pixel (h, w) to output pixel (h * b + bh, w * b + bw), channel c;
 * SPACE_TO_DEPTH is its inverse.  Each is a reshape plus a transpose: one
 * strided gather over six axes.  On a patch (TE_PATCH_REMAP) an output box
 * of SPACE_TO_DEPTH reads the input box block_size times its size; one of
 * DEPTH_TO_SPACE the input box it covers, when the box starts and ends on
 * block boundaries (its clone is then the op on smaller tensors). */
#include "movement.h"

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *out)
{
    int b = op->opt.block_size, k, want[4];
    char ws[96], hs[96];
    if (b < 1)
        return te_op_fail(d, op, "block_size %d is not positive", b);
    if (in->rank != 4)
        return te_op_fail(d, op, "input 0 has rank %d, expected 4", in->rank);
    if (op->opcode == TE_OP_DEPTH_TO_SPACE) {
        if (in->shape[3] % (b * b))
            return te_op_fail(d, op, "input depth %d is not a multiple of block_size^2 = %d",
                              in->shape[3], b * b);
        want[0] = in->shape[0];
        want[1] = in->shape[1] * b;
        want[2] = in->shape[2] * b;
        want[3] = in->shape[3] / (b * b);
    } else {
        if (in->shape[1] % b || in->shape[2] % b)
            return te_op_fail(d, op, "input height %d and width %d must be multiples of "
                              "block_size %d", in->shape[1], in->shape[2], b);
        want[0] = in->shape[0];
        want[1] = in->shape[1] / b;
        want[2] = in->shape[2] / b;
        want[3] = in->shape[3] * b * b;
    }
    for (k = 0; k < 4 && out->rank == 4; k++)
        if (out->shape[k] != want[k])
            break;
    if (out->rank == 4 && k == 4)
        return 0;
    te_move_shape_str(want, 4, ws, sizeof ws);
    te_move_shape_str(out->shape, out->rank, hs, sizeof hs);
    return te_op_fail(d, op, "output 0 (tensor %d '%s') has shape %s, expected %s", out->id,
                      out->name, hs, ws);
}

static int space_depth_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 1, 1, 1) || te_move_check_same_type(d, op, in, out))
        return -1;
    if (op->opt.block_size > 0x7fff)
        return te_op_fail(d, op, "block_size %d is too large", op->opt.block_size);
    if (te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    return check_shapes(d, op, in, out);
}

/* Output order (n, h, bh, w, bw, c) over the input's (n, h, w, channel). */
static void depth_to_space_axes(const te_tensor *in, int b, int64_t *counts, int64_t *steps)
{
    int64_t c = in->shape[3] / (b * b), w = in->shape[2], h = in->shape[1];
    int64_t n_[6] = {in->shape[0], h, b, w, b, c};
    int64_t s_[6] = {h * w * in->shape[3], w * in->shape[3], b * c, in->shape[3], c, 1};
    int k;
    for (k = 0; k < 6; k++) {
        counts[k] = n_[k];
        steps[k] = s_[k];
    }
}

/* Output order (n, h, w, bh, bw, c) over the input's (n, h * b + bh,
 * w * b + bw, c). */
static void space_to_depth_axes(const te_tensor *in, int b, int64_t *counts, int64_t *steps)
{
    int64_t c = in->shape[3], w = in->shape[2], h = in->shape[1];
    int64_t n_[6] = {in->shape[0], h / b, w / b, b, b, c};
    int64_t s_[6] = {h * w * c, b * w * c, b * c, w * c, c, 1};
    int k;
    for (k = 0; k < 6; k++) {
        counts[k] = n_[k];
        steps[k] = s_[k];
    }
}

static int space_depth_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    int64_t counts[6], steps[6];
    if (op->opcode == TE_OP_DEPTH_TO_SPACE)
        depth_to_space_axes(in, op->opt.block_size, counts, steps);
    else
        space_to_depth_axes(in, op->opt.block_size, counts, steps);
    return te_move_emit_gather(e, op, 0, 6, counts, steps);
}

static te_kernel_id space_depth_variant(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_K_COPY_GATHER_S8;
}

static te_patch_kind space_depth_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    return in && !in->data && in->rank == 4 && op->opt.block_size >= 1 ? TE_PATCH_REMAP
                                                                       : TE_PATCH_NONE;
}

/* One axis: the input rows [i0, i1) output rows [o0, o1) read; -1 when a
 * DEPTH_TO_SPACE box cuts a block. */
static int space_depth_axis(const te_op *op, int o0, int o1, int *i0, int *i1)
{
    int b = op->opt.block_size;
    if (op->opcode == TE_OP_SPACE_TO_DEPTH) {
        *i0 = o0 * b;
        *i1 = o1 * b;
        return 0;
    }
    if (o0 % b || o1 % b)
        return -1;
    *i0 = o0 / b;
    *i1 = o1 / b;
    return 0;
}

static int space_depth_patch_remap(const te_graph *g, const te_op *op, int ay, int ax,
                                   te_region out, te_region *in)
{
    (void)g;
    if (ay != 1 || ax != 2) /* blocks are laid out over NHWC's height and width */
        return -1;
    return space_depth_axis(op, out.y0, out.y1, &in->y0, &in->y1) < 0 ||
                   space_depth_axis(op, out.x0, out.x1, &in->x0, &in->x1) < 0
               ? -1
               : 0;
}

const te_op_def te_op_depth_to_space = {
    .opcode = TE_OP_DEPTH_TO_SPACE,
    .check = space_depth_check,
    .emit = space_depth_emit,
    .variant = space_depth_variant,
    .patch_kind = space_depth_patch_kind,
    .patch_remap = space_depth_patch_remap,
};

const te_op_def te_op_space_to_depth = {
    .opcode = TE_OP_SPACE_TO_DEPTH,
    .check = space_depth_check,
    .emit = space_depth_emit,
    .variant = space_depth_variant,
    .patch_kind = space_depth_patch_kind,
    .patch_remap = space_depth_patch_remap,
};
