/* pass_alias.c - zero-copy reshapes: the output of an operator whose
 * definition says alias_output (RESHAPE, SQUEEZE) becomes a view of its
 * input's storage, so no bytes move at run time; so does each output that
 * te_op_def.view_input names a contiguous piece of an input (SPLIT,
 * UNPACK, SLICE), at its byte offset there. */
#include "../ops/ops.h"
#include "passes.h"

/* Output k of op as a view of the input piece its definition names. */
static void view_output(te_graph *g, const te_op *op, const te_op_def *def, int k)
{
    te_tensor *in, *out = te_out(g, op, k);
    size_t offset = 0;
    int i = def->view_input(g, op, k, &offset);
    in = i >= 0 ? te_in(g, op, i) : NULL;
    if (!in || !out || in->data || out->alias_of >= 0 || te_graph_is_input(g, out->id))
        return;
    if (offset > te_tensor_bytes(in) || te_tensor_bytes(out) > te_tensor_bytes(in) - offset)
        return;
    out->alias_of = in->id;
    out->alias_offset = offset;
}

void te_pass_alias(te_graph *g)
{
    int i, k;
    for (i = 0; i < g->n_ops; i++) {
        const te_op_def *def = g->ops[i].dead ? NULL : te_op_find(g->ops[i].opcode);
        for (k = 0; def && def->view_input && k < g->ops[i].n_out; k++)
            view_output(g, &g->ops[i], def, k);
    }
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        te_tensor *in, *out;
        if (op->dead || !def || !def->alias_output || op->n_in < 1 || op->n_out < 1)
            continue;
        in = te_in(g, op, 0);
        out = te_out(g, op, 0);
        if (!in || !out || in->data || te_graph_is_input(g, out->id))
            continue;
        if (te_tensor_bytes(in) != te_tensor_bytes(out))
            continue;
        out->alias_of = in->id;
        out->alias_offset = 0;
    }
}
