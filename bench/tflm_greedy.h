/* tflm_greedy.h - a re-statement of TensorFlow Lite Micro's greedy arena
 * planner (GreedyMemoryPlanner), for estimating the arena TFLM would use.
 *
 * Buffers have a size and an inclusive lifetime [first, last] in TFLM's
 * "allocation scopes".  The planner visits them largest first (equal sizes:
 * the buffer added last first, as TFLM's stable descending sort of a list it
 * fills back to front does) and puts each at the lowest offset where it
 * overlaps no buffer already placed whose lifetime overlaps its own; the
 * arena head is the highest end.  Not TFLM's code: the same rules. */
#ifndef TE_BENCH_TFLM_GREEDY_H
#define TE_BENCH_TFLM_GREEDY_H

#include <stddef.h>

typedef struct {
    size_t size;       /* bytes, already rounded up by the caller */
    int first, last;   /* inclusive lifetime, in allocation scopes */
    size_t offset;     /* out: where the planner puts it */
} tflm_buffer;

/* Places the n buffers (sets .offset) and returns the head size: the
 * highest offset + size, 0 for no buffers.  Returns (size_t)-1 when out of
 * memory. */
size_t tflm_greedy_plan(tflm_buffer *b, int n);

#endif
