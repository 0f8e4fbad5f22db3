/* op_compare.c - EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and
 * LESS_EQUAL, as TFLite Micro's comparisons kernel: two inputs of one type
 * (int8, int32, int64, float32; bool too for EQUAL / NOT_EQUAL; int16 for
 * GREATER, the one comparison TFLite Micro evaluates on int16), numpy
 * broadcasting up to 6D (TFLite Micro's Broadcast4DSlow path took 4; its
 * 2026 broadcasting helpers take up to 8, with the same values),
 * a bool output.  int8 and int16 inputs are brought to one scale first:
 * (x - zp) << 8 times each input's scale as a
 * QuantizeMultiplierSmallerThanOneExp multiplier, so both scales must be
 * below 1. */
#include "broadcast.h"
#include "ops.h"

#include <stdint.h>

#include "../quant/quant.h"

#define TE_COMPARE_LEFT_SHIFT 8 /* TFLM's kLeftShift */

/* te_compare_params.op (runtime/te_compare.h) */
enum { TE_CMP_EQ = 0, TE_CMP_NE, TE_CMP_GT, TE_CMP_GE, TE_CMP_LT, TE_CMP_LE };

static int cmp_of(int opcode)
{
    switch (opcode) {
    case TE_OP_EQUAL: return TE_CMP_EQ;
    case TE_OP_NOT_EQUAL: return TE_CMP_NE;
    case TE_OP_GREATER: return TE_CMP_GT;
    case TE_OP_GREATER_EQUAL: return TE_CMP_GE;
    case TE_OP_LESS: return TE_CMP_LT;
    default: return TE_CMP_LE;
    }
}

static int type_supported(int opcode, te_dtype t)
{
    if (t == TE_DT_BOOL)
        return opcode == TE_OP_EQUAL || opcode == TE_OP_NOT_EQUAL;
    if (t == TE_DT_INT16)
        return opcode == TE_OP_GREATER;
    return t == TE_DT_INT8 || t == TE_DT_INT32 || t == TE_DT_INT64 || t == TE_DT_FLOAT32;
}

/* 1 when a and b have exactly the same shape (TFLM's HaveSameShapes). */
/* An int8 or int16 input's scale as TFLM's QuantizeMultiplierSmallerThanOneExp
 * takes it. */
static int check_s8_scale(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    int32_t m;
    int shift;
    if (te_check_quant(d, op, t, which) < 0)
        return -1;
    te_quantize_multiplier_smaller_than_one((double)t->q.scale[0], &m, &shift);
    if (!(t->q.scale[0] < 1.0f) || shift > 0)
        return te_op_fail(d, op, "%s (tensor %d '%s') scale %g: TFLite's quantized "
                          "comparison needs a scale below 1",
                          which, t->id, t->name, (double)t->q.scale[0]);
    return 0;
}

/* Shared by the comparisons, LOGICAL_AND and LOGICAL_OR (op_logical.c):
 * two inputs of type `type`, shapes broadcasting to output 0's, at most 4D
 * when they differ, a bool output. */
int te_compare_check_layout(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b, *o;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (te_check_type(d, op, b, "input 1", a->type) < 0 ||
        te_check_type(d, op, o, "output 0", TE_DT_BOOL) < 0)
        return -1;
    if (a->data && te_check_const(d, op, a, "input 0") < 0)
        return -1;
    if (b->data && te_check_const(d, op, b, "input 1") < 0)
        return -1;
    if (te_bcast_check_shapes(d, op, a, b, o) < 0)
        return -1;
    if (te_tensor_elems(o) > INT32_MAX)
        return te_op_fail(d, op, "output 0 has more than %d elements", INT32_MAX);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    if (!type_supported(op->opcode, a->type))
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: %s)",
                          te_dtype_name(a->type),
                          op->opcode == TE_OP_EQUAL || op->opcode == TE_OP_NOT_EQUAL
                              ? "bool, int8, int32, int64, float32"
                          : op->opcode == TE_OP_GREATER ? "int8, int16, int32, int64, float32"
                                                        : "int8, int32, int64, float32");
    if (te_compare_check_layout(g, op, d) < 0)
        return -1;
    if ((a->type == TE_DT_INT8 || a->type == TE_DT_INT16) &&
        (check_s8_scale(d, op, a, "input 0") < 0 || check_s8_scale(d, op, b, "input 1") < 0))
        return -1;
    return 0;
}

static te_kernel_id kernel_of(te_dtype t)
{
    switch (t) {
    case TE_DT_INT8: return TE_K_COMPARE_S8;
    case TE_DT_INT16: return TE_K_COMPARE_S16;
    case TE_DT_INT32: return TE_K_COMPARE_I32;
    case TE_DT_INT64: return TE_K_COMPARE_I64;
    case TE_DT_FLOAT32: return TE_K_COMPARE_F32;
    default: return TE_K_COMPARE_BOOL;
    }
}

static void params_s8_input(te_emit *e, const te_tensor *t, const char *offset, const char *mult,
                            const char *shift)
{
    int32_t m;
    int s;
    te_quantize_multiplier_smaller_than_one((double)t->q.scale[0], &m, &s);
    te_params_int(e, offset, -(long long)t->q.zero_point[0]);
    te_params_int(e, mult, m);
    te_params_int(e, shift, s);
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *a = te_in(e->g, op, 0), *b = te_in(e->g, op, 1), *o = te_out(e->g, op, 0);
    te_kernel_id k = kernel_of(a->type);
    te_name prm, pa, pb, po;
    if (te_tensor_elems(o) == 0)
        return 0;
    te_bcast_params_begin(e, op, "te_compare_params");
    te_params_int(e, "op", cmp_of(op->opcode));
    if (a->type == TE_DT_INT8 || a->type == TE_DT_INT16) {
        te_params_int(e, "left_shift", TE_COMPARE_LEFT_SHIFT);
        params_s8_input(e, a, "in1_offset", "in1_multiplier", "in1_shift");
        params_s8_input(e, b, "in2_offset", "in2_multiplier", "in2_shift");
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

#define TE_COMPARE_DEF(NAME, OPCODE, INT16)                                                    \
    const te_op_def NAME = {                                                                   \
        .opcode = OPCODE, .check = check, .emit = emit, .variant = variant,                    \
        .patch_kind = te_patch_pointwise_bcast, .int16x8 = INT16,                              \
    }

TE_COMPARE_DEF(te_op_equal, TE_OP_EQUAL, 0);
TE_COMPARE_DEF(te_op_not_equal, TE_OP_NOT_EQUAL, 0);
TE_COMPARE_DEF(te_op_greater, TE_OP_GREATER, 1);
TE_COMPARE_DEF(te_op_greater_equal, TE_OP_GREATER_EQUAL, 0);
TE_COMPARE_DEF(te_op_less, TE_OP_LESS, 0);
TE_COMPARE_DEF(te_op_less_equal, TE_OP_LESS_EQUAL, 0);
