/* op_reshape.c - RESHAPE: a pure reinterpretation of the input bytes.
 * TFLite Micro takes the shape from the output tensor and only checks the
 * element count; we also check that a constant shape tensor (or the
 * ReshapeOptions new_shape, when there is no shape tensor) agrees with it.
 * When the planner made the output share the input's storage nothing is
 * emitted, otherwise a byte copy.
 *
 * Also owns the small helpers the other data-movement lowerings share
 * (te_move_*: constant index tensors, shape strings, the copy emission). */
#include <stdio.h>
#include <string.h>

#include "ops.h"

int64_t te_move_const_int(const te_tensor *t, int64_t i);
void te_move_shape_str(const int *shape, int rank, char *buf, size_t n);
int te_move_check_index_tensor(te_diag *d, const te_op *op, const te_tensor *t,
                               const char *which, int allow_int64);
int te_move_emit_copy(te_emit *e, const te_op *op);

/* Element i of a constant int32 or int64 tensor (little-endian data). */
int64_t te_move_const_int(const te_tensor *t, int64_t i)
{
    size_t size = t->type == TE_DT_INT64 ? 8 : 4, k;
    const uint8_t *p = t->data + (size_t)i * size;
    uint64_t u = 0;
    for (k = 0; k < size; k++)
        u |= (uint64_t)p[k] << (8 * k);
    if (size == 4)
        return (int64_t)(int32_t)(uint32_t)u;
    return (int64_t)u;
}

/* "[1,4,4,8]" */
void te_move_shape_str(const int *shape, int rank, char *buf, size_t n)
{
    size_t len = 0;
    int i;
    if (n == 0)
        return;
    buf[0] = '\0';
    len += (size_t)snprintf(buf, n, "[");
    for (i = 0; i < rank && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, i ? ",%d" : "%d", shape[i]);
    if (len < n)
        snprintf(buf + len, n - len, "]");
}

/* A constant int32 (or int64 when allowed) index tensor of rank <= 1 whose
 * data matches its shape. */
int te_move_check_index_tensor(te_diag *d, const te_op *op, const te_tensor *t,
                               const char *which, int allow_int64)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (t->type != TE_DT_INT32 && !(allow_int64 && t->type == TE_DT_INT64))
        return te_op_fail(d, op, "%s (tensor %d '%s') has type %s, expected int32%s", which, t->id,
                          t->name, te_dtype_name(t->type), allow_int64 ? " or int64" : "");
    if (te_check_const(d, op, t, which))
        return -1;
    if (t->rank > 1)
        return te_op_fail(d, op, "%s (tensor %d '%s') has rank %d, expected 1", which, t->id,
                          t->name, t->rank);
    return 0;
}

/* Byte copy of input 0 into output 0 unless they share storage. */
int te_move_emit_copy(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_name src, dst;
    if (out->alias_of == in->id || te_tensor_bytes(in) == 0)
        return 0;
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    if (strcmp(src.s, dst.s) == 0)
        return 0;
    te_emit_kernel(e, "copy");
    te_emit_stmt(e, "te_copy_bytes(%s, %s, %zu);", dst.s, src.s, te_tensor_bytes(in));
    return 0;
}

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
        else if ((prod *= req[i]) > ((int64_t)1 << 40))
            return te_op_fail(d, op, "%s has too many elements", what);
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
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (te_dtype_size(in->type) == 0)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has unsupported type %s", in->id,
                          in->name, te_dtype_name(in->type));
    if (te_check_type(d, op, out, "output 0", in->type))
        return -1;
    if (te_tensor_elems(in) != te_tensor_elems(out))
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has %lld elements but output 0 "
                          "(tensor %d '%s') has %lld", in->id, in->name,
                          (long long)te_tensor_elems(in), out->id, out->name,
                          (long long)te_tensor_elems(out));
    return check_new_shape(d, op, te_in(g, op, 1), te_tensor_elems(in), out);
}

const te_op_def te_op_reshape = {TE_OP_RESHAPE, reshape_check, NULL, NULL, te_move_emit_copy, 1, NULL};
