/* plan.h - the static memory plan: where every activation tensor and every
 * operator's scratch buffer lives in the one arena, decided at compile time
 * from lifetimes.
 *
 * A "buffer" is a piece of storage with a lifetime [first, last] in
 * schedule steps: a non-constant tensor (aliased tensors share their root's
 * buffer), or the scratch of one operator.  Two buffers whose lifetimes
 * overlap never overlap in the arena. */
#ifndef TE_PLAN_H
#define TE_PLAN_H

#include <stddef.h>

#include "../ir/diag.h"
#include "../ir/ir.h"
#include "../ops/lowering.h"

#define TE_ARENA_ALIGN 16

typedef struct {
    size_t bytes;
    int first, last;       /* schedule steps, inclusive */
    size_t offset;         /* placed arena offset */
    int tensor;            /* root tensor id, or -1 for scratch */
    int op;                /* op index for scratch, else -1 */
} te_buffer;

/* Where one tensor lives in a plan. */
typedef struct {
    int in_arena;          /* 1: stored in the arena, at arena_offset */
    size_t arena_offset;   /* byte offset in the arena (aliases: their root's
                            * offset + their offset in it) */
    int in_state;          /* 1: a variable tensor (or a view of one) kept in the
                            * persistent state region, not the arena */
    size_t state_offset;   /* byte offset in the state region (if in_state) */
} te_tensor_place;

struct te_plan {
    int *schedule;         /* op indices in execution order (dead ops left out) */
    int n_steps;
    te_buffer *buffers;
    int n_buffers;
    int *tensor_buffer;    /* tensor id -> buffer index, -1 for constants/unused */
    int *op_scratch;       /* op index -> buffer index, -1 if no scratch */
    int quick;             /* placement without the local search */
    int patch_scratch;     /* buffer index of the patch stage's working memory, or -1 */
    size_t arena_bytes;    /* total, including scratch */
    size_t state_bytes;    /* persistent state: the variable tensors (LSTM and
                            * SVDF state), live across invokes, outside the arena */
    size_t lower_bound;    /* max over steps of bytes live (no placement waste) */
    size_t bound_no_inplace; /* the same if no operator ran in place: the
                              * lifetime lower bound of plain layer-by-layer
                              * execution (zero-copy reshapes still shared) */
    const te_lowered *low; /* the operators' lowering it was planned with
                            * (scratch bytes; not owned) */
    const te_storage *st;  /* the storage decisions it was planned with:
                            * low->opts.st (not owned), or own_st */
    te_storage *own_st;    /* the graph's views alone, when low gave none */
    te_tensor_place *place; /* by tensor id: where each tensor lives */
    const struct te_patch_plan *stage; /* the patch stage it runs patch by patch:
                                        * g->patch, a trial stage of the patch
                                        * search, or NULL */
    unsigned char *patch_role; /* by tensor id: te_tensor.patch_role in that
                                * stage (0 ordinary, 1 stage intermediate,
                                * 2 region tensor) */
};
typedef struct te_plan te_plan;

/* Builds the schedule, the lifetimes and the placement of g as lowered by
 * low (te_lower_graph with a candidate's storage decisions, low->opts.st,
 * which the plan follows; both must outlive the plan; NULL: no operator
 * needs scratch, the graph's views are the only links).  The graph is only
 * read: where each tensor lives is te_plan.place.  Returns NULL with d set
 * on failure. */
te_plan *te_plan_build(const te_graph *g, const te_lowered *low, te_diag *d);
/* The same with only the quick placement heuristics (for searches). */
te_plan *te_plan_build_quick(const te_graph *g, const te_lowered *low, te_diag *d);
/* The quick plan of g if its first stage->n_ops live operators ran patch by
 * patch as `stage` (not materialized: g has no patch stage), for the patch
 * search.  low's storage must give the stage's outputs storage of their own. */
struct te_patch_plan;
te_plan *te_plan_build_trial(const te_graph *g, const te_lowered *low,
                             const struct te_patch_plan *stage, te_diag *d);
void te_plan_free(te_plan *p);

/* Assigns offsets to p->buffers (lifetimes in steps 0..n_steps-1) and sets
 * p->arena_bytes and p->lower_bound.  Used for the arena and for the
 * working memory of one patch. */
void te_plan_place(te_plan *p);

/* Arena offset of op's scratch (only valid when it has one). */
size_t te_plan_scratch_offset(const te_plan *p, int op);

/* Bytes live at one schedule step (sum of buffers whose lifetime covers it). */
size_t te_plan_live_bytes(const te_plan *p, int step);

#endif
