/* inline_while.h - WHILE loops inlined into subgraph 0 at load time
 * (inline_while.c). */
#ifndef TE_INLINE_WHILE_H
#define TE_INLINE_WHILE_H

#include "../ir/diag.h"
#include "../ir/ir.h"

/* Rewrites every WHILE of g (its subgraphs in g->subgraphs); 0, or -1 with
 * d set. */
int te_inline_while(te_graph *g, te_diag *d);

#endif
