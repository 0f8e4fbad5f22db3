/* op_mul.c - MUL (int8, broadcasting up to 6D, fused activation): checks,
 * TFLite Micro's Prepare-time multiplier (s1 * s2 / s_out in double) and the
 * call to te_mul_s8.  The broadcast layout comes from op_add.c. */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>

#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_mul.h"

/* Defined in op_add.c (same layout as there). */
typedef struct {
    int broadcast;
    int size;
    int dims[6], stride1[6], stride2[6];
} te_bcast;
int te_bcast_check(te_diag *d, const te_op *op, const te_tensor *a, const te_tensor *b,
                   const te_tensor *out);
void te_bcast_layout(const te_tensor *a, const te_tensor *b, te_bcast *l);
int te_bcast_format(const te_bcast *l, char *buf, size_t n);
void te_mul_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_mul_params *p);

/* Fills the kernel parameters as TFLite Micro's CalculateOpDataMul: one
 * multiplier for s1 * s2 / s_out (computed in double), and the layout. */
void te_mul_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_mul_params *p)
{
    double real = (double)a->q.scale[0] * (double)b->q.scale[0] / (double)o->q.scale[0];
    te_bcast l;
    int i;
    te_bcast_layout(a, b, &l);
    p->broadcast = l.broadcast;
    p->size = l.size;
    for (i = 0; i < 6; i++) {
        p->dims[i] = l.dims[i];
        p->stride1[i] = l.stride1[i];
        p->stride2[i] = l.stride2[i];
    }
    p->in1_offset = (int32_t)-a->q.zero_point[0];
    p->in2_offset = (int32_t)-b->q.zero_point[0];
    te_quantize_multiplier(real, &p->out_mult, &p->out_shift);
    p->out_offset = (int32_t)o->q.zero_point[0];
    p->act_min = -128;
    p->act_max = 127;
    te_activation_range(act, o->q.scale[0], p->out_offset, -128, 127, &p->act_min, &p->act_max);
}

static int mul_check(te_graph *g, const te_op *op, te_diag *d)
{
    te_tensor *a, *b, *o;
    int32_t lo, hi;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (te_check_type(d, op, a, "input 0", TE_DT_INT8) < 0 ||
        te_check_type(d, op, b, "input 1", TE_DT_INT8) < 0 ||
        te_check_type(d, op, o, "output 0", TE_DT_INT8) < 0 ||
        te_check_quant(d, op, a, "input 0") < 0 || te_check_quant(d, op, b, "input 1") < 0 ||
        te_check_quant(d, op, o, "output 0") < 0)
        return -1;
    if (a->data && te_check_const(d, op, a, "input 0") < 0)
        return -1;
    if (b->data && te_check_const(d, op, b, "input 1") < 0)
        return -1;
    if (te_bcast_check(d, op, a, b, o) < 0)
        return -1;
    if (te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0], -128,
                            127, &lo, &hi) < 0)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)op->opt.activation);
    return 0;
}

static int mul_emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *a = te_in(g, op, 0), *b = te_in(g, op, 1), *o = te_out(g, op, 0);
    te_name pa = te_emit_tensor(e, a->id), pb = te_emit_tensor(e, b->id),
            po = te_emit_tensor(e, o->id);
    te_mul_params p;
    te_bcast l;
    char lay[512];
    te_mul_make_params(op->opt.activation, a, b, o, &p);
    te_bcast_layout(a, b, &l);
    te_bcast_format(&l, lay, sizeof lay);
    te_emit_kernel(e, "mul");
    te_emit_stmt(e, "{");
    te_emit_stmt(e, "    static const te_mul_params p = {%s,", lay);
    te_emit_stmt(e, "        %d, %d, %d, %d, %d, %d, %d};", (int)p.in1_offset, (int)p.in2_offset,
                 (int)p.out_mult, p.out_shift, (int)p.out_offset, (int)p.act_min, (int)p.act_max);
    te_emit_stmt(e, "    te_mul_s8(&p, %s, %s, %s);", pa.s, pb.s, po.s);
    te_emit_stmt(e, "}");
    return 0;
}

const te_op_def te_op_mul = {TE_OP_MUL, mul_check, NULL, NULL, mul_emit, 0, te_inplace_same_shape_input};
