/* op_strided_slice.c - STRIDED_SLICE with constant int32 begin/end/strides,
 * begin/end/shrink_axis masks and negative indices or strides, exactly as
 * TFLite Micro does it: StartForAxis / StopForAxis decide the output shape
 * (checked against the output tensor), the reference kernel's loops decide
 * which elements are copied.  Like TFLite Micro, the `offset` option is
 * ignored; ellipsis and new_axis masks are rejected (TFLite Micro ignores
 * them, which cannot give the shape the converter wrote).  Lowered to the
 * strided gather of te_copy.  On a patch (TE_PATCH_REMAP: positive strides,
 * no shrunk axis; YOLOv5's focus layer takes every second row and column)
 * a clone copies its output region from the input rows the whole slice
 * takes for it. */
#include <math.h>

#include "movement.h"

#define SLICE_MAX_RANK 5

/* One axis of the slice. */
typedef struct {
    int64_t start;   /* first index (StartForAxis) */
    int64_t count;   /* elements the kernel copies along the axis */
    int64_t shape;   /* the output size TFLite Micro's Prepare computes */
    int64_t stride;
    int shrink;
} slice_axis;

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* TFLite's StartForAxis / StopForAxis, the output size of Prepare and the
 * trip count of the reference kernel's loop along axis k. */
static void compute_axis(const te_op *op, int64_t size, int64_t begin, int64_t end, int64_t stride,
                         int k, slice_axis *a)
{
    int64_t stop;
    float dim;
    a->stride = stride;
    a->shrink = (op->opt.shrink_axis_mask >> k) & 1;
    if ((op->opt.begin_mask >> k) & 1)
        begin = stride > 0 ? INT32_MIN : INT32_MAX;
    if (begin < 0)
        begin += size;
    a->start = stride > 0 ? clamp64(begin, 0, size) : clamp64(begin, -1, size - 1);
    if ((op->opt.end_mask >> k) & 1)
        end = stride > 0 ? INT32_MAX : INT32_MIN;
    if (end < 0)
        end += size;
    stop = stride > 0 ? clamp64(end, 0, size) : clamp64(end, -1, size - 1);
    if (a->shrink)
        stop = a->start + 1;
    /* Prepare: ceil((end - begin) / (float)stride), at least 0 */
    dim = ceilf((float)(int32_t)(stop - a->start) / (float)stride);
    a->shape = dim < 0.0f ? 0 : (dim > 2147483647.0f ? INT32_MAX : (int64_t)dim);
    /* Eval: a shrunk axis ends at start (nothing) when start is past the end */
    if (a->shrink && a->start >= size)
        stop = a->start;
    if (stride > 0)
        a->count = stop > a->start ? (stop - a->start + stride - 1) / stride : 0;
    else
        a->count = a->start > stop ? (a->start - stop - stride - 1) / -stride : 0;
}

static int check_index_inputs(te_graph *g, const te_op *op, te_diag *d, const te_tensor *in)
{
    static const char *const which[3] = {"input 1 (begin)", "input 2 (end)", "input 3 (strides)"};
    int i;
    for (i = 1; i <= 3; i++) {
        const te_tensor *t = te_in(g, op, i);
        if (te_move_check_index_tensor(d, op, t, which[i - 1], 0))
            return -1;
        if (te_tensor_elems(t) != in->rank)
            return te_op_fail(d, op, "%s (tensor %d '%s') has %lld entries, input rank is %d",
                              which[i - 1], t->id, t->name, (long long)te_tensor_elems(t),
                              in->rank);
    }
    return 0;
}

