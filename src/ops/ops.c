/* ops.c - the operator table: maps a builtin opcode to its definition, and
 * the shared checks every definition uses. */
#include "ops.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

extern const te_op_def te_op_conv2d;
extern const te_op_def te_op_depthwise_conv2d;
extern const te_op_def te_op_fully_connected;
extern const te_op_def te_op_transpose_conv;
extern const te_op_def te_op_add;
extern const te_op_def te_op_mul;
extern const te_op_def te_op_average_pool2d;
extern const te_op_def te_op_max_pool2d;
extern const te_op_def te_op_mean;
extern const te_op_def te_op_pad;
extern const te_op_def te_op_reshape;
extern const te_op_def te_op_squeeze;
extern const te_op_def te_op_transpose;
extern const te_op_def te_op_concatenation;
extern const te_op_def te_op_strided_slice;
extern const te_op_def te_op_resize_nearest_neighbor;
extern const te_op_def te_op_resize_bilinear;
extern const te_op_def te_op_sum;
extern const te_op_def te_op_reduce_max;
extern const te_op_def te_op_reduce_min;
extern const te_op_def te_op_arg_max;
extern const te_op_def te_op_arg_min;
extern const te_op_def te_op_batch_matmul;
extern const te_op_def te_op_quantize;
extern const te_op_def te_op_dequantize;
extern const te_op_def te_op_softmax;
extern const te_op_def te_op_log_softmax;
extern const te_op_def te_op_logistic;
extern const te_op_def te_op_tanh;
extern const te_op_def te_op_unidirectional_sequence_lstm;
extern const te_op_def te_op_hard_swish;
extern const te_op_def te_op_relu;
extern const te_op_def te_op_relu6;
extern const te_op_def te_op_shape;
extern const te_op_def te_op_tile;
extern const te_op_def te_op_broadcast_args;
extern const te_op_def te_op_add_n;
extern const te_op_def te_op_cumsum;
extern const te_op_def te_op_l2_pool2d;
extern const te_op_def te_op_pack;
extern const te_op_def te_op_leaky_relu;
extern const te_op_def te_op_minimum;
extern const te_op_def te_op_maximum;
extern const te_op_def te_op_sub;
extern const te_op_def te_op_squared_difference;
extern const te_op_def te_op_prelu;
extern const te_op_def te_op_elu;
extern const te_op_def te_op_abs;
extern const te_op_def te_op_neg;
extern const te_op_def te_op_expand_dims;
extern const te_op_def te_op_slice;
extern const te_op_def te_op_split;
extern const te_op_def te_op_split_v;
extern const te_op_def te_op_unpack;
extern const te_op_def te_op_gather;
extern const te_op_def te_op_depth_to_space;
extern const te_op_def te_op_space_to_depth;
extern const te_op_def te_op_mirror_pad;
extern const te_op_def te_op_padv2;
extern const te_op_def te_op_cast;
extern const te_op_def te_op_space_to_batch_nd;
extern const te_op_def te_op_batch_to_space_nd;
extern const te_op_def te_op_svdf;
extern const te_op_def te_op_equal;
extern const te_op_def te_op_not_equal;
extern const te_op_def te_op_greater;
extern const te_op_def te_op_greater_equal;
extern const te_op_def te_op_less;
extern const te_op_def te_op_less_equal;
extern const te_op_def te_op_logical_and;
extern const te_op_def te_op_logical_or;
extern const te_op_def te_op_logical_not;
extern const te_op_def te_op_select_v2;
extern const te_op_def te_op_exp;
extern const te_op_def te_op_log;
extern const te_op_def te_op_sqrt;
extern const te_op_def te_op_rsqrt;
extern const te_op_def te_op_sin;
extern const te_op_def te_op_cos;
extern const te_op_def te_op_square;
extern const te_op_def te_op_floor;
extern const te_op_def te_op_ceil;
extern const te_op_def te_op_round;
extern const te_op_def te_op_l2_normalization;
extern const te_op_def te_op_gather_nd;
extern const te_op_def te_op_div;
extern const te_op_def te_op_floor_div;
extern const te_op_def te_op_floor_mod;
extern const te_op_def te_op_broadcast_to;
extern const te_op_def te_op_fill;
extern const te_op_def te_op_zeros_like;
extern const te_op_def te_op_reverse_v2;
extern const te_op_def te_op_embedding_lookup;
extern const te_op_def te_op_read_variable;
extern const te_op_def te_op_assign_variable;
extern const te_op_def te_op_var_handle;
extern const te_op_def te_op_call_once;
extern const te_op_def te_op_if;
extern const te_op_def te_op_while;

