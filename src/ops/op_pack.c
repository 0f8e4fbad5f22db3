/* op_pack.c - PACK and UNPACK, stacking along a new axis and its inverse
 * (TFLite Micro copies the bytes: any element type, no requantization).
 * PACK: N inputs of one shape S become S with N inserted at `axis` (in
 * [-(rank+1), rank]); each input is copied into its rows like a
 * CONCATENATION input.  UNPACK: the input's `axis` (num entries) is
 * removed, one output per entry; when every dimension before the axis is 1
 * each output is a contiguous piece of the input and becomes a view of it,
 * otherwise a strided gather.  A PACK of constants (the shape arithmetic of
 * Keras' dynamic-batch Reshape/Flatten) is folded at compile time. */
#include <stdio.h>
#include <string.h>

#include "movement.h"

/* Elements of shape[0..axis) and of shape[axis..rank). */
static void split_at(const int *shape, int rank, int axis, int64_t *outer, int64_t *inner)
{
    int k;
    *outer = 1;
    *inner = 1;
    for (k = 0; k < rank; k++) {
        if (k < axis)
            *outer *= shape[k];
        else
            *inner *= shape[k];
    }
}

/* `small` is `big` with dimension `axis` removed. */
static int check_removed(te_diag *d, const te_op *op, const te_tensor *big, const te_tensor *small,
                         int axis, const char *which)
{
    int k;
    if (small->rank + 1 != big->rank)
        return te_op_fail(d, op, "%s (tensor %d '%s') has rank %d, expected %d", which, small->id,
                          small->name, small->rank, big->rank - 1);
    for (k = 0; k < small->rank; k++)
        if (small->shape[k] != big->shape[k < axis ? k : k + 1])
            return te_op_fail(d, op, "%s (tensor %d '%s') has size %d in dimension %d, expected "
                              "%d", which, small->id, small->name, small->shape[k], k,
                              big->shape[k < axis ? k : k + 1]);
    return 0;
}

/* ---- PACK ---------------------------------------------------------------- */

static int pack_axis(const te_graph *g, const te_op *op)
{
    int rank = g->tensors[op->out[0]].rank;
    return op->opt.axis < 0 ? op->opt.axis + rank : op->opt.axis;
}

static int pack_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *out = te_out(g, op, 0), *in0 = te_in(g, op, 0);
    int i, axis;
    if (op->n_in < 1 || op->n_out != 1)
        return te_op_fail(d, op, "has %d inputs and %d outputs, expected at least 1 and 1",
                          op->n_in, op->n_out);
    if (op->opt.count > 0 && op->opt.count != op->n_in)
        return te_op_fail(d, op, "values_count is %d but there are %d inputs", op->opt.count,
                          op->n_in);
    if (te_move_check_same_type(d, op, in0, out))
        return -1;
    if (out->rank != in0->rank + 1 || out->rank > TE_MAX_RANK)
        return te_op_fail(d, op, "output 0 has rank %d, input 0 has rank %d", out->rank,
                          in0->rank);
    axis = pack_axis(g, op);
    if (axis < 0 || axis >= out->rank)
        return te_op_fail(d, op, "axis %d is out of range for output rank %d", op->opt.axis,
                          out->rank);
    if (out->shape[axis] != op->n_in)
        return te_op_fail(d, op, "output 0 has %d entries along axis %d for %d inputs",
                          out->shape[axis], axis, op->n_in);
    if (te_tensor_bytes(out) > 0x7fffffff)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') is too large", out->id, out->name);
    for (i = 0; i < op->n_in; i++) {
        const te_tensor *in = te_in(g, op, i);
        char which[32];
        snprintf(which, sizeof which, "input %d", i);
        if (te_check_type(d, op, in, which, out->type) ||
            check_removed(d, op, out, in, axis, which))
            return -1;
    }
    return 0;
}

static int pack_emit(te_emit *e, const te_op *op)
{
    const te_tensor *out = te_out(e->g, op, 0), *in0 = te_in(e->g, op, 0);
    int64_t outer, inner, esz = (int64_t)te_dtype_size(out->type);
    int i, axis = pack_axis(e->g, op);
    te_name dst = te_emit_tensor(e, out->id);
    split_at(in0->shape, in0->rank, axis, &outer, &inner);
    if (te_tensor_elems(out) == 0)
        return 0;
    te_emit_kernel(e, TE_K_CONCAT_S8);
    for (i = 0; i < op->n_in; i++) {
        te_name src = te_emit_tensor(e, te_in(e->g, op, i)->id);
        te_emit_kernel_call(e, TE_K_CONCAT_S8, te_expr("(const int8_t *)%s", src.s).s,
                     te_expr("(int8_t *)%s + %lld", dst.s, (long long)(i * inner * esz)).s,
                     te_expr("%lld", (long long)outer).s, te_expr("%lld", (long long)(inner * esz)).s,
                     te_expr("%lld", (long long)(op->n_in * inner * esz)).s);
    }
    return 0;
}