static int check_input(const te_op *op, te_diag *d, const te_tensor *in)
{
    int k;
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (in->type != TE_DT_INT8 && in->type != TE_DT_INT16 && in->type != TE_DT_INT32 &&
        in->type != TE_DT_FLOAT32 && in->type != TE_DT_BOOL)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has unsupported type %s", in->id,
                          in->name, te_dtype_name(in->type));
    if (in->rank < 1 || in->rank > SLICE_MAX_RANK)
        return te_op_fail(d, op, "input 0 has rank %d, expected 1 to %d", in->rank,
                          SLICE_MAX_RANK);
    for (k = 0; k < in->rank; k++)
        if (in->shape[k] <= 0)
            return te_op_fail(d, op, "input 0 (tensor %d '%s') has an empty dimension %d", in->id,
                              in->name, k);
    if (te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    if (op->opt.ellipsis_mask || op->opt.new_axis_mask)
        return te_op_fail(d, op, "ellipsis_mask and new_axis_mask are not supported");
    return 0;
}

/* Fills the axes; returns the output rank.  On a patch clone's height /
 * width axes the whole slice's, moved into its regions: output row i of
 * the region is the whole output's out_origin + i. */
static int compute_axes(te_graph *g, const te_op *op, const te_tensor *in, slice_axis *ax)
{
    const te_tensor *b = te_in(g, op, 1), *e = te_in(g, op, 2), *s = te_in(g, op, 3);
    const te_tensor *out = te_out(g, op, 0);
    int k, rank = 0;
    for (k = 0; k < in->rank; k++) {
        te_move_axis_place a;
        int region = te_move_region_axis(op, k, &a);
        compute_axis(op, region ? a.in_size : in->shape[k], te_move_const_int(b, k),
                     te_move_const_int(e, k), te_move_const_int(s, k), k, &ax[k]);
        if (region && out && k < out->rank) {
            ax[k].start += a.out_origin * ax[k].stride - a.in_origin;
            ax[k].count = ax[k].shape = out->shape[k];
        }
        rank += !ax[k].shrink;
    }
    return rank;
}

/* A clone's region axes read inside its input region. */
static int check_region(const te_op *op, te_diag *d, const te_tensor *in, const slice_axis *ax)
{
    int k;
    for (k = 0; k < in->rank; k++) {
        te_move_axis_place a;
        int64_t last = ax[k].start + (ax[k].count - 1) * ax[k].stride;
        if (te_move_region_axis(op, k, &a) && ax[k].count > 0 &&
            (ax[k].start < 0 || ax[k].start >= in->shape[k] || last < 0 || last >= in->shape[k]))
            return te_op_fail(d, op, "the patch region of axis %d misses input rows", k);
    }
    return 0;
}

static int check_axes(const te_op *op, te_diag *d, const te_tensor *in, const slice_axis *ax,
                      const te_tensor *out)
{
    int shape[SLICE_MAX_RANK], k, n = 0, same;
    char want[96], have[96];
    for (k = 0; k < in->rank; k++) {
        if (ax[k].shrink && ax[k].count != 1)
            return te_op_fail(d, op, "shrink_axis on axis %d selects no element (TFLite Micro "
                              "would leave the output unwritten)", k);
        if (!ax[k].shrink && ax[k].count != ax[k].shape)
            return te_op_fail(d, op, "axis %d: the kernel would copy %lld elements, the output "
                              "shape says %lld", k, (long long)ax[k].count,
                              (long long)ax[k].shape);
        if (!ax[k].shrink)
            shape[n++] = (int)ax[k].shape;
    }
    same = out->rank == n;
    for (k = 0; k < n && same; k++)
        same = out->shape[k] == shape[k];
    if (same)
        return 0;
    te_move_shape_str(shape, n, want, sizeof want);
    te_move_shape_str(out->shape, out->rank, have, sizeof have);
    return te_op_fail(d, op, "output 0 (tensor %d '%s') has shape %s, the slice gives %s%s",
                      out->id, out->name, have, want,
                      op->opt.offset ? " (offset=true is ignored, as in TFLite Micro)" : "");
}

static int slice_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0), *s;
    slice_axis ax[SLICE_MAX_RANK];
    int k;
    if (te_check_io_count(d, op, 4, 4, 1) || check_input(op, d, in))
        return -1;
    if (te_check_type(d, op, out, "output 0", in->type) || check_index_inputs(g, op, d, in))
        return -1;
    s = te_in(g, op, 3);
    for (k = 0; k < in->rank; k++)
        if (te_move_const_int(s, k) == 0)
            return te_op_fail(d, op, "stride of axis %d is 0", k);
    compute_axes(g, op, in, ax);
    if (check_region(op, d, in, ax) < 0)
        return -1;
    return check_axes(op, d, in, ax, out);
}

