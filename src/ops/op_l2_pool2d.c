/* op_l2_pool2d.c - L2_POOL_2D as TFLite Micro: float32 only (TFLM has no
 * quantized L2 pool), NHWC, SAME/VALID, the fused activation's float range;
 * the geometry checks and padding of the other pools (pool.h), then a call
 * to te_l2_pool_f32. */
#include <float.h>
#include <string.h>

#include "pool.h"
#include "te_l2_pool.h"

static int l2_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    te_activation a;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_FLOAT32) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_FLOAT32) < 0)
        return -1;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input 0 and output 0 must have rank 4 (NHWC)");
    if (in->data && te_check_const(d, op, in, "input 0") < 0)
        return -1;
    a = op->opt.activation;
    if (a != TE_ACT_NONE && a != TE_ACT_RELU && a != TE_ACT_RELU6 && a != TE_ACT_RELU_N1_TO_1)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)a);
    return te_pool_check_geometry(op, in, out, d);
}

/* TFLM's CalculateActivationRange for float. */
static void float_range(te_activation a, float *lo, float *hi)
{
    *lo = a == TE_ACT_RELU || a == TE_ACT_RELU6 ? 0.0f : a == TE_ACT_RELU_N1_TO_1 ? -1.0f
                                                                                  : -FLT_MAX;
    *hi = a == TE_ACT_RELU6 ? 6.0f : a == TE_ACT_RELU_N1_TO_1 ? 1.0f : FLT_MAX;
}

static int l2_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_name pi = te_emit_tensor(e, in->id), po = te_emit_tensor(e, out->id), prm;
    te_pool_params p;
    float lo, hi;
    te_pool_make_geometry(&op->opt, in, out, &p);
    float_range(op->opt.activation, &lo, &hi);
    te_emit_kernel(e, TE_K_L2_POOL_F32);
    te_params_begin(e, "te_l2_pool_params");
    te_params_int(e, "batches", p.batches);
    te_params_int(e, "in_h", p.in_h);
    te_params_int(e, "in_w", p.in_w);
    te_params_int(e, "depth", p.depth);
    te_params_int(e, "out_h", p.out_h);
    te_params_int(e, "out_w", p.out_w);
    te_params_int(e, "stride_h", p.stride_h);
    te_params_int(e, "stride_w", p.stride_w);
    te_params_int(e, "filter_h", p.filter_h);
    te_params_int(e, "filter_w", p.filter_w);
    te_params_int(e, "pad_h", p.pad_h);
    te_params_int(e, "pad_w", p.pad_w);
    te_params_expr(e, "f_min", te_float_literal(lo).s);
    te_params_expr(e, "f_max", te_float_literal(hi).s);
    prm = te_params_end(e);
    te_emit_kernel_call(e, TE_K_L2_POOL_F32, prm.s, pi.s, po.s);
    return 0;
}

const te_op_def te_op_l2_pool2d = {
    .opcode = TE_OP_L2_POOL_2D,
    .check = l2_check,
    .emit = l2_emit,
    .kernel = TE_ONE_KERNEL(TE_K_L2_POOL_F32),
    .patch_kind = te_patch_window,
};
