/* patch_memo.h - the analyses of one patch search, kept: `--patch auto`
 * asks for the same stage over the same grid many times (the first pass,
 * the thrift rule, the re-search of the first stage under each second
 * stage), and each analysis walks every patch.  One memo serves one graph
 * and one lowering (the search's; both only read) and is freed with the
 * search. */
#ifndef TE_PATCH_MEMO_H
#define TE_PATCH_MEMO_H

#include "patch.h"

typedef struct te_patch_memo te_patch_memo;

te_patch_memo *te_patch_memo_new(void);
void te_patch_memo_free(te_patch_memo *m);

/* te_patch_analyse_cache(g, first, n_ops, grid_h, grid_w, cache, NULL),
 * from m when asked before (m NULL: analysed every time): a plan of the
 * caller's own (te_patch_plan_free), or NULL where the analysis fails.  g
 * must be the graph of every earlier call on m. */
te_patch_plan *te_patch_memo_analyse(te_patch_memo *m, const te_graph *g, int first, int n_ops,
                                     int grid_h, int grid_w, int cache);

/* te_patch_estimate(g, low, p), from m when a chain with the same fields
 * was estimated before (m NULL: every time); low must be the one of every
 * earlier call on m. */
int te_patch_memo_estimate(te_patch_memo *m, const te_graph *g, const struct te_lowered *low,
                           te_patch_plan *p);

#endif
