/* op_space_batch.c - SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND, the pair the
 * converter puts around a dilated convolution: NHWC input of rank 4 (or
 * rank 3, NWC, taken as N x W x 1 x C as TFLite does), constant int32 /
 * int64 block_shape ([2], or [1] for rank 3) and paddings or crops
 * ([spatial, 2], non-negative).  SPACE_TO_BATCH_ND pads with the output
 * zero point (TFLite's semantics; 0 for unquantized types), which TFLite
 * Micro's reference leaves to an uninitialised parameter.  Any element
 * type: whole pixels move.  Lowered to te_space_batch. */
#include "movement.h"

/* {in_n, in_h, in_w, out_n, out_h, out_w, block_h, block_w, top, left,
 * depth bytes} for the kernels, and the bottom / right amounts. */
typedef struct {
    int64_t p[11];
    int64_t bottom, right;
} space_geom;

/* Shape of a rank 3 / 4 tensor as N, H, W, C. */
static void nhwc(const te_tensor *t, int64_t *n, int64_t *h, int64_t *w, int64_t *c)
{
    *n = t->shape[0];
    *h = t->shape[1];
    *w = t->rank == 4 ? t->shape[2] : 1;
    *c = t->shape[t->rank - 1];
}

static void geometry(te_graph *g, const te_op *op, space_geom *q)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    const te_tensor *blk = te_in(g, op, 1), *pad = te_in(g, op, 2);
    int four = in->rank == 4;
    int64_t c;
    nhwc(in, &q->p[0], &q->p[1], &q->p[2], &c);
    nhwc(out, &q->p[3], &q->p[4], &q->p[5], &c);
    q->p[6] = te_move_const_int(blk, 0);
    q->p[7] = four ? te_move_const_int(blk, 1) : 1;
    q->p[8] = te_move_const_int(pad, 0);
    q->bottom = te_move_const_int(pad, 1);
    q->p[9] = four ? te_move_const_int(pad, 2) : 0;
    q->right = four ? te_move_const_int(pad, 3) : 0;
    q->p[10] = c * (int64_t)te_dtype_size(in->type);
}

/* A constant int32 / int64 tensor. */
static int check_const_ints(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (t->type != TE_DT_INT32 && t->type != TE_DT_INT64)
        return te_op_fail(d, op, "%s (tensor %d '%s') has type %s, expected int32 or int64",
                          which, t->id, t->name, te_dtype_name(t->type));
    return te_check_const(d, op, t, which);
}

static int check_params(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *blk,
                        const te_tensor *pad)
{
    int spatial = in->rank - 2, k;
    const char *what = op->opcode == TE_OP_SPACE_TO_BATCH_ND ? "paddings" : "crops";
    if (check_const_ints(d, op, blk, "input 1 (block_shape)") ||
        check_const_ints(d, op, pad, op->opcode == TE_OP_SPACE_TO_BATCH_ND ? "input 2 (paddings)"
                                                                           : "input 2 (crops)"))
        return -1;
    if (te_tensor_elems(blk) != spatial || te_tensor_elems(pad) != 2 * spatial)
        return te_op_fail(d, op, "block_shape has %lld entries and %s %lld, expected %d and %d",
                          (long long)te_tensor_elems(blk), what, (long long)te_tensor_elems(pad),
                          spatial, 2 * spatial);
    for (k = 0; k < spatial; k++)
        if (te_move_const_int(blk, k) < 1 || te_move_const_int(blk, k) > 0xffff)
            return te_op_fail(d, op, "block_shape[%d] = %lld is not supported", k,
                              (long long)te_move_const_int(blk, k));
    for (k = 0; k < 2 * spatial; k++)
        if (te_move_const_int(pad, k) < 0 || te_move_const_int(pad, k) > 0xffff)
            return te_op_fail(d, op, "%s entry %d = %lld is not supported", what, k,
                              (long long)te_move_const_int(pad, k));
    return 0;
}

