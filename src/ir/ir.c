/* ir.c - names, sizes and freeing of the IR types declared in ir.h. */
#include "ir.h"

#include <stdint.h>
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

/* "BUILTIN_0" ... "BUILTIN_259": the names of codes the table below lacks. */
#define TE_STR_(x) #x
#define TE_BUILTIN_(n) "BUILTIN_" TE_STR_(n)
#define TE_BUILTIN10_(p)                                                                        \
    TE_BUILTIN_(p##0), TE_BUILTIN_(p##1), TE_BUILTIN_(p##2), TE_BUILTIN_(p##3),                  \
        TE_BUILTIN_(p##4), TE_BUILTIN_(p##5), TE_BUILTIN_(p##6), TE_BUILTIN_(p##7),              \
        TE_BUILTIN_(p##8), TE_BUILTIN_(p##9)
static const char *const builtin_numbers[] = {
    TE_BUILTIN10_(),   TE_BUILTIN10_(1),  TE_BUILTIN10_(2),  TE_BUILTIN10_(3),  TE_BUILTIN10_(4),
    TE_BUILTIN10_(5),  TE_BUILTIN10_(6),  TE_BUILTIN10_(7),  TE_BUILTIN10_(8),  TE_BUILTIN10_(9),
    TE_BUILTIN10_(10), TE_BUILTIN10_(11), TE_BUILTIN10_(12), TE_BUILTIN10_(13), TE_BUILTIN10_(14),
    TE_BUILTIN10_(15), TE_BUILTIN10_(16), TE_BUILTIN10_(17), TE_BUILTIN10_(18), TE_BUILTIN10_(19),
    TE_BUILTIN10_(20), TE_BUILTIN10_(21), TE_BUILTIN10_(22), TE_BUILTIN10_(23), TE_BUILTIN10_(24),
    TE_BUILTIN10_(25)};

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
        {97, "RESIZE_NEAREST_NEIGHBOR"}, {98, "LEAKY_RELU"}, {100, "MIRROR_PAD"}, {102, "SPLIT_V"},
        {114, "QUANTIZE"}, {117, "HARD_SWISH"},
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == opcode)
            return names[i].name;
    /* constant strings (no static buffer: callable from any thread) */
    if (opcode >= 0 && opcode < (int)(sizeof builtin_numbers / sizeof builtin_numbers[0]))
        return builtin_numbers[opcode];
    return "BUILTIN_UNKNOWN";
}

/* Checked arithmetic: the frontend bounds every tensor below 2^31 elements
 * and bytes, but these also serve tensors made by passes, so a product
 * that would overflow saturates (INT64_MAX, SIZE_MAX) instead. */
int64_t te_tensor_elems(const te_tensor *t)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < t->rank; i++) {
        int64_t d = t->shape[i] > 0 ? t->shape[i] : 0;
        if (d == 0)
            return 0;
        if (n > INT64_MAX / d)
            n = INT64_MAX;
        else
            n *= d;
    }
    return n;
}

size_t te_tensor_bytes(const te_tensor *t)
{
    int64_t n = te_tensor_elems(t);
    size_t size = te_dtype_size(t->type);
    if (size && (uint64_t)n > (uint64_t)(SIZE_MAX / size))
        return SIZE_MAX;
    return (size_t)n * size;
}

void te_tensor_unalias(te_tensor *t)
{
    t->alias_of = -1;
    t->alias_offset = 0;
    t->inplace = 0;
    t->slice = 0;
    t->slice_pitch = 0;
}

int te_tensor_root(const te_graph *g, int t, size_t *offset)
{
    size_t off = 0;
    int guard = 0;
    while (g->tensors[t].alias_of >= 0 && guard++ < g->n_tensors) {
        off += g->tensors[t].alias_offset;
        t = g->tensors[t].alias_of;
    }
    if (offset)
        *offset = off;
    return t;
}
