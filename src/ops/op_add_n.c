/* op_add_n.c - ADD_N as TFLite Micro: the sum of two or more tensors of one
 * shape and type, float32 or int8.  int8 needs every input on one scale and
 * zero point (TFLM's Prepare refuses anything else) and runs ADD's
 * left-shift-20 arithmetic (te_add_n_s8); no fused activation. */
#include "ops.h"

#include <stdint.h>

#include "../quant/quant.h"

#define TE_ADD_N_LEFT_SHIFT 20

/* The output rescale 2 s_in / (2^20 s_out) (TFLM's real_output_multiplier). */
static double out_rescale(const te_tensor *in, const te_tensor *out)
{
    double twice = 2 * (double)in->q.scale[0];
    return twice / ((double)(1 << TE_ADD_N_LEFT_SHIFT) * (double)out->q.scale[0]);
}

static int check_s8(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a = te_in(g, op, 0), *o = te_out(g, op, 0);
    int i;
    if (te_check_quant(d, op, a, "input 0") < 0 || te_check_quant(d, op, o, "output 0") < 0)
        return -1;
    for (i = 1; i < op->n_in; i++) {
        const te_tensor *b = te_in(g, op, i);
        if (te_check_quant(d, op, b, "input") < 0)
            return -1;
        if (b->q.scale[0] != a->q.scale[0] || b->q.zero_point[0] != a->q.zero_point[0])
            return te_op_fail(d, op, "input %d's scale and zero point differ from input 0's "
                              "(TFLite Micro's int8 ADD_N needs them equal)", i);
    }
    if (out_rescale(a, o) >= 1.0)
        return te_op_fail(d, op, "output scale %g is too small for input scale %g "
                          "(rescale factor must be below 1)", (double)o->q.scale[0],
                          (double)a->q.scale[0]);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *o;
    int i;
    if (te_check_io_count(d, op, 2, 0x7fff, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    o = te_out(g, op, 0);
    if (!a || (a->type != TE_DT_INT8 && a->type != TE_DT_FLOAT32))
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: int8, float32)",
                          a ? te_dtype_name(a->type) : "(missing)");
    if (te_check_type(d, op, o, "output 0", a->type) < 0)
        return -1;
    if (!te_tensor_same_shape(a, o))
        return te_op_fail(d, op, "output 0's shape differs from input 0's");
    for (i = 1; i < op->n_in; i++) {
        const te_tensor *b = te_in(g, op, i);
        if (!b)
            return te_op_fail(d, op, "input %d is missing", i);
        if (te_check_type(d, op, b, "input", a->type) < 0)
            return -1;
        if (!te_tensor_same_shape(a, b))
            return te_op_fail(d, op, "input %d's shape differs from input 0's", i);
    }
    for (i = 0; i < op->n_in; i++)
        if (te_in(g, op, i)->data && te_check_const(d, op, te_in(g, op, i), "input") < 0)
            return -1;
    if (te_tensor_elems(o) > INT32_MAX)
        return te_op_fail(d, op, "output 0 has more than %d elements", INT32_MAX);
    return a->type == TE_DT_INT8 ? check_s8(g, op, d) : 0;
}

static te_kernel_id kernel_of(te_dtype t)
{
    return t == TE_DT_INT8 ? TE_K_ADD_N_S8 : TE_K_ADD_N_F32;
}

/* `static const T *const NAME[n] = {in0, in1, ...};` */
static te_name input_table(te_emit *e, const te_op *op, const char *ctype)
{
    te_buf body = {0};
    te_name r;
    int i;
    te_buf_printf(&body, "{");
    for (i = 0; i < op->n_in; i++)
        te_buf_printf(&body, "%s%s", i ? ", " : "", te_emit_tensor(e, op->in[i]).s);
    te_buf_printf(&body, "}");
    r = te_emit_object(e, te_expr("%s *const", ctype).s, te_expr("[%d]", op->n_in).s,
                       body.s, te_emit_op_base(e, "inputs").s);
    te_buf_free(&body);
    return r;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *a = te_in(e->g, op, 0), *o = te_out(e->g, op, 0);
    te_kernel_id k = kernel_of(a->type);
    te_name prm, ins, po;
    if (te_tensor_elems(o) == 0)
        return 0;
    te_params_begin(e, "te_add_n_params");
    te_params_int(e, "n_inputs", op->n_in);
    te_params_int(e, "size", (long long)te_tensor_elems(o));
    if (a->type == TE_DT_INT8) {
        int32_t m;
        int shift;
        te_params_int(e, "in_offset", -(long long)a->q.zero_point[0]);
        te_params_int(e, "left_shift", TE_ADD_N_LEFT_SHIFT);
        te_quantize_multiplier_smaller_than_one(0.5, &m, &shift); /* s_in / (2 s_in) */
        te_params_int(e, "in_mult", m);
        te_params_int(e, "in_shift", shift);
        te_quantize_multiplier_smaller_than_one(out_rescale(a, o), &m, &shift);
        te_params_int(e, "out_mult", m);
        te_params_int(e, "out_shift", shift);
        te_params_int(e, "out_offset", (long long)o->q.zero_point[0]);
        te_params_int(e, "act_min", -128);
        te_params_int(e, "act_max", 127);
    }
    prm = te_params_end(e);
    ins = input_table(e, op, te_ctype(a->type));
    po = te_emit_tensor(e, o->id);
    te_emit_kernel(e, k);
    te_emit_call(e, te_kernel_name(k), prm.s, ins.s, po.s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return kernel_of(g->tensors[op->in[0]].type);
}

const te_op_def te_op_add_n = {
    .opcode = TE_OP_ADD_N,
    .check = check,
    .emit = emit,
    .variant = variant,
    .patch_kind = te_patch_pointwise_bcast,
};
