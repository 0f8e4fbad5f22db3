/* op_leaky_relu.c - LEAKY_RELU (int8 or int16x8): TFLM's two
 * requantizations (identity scale ratio for x >= zero point, alpha times it
 * below; the ratios computed in float, then widened).  int8 tabulates them
 * for all 256 inputs at compile time (the kernel is a table lookup); int16
 * runs them per element (te_leaky_relu_s16). */
#include "ops.h"

#include <math.h>

#include "../quant/lut_emit.h"
#include "../quant/lut_unary.h"
#include "quant/quant.h"
#include "unary.h"

static int table_for(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_leaky_relu(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
                             (int32_t)out->q.zero_point[0], op->opt.alpha, table);
}

/* The int16 form's multipliers (as the int8 table's); -1 when a left
 * shift would exceed 31. */
static int s16_multipliers(te_graph *g, const te_op *op, int32_t m[2], int s[2])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    float identity_ratio = in->q.scale[0] / out->q.scale[0];
    float alpha_ratio = in->q.scale[0] * op->opt.alpha / out->q.scale[0];
    te_quantize_multiplier((double)identity_ratio, &m[0], &s[0]);
    te_quantize_multiplier((double)alpha_ratio, &m[1], &s[1]);
    return s[0] > 31 || s[1] > 31 ? -1 : 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    int8_t table[256];
    int32_t m[2];
    int s[2], s16 = te_unary_is_s16(g, op);
    if (s16 ? te_check_unary_s16(g, op, d) < 0 : te_lut_check_unary(g, op, d, 1) < 0)
        return -1;
    if (!isfinite(op->opt.alpha))
        return te_op_fail(d, op, "alpha %g is not a finite number", (double)op->opt.alpha);
    if (s16 ? s16_multipliers(g, op, m, s) < 0 : table_for(g, op, table) < 0)
        return te_op_fail(d, op, "input scale / output scale = %g (alpha %g) is too large",
                          (double)te_in(g, op, 0)->q.scale[0] /
                              (double)te_out(g, op, 0)->q.scale[0],
                          (double)op->opt.alpha);
    return 0;
}

static int emit_s16(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    int32_t m[2];
    int s[2];
    te_name x, y, prm;
    if (s16_multipliers(e->g, op, m, s) < 0)
        return te_op_fail(e->diag, op, "input scale / output scale is too large");
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, TE_K_LEAKY_RELU_S16);
    te_params_begin(e, "te_leaky_relu_s16_params");
    te_params_int(e, "in_offset", (int32_t)-in->q.zero_point[0]);
    te_params_int(e, "out_offset", (int32_t)out->q.zero_point[0]);
    te_params_int(e, "identity_mult", m[0]);
    te_params_int(e, "identity_shift", s[0]);
    te_params_int(e, "alpha_mult", m[1]);
    te_params_int(e, "alpha_shift", s[1]);
    prm = te_params_end(e);
    te_emit_kernel_call(e, TE_K_LEAKY_RELU_S16, prm.s, x.s, y.s,
                        te_expr("%lld", (long long)te_tensor_elems(in)).s);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    return te_unary_is_s16(e->g, op) ? emit_s16(e, op) : te_lut_op_emit(e, op);
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return te_unary_is_s16(g, op) ? TE_K_LEAKY_RELU_S16 : TE_K_LUT_S8;
}

const te_op_def te_op_leaky_relu = {
    .opcode = TE_OP_LEAKY_RELU,
    .check = check,
    .emit = emit,
    .lut = table_for,
    .inplace_input = te_inplace_same_size_input0,
    .patch_kind = te_unary_patch_kind_s8,
    .variant = variant,
    .int16x8 = 1,
};
