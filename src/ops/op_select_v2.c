/* op_select_v2.c - SELECT_V2 as TFLite Micro runs it: a bool condition and
 * x, y of one type (int8, int16, float32), output = condition ? x : y with
 * raw values (no requantization), the three shapes broadcast numpy-style
 * (up to 6D: TFLite Micro's BroadcastSelect5DSlow took 5, its 2026
 * broadcasting helpers take up to 8). */
#include "ops.h"

#include <stdint.h>

#define SEL_DIMS 6

/* Shape of t right-aligned into 6 dims (leading 1s). */
static void extend6(const te_tensor *t, int *d)
{
    int i, lead = SEL_DIMS - t->rank;
    for (i = 0; i < SEL_DIMS; i++)
        d[i] = i < lead ? 1 : t->shape[i - lead];
}

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *const t[3],
                        const te_tensor *o)
{
    int ext[3][SEL_DIMS], dout[SEL_DIMS], i, k;
    for (k = 0; k < 3; k++) {
        if (t[k]->rank > SEL_DIMS)
            return te_op_fail(d, op, "input %d (tensor %d '%s') has rank %d, above %d", k,
                              t[k]->id, t[k]->name, t[k]->rank, SEL_DIMS);
        extend6(t[k], ext[k]);
    }
    if (o->rank > SEL_DIMS)
        return te_op_fail(d, op, "output 0 has rank %d, above %d", o->rank, SEL_DIMS);
    extend6(o, dout);
    for (i = 0; i < SEL_DIMS; i++) {
        int want = 1;
        for (k = 0; k < 3; k++) {
            if (ext[k][i] == 1)
                continue;
            if (want != 1 && ext[k][i] != want)
                return te_op_fail(d, op, "input shapes do not broadcast");
            want = ext[k][i];
        }
        if (dout[i] != want)
            return te_op_fail(d, op, "output 0 (tensor %d '%s') does not have the broadcast "
                              "shape of its inputs", o->id, o->name);
    }
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *t[3], *o;
    int k;
    if (te_check_io_count(d, op, 3, 3, 1) < 0)
        return -1;
    for (k = 0; k < 3; k++)
        t[k] = te_in(g, op, k);
    o = te_out(g, op, 0);
    if (te_check_type(d, op, t[0], "input 0 (the condition)", TE_DT_BOOL) < 0)
        return -1;
    if (t[1]->type != TE_DT_INT8 && t[1]->type != TE_DT_INT16 && t[1]->type != TE_DT_FLOAT32)
        return te_op_fail(d, op, "input type %s is not supported (TFLite Micro: int8, int16, "
                          "float32)", te_dtype_name(t[1]->type));
    if (te_check_type(d, op, t[2], "input 2", t[1]->type) < 0 ||
        te_check_type(d, op, o, "output 0", t[1]->type) < 0)
        return -1;
    for (k = 0; k < 3; k++)
        if (t[k]->data && te_check_const(d, op, t[k], k == 0 ? "input 0" : k == 1 ? "input 1"
                                                                                 : "input 2") < 0)
            return -1;
    if (te_tensor_elems(o) > INT32_MAX)
        return te_op_fail(d, op, "output 0 has more than %d elements", INT32_MAX);
    /* All one-element tensors: TFLM keeps the output's shape (any rank). */
    if (te_tensor_elems(t[0]) == 1 && te_tensor_elems(t[1]) == 1 && te_tensor_elems(t[2]) == 1 &&
        te_tensor_elems(o) == 1)
        return 0;
    return check_shapes(d, op, t, o);
}

/* Row-major element strides of an extended shape; 0 where the dim is 1. */
static void strides(const int *dim, int *stride)
{
    int i, s = 1;
    for (i = SEL_DIMS - 1; i >= 0; i--) {
        stride[i] = dim[i] == 1 ? 0 : s;
        s *= dim[i];
    }
}

static te_kernel_id kernel_of(te_dtype t)
{
    return t == TE_DT_INT8 ? TE_K_SELECT_S8 : t == TE_DT_INT16 ? TE_K_SELECT_S16 : TE_K_SELECT_F32;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *c = te_in(e->g, op, 0), *x = te_in(e->g, op, 1), *y = te_in(e->g, op, 2),
                    *o = te_out(e->g, op, 0);
    int dc[SEL_DIMS], dx[SEL_DIMS], dy[SEL_DIMS], dims[SEL_DIMS], sc[SEL_DIMS], sx[SEL_DIMS],
        sy[SEL_DIMS], i, flat;
    long long n = (long long)te_tensor_elems(o);
    te_kernel_id k = kernel_of(x->type);
    te_name prm, pc, px, py, po;
    if (n == 0)
        return 0;
    flat = (te_tensor_same_shape(c, x) && te_tensor_same_shape(x, y)) || n == 1;
    extend6(c, dc);
    extend6(x, dx);
    extend6(y, dy);
    for (i = 0; i < SEL_DIMS; i++)
        dims[i] = n == 1 ? 1 : dc[i] != 1 ? dc[i] : dx[i] != 1 ? dx[i] : dy[i];
    strides(n == 1 ? dims : dc, sc);
    strides(n == 1 ? dims : dx, sx);
    strides(n == 1 ? dims : dy, sy);
    te_params_begin(e, "te_select_params");
    te_params_int(e, "broadcast", !flat);
    te_params_int(e, "size", n);
    te_params_ints(e, "dims", dims, SEL_DIMS);
    te_params_ints(e, "stride_c", sc, SEL_DIMS);
    te_params_ints(e, "stride_x", sx, SEL_DIMS);
    te_params_ints(e, "stride_y", sy, SEL_DIMS);
    prm = te_params_end(e);
    pc = te_emit_tensor(e, c->id);
    px = te_emit_tensor(e, x->id);
    py = te_emit_tensor(e, y->id);
    po = te_emit_tensor(e, o->id);
    te_emit_kernel(e, k);
    te_emit_call(e, te_kernel_name(k), prm.s, pc.s, px.s, py.s, po.s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return kernel_of(g->tensors[op->in[1]].type);
}

const te_op_def te_op_select_v2 = {
    .opcode = TE_OP_SELECT_V2,
    .int16x8 = 1,
    .check = check,
    .emit = emit,
    .variant = variant,
    .patch_kind = te_patch_pointwise_bcast,
};
