/* op_gather.c - GATHER: rows of input 0 picked along `axis` by the indices
 * of input 1 (int32 as in TFLite Micro, or int64 as in TFLite; constant or
 * computed), with batch_dims; any element type.  The output shape is
 * input.shape[:axis] + indices.shape[batch_dims:] + input.shape[axis+1:].
 * Constant indices are checked against the axis size here; computed ones
 * by the kernel, which makes the invoke fail like TFLite Micro's Eval.
 * Constant indices in arithmetic progression (a channel range, every other
 * row ...) need no kernel of their own: one strided gather. */
#include <stdio.h>
#include <stdlib.h>

#include "movement.h"

typedef struct {
    int axis, batch_dims;
    int32_t dims[5]; /* batch, outer, axis size, coords, row bytes */
} gather_geom;

static void gather_geometry(te_graph *g, const te_op *op, gather_geom *q)
{
    const te_tensor *in = te_in(g, op, 0), *idx = te_in(g, op, 1);
    int64_t batch = 1, outer = 1, inner = 1, coords = 1;
    int k;
    q->axis = op->opt.axis < 0 ? op->opt.axis + in->rank : op->opt.axis;
    q->batch_dims = op->opt.batch_dims < 0 ? op->opt.batch_dims + idx->rank : op->opt.batch_dims;
    for (k = 0; k < in->rank; k++) {
        if (k < q->batch_dims)
            batch *= in->shape[k];
        else if (k < q->axis)
            outer *= in->shape[k];
        else if (k > q->axis)
            inner *= in->shape[k];
    }
    for (k = q->batch_dims < 0 ? 0 : q->batch_dims; k < idx->rank; k++)
        coords *= idx->shape[k];
    q->dims[0] = (int32_t)batch;
    q->dims[1] = (int32_t)outer;
    q->dims[2] = q->axis >= 0 && q->axis < in->rank ? in->shape[q->axis] : 1;
    q->dims[3] = (int32_t)coords;
    q->dims[4] = (int32_t)(inner * (int64_t)te_dtype_size(in->type));
}

static int check_geometry(te_graph *g, const te_op *op, te_diag *d, const te_tensor *in,
                          const te_tensor *idx, const te_tensor *out)
{
    gather_geom q;
    int want[2 * TE_MAX_RANK], n = 0, k;
    char ws[160], hs[96];
    gather_geometry(g, op, &q);
    if (q.axis < 0 || q.axis >= in->rank)
        return te_op_fail(d, op, "axis %d is out of range for input rank %d", op->opt.axis,
                          in->rank);
    if (q.batch_dims < 0 || q.batch_dims > q.axis || q.batch_dims > idx->rank)
        return te_op_fail(d, op, "batch_dims %d is out of range (axis %d, indices rank %d)",
                          op->opt.batch_dims, q.axis, idx->rank);
    for (k = 0; k < q.batch_dims; k++)
        if (in->shape[k] != idx->shape[k])
            return te_op_fail(d, op, "batch dimension %d differs: input %d, indices %d", k,
                              in->shape[k], idx->shape[k]);
    for (k = 0; k < q.axis; k++)
        want[n++] = in->shape[k];
    for (k = q.batch_dims; k < idx->rank; k++)
        want[n++] = idx->shape[k];
    for (k = q.axis + 1; k < in->rank; k++)
        want[n++] = in->shape[k];
    for (k = 0; k < n && out->rank == n; k++)
        if (out->shape[k] != want[k])
            break;
    if (out->rank == n && k == n)
        return 0;
    te_move_shape_str(want, n, ws, sizeof ws);
    te_move_shape_str(out->shape, out->rank, hs, sizeof hs);
    return te_op_fail(d, op, "output 0 (tensor %d '%s') has shape %s, expected %s", out->id,
                      out->name, hs, ws);
}

/* Constant indices: every one inside [0, axis size). */
static int check_const_indices(te_graph *g, const te_op *op, te_diag *d, const te_tensor *idx)
{
    gather_geom q;
    int64_t i, n = te_tensor_elems(idx);
    if (te_check_const(d, op, idx, "input 1 (indices)"))
        return -1;
    gather_geometry(g, op, &q);
    for (i = 0; i < n; i++) {
        int64_t v = te_move_const_int(idx, i);
        if (v < 0 || v >= q.dims[2])
            return te_op_fail(d, op, "index %lld (entry %lld) is outside [0, %d)", (long long)v,
                              (long long)i, q.dims[2]);
    }
    return 0;
}

