/* op_transpose.c - TRANSPOSE (int8, int16, float32; rank <= 6; constant
 * perm) lowered to the strided gather of te_copy: output element order,
 * input strides permuted.  Also owns te_move_emit_gather, which
 * STRIDED_SLICE uses too: it drops size-1 axes, merges axes that stay
 * contiguous and turns multi-byte elements into a byte axis. */
#include <stdio.h>

#include "ops.h"

#define GATHER_MAX_RANK 8 /* TE_COPY_MAX_RANK of runtime/te_copy.h */

int64_t te_move_const_int(const te_tensor *t, int64_t i);
void te_move_shape_str(const int *shape, int rank, char *buf, size_t n);
int te_move_check_index_tensor(te_diag *d, const te_op *op, const te_tensor *t,
                               const char *which, int allow_int64);
int te_move_emit_gather(te_emit *e, const te_op *op, int64_t base, int rank,
                        const int64_t *counts, const int64_t *steps);

/* Appends axis (count, step) to the gather, merging it into the previous
 * axis when that one continues it contiguously. */
static void gather_push(int32_t *c, int32_t *s, int *n, int64_t count, int64_t step)
{
    if (count == 1)
        return;
    if (*n > 0 && s[*n - 1] == step * count) {
        c[*n - 1] *= (int32_t)count;
        s[*n - 1] = (int32_t)step;
        return;
    }
    c[*n] = (int32_t)count;
    s[*n] = (int32_t)step;
    (*n)++;
}

/* Output 0 = gather from input 0 starting at element `base`: counts/steps
 * per axis in elements (rank <= TE_MAX_RANK). */
int te_move_emit_gather(te_emit *e, const te_op *op, int64_t base, int rank,
                        const int64_t *counts, const int64_t *steps)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    int64_t esz = (int64_t)te_dtype_size(in->type);
    int32_t c[GATHER_MAX_RANK], s[GATHER_MAX_RANK], both[2 * GATHER_MAX_RANK];
    te_name src, dst, arr;
    int k, n = 0;
    for (k = 0; k < rank; k++)
        if (counts[k] == 0)
            return 0;
    for (k = 0; k < rank; k++)
        gather_push(c, s, &n, counts[k], steps[k] * esz);
    gather_push(c, s, &n, esz, 1);
    if (n == 0) {
        c[0] = 1;
        s[0] = 1;
        n = 1;
    }
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    if (n == 1 && s[0] == 1) {
        te_emit_kernel(e, "copy");
        te_emit_stmt(e, "te_copy_bytes(%s, (const int8_t *)%s + %lld, %d);", dst.s, src.s,
                     (long long)(base * esz), (int)c[0]);
        return 0;
    }
    for (k = 0; k < n; k++) {
        both[k] = c[k];
        both[n + k] = s[k];
    }
    arr = te_emit_const_i32(e, both, (size_t)(2 * n), "gather");
    te_emit_kernel(e, "copy");
    te_emit_stmt(e, "te_copy_gather_s8((const int8_t *)%s + %lld, (int8_t *)%s, %d, %s, %s + %d);",
                 src.s, (long long)(base * esz), dst.s, n, arr.s, arr.s, n);
    return 0;
}

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

const te_op_def te_op_transpose = {TE_OP_TRANSPOSE, transpose_check, NULL, NULL, transpose_emit, 0, NULL};
