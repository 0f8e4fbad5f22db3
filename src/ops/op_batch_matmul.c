/* op_batch_matmul.c - BATCH_MATMUL int8 or int16x8 (ranks 2-5, adj_x,
 * adj_y, batch dimensions broadcast as TFLite Micro does, either operand an
 * activation or a constant; int16 with every zero point 0, as TFLite Micro
 * requires): both operands described by strides for te_batch_matmul_s8 /
 * _s16.  A constant right-hand side that is not adj_y is
 * stored transposed ([batch, cols, depth]) so the kernel reads it
 * contiguously, as TFLite Micro transposes it once at preparation. */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "quant/quant.h"
#include "te_batch_matmul.h"
#include "te_common.h"

/* 33025 * 255 * 255 < 2^31: the int32 accumulator cannot overflow. */
#define BMM_MAX_DEPTH 33025
/* int16: 131071 * 2^30 < 2^47, the bound of TFLite's int64 requantization. */
#define BMM_MAX_DEPTH_S16 131071

/* Shapes extended to rank 5 and the output's batch dims. */
typedef struct {
    int l[5], r[5], batch[3];
    int rows, cols, depth;
} bmm_shape;

static void extend5(const te_tensor *t, int *d)
{
    int k, pad = 5 - t->rank;
    for (k = 0; k < 5; k++)
        d[k] = k < pad ? 1 : t->shape[k - pad];
}

/* -1 when the batch dims do not broadcast or the depths differ. */
static int bmm_shape_of(const te_tensor *lhs, const te_tensor *rhs, const te_op *op, bmm_shape *s)
{
    int k, rdepth;
    extend5(lhs, s->l);
    extend5(rhs, s->r);
    for (k = 0; k < 3; k++) {
        if (s->l[k] != s->r[k] && s->l[k] != 1 && s->r[k] != 1)
            return -1;
        s->batch[k] = s->l[k] == 1 ? s->r[k] : s->l[k];
    }
    s->rows = op->opt.adj_x ? s->l[4] : s->l[3];
    s->depth = op->opt.adj_x ? s->l[3] : s->l[4];
    s->cols = op->opt.adj_y ? s->r[3] : s->r[4];
    rdepth = op->opt.adj_y ? s->r[4] : s->r[3];
    return rdepth == s->depth ? 0 : -1;
}

/* TFLite Micro's GetQuantizedConvolutionMultipler without a bias (the
 * overload batch_matmul.cc calls): the two input scales multiplied in
 * float, then widened and divided by the output scale in double. */
static void bmm_multiplier(const te_tensor *lhs, const te_tensor *rhs, const te_tensor *out,
                           int32_t *mult, int *shift)
{
    double product = (double)(lhs->q.scale[0] * rhs->q.scale[0]);
    te_quantize_multiplier(product / (double)out->q.scale[0], mult, shift);
}

/* int16: zero points 0 and a multiplier TFLite's int64 requantization takes
 * (shift at most 7). */
static int check_s16_quant(te_diag *d, const te_op *op, const te_tensor *lhs,
                           const te_tensor *rhs, const te_tensor *out)
{
    const te_tensor *t[3];
    int32_t mult;
    int shift, k;
    t[0] = lhs;
    t[1] = rhs;
    t[2] = out;
    for (k = 0; k < 3; k++)
        if (t[k]->q.zero_point[0] != 0)
            return te_op_fail(d, op, "int16 tensor %d '%s' has zero point %lld; int16 "
                              "BATCH_MATMUL needs 0 (as TFLite Micro)", t[k]->id, t[k]->name,
                              (long long)t[k]->q.zero_point[0]);
    bmm_multiplier(lhs, rhs, out, &mult, &shift);
    if (shift > 7)
        return te_op_fail(d, op, "output scale %g is too small for input scales %g and %g",
                          (double)out->q.scale[0], (double)lhs->q.scale[0],
                          (double)rhs->q.scale[0]);
    return 0;
}