static int gather_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *idx = te_in(g, op, 1), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 2, 2, 1) || te_move_check_same_type(d, op, in, out))
        return -1;
    if (!idx)
        return te_op_fail(d, op, "input 1 (indices) is missing");
    if (idx->type != TE_DT_INT32 && idx->type != TE_DT_INT64)
        return te_op_fail(d, op, "input 1 (indices, tensor %d '%s') has type %s, expected int32 "
                          "or int64", idx->id, idx->name, te_dtype_name(idx->type));
    if (te_tensor_bytes(in) > 0x7fffffff || te_tensor_bytes(out) > 0x7fffffff ||
        te_tensor_elems(idx) > 0x7fffffff)
        return te_op_fail(d, op, "a tensor is too large");
    if (check_geometry(g, op, d, in, idx, out))
        return -1;
    return idx->data ? check_const_indices(g, op, d, idx) : 0;
}

/* Constant int32 copy of the indices (int64 narrowed: they are in range). */
static te_name const_indices(te_emit *e, const te_tensor *idx)
{
    int64_t i, n = te_tensor_elems(idx);
    int32_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    te_name name;
    if (!v) {
        te_fail(e->diag, "out of memory");
        name.s[0] = '\0';
        return name;
    }
    for (i = 0; i < n; i++)
        v[i] = (int32_t)te_move_const_int(idx, i);
    name = te_emit_const_i32(e, v, (size_t)n, "idx");
    free(v);
    return name;
}

/* Constant indices v0, v0 + step, ... (batch_dims 0): *first, *step. */
static int progression(const te_tensor *idx, const gather_geom *q, int64_t *first, int64_t *step)
{
    int64_t i, n = te_tensor_elems(idx);
    if (!idx->data || q->dims[0] != 1 || n < 1)
        return 0;
    *first = te_move_const_int(idx, 0);
    *step = n > 1 ? te_move_const_int(idx, 1) - *first : 1;
    for (i = 2; i < n; i++)
        if (te_move_const_int(idx, i) != *first + i * *step)
            return 0;
    return 1;
}

static int gather_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *idx = te_in(e->g, op, 1);
    const te_tensor *out = te_out(e->g, op, 0);
    gather_geom q;
    int64_t first, step;
    te_name dims, src, dst, ix;
    te_kernel_id k;
    if (te_tensor_elems(out) == 0)
        return 0;
    gather_geometry(e->g, op, &q);
    if (progression(idx, &q, &first, &step)) {
        int64_t inner = q.dims[4] / (int64_t)te_dtype_size(in->type);
        int64_t counts[3] = {q.dims[1], q.dims[3], inner};
        int64_t steps[3] = {(int64_t)q.dims[2] * inner, step * inner, 1};
        return te_move_emit_gather(e, op, first * inner, 3, counts, steps);
    }
    dims = te_emit_const_i32(e, q.dims, 5, "gdims");
    ix = idx->data ? const_indices(e, idx) : te_emit_tensor(e, idx->id);
    if (!ix.s[0])
        return -1;
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    k = idx->data || idx->type == TE_DT_INT32 ? TE_K_GATHER_S8 : TE_K_GATHER_IDX64_S8;
    te_emit_kernel(e, k);
    te_emit_kernel_call_status(e, k, te_expr("(const int8_t *)%s", src.s).s,
                               te_expr("(int8_t *)%s", dst.s).s, dims.s, ix.s);
    return 0;
}

static te_kernel_id gather_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *idx = &g->tensors[op->in[1]];
    gather_geom q;
    int64_t first, step;
    gather_geometry((te_graph *)g, op, &q);
    if (progression(idx, &q, &first, &step))
        return TE_K_COPY_GATHER_S8;
    return idx->data || idx->type == TE_DT_INT32 ? TE_K_GATHER_S8 : TE_K_GATHER_IDX64_S8;
}

const te_op_def te_op_gather = {
    .opcode = TE_OP_GATHER,
    .check = gather_check,
    .emit = gather_emit,
    .variant = gather_variant,
};
