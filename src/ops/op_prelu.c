/* op_prelu.c - PRELU (int8, or int16x8 with an int8 alpha as TFLite Micro
 * takes it; alpha broadcast against the input up to 6D): checks, TFLite
 * Micro's two Prepare-time multipliers (s_in / s_out and s_in * s_alpha /
 * s_out, in double) and the call to te_prelu_s8 / _s16 (broadcast layout
 * and emission: broadcast.h).  On a patch: pointwise with a
 * per-channel alpha (read whole); an alpha constant of the output's height,
 * width and channels (Keras' PReLU without shared axes) makes it a
 * TE_PATCH_REMAP op, whose clone reads the alpha rows of its region in
 * place (the constant stays one). */
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

/* 1 when alpha (input 1) is a constant holding a value per output pixel and
 * channel of a 4-D output ([H, W, C] or [1, H, W, C]), output row y of the
 * whole tensor reading alpha row y. */
static int alpha_spatial(const te_graph *g, const te_op *op)
{
    const te_tensor *a = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
    const te_tensor *o = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    int h, w;
    if (!a || !o || !a->data || o->rank != 4 || a->rank < 3 || a->rank > 4 ||
        (a->rank == 4 && a->shape[0] != 1))
        return 0;
    h = op->opt.region.set ? op->opt.region.out_h : o->shape[1];
    w = op->opt.region.set ? op->opt.region.out_w : o->shape[2];
    return (h > 1 || w > 1) && a->shape[a->rank - 3] == h && a->shape[a->rank - 2] == w &&
           a->shape[a->rank - 1] == o->shape[3];
}

/* A clone on a region with a per-pixel alpha: the input's and output's
 * region shapes equal, inside the whole alpha. */
static int check_region_clone(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *a = te_in(g, op, 1), *o = te_out(g, op, 0);
    if (te_check_io_count(d, op, 2, 2, 1) < 0 || te_check_type(d, op, in, "input 0", TE_DT_INT8) < 0 ||
        te_check_type(d, op, a, "input 1", TE_DT_INT8) < 0 ||
        te_check_type(d, op, o, "output 0", TE_DT_INT8) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, a, "input 1") < 0 ||
        te_check_quant(d, op, o, "output 0") < 0 || te_check_const(d, op, a, "input 1") < 0)
        return -1;
    if (!te_tensor_same_shape(in, o) || op->opt.region.ay != 1 || op->opt.region.ax != 2 ||
        op->opt.region.oy + o->shape[1] > op->opt.region.out_h ||
        op->opt.region.ox + o->shape[2] > op->opt.region.out_w)
        return te_op_fail(d, op, "its patch region does not fit its alpha");
    return 0;
}

static int is_s16(const te_graph *g, const te_op *op)
{
    return op->n_in > 0 && op->in[0] >= 0 && g->tensors[op->in[0]].type == TE_DT_INT16;
}

/* The int16x8 form: int16 input and output, int8 alpha. */
static int check_s16(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *a, *o;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    a = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (te_check_type(d, op, a, "input 1 (alpha)", TE_DT_INT8) < 0 ||
        te_check_type(d, op, o, "output 0", TE_DT_INT16) < 0 ||
        te_check_quant(d, op, in, "input 0") < 0 || te_check_quant(d, op, a, "input 1") < 0 ||
        te_check_quant(d, op, o, "output 0") < 0)
        return -1;
    if (a->data && te_check_const(d, op, a, "input 1") < 0)
        return -1;
    return te_bcast_check_shapes(d, op, in, a, o);
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    te_prelu_params p;
    int rc = is_s16(g, op)                                   ? check_s16(g, op, d)
             : op->opt.region.set && alpha_spatial(g, op) ? check_region_clone(g, op, d)
                                                            : te_bcast_check_inputs(g, op, d);
    if (rc < 0)
        return -1;
    te_prelu_make_params(te_in(g, op, 0), te_in(g, op, 1), te_out(g, op, 0), &p);
    if (p.shift_pos > 31 || p.shift_neg > 31)
        return te_op_fail(d, op, "output scale %g is too small for input scale %g and alpha "
                          "scale %g", (double)te_out(g, op, 0)->q.scale[0],
                          (double)te_in(g, op, 0)->q.scale[0],
                          (double)te_in(g, op, 1)->q.scale[0]);
    return 0;
}