static te_kernel_id pack_variant(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_K_CONCAT_S8;
}

/* The same row copies done now, on constant inputs. */
static int pack_fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in0 = te_in(g, op, 0);
    int64_t outer, inner, k;
    size_t row;
    int i;
    if (!te_op_inputs_const(g, op))
        return 0;
    split_at(in0->shape, in0->rank, pack_axis(g, op), &outer, &inner);
    row = (size_t)inner * te_dtype_size(in0->type);
    for (k = 0; k < outer; k++)
        for (i = 0; i < op->n_in; i++)
            memcpy(out[0] + ((size_t)k * (size_t)op->n_in + (size_t)i) * row,
                   te_in(g, op, i)->data + (size_t)k * row, row);
    return 1;
}

const te_op_def te_op_pack = {
    .opcode = TE_OP_PACK,
    .int16x8 = 1,
    .check = pack_check,
    .emit = pack_emit,
    .variant = pack_variant,
    .fold = pack_fold,
};

/* ---- UNPACK -------------------------------------------------------------- */

static int unpack_axis(const te_graph *g, const te_op *op)
{
    int rank = g->tensors[op->in[0]].rank;
    return op->opt.axis < 0 ? op->opt.axis + rank : op->opt.axis;
}

static int unpack_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0);
    int i, axis;
    if (op->n_in != 1 || op->n_out < 1)
        return te_op_fail(d, op, "has %d inputs and %d outputs, expected 1 and at least 1",
                          op->n_in, op->n_out);
    if (!in || te_dtype_size(in->type) == 0)
        return te_op_fail(d, op, "input 0 is missing or has an unsupported type");
    if (te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    axis = unpack_axis(g, op);
    if (in->rank < 1 || axis < 0 || axis >= in->rank)
        return te_op_fail(d, op, "axis %d is out of range for input rank %d", op->opt.axis,
                          in->rank);
    if (in->shape[axis] != op->n_out || (op->opt.count > 0 && op->opt.count != op->n_out))
        return te_op_fail(d, op, "has %d outputs for %d entries along axis %d (num %d)",
                          op->n_out, in->shape[axis], axis, op->opt.count);
    for (i = 0; i < op->n_out; i++) {
        const te_tensor *out = te_out(g, op, i);
        char which[32];
        snprintf(which, sizeof which, "output %d", i);
        if (te_check_type(d, op, out, which, in->type) ||
            check_removed(d, op, in, out, axis, which))
            return -1;
    }
    return 0;
}

/* Elements before the axis (outer) and after it (inner). */
static void unpack_sizes(const te_tensor *in, int axis, int64_t *outer, int64_t *inner)
{
    int64_t with_axis;
    split_at(in->shape, in->rank, axis, outer, &with_axis);
    *inner = with_axis / (in->shape[axis] > 0 ? in->shape[axis] : 1);
}

static int unpack_view(const te_graph *g, const te_op *op, int k, size_t *offset)
{
    const te_tensor *in = &g->tensors[op->in[0]];
    int64_t outer, inner;
    unpack_sizes(in, unpack_axis(g, op), &outer, &inner);
    if (outer != 1)
        return -1;
    *offset = (size_t)(k * inner) * te_dtype_size(in->type);
    return 0;
}

static int unpack_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    int64_t outer, inner, counts[2], steps[2];
    int k, axis = unpack_axis(e->g, op);
    unpack_sizes(in, axis, &outer, &inner);
    for (k = 0; k < op->n_out; k++) {
        if (te_move_is_view(e->g, op, 0, k))
            continue;
        counts[0] = outer;
        counts[1] = inner;
        steps[0] = in->shape[axis] * inner;
        steps[1] = 1;
        if (te_move_emit_gather_io(e, op, 0, k, k * inner, 2, counts, steps))
            return -1;
    }
    return 0;
}

static te_kernel_id unpack_variant(const te_graph *g, const te_op *op)
{
    int k;
    for (k = 0; k < op->n_out; k++)
        if (!te_move_is_view(g, op, 0, k))
            return TE_K_COPY_GATHER_S8;
    return TE_K_VIEW;
}

const te_op_def te_op_unpack = {
    .opcode = TE_OP_UNPACK,
    .int16x8 = 1,
    .check = unpack_check,
    .emit = unpack_emit,
    .variant = unpack_variant,
    .view_input = unpack_view,
};
