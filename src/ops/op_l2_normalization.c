/* op_l2_normalization.c - L2_NORMALIZATION along the last axis, as TFLite
 * Micro: int8 or float32 (input and output alike), rank <= 4, no fused
 * activation.  The int8 kernel writes in units of 1/128 with zero point 0
 * whatever the output's quantization says (TFLM reads only the input's
 * zero point). */
#include "ops.h"
#include "unary.h"

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (in->type != TE_DT_INT8 && in->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: int8, float32)",
                          te_dtype_name(in->type));
    if (te_check_type(d, op, out, "output 0", in->type) < 0)
        return -1;
    if (in->type == TE_DT_INT8 && te_check_quant(d, op, in, "input 0") < 0)
        return -1;
    if (in->rank < 1 || in->rank > 4)
        return te_op_fail(d, op, "input 0 has rank %d; TFLite Micro takes 1 to 4", in->rank);
    if (op->opt.activation != TE_ACT_NONE)
        return te_op_fail(d, op, "a fused activation is not supported (TFLite Micro)");
    if (out->rank < 1 || out->shape[out->rank - 1] != in->shape[in->rank - 1])
        return te_op_fail(d, op, "output 0 does not have input 0's last dimension");
    return te_check_unary_elems(d, op, in, out);
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    long long n = (long long)te_tensor_elems(in), depth = in->shape[in->rank - 1];
    te_name x, y;
    if (n == 0)
        return 0;
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    if (in->type == TE_DT_INT8) {
        te_emit_kernel(e, TE_K_L2NORM_S8);
        te_emit_kernel_call(e, TE_K_L2NORM_S8, x.s, y.s, te_expr("%lld", n / depth).s,
                     te_expr("%lld", depth).s, te_expr("%d", (int)in->q.zero_point[0]).s);
    } else {
        te_emit_kernel(e, TE_K_L2NORM_F32);
        te_emit_kernel_call(e, TE_K_L2NORM_F32, x.s, y.s, te_expr("%lld", n / depth).s,
                     te_expr("%lld", depth).s);
    }
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return g->tensors[op->in[0]].type == TE_DT_INT8 ? TE_K_L2NORM_S8 : TE_K_L2NORM_F32;
}

const te_op_def te_op_l2_normalization = {
    .opcode = TE_OP_L2_NORMALIZATION,
    .check = check,
    .emit = emit,
    .variant = variant,
    .inplace_input = te_inplace_same_size_input0,
};
