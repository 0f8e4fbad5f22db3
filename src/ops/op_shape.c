/* op_shape.c - SHAPE: the static shape of its input as an int32 (or int64)
 * vector.  Shapes are known at compile time, so SHAPE never reaches
 * generated code: it is always folded into a constant (pass_fold_const.c),
 * and the shape arithmetic after it (STRIDED_SLICE, PACK, ...) folds too. */
#include <string.h>

#include "ops.h"

static int shape_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (out->type != TE_DT_INT32 && out->type != TE_DT_INT64)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has type %s, expected int32 or int64",
                          out->id, out->name, te_dtype_name(out->type));
    if (te_tensor_elems(out) != in->rank)
        return te_op_fail(d, op, "output 0 has %lld elements, input 0 has rank %d",
                          (long long)te_tensor_elems(out), in->rank);
    return 0;
}

static int shape_fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in = te_in(g, op, 0), *o = te_out(g, op, 0);
    int k;
    for (k = 0; k < in->rank; k++) {
        if (o->type == TE_DT_INT64) {
            int64_t v = in->shape[k];
            memcpy(out[0] + 8 * k, &v, 8);
        } else {
            int32_t v = in->shape[k];
            memcpy(out[0] + 4 * k, &v, 4);
        }
    }
    return 1;
}

const te_op_def te_op_shape = {
    .opcode = TE_OP_SHAPE,
    .check = shape_check,
    .fold = shape_fold,
};
