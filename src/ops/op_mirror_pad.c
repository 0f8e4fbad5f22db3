/* op_mirror_pad.c - MIRROR_PAD (REFLECT and SYMMETRIC) with constant int32
 * or int64 paddings of shape [rank, 2], any element type, rank 1 to 8.
 * Output index i along an axis reads input index
 *   i < left:              (left + o - 1) - min(i, left - 1)
 *   i - left >= size:      (size - 1 - o) - min(i - left - size, size - 1 - o)
 *   otherwise:             i - left
 * with o = 1 for REFLECT and 0 for SYMMETRIC, TFLite Micro's
 * GetInputDimension.  Paddings that would read outside the input (more
 * than size - o per side) are rejected.  The maps become byte-offset tables
 * for the table-driven gather te_copy_table_s8; an unpadded innermost axis
 * is copied as whole runs.  On a patch (TE_PATCH_REMAP) a clone maps its
 * output rows through the whole tensors' reflection (op->opt.region) into
 * the input rows its region holds. */
#include <stdlib.h>

#include "movement.h"

#define MIRROR_MAX_RANK 8 /* TE_COPY_TABLE_MAX_RANK */

/* The input index of output index i along an axis. */
static int64_t mirror_index(int64_t i, int64_t left, int64_t size, int offset)
{
    if (i < left) {
        int64_t orig = left + offset - 1;
        return orig - (i < orig - offset ? i : orig - offset);
    }
    i -= left;
    if (i >= size) {
        int64_t orig = size - (1 + offset);
        i -= size;
        return orig - (i < orig ? i : orig);
    }
    return i;
}

/* The input index (in the clone's input region) output index i (in its
 * output region) reads along axis k; in: input 0 as the op sees it. */
static int64_t source_index(const te_op *op, const te_tensor *pad, const te_tensor *in, int k,
                            int64_t i)
{
    int offset = op->opt.mirror_mode == 0 ? 1 : 0;
    int64_t left = te_move_const_int(pad, 2 * k);
    te_move_axis_place a;
    if (te_move_region_axis(op, k, &a))
        return mirror_index(a.out_origin + i, left, a.in_size, offset) - a.in_origin;
    return mirror_index(i, left, in->shape[k], offset);
}

/* A clone's region axis k: every output row reads a row of its input
 * region (the whole tensors' paddings checked as the op's). */
static int check_region_axis(te_diag *d, const te_op *op, const te_tensor *in,
                             const te_tensor *pad, const te_tensor *out, int k,
                             const te_move_axis_place *a)
{
    int64_t lo = te_move_const_int(pad, 2 * k), hi = te_move_const_int(pad, 2 * k + 1), i;
    int offset = op->opt.mirror_mode == 0 ? 1 : 0;
    if (lo < 0 || hi < 0 || lo > a->in_size - offset || hi > a->in_size - offset ||
        a->out_size != a->in_size + lo + hi)
        return te_op_fail(d, op, "paddings (%lld, %lld) of dimension %d do not fit its whole "
                          "tensors", (long long)lo, (long long)hi, k);
    for (i = 0; i < out->shape[k]; i++) {
        int64_t s = source_index(op, pad, in, k, i);
        if (s < 0 || s >= in->shape[k])
            return te_op_fail(d, op, "the patch region of dimension %d misses input row %lld",
                              k, (long long)(s + a->in_origin));
    }
    return 0;
}

static int check_paddings(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *pad,
                          const te_tensor *out)
{
    int k, offset = op->opt.mirror_mode == 0 ? 1 : 0;
    if (!pad || (pad->type != TE_DT_INT32 && pad->type != TE_DT_INT64))
        return te_op_fail(d, op, "input 1 (paddings) must be int32 or int64");
    if (te_check_const(d, op, pad, "input 1 (paddings)"))
        return -1;
    if (pad->rank != 2 || pad->shape[0] != in->rank || pad->shape[1] != 2)
        return te_op_fail(d, op, "input 1 (paddings, tensor %d '%s') must have shape [%d, 2]",
                          pad->id, pad->name, in->rank);
    for (k = 0; k < in->rank; k++) {
        int64_t lo = te_move_const_int(pad, 2 * k), hi = te_move_const_int(pad, 2 * k + 1);
        te_move_axis_place a;
        if (te_move_region_axis(op, k, &a)) {
            if (check_region_axis(d, op, in, pad, out, k, &a) < 0)
                return -1;
            continue;
        }
        if (lo < 0 || hi < 0 || lo > in->shape[k] - offset || hi > in->shape[k] - offset)
            return te_op_fail(d, op, "paddings (%lld, %lld) of dimension %d (size %d) are out of "
                              "range for %s", (long long)lo, (long long)hi, k, in->shape[k],
                              offset ? "REFLECT" : "SYMMETRIC");
        if (out->shape[k] != in->shape[k] + lo + hi)
            return te_op_fail(d, op, "output 0 (tensor %d '%s') has size %d in dimension %d, "
                              "expected %lld", out->id, out->name, out->shape[k], k,
                              (long long)(in->shape[k] + lo + hi));
    }
    return 0;
}

