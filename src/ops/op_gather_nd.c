/* op_gather_nd.c - GATHER_ND as TFLite Micro: params int8 or float32 of
 * rank >= 1, int32 indices whose last dimension nd (<= 5, <= params rank)
 * addresses a slice params.shape[nd:]; output shape indices.shape[:-1] +
 * params.shape[nd:].  Each slice is bounds-checked on its flat position at
 * run time (te_gather_nd fails the invoke, as TFLM).  Constant params and
 * indices fold at compile time. */
#include "ops.h"

#include <string.h>

#define GND_MAX_ND 5

typedef struct {
    int32_t dims[5 + GND_MAX_ND]; /* te_gather_nd's dims */
} gnd_geom;

static void geometry(const te_tensor *p, const te_tensor *ix, gnd_geom *q)
{
    int nd = ix->shape[ix->rank - 1], i;
    int64_t n = 1, slice = 1, remain = te_tensor_elems(p);
    for (i = 0; i < ix->rank - 1; i++)
        n *= ix->shape[i];
    for (i = nd; i < p->rank; i++)
        slice *= p->shape[i];
    memset(q, 0, sizeof *q);
    q->dims[0] = (int32_t)n;
    q->dims[1] = nd;
    q->dims[2] = (int32_t)slice;
    q->dims[3] = (int32_t)remain;
    q->dims[4] = (int32_t)te_dtype_size(p->type);
    for (i = 0; i < nd; i++) {
        remain = p->shape[i] ? remain / p->shape[i] : 0;
        q->dims[5 + i] = (int32_t)remain;
    }
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *p, *ix, *o;
    int nd, i, k = 0;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    p = te_in(g, op, 0);
    ix = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (p->type != TE_DT_INT8 && p->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "params type %s is not supported (TFLite Micro: int8, float32)",
                          te_dtype_name(p->type));
    if (te_check_type(d, op, ix, "input 1 (indices)", TE_DT_INT32) < 0 ||
        te_check_type(d, op, o, "output 0", p->type) < 0)
        return -1;
    if (ix->data && te_check_const(d, op, ix, "input 1") < 0)
        return -1;
    if (p->data && te_check_const(d, op, p, "input 0") < 0)
        return -1;
    if (p->rank < 1 || ix->rank < 1)
        return te_op_fail(d, op, "params and indices must be at least vectors");
    nd = ix->shape[ix->rank - 1];
    if (nd > p->rank || nd > GND_MAX_ND || nd < 0)
        return te_op_fail(d, op, "index depth %d: TFLite Micro takes at most params rank (%d) "
                          "and 5", nd, p->rank);
    if (o->rank != ix->rank - 1 + p->rank - nd)
        return te_op_fail(d, op, "output 0 does not have the shape indices.shape[:-1] + "
                          "params.shape[%d:]", nd);
    for (i = 0; i < ix->rank - 1; i++)
        if (o->shape[k++] != ix->shape[i])
            return te_op_fail(d, op, "output 0 does not have the shape indices.shape[:-1] + "
                              "params.shape[%d:]", nd);
    for (i = nd; i < p->rank; i++)
        if (o->shape[k++] != p->shape[i])
            return te_op_fail(d, op, "output 0 does not have the shape indices.shape[:-1] + "
                              "params.shape[%d:]", nd);
    if (te_tensor_bytes(p) > INT32_MAX || te_tensor_elems(o) > INT32_MAX)
        return te_op_fail(d, op, "tensors of 2^31 bytes or more are not supported");
    return 0;
}

/* Runs the kernel's arithmetic on constants: 1 done, 0 not constant. */
static int fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *p = te_in(g, op, 0), *ix = te_in(g, op, 1);
    gnd_geom q;
    int32_t i, j;
    if (!p->data || !ix->data)
        return 0;
    geometry(p, ix, &q);
    for (i = 0; i < q.dims[0]; i++) {
        int64_t from = 0;
        for (j = 0; j < q.dims[1]; j++) {
            const uint8_t *b = ix->data + 4 * ((size_t)i * (size_t)q.dims[1] + (size_t)j);
            int32_t v = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                                  (uint32_t)b[3] << 24);
            from += (int64_t)v * q.dims[5 + j];
        }
        if (from < 0 || from + q.dims[2] > q.dims[3])
            return 0; /* out of bounds: left to the kernel, whose invoke fails as TFLM's */
        memcpy(out[0] + (size_t)i * (size_t)q.dims[2] * (size_t)q.dims[4],
               p->data + (size_t)from * (size_t)q.dims[4], (size_t)q.dims[2] * (size_t)q.dims[4]);
    }
    return 1;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *p = te_in(e->g, op, 0), *ix = te_in(e->g, op, 1);
    gnd_geom q;
    te_name dims, src, dst, idx;
    geometry(p, ix, &q);
    if (q.dims[0] == 0)
        return 0;
    dims = te_emit_const_i32(e, q.dims, 5 + q.dims[1], "gdims");
    idx = te_emit_tensor(e, ix->id);
    src = te_emit_tensor(e, p->id);
    dst = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_GATHER_ND);
    te_emit_kernel_call_status(e, TE_K_GATHER_ND, te_expr("(const int8_t *)%s", src.s).s,
                        te_expr("(int8_t *)%s", dst.s).s, dims.s, idx.s);
    return 0;
}

const te_op_def te_op_gather_nd = {
    .opcode = TE_OP_GATHER_ND,
    .check = check,
    .emit = emit,
    .fold = fold,
    .kernel = TE_ONE_KERNEL(TE_K_GATHER_ND),
};
