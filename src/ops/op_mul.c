/* op_mul.c - MUL (int8 or int16x8, broadcasting up to 6D, fused
 * activation): checks, TFLite Micro's Prepare-time multiplier (s1 * s2 /
 * s_out in double) and the call to te_mul_s8 (te_mul_s16 for int16, whose
 * zero points TFLite Micro requires to be 0; te_binary_i32 / te_binary_f32
 * for the unquantized int32 and float32 MUL, binary_plain.h).  Input checks, broadcast layout and call emission are
 * shared with ADD (broadcast.h). */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>

#include "binary_plain.h"
#include "broadcast.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_mul.h"
#include "te_binary_plain.h"

void te_mul_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_mul_params *p);

/* Fills the kernel parameters as TFLite Micro's CalculateOpDataMul: one
 * multiplier for s1 * s2 / s_out (computed in double), and the layout. */
void te_mul_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_mul_params *p)
{
    double real = (double)a->q.scale[0] * (double)b->q.scale[0] / (double)o->q.scale[0];
    int32_t qmin = o->type == TE_DT_INT16 ? -32768 : -128, qmax = -qmin - 1;
    te_bcast_fill(a, b, &p->broadcast, &p->size, p->dims, p->stride1, p->stride2);
    p->in1_offset = (int32_t)-a->q.zero_point[0];
    p->in2_offset = (int32_t)-b->q.zero_point[0];
    te_quantize_multiplier(real, &p->out_mult, &p->out_shift);
    p->out_offset = (int32_t)o->q.zero_point[0];
    p->act_min = qmin;
    p->act_max = qmax;
    te_activation_range(act, o->q.scale[0], p->out_offset, qmin, qmax, &p->act_min, &p->act_max);
}

static int mul_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *o;
    int32_t lo, hi;
    int s16;
    if (te_binary_plain_is(g, op))
        return te_binary_plain_check(g, op, d, 0);
    if (te_bcast_check_inputs_s8_s16(g, op, d) < 0)
        return -1;
    o = te_out(g, op, 0);
    s16 = o->type == TE_DT_INT16;
    if (s16 && (te_in(g, op, 0)->q.zero_point[0] != 0 || te_in(g, op, 1)->q.zero_point[0] != 0 ||
                o->q.zero_point[0] != 0))
        return te_op_fail(d, op, "int16 inputs and output must have zero point 0");
    if (te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0],
                            s16 ? -32768 : -128, s16 ? 32767 : 127, &lo, &hi) < 0)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)op->opt.activation);
    return 0;
}

static int mul_emit(te_emit *e, const te_op *op)
{
    te_mul_params p;
    te_name params;
    if (te_binary_plain_is(e->g, op))
        return te_binary_plain_emit(e, op, TE_BINARY_MUL, 1);
    te_mul_make_params(op->opt.activation, te_in(e->g, op, 0), te_in(e->g, op, 1),
                       te_out(e->g, op, 0), &p);
    te_params_begin(e, "te_mul_params");
    te_bcast_param_layout(e, p.broadcast, p.size, p.dims, p.stride1, p.stride2);
    te_params_int(e, "in1_offset", p.in1_offset);
    te_params_int(e, "in2_offset", p.in2_offset);
    te_params_int(e, "out_mult", p.out_mult);
    te_params_int(e, "out_shift", p.out_shift);
    te_params_int(e, "out_offset", p.out_offset);
    te_params_int(e, "act_min", p.act_min);
    te_params_int(e, "act_max", p.act_max);
    params = te_params_end(e);
    if (te_out(e->g, op, 0)->type == TE_DT_INT16)
        return te_bcast_emit(e, op, TE_K_MUL_S16, params.s);
    return te_bcast_emit(e, op, TE_K_MUL_S8, params.s);
}

/* The kernel emit() calls: the output type picks it. */
static te_kernel_id mul_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    if (te_binary_plain_is(g, op))
        return te_binary_plain_kernel(g, op);
    return out && out->type == TE_DT_INT16 ? TE_K_MUL_S16 : TE_K_MUL_S8;
}

const te_op_def te_op_mul = {
    .opcode = TE_OP_MUL,
    .int16x8 = 1,
    .check = mul_check,
    .emit = mul_emit,
    .inplace_input = te_inplace_same_shape_input,
    .variant = mul_variant,
    .patch_kind = te_bcast_patch_kind,
    .rescale = {2, 0, 1},
};
