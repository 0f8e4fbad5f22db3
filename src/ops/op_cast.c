/* op_cast.c - CAST between int8, uint8, int16, int32 and float32 (the
 * numeric types TFLite Micro's CAST converts), and from bool (a threshold
 * mask made 0 / 1), element by element as C++'s static_cast: quantization
 * parameters play no part.  Same type on both sides is a byte copy. */
#include "movement.h"

static int cast_type_ok(te_dtype t)
{
    return t == TE_DT_INT8 || t == TE_DT_UINT8 || t == TE_DT_INT16 || t == TE_DT_INT32 ||
           t == TE_DT_FLOAT32;
}

static int cast_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 1, 1, 1))
        return -1;
    if (!in || !out)
        return te_op_fail(d, op, "input 0 or output 0 is missing");
    if ((!cast_type_ok(in->type) && in->type != TE_DT_BOOL) || !cast_type_ok(out->type))
        return te_op_fail(d, op, "casting %s to %s is not supported (int8, uint8, int16, int32, "
                          "float32; and from bool)", te_dtype_name(in->type),
                          te_dtype_name(out->type));
    if (te_tensor_elems(out) > 0x7fffffff || te_tensor_bytes(out) > 0x7fffffff)
        return te_op_fail(d, op, "output 0 (tensor %d '%s') is too large", out->id, out->name);
    return te_move_check_same_elems(d, op, in, out);
}

static int cast_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_name src, dst;
    if (in->type == out->type)
        return te_move_emit_copy(e, op);
    if (te_tensor_elems(out) == 0)
        return 0;
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, TE_K_CAST);
    te_emit_kernel_call(e, TE_K_CAST, src.s, te_expr("%d", (int)in->type).s, dst.s,
                 te_expr("%d", (int)out->type).s, te_expr("%lld", (long long)te_tensor_elems(out)).s);
    return 0;
}

static te_kernel_id cast_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]], *out = &g->tensors[op->out[0]];
    return in->type == out->type ? TE_K_COPY_BYTES : TE_K_CAST;
}

const te_op_def te_op_cast = {
    .opcode = TE_OP_CAST,
    .check = cast_check,
    .emit = cast_emit,
    .variant = cast_variant,
    .patch_kind = te_patch_pointwise,
};
