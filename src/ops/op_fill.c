/* op_fill.c - FILL and ZEROS_LIKE as TFLite Micro.  FILL: a scalar value
 * (float32, int32 or int8, raw) repeated over the output's shape, which a
 * constant dims tensor must match; a constant value folds, a computed one
 * is a strided copy with step 0 (te_copy_gather_s8).  ZEROS_LIKE (int8,
 * int32, int64, float32): zeros of its input's shape, always folded. */
#include "movement.h"
#include "ops.h"

#include <string.h>

static int check_fill(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *dims, *value, *out;
    int k;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    dims = te_in(g, op, 0);
    value = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (value->type != TE_DT_FLOAT32 && value->type != TE_DT_INT32 && value->type != TE_DT_INT8)
        return te_op_fail(d, op, "value type %s is not supported (TFLite Micro: float32, int32, "
                          "int8)", te_dtype_name(value->type));
    if (value->rank != 0)
        return te_op_fail(d, op, "the value (input 1) must be a scalar");
    if (te_check_type(d, op, out, "output 0", value->type) < 0)
        return -1;
    if (value->data && te_check_const(d, op, value, "input 1") < 0)
        return -1;
    if (dims->data) {
        if (te_move_check_index_tensor(d, op, dims, "input 0 (dims)", 1) < 0)
            return -1;
        if (dims->rank != 1 || dims->shape[0] != out->rank)
            return te_op_fail(d, op, "the dims tensor must be 1-D with output 0's rank");
        for (k = 0; k < out->rank; k++)
            if (te_move_const_int(dims, k) != out->shape[k])
                return te_op_fail(d, op, "output 0 dimension %d is %d, the dims tensor says "
                                  "%lld", k, out->shape[k],
                                  (long long)te_move_const_int(dims, k));
    }
    return 0;
}

/* Output j = value, for every element. */
static int fold_fill(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *value = te_in(g, op, 1), *o = te_out(g, op, 0);
    size_t esz = te_dtype_size(value->type);
    int64_t n = te_tensor_elems(o), i;
    if (!value->data)
        return 0;
    for (i = 0; i < n; i++)
        memcpy(out[0] + (size_t)i * esz, value->data, esz);
    return 1;
}

static int emit_fill(te_emit *e, const te_op *op)
{
    const te_tensor *o = te_out(e->g, op, 0);
    int64_t counts[TE_MAX_RANK], steps[TE_MAX_RANK] = {0};
    int k, rank = o->rank ? o->rank : 1;
    for (k = 0; k < rank; k++)
        counts[k] = o->rank ? o->shape[k] : 1;
    return te_move_emit_gather_io(e, op, 1, 0, 0, rank, counts, steps);
}

static int check_zeros_like(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (in->type != TE_DT_INT8 && in->type != TE_DT_INT32 && in->type != TE_DT_INT64 &&
        in->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: int8, int32, "
                          "int64, float32)", te_dtype_name(in->type));
    if (te_check_type(d, op, out, "output 0", in->type) < 0)
        return -1;
    if (te_tensor_elems(in) != te_tensor_elems(out))
        return te_op_fail(d, op, "output 0 does not have input 0's element count");
    return 0;
}

/* Zeros whatever the input holds (the pass hands out zeroed outputs). */
static int fold_zeros_like(te_graph *g, const te_op *op, uint8_t *const *out)
{
    (void)g;
    (void)op;
    (void)out;
    return 1;
}

const te_op_def te_op_fill = {
    .opcode = TE_OP_FILL,
    .check = check_fill,
    .emit = emit_fill,
    .fold = fold_fill,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_GATHER_S8),
};

const te_op_def te_op_zeros_like = {
    .opcode = TE_OP_ZEROS_LIKE,
    .check = check_zeros_like,
    .fold = fold_zeros_like,
};
