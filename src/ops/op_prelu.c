/* op_prelu.c - PRELU (int8, alpha broadcast against the input up to 6D):
 * checks, TFLite Micro's two Prepare-time multipliers (s_in / s_out and
 * s_in * s_alpha / s_out, in double) and the call to te_prelu_s8 (broadcast
 * layout and emission: broadcast.h). */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>

#include "broadcast.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_prelu.h"

void te_prelu_make_params(const te_tensor *in, const te_tensor *alpha, const te_tensor *o,
                          te_prelu_params *p);

void te_prelu_make_params(const te_tensor *in, const te_tensor *alpha, const te_tensor *o,
                          te_prelu_params *p)
{
    double r_pos = (double)in->q.scale[0] / (double)o->q.scale[0];
    double r_neg = (double)in->q.scale[0] * (double)alpha->q.scale[0] / (double)o->q.scale[0];
    te_bcast_fill(in, alpha, &p->broadcast, &p->size, p->dims, p->stride1, p->stride2);
    p->input_offset = (int32_t)-in->q.zero_point[0];
    p->alpha_offset = (int32_t)-alpha->q.zero_point[0];
    te_quantize_multiplier(r_pos, &p->mult_pos, &p->shift_pos);
    te_quantize_multiplier(r_neg, &p->mult_neg, &p->shift_neg);
    p->output_offset = (int32_t)o->q.zero_point[0];
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    te_prelu_params p;
    if (te_bcast_check_inputs(g, op, d) < 0)
        return -1;
    te_prelu_make_params(te_in(g, op, 0), te_in(g, op, 1), te_out(g, op, 0), &p);
    if (p.shift_pos > 31 || p.shift_neg > 31)
        return te_op_fail(d, op, "output scale %g is too small for input scale %g and alpha "
                          "scale %g", (double)te_out(g, op, 0)->q.scale[0],
                          (double)te_in(g, op, 0)->q.scale[0],
                          (double)te_in(g, op, 1)->q.scale[0]);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    te_prelu_params p;
    te_prelu_make_params(te_in(e->g, op, 0), te_in(e->g, op, 1), te_out(e->g, op, 0), &p);
    te_bcast_params_begin(e, op, "te_prelu_params");
    te_params_int(e, "input_offset", p.input_offset);
    te_params_int(e, "alpha_offset", p.alpha_offset);
    te_params_int(e, "mult_pos", p.mult_pos);
    te_params_int(e, "shift_pos", p.shift_pos);
    te_params_int(e, "mult_neg", p.mult_neg);
    te_params_int(e, "shift_neg", p.shift_neg);
    te_params_int(e, "output_offset", p.output_offset);
    return te_bcast_emit(e, op, TE_K_PRELU_S8, te_params_end(e).s);
}

/* In place over the input only (alpha is usually a constant). */
static int inplace_input(const te_graph *g, const te_op *op)
{
    return te_inplace_same_shape_input(g, op) == 0 ? 0 : -1;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_K_PRELU_S8;
}

const te_op_def te_op_prelu = {
    .opcode = TE_OP_PRELU,
    .check = check,
    .emit = emit,
    .inplace_input = inplace_input,
    .variant = variant,
};
