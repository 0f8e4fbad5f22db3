/* ir.c - names, sizes and freeing of the IR types declared in ir.h. */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>

#include "../plan/patch.h"

void te_graph_free(te_graph *g)
{
    int i;
    if (!g)
        return;
    te_patch_plan_free(g->patch);
    for (i = 0; i < g->n_tensors; i++) {
        free(g->tensors[i].name);
        free(g->tensors[i].q.scale);
        free(g->tensors[i].q.zero_point);
    }
    for (i = 0; i < g->n_ops; i++) {
        free(g->ops[i].in);
        free(g->ops[i].out);
        free(g->ops[i].custom_name);
    }
    free(g->tensors);
    free(g->ops);
    free(g->inputs);
    free(g->outputs);
    free(g->description);
    free(g->model_data);
    free(g);
}

const char *te_dtype_name(te_dtype t)
{
    switch (t) {
    case TE_DT_FLOAT32: return "float32";
    case TE_DT_FLOAT16: return "float16";
    case TE_DT_INT32: return "int32";
    case TE_DT_UINT8: return "uint8";
    case TE_DT_INT64: return "int64";
    case TE_DT_STRING: return "string";
    case TE_DT_BOOL: return "bool";
    case TE_DT_INT16: return "int16";
    case TE_DT_COMPLEX64: return "complex64";
    case TE_DT_INT8: return "int8";
    case TE_DT_FLOAT64: return "float64";
    default: return "unknown";
    }
}

size_t te_dtype_size(te_dtype t)
{
    switch (t) {
    case TE_DT_UINT8: case TE_DT_INT8: case TE_DT_BOOL: return 1;
    case TE_DT_INT16: case TE_DT_FLOAT16: return 2;
    case TE_DT_FLOAT32: case TE_DT_INT32: return 4;
    case TE_DT_INT64: case TE_DT_FLOAT64: case TE_DT_COMPLEX64: return 8;
    default: return 0;
    }
}

const char *te_opcode_name(int opcode)
{
    static const struct { int code; const char *name; } names[] = {
        {0, "ADD"}, {1, "AVERAGE_POOL_2D"}, {2, "CONCATENATION"}, {3, "CONV_2D"},
        {4, "DEPTHWISE_CONV_2D"}, {5, "DEPTH_TO_SPACE"}, {6, "DEQUANTIZE"},
        {7, "EMBEDDING_LOOKUP"}, {8, "FLOOR"}, {9, "FULLY_CONNECTED"},
        {10, "HASHTABLE_LOOKUP"}, {11, "L2_NORMALIZATION"}, {12, "L2_POOL_2D"},
        {13, "LOCAL_RESPONSE_NORMALIZATION"}, {14, "LOGISTIC"}, {15, "LSH_PROJECTION"},
        {16, "LSTM"}, {17, "MAX_POOL_2D"}, {18, "MUL"}, {19, "RELU"},
        {20, "RELU_N1_TO_1"}, {21, "RELU6"}, {22, "RESHAPE"}, {23, "RESIZE_BILINEAR"},
        {24, "RNN"}, {25, "SOFTMAX"}, {26, "SPACE_TO_DEPTH"}, {27, "SVDF"},
        {28, "TANH"}, {32, "CUSTOM"}, {34, "PAD"}, {36, "GATHER"},
        {37, "BATCH_TO_SPACE_ND"}, {38, "SPACE_TO_BATCH_ND"}, {39, "TRANSPOSE"},
        {40, "MEAN"}, {41, "SUB"}, {42, "DIV"}, {43, "SQUEEZE"},
        {44, "UNIDIRECTIONAL_SEQUENCE_LSTM"}, {45, "STRIDED_SLICE"}, {47, "EXP"},
        {49, "SPLIT"}, {50, "LOG_SOFTMAX"}, {53, "CAST"}, {54, "PRELU"},
        {55, "MAXIMUM"}, {56, "ARG_MAX"}, {57, "MINIMUM"}, {60, "PADV2"},
        {65, "SLICE"}, {67, "TRANSPOSE_CONV"}, {70, "EXPAND_DIMS"}, {74, "SUM"},
        {82, "REDUCE_MAX"}, {83, "PACK"}, {88, "UNPACK"},
        {97, "RESIZE_NEAREST_NEIGHBOR"}, {98, "LEAKY_RELU"}, {102, "SPLIT_V"},
        {114, "QUANTIZE"}, {117, "HARD_SWISH"},
    };
    static char buf[32]; /* only for codes we do not name */
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == opcode)
            return names[i].name;
    snprintf(buf, sizeof buf, "BUILTIN_%d", opcode);
    return buf;
}

int64_t te_tensor_elems(const te_tensor *t)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < t->rank; i++)
        n *= t->shape[i];
    return n;
}

size_t te_tensor_bytes(const te_tensor *t)
{
    return (size_t)te_tensor_elems(t) * te_dtype_size(t->type);
}
