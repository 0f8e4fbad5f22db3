/* op_select.c - SELECT (v1) as TensorFlow Lite's kernel runs it (TFLite
 * Micro registers only SELECT_V2): output = condition ? x : y with raw
 * values; x, y and the output of one shape and type; the bool condition
 * either of that shape too (element by element), a scalar (one choice for
 * the whole tensor) or rank 1 with x's first dimension (one choice per
 * outermost slice, RankOneSelect).  No broadcasting beyond that.  It runs
 * on SELECT_V2's kernels: the int8, int16 and float32 ones for those types,
 * the int8 one on the bytes of the others (bool, uint8, int32, int64: each
 * element as its bytes, the condition's stride 0 across them). */
#include "ops.h"

#include <stdint.h>

static int typed_kernel(te_dtype t)
{
    return t == TE_DT_INT8 || t == TE_DT_INT16 || t == TE_DT_FLOAT32;
}

static te_kernel_id kernel_of(te_dtype t)
{
    return t == TE_DT_INT16 ? TE_K_SELECT_S16 : t == TE_DT_FLOAT32 ? TE_K_SELECT_F32 : TE_K_SELECT_S8;
}

/* Kernel elements per tensor element: 1, or the bytes of an element the
 * int8 kernel moves byte by byte. */
static int lanes_of(te_dtype t) { return typed_kernel(t) ? 1 : (int)te_dtype_size(t); }

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *c, *x, *y, *o;
    int k;
    if (te_check_io_count(d, op, 3, 3, 1) < 0)
        return -1;
    c = te_in(g, op, 0);
    x = te_in(g, op, 1);
    y = te_in(g, op, 2);
    o = te_out(g, op, 0);
    if (te_check_type(d, op, c, "input 0 (the condition)", TE_DT_BOOL) < 0)
        return -1;
    if (x->type != TE_DT_INT8 && x->type != TE_DT_INT16 && x->type != TE_DT_FLOAT32 &&
        x->type != TE_DT_INT32 && x->type != TE_DT_INT64 && x->type != TE_DT_UINT8 &&
        x->type != TE_DT_BOOL)
        return te_op_fail(d, op, "input type %s is not supported (TFLite: bool, float32, uint8, "
                          "int8, int16, int32, int64)", te_dtype_name(x->type));
    if (te_check_type(d, op, y, "input 2", x->type) < 0 ||
        te_check_type(d, op, o, "output 0", x->type) < 0)
        return -1;
    for (k = 0; k < 3; k++)
        if (te_in(g, op, k)->data &&
            te_check_const(d, op, te_in(g, op, k),
                           k == 0 ? "input 0" : k == 1 ? "input 1" : "input 2") < 0)
            return -1;
    if (!te_tensor_same_shape(x, y))
        return te_op_fail(d, op, "inputs 1 and 2 (tensors %d '%s', %d '%s') differ in shape; "
                          "SELECT does not broadcast them (SELECT_V2 does)", x->id, x->name,
                          y->id, y->name);
    if (!te_tensor_same_shape(o, x))
        return te_op_fail(d, op, "output 0 (tensor %d '%s') does not have the shape of input 1",
                          o->id, o->name);
    if (!te_tensor_same_shape(c, x) && c->rank != 0 &&
        !(c->rank == 1 && x->rank >= 1 && c->shape[0] == x->shape[0]))
        return te_op_fail(d, op, "the condition (tensor %d '%s') must have the shape of input "
                          "1, be a scalar, or be rank 1 with input 1's first dimension",
                          c->id, c->name);
    if (te_tensor_elems(o) * lanes_of(x->type) > INT32_MAX)
        return te_op_fail(d, op, "output 0 has more than %d bytes", INT32_MAX);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *c = te_in(e->g, op, 0), *x = te_in(e->g, op, 1), *y = te_in(e->g, op, 2),
                    *o = te_out(e->g, op, 0);
    int dims[6] = {1, 1, 1, 1, 1, 1}, sc[6] = {0}, sxy[6] = {0};
    long long n = (long long)te_tensor_elems(o), outer = (long long)te_tensor_elems(c), inner;
    int lanes = lanes_of(x->type);
    te_kernel_id k = kernel_of(x->type);
    te_name prm, pc, px, py, po;
    if (n == 0 || outer == 0)
        return 0;
    /* the condition's elements pick among `outer` runs of `inner` kernel elements */
    inner = n / outer * lanes;
    dims[4] = (int)outer;
    dims[5] = (int)inner;
    sc[4] = outer > 1 ? 1 : 0;
    sxy[4] = outer > 1 ? (int)inner : 0;
    sxy[5] = inner > 1 ? 1 : 0;
    te_params_begin(e, "te_select_params");
    te_params_int(e, "broadcast", inner > 1);
    te_params_int(e, "size", n * lanes);
    te_params_ints(e, "dims", dims, 6);
    te_params_ints(e, "stride_c", sc, 6);
    te_params_ints(e, "stride_x", sxy, 6);
    te_params_ints(e, "stride_y", sxy, 6);
    prm = te_params_end(e);
    pc = te_emit_tensor(e, c->id);
    px = te_emit_tensor(e, x->id);
    py = te_emit_tensor(e, y->id);
    po = te_emit_tensor(e, o->id);
    if (!typed_kernel(x->type)) { /* its bytes, through the int8 kernel */
        px = te_expr("(const int8_t *)%s", px.s);
        py = te_expr("(const int8_t *)%s", py.s);
        po = te_expr("(int8_t *)%s", po.s);
    }
    te_emit_kernel(e, k);
    te_emit_call(e, te_kernel_name(k), prm.s, pc.s, px.s, py.s, po.s);
    return 0;
}

static te_kernel_id variant(const te_graph *g, const te_op *op)
{
    return kernel_of(g->tensors[op->in[1]].type);
}

const te_op_def te_op_select = {
    .opcode = TE_OP_SELECT,
    .check = check,
    .emit = emit,
    .variant = variant,
};
