/* op_add.c - ADD (int8, broadcasting up to 6D, fused activation): checks,
 * TFLite Micro's Prepare-time rescaling (left shift 20, per-input and output
 * multipliers below one) and the call to te_add_s8.  Also owns the
 * broadcast layout shared with MUL (te_bcast_layout). */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>

#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_add.h"

/* Broadcast layout of a binary element-wise op (see te_add.h / te_mul.h). */
typedef struct {
    int broadcast;
    int size;
    int dims[6], stride1[6], stride2[6];
} te_bcast;

int te_bcast_check(te_diag *d, const te_op *op, const te_tensor *a, const te_tensor *b,
                   const te_tensor *out);
void te_bcast_layout(const te_tensor *a, const te_tensor *b, te_bcast *l);
int te_bcast_format(const te_bcast *l, char *buf, size_t n);
void te_add_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_add_params *p);

/* Shape of t right-aligned into 6 dims (leading 1s). */
static void extend6(const te_tensor *t, int *d)
{
    int i, lead = 6 - t->rank;
    for (i = 0; i < 6; i++)
        d[i] = i < lead ? 1 : t->shape[i - lead];
}

int te_bcast_check(te_diag *d, const te_op *op, const te_tensor *a, const te_tensor *b,
                   const te_tensor *out)
{
    int da[6], db[6], dout[6], i;
    if (a->rank > 6 || b->rank > 6 || out->rank > 6)
        return te_op_fail(d, op, "tensors of rank above 6 are not supported");
    extend6(a, da);
    extend6(b, db);
    extend6(out, dout);
    for (i = 0; i < 6; i++) {
        int want;
        if (da[i] != db[i] && da[i] != 1 && db[i] != 1)
            return te_op_fail(d, op, "input shapes of tensors %d '%s' and %d '%s' do not broadcast",
                              a->id, a->name, b->id, b->name);
        want = da[i] == 1 ? db[i] : da[i];
        if (dout[i] != want)
            return te_op_fail(d, op, "output 0 (tensor %d '%s') does not have the broadcast shape "
                              "of its inputs", out->id, out->name);
    }
    return 0;
}

/* Row-major element strides of an extended shape; 0 where the dim is 1. */
static void bcast_strides(const int *dim, int *stride)
{
    int i, s = 1;
    for (i = 5; i >= 0; i--) {
        stride[i] = dim[i] == 1 ? 0 : s;
        s *= dim[i];
    }
}

void te_bcast_layout(const te_tensor *a, const te_tensor *b, te_bcast *l)
{
    int da[6], db[6], dim[6], s1[6], s2[6], i, n = 0;
    extend6(a, da);
    extend6(b, db);
    bcast_strides(da, s1);
    bcast_strides(db, s2);
    l->broadcast = 0;
    l->size = 1;
    for (i = 0; i < 6; i++) {
        dim[i] = da[i] == 1 ? db[i] : da[i];
        l->size *= dim[i];
        if (da[i] != db[i])
            l->broadcast = 1;
    }
    /* Drop size-1 dims, then merge a dim into the next one when both inputs
     * walk them as one contiguous (or one broadcast) run. */
    for (i = 0; i < 6; i++) {
        if (dim[i] == 1)
            continue;
        if (n > 0 && l->stride1[n - 1] == s1[i] * dim[i] && l->stride2[n - 1] == s2[i] * dim[i]) {
            l->dims[n - 1] *= dim[i];
            l->stride1[n - 1] = s1[i];
            l->stride2[n - 1] = s2[i];
            continue;
        }
        l->dims[n] = dim[i];
        l->stride1[n] = s1[i];
        l->stride2[n] = s2[i];
        n++;
    }
    /* Right-align the n kept dims; pad in front with size-1 dims. */
    for (i = 5; i >= 0; i--) {
        int src = i - (6 - n);
        l->dims[i] = src >= 0 ? l->dims[src] : 1;
        l->stride1[i] = src >= 0 ? l->stride1[src] : 0;
        l->stride2[i] = src >= 0 ? l->stride2[src] : 0;
    }
}

