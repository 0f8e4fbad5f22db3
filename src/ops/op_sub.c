/* op_sub.c - SUB (int8 or int16x8, broadcasting up to 6D, fused
 * activation): checks, TFLite Micro's Prepare-time rescaling (as ADD's,
 * left shift 20 for int8 and 15 for int16, but with the scale ratios
 * computed in float as its CalculateOpDataSub does) and the kernel call:
 * for int8 ADD's table kernel te_add_s8_lut when the table search of
 * op_add.c finds tables for SUB's result (input 2 entering negated), else
 * te_sub_s8; te_sub_s16 for int16; te_binary_i32 / te_binary_f32 for the
 * unquantized int32 and float32 SUB (binary_plain.h).  Input checks, broadcast layout and
 * call emission are shared with ADD and MUL (broadcast.h). */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>

#include "binary_plain.h"
#include "broadcast.h"
#include "flash_budget.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_add.h"
#include "te_sub.h"
#include "te_binary_plain.h"

void te_sub_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_sub_params *p);
/* op_add.c: ADD's table search and table-kernel call. */
int te_add_make_lut_signed(const te_add_params *p, int subtract, int shift, int32_t *u1,
                           int32_t *u2);
int te_add_emit_lut(te_emit *e, const te_op *op, const te_add_params *p, const int32_t *u1,
                    const int32_t *u2);

/* TFLM's left shift of the inputs: 20 for int8, 15 for int16. */
static int sub_left_shift(const te_tensor *o)
{
    return o->type == TE_DT_INT16 ? 15 : 20;
}

/* The three real multipliers, in float like TFLM (then widened). */
static void sub_ratios(const te_tensor *a, const te_tensor *b, const te_tensor *o, double *r1,
                       double *r2, double *ro)
{
    float sa = a->q.scale[0], sb = b->q.scale[0];
    float twice_max = 2.0f * (sa > sb ? sa : sb);
    *r1 = (double)(sa / twice_max);
    *r2 = (double)(sb / twice_max);
    *ro = (double)(twice_max / ((float)(1 << sub_left_shift(o)) * o->q.scale[0]));
}

/* The output type's range. */
static void type_range(const te_tensor *o, int32_t *lo, int32_t *hi)
{
    *lo = o->type == TE_DT_INT16 ? -32768 : -128;
    *hi = o->type == TE_DT_INT16 ? 32767 : 127;
}

void te_sub_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_sub_params *p)
{
    double r1, r2, ro;
    sub_ratios(a, b, o, &r1, &r2, &ro);
    te_bcast_fill(a, b, &p->broadcast, &p->size, p->dims, p->stride1, p->stride2);
    p->in1_offset = (int32_t)-a->q.zero_point[0];
    p->in2_offset = (int32_t)-b->q.zero_point[0];
    int32_t lo, hi;
    p->left_shift = sub_left_shift(o);
    te_quantize_multiplier_smaller_than_one(r1, &p->in1_mult, &p->in1_shift);
    te_quantize_multiplier_smaller_than_one(r2, &p->in2_mult, &p->in2_shift);
    te_quantize_multiplier_smaller_than_one(ro, &p->out_mult, &p->out_shift);
    p->out_offset = (int32_t)o->q.zero_point[0];
    type_range(o, &lo, &hi);
    p->act_min = lo;
    p->act_max = hi;
    te_activation_range(act, o->q.scale[0], p->out_offset, lo, hi, &p->act_min, &p->act_max);
}

static int sub_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a, *b, *o;
    double r1, r2, ro;
    int32_t lo, hi, type_lo, type_hi;
    if (te_binary_plain_is(g, op))
        return te_binary_plain_check(g, op, d, 1);
    if (te_bcast_check_inputs_s8_s16(g, op, d) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    type_range(o, &type_lo, &type_hi);
    sub_ratios(a, b, o, &r1, &r2, &ro);
    if (!(ro < 1.0) || !(r1 > 0.0) || !(r2 > 0.0))
        return te_op_fail(d, op, "output scale %g is too small for input scales %g and %g "
                          "(rescale factor must be below 1)", (double)o->q.scale[0],
                          (double)a->q.scale[0], (double)b->q.scale[0]);
    if (te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0],
                            type_lo, type_hi, &lo, &hi) < 0)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)op->opt.activation);
    return 0;
}

/* Outputs below which SUB keeps te_sub_s8 (as ADD: op_add.c). */
#define SUB_LUT_MIN_ELEMS 256

