/* op_transpose_conv.c - TRANSPOSE_CONV lowering (inputs: output shape,
 * never read, as in TFLite Micro: the output tensor's shape rules; int8
 * weights [out_c, kh, kw, in_c] per tensor or per output channel, int8
 * input, optional int32 bias) onto te_transpose_conv_s8; the
 * int16x8 form (int16 input and output with zero point 0, int64 bias) onto
 * te_transpose_conv_s16.
 *
 * As in TFLite Micro's transpose_conv.cc: the padding is derived from the
 * OUTPUT size (ComputePaddingHeightWidth with the output as "input"), and
 * the output is clamped to the fused activation's range (TFLite Micro since
 * its PR 3278 of January 2026; before, it prepared every TRANSPOSE_CONV with
 * kTfLiteActNone and clamped to the whole type range).  The kernel gathers
 * instead of scattering, so it needs no int32 scratch buffer, and any box
 * of the output can be computed from the input rows and columns that reach
 * it: in a patch stage it is a TE_PATCH_REMAP op, its clone's padding
 * shifted to its place.  Shared helpers live in conv_family.c. */
#include <stdlib.h>

#include "conv_family.h"
#include "conv_family_s16.h"


static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    const te_options *o = &op->opt;
    if (o->stride_h < 1 || o->stride_w < 1)
        return te_op_fail(d, op, "stride %dx%d must be >= 1", o->stride_h, o->stride_w);
    if (o->padding != TE_PAD_SAME && o->padding != TE_PAD_VALID)
        return te_op_fail(d, op, "unknown padding %d", (int)o->padding);
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input and output must be 4-D (NHWC), got ranks %d and %d",
                          in->rank, out->rank);
    if (in->shape[3] != w->shape[3] || out->shape[3] != w->shape[0] ||
        out->shape[0] != in->shape[0])
        return te_op_fail(d, op, "shapes do not agree: input [%d,%d,%d,%d], weights "
                          "[%d,%d,%d,%d], output [%d,%d,%d,%d]", in->shape[0], in->shape[1],
                          in->shape[2], in->shape[3], w->shape[0], w->shape[1], w->shape[2],
                          w->shape[3], out->shape[0], out->shape[1], out->shape[2],
                          out->shape[3]);
    return 0;
}

/* An int16 bias (older 16x8 converters): TFLite Micro widens it to int64
 * at every invoke; here once, at compile time, so it must be constant. */
static int is_s16_bias(const te_tensor *b)
{
    return b && b->type == TE_DT_INT16;
}

static int check_s16(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *w = te_in(g, op, 1), *in = te_in(g, op, 2), *out = te_out(g, op, 0);
    const te_tensor *b = te_in(g, op, 3);
    int32_t lo, hi;
    if (is_s16_bias(b) && te_tensor_elems(b) != w->shape[0])
        return te_op_fail(d, op, "bias (tensor %d '%s') has %lld elements, expected %d", b->id,
                          b->name, (long long)te_tensor_elems(b), w->shape[0]);
    if (is_s16_bias(b) && te_check_const(d, op, b, "the int16 bias"))
        return -1;
    if (te_convfam_s16_check_io(d, op, in, out) ||
        te_convfam_check_weights(d, op, w, 4, 0) ||
        (!is_s16_bias(b) && te_convfam_s16_check_bias(d, op, b, w->shape[0], 0)) ||
        check_shapes(d, op, in, w, out) ||
        te_convfam_s16_check_requant(d, op, in, w, out, w->shape[0], 0))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *w, *out;
    int32_t lo, hi;
    if (te_check_io_count(d, op, 3, 4, 1))
        return -1;
    w = te_in(g, op, 1);
    in = te_in(g, op, 2);
    out = te_out(g, op, 0);
    if (te_convfam_s16(in))
        return check_s16(g, op, d);
    if (te_convfam_check_act_type(d, op, in, "input 2") ||
        te_convfam_check_act_type(d, op, out, "output 0") ||
        te_convfam_check_weights(d, op, w, 4, 0) ||
        te_convfam_check_bias(d, op, te_in(g, op, 3), w->shape[0]) ||
        check_shapes(d, op, in, w, out))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *in = &g->tensors[op->in[2]];
    return te_tensor_elems(in) * w->shape[0] * w->shape[1] * w->shape[2];
}

/* padding.h ComputePaddingHeightWidth applied to the output size. */
static int pad_from_output(te_padding pad, int out, int k, int stride)
{
    int64_t n = te_convfam_out_size(pad, out, k, stride, 1);
    return (int)te_convfam_pad_before(out, k, stride, 1, n);
}

/* Input rows (one axis) that output rows [o0, o1) gather from: output row
 * oy reads input row (oy + pad - ky) / stride for the taps ky < k that
 * divide; from no later than (o0 + pad) / stride, so that the clone's
 * shifted padding (shifted_pad) is never negative, to the last one that
 * reaches o1 - 1, within [0, in). */
static void gather_rows(int64_t in, int64_t k, int64_t stride, int64_t pad, int64_t o0, int64_t o1,
                        int *i0, int *i1)
{
    int64_t lo = o0 + pad - k + 1, first = lo > 0 ? (lo + stride - 1) / stride : 0;
    int64_t at_o0 = (o0 + pad) / stride, last = (o1 - 1 + pad) / stride;
    if (first > at_o0)
        first = at_o0;
    if (first > in - 1)
        first = in - 1;
    if (last > in - 1)
        last = in - 1;
    if (last < first)
        last = first;
    *i0 = (int)first;
    *i1 = (int)last + 1;
}

