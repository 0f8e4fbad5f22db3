/* pass_dce.c - dead-code elimination: an operator none of whose outputs is
 * read by a live operator or is a graph output does not need to run.  An
 * operator without outputs (ASSIGN_VARIABLE) runs for its effect on the
 * state and always stays. */
#include <stdlib.h>

#include "passes.h"

static int tensor_needed(const te_graph *g, int t)
{
    int i, j;
    for (i = 0; i < g->n_outputs; i++)
        if (g->outputs[i] == t)
            return 1;
    for (i = 0; i < g->n_ops; i++) {
        if (g->ops[i].dead)
            continue;
        for (j = 0; j < g->ops[i].n_in; j++)
            if (g->ops[i].in[j] == t)
                return 1;
    }
    return 0;
}

void te_pass_dce(te_graph *g)
{
    int changed = 1;
    while (changed) {
        int i;
        changed = 0;
        for (i = g->n_ops - 1; i >= 0; i--) {
            te_op *op = &g->ops[i];
            int j, needed = op->n_out == 0;
            if (op->dead)
                continue;
            for (j = 0; j < op->n_out && !needed; j++)
                needed = op->out[j] >= 0 && tensor_needed(g, op->out[j]);
            if (!needed) {
                op->dead = 1;
                changed = 1;
            }
        }
    }
}
