/* movement.c - helpers the data-movement lowerings share (see movement.h). */
#include "movement.h"

#include <stdio.h>
#include <string.h>

#define GATHER_MAX_RANK 8 /* TE_COPY_MAX_RANK of runtime/te_copy.h */

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

/* Input 0 exists with a known type and output 0 has the same type. */
int te_move_check_same_type(te_diag *d, const te_op *op, const te_tensor *in,
                            const te_tensor *out)
{
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (te_dtype_size(in->type) == 0)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has unsupported type %s", in->id,
                          in->name, te_dtype_name(in->type));
    return te_check_type(d, op, out, "output 0", in->type);
}

/* Input 0 and output 0 have as many elements. */
int te_move_check_same_elems(te_diag *d, const te_op *op, const te_tensor *in,
                             const te_tensor *out)
{
    if (te_tensor_elems(in) != te_tensor_elems(out))
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has %lld elements but output 0 "
                          "(tensor %d '%s') has %lld", in->id, in->name,
                          (long long)te_tensor_elems(in), out->id, out->name,
                          (long long)te_tensor_elems(out));
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
    te_emit_kernel(e, TE_K_COPY_BYTES);
    te_emit_kernel_call(e, TE_K_COPY_BYTES, dst.s, src.s, te_expr("%zu", te_tensor_bytes(in)).s);
    return 0;
}

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

/* dst = gather from src (element size esz) starting at element `base`. */
static int emit_gather_named(te_emit *e, te_name src, te_name dst, int64_t esz, int64_t base,
                             int rank, const int64_t *counts, const int64_t *steps)
{
    int32_t c[GATHER_MAX_RANK], s[GATHER_MAX_RANK], both[2 * GATHER_MAX_RANK];
    te_name arr;
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
    if (n == 1 && s[0] == 1) {
        te_emit_kernel(e, TE_K_COPY_BYTES);
        te_emit_kernel_call(e, TE_K_COPY_BYTES, dst.s,
                     te_expr("(const int8_t *)%s + %lld", src.s, (long long)(base * esz)).s,
                     te_expr("%d", (int)c[0]).s);
        return 0;
    }
    for (k = 0; k < n; k++) {
        both[k] = c[k];
        both[n + k] = s[k];
    }
    arr = te_emit_const_i32(e, both, (size_t)(2 * n), "gather");
    te_emit_kernel(e, TE_K_COPY_GATHER_S8);
    te_emit_kernel_call(e, TE_K_COPY_GATHER_S8,
                 te_expr("(const int8_t *)%s + %lld", src.s, (long long)(base * esz)).s,
                 te_expr("(int8_t *)%s", dst.s).s, te_expr("%d", n).s, arr.s,
                 te_expr("%s + %d", arr.s, n).s);
    return 0;
}

/* The same gather done now, on constant data (constant folding). */
void te_move_gather_now(const uint8_t *in, uint8_t *out, size_t esz, int64_t base, int rank,
                        const int64_t *counts, const int64_t *steps)
{
    int64_t idx[TE_MAX_RANK] = {0}, total = 1, i;
    int k;
    for (k = 0; k < rank; k++)
        total *= counts[k];
    for (i = 0; i < total; i++) {
        int64_t src = base;
        for (k = 0; k < rank; k++)
            src += idx[k] * steps[k];
        memcpy(out + (size_t)i * esz, in + (size_t)src * esz, esz);
        for (k = rank - 1; k >= 0; k--) { /* odometer, last axis fastest */
            if (++idx[k] < counts[k])
                break;
            idx[k] = 0;
        }
    }
}

int te_move_fold_copy(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in = te_in(g, op, 0);
    if (!in->data)
        return 0;
    memcpy(out[0], in->data, te_tensor_bytes(te_out(g, op, 0)));
    return 1;
}

te_kernel_id te_move_copy_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    if (!in || !out || out->alias_of == in->id || te_tensor_bytes(in) == 0)
        return TE_K_VIEW;
    return TE_K_COPY_BYTES;
}

/* Output 0 = gather from input 0 starting at element `base`: counts/steps
 * per axis in elements (rank <= TE_MAX_RANK). */
int te_move_emit_gather(te_emit *e, const te_op *op, int64_t base, int rank,
                        const int64_t *counts, const int64_t *steps)
{
    return te_move_emit_gather_io(e, op, 0, 0, base, rank, counts, steps);
}

/* Output `out_i` = gather from input `in_i` (same element type). */
int te_move_emit_gather_io(te_emit *e, const te_op *op, int in_i, int out_i, int64_t base,
                           int rank, const int64_t *counts, const int64_t *steps)
{
    const te_tensor *in = te_in(e->g, op, in_i), *out = te_out(e->g, op, out_i);
    int64_t esz = (int64_t)te_dtype_size(in->type);
    te_name src, dst;
    int k;
    for (k = 0; k < rank; k++)
        if (counts[k] == 0)
            return 0;
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    return emit_gather_named(e, src, dst, esz, base, rank, counts, steps);
}

/* 1 when output `out_i` is a zero-copy view of input `in_i` (pass_alias). */
int te_move_is_view(const te_graph *g, const te_op *op, int in_i, int out_i)
{
    const te_tensor *in, *out;
    if (in_i >= op->n_in || out_i >= op->n_out || op->in[in_i] < 0 || op->out[out_i] < 0)
        return 0;
    in = &g->tensors[op->in[in_i]];
    out = &g->tensors[op->out[out_i]];
    return out->alias_of == in->id; /* the graph's aliases are views only */
}

int te_move_region_axis(const te_op *op, int k, te_move_axis_place *p)
{
    const int y = k == op->opt.region.ay;
    if (!op->opt.region.set || (k != op->opt.region.ay && k != op->opt.region.ax))
        return 0;
    p->in_size = y ? op->opt.region.in_h : op->opt.region.in_w;
    p->out_size = y ? op->opt.region.out_h : op->opt.region.out_w;
    p->in_origin = y ? op->opt.region.iy : op->opt.region.ix;
    p->out_origin = y ? op->opt.region.oy : op->opt.region.ox;
    return 1;
}
