/* pass_fold_pad.c - PAD folding: a PAD of height and width whose only
 * reader takes explicit padding (te_op_def.absorbs_padding: CONV_2D,
 * DEPTHWISE_CONV_2D) disappears; the convolution
 * reads the PAD's input and gets the padding as explicit padding
 * (te_options pad_top/bottom/left/right).  Valid when the pad value is the
 * convolution's input zero point: such a tap contributes
 * (zp - zp) * w = 0, exactly like a tap the kernel skips.  Saves the
 * padded copy's memory and time. */
#include <string.h>

#include "../ops/ops.h"
#include "passes.h"

/* Folds PAD op `pi` into its reader if everything allows it. */
static void fold_one(te_graph *g, int pi)
{
    te_op *pad = &g->ops[pi], *conv;
    const te_op_def *pad_def = te_op_find(pad->opcode), *def;
    te_options saved;
    te_diag d;
    int p[4], reader, input = -1;
    if (!pad_def || !pad_def->hw_padding || pad_def->hw_padding(g, pad, p) < 0)
        return;
    reader = te_graph_sole_reader(g, pad->out[0], &input);
    if (reader < 0 || input != 0) /* the convolution's data input */
        return;
    conv = &g->ops[reader];
    def = te_op_find(conv->opcode);
    if (!def || !def->absorbs_padding)
        return;
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
        if (!g->ops[i].dead)
            fold_one(g, i);
}
