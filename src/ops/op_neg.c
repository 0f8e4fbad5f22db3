/* op_neg.c - NEG (float32, as TFLite Micro supports it): the converter
 * keeps NEG in float between a DEQUANTIZE and a QUANTIZE; the kernel flips
 * signs (te_neg_f32). */
#include "ops.h"
#include "unary.h"

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_check_type(d, op, in, "input 0", TE_DT_FLOAT32) < 0 ||
        te_check_type(d, op, out, "output 0", TE_DT_FLOAT32) < 0)
        return -1;
    return te_check_unary_elems(d, op, in, out);
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    long long n = (long long)te_tensor_elems(in);
    te_name x, y;
    if (n == 0)
        return 0;
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_NEG_F32);
    te_emit_kernel_call(e, TE_K_NEG_F32, x.s, y.s, te_expr("%lld", n).s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_K_NEG_F32;
}

const te_op_def te_op_neg = {
    .opcode = TE_OP_NEG,
    .check = check,
    .emit = emit,
    .inplace_input = te_inplace_same_size_input0,
    .variant = variant,
    .patch_kind = te_patch_pointwise,
};
