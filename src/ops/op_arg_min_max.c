/* op_arg_min_max.c - ARG_MAX and ARG_MIN (int8 or float32 input, int32 or
 * int64 output, the axis from a constant int32/int64 tensor, negative
 * counted from the end): the input seen as [outer, axis_size, inner] and
 * the call to te_arg_{max,min}_{s8,f32}.  Ties go to the first index, as
 * in TFLite Micro's reference ArgMinMax. */
#include "movement.h"

typedef struct {
    int64_t outer, axis_size, inner;
} arg_layout;

/* Splits the input around the axis; -1 if the axis is out of range. */
static int arg_layout_of(const te_tensor *in, int64_t axis, arg_layout *l)
{
    int k;
    if (axis < 0)
        axis += in->rank;
    if (axis < 0 || axis >= in->rank)
        return -1;
    l->outer = l->inner = 1;
    l->axis_size = in->shape[axis];
    for (k = 0; k < axis; k++)
        l->outer *= in->shape[k];
    for (k = (int)axis + 1; k < in->rank; k++)
        l->inner *= in->shape[k];
    return 0;
}

static int arg_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *axis = te_in(g, op, 1), *out = te_out(g, op, 0);
    arg_layout l;
    if (te_check_io_count(d, op, 2, 2, 1))
        return -1;
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (in->type != TE_DT_INT8 && in->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has type %s, expected int8 or float32",
                          in->id, in->name, te_dtype_name(in->type));
    if (!out)
        return te_op_fail(d, op, "output 0 is missing");
    if (out->type != TE_DT_INT32 && out->type != TE_DT_INT64)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has type %s, expected int32 or int64",
                          out->id, out->name, te_dtype_name(out->type));
    if (te_move_check_index_tensor(d, op, axis, "input 1 (axis)", 1))
        return -1;
    if (te_tensor_elems(axis) != 1)
        return te_op_fail(d, op, "input 1 (axis, tensor %d '%s') must hold one value", axis->id,
                          axis->name);
    if (arg_layout_of(in, te_move_const_int(axis, 0), &l) < 0)
        return te_op_fail(d, op, "axis %lld is outside [-%d, %d)",
                          (long long)te_move_const_int(axis, 0), in->rank, in->rank);
    if (te_tensor_elems(out) != l.outer * l.inner)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has %lld elements, expected %lld",
                          out->id, out->name, (long long)te_tensor_elems(out),
                          (long long)(l.outer * l.inner));
    if (l.axis_size <= 0 && te_tensor_elems(out) > 0)
        return te_op_fail(d, op, "the reduced axis is empty");
    if (te_tensor_elems(in) > INT32_MAX)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    return 0;
}

static te_kernel_id arg_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in((te_graph *)g, op, 0);
    int fl = in && in->type == TE_DT_FLOAT32;
    if (op->opcode == TE_OP_ARG_MAX)
        return fl ? TE_K_ARG_MAX_F32 : TE_K_ARG_MAX_S8;
    return fl ? TE_K_ARG_MIN_F32 : TE_K_ARG_MIN_S8;
}

static int arg_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *axis = te_in(e->g, op, 1),
                    *out = te_out(e->g, op, 0);
    te_name src, dst;
    arg_layout l;
    if (te_tensor_elems(out) == 0 || arg_layout_of(in, te_move_const_int(axis, 0), &l) < 0)
        return 0;
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, arg_variant(e->g, op));
    te_emit_call(e, te_kernel_name(arg_variant(e->g, op)), src.s, te_expr("(void *)%s", dst.s).s,
                 te_expr("%lld", (long long)l.outer).s, te_expr("%lld", (long long)l.axis_size).s,
                 te_expr("%lld", (long long)l.inner).s, out->type == TE_DT_INT64 ? "1" : "0");
    return 0;
}

const te_op_def te_op_arg_max = {
    .opcode = TE_OP_ARG_MAX,
    .check = arg_check,
    .emit = arg_emit,
    .variant = arg_variant,
};

const te_op_def te_op_arg_min = {
    .opcode = TE_OP_ARG_MIN,
    .check = arg_check,
    .emit = arg_emit,
    .variant = arg_variant,
};
