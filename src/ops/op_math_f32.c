/* op_math_f32.c - the element-wise math TFLite Micro runs in float32 only:
 * EXP, LOG, SQRT, SIN, COS, SQUARE, FLOOR, CEIL, ROUND (each a te_<op>_f32
 * kernel calling the C library function TFLite calls) and RSQRT, which
 * TFLite Micro also runs on int8: there a 256-entry table of its integer
 * arithmetic (te_lut_rsqrt), looked up by te_lut_s8_min, which fails the
 * invoke on an input below the zero point as TFLite does. */
#include "ops.h"
#include "unary.h"

#include "../quant/lut_emit.h"
#include "../quant/lut_unary.h"

static te_kernel_id kernel_of(int opcode)
{
    switch (opcode) {
    case TE_OP_EXP: return TE_K_EXP_F32;
    case TE_OP_LOG: return TE_K_LOG_F32;
    case TE_OP_SQRT: return TE_K_SQRT_F32;
    case TE_OP_RSQRT: return TE_K_RSQRT_F32;
    case TE_OP_SIN: return TE_K_SIN_F32;
    case TE_OP_COS: return TE_K_COS_F32;
    case TE_OP_SQUARE: return TE_K_SQUARE_F32;
    case TE_OP_FLOOR: return TE_K_FLOOR_F32;
    case TE_OP_CEIL: return TE_K_CEIL_F32;
    default: return TE_K_ROUND_F32;
    }
}

static int is_s8_rsqrt(const te_graph *g, const te_op *op)
{
    return op->opcode == TE_OP_RSQRT && op->n_in > 0 && op->in[0] >= 0 &&
           g->tensors[op->in[0]].type == TE_DT_INT8;
}

static int rsqrt_table(te_graph *g, const te_op *op, int8_t table[256])
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    return te_lut_rsqrt(in->q.scale[0], (int32_t)in->q.zero_point[0], out->q.scale[0],
                        (int32_t)out->q.zero_point[0], table);
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *out;
    int8_t table[256];
    if (te_check_io_count(d, op, 1, 1, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (is_s8_rsqrt(g, op)) {
        if (te_lut_check_unary(g, op, d, 1) < 0)
            return -1;
        if (rsqrt_table(g, op, table) < 0)
            return te_op_fail(d, op, "1 / (sqrt(input scale) * output scale) = %g is outside "
                              "the range TFLite's int8 RSQRT can apply",
                              1.0 / ((double)in->q.scale[0] * (double)out->q.scale[0]));
        return 0;
    }
    if (in->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: float32%s)",
                          te_dtype_name(in->type), op->opcode == TE_OP_RSQRT ? ", int8" : "");
    if (te_check_type(d, op, out, "output 0", TE_DT_FLOAT32) < 0)
        return -1;
    return te_check_unary_elems(d, op, in, out);
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    long long n = (long long)te_tensor_elems(in);
    te_kernel_id k = kernel_of(op->opcode);
    te_name x, y, t;
    int8_t table[256];
    if (n == 0)
        return 0;
    if (is_s8_rsqrt(e->g, op)) {
        if (rsqrt_table(e->g, op, table) < 0)
            return te_op_fail(e->diag, op, "lost its table (internal error)");
        t = te_emit_const_i8(e, table, 256, "lut");
    }
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    if (is_s8_rsqrt(e->g, op)) {
        te_emit_kernel(e, TE_K_LUT_S8_MIN);
        te_emit_kernel_call_status(e, TE_K_LUT_S8_MIN, x.s, y.s, te_expr("%lld", n).s, t.s,
                            te_expr("%d", (int)in->q.zero_point[0]).s);
        return 0;
    }
    te_emit_kernel(e, k);
    te_emit_call(e, te_kernel_name(k), x.s, y.s, te_expr("%lld", n).s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return is_s8_rsqrt(g, op) ? TE_K_LUT_S8_MIN : kernel_of(op->opcode);
}

#define TE_MATH_DEF(NAME, OPCODE)                                                              \
    const te_op_def NAME = {                                                                   \
        .opcode = OPCODE,                                                                      \
        .check = check,                                                                        \
        .emit = emit,                                                                          \
        .variant = variant,                                                                    \
        .inplace_input = te_inplace_same_size_input0,                                          \
        .patch_kind = te_patch_pointwise,                                                      \
    }

TE_MATH_DEF(te_op_exp, TE_OP_EXP);
TE_MATH_DEF(te_op_log, TE_OP_LOG);
TE_MATH_DEF(te_op_sqrt, TE_OP_SQRT);
TE_MATH_DEF(te_op_rsqrt, TE_OP_RSQRT);
TE_MATH_DEF(te_op_sin, TE_OP_SIN);
TE_MATH_DEF(te_op_cos, TE_OP_COS);
TE_MATH_DEF(te_op_square, TE_OP_SQUARE);
TE_MATH_DEF(te_op_floor, TE_OP_FLOOR);
TE_MATH_DEF(te_op_ceil, TE_OP_CEIL);
TE_MATH_DEF(te_op_round, TE_OP_ROUND);
