/* schedule.h - choosing the execution order for the lowest peak memory. */
#ifndef TE_SCHEDULE_H
#define TE_SCHEDULE_H

#include "../ir/ir.h"

/* Reorders g->ops (live ops first, in the chosen order) when a greedy
 * memory-aware topological order has a lower peak of live bytes than the
 * model's order.  Producers are renumbered; op->index is unchanged. */
void te_schedule_for_memory(te_graph *g);

#endif
