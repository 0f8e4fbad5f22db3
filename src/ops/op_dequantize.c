/* op_dequantize.c - DEQUANTIZE int8/uint8/int16 -> float32 as TFLite
 * Micro's reference kernel does it: scale * (float)(x - zero_point) in
 * float.  For int8 and uint8 the 256 possible results are computed here
 * with that very expression and the kernel looks them up; for int16 the
 * kernel multiplies. */
#include "ops.h"
#include "quant/quant.h"
#include "unary.h"

static int dequantize_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 1, 1, 1))
        return -1;
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (in->type != TE_DT_INT8 && in->type != TE_DT_UINT8 && in->type != TE_DT_INT16)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has type %s, expected int8, uint8 "
                          "or int16",
                          in->id, in->name, te_dtype_name(in->type));
    if (te_check_type(d, op, out, "output 0", TE_DT_FLOAT32) ||
        te_check_quant(d, op, in, "input 0"))
        return -1;
    if (in->q.count != 1)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') is quantized per channel, only "
                          "per-tensor quantization is supported", in->id, in->name);
    if (in->q.zero_point[0] < -65536 || in->q.zero_point[0] > 65536)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has an out-of-range zero point",
                          in->id, in->name);
    return te_check_unary_elems(d, op, in, out);
}

/* The kernel emit() calls: the input type picks it. */
static te_kernel_id dequantize_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    return in && in->type == TE_DT_INT16   ? TE_K_DEQUANTIZE_S16_F32
           : in && in->type == TE_DT_UINT8 ? TE_K_DEQUANTIZE_U8_F32
                                           : TE_K_DEQUANTIZE_S8_F32;
}

static int dequantize_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    long long n = (long long)te_tensor_elems(in);
    float scale = in->q.scale[0];
    int32_t zp = (int32_t)in->q.zero_point[0];
    te_name src, dst;
    if (n == 0)
        return 0;
    src = te_emit_tensor(e, in->id);
    dst = te_emit_tensor(e, out->id);
    te_emit_kernel(e, dequantize_variant(e->g, op));
    if (in->type != TE_DT_INT16) {
        float lut[256];
        te_name name;
        te_dequantize_table(in->type, scale, zp, lut);
        name = te_emit_const_f32(e, lut, 256, "dequant");
        te_emit_kernel_call(e, dequantize_variant(e->g, op), src.s, dst.s, te_expr("%lld", n).s,
                            name.s);
    } else {
        te_emit_kernel_call(e, TE_K_DEQUANTIZE_S16_F32, src.s, dst.s, te_expr("%lld", n).s,
                     te_expr("%af", (double)scale).s, te_expr("%ld", (long)zp).s);
    }
    return 0;
}


const te_op_def te_op_dequantize = {
    .opcode = TE_OP_DEQUANTIZE,
    .int16x8 = 1,
    .check = dequantize_check,
    .emit = dequantize_emit,
    .variant = dequantize_variant,
    .io_dequantize = 1,
    .patch_kind = te_patch_pointwise,
};
