/* plan_view.c - derives the drawable view of a memory plan (see
 * plan_view.h): live bytes per step, the peak, and per-tensor segments of
 * the plan's buffers with their kind. */
#include "plan_view.h"

#include <stdlib.h>

static void widen(int *first, int *last, int t, int step)
{
    if (t < 0)
        return;
    if (step < first[t])
        first[t] = step;
    if (step > last[t])
        last[t] = step;
}

/* Each tensor's own lifetime in steps (first > last when never used). */
static void tensor_lifetimes(const te_graph *g, const te_plan *p, int *first, int *last)
{
    int t, s, i, end = p->n_steps > 0 ? p->n_steps - 1 : 0;
    for (t = 0; t < g->n_tensors; t++) {
        first[t] = 1 << 30;
        last[t] = -1;
    }
    for (i = 0; i < g->n_inputs; i++)
        widen(first, last, g->inputs[i], 0);
    for (s = 0; s < p->n_steps; s++) {
        const te_op *op = &g->ops[p->schedule[s]];
        for (i = 0; i < op->n_in; i++)
            widen(first, last, op->in[i], s);
        for (i = 0; i < op->n_out; i++)
            widen(first, last, op->out[i], s);
    }
    for (i = 0; i < g->n_outputs; i++)
        widen(first, last, g->outputs[i], end);
}

static te_seg_kind tensor_kind(const te_graph *g, const te_storage *st, int t)
{
    if (te_graph_is_input(g, t))
        return TE_SEG_INPUT;
    if (te_graph_is_output(g, t))
        return TE_SEG_OUTPUT;
    if (te_storage_inplace(st, t))
        return TE_SEG_INPLACE;
    return TE_SEG_ACTIVATION;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* Adds tensor t's part of buffer b, clipped to the buffer's lifetime. */
static void add_tensor_seg(te_plan_view *v, int b, int t, int first, int last)
{
    const te_buffer *buf = &v->p->buffers[b];
    const te_tensor *tt = &v->g->tensors[t];
    te_segment *sg = &v->segs[v->n_segs];
    size_t end = buf->offset + buf->bytes, want;
    sg->kind = tensor_kind(v->g, v->p->st, t);
    sg->buffer = b;
    sg->tensor = t;
    sg->op = -1;
    sg->first = first < buf->first ? buf->first : first;
    sg->last = last > buf->last ? buf->last : last;
    sg->from_mid = te_storage_inplace(v->p->st, t);
    sg->offset = v->p->place[t].in_arena ? v->p->place[t].arena_offset : buf->offset;
    if (sg->offset >= end || sg->first > sg->last)
        return;
    want = te_storage_alias_of(v->p->st, t) < 0 ? buf->bytes : align16(te_tensor_bytes(tt));
    sg->bytes = want < end - sg->offset ? want : end - sg->offset;
    v->n_segs++;
}

/* The whole buffer as one segment (scratch, or no tensor claimed it). */
static void add_buffer_seg(te_plan_view *v, int b)
{
    const te_buffer *buf = &v->p->buffers[b];
    te_segment *sg = &v->segs[v->n_segs++];
    sg->kind = buf->tensor < 0 ? TE_SEG_SCRATCH : tensor_kind(v->g, v->p->st, buf->tensor);
    sg->buffer = b;
    sg->tensor = buf->tensor;
    sg->op = buf->tensor < 0 ? buf->op : -1;
    sg->first = buf->first;
    sg->last = buf->last;
    sg->from_mid = 0;
    sg->offset = buf->offset;
    sg->bytes = buf->bytes;
}

static void build_segments(te_plan_view *v, const int *first, const int *last, int *claimed)
{
    const te_graph *g = v->g;
    const te_plan *p = v->p;
    int t, b;
    for (t = 0; t < g->n_tensors; t++) {
        if (g->tensors[t].data)
            continue;
        b = p->tensor_buffer[te_storage_root(p->st, t, NULL)];
        if (b < 0 || p->buffers[b].last < p->buffers[b].first || first[t] > last[t])
            continue;
        add_tensor_seg(v, b, t, first[t], last[t]);
        claimed[b] = 1;
    }
    for (b = 0; b < p->n_buffers; b++)
        if (!claimed[b] && p->buffers[b].first <= p->buffers[b].last)
            add_buffer_seg(v, b);
}

/* A buffer may live longer than its tensors' own uses (graph inputs and
 * outputs, a patch stage): stretch its earliest and latest segments so the
 * picture covers exactly the buffer's lifetime. */
static void cover_buffer_lifetimes(te_plan_view *v)
{
    int b, i;
    for (b = 0; b < v->p->n_buffers; b++) {
        te_segment *lo = NULL, *hi = NULL;
        for (i = 0; i < v->n_segs; i++) {
            te_segment *sg = &v->segs[i];
            if (sg->buffer != b)
                continue;
            if (!lo || sg->first < lo->first)
                lo = sg;
            if (!hi || sg->last > hi->last)
                hi = sg;
        }
        if (lo && lo->first > v->p->buffers[b].first) {
            lo->first = v->p->buffers[b].first;
            lo->from_mid = 0;
        }
        if (hi)
            hi->last = v->p->buffers[b].last;
    }
}

static void find_peak(te_plan_view *v)
{
    int s;
    v->peak_step = -1;
    v->peak_bytes = 0;
    for (s = 0; s < v->p->n_steps; s++) {
        v->live[s] = te_plan_live_bytes(v->p, s);
        if (v->peak_step < 0 || v->live[s] > v->peak_bytes) {
            v->peak_step = s;
            v->peak_bytes = v->live[s];
        }
    }
}

int te_plan_view_build(te_plan_view *v, const te_graph *g, const te_plan *p)
{
    size_t nt = (size_t)g->n_tensors + 1;
    int *first = malloc(sizeof(int) * nt), *last = malloc(sizeof(int) * nt);
    int *claimed = calloc((size_t)p->n_buffers + 1, sizeof(int));
    v->g = g;
    v->p = p;
    v->live = calloc((size_t)p->n_steps + 1, sizeof *v->live);
    v->segs = calloc(nt + (size_t)p->n_buffers, sizeof *v->segs);
    v->n_segs = 0;
    v->state_bytes = p->state_bytes;
    v->stack = te_stack_bound_plan(g, p);
    if (!first || !last || !claimed || !v->live || !v->segs) {
        free(first);
        free(last);
        free(claimed);
        te_plan_view_free(v);
        return -1;
    }
    find_peak(v);
    tensor_lifetimes(g, p, first, last);
    build_segments(v, first, last, claimed);
    cover_buffer_lifetimes(v);
    free(first);
    free(last);
    free(claimed);
    return 0;
}

void te_plan_view_free(te_plan_view *v)
{
    free(v->live);
    free(v->segs);
    v->live = NULL;
    v->segs = NULL;
    v->n_segs = 0;
}

const char *te_seg_kind_name(te_seg_kind k)
{
    static const char *names[TE_SEG_N_KINDS] = {"activation", "inplace", "scratch", "input",
                                                "output"};
    return (unsigned)k < TE_SEG_N_KINDS ? names[k] : "?";
}

const char *te_plan_view_step_type(const te_plan_view *v, int s)
{
    return te_opcode_name(v->g->ops[v->p->schedule[s]].opcode);
}
