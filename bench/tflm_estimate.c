/* tflm_estimate.c - TensorFlow Lite Micro's arena for a model: the buffers
 * and lifetimes TFLM's allocator gives the planner, planned, plus the tail
 * estimate (tflm_estimate.h). */
#include "tflm_estimate.h"

#include <stdlib.h>
#include <string.h>

#include "tflm_greedy.h"

#define TFLM_BUFFER_ALIGN 16   /* MicroArenaBufferAlignment() */
#define UNSET_SCOPE (-1)

static size_t align_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* Why TFLM's plan cannot be restated from subgraph 0 alone, or NULL. */
static const char *unsupported_reason(const te_graph *g)
{
    if (g->n_subgraphs > 0)
        return "the model has subgraphs (CALL_ONCE, IF, WHILE)";
    for (int i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        if (op->guard || op->loop || op->opcode == TE_OP_IF || op->opcode == TE_OP_WHILE ||
            op->opcode == TE_OP_CALL_ONCE)
            return "the model has control flow (IF, WHILE, CALL_ONCE)";
    }
    for (int t = 0; t < g->n_tensors; t++)
        if (g->tensors[t].is_resource)
            return "the model has resource variables";
    return NULL;
}

/* TFLM plans a tensor when it has no constant data, is not a variable
 * and has bytes. */
static int planned(const te_tensor *t)
{
    size_t bytes = te_tensor_bytes(t);
    return !t->data && !t->is_variable && bytes != 0 && bytes != (size_t)-1;
}

typedef struct {
    int first, last;
} scope_range;

static void mark_created(scope_range *r, int scope)
{
    r->first = scope;
    r->last = scope;
}

/* Allocation scopes as TFLM's AllocationInfoBuilder marks them for one
 * subgraph: inputs and outputs at scope 0, operator i at scope i + 1
 * (first write: created; every read or write: last use), outputs to the
 * last scope. */
static void mark_lifetimes(const te_graph *g, scope_range *r)
{
    for (int t = 0; t < g->n_tensors; t++)
        r[t].first = r[t].last = UNSET_SCOPE;
    for (int i = 0; i < g->n_inputs; i++)
        mark_created(&r[g->inputs[i]], 0);
    for (int i = 0; i < g->n_outputs; i++)
        mark_created(&r[g->outputs[i]], 0);
    for (int i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        int scope = i + 1;
        for (int k = 0; k < op->n_out; k++)
            if (op->out[k] >= 0)
                mark_created(&r[op->out[k]], scope);
        for (int k = 0; k < op->n_in; k++)
            if (op->in[k] >= 0)
                r[op->in[k]].last = scope;
    }
    for (int i = 0; i < g->n_outputs; i++)
        r[g->outputs[i]].last = g->n_ops;
}

int tflm_estimate_arena(const te_graph *g, tflm_estimate *e)
{
    scope_range *r;
    tflm_buffer *b;
    int n = 0;
    memset(e, 0, sizeof *e);
    tflm_features_of(g, &e->f);
    e->reason = unsupported_reason(g);
    if (e->reason)
        return 0;
    r = malloc((size_t)(g->n_tensors ? g->n_tensors : 1) * sizeof *r);
    b = malloc((size_t)(g->n_tensors + 4 * g->n_ops + 1) * sizeof *b);
    if (!r || !b) {
        free(r);
        free(b);
        return -1;
    }
    mark_lifetimes(g, r);
    /* tensors first, in table order, then scratch buffers in operator
     * order: the order TFLM adds them (it breaks size ties) */
    for (int t = 0; t < g->n_tensors; t++) {
        if (!planned(&g->tensors[t]))
            continue;
        b[n].size = align_up(te_tensor_bytes(&g->tensors[t]), TFLM_BUFFER_ALIGN);
        b[n].first = r[t].first;
        b[n].last = r[t].last;
        n++;
    }
    for (int i = 0; i < g->n_ops; i++) {
        size_t req[4];
        int k = tflm_scratch_requests(g, &g->ops[i], req);
        for (int j = 0; j < k; j++) {
            if (!req[j])
                continue;
            e->scratch_bytes += req[j];
            e->n_scratch++;
            b[n].size = align_up(req[j], TFLM_BUFFER_ALIGN);
            b[n].first = b[n].last = i + 1;
            n++;
        }
    }
    e->n_buffers = n;
    e->head = tflm_greedy_plan(b, n);
    free(r);
    free(b);
    if (e->head == (size_t)-1)
        return -1;
    e->head = align_up(e->head, TFLM_BUFFER_ALIGN);
    e->tail = tflm_tail_estimate(g, &e->f);
    e->estimated = 1;
    return 0;
}
