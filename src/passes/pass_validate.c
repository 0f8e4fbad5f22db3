/* pass_validate.c - refuses, with one line naming the culprit, any graph
 * the code generator cannot compile exactly: unsupported operators, tensor
 * types an operator does not accept, bad graph inputs/outputs. */
#include "../ops/ops.h"
#include "passes.h"

static int io_type_ok(te_dtype t)
{
    return t == TE_DT_INT8 || t == TE_DT_UINT8 || t == TE_DT_INT16 || t == TE_DT_INT32 ||
           t == TE_DT_FLOAT32;
}

static int check_graph_io(te_graph *g, te_diag *d)
{
    int i;
    for (i = 0; i < g->n_inputs + g->n_outputs; i++) {
        int is_in = i < g->n_inputs;
        int t = is_in ? g->inputs[i] : g->outputs[i - g->n_inputs];
        const te_tensor *tt = &g->tensors[t];
        const char *what = is_in ? "input" : "output";
        int k = is_in ? i : i - g->n_inputs;
        if (tt->data && is_in)
            return te_fail(d, "graph input %d (tensor %d '%s') is a constant", k, t, tt->name);
        if (!io_type_ok(tt->type))
            return te_fail(d, "graph %s %d (tensor %d '%s') has unsupported type %s", what, k, t,
                           tt->name, te_dtype_name(tt->type));
    }
    if (g->n_outputs == 0)
        return te_fail(d, "the model has no outputs");
    return 0;
}

static int check_outputs_not_const(te_graph *g, const te_op *op, te_diag *d)
{
    int i;
    for (i = 0; i < op->n_out; i++) {
        const te_tensor *t = te_out(g, op, i);
        if (!t)
            return te_op_fail(d, op, "output %d is missing", i);
        if (t->data)
            return te_op_fail(d, op, "output %d (tensor %d '%s') is a constant buffer", i, t->id,
                              t->name);
    }
    return 0;
}

int te_pass_validate(te_graph *g, te_diag *d)
{
    int i;
    if (check_graph_io(g, d) < 0)
        return -1;
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        if (!def) {
            if (op->custom_name)
                return te_fail(d, "unsupported operator CUSTOM '%s' (op %d)", op->custom_name, i);
            return te_fail(d, "unsupported operator %s (op %d)", te_opcode_name(op->opcode), i);
        }
        if (check_outputs_not_const(g, op, d) < 0)
            return -1;
        if (def->check && def->check(g, op, d) < 0)
            return -1;
    }
    return 0;
}
