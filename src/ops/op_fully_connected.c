/* op_fully_connected.c - FULLY_CONNECTED lowering (int8 activations, int8
 * weights [units, depth] in the DEFAULT format quantized per tensor or per
 * unit, optional int32 bias) onto te_fully_connected_s8.
 *
 * Prepare-time values follow TFLite Micro's fully_connected_common.cc:
 * per-tensor weights take GetQuantizedConvolutionMultipler (scales
 * multiplied in float, bias scale checked), per-channel weights the double
 * per-channel formula.  The input is viewed as [batches, depth]; batches
 * come from the output (all of it but the last dimension), so keep_num_dims
 * only changes the output shape.  Shared helpers live in conv_family.c. */
#include <math.h>

#include "conv_family.h"


/* TFLite refuses a per-tensor FC whose bias scale strays from
 * input_scale * weights_scale by more than 2% of the output scale. */
static int check_bias_scale(te_diag *d, const te_op *op, const te_tensor *in,
                            const te_tensor *w, const te_tensor *b, const te_tensor *out)
{
    double prod, bias_scale;
    if (!b || w->q.count > 1)
        return 0;
    prod = (double)in->q.scale[0] * (double)w->q.scale[0];
    bias_scale = b->q.count > 0 ? (double)b->q.scale[0] : 0.0;
    if (!(fabs(prod - bias_scale) / (double)out->q.scale[0] <= 0.02))
        return te_op_fail(d, op, "bias (tensor %d '%s') scale %g does not match input scale "
                          "x weights scale %g", b->id, b->name, bias_scale, prod);
    return 0;
}

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    int units = w->shape[0], depth = w->shape[1];
    int64_t batches;
    if (out->rank < 1 || out->shape[out->rank - 1] != units)
        return te_op_fail(d, op, "output's last dimension must be the %d units", units);
    batches = te_tensor_elems(out) / units;
    if (te_tensor_elems(in) != batches * depth)
        return te_op_fail(d, op, "input has %lld elements, expected %lld (%lld x %d)",
                          (long long)te_tensor_elems(in), (long long)(batches * depth),
                          (long long)batches, depth);
    if (w->q.count > 1 && (w->q.quantized_dim != 0 || out->rank != 2))
        return te_op_fail(d, op, "per-channel weights need quantized dimension 0 and a 2-D "
                          "output (as TFLite Micro's kernel assumes)");
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *w, *out, *b;
    int32_t lo, hi;
    if (te_check_io_count(d, op, 2, 3, 1))
        return -1;
    if (op->opt.weights_format != 0)
        return te_op_fail(d, op, "weights format %d is not supported (only DEFAULT)",
                          op->opt.weights_format);
    in = te_in(g, op, 0);
    w = te_in(g, op, 1);
    b = te_in(g, op, 2);
    out = te_out(g, op, 0);
    if (te_convfam_check_act_type(d, op, in, "input 0") ||
        te_convfam_check_act_type(d, op, out, "output 0") ||
        te_convfam_check_weights(d, op, w, 2, 0) || te_convfam_check_bias(d, op, b, w->shape[0]) ||
        check_shapes(d, op, in, w, out) || check_bias_scale(d, op, in, w, b, out))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    return te_tensor_elems(&g->tensors[op->out[0]]) * w->shape[1];
}

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    int units = w->shape[0];
    int32_t lo, hi;
    te_name mult, shift, x, wt, b, y;
    if (te_convfam_act_range(e->diag, op, op->opt.activation, out, &lo, &hi) ||
        te_convfam_emit_requant(e, in, w, out, units, 1, &mult, &shift))
        return -1;
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, "fully_connected");
    te_emit_stmt(e,
                 "te_fully_connected_s8(&(const te_fully_connected_params){.batches = %lld, "
                 ".depth = %d, .units = %d, .input_offset = %d, .output_offset = %d, "
                 ".act_min = %d, .act_max = %d}, %s, %s, %s, %s, %s, %s);",
                 (long long)(te_tensor_elems(out) / units), w->shape[1], units,
                 (int)-in->q.zero_point[0], (int)out->q.zero_point[0], (int)lo, (int)hi, x.s,
                 wt.s, b.s, mult.s, shift.s, y.s);
    return 0;
}

const te_op_def te_op_fully_connected = {TE_OP_FULLY_CONNECTED, check, macs, NULL, emit, 0, NULL};