/* The gather the slice is: counts and steps per axis, the first element;
 * 0 when the output is empty. */
static int slice_gather(te_graph *g, const te_op *op, int64_t *counts, int64_t *steps,
                        int64_t *base)
{
    const te_tensor *in = te_in(g, op, 0);
    slice_axis ax[SLICE_MAX_RANK];
    int64_t stride = 1;
    int k;
    compute_axes(g, op, in, ax);
    *base = 0;
    for (k = in->rank - 1; k >= 0; k--) {
        if (ax[k].count == 0)
            return 0;
        counts[k] = ax[k].count;
        steps[k] = ax[k].stride * stride;
        *base += ax[k].start * stride;
        stride *= in->shape[k];
    }
    return 1;
}

static int slice_emit(te_emit *e, const te_op *op)
{
    int64_t counts[SLICE_MAX_RANK], steps[SLICE_MAX_RANK], base;
    if (!slice_gather(e->g, op, counts, steps, &base))
        return 0; /* empty output */
    return te_move_emit_gather(e, op, base, te_in(e->g, op, 0)->rank, counts, steps);
}

/* Shape arithmetic (Keras' dynamic batch: SHAPE -> STRIDED_SLICE) is done
 * at compile time when the input is a constant. */
static int slice_fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in = te_in(g, op, 0);
    int64_t counts[SLICE_MAX_RANK], steps[SLICE_MAX_RANK], base;
    if (!te_op_inputs_const(g, op))
        return 0;
    if (slice_gather(g, op, counts, steps, &base))
        te_move_gather_now(in->data, out[0], te_dtype_size(in->type), base, in->rank, counts,
                           steps);
    return 1;
}

/* Patch stages: a 4-D input and output (no shrunk axis), constant indices,
 * positive strides along height and width (the axes are only known in
 * patch_remap, which refuses the rest). */
static te_patch_kind slice_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    int k;
    if (!in || in->data || in->rank != 4 || op->n_in != 4 || op->opt.shrink_axis_mask ||
        op->opt.ellipsis_mask || op->opt.new_axis_mask)
        return TE_PATCH_NONE;
    for (k = 1; k < 4; k++)
        if (op->in[k] < 0 || !g->tensors[op->in[k]].data)
            return TE_PATCH_NONE;
    return TE_PATCH_REMAP;
}

/* The input box an output box reads: from the first row the whole slice
 * takes for it to the last. */
static int slice_patch_remap(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                             te_region *in)
{
    slice_axis a[SLICE_MAX_RANK];
    const te_tensor *x = &g->tensors[op->in[0]];
    compute_axes((te_graph *)g, op, x, a);
    if (a[ay].stride < 1 || a[ax].stride < 1)
        return -1;
    in->y0 = (int)(a[ay].start + out.y0 * a[ay].stride);
    in->y1 = (int)(a[ay].start + (out.y1 - 1) * a[ay].stride + 1);
    in->x0 = (int)(a[ax].start + out.x0 * a[ax].stride);
    in->x1 = (int)(a[ax].start + (out.x1 - 1) * a[ax].stride + 1);
    return in->y0 >= 0 && in->x0 >= 0 && in->y1 <= x->shape[ay] && in->x1 <= x->shape[ax] &&
                   in->y1 > in->y0 && in->x1 > in->x0
               ? 0
               : -1;
}

const te_op_def te_op_strided_slice = {
    .opcode = TE_OP_STRIDED_SLICE,
    .int16x8 = 1,
    .check = slice_check,
    .emit = slice_emit,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_GATHER_S8),
    .fold = slice_fold,
    .patch_kind = slice_patch_kind,
    .patch_remap = slice_patch_remap,
};
