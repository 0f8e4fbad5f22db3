/* lut_emit.c - shared check and lowering of the table-driven int8
 * elementwise operators (see lut_emit.h). */
#include "lut_emit.h"

#include <limits.h>

#include "../ops/unary.h"

int te_lut_check_unary(te_graph *g, const te_op *op, te_diag *d, int need_out_quant)
{
    const te_tensor *in, *out;
    if (te_check_unary_s8(g, op, d, need_out_quant) < 0)
        return -1;
    in = te_in(g, op, 0);
    out = te_out(g, op, 0);
    if (te_tensor_elems(in) != te_tensor_elems(out))
        return te_op_fail(d, op, "output 0 (tensor %d '%s') has %lld elements, input 0 has %lld",
                          out->id, out->name, (long long)te_tensor_elems(out),
                          (long long)te_tensor_elems(in));
    if (te_tensor_elems(in) > INT_MAX)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') has more than %d elements", in->id,
                          in->name, INT_MAX);
    return 0;
}

int te_lut_emit_table(te_emit *e, const te_op *op, const int8_t table[256])
{
    const te_tensor *in = te_in(e->g, op, 0);
    te_name t = te_emit_const_i8(e, table, 256, "lut");
    te_name x = te_emit_tensor(e, op->in[0]);
    te_name y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_LUT_S8);
    te_emit_kernel_call(e, TE_K_LUT_S8, x.s, y.s, te_expr("%lld", (long long)te_tensor_elems(in)).s, t.s);
    return 0;
}

int te_lut_check_sigmoid_input(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0);
    te_lut_sigmoid_params p;
    if (te_lut_sigmoid_prepare(in->q.scale[0], (int32_t)in->q.zero_point[0], &p) < 0)
        return te_op_fail(d, op, "input 0 (tensor %d '%s') scale %g is outside the range "
                          "TFLite's int8 %s supports", in->id, in->name, (double)in->q.scale[0],
                          te_opcode_name(op->opcode));
    return 0;
}

int te_lut_emit_sigmoid(te_emit *e, const te_op *op,
                        void (*fill)(const te_lut_sigmoid_params *p, int8_t table[256]))
{
    const te_tensor *in = te_in(e->g, op, 0);
    te_lut_sigmoid_params p;
    int8_t table[256];
    te_lut_sigmoid_prepare(in->q.scale[0], (int32_t)in->q.zero_point[0], &p);
    fill(&p, table);
    return te_lut_emit_table(e, op, table);
}

int te_lut_op_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_op_def *def = te_op_lookup(op->opcode);
    int8_t table[256];
    if (te_lut_check_unary(g, op, d, 1) < 0)
        return -1;
    if (def->lut(g, op, table) < 0)
        return te_op_fail(d, op, "input scale / output scale = %g is too large",
                          (double)te_in(g, op, 0)->q.scale[0] /
                              (double)te_out(g, op, 0)->q.scale[0]);
    return 0;
}

int te_lut_op_emit(te_emit *e, const te_op *op)
{
    int8_t table[256];
    if (te_op_lookup(op->opcode)->lut(e->g, op, table) < 0)
        return te_op_fail(e->diag, op, "lost its table (internal error)");
    return te_lut_emit_table(e, op, table);
}