/* SUB's parameters in ADD's struct (same fields, same meaning). */
static void as_add_params(const te_sub_params *s, te_add_params *a)
{
    int i;
    a->broadcast = s->broadcast;
    a->size = s->size;
    for (i = 0; i < TE_ADD_MAX_DIMS; i++) {
        a->dims[i] = s->dims[i];
        a->stride1[i] = s->stride1[i];
        a->stride2[i] = s->stride2[i];
    }
    a->in1_offset = s->in1_offset;
    a->in2_offset = s->in2_offset;
    a->left_shift = s->left_shift;
    a->in1_mult = s->in1_mult;
    a->in1_shift = s->in1_shift;
    a->in2_mult = s->in2_mult;
    a->in2_shift = s->in2_shift;
    a->out_mult = s->out_mult;
    a->out_shift = s->out_shift;
    a->out_offset = s->out_offset;
    a->act_min = s->act_min;
    a->act_max = s->act_max;
}

/* Parameters of op and, when ADD's table kernel can compute it, the
 * tables (returns 1). */
static int sub_plan(const te_graph *g, const te_op *op, te_sub_params *p, te_add_params *ap,
                    int32_t *u1, int32_t *u2)
{
    te_graph *gm = (te_graph *)g; /* te_in/te_out take a mutable graph; nothing is written */
    te_sub_make_params(op->opt.activation, te_in(gm, op, 0), te_in(gm, op, 1),
                       te_out(gm, op, 0), p);
    as_add_params(p, ap);
    return te_out(gm, op, 0)->type == TE_DT_INT8 &&
           te_tensor_elems(te_out(gm, op, 0)) >= SUB_LUT_MIN_ELEMS &&
           te_flash_lut_allowed(g, op) && te_add_make_lut_signed(ap, 1, TE_ADD_LUT_SHIFT, u1, u2);
}

/* The lowering's variants: ADD's table kernel or the plain one. */
enum { SUB_PLAIN, SUB_LUT, SUB_PLAIN_TYPES };

static int sub_emit(te_emit *e, const te_op *op)
{
    te_sub_params p;
    te_add_params ap;
    int32_t u1[256], u2[256];
    if (e->low->variant == SUB_PLAIN_TYPES)
        return te_binary_plain_emit(e, op, TE_BINARY_SUB, 1);
    if (e->low->variant == SUB_LUT) {
        if (!sub_plan(e->g, op, &p, &ap, u1, u2)) /* the tables lowering found */
            return te_op_fail(e->diag, op, "lost its subtraction tables (internal error)");
        return te_add_emit_lut(e, op, &ap, u1, u2);
    }
    te_sub_make_params(op->opt.activation, te_in(e->g, op, 0), te_in(e->g, op, 1),
                       te_out(e->g, op, 0), &p);
    te_bcast_params_begin(e, op, "te_sub_params");
    te_params_int(e, "in1_offset", p.in1_offset);
    te_params_int(e, "in2_offset", p.in2_offset);
    te_params_int(e, "left_shift", p.left_shift);
    te_params_int(e, "in1_mult", p.in1_mult);
    te_params_int(e, "in1_shift", p.in1_shift);
    te_params_int(e, "in2_mult", p.in2_mult);
    te_params_int(e, "in2_shift", p.in2_shift);
    te_params_int(e, "out_mult", p.out_mult);
    te_params_int(e, "out_shift", p.out_shift);
    te_params_int(e, "out_offset", p.out_offset);
    te_params_int(e, "act_min", p.act_min);
    te_params_int(e, "act_max", p.act_max);
    return te_bcast_emit(e, op, e->low->kernel, te_params_end(e).s);
}

/* Whether ADD's table kernel computes it: the table search costs
 * milliseconds, so it runs once per op (lower_once: it depends on the
 * quantization alone). */
static void sub_lower(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l)
{
    te_sub_params p;
    te_add_params ap;
    int32_t u1[256], u2[256];
    (void)o;
    if (te_binary_plain_is(g, op)) {
        l->variant = SUB_PLAIN_TYPES;
        l->kernel = te_binary_plain_kernel(g, op);
        return;
    }
    l->variant = sub_plan(g, op, &p, &ap, u1, u2) ? SUB_LUT : SUB_PLAIN;
    l->kernel = l->variant == SUB_LUT                              ? TE_K_ADD_S8_LUT
                : g->tensors[op->out[0]].type == TE_DT_INT16 ? TE_K_SUB_S16
                                                             : TE_K_SUB_S8;
}

const te_op_def te_op_sub = {
    .opcode = TE_OP_SUB,
    .check = sub_check,
    .emit = sub_emit,
    .inplace_input = te_inplace_same_shape_input,
    .patch_kind = te_bcast_patch_kind,
    .lower = sub_lower,
    .lower_once = 1,
    .int16x8 = 1,
};
