/* op_pack.c - PACK: N tensors of one shape stacked along a new axis.
 * Folded at compile time when every input is a constant (the shape
 * arithmetic of Keras' dynamic-batch Reshape/Flatten). */
#include <string.h>

#include "ops.h"

/* The new axis, in 0..rank of an input (negative counts from the end). */
static int pack_axis(const te_op *op, int in_rank)
{
    return op->opt.axis < 0 ? op->opt.axis + in_rank + 1 : op->opt.axis;
}

static int pack_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in0, *out;
    int i, k, axis;
    if (op->n_in < 1 || op->n_out != 1)
        return te_op_fail(d, op, "has %d inputs and %d outputs, expected 1 or more and 1",
                          op->n_in, op->n_out);
    in0 = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (!in0 || te_dtype_size(in0->type) == 0)
        return te_op_fail(d, op, "input 0 is missing or of unsupported type");
    axis = pack_axis(op, in0->rank);
    if (axis < 0 || axis > in0->rank || in0->rank + 1 > TE_MAX_RANK)
        return te_op_fail(d, op, "axis %d is out of range for inputs of rank %d", op->opt.axis,
                          in0->rank);
    for (i = 1; i < op->n_in; i++) {
        const te_tensor *t = te_in(g, op, i);
        int same = t && t->type == in0->type && t->rank == in0->rank;
        for (k = 0; same && k < in0->rank; k++)
            same = t->shape[k] == in0->shape[k];
        if (!same)
            return te_op_fail(d, op, "input %d differs from input 0 in type or shape", i);
    }
    if (te_check_type(d, op, out, "output 0", in0->type) < 0)
        return -1;
    if (out->rank != in0->rank + 1 || out->shape[axis] != op->n_in ||
        te_tensor_elems(out) != te_tensor_elems(in0) * op->n_in)
        return te_op_fail(d, op, "output 0 has the wrong shape for %d inputs stacked on axis %d",
                          op->n_in, axis);
    return 0;
}

static int pack_fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in0 = te_in(g, op, 0);
    int axis = pack_axis(op, in0->rank), i, k;
    size_t esz = te_dtype_size(in0->type), inner = esz, outer = 1, o;
    if (!te_op_inputs_const(g, op))
        return 0;
    for (k = 0; k < in0->rank; k++) {
        if (k < axis)
            outer *= (size_t)in0->shape[k];
        else
            inner *= (size_t)in0->shape[k];
    }
    for (o = 0; o < outer; o++)
        for (i = 0; i < op->n_in; i++)
            memcpy(out[0] + (o * (size_t)op->n_in + (size_t)i) * inner,
                   te_in(g, op, i)->data + o * inner, inner);
    return 1;
}

const te_op_def te_op_pack = {
    .opcode = TE_OP_PACK,
    .check = pack_check,
    .fold = pack_fold,
};
