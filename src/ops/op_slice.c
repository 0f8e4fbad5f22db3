/* op_slice.c - SLICE by begin and size tensors (int32 or int64, one entry
 * per input dimension, size -1 meaning "to the end"), input rank 1 to 5 as
 * in TFLite Micro.  Constant begin and size: any element type, checked at
 * compile time.  Begin or size computed at run time (TFLite Micro reads
 * them in Eval): its element types (float32, int32, int8, int16, bool),
 * checked as TFLite Micro does when the operator runs, a failed check
 * failing the invoke (te_slice_dynamic).  A slice that is one
 * contiguous block of the input (full inner dimensions, size 1 outside the
 * first partial one) and at least half of it becomes a view of the input (a
 * small view would keep the whole input alive); any other is one strided
 * gather.  On a patch (TE_PATCH_REMAP: a slice of any box of height and
 * width, CSP route groups cut channels only) a clone copies its output
 * region from the input region's rows the whole slice takes for it. */
/* Only the kernel's params struct is used here: declare kernels extern. */
#define TE_KERNEL extern
#include "movement.h"

#include "te_common.h"
#include "te_copy.h"

#define SLICE_MAX_RANK 5

/* Begin or size is computed at run time. */
static int is_dynamic(const te_graph *g, const te_op *op)
{
    return (op->in[1] >= 0 && !g->tensors[op->in[1]].data) ||
           (op->in[2] >= 0 && !g->tensors[op->in[2]].data);
}

/* A run-time begin / size: TFLite Micro's Prepare checks (same index type,
 * one entry per input dimension) and its Eval's element types. */
static int check_dynamic(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *b = te_in(g, op, 1), *s = te_in(g, op, 2);
    if (in->type != TE_DT_FLOAT32 && in->type != TE_DT_INT32 && in->type != TE_DT_INT8 &&
        in->type != TE_DT_INT16 && in->type != TE_DT_BOOL)
        return te_op_fail(d, op, "input 0 has type %s; with begin or size computed at run time "
                          "TFLite Micro slices float32, int32, int8, int16 and bool",
                          te_dtype_name(in->type));
    if ((b->type != TE_DT_INT32 && b->type != TE_DT_INT64) || s->type != b->type)
        return te_op_fail(d, op, "begin and size have types %s and %s, expected both int32 or "
                          "both int64", te_dtype_name(b->type), te_dtype_name(s->type));
    if (b->rank != 1 || s->rank != 1 || b->shape[0] != in->rank || s->shape[0] != in->rank)
        return te_op_fail(d, op, "begin and size must be 1-D with %d entries (the input rank)",
                          in->rank);
    if ((b->data && te_check_const(d, op, b, "input 1 (begin)") < 0) ||
        (s->data && te_check_const(d, op, s, "input 2 (size)") < 0))
        return -1;
    return 0;
}

/* begin[k] and the resolved size[k] of every axis; on a patch clone's
 * height/width axes, in its regions (the whole slice's place shifted by
 * where they start, the size its output region's). */
static void slice_axes(te_graph *g, const te_op *op, const te_tensor *in, int64_t *begin,
                       int64_t *size)
{
    const te_tensor *b = te_in(g, op, 1), *s = te_in(g, op, 2), *out = te_out(g, op, 0);
    int k;
    for (k = 0; k < in->rank; k++) {
        te_move_axis_place a;
        int region = te_move_region_axis(op, k, &a);
        int64_t whole = region ? a.in_size : in->shape[k];
        begin[k] = te_move_const_int(b, k);
        size[k] = te_move_const_int(s, k);
        if (size[k] == -1) /* to the end (begin is range-checked below) */
            size[k] = begin[k] >= 0 && begin[k] <= whole ? whole - begin[k] : 0;
        if (region && out && k < out->rank) {
            begin[k] += a.out_origin - a.in_origin;
            size[k] = out->shape[k];
        }
    }
}

static int check_axes(te_graph *g, const te_op *op, te_diag *d, const te_tensor *in,
                      const te_tensor *out)
{
    int64_t begin[SLICE_MAX_RANK], size[SLICE_MAX_RANK];
    int k;
    slice_axes(g, op, in, begin, size);
    if (out->rank != in->rank)
        return te_op_fail(d, op, "output 0 has rank %d, input 0 has rank %d", out->rank,
                          in->rank);
    for (k = 0; k < in->rank; k++) {
        if (begin[k] < 0 || size[k] < 0 || begin[k] > in->shape[k] ||
            size[k] > in->shape[k] - begin[k])
            return te_op_fail(d, op, "axis %d: begin %lld and size %lld do not fit dimension "
                              "%d", k, (long long)begin[k],
                              (long long)te_move_const_int(te_in(g, op, 2), k), in->shape[k]);
        if (out->shape[k] != size[k])
            return te_op_fail(d, op, "output 0 (tensor %d '%s') has size %d in dimension %d, "
                              "the slice gives %lld", out->id, out->name, out->shape[k], k,
                              (long long)size[k]);
    }
    return 0;
}

