/* schedule.h - choosing the execution order for the lowest peak memory. */
#ifndef TE_SCHEDULE_H
#define TE_SCHEDULE_H

#include "../ir/ir.h"

/* Reorders g->ops (live ops first, in the chosen order) when a greedy
 * memory-aware topological order has a lower peak of live bytes than the
 * model's order.  Producers are renumbered; op->index is unchanged. */
void te_schedule_for_memory(te_graph *g);

/* For patch-based execution: moves the operators that cannot run on a
 * patch, and those that depend on them, after all others, so the longest
 * stage the model allows is a prefix of the order (an early side branch
 * ending in a RESHAPE or a FULLY_CONNECTED no longer cuts it short).  The
 * peak of layer-by-layer execution may rise: the compiler keeps this order
 * only when the patched arena is lower.  Same renumbering; returns 1 when
 * it reordered, which it does only when that lengthens the prefix of
 * operators that can run on a patch. */
int te_schedule_for_patches(te_graph *g);

/* Candidate orders for the compiler to plan (it keeps the one whose
 * planned arena is the smallest) of the live ops at or after position
 * `from` (0: all; else those before, a patch stage, are done first): the
 * graph's current order first, then, unless the graph keeps the model's
 * order (keep_order), the model's order, the greedy one and two beam
 * searches (schedule_beam.c), each once.  Orders of the n live ops, as
 * their model indices (op->index). */
#define TE_SCHEDULE_MAX_ORDERS 5
#define TE_SCHEDULE_BEAM_WIDTH 16
typedef struct {
    int n;        /* live ops in each order */
    int n_orders; /* at least 1 unless out of memory */
    int *index[TE_SCHEDULE_MAX_ORDERS];
} te_schedule_orders;

/* 0, or -1 when out of memory (c then empty). */
int te_schedule_candidates(const te_graph *g, int from, te_schedule_orders *c);
void te_schedule_orders_free(te_schedule_orders *c);

/* Puts the live ops in the order of model indices `index` (n of them, as
 * te_schedule_candidates gives them), renumbering producers; 0 or -1. */
int te_schedule_apply(te_graph *g, const int *index, int n);

/* The same for the n live ops at or after position `keep` only (those
 * before stay: a patch stage; te_schedule_candidates from `keep`); 1 when
 * that moved an op, 0 when they are in that order already, -1 (out of
 * memory, or not the same ops). */
int te_schedule_apply_tail(te_graph *g, int keep, const int *index, int n);

/* Peak of live bytes (a tensor from its producer, or the start when made
 * before position `from`, to its last reader; graph outputs to the end)
 * of the live ops from `from` in the order `index` (n); (size_t)-1 when
 * `index` does not name them. */
size_t te_schedule_peak(const te_graph *g, int from, const int *index, int n);

/* A copy of g's order (NULL: out of memory), and putting it back (frees
 * it), renumbering producers. */
te_op *te_schedule_save(const te_graph *g);
void te_schedule_restore(te_graph *g, te_op *saved);

#endif
