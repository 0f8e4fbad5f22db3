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

#endif
