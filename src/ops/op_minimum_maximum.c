/* op_minimum_maximum.c - MINIMUM and MAXIMUM (int8 or int16, broadcasting
 * up to 6D): TFLite Micro compares the raw values (inputs and output share
 * one scale by the converter's rule; nothing is rescaled).  Against an int8
 * constant scalar (a clip) the op is a 256-entry table on the other input;
 * otherwise the broadcasting kernel te_minmax_s8 / te_minmax_s16.  int32
 * and float32 (unquantized): te_binary_i32 / te_binary_f32 (binary_plain.h). */
/* Only the kernel op enum is used here: declare kernels extern. */
#define TE_KERNEL extern

#include "binary_plain.h"
#include "broadcast.h"
#include "ops.h"
#include "../quant/lut_unary.h"
#include "te_binary_plain.h"

/* Index of the input that is a one-element int8 constant while the other
 * input has the output's element count, or -1. */
static int scalar_const_input(const te_graph *g, const te_op *op)
{
    const te_tensor *o = &g->tensors[op->out[0]];
    int k;
    if (o->type != TE_DT_INT8)
        return -1;
    for (k = 0; k < 2; k++) {
        const te_tensor *c = &g->tensors[op->in[k]], *x = &g->tensors[op->in[1 - k]];
        if (c->data && te_tensor_elems(c) == 1 && !x->data &&
            te_tensor_elems(x) == te_tensor_elems(o))
            return k;
    }
    return -1;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    if (te_binary_plain_is(g, op))
        return te_binary_plain_check(g, op, d, 0);
    return te_bcast_check_inputs_s8_s16(g, op, d);
}

static int emit_table(te_emit *e, const te_op *op, int k)
{
    const te_tensor *c = &e->g->tensors[op->in[k]], *x = &e->g->tensors[op->in[1 - k]];
    int8_t table[256];
    te_name t, in, out;
    te_lut_min_max_scalar(op->opcode == TE_OP_MAXIMUM, (int8_t)c->data[0], table);
    t = te_emit_const_i8(e, table, 256, "lut");
    in = te_emit_tensor(e, x->id);
    out = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_LUT_S8);
    te_emit_kernel_call(e, TE_K_LUT_S8, in.s, out.s, te_expr("%lld", (long long)te_tensor_elems(x)).s, t.s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    if (te_binary_plain_is(g, op))
        return te_binary_plain_kernel(g, op);
    if (scalar_const_input(g, op) >= 0)
        return TE_K_LUT_S8;
    return g->tensors[op->out[0]].type == TE_DT_INT16 ? TE_K_MINMAX_S16 : TE_K_MINMAX_S8;
}

static int emit(te_emit *e, const te_op *op)
{
    int k = scalar_const_input(e->g, op);
    if (te_binary_plain_is(e->g, op))
        return te_binary_plain_emit(e, op, op->opcode == TE_OP_MAXIMUM ? TE_BINARY_MAX
                                                                      : TE_BINARY_MIN, 0);
    if (k >= 0)
        return emit_table(e, op, k);
    te_bcast_params_begin(e, op, "te_minmax_params");
    te_params_int(e, "is_max", op->opcode == TE_OP_MAXIMUM);
    return te_bcast_emit(e, op, variant(e->g, op), te_params_end(e).s);
}

/* In place over the non-constant input of a table, else as ADD. */
static int inplace_input(const te_graph *g, const te_op *op)
{
    int k = scalar_const_input(g, op);
    if (k >= 0) {
        const te_tensor *x = &g->tensors[op->in[1 - k]], *o = &g->tensors[op->out[0]];
        return x->type == o->type ? 1 - k : -1;
    }
    return te_inplace_same_shape_input(g, op);
}

const te_op_def te_op_minimum = {
    .opcode = TE_OP_MINIMUM,
    .check = check,
    .emit = emit,
    .inplace_input = inplace_input,
    .variant = variant,
    .int16x8 = 1,
    .patch_kind = te_bcast_patch_kind,
};

const te_op_def te_op_maximum = {
    .opcode = TE_OP_MAXIMUM,
    .check = check,
    .emit = emit,
    .inplace_input = inplace_input,
    .variant = variant,
    .int16x8 = 1,
    .patch_kind = te_bcast_patch_kind,
};
