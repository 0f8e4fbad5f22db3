/* pass_int8_io.c - `--int8-io`: firmware feeds int8 tensors directly, so a
 * model wrapped in float32 QUANTIZE (first) / DEQUANTIZE (last) ops loses
 * those ops and exposes the int8 tensors, whose scale and zero point the
 * generated header then states. */
#include "../ops/ops.h"
#include "passes.h"

/* The op is one --int8-io may drop (te_op_def.io_quantize / io_dequantize). */
static int io_role(const te_op *op, int dequantize)
{
    const te_op_def *def = te_op_find(op->opcode);
    return def && (dequantize ? def->io_dequantize : def->io_quantize);
}

static int consumers(const te_graph *g, int t, int *only)
{
    int i, j, n = 0;
    for (i = 0; i < g->n_ops; i++) {
        if (g->ops[i].dead)
            continue;
        for (j = 0; j < g->ops[i].n_in; j++)
            if (g->ops[i].in[j] == t) {
                n++;
                *only = i;
            }
    }
    return n;
}

static int is_output(const te_graph *g, int t)
{
    int i;
    for (i = 0; i < g->n_outputs; i++)
        if (g->outputs[i] == t)
            return 1;
    return 0;
}

static void strip_inputs(te_graph *g)
{
    int i;
    for (i = 0; i < g->n_inputs; i++) {
        int t = g->inputs[i], q = -1;
        te_op *op;
        if (g->tensors[t].type != TE_DT_FLOAT32 || consumers(g, t, &q) != 1 || is_output(g, t))
            continue;
        op = &g->ops[q];
        if (!io_role(op, 0) || op->n_out != 1 ||
            g->tensors[op->out[0]].type != TE_DT_INT8)
            continue;
        op->dead = 1;
        g->inputs[i] = op->out[0];
        g->tensors[op->out[0]].producer = -1;
    }
}

static void strip_outputs(te_graph *g)
{
    int i;
    for (i = 0; i < g->n_outputs; i++) {
        int t = g->outputs[i], p = g->tensors[t].producer, src, other;
        te_op *op;
        if (p < 0 || g->tensors[t].type != TE_DT_FLOAT32)
            continue;
        op = &g->ops[p];
        if (op->dead || !io_role(op, 1) || op->n_in != 1 || op->in[0] < 0)
            continue;
        src = op->in[0];
        if (g->tensors[src].type != TE_DT_INT8 || consumers(g, t, &other) != 0)
            continue;
        op->dead = 1;
        g->outputs[i] = src;
    }
}

void te_pass_int8_io(te_graph *g)
{
    strip_inputs(g);
    strip_outputs(g);
}