/* The output shape the operator gives, against the output tensor's. */
static int check_output(te_graph *g, const te_op *op, te_diag *d, const te_tensor *in,
                        const te_tensor *out)
{
    space_geom q;
    int64_t n, h, w, c, blocks, want_n, want_h, want_w;
    geometry(g, op, &q);
    nhwc(in, &n, &h, &w, &c);
    blocks = q.p[6] * q.p[7];
    if (op->opcode == TE_OP_SPACE_TO_BATCH_ND) {
        int64_t ph = h + q.p[8] + q.bottom, pw = w + q.p[9] + q.right;
        if (ph % q.p[6] || pw % q.p[7])
            return te_op_fail(d, op, "padded size %lldx%lld is not a multiple of the block "
                              "%lldx%lld", (long long)ph, (long long)pw, (long long)q.p[6],
                              (long long)q.p[7]);
        want_n = n * blocks;
        want_h = ph / q.p[6];
        want_w = pw / q.p[7];
    } else {
        if (n % blocks)
            return te_op_fail(d, op, "input batch %lld is not a multiple of the block size %lld",
                              (long long)n, (long long)blocks);
        want_n = n / blocks;
        want_h = h * q.p[6] - q.p[8] - q.bottom;
        want_w = w * q.p[7] - q.p[9] - q.right;
    }
    if (out->rank != in->rank || q.p[3] != want_n || q.p[4] != want_h || q.p[5] != want_w ||
        out->shape[out->rank - 1] != c)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') should be %lld x %lld x %lld x %lld "
                          "(N, H, W, C)", out->id, out->name, (long long)want_n,
                          (long long)want_h, (long long)want_w, (long long)c);
    return 0;
}

static int space_batch_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 3, 3, 1) || te_move_check_same_type(d, op, in, out))
        return -1;
    if ((in->rank != 3 && in->rank != 4) || out->rank != in->rank)
        return te_op_fail(d, op, "input 0 has rank %d and output 0 rank %d, expected 3 or 4 for "
                          "both", in->rank, out->rank);
    if (te_tensor_bytes(in) > 0x7fffffff || te_tensor_bytes(out) > 0x7fffffff)
        return te_op_fail(d, op, "a tensor is too large");
    if (op->opcode == TE_OP_SPACE_TO_BATCH_ND && out->type != TE_DT_INT8 && out->q.count > 0 &&
        out->q.zero_point[0] != 0)
        return te_op_fail(d, op, "padding %s data with zero point %lld is not supported",
                          te_dtype_name(out->type), (long long)out->q.zero_point[0]);
    if (check_params(d, op, in, te_in(g, op, 1), te_in(g, op, 2)))
        return -1;
    return check_output(g, op, d, in, out);
}

static int space_batch_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    space_geom q;
    int32_t p[11];
    int k;
    te_name arr, src, dst;
    if (te_tensor_elems(out) == 0)
        return 0;
    geometry(e->g, op, &q);
    for (k = 0; k < 11; k++)
        p[k] = (int32_t)q.p[k];
    arr = te_emit_const_i32(e, p, 11, "s2b");
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, op->opcode == TE_OP_SPACE_TO_BATCH_ND ? TE_K_SPACE_TO_BATCH_S8 : TE_K_BATCH_TO_SPACE_S8);
    if (op->opcode == TE_OP_SPACE_TO_BATCH_ND)
        te_emit_kernel_call(e, TE_K_SPACE_TO_BATCH_S8, te_expr("(const int8_t *)%s", src.s).s,
                     te_expr("(int8_t *)%s", dst.s).s, arr.s,
                     te_expr("%d", out->type == TE_DT_INT8 && out->q.count > 0
                                       ? (int)out->q.zero_point[0]
                                       : 0).s);
    else
        te_emit_kernel_call(e, TE_K_BATCH_TO_SPACE_S8, te_expr("(const int8_t *)%s", src.s).s,
                     te_expr("(int8_t *)%s", dst.s).s, arr.s);
    return 0;
}

static te_kernel_id space_batch_variant(const te_graph *g, const te_op *op)
{
    (void)g;
    return op->opcode == TE_OP_SPACE_TO_BATCH_ND ? TE_K_SPACE_TO_BATCH_S8
                                                 : TE_K_BATCH_TO_SPACE_S8;
}

const te_op_def te_op_space_to_batch_nd = {
    .opcode = TE_OP_SPACE_TO_BATCH_ND,
    .check = space_batch_check,
    .emit = space_batch_emit,
    .variant = space_batch_variant,
};

const te_op_def te_op_batch_to_space_nd = {
    .opcode = TE_OP_BATCH_TO_SPACE_ND,
    .check = space_batch_check,
    .emit = space_batch_emit,
    .variant = space_batch_variant,
};
