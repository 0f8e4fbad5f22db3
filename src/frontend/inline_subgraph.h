/* inline_subgraph.h - what IF and WHILE inlining share (inline_subgraph.c):
 * copying a called subgraph's operators and tensors into subgraph 0, and
 * the walk that rebuilds subgraph 0's operator list around them. */
#ifndef TE_INLINE_SUBGRAPH_H
#define TE_INLINE_SUBGRAPH_H

#include "../ir/diag.h"
#include "../ir/ir.h"

typedef struct te_inliner {
    te_graph *g;
    te_op *ops;        /* the new operator list */
    int n_ops, cap_ops;
    int next_index;    /* op->index of the next operator made here */
    te_diag *d;
} te_inliner;

/* Appends op (its arrays are shared, not copied); 0 or -1. */
int te_inline_push(te_inliner *in, const te_op *op);

/* A copy of tensor t of a called subgraph in g, named "<prefix>/<name>";
 * its id or -1. */
int te_inline_copy_tensor(te_inliner *in, const te_tensor *t, const char *prefix);

/* Appends copies of subgraph s's operators (the caller, `op`, names it in
 * messages; `inside`: "an IF branch", "a WHILE loop"), each with the guard
 * and loop of `flags`.  map[t] is the g tensor of subgraph tensor t, -1
 * until a copy is made (on first use).  Control flow in s is refused. */
int te_inline_copy_ops(te_inliner *in, const te_op *op, int s, int *map, const char *prefix,
                       const te_op *flags, const char *inside);

/* Rebuilds g's operator list: each op with `opcode` is handed to
 * inline_one, which pushes what replaces it (itself included); the others
 * are pushed as they are.  0, or -1 with d set and g unchanged. */
int te_inline_walk(te_graph *g, int opcode, int (*inline_one)(te_inliner *in, te_op *op),
                   te_diag *d);

#endif
