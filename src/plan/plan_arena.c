/* plan_arena.c - assigns arena offsets to the plan's buffers.
 *
 * Greedy by size: buffers are taken largest first (longer lifetime breaks
 * ties) and each goes to the lowest offset where it overlaps no already
 * placed buffer that is alive at the same time.  Also computes the lifetime
 * lower bound (most bytes alive at one step) that no placement can beat. */
#include <stdlib.h>

#include "plan.h"

/* 1 if buffer x goes before y: larger first, then longer-lived, then by index. */
static int goes_before(const te_buffer *bufs, int x, int y)
{
    const te_buffer *a = &bufs[x], *b = &bufs[y];
    if (a->bytes != b->bytes)
        return a->bytes > b->bytes;
    if (a->last - a->first != b->last - b->first)
        return (a->last - a->first) > (b->last - b->first);
    return x < y;
}

/* Insertion sort (reentrant, stable enough for a few hundred buffers). */
static void sort_order(const te_buffer *bufs, int *order, int n)
{
    int i, j;
    for (i = 1; i < n; i++) {
        int v = order[i];
        for (j = i; j > 0 && goes_before(bufs, v, order[j - 1]); j--)
            order[j] = order[j - 1];
        order[j] = v;
    }
}

static int lifetimes_overlap(const te_buffer *a, const te_buffer *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* Lowest offset >= 0 where `b` fits between the placed conflicting buffers. */
static size_t lowest_fit(const te_plan *p, const int *placed, int n_placed, const te_buffer *b)
{
    size_t offset = 0;
    int moved = 1;
    while (moved) {
        int i;
        moved = 0;
        for (i = 0; i < n_placed; i++) {
            const te_buffer *o = &p->buffers[placed[i]];
            if (!lifetimes_overlap(o, b))
                continue;
            if (offset < o->offset + o->bytes && o->offset < offset + b->bytes) {
                offset = o->offset + o->bytes;
                moved = 1;
            }
        }
    }
    return offset;
}

void te_plan_place(te_plan *p)
{
    int *order = malloc(sizeof(int) * ((size_t)p->n_buffers + 1));
    int *placed = malloc(sizeof(int) * ((size_t)p->n_buffers + 1));
    int i, n_placed = 0, s;
    p->arena_bytes = 0;
    if (!order || !placed) {
        /* fall back to no sharing at all: always correct */
        for (i = 0; i < p->n_buffers; i++) {
            p->buffers[i].offset = p->arena_bytes;
            p->arena_bytes += p->buffers[i].bytes;
        }
        free(order);
        free(placed);
        return;
    }
    for (i = 0; i < p->n_buffers; i++)
        order[i] = i;
    sort_order(p->buffers, order, p->n_buffers);
    for (i = 0; i < p->n_buffers; i++) {
        te_buffer *b = &p->buffers[order[i]];
        if (b->last < b->first)
            continue;
        b->offset = lowest_fit(p, placed, n_placed, b);
        placed[n_placed++] = order[i];
        if (b->offset + b->bytes > p->arena_bytes)
            p->arena_bytes = b->offset + b->bytes;
    }
    p->lower_bound = 0;
    for (s = 0; s < p->n_steps; s++) {
        size_t live = te_plan_live_bytes(p, s);
        if (live > p->lower_bound)
            p->lower_bound = live;
    }
    free(order);
    free(placed);
}
