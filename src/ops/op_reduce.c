/* op_reduce.c - the reductions besides MEAN, over any constant int32 axes
 * (negative ones too), keep_dims or not: REDUCE_MAX and REDUCE_MIN on int8
 * (TFLite Micro's ReduceGeneric; input and output must share scale and zero
 * point, as TFLite Micro requires), REDUCE_ALL on bool (ReduceGeneric with
 * true and logical and: REDUCE_MIN's kernel on the 0 / 1 bytes; TFLite
 * Micro since December 2025) and SUM on int8 or int16x8 (TFLite
 * Micro's QuantizedMeanOrSum with compute_sum: the sum minus count * input
 * zero point requantized by input_scale / output_scale, which is
 * te_mean_s8 / te_mean_s16 with that multiplier).  The axis layout is
 * MEAN's (te_mean_make_params). */
/* Only the kernel parameter structs are used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_mean.h"
#include "te_reduce.h"

/* op_mean.c */
int te_check_reducer_io(te_graph *g, const te_op *op, te_diag *d);
int te_check_reducer_io_s8_s16(te_graph *g, const te_op *op, te_diag *d);
void te_mean_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                         te_mean_params *p);

static int32_t reduce_axis_value(const te_tensor *axis, int64_t i)
{
    const uint8_t *p = axis->data + 4 * i;
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/* Output elements of reducing `in` over `axis`, or -1 for an axis out of
 * range (TFLite ignores the axes of a scalar). */
static int64_t reduce_out_elems(const te_tensor *in, const te_tensor *axis)
{
    int reduced[TE_MAX_RANK] = {0}, k;
    int64_t i, n = te_tensor_elems(axis), elems = 1;
    for (i = 0; i < n && in->rank > 0; i++) {
        int32_t a = reduce_axis_value(axis, i);
        if (a < -in->rank || a >= in->rank)
            return -1;
        reduced[a < 0 ? a + in->rank : a] = 1;
    }
    for (k = 0; k < in->rank; k++)
        if (!reduced[k])
            elems *= in->shape[k];
    return elems;
}

/* The input's size, the axes in range, the output's element count; the
 * output's element count in *elems. */
static int check_reduction(te_diag *d, const te_op *op, const te_tensor *in,
                           const te_tensor *axis, const te_tensor *out, int64_t *elems)
{
    if (in->rank > TE_REDUCE_MAX_DIMS || te_tensor_elems(in) > INT32_MAX)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    *elems = reduce_out_elems(in, axis);
    if (*elems < 0)
        return te_op_fail(d, op, "input 1 (tensor %d '%s') has an axis outside [-%d, %d)",
                          axis->id, axis->name, in->rank, in->rank);
    if (te_tensor_elems(out) != *elems)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has %lld elements, the reduction "
                          "gives %lld", out->id, out->name, (long long)te_tensor_elems(out),
                          (long long)*elems);
    return 0;
}

static int reduce_check(te_graph *g, const te_op *op, te_diag *d)
{
    te_tensor *in, *axis, *out;
    int64_t elems;
    if ((op->opcode == TE_OP_SUM ? te_check_reducer_io_s8_s16(g, op, d)
                                 : te_check_reducer_io(g, op, d)) < 0)
        return -1;
    in = te_in(g, op, 0);
    axis = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (check_reduction(d, op, in, axis, out, &elems) < 0)
        return -1;
    if (op->opcode != TE_OP_SUM && ((double)in->q.scale[0] != (double)out->q.scale[0] ||
                                    in->q.zero_point[0] != out->q.zero_point[0]))
        return te_op_fail(d, op, "output 0 (tensor %d '%s') must have the input's scale and zero "
                          "point (TFLite Micro requires it)", out->id, out->name);
    return 0;
}

/* The walk fields te_mean_params and te_reduce_params share, into the
 * params being built. */
static void param_walk(te_emit *e, int n_keep, const int *keep_size, const int *keep_stride,
                       int n_red, const int *red_size, const int *red_stride, int32_t count)
{
    te_params_int(e, "n_keep", n_keep);
    te_params_ints(e, "keep_size", keep_size, 6);
    te_params_ints(e, "keep_stride", keep_stride, 6);
    te_params_int(e, "n_red", n_red);
    te_params_ints(e, "red_size", red_size, 6);
    te_params_ints(e, "red_stride", red_stride, 6);
    te_params_int(e, "count", count);
}

/* SUM: MEAN's kernel parameters with the multiplier input_scale /
 * output_scale alone (no 1 / count). */
void te_sum_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                        te_mean_params *p);
void te_sum_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                        te_mean_params *p)
{
    te_mean_make_params(in, axis, out, p);
    te_quantize_multiplier((double)in->q.scale[0] / (double)out->q.scale[0], &p->mult, &p->shift);
}

