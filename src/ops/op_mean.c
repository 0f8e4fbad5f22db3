/* op_mean.c - MEAN (int8 or int16x8, any constant int32 axes, keep_dims or
 * not): checks, the axis resolution and the requantization TFLite Micro's
 * QuantizedMeanOrSum uses (input_scale / output_scale, then 1 / count folded
 * into the multiplier), and the call to te_mean_s8 or te_mean_s16.  Equal
 * input and output quantization takes the same path: the goldens' TFLite
 * Micro requantizes there too (the MEANs of the shared
 * tinyengine_mcunetv2_large keep their quantization and match it layer by
 * layer; older TFLite Micro's truncating plain Mean differs on 2819 of the
 * first one's 6720 outputs). */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_mean.h"

/* Input dims split into kept and reduced runs (see te_mean.h). */
typedef struct {
    int n_keep, keep_size[6], keep_stride[6];
    int n_red, red_size[6], red_stride[6];
    long long count, out_elems;
} mean_layout;

void te_mean_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                         te_mean_params *p);

static int32_t mean_axis_value(const te_tensor *axis, int64_t i)
{
    const uint8_t *p = axis->data + 4 * i;
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/* Marks reduced[k] = 1 for every axis; -1 if an axis is out of range. */
static int mean_reduced_mask(const te_tensor *in, const te_tensor *axis, int *reduced)
{
    int64_t i, n = te_tensor_elems(axis);
    memset(reduced, 0, 6 * sizeof *reduced);
    if (in->rank == 0)
        return 0; /* TFLite ignores the axes of a scalar */
    for (i = 0; i < n; i++) {
        int32_t a = mean_axis_value(axis, i);
        if (a < -in->rank || a >= in->rank)
            return -1;
        reduced[a < 0 ? a + in->rank : a] = 1;
    }
    return 0;
}

/* Drops size-1 dims, merges neighbours of the same kind, computes strides. */
static void mean_build_layout(const te_tensor *in, const int *reduced, mean_layout *l)
{
    int size[6], red[6], n = 0, i;
    long long stride = 1;
    for (i = 0; i < in->rank; i++) {
        if (in->shape[i] == 1)
            continue;
        if (n > 0 && red[n - 1] == reduced[i]) {
            size[n - 1] *= in->shape[i];
            continue;
        }
        size[n] = in->shape[i];
        red[n++] = reduced[i];
    }
    memset(l, 0, sizeof *l);
    l->count = 1;
    l->out_elems = 1;
    for (i = n - 1; i >= 0; i--) {
        int *sz = red[i] ? l->red_size : l->keep_size, *st = red[i] ? l->red_stride : l->keep_stride;
        int *cnt = red[i] ? &l->n_red : &l->n_keep;
        memmove(sz + 1, sz, (size_t)*cnt * sizeof *sz);
        memmove(st + 1, st, (size_t)*cnt * sizeof *st);
        sz[0] = size[i];
        st[0] = (int)stride;
        ++*cnt;
        if (red[i])
            l->count *= size[i];
        else
            l->out_elems *= size[i];
        stride *= size[i];
    }
}

/* The checks MEAN, SUM, REDUCE_MAX and REDUCE_MIN share (op_reduce.c):
 * int8 data with per-tensor quantization in and out, a constant int32
 * axis tensor. */
int te_check_reducer_io(te_graph *g, const te_op *op, te_diag *d);
int te_check_reducer_io(te_graph *g, const te_op *op, te_diag *d)
{
    te_tensor *in, *axis, *out;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    axis = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_INT8) < 0 ||
        te_check_type(d, op, axis, "input 1", TE_DT_INT32) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_INT8) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, out, "output 0") < 0 ||
        te_check_const(d, op, axis, "input 1") < 0)
        return -1;
    if (in->data && te_check_const(d, op, in, "input 0") < 0)
        return -1;
    return 0;
}

/* te_check_reducer_io, with int16 data in and out accepted too (MEAN,
 * SUM). */
int te_check_reducer_io_s8_s16(te_graph *g, const te_op *op, te_diag *d);
int te_check_reducer_io_s8_s16(te_graph *g, const te_op *op, te_diag *d)
{
    te_tensor *in, *axis, *out;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    if (!in || in->type != TE_DT_INT16)
        return te_check_reducer_io(g, op, d);
    axis = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, axis, "input 1", TE_DT_INT32) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_INT16) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, out, "output 0") < 0 ||
        te_check_const(d, op, axis, "input 1") < 0)
        return -1;
    if (in->data && te_check_const(d, op, in, "input 0") < 0)
        return -1;
    return 0;
}