static const te_op_def *const op_table[] = {
    &te_op_conv2d,
    &te_op_depthwise_conv2d,
    &te_op_fully_connected,
    &te_op_transpose_conv,
    &te_op_add,
    &te_op_mul,
    &te_op_average_pool2d,
    &te_op_max_pool2d,
    &te_op_mean,
    &te_op_pad,
    &te_op_reshape,
    &te_op_squeeze,
    &te_op_transpose,
    &te_op_concatenation,
    &te_op_strided_slice,
    &te_op_resize_nearest_neighbor,
    &te_op_resize_bilinear,
    &te_op_sum,
    &te_op_reduce_max,
    &te_op_reduce_min,
    &te_op_arg_max,
    &te_op_arg_min,
    &te_op_batch_matmul,
    &te_op_quantize,
    &te_op_dequantize,
    &te_op_softmax,
    &te_op_log_softmax,
    &te_op_logistic,
    &te_op_tanh,
    &te_op_unidirectional_sequence_lstm,
    &te_op_hard_swish,
    &te_op_relu,
    &te_op_relu6,
    &te_op_shape,
    &te_op_tile,
    &te_op_broadcast_args,
    &te_op_add_n,
    &te_op_cumsum,
    &te_op_l2_pool2d,
    &te_op_pack,
    &te_op_leaky_relu,
    &te_op_minimum,
    &te_op_maximum,
    &te_op_sub,
    &te_op_squared_difference,
    &te_op_prelu,
    &te_op_elu,
    &te_op_abs,
    &te_op_neg,
    &te_op_expand_dims,
    &te_op_slice,
    &te_op_split,
    &te_op_split_v,
    &te_op_unpack,
    &te_op_gather,
    &te_op_depth_to_space,
    &te_op_space_to_depth,
    &te_op_mirror_pad,
    &te_op_padv2,
    &te_op_cast,
    &te_op_space_to_batch_nd,
    &te_op_batch_to_space_nd,
    &te_op_svdf,
    &te_op_equal,
    &te_op_not_equal,
    &te_op_greater,
    &te_op_greater_equal,
    &te_op_less,
    &te_op_less_equal,
    &te_op_logical_and,
    &te_op_logical_or,
    &te_op_logical_not,
    &te_op_select_v2,
    &te_op_exp,
    &te_op_log,
    &te_op_sqrt,
    &te_op_rsqrt,
    &te_op_sin,
    &te_op_cos,
    &te_op_square,
    &te_op_floor,
    &te_op_ceil,
    &te_op_round,
    &te_op_l2_normalization,
    &te_op_gather_nd,
    &te_op_div,
    &te_op_floor_div,
    &te_op_floor_mod,
    &te_op_broadcast_to,
    &te_op_fill,
    &te_op_zeros_like,
    &te_op_reverse_v2,
    &te_op_embedding_lookup,
    &te_op_read_variable,
    &te_op_assign_variable,
    &te_op_var_handle,
    &te_op_call_once,
    &te_op_if,
    &te_op_while,
};

const te_op_def *te_op_lookup(int opcode)
{
    size_t i;
    for (i = 0; i < sizeof op_table / sizeof op_table[0]; i++)
        if (op_table[i]->opcode == opcode)
            return op_table[i];
    return NULL;
}

