/* op_pad.c - PAD (int8 or int16, rank <= 5, constant int32/int64 paddings
 * of shape [rank, 2], optional scalar constant_values input).  As in TFLite
 * Micro the pad value is constant_values when given, else the output zero
 * point for int8 and 0 for int16 (its int16 kernel takes a raw 0); the data
 * is copied unchanged (no requantization).  PADV2 is the same operator
 * (te_op_padv2 below). */
#include <stdio.h>

#include "movement.h"

#define PAD_MAX_RANK 5

/* Padding before (lo) and after (hi) dimension k: the paddings tensor's,
 * or on a patch clone's height/width axes what its region needs (its
 * output region starts op->opt.region.oy rows into the whole output, its
 * input region region.iy rows into the whole input). */
static void pad_amounts(const te_op *op, const te_tensor *pad, const te_tensor *in,
                        const te_tensor *out, int k, int64_t *lo, int64_t *hi)
{
    *lo = te_move_const_int(pad, 2 * k);
    *hi = te_move_const_int(pad, 2 * k + 1);
    if (op->opt.region.set && (k == op->opt.region.ay || k == op->opt.region.ax)) {
        int y = k == op->opt.region.ay;
        *lo = (y ? op->opt.region.iy : op->opt.region.ix) + *lo -
              (y ? op->opt.region.oy : op->opt.region.ox);
        *hi = out->shape[k] - in->shape[k] - *lo;
    }
}

static int check_paddings(const te_op *op, te_diag *d, const te_tensor *in, const te_tensor *pad,
                          const te_tensor *out)
{
    int k;
    if (!pad)
        return te_op_fail(d, op, "input 1 (paddings) is missing");
    if (pad->type != TE_DT_INT32 && pad->type != TE_DT_INT64)
        return te_op_fail(d, op, "input 1 (paddings, tensor %d '%s') has type %s, expected int32 "
                          "or int64", pad->id, pad->name, te_dtype_name(pad->type));
    if (te_check_const(d, op, pad, "input 1 (paddings)"))
        return -1;
    if (te_tensor_elems(pad) != 2 * (int64_t)in->rank)
        return te_op_fail(d, op, "input 1 (paddings, tensor %d '%s') has %lld entries, expected "
                          "%d (input rank x 2)", pad->id, pad->name,
                          (long long)te_tensor_elems(pad), 2 * in->rank);
    for (k = 0; k < in->rank; k++) {
        int64_t lo, hi;
        pad_amounts(op, pad, in, out, k, &lo, &hi);
        if (lo < 0 || hi < 0 || lo > 0x7fffffff || hi > 0x7fffffff)
            return te_op_fail(d, op, "paddings of dimension %d (%lld, %lld) are not supported "
                              "(negative or too large)", k, (long long)lo, (long long)hi);
        if (out->shape[k] != in->shape[k] + lo + hi)
            return te_op_fail(d, op, "output 0 (tensor %d '%s') has size %d in dimension %d, "
                              "expected %lld", out->id, out->name, out->shape[k], k,
                              (long long)(in->shape[k] + lo + hi));
    }
    return 0;
}

/* The optional scalar constant_values input: the data's type; for int8
 * quantized like the output (TFLite Micro checks that for int8 only and
 * pads int16 with the raw value). */
static int check_value(const te_op *op, te_diag *d, const te_tensor *v, const te_tensor *out)
{
    if (te_check_type(d, op, v, "input 2 (constant_values)", out->type))
        return -1;
    if (te_tensor_elems(v) != 1)
        return te_op_fail(d, op, "input 2 (constant_values, tensor %d '%s') must have one element",
                          v->id, v->name);
    if (v->data && te_check_const(d, op, v, "input 2 (constant_values)"))
        return -1;
    if (out->type == TE_DT_INT8 && out->q.count > 0 &&
        (v->q.count < 1 || v->q.zero_point[0] != out->q.zero_point[0] ||
         v->q.scale[0] != out->q.scale[0]))
        return te_op_fail(d, op, "input 2 (constant_values, tensor %d '%s') must have the output's "
                          "scale and zero point", v->id, v->name);
    return 0;
}

