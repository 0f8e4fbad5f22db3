/* op_logical.c - LOGICAL_AND, LOGICAL_OR (bool, numpy broadcasting, up to
 * 4D when the shapes differ, as TFLite Micro's BroadcastBinaryFunction4DSlow)
 * and LOGICAL_NOT (bool, element-wise). */
#include "broadcast.h"
#include "ops.h"
#include "unary.h"

int te_compare_check_layout(te_graph *g, const te_op *op, te_diag *d); /* op_compare.c */

static int check_binary(te_graph *g, const te_op *op, te_diag *d)
{
    if (te_check_io_count(d, op, 2, 2, 1) < 0 ||
        te_check_type(d, op, te_in(g, op, 0), "input 0", TE_DT_BOOL) < 0)
        return -1;
    return te_compare_check_layout(g, op, d);
}

static int emit_binary(te_emit *e, const te_op *op)
{
    const te_tensor *o = te_out(e->g, op, 0);
    te_name prm, pa, pb, po;
    if (te_tensor_elems(o) == 0)
        return 0;
    te_bcast_params_begin(e, op, "te_logical_params");
    te_params_int(e, "is_or", op->opcode == TE_OP_LOGICAL_OR);
    prm = te_params_end(e);
    pa = te_emit_tensor(e, op->in[0]);
    pb = te_emit_tensor(e, op->in[1]);
    po = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_LOGICAL_BINARY);
    te_emit_kernel_call(e, TE_K_LOGICAL_BINARY, prm.s, pa.s, pb.s, po.s);
    return 0;
}

static int check_not(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_BOOL) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_BOOL) < 0)
        return -1;
    return te_check_unary_elems(d, op, in, out);
}

static int emit_not(te_emit *e, const te_op *op)
{
    long long n = (long long)te_tensor_elems(te_in(e->g, op, 0));
    te_name x, y;
    if (n == 0)
        return 0;
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_LOGICAL_NOT);
    te_emit_kernel_call(e, TE_K_LOGICAL_NOT, x.s, y.s, te_expr("%lld", n).s);
    return 0;
}

const te_op_def te_op_logical_and = {
    .opcode = TE_OP_LOGICAL_AND,
    .check = check_binary,
    .emit = emit_binary,
    .inplace_input = te_inplace_same_shape_input,
    .kernel = TE_ONE_KERNEL(TE_K_LOGICAL_BINARY),
};

const te_op_def te_op_logical_or = {
    .opcode = TE_OP_LOGICAL_OR,
    .check = check_binary,
    .emit = emit_binary,
    .inplace_input = te_inplace_same_shape_input,
    .kernel = TE_ONE_KERNEL(TE_K_LOGICAL_BINARY),
};

const te_op_def te_op_logical_not = {
    .opcode = TE_OP_LOGICAL_NOT,
    .check = check_not,
    .emit = emit_not,
    .inplace_input = te_inplace_same_size_input0,
    .kernel = TE_ONE_KERNEL(TE_K_LOGICAL_NOT),
};
