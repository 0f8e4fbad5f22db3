/* schedule_internal.h - what schedule.c and schedule_beam.c share. */
#ifndef TE_SCHEDULE_INTERNAL_H
#define TE_SCHEDULE_INTERNAL_H

#include <stddef.h>

#include "../ir/ir.h"

/* Bytes tensor t takes in the arena (0: constant or a view). */
size_t te_schedule_stored_bytes(const te_graph *g, int t);

/* Beam search (schedule_beam.c) over the orders of the n live ops `ops`
 * (positions in g->ops, a valid order) keeping `width` partial orders per
 * length, ranked by peak then live bytes (mode 0) or live bytes then peak
 * (mode 1).  Writes the positions in `order`; 0, or -1 (out of memory, or
 * not a DAG in op order). */
int te_schedule_beam(const te_graph *g, const int *ops, int n, int width, int mode, int *order);

#endif
