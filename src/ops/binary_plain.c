/* binary_plain.c - the unquantized int32 / float32 forms of the binary
 * element-wise ops (see binary_plain.h). */
/* Only the kernel's op enum is used here: declare kernels extern. */
#define TE_KERNEL extern

#include "binary_plain.h"

#include <float.h>
#include <stdint.h>

#include "broadcast.h"
#include "te_binary_plain.h"

int te_binary_plain_is(const te_graph *g, const te_op *op)
{
    te_dtype t;
    if (op->n_in < 1 || op->in[0] < 0)
        return 0;
    t = g->tensors[op->in[0]].type;
    return t == TE_DT_INT32 || t == TE_DT_FLOAT32;
}

int te_binary_plain_check(te_graph *g, const te_op *op, te_diag *d, int refuse_quantized)
{
    const te_tensor *a, *b;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    if (te_bcast_check_plain(d, op, a, b, te_out(g, op, 0), 6) < 0)
        return -1;
    if (refuse_quantized && a->type == TE_DT_INT32 && (a->q.count > 0 || b->q.count > 0))
        return te_op_fail(d, op, "quantized int32 inputs are not supported (TFLite Micro)");
    return 0;
}

te_kernel_id te_binary_plain_kernel(const te_graph *g, const te_op *op)
{
    return g->tensors[op->in[0]].type == TE_DT_FLOAT32 ? TE_K_BINARY_F32 : TE_K_BINARY_I32;
}

static const char *op_name(int bop)
{
    static const char *const names[] = {"TE_BINARY_ADD", "TE_BINARY_SUB", "TE_BINARY_MUL",
                                        "TE_BINARY_MIN", "TE_BINARY_MAX",
                                        "TE_BINARY_SQUARED_DIFFERENCE"};
    return names[bop];
}

/* TFLite's CalculateActivationRange for int32 and float32: RELU, RELU6 and
 * RELU_N1_TO_1 bound the result, any other activation leaves the type's
 * whole range. */
static void activation_range(te_activation act, double lowest, double highest, double *lo,
                             double *hi)
{
    *lo = act == TE_ACT_RELU || act == TE_ACT_RELU6 ? 0 : act == TE_ACT_RELU_N1_TO_1 ? -1
                                                                                     : lowest;
    *hi = act == TE_ACT_RELU6 ? 6 : act == TE_ACT_RELU_N1_TO_1 ? 1 : highest;
}

void te_binary_plain_range_params(te_emit *e, te_activation act, int f32)
{
    double lo, hi;
    if (!f32) {
        activation_range(act, INT32_MIN, INT32_MAX, &lo, &hi);
        te_params_expr(e, "act_min", lo == INT32_MIN ? "INT32_MIN" : te_expr("%.0f", lo).s);
        te_params_expr(e, "act_max", hi == INT32_MAX ? "INT32_MAX" : te_expr("%.0f", hi).s);
    } else {
        activation_range(act, -FLT_MAX, FLT_MAX, &lo, &hi);
        te_params_expr(e, "f_min", te_float_literal((float)lo).s);
        te_params_expr(e, "f_max", te_float_literal((float)hi).s);
    }
}

int te_binary_plain_emit(te_emit *e, const te_op *op, int bop, int clamp_i32)
{
    te_activation act = op->opt.activation;
    te_kernel_id k = te_binary_plain_kernel(e->g, op);
    int clamps = bop == TE_BINARY_ADD || bop == TE_BINARY_SUB || bop == TE_BINARY_MUL;
    if (te_tensor_elems(te_out(e->g, op, 0)) == 0)
        return 0;
    te_bcast_params_begin(e, op, "te_binary_plain_params");
    te_params_expr(e, "op", op_name(bop));
    if (k == TE_K_BINARY_I32)
        te_binary_plain_range_params(e, clamps && clamp_i32 ? act : TE_ACT_NONE, 0);
    else if (clamps)
        te_binary_plain_range_params(e, act, 1);
    return te_bcast_emit(e, op, k, te_params_end(e).s);
}
