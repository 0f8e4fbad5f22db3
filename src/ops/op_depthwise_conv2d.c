/* op_depthwise_conv2d.c - DEPTHWISE_CONV_2D lowering (int8 activations,
 * int8 weights [1, kh, kw, in_c * multiplier] quantized per tensor or per
 * output channel, optional int32 bias, SAME/VALID plus explicit padding
 * folded in from a PAD) onto te_depthwise_conv2d_s8, or, when the planner
 * lets the output overwrite the input (multiplier 1), onto
 * te_depthwise_conv2d_s8_inplace.
 * Prepare-time values follow TFLite Micro's depthwise_conv_common.cc; the
 * shared helpers live in conv_family.c. */
#include "conv_family.h"

/* The multiplier is out_c / in_c.  TFLite Micro loops over the option's
 * value instead, so an option that disagrees (other than an absent 0)
 * would make it compute something else: refuse it. */
static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    const te_options *o = &op->opt;
    int64_t oh, ow;
    int mult;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input and output must be 4-D (NHWC), got ranks %d and %d",
                          in->rank, out->rank);
    if (w->shape[0] != 1)
        return te_op_fail(d, op, "weights' first dimension is %d, expected 1", w->shape[0]);
    if (in->shape[3] < 1 || w->shape[3] % in->shape[3] != 0)
        return te_op_fail(d, op, "%d output channels are not a multiple of %d input channels",
                          w->shape[3], in->shape[3]);
    mult = w->shape[3] / in->shape[3];
    if (o->depth_multiplier != 0 && o->depth_multiplier != mult)
        return te_op_fail(d, op, "depth_multiplier option %d disagrees with the shapes (%d -> "
                          "%d channels)", o->depth_multiplier, in->shape[3], w->shape[3]);
    oh = te_convfam_conv_out(o, 0, in->shape[1], w->shape[1]);
    ow = te_convfam_conv_out(o, 1, in->shape[2], w->shape[2]);
    if (oh < 1 || ow < 1)
        return te_op_fail(d, op, "input %dx%d is smaller than the dilated %dx%d filter",
                          in->shape[1], in->shape[2], w->shape[1], w->shape[2]);
    if (out->shape[0] != in->shape[0] || out->shape[1] != oh || out->shape[2] != ow ||
        out->shape[3] != w->shape[3])
        return te_op_fail(d, op, "output shape [%d,%d,%d,%d] does not match the expected "
                          "[%d,%lld,%lld,%d]", out->shape[0], out->shape[1], out->shape[2],
                          out->shape[3], in->shape[0], (long long)oh, (long long)ow,
                          w->shape[3]);
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
        te_convfam_check_act_type(d, op, out, "output 0") ||
        te_convfam_check_weights(d, op, w, 4, 3) ||
        te_convfam_check_bias(d, op, te_in(g, op, 2), w->shape[3]) ||
        te_convfam_check_conv_options(d, op, in) ||
        check_shapes(d, op, in, w, out))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    return te_tensor_elems(out) * w->shape[1] * w->shape[2];
}

/* The planner's decision: output 0 overwrites input 0. */
static int runs_inplace(const te_graph *g, const te_op *op)
{
    const te_tensor *out = &g->tensors[op->out[0]];
    return out->inplace && out->alias_of == op->in[0];
}

/* With depth multiplier 1 output channel c reads only input channel c, so
 * the in-place kernel saves one input channel plane at a time in scratch
 * and then overwrites that channel (and only it) with its outputs. */
static int inplace_input(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    if (in->type != TE_DT_INT8 || out->type != TE_DT_INT8 || in->rank != 4 || w->rank != 4 ||
        out->rank != 4 || w->shape[3] != in->shape[3] || out->shape[3] != in->shape[3] ||
        out->shape[0] != in->shape[0])
        return -1;
    return 0;
}

static size_t scratch_bytes(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]];
    return runs_inplace(g, op) ? (size_t)in->shape[1] * (size_t)in->shape[2] : 0;
}

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    int inplace = runs_inplace(g, op);
    int32_t lo, hi;
    te_name mult, shift, x, wt, b, y, plane;
    if (inplace && (w->shape[3] != in->shape[3] || te_tensor_bytes(out) > te_tensor_bytes(in)))
        return te_op_fail(e->diag, op, "cannot run in place (internal error)");
    if (te_convfam_act_range(e->diag, op, o->activation, out, &lo, &hi) ||
        te_convfam_emit_requant(e, in, w, out, w->shape[3], 0, &mult, &shift))
        return -1;
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = te_emit_tensor(e, out->id);
    plane = inplace ? te_emit_scratch(e, "int8_t") : y;
    te_emit_kernel(e, "depthwise_conv2d");
    te_emit_stmt(e,
                 "te_depthwise_conv2d_s8%s(&(const te_depthwise_conv2d_params){.batches = %d, "
                 ".in_h = %d, .in_w = %d, .in_c = %d, .out_h = %d, .out_w = %d, "
                 ".depth_mult = %d, .k_h = %d, .k_w = %d, .stride_h = %d, .stride_w = %d, "
                 ".dil_h = %d, .dil_w = %d, .pad_top = %d, .pad_left = %d, .input_offset = %d, "
                 ".output_offset = %d, .act_min = %d, .act_max = %d}, %s, %s, %s, %s, %s, %s);",
                 inplace ? "_inplace" : "", in->shape[0], in->shape[1], in->shape[2],
                 in->shape[3], out->shape[1], out->shape[2], w->shape[3] / in->shape[3],
                 w->shape[1], w->shape[2], o->stride_h, o->stride_w, o->dilation_h,
                 o->dilation_w,
                 (int)te_convfam_conv_pad(o, 0, in->shape[1], w->shape[1], out->shape[1]),
                 (int)te_convfam_conv_pad(o, 1, in->shape[2], w->shape[2], out->shape[2]),
                 (int)-in->q.zero_point[0], (int)out->q.zero_point[0], (int)lo, (int)hi,
                 inplace ? y.s : x.s, wt.s, b.s, mult.s, shift.s, plane.s);
    return 0;
}

const te_op_def te_op_depthwise_conv2d = {TE_OP_DEPTHWISE_CONV_2D, check, macs, scratch_bytes,
                                          emit, 0, inplace_input};