/* SUM: te_mean_s8 / te_mean_s16 with te_sum_make_params. */
static int sum_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *axis = te_in(e->g, op, 1),
                    *out = te_out(e->g, op, 0);
    te_name pi = te_emit_tensor(e, in->id), po = te_emit_tensor(e, out->id);
    te_kernel_id k = in->type == TE_DT_INT16 ? TE_K_MEAN_S16 : TE_K_MEAN_S8;
    te_mean_params p;
    te_sum_make_params(in, axis, out, &p);
    te_emit_kernel(e, k);
    te_params_begin(e, "te_mean_params");
    param_walk(e, p.n_keep, p.keep_size, p.keep_stride, p.n_red, p.red_size, p.red_stride,
               p.count);
    te_params_int(e, "in_zp", p.in_zp);
    te_params_int(e, "mult", p.mult);
    te_params_int(e, "shift", p.shift);
    te_params_int(e, "out_zp", p.out_zp);
    te_emit_kernel_call(e, k, te_params_end(e).s, pi.s, po.s);
    return 0;
}

/* Fills the REDUCE_MAX / REDUCE_MIN kernel parameters. */
void te_reduce_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                           te_reduce_params *r);
void te_reduce_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                           te_reduce_params *r)
{
    te_mean_params p;
    int i;
    te_mean_make_params(in, axis, out, &p);
    memset(r, 0, sizeof *r);
    r->n_keep = p.n_keep;
    r->n_red = p.n_red;
    for (i = 0; i < TE_REDUCE_MAX_DIMS; i++) {
        r->keep_size[i] = p.keep_size[i];
        r->keep_stride[i] = p.keep_stride[i];
        r->red_size[i] = p.red_size[i];
        r->red_stride[i] = p.red_stride[i];
    }
    r->count = p.count;
}

static int extreme_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *axis = te_in(e->g, op, 1),
                    *out = te_out(e->g, op, 0);
    te_name pi = te_emit_tensor(e, in->id), po = te_emit_tensor(e, out->id);
    te_reduce_params p;
    te_reduce_make_params(in, axis, out, &p);
    te_emit_kernel(e, op->opcode == TE_OP_REDUCE_MAX ? TE_K_REDUCE_MAX_S8 : TE_K_REDUCE_MIN_S8);
    te_params_begin(e, "te_reduce_params");
    param_walk(e, p.n_keep, p.keep_size, p.keep_stride, p.n_red, p.red_size, p.red_stride,
               p.count);
    te_emit_kernel_call(e, op->opcode == TE_OP_REDUCE_MAX ? TE_K_REDUCE_MAX_S8 : TE_K_REDUCE_MIN_S8,
                 te_params_end(e).s, pi.s, po.s);
    return 0;
}

/* REDUCE_ALL: a bool input and output, the constant int32 axes. */
static int all_check(te_graph *g, const te_op *op, te_diag *d)
{
    te_tensor *in, *axis, *out;
    int64_t elems;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    axis = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_BOOL) < 0 ||
        te_check_type(d, op, axis, "input 1", TE_DT_INT32) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_BOOL) < 0 ||
        te_check_const(d, op, axis, "input 1") < 0 ||
        (in->data && te_check_const(d, op, in, "input 0") < 0) ||
        check_reduction(d, op, in, axis, out, &elems) < 0)
        return -1;
    if (te_tensor_elems(in) == 0 && elems > 0) /* every output would be "true" */
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is empty: a reduction over no "
                          "elements is not supported", in->id, in->name);
    return 0;
}

/* te_reduce_min_s8 over the 0 / 1 bytes of the bools: their AND. */
static int all_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *axis = te_in(e->g, op, 1),
                    *out = te_out(e->g, op, 0);
    te_name pi = te_emit_tensor(e, in->id), po = te_emit_tensor(e, out->id);
    te_reduce_params p;
    if (te_tensor_elems(out) == 0)
        return 0;
    te_reduce_make_params(in, axis, out, &p);
    te_emit_kernel(e, TE_K_REDUCE_MIN_S8);
    te_params_begin(e, "te_reduce_params");
    param_walk(e, p.n_keep, p.keep_size, p.keep_stride, p.n_red, p.red_size, p.red_stride,
               p.count);
    te_emit_kernel_call(e, TE_K_REDUCE_MIN_S8, te_params_end(e).s,
                        te_expr("(const int8_t *)%s", pi.s).s, te_expr("(int8_t *)%s", po.s).s);
    return 0;
}

static te_kernel_id reduce_variant(const te_graph *g, const te_op *op)
{
    if (op->opcode == TE_OP_SUM)
        return g->tensors[op->in[0]].type == TE_DT_INT16 ? TE_K_MEAN_S16 : TE_K_MEAN_S8;
    return op->opcode == TE_OP_REDUCE_MAX ? TE_K_REDUCE_MAX_S8 : TE_K_REDUCE_MIN_S8; /* MIN, ALL */
}

const te_op_def te_op_sum = {
    .opcode = TE_OP_SUM,
    .check = reduce_check,
    .emit = sum_emit,
    .variant = reduce_variant,
    .int16x8 = 1,
    .rescale = {1, 0, 1}, /* input scale / output scale, as MEAN */
};

const te_op_def te_op_reduce_max = {
    .opcode = TE_OP_REDUCE_MAX,
    .check = reduce_check,
    .emit = extreme_emit,
    .variant = reduce_variant,
};

const te_op_def te_op_reduce_min = {
    .opcode = TE_OP_REDUCE_MIN,
    .check = reduce_check,
    .emit = extreme_emit,
    .variant = reduce_variant,
};

const te_op_def te_op_reduce_all = {
    .opcode = TE_OP_REDUCE_ALL,
    .check = all_check,
    .emit = all_emit,
    .variant = reduce_variant,
};
