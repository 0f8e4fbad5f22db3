/* tflm_scratch.c - the scratch buffers TensorFlow Lite Micro's reference
 * kernels request in the arena (RequestScratchBufferInArena) in Prepare,
 * by operator: planned in the head, alive during their operator only.
 * Facts from TFLM's kernels (transpose_conv.cc, reduce_common.cc, svdf*.cc,
 * unidirectional_sequence_lstm.cc); kernels not listed request none. */
#include "tflm_estimate.h"

static const te_tensor *tensor_at(const te_graph *g, const te_op *op, int i, int output)
{
    int n = output ? op->n_out : op->n_in;
    int id = i < n ? (output ? op->out[i] : op->in[i]) : -1;
    return id >= 0 && id < g->n_tensors ? &g->tensors[id] : NULL;
}

static size_t elems(const te_tensor *t)
{
    int64_t n = t ? te_tensor_elems(t) : 0;
    return n > 0 ? (size_t)n : 0;
}

static int quantized_io(const te_tensor *t)
{
    return t && (t->type == TE_DT_INT8 || t->type == TE_DT_INT16 || t->type == TE_DT_UINT8);
}

/* One operator's requests, into req[] (at most 4); returns their count. */
static int requests(const te_graph *g, const te_op *op, size_t req[4])
{
    const te_tensor *in0 = tensor_at(g, op, 0, 0), *out0 = tensor_at(g, op, 0, 1);
    switch (op->opcode) {
    case TE_OP_TRANSPOSE_CONV: {
        /* an int32 (int8 input) or int64 (int16 input) accumulator per
         * output element; the input is input 2 */
        const te_tensor *x = tensor_at(g, op, 2, 0);
        if (x && x->type == TE_DT_INT8)
            return req[0] = elems(out0) * 4, 1;
        if (x && x->type == TE_DT_INT16)
            return req[0] = elems(out0) * 8, 1;
        return 0;
    }
    case TE_OP_MEAN:
    case TE_OP_SUM:
        /* quantized: an int32 sum per output element */
        if (quantized_io(in0))
            return req[0] = elems(out0) * 4, 1;
        return 0;
    case TE_OP_REDUCE_MAX:
    case TE_OP_REDUCE_MIN: {
        /* an int per input dimension and per axis entry */
        const te_tensor *axis = tensor_at(g, op, 1, 0);
        req[0] = (size_t)(in0 ? in0->rank : 0) * 4;
        req[1] = elems(axis) * 4;
        return 2;
    }
    case TE_OP_SVDF: {
        /* int32 per (batch, filter); quantized also per (batch, unit) */
        const te_tensor *wf = tensor_at(g, op, 1, 0);
        size_t batch = in0 && in0->rank > 0 && in0->shape[0] > 0 ? (size_t)in0->shape[0] : 1;
        size_t filters = wf && wf->rank > 0 && wf->shape[0] > 0 ? (size_t)wf->shape[0] : 0;
        int rank = op->opt.svdf_rank > 0 ? op->opt.svdf_rank : 1;
        req[0] = batch * filters * 4;
        if (!quantized_io(in0))
            return 1;
        req[1] = batch * (filters / (size_t)rank) * 4;
        return 2;
    }
    case TE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: {
        /* four buffers the size of the cell state (input 19) */
        const te_tensor *cell = tensor_at(g, op, 19, 0);
        size_t bytes = cell ? te_tensor_bytes(cell) : 0;
        for (int i = 0; i < 4; i++)
            req[i] = bytes;
        return 4;
    }
    default:
        return 0;
    }
}

int tflm_scratch_requests(const te_graph *g, const te_op *op, size_t req[4])
{
    return requests(g, op, req);
}
