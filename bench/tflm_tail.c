/* tflm_tail.c - an estimate of TensorFlow Lite Micro's persistent tail
 * (the arena section that is not planned): per-tensor and per-node records,
 * kernels' op data, variable tensors. */
#include "tflm_estimate.h"

static size_t align16(size_t n)
{
    return (n + 15) / 16 * 16;
}

/* Channels of the per-channel multiplier and shift arrays (int32 each, two
 * persistent buffers) the operator's kernel allocates in Prepare: the
 * convolutions always (output channels), FULLY_CONNECTED when its filter
 * is quantized per channel; 0 for the others. */
static long per_channel_arrays(const te_graph *g, const te_op *op)
{
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    const te_tensor *filter = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
    int conv = op->opcode == TE_OP_CONV_2D || op->opcode == TE_OP_DEPTHWISE_CONV_2D ||
               op->opcode == TE_OP_TRANSPOSE_CONV;
    if (!out || out->rank < 1)
        return 0;
    if (conv || (op->opcode == TE_OP_FULLY_CONNECTED && filter && filter->q.count > 1))
        return out->shape[out->rank - 1] > 0 ? out->shape[out->rank - 1] : 0;
    return 0;
}

void tflm_features_of(const te_graph *g, tflm_features *f)
{
    f->tensors = g->n_tensors;
    f->ops = g->n_ops;
    f->io = g->n_inputs + g->n_outputs;
    f->channels = 0;
    f->channel_bytes = 0;
    f->quant_tensors = 0;
    f->variable_bytes = 0;
    for (int i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        long ch = per_channel_arrays(g, op);
        f->channels += ch;
        if (ch > 0)
            f->channel_bytes += 2 * align16((size_t)ch * 4);
    }
    for (int t = 0; t < g->n_tensors; t++) {
        const te_tensor *x = &g->tensors[t];
        if (x->q.count > 0)
            f->quant_tensors++;
        if (x->is_variable)
            f->variable_bytes += (te_tensor_bytes(x) + 15) / 16 * 16;
    }
}

/* Persistent bytes per operator beyond the fixed part: the node record,
 * builtin options and the kernel's op data (Init/Prepare), 16-byte
 * granular.  Calibrated: TFLM's arena_used_bytes minus the planned head and
 * every other term of tflm_tail_estimate() on the shared single-operator
 * conformance models (equal within each operator kind, int8 and int16). */
static const struct {
    int opcode;
    int bytes;
} op_tail[] = {
    {TE_OP_EXPAND_DIMS, 48}, {TE_OP_MAXIMUM, 48}, {TE_OP_MINIMUM, 48},
    {TE_OP_RESIZE_BILINEAR, 48}, {TE_OP_RESIZE_NEAREST_NEIGHBOR, 48}, {TE_OP_SLICE, 48},
    {TE_OP_ARG_MAX, 64}, {TE_OP_ARG_MIN, 64}, {TE_OP_RELU6, 64}, {TE_OP_SPLIT, 64},
    {TE_OP_SPLIT_V, 64}, {TE_OP_PACK, 64}, {TE_OP_UNPACK, 64},
    {TE_OP_DEPTH_TO_SPACE, 80}, {TE_OP_GATHER, 80}, {TE_OP_HARD_SWISH, 80},
    {TE_OP_LOGISTIC, 80}, {TE_OP_PRELU, 80}, {TE_OP_RESHAPE, 80}, {TE_OP_SPACE_TO_DEPTH, 80},
    {TE_OP_TANH, 80},
    {TE_OP_ABS, 96}, {TE_OP_CAST, 96}, {TE_OP_LEAKY_RELU, 96}, {TE_OP_MUL, 96},
    {TE_OP_QUANTIZE, 96}, {TE_OP_RELU, 96}, {TE_OP_SQUEEZE, 96},
    {TE_OP_DEQUANTIZE, 112}, {TE_OP_PAD, 112}, {TE_OP_PADV2, 112}, {TE_OP_REDUCE_MAX, 112},
    {TE_OP_REDUCE_MIN, 112}, {TE_OP_SUB, 112},
    {TE_OP_ADD, 128}, {TE_OP_AVERAGE_POOL_2D, 128}, {TE_OP_CONCATENATION, 128},
    {TE_OP_MAX_POOL_2D, 128}, {TE_OP_MIRROR_PAD, 128}, {TE_OP_SVDF, 128},
    {TE_OP_FULLY_CONNECTED, 144}, {TE_OP_MEAN, 144}, {TE_OP_SUM, 144}, {TE_OP_SOFTMAX, 144},
    {TE_OP_CONV_2D, 160}, {TE_OP_DEPTHWISE_CONV_2D, 160}, {TE_OP_SQUARED_DIFFERENCE, 160},
    {TE_OP_STRIDED_SLICE, 160}, {TE_OP_TRANSPOSE_CONV, 160},
    {TE_OP_BATCH_MATMUL, 272},   /* 144..320 with its transposes: the median */
    {TE_OP_ELU, 320},            /* with its 256-entry int8 table */
    {TE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 784},
    /* no single-operator model: fitted on the multi-operator models that
     * have them (relative error, the other rows fixed) */
    {TE_OP_NEG, 48}, {TE_OP_BATCH_TO_SPACE_ND, 64}, {TE_OP_TRANSPOSE, 80},
    {TE_OP_LOG_SOFTMAX, 96}, {TE_OP_SPACE_TO_BATCH_ND, 96}, {TE_OP_SHAPE, 112},
};
#define OP_TAIL_DEFAULT 112    /* an operator kind not calibrated */

/* What is not per operator: allocator and interpreter objects. */
#define TAIL_FIXED 288
/* TfLiteEvalTensor on a 64-bit host: data and dims pointers, type. */
#define EVAL_TENSOR_BYTES 24
/* Per model input/output: its persistent tensor record; quantized, its
 * affine quantization record and zero-point array too. */
#define IO_TENSOR_BYTES 48
#define IO_QUANT_BYTES 48
/* Int16 SOFTMAX: two 513-entry int16 lookup tables (exp, 1/(1+x)). */
#define SOFTMAX_INT16_TABLES (2 * 1040)

static int op_tail_bytes(const te_graph *g, const te_op *op)
{
    int bytes = OP_TAIL_DEFAULT;
    for (size_t i = 0; i < sizeof op_tail / sizeof op_tail[0]; i++)
        if (op_tail[i].opcode == op->opcode)
            bytes = op_tail[i].bytes;
    if (op->opcode == TE_OP_SOFTMAX && op->n_in > 0 && op->in[0] >= 0 &&
        g->tensors[op->in[0]].type == TE_DT_INT16)
        bytes += SOFTMAX_INT16_TABLES;
    return bytes;
}

size_t tflm_tail_estimate(const te_graph *g, const tflm_features *f)
{
    size_t tail = TAIL_FIXED + align16((size_t)f->tensors * EVAL_TENSOR_BYTES);
    for (int i = 0; i < g->n_inputs + g->n_outputs; i++) {
        int t = i < g->n_inputs ? g->inputs[i] : g->outputs[i - g->n_inputs];
        tail += IO_TENSOR_BYTES + (g->tensors[t].q.count > 0 ? IO_QUANT_BYTES : 0);
    }
    for (int i = 0; i < g->n_ops; i++)
        tail += (size_t)op_tail_bytes(g, &g->ops[i]);
    return tail + f->channel_bytes + f->variable_bytes;
}
