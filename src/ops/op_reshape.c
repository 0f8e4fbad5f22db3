/* op_reshape.c - RESHAPE: a pure reinterpretation of the input bytes.
 * As TFLite Micro, the shape is the output tensor's and only the element
 * count is checked: the shape tensor and ReshapeOptions.new_shape are not
 * read (converters write ONNX-style 0 entries, stale options, rank-2 shape
 * tensors that TFLite Micro runs all the same).
 * When the planner made the output share the input's storage nothing is
 * emitted, otherwise a byte copy. */
#include "movement.h"

static int reshape_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 1, 2, 1))
        return -1;
    return te_move_check_same_type(d, op, in, out) || te_move_check_same_elems(d, op, in, out)
               ? -1
               : 0;
}

const te_op_def te_op_reshape = {
    .opcode = TE_OP_RESHAPE,
    .int16x8 = 1,
    .check = reshape_check,
    .emit = te_move_emit_copy,
    .alias_output = 1,
    .variant = te_move_copy_variant,
    .fold = te_move_fold_copy,
};
