/* op_split.c - SPLIT (axis = input 0, data = input 1, equal parts) and
 * SPLIT_V (data = input 0, size_splits = input 1, axis = input 2; one size
 * may be -1): the axis is a constant int32 scalar, negative counting from
 * the end.  As in TFLite Micro, each output's extent along the axis comes
 * from its own shape, in order; any element type.  When every dimension
 * before the axis is 1, each output is one contiguous piece of the input
 * and becomes a view of it at its offset; otherwise each is gathered. */
#include <stdio.h>

#include "movement.h"

/* Index of the data input and of the axis input. */
static int data_input(const te_op *op) { return op->opcode == TE_OP_SPLIT ? 1 : 0; }
static int axis_input(const te_op *op) { return op->opcode == TE_OP_SPLIT ? 0 : 2; }

/* The resolved axis (check() has validated it). */
static int split_axis(te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in(g, op, data_input(op));
    int64_t axis = te_move_const_int(te_in(g, op, axis_input(op)), 0);
    return (int)(axis < 0 ? axis + in->rank : axis);
}

/* Elements before the axis (outer) and after it (inner). */
static void split_sizes(const te_tensor *in, int axis, int64_t *outer, int64_t *inner)
{
    int k;
    *outer = 1;
    *inner = 1;
    for (k = 0; k < axis; k++)
        *outer *= in->shape[k];
    for (k = axis + 1; k < in->rank; k++)
        *inner *= in->shape[k];
}

static int check_axis(te_graph *g, const te_op *op, te_diag *d, const te_tensor *in)
{
    const te_tensor *ax = te_in(g, op, axis_input(op));
    int64_t axis;
    const char *which = op->opcode == TE_OP_SPLIT ? "input 0 (axis)" : "input 2 (axis)";
    if (te_move_check_index_tensor(d, op, ax, which, 1)) /* TFLM reads an int64 axis' low word */
        return -1;
    if (te_tensor_elems(ax) != 1)
        return te_op_fail(d, op, "%s (tensor %d '%s') must have one element", which, ax->id,
                          ax->name);
    axis = te_move_const_int(ax, 0);
    if (axis < -in->rank || axis >= in->rank)
        return te_op_fail(d, op, "axis %lld is out of range for input rank %d", (long long)axis,
                          in->rank);
    return 0;
}

/* The outputs tile the input along the axis and match it elsewhere. */
static int check_outputs(te_graph *g, const te_op *op, te_diag *d, const te_tensor *in, int axis)
{
    int64_t total = 0;
    int i, k;
    for (i = 0; i < op->n_out; i++) {
        const te_tensor *out = te_out(g, op, i);
        char which[32];
        snprintf(which, sizeof which, "output %d", i);
        if (te_check_type(d, op, out, which, in->type))
            return -1;
        if (out->rank != in->rank)
            return te_op_fail(d, op, "%s has rank %d, input has rank %d", which, out->rank,
                              in->rank);
        for (k = 0; k < in->rank; k++)
            if (k != axis && out->shape[k] != in->shape[k])
                return te_op_fail(d, op, "%s (tensor %d '%s') has size %d in dimension %d, the "
                                  "input %d", which, out->id, out->name, out->shape[k], k,
                                  in->shape[k]);
        if (op->opcode == TE_OP_SPLIT && (int64_t)out->shape[axis] * op->n_out != in->shape[axis])
            return te_op_fail(d, op, "%d equal parts of dimension %d (size %d) cannot have size "
                              "%d", op->n_out, axis, in->shape[axis], out->shape[axis]);
        total += out->shape[axis];
    }
    if (total != in->shape[axis])
        return te_op_fail(d, op, "the outputs have %lld entries along axis %d, the input %d",
                          (long long)total, axis, in->shape[axis]);
    return 0;
}

/* SPLIT_V: constant size_splits agree with the outputs (-1 = the rest). */
static int check_size_splits(te_graph *g, const te_op *op, te_diag *d, int axis)
{
    const te_tensor *s = te_in(g, op, 1);
    int i;
    if (!s)
        return te_op_fail(d, op, "input 1 (size_splits) is missing");
    if (s->type != TE_DT_INT32 && s->type != TE_DT_INT64)
        return te_op_fail(d, op, "input 1 (size_splits, tensor %d '%s') has type %s, expected "
                          "int32 or int64", s->id, s->name, te_dtype_name(s->type));
    if (te_tensor_elems(s) != op->n_out)
        return te_op_fail(d, op, "input 1 (size_splits, tensor %d '%s') has %lld entries for %d "
                          "outputs", s->id, s->name, (long long)te_tensor_elems(s), op->n_out);
    if (!s->data)
        return 0; /* TFLite Micro only uses the output shapes */
    if (te_check_const(d, op, s, "input 1 (size_splits)"))
        return -1;
    for (i = 0; i < op->n_out; i++) {
        int64_t v = te_move_const_int(s, i);
        if (v != -1 && v != te_out(g, op, i)->shape[axis])
            return te_op_fail(d, op, "size_splits[%d] is %lld but output %d has %d entries "
                              "along axis %d", i, (long long)v, i, te_out(g, op, i)->shape[axis],
                              axis);
    }
    return 0;
}