static int pad_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0), *v = te_in(g, op, 2);
    if (te_check_io_count(d, op, 2, 3, 1))
        return -1;
    if (te_check_type(d, op, in, "input 0",
                      in && in->type == TE_DT_INT16 ? TE_DT_INT16 : TE_DT_INT8) ||
        te_check_type(d, op, out, "output 0", in->type))
        return -1;
    if (in->rank > PAD_MAX_RANK)
        return te_op_fail(d, op, "input 0 has rank %d, at most %d is supported", in->rank,
                          PAD_MAX_RANK);
    if (out->rank != in->rank)
        return te_op_fail(d, op, "output 0 has rank %d, input 0 has rank %d", out->rank, in->rank);
    if (out->q.count > 0 && te_check_quant(d, op, out, "output 0"))
        return -1;
    if (te_tensor_elems(out) > 0x7fffffff)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') is too large", out->id, out->name);
    if (check_paddings(op, d, in, te_in(g, op, 1), out))
        return -1;
    return v ? check_value(op, d, v, out) : 0;
}

static int pad_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    const te_tensor *pad = te_in(e->g, op, 1), *v = te_in(e->g, op, 2);
    int32_t p[3 * PAD_MAX_RANK];
    int k, lead = PAD_MAX_RANK - in->rank;
    char value[160];
    te_name arr, src, dst;
    te_kernel_id kernel = out->type == TE_DT_INT16 ? TE_K_PAD_S16 : TE_K_PAD_S8;
    if (te_tensor_elems(out) == 0)
        return 0;
    for (k = 0; k < PAD_MAX_RANK; k++) {
        int r = k - lead;
        int64_t lo = 0, hi = 0;
        if (r >= 0)
            pad_amounts(op, pad, in, out, r, &lo, &hi);
        p[k] = r < 0 ? 1 : in->shape[r];
        p[PAD_MAX_RANK + k] = (int32_t)lo;
        p[2 * PAD_MAX_RANK + k] = (int32_t)hi;
    }
    if (v) {
        te_name vname = te_emit_tensor(e, v->id);
        snprintf(value, sizeof value, "%s[0]", vname.s);
    } else
        snprintf(value, sizeof value, "%d",
                 out->type == TE_DT_INT8 && out->q.count > 0 ? (int)out->q.zero_point[0] : 0);
    arr = te_emit_const_i32(e, p, 3 * PAD_MAX_RANK, "pad");
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, kernel);
    te_emit_kernel_call(e, kernel, src.s, dst.s, arr.s, te_expr("%s + %d", arr.s, PAD_MAX_RANK).s,
                 te_expr("%s + %d", arr.s, 2 * PAD_MAX_RANK).s, value);
    return 0;
}

/* Same per-tensor scale and zero point: the PAD copies bytes unchanged. */
static int same_quant(const te_tensor *a, const te_tensor *b)
{
    return a->q.count == 1 && b->q.count == 1 && a->q.scale[0] == b->q.scale[0] &&
           a->q.zero_point[0] == b->q.zero_point[0];
}

/* The value PAD writes (constant_values, else the int8 output zero point,
 * the int16 raw 0) is the output zero point. */
static int pads_with_zero_point(const te_graph *g, const te_op *pad)
{
    const te_tensor *out = &g->tensors[pad->out[0]];
    const te_tensor *v = pad->n_in > 2 && pad->in[2] >= 0 ? &g->tensors[pad->in[2]] : NULL;
    if (out->type != TE_DT_INT8)
        return 0;
    if (!v)
        return 1;
    return v->type == TE_DT_INT8 && v->data && v->data_bytes >= 1 &&
           (int8_t)v->data[0] == out->q.zero_point[0];
}

/* te_op_def.hw_padding: {top, bottom, left, right} of a 4-D PAD of
 * height and width only, with the zero point, quantization unchanged. */
