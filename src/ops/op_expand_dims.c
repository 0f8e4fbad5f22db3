/* op_expand_dims.c - EXPAND_DIMS: inserts a size-1 dimension at the axis
 * given by input 1 (an int32 or int64 scalar; negative counts from the end,
 * axis + rank + 1).  A pure reinterpretation of the input bytes, so the
 * output is a view of the input (like RESHAPE) or a byte copy.  A computed
 * axis is accepted when the output shape is the input's with one 1
 * inserted, since the bytes do not depend on where. */
#include "movement.h"

/* 1 if `out` is `in` with a size-1 dimension inserted at `axis`. */
static int inserted_at(const te_tensor *in, const te_tensor *out, int axis)
{
    int k;
    if (out->rank != in->rank + 1 || axis < 0 || axis > in->rank || out->shape[axis] != 1)
        return 0;
    for (k = 0; k < in->rank; k++)
        if (out->shape[k < axis ? k : k + 1] != in->shape[k])
            return 0;
    return 1;
}

static int check_axis(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *ax,
                      const te_tensor *out)
{
    char want[96], have[96];
    int64_t axis;
    int k;
    if (!ax)
        return te_op_fail(d, op, "input 1 (axis) is missing");
    if (ax->type != TE_DT_INT32 && ax->type != TE_DT_INT64)
        return te_op_fail(d, op, "input 1 (axis, tensor %d '%s') has type %s, expected int32 or "
                          "int64", ax->id, ax->name, te_dtype_name(ax->type));
    if (te_tensor_elems(ax) != 1)
        return te_op_fail(d, op, "input 1 (axis, tensor %d '%s') must have one element", ax->id,
                          ax->name);
    if (!ax->data) {
        for (k = 0; k <= in->rank; k++)
            if (inserted_at(in, out, k))
                return 0;
        return te_op_fail(d, op, "output 0 (tensor %d '%s') is not input 0 with one size-1 "
                          "dimension inserted", out->id, out->name);
    }
    if (te_check_const(d, op, ax, "input 1 (axis)"))
        return -1;
    axis = te_move_const_int(ax, 0);
    if (axis < 0)
        axis += in->rank + 1;
    if (axis < 0 || axis > in->rank)
        return te_op_fail(d, op, "axis %lld is out of range for input rank %d",
                          (long long)te_move_const_int(ax, 0), in->rank);
    if (inserted_at(in, out, (int)axis))
        return 0;
    te_move_shape_str(in->shape, in->rank, want, sizeof want);
    te_move_shape_str(out->shape, out->rank, have, sizeof have);
    return te_op_fail(d, op, "output 0 (tensor %d '%s') has shape %s, expected %s with a 1 "
                      "inserted at axis %lld", out->id, out->name, have, want, (long long)axis);
}

static int expand_dims_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 2, 2, 1))
        return -1;
    if (te_move_check_same_type(d, op, in, out))
        return -1;
    if (in->rank + 1 > TE_MAX_RANK)
        return te_op_fail(d, op, "input 0 has rank %d, at most %d is supported", in->rank,
                          TE_MAX_RANK - 1);
    return check_axis(d, op, in, te_in(g, op, 1), out);
}

static te_kernel_id expand_dims_variant(const te_graph *g, const te_op *op)
{
    return te_move_is_view(g, op, 0, 0) ? TE_K_VIEW : TE_K_COPY_BYTES;
}

const te_op_def te_op_expand_dims = {
    .opcode = TE_OP_EXPAND_DIMS,
    .int16x8 = 1,
    .check = expand_dims_check,
    .emit = te_move_emit_copy,
    .alias_output = 1,
    .variant = expand_dims_variant,
};
