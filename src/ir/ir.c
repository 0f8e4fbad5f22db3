/* ir.c - names, sizes and freeing of the IR types declared in ir.h. */
#include "ir.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plan/patch.h"

void te_graph_free(te_graph *g)
{
    int i;
    if (!g)
        return;
    te_patch_plan_free(g->patch);
    if (g->base) { /* derived: its blocks (its tensors' names...), and the array */
        for (i = 0; i < g->n_owned; i++)
            free(g->owned[i]);
        free(g->owned);
        free(g->tensors);
        free(g);
        return;
    }
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
    for (i = 0; i < g->n_owned; i++)
        free(g->owned[i]);
    free(g->owned);
    for (i = 0; i < g->n_subgraphs; i++)
        te_graph_free(g->subgraphs[i]);
    free(g->subgraphs);
    free(g->model_data);
    free(g);
}

void *te_graph_adopt(te_graph *g, void *p)
{
    void **grown;
    if (!p)
        return NULL;
    if (g->base) {
        free(p);
        return NULL;
    }
    grown = realloc(g->owned, (size_t)(g->n_owned + 1) * sizeof *grown);
    if (!grown) {
        free(p);
        return NULL;
    }
    g->owned = grown;
    g->owned[g->n_owned++] = p;
    return p;
}

/* Bytes of a derived graph's blocks (te_graph_alloc): a search builds
 * thousands of derived graphs, each with thousands of region tensors. */
#define TE_GRAPH_BLOCK (64 * 1024)

void *te_graph_alloc(te_graph *g, size_t bytes)
{
    void *p;
    bytes = (bytes + 15) & ~(size_t)15;
    if (bytes > g->block_left) {
        size_t n = bytes > TE_GRAPH_BLOCK ? bytes : TE_GRAPH_BLOCK;
        char *block = malloc(n);
        void **grown = block ? realloc(g->owned, (size_t)(g->n_owned + 1) * sizeof *grown) : NULL;
        if (!grown) {
            free(block);
            return NULL;
        }
        g->owned = grown;
        g->owned[g->n_owned++] = block;
        g->block_at = block;
        g->block_left = n;
    }
    p = g->block_at;
    g->block_at += bytes;
    g->block_left -= bytes;
    return p;
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
    case TE_DT_RESOURCE: return "resource";
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

/* Every BuiltinOperator's name, indexed by its code. */
static const char *const builtin_names[] = {
#define TE_BUILTIN(name, code) [code] = #name,
#include "tflite_schema.def"
#undef TE_BUILTIN
};

/* The custom operators' custom_code names, from TE_CUSTOM_BASE on. */
static const char *const custom_names[] = {
#define TE_CUSTOM(name, custom_code) custom_code,
#include "tflite_schema.def"
#undef TE_CUSTOM
};

int te_custom_opcode(const char *custom_code)
{
    int k;
    for (k = 0; custom_code && k < TE_CUSTOM_COUNT; k++)
        if (strcmp(custom_names[k], custom_code) == 0)
            return TE_CUSTOM_BASE + k;
    return -1;
}

/* "BUILTIN_<n>" for codes past the table, up to BUILTIN_259 (constant
 * strings: no static buffer, callable from any thread). */
#define TE_STR_(x) #x
#define TE_BUILTIN_(n) "BUILTIN_" TE_STR_(n)
#define TE_BUILTIN10_(p)                                                                        \
    TE_BUILTIN_(p##0), TE_BUILTIN_(p##1), TE_BUILTIN_(p##2), TE_BUILTIN_(p##3),                  \
        TE_BUILTIN_(p##4), TE_BUILTIN_(p##5), TE_BUILTIN_(p##6), TE_BUILTIN_(p##7),              \
        TE_BUILTIN_(p##8), TE_BUILTIN_(p##9)
static const char *const builtin_numbers[] = {
    TE_BUILTIN10_(21), TE_BUILTIN10_(22), TE_BUILTIN10_(23), TE_BUILTIN10_(24),
    TE_BUILTIN10_(25)};
#define TE_NUMBERS_FROM 210
/* the numbered names start right after the table: move TE_NUMBERS_FROM (and
 * drop the lines above it) when the table grows */
typedef char te_numbers_follow_the_table_[TE_BUILTIN_COUNT == TE_NUMBERS_FROM ? 1 : -1];

const char *te_opcode_name(int opcode)
{
    if (opcode >= 0 && opcode < TE_BUILTIN_COUNT)
        return builtin_names[opcode];
    if (opcode >= TE_NUMBERS_FROM &&
        opcode - TE_NUMBERS_FROM < (int)(sizeof builtin_numbers / sizeof builtin_numbers[0]))
        return builtin_numbers[opcode - TE_NUMBERS_FROM];
    if (opcode >= TE_CUSTOM_BASE && opcode - TE_CUSTOM_BASE < TE_CUSTOM_COUNT)
        return custom_names[opcode - TE_CUSTOM_BASE];
    return "BUILTIN_UNKNOWN";
}

/* Checked arithmetic: the frontend bounds every tensor below 2^31 elements
 * and bytes, but these also serve tensors made by passes, so a product
 * that would overflow saturates (INT64_MAX, SIZE_MAX) instead. */
/* 1 if t is among the n tensor ids of list. */
static int in_list(const int *list, int n, int t)
{
    int i;
    for (i = 0; i < n; i++)
        if (list[i] == t)
            return 1;
    return 0;
}

int te_graph_is_input(const te_graph *g, int t) { return in_list(g->inputs, g->n_inputs, t); }

int te_graph_is_output(const te_graph *g, int t) { return in_list(g->outputs, g->n_outputs, t); }

int te_graph_sole_reader(const te_graph *g, int t, int *input)
{
    int i, j, reader = -1;
    if (te_graph_is_output(g, t))
        return -1;
    for (i = 0; i < g->n_ops; i++) {
        if (g->ops[i].dead)
            continue;
        for (j = 0; j < g->ops[i].n_in; j++) {
            if (g->ops[i].in[j] != t)
                continue;
            if (reader >= 0)
                return -1;
            reader = i;
            *input = j;
        }
    }
    return reader;
}

int te_tensor_same_shape(const te_tensor *a, const te_tensor *b)
{
    int i;
    if (a->rank != b->rank)
        return 0;
    for (i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i])
            return 0;
    return 1;
}

int64_t te_tensor_elems(const te_tensor *t)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < t->rank; i++) {
        int64_t d = t->shape[i] > 0 ? t->shape[i] : 0;
        if (d == 0)
            return 0;
        if (n < ((int64_t)1 << 31) && d < ((int64_t)1 << 31))
            n *= d; /* no overflow: skips the division */
        else if (n > INT64_MAX / d)
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
}
