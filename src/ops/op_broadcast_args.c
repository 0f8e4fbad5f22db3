/* op_broadcast_args.c - BROADCAST_ARGS: the numpy-broadcast shape of two
 * int32 (or int64) shape vectors, as TFLite Micro's reference kernel
 * computes it (aligned at the end, a missing or 1 dimension takes the
 * other's).  Its inputs are shapes, known at compile time in every model
 * that uses it: it is only folded into a constant (pass_fold_const.c);
 * a BROADCAST_ARGS of computed shapes stays unsupported. */
#include <string.h>

#include "movement.h"

/* Dimension k counted from the end of shape vector t; 1 beyond its start. */
static int64_t dim_from_end(const te_tensor *t, int64_t k)
{
    int64_t n = te_tensor_elems(t);
    return k < n ? te_move_const_int(t, n - 1 - k) : 1;
}

static int bargs_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b, *o;
    int64_t n, k;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (a->type != TE_DT_INT32 && a->type != TE_DT_INT64)
        return te_op_fail(d, op, "input 0 has type %s, expected int32 or int64",
                          te_dtype_name(a->type));
    if (te_check_type(d, op, b, "input 1", a->type) < 0 ||
        te_check_type(d, op, o, "output 0", a->type) < 0)
        return -1;
    if (a->rank != 1 || b->rank != 1 || o->rank != 1)
        return te_op_fail(d, op, "inputs and output must be 1-D shape vectors");
    n = te_tensor_elems(o);
    if (n < te_tensor_elems(a) || n < te_tensor_elems(b))
        return te_op_fail(d, op, "output 0 has %lld entries, fewer than an input shape",
                          (long long)n);
    if (!a->data || !b->data)
        return 0;
    for (k = 0; k < n; k++) {
        int64_t x = dim_from_end(a, k), y = dim_from_end(b, k);
        if (x != 1 && y != 1 && x != y)
            return te_op_fail(d, op, "shapes do not broadcast: dimension %lld is %lld and %lld",
                              (long long)(n - 1 - k), (long long)x, (long long)y);
    }
    return 0;
}

static int bargs_fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *a = te_in(g, op, 0), *b = te_in(g, op, 1), *o = te_out(g, op, 0);
    int64_t n = te_tensor_elems(o), k;
    if (!a->data || !b->data)
        return 0;
    for (k = 0; k < n; k++) {
        /* TFLM reads each dimension as an int */
        int32_t x = (int32_t)dim_from_end(a, k), y = (int32_t)dim_from_end(b, k);
        int32_t v = x == 1 ? y : x;
        if (o->type == TE_DT_INT64) {
            int64_t w = v;
            memcpy(out[0] + 8 * (n - 1 - k), &w, 8);
        } else {
            memcpy(out[0] + 4 * (n - 1 - k), &v, 4);
        }
    }
    return 1;
}

const te_op_def te_op_broadcast_args = {
    .opcode = TE_OP_BROADCAST_ARGS,
    .check = bargs_check,
    .fold = bargs_fold,
};
