/* tflm_tail.c - an estimate of TensorFlow Lite Micro's persistent tail
 * (the arena section that is not planned): per-tensor and per-node records,
 * kernels' op data, variable tensors. */
#include "tflm_estimate.h"

static int has_per_channel_requant(int opcode)
{
    return opcode == TE_OP_CONV_2D || opcode == TE_OP_DEPTHWISE_CONV_2D ||
           opcode == TE_OP_TRANSPOSE_CONV;
}

void tflm_features_of(const te_graph *g, tflm_features *f)
{
    f->tensors = g->n_tensors;
    f->ops = g->n_ops;
    f->io = g->n_inputs + g->n_outputs;
    f->channels = 0;
    f->quant_tensors = 0;
    f->variable_bytes = 0;
    for (int i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        if (has_per_channel_requant(op->opcode) && op->n_out > 0 && op->out[0] >= 0) {
            const te_tensor *o = &g->tensors[op->out[0]];
            if (o->rank > 0)
                f->channels += o->shape[o->rank - 1];
        }
    }
    for (int t = 0; t < g->n_tensors; t++) {
        const te_tensor *x = &g->tensors[t];
        if (x->q.count > 0)
            f->quant_tensors++;
        if (x->is_variable)
            f->variable_bytes += (te_tensor_bytes(x) + 15) / 16 * 16;
    }
}

size_t tflm_tail_estimate(const te_graph *g, const tflm_features *f)
{
    (void)g;
    return f->variable_bytes;
}
