/* activation_s16.c - int16 LOGISTIC and TANH: TFLite Micro's Prepare-time
 * input rescaling and the operators' checks and kernel call (see
 * activation_s16.h). */
#include "activation_s16.h"

#include <math.h>

#include "../quant/quant.h"
#include "unary.h"

int te_checked_log2(float x, int *log2_result)
{
    const float l2 = logf(x) * (1.0f / logf(2.0f));
    const float rounded = te_roundf(l2);
    *log2_result = (int)rounded;
    return fabsf(l2 - rounded) < 1e-3f;
}

/* The kernels take (x * mult + 2^(shift-1)) >> shift with mult > 0; TFLM's
 * mult 0 stands for 3 << shift with no shift. */
static int resolve(int32_t mult, int32_t shift, int32_t *m, int32_t *s)
{
    if (mult == 0) {
        if (shift < 0 || shift > 13)
            return -1;
        mult = 3 << shift;
        shift = 0;
    }
    if (mult > 32767 || shift < 0 || shift > 31)
        return -1;
    *m = mult;
    *s = shift;
    return 0;
}

int te_s16_act_rescale(float in_scale, int tanh, int32_t *mult, int32_t *shift)
{
    int l2, pot = te_checked_log2(in_scale, &l2);
    int32_t s = (15 - 3) + l2;
    double m;
    if (pot && (s == 0 || (tanh && s == 1)))
        return resolve(0, s, mult, shift);
    /* to steps of 1/(3 * 4096): +-2^17 is +-10.7 */
    m = (double)in_scale * 4096.0 * 3.0;
    s = 0;
    while (m <= 32767.0 / 2.0 && s <= 30) {
        s++;
        m *= 2.0;
    }
    if (!(m < 2147483648.0))
        return -1;
    return resolve((int32_t)m, s, mult, shift);
}

int te_s16_tanh_pot_rescale(int scale_power, int32_t *mult, int32_t *shift)
{
    int32_t s = (15 + scale_power) - 3;
    if (s < 0)
        return resolve(3, -s, mult, shift);
    return resolve(0, s, mult, shift);
}

int te_s16_act_check(te_graph *g, const te_op *op, te_diag *d, int tanh)
{
    const te_tensor *in, *out;
    int32_t m, s;
    int l2;
    if (te_check_unary_s16(g, op, d) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (in->q.zero_point[0] != 0 || out->q.zero_point[0] != 0)
        return te_op_fail(d, op, "int16 input and output need zero point 0 (have %lld, %lld)",
                          (long long)in->q.zero_point[0], (long long)out->q.zero_point[0]);
    if (!te_checked_log2(out->q.scale[0], &l2) || l2 != -15)
        return te_op_fail(d, op, "int16 output scale %g is not 2^-15", (double)out->q.scale[0]);
    if (te_s16_act_rescale(in->q.scale[0], tanh, &m, &s) < 0)
        return te_op_fail(d, op, "int16 input scale %g is too %s for the int16 input rescaling",
                          (double)in->q.scale[0],
                          (double)in->q.scale[0] * 4096.0 * 3.0 >= 2147483648.0 ? "large"
                                                                               : "small");
    return 0;
}

int te_s16_act_emit(te_emit *e, const te_op *op, int tanh)
{
    const te_tensor *in = te_in(e->g, op, 0);
    te_name x = te_emit_tensor(e, op->in[0]), y = te_emit_tensor(e, op->out[0]);
    int32_t m, s;
    if (te_s16_act_rescale(in->q.scale[0], tanh, &m, &s) < 0)
        return te_op_fail(e->diag, op, "lost its input rescaling (internal error)");
    te_emit_kernel(e, tanh ? TE_K_TANH_S16 : TE_K_SIGMOID_S16);
    te_emit_kernel_call(e, tanh ? TE_K_TANH_S16 : TE_K_SIGMOID_S16, x.s, y.s,
                 te_expr("%lld", (long long)te_tensor_elems(in)).s, te_expr("%ld", (long)m).s,
                 te_expr("%ld", (long)s).s);
    return 0;
}

te_patch_kind te_s16_act_patch_kind(const te_graph *g, const te_op *op)
{
    if (op->n_in > 0 && op->in[0] >= 0 && g->tensors[op->in[0]].type == TE_DT_INT16)
        return TE_PATCH_NONE;
    return te_patch_pointwise(g, op);
}