static int pad_hw_padding(const te_graph *g, const te_op *pad, int p[4])
{
    const te_tensor *in, *amounts;
    int k;
    if (pad->n_in < 2 || pad->n_out != 1 || pad->in[0] < 0 || pad->out[0] < 0 ||
        g->tensors[pad->in[0]].data ||
        !same_quant(&g->tensors[pad->in[0]], &g->tensors[pad->out[0]]) ||
        !pads_with_zero_point(g, pad))
        return -1;
    in = &g->tensors[pad->in[0]];
    amounts = pad->in[1] >= 0 ? &g->tensors[pad->in[1]] : NULL;
    if (in->rank != 4 || !amounts || !amounts->data || te_tensor_elems(amounts) != 8)
        return -1;
    if (te_move_const_int(amounts, 0) || te_move_const_int(amounts, 1) ||
        te_move_const_int(amounts, 6) || te_move_const_int(amounts, 7))
        return -1;
    for (k = 0; k < 4; k++) {
        int64_t v = te_move_const_int(amounts, 2 + k);
        if (v < 0 || v > 0xffff)
            return -1;
        p[k] = (int)v;
    }
    return 0;
}

/* Patch stages: an int8 PAD runs on a region, padding only where the
 * region reaches the whole tensor's border. */
static te_patch_kind pad_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    const te_tensor *pad = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
    return in && in->type == TE_DT_INT8 && !in->data && pad && pad->data &&
                   te_tensor_elems(pad) == 2 * (int64_t)in->rank
               ? TE_PATCH_REMAP
               : TE_PATCH_NONE;
}

/* Input rows/columns an output box reads: shifted by the padding before,
 * clipped to the input.  Axes inside a pixel (after height and width) keep
 * their padding on every patch (pad_amounts): a channel PAD, BlazeFace's
 * widened shortcut, is pointwise in height and width.  No padding of the
 * outer (batch) axes. */
static int pad_patch_remap(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                           te_region *in)
{
    const te_tensor *x = &g->tensors[op->in[0]], *pad = &g->tensors[op->in[1]];
    int k;
    for (k = 0; k < ay && k < ax; k++)
        if (te_move_const_int(pad, 2 * k) || te_move_const_int(pad, 2 * k + 1))
            return -1;
    in->y0 = out.y0 - (int)te_move_const_int(pad, 2 * ay);
    in->y1 = out.y1 - (int)te_move_const_int(pad, 2 * ay);
    in->x0 = out.x0 - (int)te_move_const_int(pad, 2 * ax);
    in->x1 = out.x1 - (int)te_move_const_int(pad, 2 * ax);
    in->y0 = in->y0 < 0 ? 0 : in->y0;
    in->x0 = in->x0 < 0 ? 0 : in->x0;
    in->y1 = in->y1 > x->shape[ay] ? x->shape[ay] : in->y1;
    in->x1 = in->x1 > x->shape[ax] ? x->shape[ax] : in->x1;
    return in->y1 > in->y0 && in->x1 > in->x0 ? 0 : -1;
}

/* The kernel of the data's width (PAD and PADV2 run through one kernel, as
 * in TFLite Micro). */
static te_kernel_id pad_variant(const te_graph *g, const te_op *op)
{
    return g->tensors[op->out[0]].type == TE_DT_INT16 ? TE_K_PAD_S16 : TE_K_PAD_S8;
}

const te_op_def te_op_pad = {
    .opcode = TE_OP_PAD,
    .check = pad_check,
    .emit = pad_emit,
    .variant = pad_variant,
    .int16x8 = 1,
    .hw_padding = pad_hw_padding,
    .patch_kind = pad_patch_kind,
    .patch_remap = pad_patch_remap,
};

/* PADV2: the same operator with its constant_values input always given. */
const te_op_def te_op_padv2 = {
    .opcode = TE_OP_PADV2,
    .check = pad_check,
    .emit = pad_emit,
    .variant = pad_variant,
    .int16x8 = 1,
    .patch_kind = pad_patch_kind,
    .patch_remap = pad_patch_remap,
};