const te_op_def *te_op_find(int opcode)
{
    const te_op_def *def = te_op_lookup(opcode);
    return def && def->emit ? def : NULL;
}

int te_op_inputs_const(const te_graph *g, const te_op *op)
{
    int i;
    for (i = 0; i < op->n_in; i++)
        if (op->in[i] >= 0 && !g->tensors[op->in[i]].data)
            return 0;
    return 1;
}

int te_op_fail(te_diag *d, const te_op *op, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return te_fail(d, "%s (op %d): %s", te_opcode_name(op->opcode), op->index, msg);
}

int te_check_io_count(te_diag *d, const te_op *op, int min_in, int max_in, int n_out)
{
    if (op->n_in < min_in || op->n_in > max_in) {
        if (min_in == max_in)
            return te_op_fail(d, op, "has %d inputs, expected %d", op->n_in, min_in);
        return te_op_fail(d, op, "has %d inputs, expected %d to %d", op->n_in, min_in, max_in);
    }
    if (op->n_out != n_out)
        return te_op_fail(d, op, "has %d outputs, expected %d", op->n_out, n_out);
    return 0;
}

int te_check_type(te_diag *d, const te_op *op, const te_tensor *t, const char *which, te_dtype type)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (t->type != type)
        return te_op_fail(d, op, "%s (tensor %d '%s') has type %s, expected %s", which, t->id,
                          t->name, te_dtype_name(t->type), te_dtype_name(type));
    return 0;
}

int te_check_quant(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (t->q.count < 1)
        return te_op_fail(d, op, "%s (tensor %d '%s') has no quantization parameters", which,
                          t->id, t->name);
    if (!(t->q.scale[0] > 0.0f) || !isfinite(t->q.scale[0]))
        return te_op_fail(d, op, "%s (tensor %d '%s') has invalid scale %g", which, t->id,
                          t->name, (double)t->q.scale[0]);
    if (t->type == TE_DT_INT8 && (t->q.zero_point[0] < -128 || t->q.zero_point[0] > 127))
        return te_op_fail(d, op, "%s (tensor %d '%s') has zero point %lld outside int8", which,
                          t->id, t->name, (long long)t->q.zero_point[0]);
    return 0;
}

int te_check_const(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (!t->data)
        return te_op_fail(d, op, "%s (tensor %d '%s') must be a constant", which, t->id, t->name);
    if (t->data_bytes != te_tensor_bytes(t))
        return te_op_fail(d, op, "%s (tensor %d '%s') has %zu bytes of data, its shape needs %zu",
                          which, t->id, t->name, t->data_bytes, te_tensor_bytes(t));
    return 0;
}

int te_inplace_same_size_input0(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    if (!in || !out || in->type != out->type || te_tensor_bytes(in) != te_tensor_bytes(out))
        return -1;
    return 0;
}

int te_inplace_same_shape_input(const te_graph *g, const te_op *op)
{
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    int k, r;
    for (k = 0; out && k < op->n_in && k < 2; k++) {
        const te_tensor *in = op->in[k] >= 0 ? &g->tensors[op->in[k]] : NULL;
        int same = in && in->type == out->type && te_tensor_elems(in) == te_tensor_elems(out);
        for (r = 0; same && r < out->rank && r < in->rank; r++)
            same = in->shape[in->rank - 1 - r] == out->shape[out->rank - 1 - r];
        if (same)
            return k;
    }
    return -1;
}

int te_slice_output_always(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return 1;
}

te_patch_kind te_patch_pointwise(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_PATCH_POINTWISE;
}

te_patch_kind te_patch_window(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_PATCH_WINDOW;
}

int64_t te_cost_rows_of(const te_tensor *t)
{
    int64_t last;
    if (!t || t->rank == 0)
        return 1;
    last = t->shape[t->rank - 1];
    return last > 0 ? te_tensor_elems(t) / last : 0;
}
