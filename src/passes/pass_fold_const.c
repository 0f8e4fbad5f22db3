/* pass_fold_const.c - constant folding: an operator whose outputs can be
 * computed at compile time (its inputs are constants, or it only reads a
 * static shape, as SHAPE does) is evaluated by its op file's fold() with
 * the arithmetic of its kernel; its outputs become constant tensors whose
 * data the graph owns, and the operator dies.  Runs first, before
 * validation, in execution order, so a chain such as Keras' dynamic-batch
 * SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE folds down to RESHAPE with a
 * constant shape, and no shape arithmetic reaches generated code.  Dead
 * code elimination later drops constants nothing reads any more. */
#include <stdlib.h>

#include "../ops/ops.h"
#include "passes.h"

/* Outputs that can hold folded data: present, not graph inputs, of a type
 * with a size, and small enough to be a constant array. */
static int outputs_foldable(const te_graph *g, const te_op *op)
{
    int j, k;
    for (j = 0; j < op->n_out; j++) {
        const te_tensor *t = op->out[j] >= 0 ? &g->tensors[op->out[j]] : NULL;
        if (!t || t->data || te_dtype_size(t->type) == 0 || te_tensor_elems(t) < 0 ||
            te_tensor_bytes(t) > ((size_t)1 << 26))
            return 0;
        for (k = 0; k < g->n_inputs; k++)
            if (g->inputs[k] == t->id)
                return 0;
    }
    return op->n_out > 0;
}

static void free_outputs(uint8_t **out, int n)
{
    int j;
    for (j = 0; j < n; j++)
        free(out[j]);
    free(out);
}

/* Folds one operator: 1 folded, 0 not foldable, -1 error (d set).  An op
 * its check() refuses is left alone: validation reports it, with every
 * other problem of the model, in order. */
static int fold_op(te_graph *g, te_op *op, const te_op_def *def, te_diag *d)
{
    uint8_t **out;
    te_diag refused = {0};
    int j, r;
    if (def->check && def->check(g, op, &refused) < 0)
        return 0;
    out = calloc((size_t)op->n_out, sizeof *out);
    if (!out)
        return te_fail(d, "out of memory");
    for (j = 0; j < op->n_out; j++) {
        size_t bytes = te_tensor_bytes(&g->tensors[op->out[j]]);
        out[j] = calloc(bytes ? bytes : 1, 1);
        if (!out[j]) {
            free_outputs(out, op->n_out);
            return te_fail(d, "out of memory");
        }
    }
    r = def->fold(g, op, out);
    if (r <= 0) {
        free_outputs(out, op->n_out);
        return r < 0 ? te_op_fail(d, op, "constant folding failed") : 0;
    }
    for (j = 0; j < op->n_out; j++) {
        te_tensor *t = &g->tensors[op->out[j]];
        t->data = te_graph_adopt(g, out[j]);
        out[j] = NULL;
        if (!t->data) {
            free_outputs(out, op->n_out);
            return te_fail(d, "out of memory");
        }
        t->data_bytes = te_tensor_bytes(t);
    }
    free(out);
    op->dead = 1;
    return 1;
}

int te_pass_fold_const(te_graph *g, te_diag *d)
{
    int i;
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        const te_op_def *def = te_op_lookup(op->opcode);
        if (op->dead || !def || !def->fold || !outputs_foldable(g, op))
            continue;
        if (fold_op(g, op, def, d) < 0)
            return -1;
    }
    return 0;
}
