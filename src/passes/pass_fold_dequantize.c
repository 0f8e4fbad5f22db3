/* pass_fold_dequantize.c - DEQUANTIZE folding: an int8 -> float32
 * DEQUANTIZE whose only reader is an input its op can read through a
 * table (te_op_def.dequantize_inputs: TFLite_Detection_PostProcess's box
 * encodings and scores) disappears; the op reads the int8 tensor and looks
 * each value up in the DEQUANTIZE's own table (te_dequantize_table), so it
 * sees the very floats the DEQUANTIZE would have written.  Saves the
 * float32 copy: in an SSD detector, 1917 anchors x 91 classes of scores
 * are 698 KB as float32, 175 KB as int8. */
#include <string.h>

#include "../ops/ops.h"
#include "passes.h"

/* Folds DEQUANTIZE op `di` into its reader if everything allows it. */
static void fold_one(te_graph *g, int di)
{
    te_op *dq = &g->ops[di], *op;
    const te_tensor *in;
    const te_op_def *def;
    te_diag d;
    int k = -1, reader;
    if (dq->opcode != TE_OP_DEQUANTIZE || dq->n_in != 1 || dq->in[0] < 0)
        return;
    in = &g->tensors[dq->in[0]];
    if (in->type != TE_DT_INT8 || in->q.count != 1)
        return;
    reader = te_graph_sole_reader(g, dq->out[0], &k);
    if (reader < 0 || k < 0 || k >= 32)
        return;
    op = &g->ops[reader];
    def = te_op_find(op->opcode);
    if (!def || !(def->dequantize_inputs & (1u << k)))
        return;
    op->in[k] = dq->in[0];
    op->opt.dequantized |= 1u << k;
    memset(&d, 0, sizeof d);
    if (!def->check || def->check(g, op, &d) != 0) {
        op->in[k] = dq->out[0]; /* the folded form is not valid: keep it */
        op->opt.dequantized &= ~(1u << k);
        return;
    }
    dq->dead = 1;
}

void te_pass_fold_dequantize(te_graph *g)
{
    int i;
    for (i = 0; i < g->n_ops; i++)
        if (!g->ops[i].dead)
            fold_one(g, i);
}
