/* tflm_greedy.c - TensorFlow Lite Micro's greedy arena placement, restated
 * from its documented behaviour (see tflm_greedy.h). */
#include "tflm_greedy.h"

#include <stdlib.h>

static int lifetimes_overlap(const tflm_buffer *a, const tflm_buffer *b)
{
    return !(a->first > b->last || b->first > a->last);
}

/* The visiting order: by size, largest first; on equal sizes the buffer
 * added later comes first. */
static int *visit_order(const tflm_buffer *b, int n)
{
    int *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (int i = 0; i < n; i++)
        order[i] = n - 1 - i;
    /* insertion sort, stable, descending size (n is a few hundred at most) */
    for (int i = 1; i < n; i++) {
        int id = order[i], j = i;
        while (j > 0 && b[order[j - 1]].size < b[id].size) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = id;
    }
    return order;
}

size_t tflm_greedy_plan(tflm_buffer *b, int n)
{
    int *order = visit_order(b, n);
    /* placed buffers, ascending offset; equal offsets in placement order */
    int *placed = malloc((size_t)(n ? n : 1) * sizeof *placed);
    int n_placed = 0;
    size_t head = 0;
    if (!order || !placed) {
        free(order);
        free(placed);
        return (size_t)-1;
    }
    for (int k = 0; k < n; k++) {
        tflm_buffer *want = &b[order[k]];
        size_t at = 0;
        int pos;
        /* walk the live neighbours in offset order; stop at the first gap
         * in front of one of them that holds the buffer */
        for (int p = 0; p < n_placed; p++) {
            const tflm_buffer *other = &b[placed[p]];
            if (!lifetimes_overlap(want, other))
                continue;
            if (other->offset >= at && other->offset - at >= want->size)
                break;
            if (other->offset + other->size > at)
                at = other->offset + other->size;
        }
        want->offset = at;
        pos = n_placed;
        while (pos > 0 && b[placed[pos - 1]].offset > at)
            pos--;
        for (int p = n_placed; p > pos; p--)
            placed[p] = placed[p - 1];
        placed[pos] = order[k];
        n_placed++;
        if (at + want->size > head)
            head = at + want->size;
    }
    free(order);
    free(placed);
    return head;
}