/* Writes "broadcast, size, {dims}, {stride1}, {stride2}" (struct prefix). */
int te_bcast_format(const te_bcast *l, char *buf, size_t n)
{
    return snprintf(buf, n, "%d, %d, {%d, %d, %d, %d, %d, %d}, {%d, %d, %d, %d, %d, %d}, "
                    "{%d, %d, %d, %d, %d, %d}", l->broadcast, l->size,
                    l->dims[0], l->dims[1], l->dims[2], l->dims[3], l->dims[4], l->dims[5],
                    l->stride1[0], l->stride1[1], l->stride1[2], l->stride1[3], l->stride1[4],
                    l->stride1[5], l->stride2[0], l->stride2[1], l->stride2[2], l->stride2[3],
                    l->stride2[4], l->stride2[5]);
}

/* Fills the kernel parameters exactly as TFLite Micro's CalculateOpDataAdd
 * (int8: left shift 20, multipliers below one) and the broadcast layout. */
void te_add_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_add_params *p)
{
    float sa = a->q.scale[0], sb = b->q.scale[0];
    double twice_max = 2.0 * (double)(sa > sb ? sa : sb);
    double real_out = twice_max / ((double)(1 << 20) * (double)o->q.scale[0]);
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
    p->left_shift = 20;
    te_quantize_multiplier_smaller_than_one((double)sa / twice_max, &p->in1_mult, &p->in1_shift);
    te_quantize_multiplier_smaller_than_one((double)sb / twice_max, &p->in2_mult, &p->in2_shift);
    te_quantize_multiplier_smaller_than_one(real_out, &p->out_mult, &p->out_shift);
    p->out_offset = (int32_t)o->q.zero_point[0];
    p->act_min = -128;
    p->act_max = 127;
    te_activation_range(act, o->q.scale[0], p->out_offset, -128, 127, &p->act_min, &p->act_max);
}

static int add_check(te_graph *g, const te_op *op, te_diag *d)
{
    te_tensor *a, *b, *o;
    int32_t lo, hi;
    float sa, sb;
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
    sa = a->q.scale[0];
    sb = b->q.scale[0];
    if (!(2.0 * (double)(sa > sb ? sa : sb) < (double)(1 << 20) * (double)o->q.scale[0]))
        return te_op_fail(d, op, "output scale %g is too small for input scales %g and %g "
                          "(rescale factor must be below 1)", (double)o->q.scale[0],
                          (double)sa, (double)sb);
    if (te_activation_range(op->opt.activation, o->q.scale[0], (int32_t)o->q.zero_point[0], -128,
                            127, &lo, &hi) < 0)
        return te_op_fail(d, op, "unsupported fused activation %d", (int)op->opt.activation);
    return 0;
}

static int add_emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *a = te_in(g, op, 0), *b = te_in(g, op, 1), *o = te_out(g, op, 0);
    te_name pa = te_emit_tensor(e, a->id), pb = te_emit_tensor(e, b->id),
            po = te_emit_tensor(e, o->id);
    te_add_params p;
    te_bcast l;
    char lay[512];
    te_add_make_params(op->opt.activation, a, b, o, &p);
    te_bcast_layout(a, b, &l);
    te_bcast_format(&l, lay, sizeof lay);
    te_emit_kernel(e, "add");
    te_emit_stmt(e, "{");
    te_emit_stmt(e, "    static const te_add_params p = {%s,", lay);
    te_emit_stmt(e, "        %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d};",
                 (int)p.in1_offset, (int)p.in2_offset, p.left_shift, (int)p.in1_mult, p.in1_shift,
                 (int)p.in2_mult, p.in2_shift, (int)p.out_mult, p.out_shift, (int)p.out_offset,
                 (int)p.act_min, (int)p.act_max);
    te_emit_stmt(e, "    te_add_s8(&p, %s, %s, %s);", pa.s, pb.s, po.s);
    te_emit_stmt(e, "}");
    return 0;
}

const te_op_def te_op_add = {TE_OP_ADD, add_check, NULL, NULL, add_emit, 0, te_inplace_same_shape_input};
