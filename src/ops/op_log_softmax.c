/* op_log_softmax.c - LOG_SOFTMAX over the last dimension, as TFLM's
 * reference kernels.  int8: exp and Q5.26 rescaling of every possible
 * difference row_max - x are tabulated at compile time; the row sum, its
 * fixed-point log and the output scaling run in te_log_softmax_s8 (output
 * scale 16/256, zero point 127).  float32: te_log_softmax_f32. */
#include "ops.h"

#include <limits.h>

#include "../quant/lut_nonlinear.h"

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *out)
{
    int i;
    if (in->rank < 1)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') must have at least one dimension",
                          in->id, in->name);
    if (te_tensor_elems(in) > INT_MAX)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has more than %d elements", in->id,
                          in->name, INT_MAX);
    for (i = 0; i < in->rank && out->rank == in->rank; i++)
        if (in->shape[i] != out->shape[i])
            break;
    if (out->rank != in->rank || i != in->rank)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') must have the shape of input 0",
                          out->id, out->name);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    te_lut_softmax_params p;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (in && in->type == TE_DT_FLOAT32) {
        if (te_check_type(d, op, out, "output 0", TE_DT_FLOAT32) < 0)
            return -1;
        return check_shapes(d, op, in, out);
    }
    if (te_check_type(d, op, in, "input 0", TE_DT_INT8) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_INT8) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, out, "output 0") < 0 ||
        check_shapes(d, op, in, out) < 0)
        return -1;
    if (out->q.zero_point[0] != 127 || out->q.scale[0] != 16.0f / 256)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has scale %g and zero point %lld, "
                          "expected 16/256 and 127", out->id, out->name,
                          (double)out->q.scale[0], (long long)out->q.zero_point[0]);
    if (te_lut_log_softmax_prepare(in->q.scale[0], &p) < 0)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') scale %g is outside the range "
                          "TFLite's int8 LOG_SOFTMAX supports", in->id, in->name,
                          (double)in->q.scale[0]);
    return 0;
}

static void emit_f32(te_emit *e, const te_op *op, int rows, int depth)
{
    te_name x = te_emit_tensor(e, op->in[0]), y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_LOG_SOFTMAX_F32);
    te_emit_kernel_call(e, TE_K_LOG_SOFTMAX_F32, x.s, y.s, te_expr("%d", rows).s, te_expr("%d", depth).s);
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    te_lut_softmax_params p;
    int32_t exp_table[256], q5_table[256];
    int depth = in->shape[in->rank - 1];
    int rows = depth > 0 ? (int)(te_tensor_elems(in) / depth) : 0;
    te_name te, tq, x, y;
    if (in->type == TE_DT_FLOAT32) {
        emit_f32(e, op, rows, depth);
        return 0;
    }
    te_lut_log_softmax_prepare(in->q.scale[0], &p);
    te_lut_softmax_exp(&p, exp_table);
    te_lut_softmax_q5(&p, q5_table);
    te = te_emit_const_i32(e, exp_table, 256, "logsm_exp");
    tq = te_emit_const_i32(e, q5_table, 256, "logsm_q5");
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_LOG_SOFTMAX_S8);
    te_emit_kernel_call(e, TE_K_LOG_SOFTMAX_S8, x.s, y.s, te_expr("%d", rows).s, te_expr("%d", depth).s,
                 te.s, tq.s, te_expr("%ld", (long)p.diff_min).s,
                 te_expr("%ld", (long)p.reverse_scaling_divisor).s,
                 te_expr("%d", p.reverse_scaling_right_shift).s);
    return 0;
}

/* The kernel emit() calls: the input type picks it. */
static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    return in && in->type == TE_DT_FLOAT32 ? TE_K_LOG_SOFTMAX_F32 : TE_K_LOG_SOFTMAX_S8;
}

const te_op_def te_op_log_softmax = {
    .opcode = TE_OP_LOG_SOFTMAX,
    .check = check,
    .emit = emit,
    .variant = variant,
};
