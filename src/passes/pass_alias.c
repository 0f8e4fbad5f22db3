/* pass_alias.c - zero-copy reshapes: the output of an operator whose
 * definition says alias_output (RESHAPE, SQUEEZE) becomes a view of its
 * input's storage, so no bytes move at run time. */
#include "../ops/ops.h"
#include "passes.h"

static int is_graph_input(const te_graph *g, int t)
{
    int i;
    for (i = 0; i < g->n_inputs; i++)
        if (g->inputs[i] == t)
            return 1;
    return 0;
}

void te_pass_alias(te_graph *g)
{
    int i;
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        te_tensor *in, *out;
        if (op->dead || !def || !def->alias_output || op->n_in < 1 || op->n_out < 1)
            continue;
        in = te_in(g, op, 0);
        out = te_out(g, op, 0);
        if (!in || !out || in->data || is_graph_input(g, out->id))
            continue;
        if (te_tensor_bytes(in) != te_tensor_bytes(out))
            continue;
        out->alias_of = in->id;
        out->alias_offset = 0;
    }
}
