/* inline_if.h - IF branches inlined into subgraph 0 as guarded operators
 * at load time (inline_if.c). */
#ifndef TE_INLINE_IF_H
#define TE_INLINE_IF_H

#include "../ir/diag.h"
#include "../ir/ir.h"

/* Rewrites every IF of g (its branches in g->subgraphs); 0, or -1 with d set. */
int te_inline_if(te_graph *g, te_diag *d);

#endif
