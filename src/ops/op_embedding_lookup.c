/* op_embedding_lookup.c - EMBEDDING_LOOKUP as TFLite Micro's simple path:
 * rows of a float32 or int8 value table (rank >= 2) picked by a 1-D int32
 * index tensor, copied raw into an output of the value's type; an index
 * outside [0, rows) fails the invoke (te_gather_s8, as GATHER on axis 0).
 * The hybrid path (int8 table, float32 output) is not supported. */
#include "ops.h"

#include <stdint.h>

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *ids, *value, *out;
    int k;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    ids = te_in(g, op, 0);
    value = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, ids, "input 0 (ids)", TE_DT_INT32) < 0)
        return -1;
    if (ids->rank != 1)
        return te_op_fail(d, op, "the ids tensor must be 1-D");
    if (value->type != TE_DT_INT8 && value->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "value type %s is not supported (TFLite Micro: int8, float32)",
                          te_dtype_name(value->type));
    if (out->type != value->type)
        return te_op_fail(d, op, "output type %s differs from the value's %s (the int8 -> "
                          "float32 hybrid lookup is not supported)", te_dtype_name(out->type),
                          te_dtype_name(value->type));
    if (value->rank < 2 || out->rank != value->rank || out->shape[0] != ids->shape[0])
        return te_op_fail(d, op, "output 0 must have shape [ids, value.shape[1:]]");
    for (k = 1; k < value->rank; k++)
        if (out->shape[k] != value->shape[k])
            return te_op_fail(d, op, "output 0 must have shape [ids, value.shape[1:]]");
    if (ids->data && te_check_const(d, op, ids, "input 0") < 0)
        return -1;
    if (value->data && te_check_const(d, op, value, "input 1") < 0)
        return -1;
    if (te_tensor_bytes(value) > INT32_MAX)
        return te_op_fail(d, op, "value tables of 2^31 bytes or more are not supported");
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *ids = te_in(e->g, op, 0), *value = te_in(e->g, op, 1);
    int32_t dims[5];
    te_name pd, src, dst, ix;
    if (ids->shape[0] == 0 || value->shape[0] == 0)
        return 0;
    dims[0] = 1;                /* batch */
    dims[1] = 1;                /* outer */
    dims[2] = value->shape[0];  /* rows */
    dims[3] = ids->shape[0];    /* lookups */
    dims[4] = (int32_t)(te_tensor_bytes(value) / (size_t)value->shape[0]); /* row bytes */
    pd = te_emit_const_i32(e, dims, 5, "gdims");
    ix = te_emit_tensor(e, ids->id);
    src = te_emit_tensor(e, value->id);
    dst = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_GATHER_S8);
    te_emit_kernel_call_status(e, TE_K_GATHER_S8, te_expr("(const int8_t *)%s", src.s).s,
                        te_expr("(int8_t *)%s", dst.s).s, pd.s, ix.s);
    return 0;
}

const te_op_def te_op_embedding_lookup = {
    .opcode = TE_OP_EMBEDDING_LOOKUP,
    .check = check,
    .emit = emit,
    .kernel = TE_ONE_KERNEL(TE_K_GATHER_S8),
};
