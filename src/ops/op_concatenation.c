/* op_concatenation.c - CONCATENATION along any axis of any number of
 * inputs (int8, int16, int32, int64, float32; rank <= 6).  TFLite Micro
 * copies int8 inputs unchanged even when their scale or zero point differ
 * from the output's, and so do we: one te_concat_s8 row copy per input,
 * except for inputs their producers wrote in place (pass_concat.c). */
#include <stdio.h>
#include <string.h>

#include "ops.h"

static int check_type(const te_op *op, te_diag *d, const te_tensor *out)
{
    if (!out)
        return te_op_fail(d, op, "output 0 is missing");
    if (out->type != TE_DT_INT8 && out->type != TE_DT_INT16 && out->type != TE_DT_INT32 &&
        out->type != TE_DT_INT64 && out->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has unsupported type %s", out->id,
                          out->name, te_dtype_name(out->type));
    if (out->rank < 1 || out->rank > 6)
        return te_op_fail(d, op, "output 0 has rank %d, expected 1 to 6", out->rank);
    if (te_tensor_bytes(out) > 0x7fffffff)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') is too large", out->id, out->name);
    return 0;
}

/* Input i has the output's type and shape except along the axis. */
static int check_input(const te_op *op, te_diag *d, const te_tensor *in, int i,
                       const te_tensor *out, int axis)
{
    char which[32];
    int k;
    snprintf(which, sizeof which, "input %d", i);
    if (te_check_type(d, op, in, which, out->type))
        return -1;
    if (in->rank != out->rank)
        return te_op_fail(d, op, "input %d (tensor %d '%s') has rank %d, output has rank %d", i,
                          in->id, in->name, in->rank, out->rank);
    for (k = 0; k < out->rank; k++)
        if (k != axis && in->shape[k] != out->shape[k])
            return te_op_fail(d, op, "input %d (tensor %d '%s') has size %d in dimension %d, "
                              "output has %d", i, in->id, in->name, in->shape[k], k,
                              out->shape[k]);
    return 0;
}

static int concat_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *out = te_out(g, op, 0);
    int64_t total = 0;
    int i, axis = op->opt.axis;
    if (te_check_io_count(d, op, 1, 0x7fff, 1) || check_type(op, d, out))
        return -1;
    if (op->opt.activation != TE_ACT_NONE)
        return te_op_fail(d, op, "fused activation %d is not supported", (int)op->opt.activation);
    if (axis < 0)
        axis += out->rank;
    if (axis < 0 || axis >= out->rank)
        return te_op_fail(d, op, "axis %d is out of range for rank %d", op->opt.axis, out->rank);
    for (i = 0; i < op->n_in; i++) {
        const te_tensor *in = te_in(g, op, i);
        if (check_input(op, d, in, i, out, axis))
            return -1;
        total += in->shape[axis];
    }
    if (total != out->shape[axis])
        return te_op_fail(d, op, "inputs add up to %lld along axis %d, output 0 has %d",
                          (long long)total, axis, out->shape[axis]);
    return 0;
}

/* Input i was written straight into its place in the output (pass_concat.c),
 * in the candidate's storage st (NULL: no slices). */
static int in_place(const te_storage *st, const te_op *op, int i)
{
    return st && te_storage_slice(st, op->in[i]) &&
           te_storage_alias_of(st, op->in[i]) == op->out[0];
}

/* TE_K_VIEW when every input is already in place, else the copy kernel. */
static te_kernel_id concat_variant(const te_graph *g, const te_storage *st, const te_op *op)
{
    int i;
    for (i = 0; i < op->n_in; i++)
        if (!in_place(st, op, i) && te_tensor_elems(&g->tensors[op->in[i]]) > 0)
            return TE_K_CONCAT_S8;
    return TE_K_VIEW;
}

static int concat_emit(te_emit *e, const te_op *op)
{
    const te_tensor *out = te_out(e->g, op, 0);
    int64_t outer = 1, inner = (int64_t)te_dtype_size(out->type), offset = 0;
    int i, k, axis = op->opt.axis < 0 ? op->opt.axis + out->rank : op->opt.axis;
    te_name dst = te_emit_tensor(e, out->id);
    if (te_tensor_elems(out) == 0 || e->low->kernel == TE_K_VIEW)
        return 0;
    for (k = 0; k < axis; k++)
        outer *= out->shape[k];
    for (k = axis + 1; k < out->rank; k++)
        inner *= out->shape[k];
    te_emit_kernel(e, TE_K_CONCAT_S8);
    for (i = 0; i < op->n_in; i++) {
        const te_tensor *in = te_in(e->g, op, i);
        int64_t row = in->shape[axis] * inner;
        te_name src;
        if (row == 0 || in_place(te_emit_storage(e), op, i)) {
            offset += row;
            continue;
        }
        src = te_emit_tensor(e, in->id);
        te_emit_kernel_call(e, TE_K_CONCAT_S8, te_expr("(const int8_t *)%s", src.s).s,
                     te_expr("(int8_t *)%s + %lld", dst.s, (long long)offset).s,
                     te_expr("%lld", (long long)outer).s, te_expr("%lld", (long long)row).s,
                     te_expr("%lld", (long long)(out->shape[axis] * inner)).s);
        offset += row;
    }
    return 0;
}

/* Cost features: inputs written in place (slices) cost nothing. */
static void cost_features(const te_graph *g, const te_storage *st, const te_op *op,
                          te_cost_features *f)
{
    double copied = 0;
    int i;
    for (i = 0; i < op->n_in; i++)
        if (op->in[i] >= 0 && !in_place(st, op, i))
            copied += (double)te_tensor_elems(&g->tensors[op->in[i]]);
    if (f->f[TE_CF_OUT] > 0)
        f->f[TE_CF_ROWS] *= copied / f->f[TE_CF_OUT];
    f->f[TE_CF_OUT] = copied;
}

/* The kernel and the cost features depend on which inputs the candidate
 * writes in place (o->st). */
static void concat_lower(const te_graph *g, const te_op *op, const te_lower_opts *o,
                         te_lowering *l)
{
    cost_features(g, o->st, op, &l->cost);
    l->kernel = concat_variant(g, o->st, op);
}

const te_op_def te_op_concatenation = {
    .opcode = TE_OP_CONCATENATION,
    .int16x8 = 1,
    .check = concat_check,
    .emit = concat_emit,
    .lower = concat_lower,
    .concatenates = 1,
    /* on a patch when it joins channels (fire / inception modules): every
     * input then has the output's height and width (patch_geometry.c) */
    .patch_kind = te_patch_pointwise,
};