static int mirror_pad_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 2, 2, 1) || te_move_check_same_type(d, op, in, out))
        return -1;
    if (op->opt.mirror_mode != 0 && op->opt.mirror_mode != 1)
        return te_op_fail(d, op, "mode %d is neither REFLECT nor SYMMETRIC", op->opt.mirror_mode);
    if (in->rank < 1 || in->rank > MIRROR_MAX_RANK || out->rank != in->rank)
        return te_op_fail(d, op, "input 0 has rank %d and output 0 rank %d, expected equal "
                          "ranks 1 to %d", in->rank, out->rank, MIRROR_MAX_RANK);
    if (te_tensor_bytes(out) > 0x7fffffff)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') is too large", out->id, out->name);
    return check_paddings(d, op, in, te_in(g, op, 1), out);
}

static int mirror_pad_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    const te_tensor *pad = te_in(e->g, op, 1);
    int64_t esz = (int64_t)te_dtype_size(in->type), stride = esz, total = 0, i, run = esz;
    int32_t counts[MIRROR_MAX_RANK], *tables;
    int k, rank = in->rank;
    te_name ct, tt, src, dst;
    if (te_tensor_elems(out) == 0)
        return 0;
    /* an unpadded innermost axis is one run of bytes */
    if (rank > 1 && te_move_const_int(pad, 2 * (rank - 1)) == 0 &&
        te_move_const_int(pad, 2 * (rank - 1) + 1) == 0) {
        run = esz * in->shape[rank - 1];
        rank--;
    }
    for (k = 0; k < rank; k++)
        total += out->shape[k];
    tables = malloc((size_t)total * sizeof *tables);
    if (!tables)
        return te_fail(e->diag, "out of memory");
    stride = run;
    for (k = rank - 1, total = 0; k >= 0; k--)
        total += out->shape[k];
    for (k = rank - 1; k >= 0; k--) {
        total -= out->shape[k];
        counts[k] = out->shape[k];
        for (i = 0; i < out->shape[k]; i++)
            tables[total + i] = (int32_t)(source_index(op, pad, in, k, i) * stride);
        stride *= in->shape[k];
    }
    ct = te_emit_const_i32(e, counts, (size_t)rank, "mpdims");
    for (k = 0, total = 0; k < rank; k++)
        total += out->shape[k];
    tt = te_emit_const_i32(e, tables, (size_t)total, "mptab");
    free(tables);
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, TE_K_COPY_TABLE_S8);
    te_emit_kernel_call(e, TE_K_COPY_TABLE_S8, te_expr("(const int8_t *)%s", src.s).s,
                 te_expr("(int8_t *)%s", dst.s).s, te_expr("%d", rank).s, ct.s, tt.s,
                 te_expr("%lld", (long long)run).s);
    return 0;
}

static te_kernel_id mirror_pad_variant(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_K_COPY_TABLE_S8;
}

/* Patch stages: any element type, 4-D, the paddings constant. */
static te_patch_kind mirror_pad_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    const te_tensor *pad = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
    return in && !in->data && in->rank == 4 && pad && pad->data &&
                   te_tensor_elems(pad) == 2 * (int64_t)in->rank
               ? TE_PATCH_REMAP
               : TE_PATCH_NONE;
}

/* The input rows an output box reads: the span of the reflected indices
 * (a border row reads rows inside the tensor). */
static int mirror_pad_patch_remap(const te_graph *g, const te_op *op, int ay, int ax,
                                  te_region out, te_region *in)
{
    const te_tensor *x = &g->tensors[op->in[0]], *pad = &g->tensors[op->in[1]];
    int offset = op->opt.mirror_mode == 0 ? 1 : 0, axis;
    for (axis = 0; axis < 2; axis++) {
        int k = axis ? ax : ay, o0 = axis ? out.x0 : out.y0, o1 = axis ? out.x1 : out.y1, i;
        int64_t left = te_move_const_int(pad, 2 * k), lo = x->shape[k], hi = -1;
        for (i = o0; i < o1; i++) {
            int64_t s = mirror_index(i, left, x->shape[k], offset);
            lo = s < lo ? s : lo;
            hi = s > hi ? s : hi;
        }
        if (hi < lo || lo < 0 || hi >= x->shape[k])
            return -1;
        *(axis ? &in->x0 : &in->y0) = (int)lo;
        *(axis ? &in->x1 : &in->y1) = (int)hi + 1;
    }
    return 0;
}

const te_op_def te_op_mirror_pad = {
    .opcode = TE_OP_MIRROR_PAD,
    .check = mirror_pad_check,
    .emit = mirror_pad_emit,
    .variant = mirror_pad_variant,
    .patch_kind = mirror_pad_patch_kind,
    .patch_remap = mirror_pad_patch_remap,
};
