/* op_squeeze.c - SQUEEZE: drops size-1 dimensions, a pure reinterpretation
 * (TFLite Micro memcpy's the bytes).  Checks squeeze_dims like TFLite Micro
 * (in range, naming a size-1 dimension) and that the element counts agree;
 * emits nothing when the planner aliased the output, else a byte copy. */
#include "movement.h"

static int squeeze_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    int i;
    if (te_check_io_count(d, op, 1, 1, 1))
        return -1;
    if (te_move_check_same_type(d, op, in, out))
        return -1;
    for (i = 0; i < op->opt.squeeze_dims_count && i < TE_MAX_RANK; i++) {
        int dim = op->opt.squeeze_dims[i];
        int axis = dim < 0 ? dim + in->rank : dim;
        if (axis < 0 || axis >= in->rank)
            return te_op_fail(d, op, "squeeze_dims entry %d is out of range for rank %d", dim,
                              in->rank);
        if (in->shape[axis] != 1)
            return te_op_fail(d, op, "squeeze_dims entry %d names dimension %d of size %d, "
                              "expected 1", dim, axis, in->shape[axis]);
    }
    return te_move_check_same_elems(d, op, in, out);
}

const te_op_def te_op_squeeze = {
    .opcode = TE_OP_SQUEEZE,
    .int16x8 = 1,
    .check = squeeze_check,
    .emit = te_move_emit_copy,
    .alias_output = 1,
    .variant = te_move_copy_variant,
    .fold = te_move_fold_copy,
};
