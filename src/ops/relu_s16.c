/* relu_s16.c - RELU / RELU6 on int16 tensors as TFLite Micro prepares them
 * (activations_common.cc): RELU rescales by input scale / output scale
 * (QuantizeMultiplier) and clamps to [0, 32767] (zero points 0, which
 * ReluPrepare requires); RELU6 clamps to [input zero point, 6.0 quantized
 * with the input's parameters] (FloatToQuantizedType) and ignores the
 * output's quantization. */
#include "relu_s16.h"

#include <limits.h>
#include <math.h>

#include "quant/quant.h"

static int check_zero_zp(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (te_check_quant(d, op, t, which))
        return -1;
    if (t->q.zero_point[0] != 0)
        return te_op_fail(d, op, "%s (tensor %d '%s') is int16 with zero point %lld: int16 "
                          "RELU needs zero point 0", which, t->id, t->name,
                          (long long)t->q.zero_point[0]);
    return 0;
}

/* RELU's multiplier, or -1 when TFLite's left shift would exceed 31. */
static int relu_multiplier(const te_tensor *in, const te_tensor *out, int32_t *mult, int *shift)
{
    te_quantize_multiplier((double)in->q.scale[0] / (double)out->q.scale[0], mult, shift);
    return *shift > 31 ? -1 : 0;
}

/* RELU6's upper bound, FloatToQuantizedType<int16_t>(6, scale, zp):
 * roundf(6 / scale) converted to int32 as x86-64 does (out of range:
 * INT32_MIN, as te_lut_relu6), plus the zero point, clamped to int16. */
static int32_t relu6_six(const te_tensor *in)
{
    double r = (double)roundf(6.0f / in->q.scale[0]);
    int32_t six = r >= -2147483648.0 && r < 2147483648.0 ? (int32_t)r : INT32_MIN;
    int64_t v = (int64_t)six + in->q.zero_point[0];
    return v < -32768 ? -32768 : v > 32767 ? 32767 : (int32_t)v;
}

int te_relu_s16_check(te_graph *g, const te_op *op, te_diag *d, int six)
{
    const te_tensor *in, *out;
    int32_t mult;
    int shift;
    if (te_check_io_count(d, op, 1, 1, 1))
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_INT16) ||
        te_check_type(d, op, out, "output 0", TE_DT_INT16) ||
        te_check_quant(d, op, in, "input 0") ||
        (!six && (check_zero_zp(d, op, in, "input 0") || check_zero_zp(d, op, out, "output 0"))))
        return -1;
    if (te_tensor_elems(in) != te_tensor_elems(out))
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has %lld elements, input 0 has %lld",
                          out->id, out->name, (long long)te_tensor_elems(out),
                          (long long)te_tensor_elems(in));
    if (te_tensor_elems(in) > INT_MAX)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has more than %d elements", in->id,
                          in->name, INT_MAX);
    if (!six && relu_multiplier(in, out, &mult, &shift))
        return te_op_fail(d, op, "input scale / output scale = %g is too large",
                          (double)in->q.scale[0] / (double)out->q.scale[0]);
    return 0;
}

int te_relu_s16_emit(te_emit *e, const te_op *op, int six)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    int32_t mult = 0;
    int shift = 0;
    te_name x, y, prm;
    if (!six && relu_multiplier(in, out, &mult, &shift))
        return te_op_fail(e->diag, op, "input scale / output scale is too large");
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, TE_K_RELU_S16);
    te_params_begin(e, "te_relu_s16_params");
    te_params_int(e, "rescale", !six);
    te_params_int(e, "mult", mult);
    te_params_int(e, "shift", shift);
    te_params_int(e, "act_min", six ? in->q.zero_point[0] : 0); /* RELU6: the input's zero */
    te_params_int(e, "act_max", six ? relu6_six(in) : 32767);
    prm = te_params_end(e);
    te_emit_kernel_call(e, TE_K_RELU_S16, prm.s, x.s, y.s,
                 te_expr("%lld", (long long)te_tensor_elems(in)).s);
    return 0;
}