/* The padding a clone whose output box starts at whole-output row o0 and
 * whose input box at input row i0 gives the kernel: the kernel's output row
 * oy then reads input row (oy + o0 + pad - ky) / stride - i0. */
static int shifted_pad(int pad, int o0, int i0, int stride) { return o0 + pad - i0 * stride; }

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *w = te_in(g, op, 1), *in = te_in(g, op, 2), *out = te_out(g, op, 0);
    const int reg = o->region.set; /* a patch clone: boxes of the whole tensors */
    const int whole_h = reg ? o->region.out_h : out->shape[1];
    const int whole_w = reg ? o->region.out_w : out->shape[2];
    int pad_top = pad_from_output(o->padding, whole_h, w->shape[1], o->stride_h);
    int pad_left = pad_from_output(o->padding, whole_w, w->shape[2], o->stride_w);
    const int s16 = te_convfam_s16(in);
    const te_kernel_id kernel = s16 ? TE_K_TRANSPOSE_CONV_S16 : TE_K_TRANSPOSE_CONV_S8;
    te_name mult, shift, x, wt, b, y;
    int32_t act_min, act_max;
    if (te_convfam_act_range(e->diag, op, o->activation, out, &act_min, &act_max))
        return -1;
    if (reg) {
        pad_top = shifted_pad(pad_top, o->region.oy, o->region.iy, o->stride_h);
        pad_left = shifted_pad(pad_left, o->region.ox, o->region.ix, o->stride_w);
    }
    if (te_convfam_emit_requant(e, in, w, out, w->shape[0], 0, &mult, &shift))
        return -1;
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    if (s16 && is_s16_bias(te_in(g, op, 3))) {
        const te_tensor *bt = te_in(g, op, 3);
        int64_t *wide = malloc(sizeof(int64_t) * (size_t)w->shape[0]);
        int c;
        if (!wide)
            return te_fail(e->diag, "out of memory");
        for (c = 0; c < w->shape[0]; c++) /* little-endian int16 model data */
            wide[c] = (int16_t)(uint16_t)(bt->data[2 * c] | bt->data[2 * c + 1] << 8);
        b = te_emit_const_i64(e, wide, (size_t)w->shape[0], "bias_int64");
        free(wide);
    } else {
        b = te_emit_tensor(e, op->n_in > 3 ? op->in[3] : -1);
    }
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, kernel);
    te_params_begin(e, "te_transpose_conv_params");
    te_params_int(e, "batches", in->shape[0]);
    te_params_int(e, "in_h", in->shape[1]);
    te_params_int(e, "in_w", in->shape[2]);
    te_params_int(e, "in_c", in->shape[3]);
    te_params_int(e, "out_h", out->shape[1]);
    te_params_int(e, "out_w", out->shape[2]);
    te_params_int(e, "out_c", out->shape[3]);
    te_params_int(e, "k_h", w->shape[1]);
    te_params_int(e, "k_w", w->shape[2]);
    te_params_int(e, "stride_h", o->stride_h);
    te_params_int(e, "stride_w", o->stride_w);
    te_params_int(e, "pad_top", pad_top);
    te_params_int(e, "pad_left", pad_left);
    te_params_int(e, "input_offset", -in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", act_min);
    te_params_int(e, "act_max", act_max);
    te_emit_kernel_call(e, kernel, te_params_end(e).s, x.s, wt.s, b.s, mult.s, shift.s, y.s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return te_convfam_s16(&g->tensors[op->in[2]]) ? TE_K_TRANSPOSE_CONV_S16
                                                  : TE_K_TRANSPOSE_CONV_S8;
}

/* Patch stages: an int8 TRANSPOSE_CONV (a decoder's learned upsampling)
 * runs on a box of its output, from the input box that reaches it. */
static te_patch_kind patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
    const te_tensor *s = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    return in && in->type == TE_DT_INT8 && !in->data && s && s->data ? TE_PATCH_REMAP
                                                                    : TE_PATCH_NONE;
}

static int patch_remap(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                       te_region *in)
{
    const te_tensor *x = &g->tensors[op->in[2]], *y = &g->tensors[op->out[0]];
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_options *o = &op->opt;
    if (ay != 1 || ax != 2 || out.y1 <= out.y0 || out.x1 <= out.x0 || out.y0 < 0 || out.x0 < 0 ||
        out.y1 > y->shape[1] || out.x1 > y->shape[2] || x->shape[1] < 1 || x->shape[2] < 1)
        return -1;
    gather_rows(x->shape[1], w->shape[1], o->stride_h,
                pad_from_output(o->padding, y->shape[1], w->shape[1], o->stride_h), out.y0, out.y1,
                &in->y0, &in->y1);
    gather_rows(x->shape[2], w->shape[2], o->stride_w,
                pad_from_output(o->padding, y->shape[2], w->shape[2], o->stride_w), out.x0, out.x1,
                &in->x0, &in->x1);
    return 0;
}

const te_op_def te_op_transpose_conv = {
    .opcode = TE_OP_TRANSPOSE_CONV,
    .check = check,
    .macs = macs,
    .emit = emit,
    .variant = variant,
    .int16x8 = 1,
    .patch_kind = patch_kind,
    .patch_remap = patch_remap,
    .rescale = {2, 2, 1},
};
