/* broadcast.c - checks, broadcast layout and kernel-call emission shared by
 * ADD and MUL (see broadcast.h). */
#include "broadcast.h"

#include <stdint.h>

#include <stdio.h>

/* Shape of t right-aligned into 6 dims (leading 1s). */
static void extend6(const te_tensor *t, int *d)
{
    int i, lead = 6 - t->rank;
    for (i = 0; i < 6; i++)
        d[i] = i < lead ? 1 : t->shape[i - lead];
}

int te_bcast_check_shapes(te_diag *d, const te_op *op, const te_tensor *a, const te_tensor *b,
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

int te_bcast_check_plain(te_diag *d, const te_op *op, const te_tensor *a, const te_tensor *b,
                         const te_tensor *out, int max_rank)
{
    if (te_check_type(d, op, b, "input 1", a->type) < 0 ||
        te_check_type(d, op, out, "output 0", a->type) < 0)
        return -1;
    if ((a->data && te_check_const(d, op, a, "input 0") < 0) ||
        (b->data && te_check_const(d, op, b, "input 1") < 0))
        return -1;
    if (te_bcast_check_shapes(d, op, a, b, out) < 0)
        return -1;
    if (!te_tensor_same_shape(a, b) && (a->rank > max_rank || b->rank > max_rank || out->rank > max_rank))
        return te_op_fail(d, op, "broadcasting inputs of rank above %d (TFLite Micro's limit)",
                          max_rank);
    if (te_tensor_elems(out) > INT32_MAX)
        return te_op_fail(d, op, "output 0 has more than %d elements", INT32_MAX);
    return 0;
}

/* The checks of te_bcast_check_inputs with operands of type `type`. */
static int check_inputs_of_type(te_graph *g, const te_op *op, te_diag *d, te_dtype type)
{
    te_tensor *a, *b, *o;
    a = te_in(g, op, 0);
    b = te_in(g, op, 1);
    o = te_out(g, op, 0);
    if (te_check_type(d, op, a, "input 0", type) < 0 ||
        te_check_type(d, op, b, "input 1", type) < 0 ||
        te_check_type(d, op, o, "output 0", type) < 0 ||
        te_check_quant(d, op, a, "input 0") < 0 || te_check_quant(d, op, b, "input 1") < 0 ||
        te_check_quant(d, op, o, "output 0") < 0)
        return -1;
    if (a->data && te_check_const(d, op, a, "input 0") < 0)
        return -1;
    if (b->data && te_check_const(d, op, b, "input 1") < 0)
        return -1;
    return te_bcast_check_shapes(d, op, a, b, o);
}

int te_bcast_check_inputs(te_graph *g, const te_op *op, te_diag *d)
{
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    return check_inputs_of_type(g, op, d, TE_DT_INT8);
}

int te_bcast_check_inputs_s8_s16(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *a;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    a = te_in(g, op, 0);
    return check_inputs_of_type(g, op, d, a && a->type == TE_DT_INT16 ? TE_DT_INT16 : TE_DT_INT8);
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

void te_bcast_fill(const te_tensor *a, const te_tensor *b, int *broadcast, int *size, int *dims,
                   int *stride1, int *stride2)
{
    int da[6], db[6], dim[6], s1[6], s2[6], i, n = 0;
    extend6(a, da);
    extend6(b, db);
    bcast_strides(da, s1);
    bcast_strides(db, s2);
    *broadcast = 0;
    *size = 1;
    for (i = 0; i < 6; i++) {
        dim[i] = da[i] == 1 ? db[i] : da[i];
        *size *= dim[i];
        if (da[i] != db[i])
            *broadcast = 1;
    }
    /* Drop size-1 dims, then merge a dim into the next one when both inputs
     * walk them as one contiguous (or one broadcast) run. */
    for (i = 0; i < 6; i++) {
        if (dim[i] == 1)
            continue;
        if (n > 0 && stride1[n - 1] == s1[i] * dim[i] && stride2[n - 1] == s2[i] * dim[i]) {
            dims[n - 1] *= dim[i];
            stride1[n - 1] = s1[i];
            stride2[n - 1] = s2[i];
            continue;
        }
        dims[n] = dim[i];
        stride1[n] = s1[i];
        stride2[n] = s2[i];
        n++;
    }
    /* Right-align the n kept dims; pad in front with size-1 dims. */
    for (i = 5; i >= 0; i--) {
        int src = i - (6 - n);
        dims[i] = src >= 0 ? dims[src] : 1;
        stride1[i] = src >= 0 ? stride1[src] : 0;
        stride2[i] = src >= 0 ? stride2[src] : 0;
    }
}

void te_bcast_param_layout(te_emit *e, int broadcast, int size, const int *dims,
                           const int *stride1, const int *stride2)
{
    te_params_int(e, "broadcast", broadcast);
    te_params_int(e, "size", size);
    te_params_ints(e, "dims", dims, 6);
    te_params_ints(e, "stride1", stride1, 6);
    te_params_ints(e, "stride2", stride2, 6);
}

void te_bcast_params_begin(te_emit *e, const te_op *op, const char *type)
{
    int broadcast, size, d[6], s1[6], s2[6];
    te_bcast_fill(te_in(e->g, op, 0), te_in(e->g, op, 1), &broadcast, &size, d, s1, s2);
    te_params_begin(e, type);
    te_bcast_param_layout(e, broadcast, size, d, s1, s2);
}

int te_bcast_emit(te_emit *e, const te_op *op, te_kernel_id k, const char *params)
{
    const te_tensor *a = te_in(e->g, op, 0), *b = te_in(e->g, op, 1), *o = te_out(e->g, op, 0);
    te_name pa = te_emit_tensor(e, a->id), pb = te_emit_tensor(e, b->id),
            po = te_emit_tensor(e, o->id);
    te_emit_kernel(e, k);
    te_emit_kernel_call(e, k, params, pa.s, pb.s, po.s);
    return 0;
}

te_patch_kind te_bcast_patch_kind(const te_graph *g, const te_op *op)
{
    if (op->n_out > 0 && op->out[0] >= 0 && g->tensors[op->out[0]].type != TE_DT_INT8)
        return TE_PATCH_NONE;
    return te_patch_pointwise_bcast(g, op);
}