static int slice_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    static const char *const which[2] = {"input 1 (begin)", "input 2 (size)"};
    int i;
    if (te_check_io_count(d, op, 3, 3, 1) || te_move_check_same_type(d, op, in, out))
        return -1;
    if (in->rank < 1 || in->rank > SLICE_MAX_RANK)
        return te_op_fail(d, op, "input 0 has rank %d, expected 1 to %d", in->rank,
                          SLICE_MAX_RANK);
    if (te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    if (op->in[1] < 0 || op->in[2] < 0)
        return te_op_fail(d, op, "begin and size are required");
    if (is_dynamic(g, op))
        return check_dynamic(g, op, d);
    for (i = 1; i <= 2; i++) {
        const te_tensor *t = te_in(g, op, i);
        if (te_move_check_index_tensor(d, op, t, which[i - 1], 1))
            return -1;
        if (te_tensor_elems(t) != in->rank)
            return te_op_fail(d, op, "%s (tensor %d '%s') has %lld entries, input rank is %d",
                              which[i - 1], t->id, t->name, (long long)te_tensor_elems(t),
                              in->rank);
    }
    return check_axes(g, op, d, in, out);
}

/* Output 0 is one contiguous block of the input: after the first axis
 * with size > 1 (scanning from the outside), every axis is whole. */
static int slice_view(const te_graph *g, const te_op *op, int k, size_t *offset)
{
    te_graph *gg = (te_graph *)g;
    const te_tensor *in = te_in(gg, op, 0);
    int64_t begin[SLICE_MAX_RANK], size[SLICE_MAX_RANK], stride = 1, off = 0;
    int j, partial = 0;
    const te_tensor *out = te_out(gg, op, 0);
    if (k != 0 || !in || !out || is_dynamic(g, op) ||
        2 * te_tensor_bytes(out) < te_tensor_bytes(in))
        return -1;
    slice_axes(gg, op, in, begin, size);
    for (j = 0; j < in->rank; j++) {
        if (partial && size[j] != in->shape[j])
            return -1;
        if (size[j] > 1)
            partial = 1;
    }
    for (j = in->rank - 1; j >= 0; j--) {
        off += begin[j] * stride;
        stride *= in->shape[j];
    }
    *offset = (size_t)off * te_dtype_size(in->type);
    return 0;
}

/* Begin or size computed at run time: te_slice_dynamic checks and copies. */
static int emit_dynamic(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    int dims[5], k;
    te_name prm, pi, po, pb, ps;
    for (k = 0; k < 5; k++)
        dims[k] = k < 5 - in->rank ? 1 : in->shape[k - (5 - in->rank)];
    te_params_begin(e, "te_slice_dynamic_params");
    te_params_ints(e, "dims", dims, 5);
    te_params_int(e, "rank", in->rank);
    te_params_int(e, "elem_bytes", (long long)te_dtype_size(in->type));
    te_params_int(e, "out_elems", te_tensor_elems(te_out(e->g, op, 0)));
    te_params_int(e, "index64", te_in(e->g, op, 1)->type == TE_DT_INT64);
    prm = te_params_end(e);
    pi = te_emit_tensor(e, op->in[0]);
    po = te_emit_tensor(e, op->out[0]);
    pb = te_emit_tensor(e, op->in[1]);
    ps = te_emit_tensor(e, op->in[2]);
    te_emit_kernel(e, TE_K_SLICE_DYNAMIC);
    te_emit_kernel_call_status(e, TE_K_SLICE_DYNAMIC, prm.s, pi.s, po.s, pb.s, ps.s);
    return 0;
}

static int slice_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    int64_t begin[SLICE_MAX_RANK], size[SLICE_MAX_RANK], steps[SLICE_MAX_RANK];
    int64_t stride = 1, base = 0;
    int k;
    if (is_dynamic(e->g, op))
        return emit_dynamic(e, op);
    if (te_move_is_view(e->g, op, 0, 0))
        return 0;
    slice_axes(e->g, op, in, begin, size);
    for (k = in->rank - 1; k >= 0; k--) {
        steps[k] = stride;
        base += begin[k] * stride;
        stride *= in->shape[k];
    }
    return te_move_emit_gather(e, op, base, in->rank, size, steps);
}

static te_kernel_id slice_variant(const te_graph *g, const te_op *op)
{
    if (is_dynamic(g, op))
        return TE_K_SLICE_DYNAMIC;
    return te_move_is_view(g, op, 0, 0) ? TE_K_VIEW : TE_K_COPY_GATHER_S8;
}

/* Patch stages: a 4-D input, any element type. */
static te_patch_kind slice_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    return in && !in->data && in->rank == 4 && op->n_in == 3 && op->in[1] >= 0 &&
                   g->tensors[op->in[1]].data && op->in[2] >= 0 && g->tensors[op->in[2]].data
               ? TE_PATCH_REMAP
               : TE_PATCH_NONE;
}

/* The input box an output box reads: shifted by the slice's begin. */
static int slice_patch_remap(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                             te_region *in)
{
    const te_tensor *b = &g->tensors[op->in[1]];
    int64_t by = te_move_const_int(b, ay), bx = te_move_const_int(b, ax);
    in->y0 = out.y0 + (int)by;
    in->y1 = out.y1 + (int)by;
    in->x0 = out.x0 + (int)bx;
    in->x1 = out.x1 + (int)bx;
    return by >= 0 && bx >= 0 && in->y1 <= g->tensors[op->in[0]].shape[ay] &&
                   in->x1 <= g->tensors[op->in[0]].shape[ax]
               ? 0
               : -1;
}

const te_op_def te_op_slice = {
    .opcode = TE_OP_SLICE,
    .int16x8 = 1,
    .check = slice_check,
    .emit = slice_emit,
    .variant = slice_variant,
    .view_input = slice_view,
    .patch_kind = slice_patch_kind,
    .patch_remap = slice_patch_remap,
    .takes_box = 1,
};