static int bmm_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *lhs = te_in(g, op, 0), *rhs = te_in(g, op, 1), *out = te_out(g, op, 0);
    bmm_shape s;
    int k, orank, s16;
    if (te_check_io_count(d, op, 2, 2, 1))
        return -1;
    s16 = lhs && lhs->type == TE_DT_INT16;
    if (te_check_type(d, op, lhs, "input 0", s16 ? TE_DT_INT16 : TE_DT_INT8) ||
        te_check_type(d, op, rhs, "input 1", s16 ? TE_DT_INT16 : TE_DT_INT8) ||
        te_check_type(d, op, out, "output 0", s16 ? TE_DT_INT16 : TE_DT_INT8) ||
        te_check_quant(d, op, lhs, "input 0") || te_check_quant(d, op, rhs, "input 1") ||
        te_check_quant(d, op, out, "output 0"))
        return -1;
    if (rhs->data && te_check_const(d, op, rhs, "input 1"))
        return -1;
    if (lhs->data && te_check_const(d, op, lhs, "input 0"))
        return -1;
    if (lhs->rank < 2 || lhs->rank > 5 || rhs->rank < 2 || rhs->rank > 5)
        return te_op_fail(d, op, "inputs must have rank 2 to 5 (have %d and %d)", lhs->rank,
                          rhs->rank);
    if (bmm_shape_of(lhs, rhs, op, &s) < 0)
        return te_op_fail(d, op, "input shapes do not multiply (adj_x %d, adj_y %d, batch "
                          "dimensions must match or be 1)", op->opt.adj_x, op->opt.adj_y);
    orank = lhs->rank > rhs->rank ? lhs->rank : rhs->rank;
    if (out->rank != orank)
        return te_op_fail(d, op, "output 0 has rank %d, expected %d", out->rank, orank);
    for (k = 0; k < orank; k++) {
        int want = k == orank - 2 ? s.rows : k == orank - 1 ? s.cols : s.batch[k + 5 - orank];
        if (out->shape[k] != want)
            return te_op_fail(d, op, "output 0 dimension %d is %d, expected %d", k,
                              out->shape[k], want);
    }
    if (s.depth > (s16 ? BMM_MAX_DEPTH_S16 : BMM_MAX_DEPTH))
        return te_op_fail(d, op, "a shared dimension of %d overflows the %s accumulator",
                          s.depth, s16 ? "int64" : "int32");
    if (s16 && check_s16_quant(d, op, lhs, rhs, out) < 0)
        return -1;
    if (te_tensor_elems(lhs) > INT32_MAX || te_tensor_elems(rhs) > INT32_MAX ||
        te_tensor_elems(out) > INT32_MAX)
        return te_op_fail(d, op, "tensors are too large");
    return 0;
}

/* Element stride of batch dim k of an extended shape (0: broadcast). */
static int32_t batch_stride(const int *d, int k)
{
    int32_t st = 1;
    int i;
    if (d[k] == 1)
        return 0;
    for (i = k + 1; i < 5; i++)
        st *= d[i];
    return st;
}

/* Fills the kernel parameters; rhs_transposed: a constant rhs (not adj_y)
 * stored as [batch, cols, depth]. */
void te_batch_matmul_make_params(const te_tensor *lhs, const te_tensor *rhs,
                                 const te_tensor *out, const te_op *op, int rhs_transposed,
                                 te_batch_matmul_params *p);
void te_batch_matmul_make_params(const te_tensor *lhs, const te_tensor *rhs,
                                 const te_tensor *out, const te_op *op, int rhs_transposed,
                                 te_batch_matmul_params *p)
{
    bmm_shape s;
    int k;
    bmm_shape_of(lhs, rhs, op, &s);
    for (k = 0; k < 3; k++) {
        p->batch[k] = s.batch[k];
        p->lhs_batch_stride[k] = batch_stride(s.l, k);
        p->rhs_batch_stride[k] = batch_stride(s.r, k);
    }
    p->rows = s.rows;
    p->cols = s.cols;
    p->depth = s.depth;
    p->lhs_row_stride = op->opt.adj_x ? 1 : s.depth;
    p->lhs_depth_stride = op->opt.adj_x ? s.rows : 1;
    p->rhs_col_stride = op->opt.adj_y || rhs_transposed ? s.depth : 1;
    p->rhs_depth_stride = op->opt.adj_y || rhs_transposed ? 1 : s.cols;
    p->lhs_offset = -(int32_t)lhs->q.zero_point[0];
    p->rhs_offset = -(int32_t)rhs->q.zero_point[0];
    p->out_zp = (int32_t)out->q.zero_point[0];
    bmm_multiplier(lhs, rhs, out, &p->mult, &p->shift);
}

