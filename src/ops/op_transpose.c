/* op_transpose.c - TRANSPOSE (int8, int16, float32; rank <= 6; constant
 * perm) lowered to the strided gather of te_copy (te_move_emit_gather):
 * output element order, input strides permuted. */
#include "movement.h"

static int check_movable_type(te_diag *d, const te_op *op, const te_tensor *in)
{
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (in->type != TE_DT_INT8 && in->type != TE_DT_INT16 && in->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has type %s, expected int8, int16 "
                          "or float32", in->id, in->name, te_dtype_name(in->type));
    if (te_tensor_bytes(in) > 0x7fffffff)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    return 0;
}

/* perm is a permutation of 0..rank-1 and the output shape follows it. */
static int check_perm(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *perm,
                      const te_tensor *out)
{
    int seen[TE_MAX_RANK] = {0}, i;
    char want[96], have[96];
    int shape[TE_MAX_RANK];
    if (te_tensor_elems(perm) != in->rank)
        return te_op_fail(d, op, "perm (tensor %d '%s') has %lld entries, input rank is %d",
                          perm->id, perm->name, (long long)te_tensor_elems(perm), in->rank);
    for (i = 0; i < in->rank; i++) {
        int64_t p = te_move_const_int(perm, i);
        if (p < 0 || p >= in->rank || seen[p]++)
            return te_op_fail(d, op, "perm (tensor %d '%s') is not a permutation of 0..%d",
                              perm->id, perm->name, in->rank - 1);
        shape[i] = in->shape[p];
    }
    for (i = 0; i < in->rank && out->rank == in->rank; i++)
        if (out->shape[i] != shape[i])
            break;
    if (out->rank == in->rank && i == in->rank)
        return 0;
    te_move_shape_str(shape, in->rank, want, sizeof want);
    te_move_shape_str(out->shape, out->rank, have, sizeof have);
    return te_op_fail(d, op, "output 0 (tensor %d '%s') has shape %s, the permuted input has %s",
                      out->id, out->name, have, want);
}

static int transpose_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *perm = te_in(g, op, 1), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 2, 2, 1) || check_movable_type(d, op, in))
        return -1;
    if (te_check_type(d, op, out, "output 0", in->type))
        return -1;
    if (in->rank > 6)
        return te_op_fail(d, op, "input 0 has rank %d, at most 6 is supported", in->rank);
    if (te_move_check_index_tensor(d, op, perm, "input 1 (perm)", 0))
        return -1;
    return check_perm(d, op, in, perm, out);
}

static int transpose_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *perm = te_in(e->g, op, 1);
    int64_t stride[TE_MAX_RANK], counts[TE_MAX_RANK], steps[TE_MAX_RANK], s = 1;
    int i;
    for (i = in->rank - 1; i >= 0; i--) {
        stride[i] = s;
        s *= in->shape[i];
    }
    for (i = 0; i < in->rank; i++) {
        int64_t p = te_move_const_int(perm, i);
        counts[i] = in->shape[p];
        steps[i] = stride[p];
    }
    return te_move_emit_gather(e, op, 0, in->rank, counts, steps);
}

/* On a patch: the output's (oy, ox) axes come from input axes perm[oy],
 * perm[ox]. */
static void transpose_patch_axes(const te_graph *g, const te_op *op, int oy, int ox, int *iy,
                                 int *ix)
{
    *iy = oy;
    *ix = ox;
    if (op->n_in > 1 && op->in[1] >= 0) {
        const te_tensor *perm = &g->tensors[op->in[1]];
        if (perm->data && perm->type == TE_DT_INT32 && perm->data_bytes >= 16) {
            *iy = (int)te_move_const_int(perm, oy);
            *ix = (int)te_move_const_int(perm, ox);
        }
    }
}

const te_op_def te_op_transpose = {
    .opcode = TE_OP_TRANSPOSE,
    .int16x8 = 1,
    .check = transpose_check,
    .emit = transpose_emit,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_GATHER_S8),
    .patch_kind = te_patch_pointwise,
    .patch_axes = transpose_patch_axes,
};
