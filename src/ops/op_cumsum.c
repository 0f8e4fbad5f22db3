/* op_cumsum.c - CUMSUM as TFLite Micro: float32 or int8, a constant int32
 * axis (negative counts from the end), options exclusive and reverse.
 * int8 rescales as ADD does (left shift 20, te_cumsum_s8), no activation. */
#include "ops.h"

#include <stdint.h>
#include <string.h>

#include "../quant/quant.h"

#define TE_CUMSUM_LEFT_SHIFT 20

/* The output rescale 2 s_in / (2^20 s_out) (TFLM's real_output_multiplier). */
static double out_rescale(const te_tensor *in, const te_tensor *out)
{
    double twice = 2 * (double)in->q.scale[0];
    return twice / ((double)(1 << TE_CUMSUM_LEFT_SHIFT) * (double)out->q.scale[0]);
}

/* The axis in [0, rank), or -1 when out of range. */
static int axis_of(const te_tensor *in, const te_tensor *axis)
{
    int32_t v;
    memcpy(&v, axis->data, 4);
    if (v < 0)
        v += in->rank;
    return v >= 0 && v < in->rank ? (int)v : -1;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *ax, *o;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    ax = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (in->type != TE_DT_INT8 && in->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: int8, float32)",
                          te_dtype_name(in->type));
    if (te_check_type(d, op, o, "output 0", in->type) < 0 ||
        te_check_type(d, op, ax, "input 1 (axis)", TE_DT_INT32) < 0)
        return -1;
    if (in->rank < 1 || o->rank != in->rank ||
        memcmp(in->shape, o->shape, sizeof(int) * (size_t)in->rank) != 0)
        return te_op_fail(d, op, "output 0's shape differs from input 0's (or rank 0)");
    if (te_tensor_elems(ax) != 1)
        return te_op_fail(d, op, "input 1 (axis) must hold one value");
    if (!ax->data)
        return te_op_fail(d, op, "input 1 (axis) is computed at run time; only a constant axis "
                          "is supported");
    if (te_check_const(d, op, ax, "input 1 (axis)") < 0 ||
        (in->data && te_check_const(d, op, in, "input 0") < 0))
        return -1;
    if (axis_of(in, ax) < 0)
        return te_op_fail(d, op, "axis is out of range for rank %d", in->rank);
    if (te_tensor_elems(o) > INT32_MAX)
        return te_op_fail(d, op, "output 0 has more than %d elements", INT32_MAX);
    if (in->type != TE_DT_INT8)
        return 0;
    if (te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, o, "output 0") < 0)
        return -1;
    if (out_rescale(in, o) >= 1.0)
        return te_op_fail(d, op, "output scale %g is too small for input scale %g "
                          "(rescale factor must be below 1)", (double)o->q.scale[0],
                          (double)in->q.scale[0]);
    return 0;
}

static te_kernel_id kernel_of(te_dtype t)
{
    return t == TE_DT_INT8 ? TE_K_CUMSUM_S8 : TE_K_CUMSUM_F32;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *o = te_out(e->g, op, 0);
    te_kernel_id k = kernel_of(in->type);
    int axis = axis_of(in, te_in(e->g, op, 1)), i;
    long long before = 1, after = 1;
    te_name prm, pi, po;
    if (te_tensor_elems(o) == 0)
        return 0;
    for (i = 0; i < axis; i++)
        before *= in->shape[i];
    for (i = axis + 1; i < in->rank; i++)
        after *= in->shape[i];
    te_params_begin(e, "te_cumsum_params");
    te_params_int(e, "before", before);
    te_params_int(e, "depth", in->shape[axis]);
    te_params_int(e, "after", after);
    te_params_int(e, "exclusive", op->opt.exclusive != 0);
    te_params_int(e, "reverse", op->opt.reverse != 0);
    if (in->type == TE_DT_INT8) {
        int32_t m;
        int shift;
        te_params_int(e, "in_offset", -(long long)in->q.zero_point[0]);
        te_params_int(e, "left_shift", TE_CUMSUM_LEFT_SHIFT);
        te_quantize_multiplier_smaller_than_one(0.5, &m, &shift); /* s_in / (2 s_in) */
        te_params_int(e, "in_mult", m);
        te_params_int(e, "in_shift", shift);
        te_quantize_multiplier_smaller_than_one(out_rescale(in, o), &m, &shift);
        te_params_int(e, "out_mult", m);
        te_params_int(e, "out_shift", shift);
        te_params_int(e, "out_offset", (long long)o->q.zero_point[0]);
        te_params_int(e, "act_min", -128);
        te_params_int(e, "act_max", 127);
    }
    prm = te_params_end(e);
    pi = te_emit_tensor(e, in->id);
    po = te_emit_tensor(e, o->id);
    te_emit_kernel(e, k);
    te_emit_call(e, te_kernel_name(k), prm.s, pi.s, po.s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return kernel_of(g->tensors[op->in[0]].type);
}

const te_op_def te_op_cumsum = {
    .opcode = TE_OP_CUMSUM,
    .check = check,
    .emit = emit,
    .variant = variant,
};