/* A constant rhs [..., depth, cols] as [..., cols, depth] (int8 or int16). */
static te_name emit_rhs_transposed(te_emit *e, const te_tensor *rhs, int *ok)
{
    int64_t n = te_tensor_elems(rhs), depth = rhs->shape[rhs->rank - 2],
            cols = rhs->shape[rhs->rank - 1], m, k, j;
    size_t esz = te_dtype_size(rhs->type);
    uint8_t *t = malloc(n > 0 ? (size_t)n * esz : 1);
    te_name name;
    *ok = t != NULL;
    if (!t)
        return te_emit_const_i8(e, NULL, 0, "rhs_t");
    for (m = 0; depth * cols > 0 && m < n / (depth * cols); m++)
        for (k = 0; k < depth; k++)
            for (j = 0; j < cols; j++)
                memcpy(t + (size_t)(m * depth * cols + j * depth + k) * esz,
                       rhs->data + (size_t)(m * depth * cols + k * cols + j) * esz, esz);
    name = esz == 2 ? te_emit_const_i16(e, (const int16_t *)(const void *)t, (size_t)n, "rhs_t")
                    : te_emit_const_i8(e, (const int8_t *)t, (size_t)n, "rhs_t");
    free(t);
    return name;
}

static te_kernel_id bmm_variant(const te_graph *g, const te_op *op)
{
    return g->tensors[op->in[0]].type == TE_DT_INT16 ? TE_K_BATCH_MATMUL_S16
                                                     : TE_K_BATCH_MATMUL_S8;
}

static int bmm_emit(te_emit *e, const te_op *op)
{
    const te_tensor *lhs = te_in(e->g, op, 0), *rhs = te_in(e->g, op, 1),
                    *out = te_out(e->g, op, 0);
    int transpose = rhs->data && !op->opt.adj_y, ok = 1;
    te_kernel_id kernel = bmm_variant(e->g, op);
    te_batch_matmul_params p;
    te_name pl, pr, po;
    if (te_tensor_elems(out) == 0)
        return 0;
    te_batch_matmul_make_params(lhs, rhs, out, op, transpose, &p);
    pl = te_emit_tensor(e, lhs->id);
    pr = transpose ? emit_rhs_transposed(e, rhs, &ok) : te_emit_tensor(e, rhs->id);
    if (!ok)
        return te_op_fail(e->diag, op, "out of memory");
    po = te_emit_tensor(e, out->id);
    te_emit_kernel(e, kernel);
    te_params_begin(e, "te_batch_matmul_params");
    {
        int batch[3], lhs_bs[3], rhs_bs[3], k;
        for (k = 0; k < 3; k++) {
            batch[k] = (int)p.batch[k];
            lhs_bs[k] = (int)p.lhs_batch_stride[k];
            rhs_bs[k] = (int)p.rhs_batch_stride[k];
        }
        te_params_ints(e, "batch", batch, 3);
        te_params_ints(e, "lhs_batch_stride", lhs_bs, 3);
        te_params_ints(e, "rhs_batch_stride", rhs_bs, 3);
    }
    te_params_int(e, "rows", p.rows);
    te_params_int(e, "cols", p.cols);
    te_params_int(e, "depth", p.depth);
    te_params_int(e, "lhs_row_stride", p.lhs_row_stride);
    te_params_int(e, "lhs_depth_stride", p.lhs_depth_stride);
    te_params_int(e, "rhs_col_stride", p.rhs_col_stride);
    te_params_int(e, "rhs_depth_stride", p.rhs_depth_stride);
    te_params_int(e, "lhs_offset", p.lhs_offset);
    te_params_int(e, "rhs_offset", p.rhs_offset);
    te_params_int(e, "mult", p.mult);
    te_params_int(e, "shift", p.shift);
    te_params_int(e, "out_zp", p.out_zp);
    te_emit_kernel_call(e, kernel, te_params_end(e).s, pl.s, pr.s, po.s);
    return 0;
}

static int64_t bmm_macs(const te_graph *g, const te_op *op)
{
    const te_tensor *lhs = te_in((te_graph *)g, op, 0), *rhs = te_in((te_graph *)g, op, 1);
    const te_tensor *out = te_out((te_graph *)g, op, 0);
    bmm_shape s;
    if (!lhs || !rhs || !out || bmm_shape_of(lhs, rhs, op, &s) < 0)
        return 0;
    return te_tensor_elems(out) * s.depth;
}

const te_op_def te_op_batch_matmul = {
    .opcode = TE_OP_BATCH_MATMUL,
    .check = bmm_check,
    .macs = bmm_macs,
    .emit = bmm_emit,
    .variant = bmm_variant,
    .int16x8 = 1,
};
