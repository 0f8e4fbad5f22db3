/* op_abs.c - ABS (int8 or int16x8): |x - zp_in| plus the output zero
 * point, rescaled by s_in / s_out when the scales differ (TFLM's
 * AbsEvalQuantized).  int8 tabulates it for all 256 inputs at compile time
 * (the kernel is a table lookup); int16 runs it per element (te_abs_s16),
 * with both zero points 0 as TFLite Micro requires. */
#include "ops.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_unary.h"
#include "quant/quant.h"
#include "unary.h"

static int table_for(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_abs(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
                      (int32_t)out->q.zero_point[0], table);
}

/* The int16 rescale: 0 when the scales are equal (a float comparison, as
 * TFLM's), else 1 with the multiplier; -1 when a left shift exceeds 31. */
static int s16_rescale(te_graph *g, const te_op *op, int32_t *mult, int *shift)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    *mult = 0;
    *shift = 0;
    if (in->q.scale[0] == out->q.scale[0])
        return 0;
    te_quantize_multiplier((double)in->q.scale[0] / (double)out->q.scale[0], mult, shift);
    return *shift > 31 ? -1 : 1;
}

static int check_s16(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *t[2];
    int32_t mult;
    int shift, k;
    if (te_check_unary_s16(g, op, d) < 0)
        return -1;
    t[0] = te_in(g, op, 0);
    t[1] = te_out(g, op, 0);
    for (k = 0; k < 2; k++)
        if (t[k]->q.zero_point[0] != 0)
            return te_op_fail(d, op, "int16 tensor %d '%s' has zero point %lld; int16 ABS needs 0 "
                              "(as TFLite Micro)", t[k]->id, t[k]->name,
                              (long long)t[k]->q.zero_point[0]);
    if (s16_rescale(g, op, &mult, &shift) < 0)
        return te_op_fail(d, op, "input scale / output scale = %g is too large",
                          (double)t[0]->q.scale[0] / (double)t[1]->q.scale[0]);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    return te_unary_is_s16(g, op) ? check_s16(g, op, d) : te_lut_op_check(g, op, d);
}

static int emit_s16(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    int32_t mult;
    int shift, rescale = s16_rescale(e->g, op, &mult, &shift);
    te_name x, y, prm;
    if (rescale < 0)
        return te_op_fail(e->diag, op, "input scale / output scale is too large");
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, TE_K_ABS_S16);
    te_params_begin(e, "te_abs_s16_params");
    te_params_int(e, "rescale", rescale);
    te_params_int(e, "mult", mult);
    te_params_int(e, "shift", shift);
    prm = te_params_end(e);
    te_emit_kernel_call(e, TE_K_ABS_S16, prm.s, x.s, y.s,
                        te_expr("%lld", (long long)te_tensor_elems(in)).s);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    return te_unary_is_s16(e->g, op) ? emit_s16(e, op) : te_lut_op_emit(e, op);
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return te_unary_is_s16(g, op) ? TE_K_ABS_S16 : TE_K_LUT_S8;
}

const te_op_def te_op_abs = {
    .opcode = TE_OP_ABS,
    .check = check,
    .emit = emit,
    .lut = table_for,
    .inplace_input = te_inplace_same_size_input0,
    .patch_kind = te_unary_patch_kind_s8,
    .variant = variant,
    .int16x8 = 1,
};
