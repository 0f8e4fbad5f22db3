/* op_div.c - DIV as TFLite Micro: float32, int32 (unquantized) or int8
 * (per-tensor quantized), inputs and output of one type, numpy broadcasting
 * up to 6D (TFLite Micro's reference broadcasts reach 5 or more, with the
 * same values), the fused activation of DivOptions.  int8: TFLM's
 * DivElementwise arithmetic (te_div_s8).  FLOOR_DIV and FLOOR_MOD: float32
 * only in TFLite Micro, broadcasting likewise; FLOOR_DIV fails the
 * invoke on a zero divisor, as TFLM. */
#include "binary_plain.h"
#include "broadcast.h"
#include "ops.h"

#include <stdint.h>

#include "../quant/quant.h"

static void s8_multiplier(const te_graph *g, const te_op *op, int32_t *m, int *shift)
{
    const te_tensor *a = &g->tensors[op->in[0]], *b = &g->tensors[op->in[1]],
                    *o = &g->tensors[op->out[0]];
    /* float product and quotient, widened afterwards (TFLM) */
    te_quantize_multiplier((double)(a->q.scale[0] / (b->q.scale[0] * o->q.scale[0])), m, shift);
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b, *o;
    int32_t m, lo, hi;
    int shift;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (a->type != TE_DT_INT8 && a->type != TE_DT_INT32 && a->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: int8, int32, "
                          "float32)", te_dtype_name(a->type));
    if (te_bcast_check_plain(d, op, a, b, o, 6) < 0)
        return -1;
    if (a->type == TE_DT_INT32 && (a->q.count > 0 || b->q.count > 0))
        return te_op_fail(d, op, "quantized int32 inputs are not supported (TFLite Micro)");
    if (a->type != TE_DT_INT8)
        return 0;
    if (te_check_quant(d, op, a, "input 0") < 0 || te_check_quant(d, op, b, "input 1") < 0 ||
        te_check_quant(d, op, o, "output 0") < 0)
        return -1;
    if (te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0], -128,
                            127, &lo, &hi) < 0)
        return te_op_fail(d, op, "fused activation %d is not supported", (int)op->opt.activation);
    s8_multiplier(g, op, &m, &shift);
    if (shift > 23)
        return te_op_fail(d, op, "input 0 scale / (input 1 scale * output scale) is too large "
                          "for TFLite's int8 DIV");
    return 0;
}

static te_kernel_id kernel_of(te_dtype t)
{
    return t == TE_DT_INT8 ? TE_K_DIV_S8 : t == TE_DT_INT32 ? TE_K_DIV_I32 : TE_K_DIV_F32;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *a = te_in(e->g, op, 0), *b = te_in(e->g, op, 1), *o = te_out(e->g, op, 0);
    te_kernel_id k = kernel_of(a->type);
    te_name prm, pa, pb, po;
    if (te_tensor_elems(o) == 0)
        return 0;
    te_bcast_params_begin(e, op, "te_div_params");
    if (a->type == TE_DT_INT8) {
        int32_t m, amin, amax;
        int shift;
        te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0], -128,
                            127, &amin, &amax);
        s8_multiplier(e->g, op, &m, &shift);
        te_params_int(e, "act_min", amin);
        te_params_int(e, "act_max", amax);
        te_params_int(e, "in1_offset", -(long long)a->q.zero_point[0]);
        te_params_int(e, "in2_offset", -(long long)b->q.zero_point[0]);
        te_params_int(e, "out_offset", (long long)o->q.zero_point[0]);
        te_params_int(e, "out_multiplier", m);
        te_params_int(e, "out_shift", shift);
    } else {
        te_binary_plain_range_params(e, op->opt.activation, a->type == TE_DT_FLOAT32);
    }
    prm = te_params_end(e);
    pa = te_emit_tensor(e, a->id);
    pb = te_emit_tensor(e, b->id);
    po = te_emit_tensor(e, o->id);
    te_emit_kernel(e, k);
    te_emit_call(e, te_kernel_name(k), prm.s, pa.s, pb.s, po.s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return kernel_of(g->tensors[op->in[0]].type);
}

const te_op_def te_op_div = {
    .opcode = TE_OP_DIV,
    .check = check,
    .emit = emit,
    .variant = variant,
    .inplace_input = te_inplace_same_shape_input,
    .patch_kind = te_patch_pointwise_bcast,
};

static int check_floor(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b, *o;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (a->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: float32)",
                          te_dtype_name(a->type));
    if (te_bcast_check_plain(d, op, a, b, o, 6) < 0)
        return -1;
    return 0;
}

static int emit_floor(te_emit *e, const te_op *op)
{
    const te_tensor *a = te_in(e->g, op, 0), *b = te_in(e->g, op, 1), *o = te_out(e->g, op, 0);
    int is_div = op->opcode == TE_OP_FLOOR_DIV;
    te_kernel_id k = is_div ? TE_K_FLOOR_DIV_F32 : TE_K_FLOOR_MOD_F32;
    te_name prm, pa, pb, po;
    if (te_tensor_elems(o) == 0)
        return 0;
    te_bcast_params_begin(e, op, "te_div_params");
    te_params_int(e, "in2_size", (long long)te_tensor_elems(b));
    prm = te_params_end(e);
    pa = te_emit_tensor(e, a->id);
    pb = te_emit_tensor(e, b->id);
    po = te_emit_tensor(e, o->id);
    te_emit_kernel(e, k);
    if (is_div)
        te_emit_call_status(e, te_kernel_name(k), prm.s, pa.s, pb.s, po.s);
    else
        te_emit_call(e, te_kernel_name(k), prm.s, pa.s, pb.s, po.s);
    return 0;
}

const te_op_def te_op_floor_div = {
    .opcode = TE_OP_FLOOR_DIV,
    .check = check_floor,
    .emit = emit_floor,
    .kernel = TE_ONE_KERNEL(TE_K_FLOOR_DIV_F32),
};

const te_op_def te_op_floor_mod = {
    .opcode = TE_OP_FLOOR_MOD,
    .check = check_floor,
    .emit = emit_floor,
    .kernel = TE_ONE_KERNEL(TE_K_FLOOR_MOD_F32),
    .inplace_input = te_inplace_same_shape_input,
};
