/* op_conv2d.c - CONV_2D lowering (int8 activations, int8 per-channel or
 * per-tensor weights, optional int32 bias, SAME/VALID plus any explicit
 * padding folded in from a PAD) onto te_conv2d_s8.
 *
 * Everything TFLite Micro derives in Prepare is computed here at compile
 * time (helpers in conv_family.c) and baked into the call as literals. */
#include <math.h>
#include <stdlib.h>

#include "conv_family.h"
#include "quant/quant.h"

/* ------------------------------------------------------------- CONV_2D */

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    const te_options *o = &op->opt;
    int64_t oh, ow;
    int groups;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input and output must be 4-D (NHWC), got ranks %d and %d",
                          in->rank, out->rank);
    oh = te_convfam_conv_out(o, 0, in->shape[1], w->shape[1]);
    ow = te_convfam_conv_out(o, 1, in->shape[2], w->shape[2]);
    if (in->shape[3] < 1 || in->shape[3] % w->shape[3] != 0)
        return te_op_fail(d, op, "input has %d channels, not a multiple of the weights' %d",
                          in->shape[3], w->shape[3]);
    groups = in->shape[3] / w->shape[3];
    if (w->shape[0] % groups != 0)
        return te_op_fail(d, op, "%d output channels do not split into %d groups", w->shape[0],
                          groups);
    if (oh < 1 || ow < 1)
        return te_op_fail(d, op, "input %dx%d is smaller than the dilated %dx%d filter",
                          in->shape[1], in->shape[2], w->shape[1], w->shape[2]);
    if (out->shape[0] != in->shape[0] || out->shape[1] != oh || out->shape[2] != ow ||
        out->shape[3] != w->shape[0])
        return te_op_fail(d, op, "output shape [%d,%d,%d,%d] does not match the expected "
                          "[%d,%lld,%lld,%d]", out->shape[0], out->shape[1], out->shape[2],
                          out->shape[3], in->shape[0], (long long)oh, (long long)ow,
                          w->shape[0]);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *w, *out;
    int32_t lo, hi;
    if (te_check_io_count(d, op, 2, 3, 1))
        return -1;
    in = te_in(g, op, 0);
    w = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_convfam_check_act_type(d, op, in, "input 0") ||
        te_convfam_check_act_type(d, op, out, "output 0"))
        return -1;
    if (te_convfam_check_weights(d, op, w, 4, 0) ||
        te_convfam_check_bias(d, op, te_in(g, op, 2), w->shape[0]) ||
        te_convfam_check_conv_options(d, op, in) ||
        check_shapes(d, op, in, w, out))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    return te_tensor_elems(out) * w->shape[1] * w->shape[2] * w->shape[3];
}

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    int32_t lo, hi;
    te_name mult, shift, x, wt, b, y;
    if (te_convfam_act_range(e->diag, op, o->activation, out, &lo, &hi) ||
        te_convfam_emit_requant(e, in, w, out, w->shape[0], 0, &mult, &shift))
        return -1;
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, "conv2d");
    te_emit_stmt(e,
                 "te_conv2d_s8(&(const te_conv2d_params){.batches = %d, .in_h = %d, .in_w = %d, "
                 ".in_c = %d, .out_h = %d, .out_w = %d, .out_c = %d, .k_h = %d, .k_w = %d, "
                 ".filter_c = %d, .stride_h = %d, .stride_w = %d, .dil_h = %d, .dil_w = %d, "
                 ".pad_top = %d, .pad_left = %d, .input_offset = %d, .output_offset = %d, "
                 ".act_min = %d, .act_max = %d}, %s, %s, %s, %s, %s, %s);",
                 in->shape[0], in->shape[1], in->shape[2], in->shape[3], out->shape[1],
                 out->shape[2], out->shape[3], w->shape[1], w->shape[2], w->shape[3],
                 o->stride_h, o->stride_w, o->dilation_h, o->dilation_w,
                 (int)te_convfam_conv_pad(o, 0, in->shape[1], w->shape[1], out->shape[1]),
                 (int)te_convfam_conv_pad(o, 1, in->shape[2], w->shape[2], out->shape[2]),
                 (int)-in->q.zero_point[0], (int)out->q.zero_point[0], (int)lo, (int)hi, x.s,
                 wt.s, b.s, mult.s, shift.s, y.s);
    return 0;
}

const te_op_def te_op_conv2d = {TE_OP_CONV_2D, check, macs, NULL, emit, 0, NULL};
