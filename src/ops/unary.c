/* unary.c - checks shared by one-input, one-output operators (see unary.h). */
#include "unary.h"

int te_check_unary_s8(te_graph *g, const te_op *op, te_diag *d, int need_out_quant)
{
    const te_tensor *in, *out;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_INT8) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_INT8) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 ||
        (need_out_quant && te_check_quant(d, op, out, "output 0") < 0))
        return -1;
    return 0;
}

int te_check_unary_s16(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_INT16) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_INT16) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, out, "output 0") < 0)
        return -1;
    return te_check_unary_elems(d, op, in, out);
}

int te_unary_is_s16(const te_graph *g, const te_op *op)
{
    return op->n_in > 0 && op->in[0] >= 0 && g->tensors[op->in[0]].type == TE_DT_INT16;
}

te_patch_kind te_unary_patch_kind_s8(const te_graph *g, const te_op *op)
{
    return te_unary_is_s16(g, op) ? TE_PATCH_NONE : te_patch_pointwise(g, op);
}

int te_check_unary_elems(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *out)
{
    if (te_tensor_elems(in) != te_tensor_elems(out))
        return te_op_fail(d, op, "input 0 has %lld elements, output 0 has %lld",
                          (long long)te_tensor_elems(in), (long long)te_tensor_elems(out));
    if (te_tensor_elems(in) > 0x7fffffff)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    return 0;
}
