/* pass_fold_pad.c - PAD folding: a PAD of height and width whose only
 * reader is a CONV_2D or DEPTHWISE_CONV_2D disappears; the convolution
 * reads the PAD's input and gets the padding as explicit padding
 * (te_options pad_top/bottom/left/right).  Valid when the pad value is the
 * convolution's input zero point: such a tap contributes
 * (zp - zp) * w = 0, exactly like a tap the kernel skips.  Saves the
 * padded copy's memory and time. */
#include <string.h>

#include "../ops/ops.h"
#include "passes.h"

int64_t te_move_const_int(const te_tensor *t, int64_t i); /* op_reshape.c */

/* The one live operator reading tensor t, which must read it once, as
 * input 0; -1 if there is none, several, or t is a graph output. */
static int sole_reader(const te_graph *g, int t)
{
    int i, j, reader = -1;
    for (i = 0; i < g->n_outputs; i++)
        if (g->outputs[i] == t)
            return -1;
    for (i = 0; i < g->n_ops; i++) {
        if (g->ops[i].dead)
            continue;
        for (j = 0; j < g->ops[i].n_in; j++) {
            if (g->ops[i].in[j] != t)
                continue;
            if (reader >= 0 || j != 0)
                return -1;
            reader = i;
        }
    }
    return reader;
}

/* Same per-tensor scale and zero point: the PAD copies bytes unchanged,
 * so the convolution may read its input with the output's parameters. */
static int same_quant(const te_tensor *a, const te_tensor *b)
{
    return a->q.count == 1 && b->q.count == 1 && a->q.scale[0] == b->q.scale[0] &&
           a->q.zero_point[0] == b->q.zero_point[0];
}

/* The value PAD writes (constant_values, else the output zero point) is
 * the output zero point. */
static int pads_with_zero_point(const te_graph *g, const te_op *pad)
{
    const te_tensor *out = &g->tensors[pad->out[0]];
    const te_tensor *v = pad->n_in > 2 && pad->in[2] >= 0 ? &g->tensors[pad->in[2]] : NULL;
    if (!v)
        return 1;
    return v->type == TE_DT_INT8 && v->data && v->data_bytes >= 1 &&
           (int8_t)v->data[0] == out->q.zero_point[0];
}

/* Height/width padding {top, bottom, left, right} of a 4-D PAD that leaves
 * batch and channels alone; 0, or -1 if the PAD does something else. */
static int hw_padding(const te_graph *g, const te_op *pad, int p[4])
{
    const te_tensor *in = &g->tensors[pad->in[0]];
    const te_tensor *amounts = pad->n_in > 1 && pad->in[1] >= 0 ? &g->tensors[pad->in[1]] : NULL;
    int k;
    if (in->rank != 4 || !amounts || !amounts->data || te_tensor_elems(amounts) != 8)
        return -1;
    if (te_move_const_int(amounts, 0) || te_move_const_int(amounts, 1) ||
        te_move_const_int(amounts, 6) || te_move_const_int(amounts, 7))
        return -1;
    for (k = 0; k < 4; k++) {
        int64_t v = te_move_const_int(amounts, 2 + k);
        if (v < 0 || v > 0xffff)
            return -1;
        p[k] = (int)v;
    }
    return 0;
}

/* Folds PAD op `pi` into its reader if everything allows it. */
static void fold_one(te_graph *g, int pi)
{
    te_op *pad = &g->ops[pi], *conv;
    const te_op_def *def;
    te_options saved;
    te_diag d;
    int p[4], reader;
    if (pad->n_in < 2 || pad->n_out != 1 || pad->in[0] < 0 || pad->out[0] < 0 ||
        g->tensors[pad->in[0]].data || !same_quant(&g->tensors[pad->in[0]],
                                                   &g->tensors[pad->out[0]]) ||
        !pads_with_zero_point(g, pad) || hw_padding(g, pad, p) < 0)
        return;
    reader = sole_reader(g, pad->out[0]);
    if (reader < 0 || (g->ops[reader].opcode != TE_OP_CONV_2D &&
                       g->ops[reader].opcode != TE_OP_DEPTHWISE_CONV_2D))
        return;
    conv = &g->ops[reader];
    def = te_op_find(conv->opcode);
    saved = conv->opt;
    conv->opt.pad_top += p[0];
    conv->opt.pad_bottom += p[1];
    conv->opt.pad_left += p[2];
    conv->opt.pad_right += p[3];
    conv->in[0] = pad->in[0];
    memset(&d, 0, sizeof d);
    if (!def || !def->check || def->check(g, conv, &d) != 0) {
        conv->opt = saved; /* the folded form is not valid: keep the PAD */
        conv->in[0] = pad->out[0];
        return;
    }
    pad->dead = 1;
}

void te_pass_fold_pad(te_graph *g)
{
    int i;
    /* last first, so a PAD feeding a PAD that folds can fold in turn */
    for (i = g->n_ops - 1; i >= 0; i--)
        if (!g->ops[i].dead && g->ops[i].opcode == TE_OP_PAD)
            fold_one(g, i);
}