/* A region clone's walk: the region's rows and columns of the input and
 * output (contiguous), alpha's at its place in the whole alpha. */
static void region_layout(const te_op *op, const te_tensor *o, int *size, int *dims, int *s1,
                          int *s2, long long *alpha_offset)
{
    int c = o->shape[3], k;
    for (k = 0; k < 6; k++)
        dims[k] = 1, s1[k] = s2[k] = 0;
    dims[3] = o->shape[1];
    dims[4] = o->shape[2];
    dims[5] = c;
    s1[3] = o->shape[2] * c;
    s1[4] = c;
    s1[5] = 1;
    s2[3] = op->opt.region.out_w * c;
    s2[4] = c;
    s2[5] = 1;
    *size = o->shape[1] * o->shape[2] * c;
    *alpha_offset = ((long long)op->opt.region.oy * op->opt.region.out_w + op->opt.region.ox) * c;
}

static int emit(te_emit *e, const te_op *op)
{
    te_prelu_params p;
    const int clone = op->opt.region.set && alpha_spatial(e->g, op);
    int size, dims[6], s1[6], s2[6];
    long long alpha_offset = 0;
    te_prelu_make_params(te_in(e->g, op, 0), te_in(e->g, op, 1), te_out(e->g, op, 0), &p);
    if (clone) {
        region_layout(op, te_out(e->g, op, 0), &size, dims, s1, s2, &alpha_offset);
        te_params_begin(e, "te_prelu_params");
        te_bcast_param_layout(e, 1, size, dims, s1, s2);
    } else {
        te_bcast_params_begin(e, op, "te_prelu_params");
    }
    te_params_int(e, "input_offset", p.input_offset);
    te_params_int(e, "alpha_offset", p.alpha_offset);
    te_params_int(e, "mult_pos", p.mult_pos);
    te_params_int(e, "shift_pos", p.shift_pos);
    te_params_int(e, "mult_neg", p.mult_neg);
    te_params_int(e, "shift_neg", p.shift_neg);
    te_params_int(e, "output_offset", p.output_offset);
    if (clone) {
        te_name prm = te_params_end(e);
        te_name pa = te_emit_tensor(e, op->in[0]), pb = te_emit_tensor(e, op->in[1]),
                po = te_emit_tensor(e, op->out[0]);
        te_emit_kernel(e, TE_K_PRELU_S8);
        te_emit_kernel_call(e, TE_K_PRELU_S8, prm.s, pa.s,
                            alpha_offset ? te_expr("%s + %lld", pb.s, alpha_offset).s : pb.s,
                            po.s);
        return 0;
    }
    return te_bcast_emit(e, op, is_s16(e->g, op) ? TE_K_PRELU_S16 : TE_K_PRELU_S8,
                         te_params_end(e).s);
}

/* In place over the input only (alpha is usually a constant). */
static int inplace_input(const te_graph *g, const te_op *op)
{
    return te_inplace_same_shape_input(g, op) == 0 ? 0 : -1;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return is_s16(g, op) ? TE_K_PRELU_S16 : TE_K_PRELU_S8;
}

static te_patch_kind patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *x = op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    if (is_s16(g, op))
        return TE_PATCH_NONE;
    if (alpha_spatial(g, op))
        return x && !x->data && te_tensor_same_shape(x, &g->tensors[op->out[0]]) ? TE_PATCH_REMAP
                                                                                : TE_PATCH_NONE;
    return te_patch_pointwise_bcast(g, op);
}

/* A per-pixel alpha: the input box is the output box (on NHWC's height
 * and width, the axes alpha's rows and columns are on). */
static int patch_remap(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                       te_region *in)
{
    (void)g;
    (void)op;
    *in = out;
    return ay == 1 && ax == 2 ? 0 : -1;
}

const te_op_def te_op_prelu = {
    .opcode = TE_OP_PRELU,
    .check = check,
    .emit = emit,
    .inplace_input = inplace_input,
    .variant = variant,
    .int16x8 = 1,
    .patch_kind = patch_kind,
    .patch_remap = patch_remap,
};
