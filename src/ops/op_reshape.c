/* op_reshape.c - RESHAPE: a pure reinterpretation of the input bytes.
 * TFLite Micro takes the shape from the output tensor and only checks the
 * element count; we also check that a constant shape tensor (or the
 * ReshapeOptions new_shape, when there is no shape tensor) agrees with it.
 * When the planner made the output share the input's storage nothing is
 * emitted, otherwise a byte copy. */
#include "movement.h"

/* Resolves a requested shape (with at most one -1) against the input's
 * element count and compares it with the output tensor's shape. */
static int check_requested(te_diag *d, const te_op *op, const int64_t *req, int n,
                           int64_t in_elems, const te_tensor *out, const char *what)
{
    int64_t prod = 1, dims[TE_MAX_RANK];
    int i, stretch = -1;
    char want[96], have[96];
    if (n > TE_MAX_RANK)
        return te_op_fail(d, op, "%s has %d entries, more than %d", what, n, TE_MAX_RANK);
    for (i = 0; i < n; i++) {
        dims[i] = req[i];
        if (req[i] == -1 && stretch < 0)
            stretch = i;
        else if (req[i] < 0)
            return te_op_fail(d, op, "%s has invalid entry %lld at %d", what, (long long)req[i], i);
        else if (req[i] > 0 && prod > ((int64_t)1 << 40) / req[i]) /* before it overflows */
            return te_op_fail(d, op, "%s has too many elements", what);
        else
            prod *= req[i];
    }
    if (stretch >= 0) {
        if (prod == 0 || in_elems % prod != 0)
            return te_op_fail(d, op, "%s cannot be resolved for %lld input elements", what,
                              (long long)in_elems);
        dims[stretch] = in_elems / prod;
    }
    /* legacy scalar: new shape [0] with a rank-0 output */
    if (n == 1 && dims[0] == 0 && out->rank == 0)
        return 0;
    for (i = 0; i < n && n == out->rank; i++)
        if (dims[i] != out->shape[i])
            break;
    if (n == out->rank && i == n)
        return 0;
    {
        int tmp[TE_MAX_RANK];
        for (i = 0; i < n; i++)
            tmp[i] = dims[i] > 0x7fffffff ? -2 : (int)dims[i];
        te_move_shape_str(tmp, n, want, sizeof want);
    }
    te_move_shape_str(out->shape, out->rank, have, sizeof have);
    return te_op_fail(d, op, "%s gives shape %s but output 0 (tensor %d '%s') has shape %s", what,
                      want, out->id, out->name, have);
}

static int check_new_shape(te_diag *d, const te_op *op, const te_tensor *shape,
                           int64_t in_elems, const te_tensor *out)
{
    int64_t req[TE_MAX_RANK + 1];
    int i, n;
    if (shape) {
        if (!shape->data)
            return 0; /* computed at run time: TFLite Micro uses the output shape */
        if (te_move_check_index_tensor(d, op, shape, "input 1 (shape)", 1))
            return -1;
        n = (int)te_tensor_elems(shape);
        if (n > TE_MAX_RANK)
            return te_op_fail(d, op, "shape tensor %d '%s' has %d entries, more than %d",
                              shape->id, shape->name, n, TE_MAX_RANK);
        for (i = 0; i < n; i++)
            req[i] = te_move_const_int(shape, i);
        return check_requested(d, op, req, n, in_elems, out, "the shape tensor");
    }
    if (op->opt.new_shape_count < 0)
        return 0;
    n = op->opt.new_shape_count;
    for (i = 0; i < n && i < TE_MAX_RANK; i++)
        req[i] = op->opt.new_shape[i];
    return check_requested(d, op, req, n, in_elems, out, "ReshapeOptions.new_shape");
}

static int reshape_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 1, 2, 1))
        return -1;
    if (te_move_check_same_type(d, op, in, out) || te_move_check_same_elems(d, op, in, out))
        return -1;
    return check_new_shape(d, op, te_in(g, op, 1), te_tensor_elems(in), out);
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