static int mean_check(te_graph *g, const te_op *op, te_diag *d)
{
    te_tensor *in, *axis, *out;
    int reduced[6];
    mean_layout l;
    if (te_check_reducer_io_s8_s16(g, op, d) < 0)
        return -1;
    in = te_in(g, op, 0);
    axis = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_tensor_elems(in) > INT32_MAX)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is too large", in->id, in->name);
    if (mean_reduced_mask(in, axis, reduced) < 0)
        return te_op_fail(d, op, "input 1 (tensor %d '%s') has an axis outside [-%d, %d)",
                          axis->id, axis->name, in->rank, in->rank);
    mean_build_layout(in, reduced, &l);
    if (te_tensor_elems(out) != l.out_elems)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has %lld elements, the reduction "
                          "gives %lld", out->id, out->name, (long long)te_tensor_elems(out),
                          l.out_elems);
    return 0;
}

/* TFLite QuantizedMeanOrSum: fold 1/count into multiplier and shift. */
static void mean_fold_count(long long count, int32_t *mult, int *shift)
{
    int s = 0;
    if (count <= 0)
        return;
    while (s < 62 && (count >> (s + 1)) != 0)
        s++;                          /* floor(log2(count)) */
    if (s > 32)
        s = 32;
    if (s > 31 + *shift)
        s = 31 + *shift;
    *mult = (int32_t)(((int64_t)*mult * ((int64_t)1 << s)) / count);
    *shift -= s;
}

/* Fills the kernel parameters (layout, folded multiplier) for MEAN of `in`
 * over the axes in the constant tensor `axis`. */
void te_mean_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                         te_mean_params *p)
{
    int reduced[6], i;
    mean_layout l;
    mean_reduced_mask(in, axis, reduced);
    mean_build_layout(in, reduced, &l);
    p->n_keep = l.n_keep;
    p->n_red = l.n_red;
    for (i = 0; i < 6; i++) {
        p->keep_size[i] = l.keep_size[i];
        p->keep_stride[i] = l.keep_stride[i];
        p->red_size[i] = l.red_size[i];
        p->red_stride[i] = l.red_stride[i];
    }
    p->count = (int32_t)l.count;
    p->in_zp = p->out_zp = p->mult = p->shift = 0;
    if (in->q.count < 1 || out->q.count < 1)
        return; /* unquantized (REDUCE_ALL's bools): the walk alone */
    p->in_zp = (int32_t)in->q.zero_point[0];
    p->out_zp = (int32_t)out->q.zero_point[0];
    te_quantize_multiplier((double)in->q.scale[0] / (double)out->q.scale[0], &p->mult, &p->shift);
    mean_fold_count(l.count, &p->mult, &p->shift);
}

/* The kernel emit() calls: int8 or int16. */
static te_kernel_id mean_variant(const te_graph *g, const te_op *op)
{
    return g->tensors[op->in[0]].type == TE_DT_INT16 ? TE_K_MEAN_S16 : TE_K_MEAN_S8;
}

static int mean_emit(te_emit *e, const te_op *op)
{
    te_kernel_id kernel = mean_variant(e->g, op);
    const te_tensor *in = te_in(e->g, op, 0), *axis = te_in(e->g, op, 1),
                    *out = te_out(e->g, op, 0);
    te_name pi = te_emit_tensor(e, in->id), po = te_emit_tensor(e, out->id);
    te_mean_params p;
    te_mean_make_params(in, axis, out, &p);
    te_emit_kernel(e, kernel);
    te_params_begin(e, "te_mean_params");
    te_params_int(e, "n_keep", p.n_keep);
    te_params_ints(e, "keep_size", p.keep_size, 6);
    te_params_ints(e, "keep_stride", p.keep_stride, 6);
    te_params_int(e, "n_red", p.n_red);
    te_params_ints(e, "red_size", p.red_size, 6);
    te_params_ints(e, "red_stride", p.red_stride, 6);
    te_params_int(e, "count", p.count);
    te_params_int(e, "in_zp", p.in_zp);
    te_params_int(e, "mult", p.mult);
    te_params_int(e, "shift", p.shift);
    te_params_int(e, "out_zp", p.out_zp);
    te_emit_call(e, te_kernel_name(kernel), te_params_end(e).s, pi.s, po.s);
    return 0;
}

const te_op_def te_op_mean = {
    .opcode = TE_OP_MEAN,
    .int16x8 = 1,
    .check = mean_check,
    .emit = mean_emit,
    .variant = mean_variant,
    .rescale = {1, 0, 1},
};
