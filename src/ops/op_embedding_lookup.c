/* op_embedding_lookup.c - EMBEDDING_LOOKUP as TFLite Micro runs it: rows
 * of a float32 or int8 value table (rank >= 2) picked by a 1-D int32 index
 * tensor, copied raw into an output of the value's type (te_gather_s8, as
 * GATHER on axis 0), or, TFLite Micro's hybrid path, an int8 table (zero
 * point 0) dequantized into a float32 output as (float)v * scale
 * (te_embedding_lookup_s8_f32).  An index outside [0, rows) fails the
 * invoke. */
#include "ops.h"


#include <stdint.h>

/* TFLite Micro's hybrid lookup: an int8 table dequantized into float32. */
static int is_hybrid(const te_tensor *value, const te_tensor *out)
{
    return value->type == TE_DT_INT8 && out->type == TE_DT_FLOAT32;
}

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
    if (out->type != value->type && !is_hybrid(value, out))
        return te_op_fail(d, op, "output type %s differs from the value's %s (TFLite Micro: "
                          "the same type, or an int8 table into float32)",
                          te_dtype_name(out->type), te_dtype_name(value->type));
    if (is_hybrid(value, out) && (te_check_quant(d, op, value, "input 1 (value)") < 0 ||
                                  value->q.zero_point[0] != 0))
        return te_op_fail(d, op, "the int8 table of a float32 lookup needs zero point 0 (as "
                          "TFLite Micro)");
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

/* The hybrid lookup: rows dequantized with the table's scale. */
static int emit_hybrid(te_emit *e, const te_op *op)
{
    const te_tensor *ids = te_in(e->g, op, 0), *value = te_in(e->g, op, 1);
    te_name ix = te_emit_tensor(e, ids->id), src = te_emit_tensor(e, value->id),
            dst = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_EMBEDDING_LOOKUP_S8_F32);
    te_emit_kernel_call_status(
        e, TE_K_EMBEDDING_LOOKUP_S8_F32, src.s, dst.s, te_expr("%d", value->shape[0]).s,
        te_expr("%lld", (long long)(te_tensor_elems(value) / value->shape[0])).s,
        te_expr("%d", ids->shape[0]).s, ix.s, te_expr("%af", (double)value->q.scale[0]).s);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *ids = te_in(e->g, op, 0), *value = te_in(e->g, op, 1);
    int32_t dims[5];
    te_name pd, src, dst, ix;
    if (ids->shape[0] == 0 || value->shape[0] == 0)
        return 0;
    if (is_hybrid(value, te_out(e->g, op, 0)))
        return emit_hybrid(e, op);
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

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return is_hybrid(&g->tensors[op->in[1]], &g->tensors[op->out[0]])
               ? TE_K_EMBEDDING_LOOKUP_S8_F32
               : TE_K_GATHER_S8;
}

const te_op_def te_op_embedding_lookup = {
    .opcode = TE_OP_EMBEDDING_LOOKUP,
    .check = check,
    .emit = emit,
    .variant = variant,
};