static int split_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in;
    int axis;
    if (op->n_in != (op->opcode == TE_OP_SPLIT ? 2 : 3))
        return te_op_fail(d, op, "has %d inputs, expected %d", op->n_in,
                          op->opcode == TE_OP_SPLIT ? 2 : 3);
    if (op->n_out < 1 || (op->opt.count > 0 && op->opt.count != op->n_out))
        return te_op_fail(d, op, "has %d outputs, num_splits is %d", op->n_out, op->opt.count);
    in = te_in(g, op, data_input(op));
    if (!in || te_dtype_size(in->type) == 0)
        return te_op_fail(d, op, "the data input is missing or has an unsupported type");
    if (in->rank < 1)
        return te_op_fail(d, op, "the data input is a scalar");
    if (te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "input (tensor %d '%s') is too large", in->id, in->name);
    if (check_axis(g, op, d, in))
        return -1;
    axis = split_axis(g, op);
    if (check_outputs(g, op, d, in, axis))
        return -1;
    return op->opcode == TE_OP_SPLIT_V ? check_size_splits(g, op, d, axis) : 0;
}

/* First entry of output k along the axis. */
static int64_t split_start(te_graph *g, const te_op *op, int k, int axis)
{
    int64_t start = 0;
    int i;
    for (i = 0; i < k; i++)
        start += te_out(g, op, i)->shape[axis];
    return start;
}

static int split_view(const te_graph *cg, const te_op *op, int k, size_t *offset)
{
    te_graph *g = (te_graph *)cg;
    const te_tensor *in = te_in(g, op, data_input(op));
    int64_t outer, inner;
    int axis = split_axis(g, op);
    split_sizes(in, axis, &outer, &inner);
    if (outer != 1)
        return -1;
    *offset = (size_t)(split_start(g, op, k, axis) * inner) * te_dtype_size(in->type);
    return data_input(op);
}

/* A gathered output k: the box from its first entry along the axis. */
static int split_box(const te_graph *cg, const te_op *op, int k, int32_t *begin)
{
    te_graph *g = (te_graph *)cg;
    const te_tensor *in = te_in(g, op, data_input(op));
    int64_t outer, inner;
    int axis = split_axis(g, op), j;
    split_sizes(in, axis, &outer, &inner);
    if (outer == 1)
        return -1; /* a view (split_view) */
    for (j = 0; j < in->rank; j++)
        begin[j] = j == axis ? (int32_t)split_start(g, op, k, axis) : 0;
    return data_input(op);
}

static int split_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, data_input(op));
    int64_t outer, inner, counts[3], steps[3];
    int k, axis = split_axis(e->g, op);
    split_sizes(in, axis, &outer, &inner);
    for (k = 0; k < op->n_out; k++) {
        if (te_move_is_view(e->g, op, data_input(op), k))
            continue;
        counts[0] = outer;
        counts[1] = te_out(e->g, op, k)->shape[axis];
        counts[2] = inner;
        steps[0] = in->shape[axis] * inner;
        steps[1] = inner;
        steps[2] = 1;
        if (te_move_emit_gather_io(e, op, data_input(op), k,
                                   split_start(e->g, op, k, axis) * inner, 3, counts, steps))
            return -1;
    }
    return 0;
}

static te_kernel_id split_variant(const te_graph *g, const te_op *op)
{
    int k;
    for (k = 0; k < op->n_out; k++)
        if (!te_move_is_view(g, op, data_input(op), k))
            return TE_K_COPY_GATHER_S8;
    return TE_K_VIEW;
}

const te_op_def te_op_split = {
    .opcode = TE_OP_SPLIT,
    .int16x8 = 1,
    .check = split_check,
    .emit = split_emit,
    .variant = split_variant,
    .view_input = split_view,
    .box_input = split_box,
};

const te_op_def te_op_split_v = {
    .opcode = TE_OP_SPLIT_V,
    .int16x8 = 1,
    .check = split_check,
    .emit = split_emit,
    .variant = split_variant,
    .view_input = split_view,
    .box_input = split_box,
};
