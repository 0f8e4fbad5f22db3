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
    int region;            /* memory region (index in te_plan.regions; 0 without
                            * --memory-region); offset is within the whole
                            * address space, region base included */
    int shrink_after;      /* -1, or the last step the buffer takes all its bytes:
                            * an operator wrote a smaller output over its input
                            * there, and from the next step only the first
                            * shrunk_bytes are in use (plan_lifetime.c) */
    size_t shrunk_bytes;
} te_buffer;

/* Bytes buffer b takes from `step` on (to its last step): all of them, or
 * shrunk_bytes once past shrink_after. */
static inline size_t te_buffer_bytes_from(const te_buffer *b, int step)
{
    return b->shrink_after >= 0 && step > b->shrink_after ? b->shrunk_bytes : b->bytes;
}

/* Bytes a takes while it lives together with b (both live, checked by the
 * caller): its size at the first step they share. */
static inline size_t te_buffer_bytes_beside(const te_buffer *a, const te_buffer *b)
{
    return te_buffer_bytes_from(a, a->first > b->first ? a->first : b->first);
}

/* --memory-region NAME=BYTES, in the order given: the hottest buffers go in
 * the first region (src/plan/plan_regions.c). */
#define TE_MAX_REGIONS 8
#define TE_REGION_NAME_MAX 24
typedef struct {
    char name[TE_REGION_NAME_MAX]; /* a C identifier, unique ignoring case */
    size_t limit;                  /* bytes it has */
} te_region_spec;
typedef struct {
    int n;                         /* 0: one arena (the default) */
    te_region_spec r[TE_MAX_REGIONS];
} te_regions;

/* One region of a plan: its buffers lie in [base, base + bytes). */
typedef struct {
    te_region_spec spec;
    size_t base;           /* offset of its first byte in the plan's offsets */
    size_t bytes;          /* bytes its array needs */
    size_t lower_bound;    /* most bytes of its buffers live at one step */
} te_plan_region;

/* Where one tensor lives in a plan. */
typedef struct {
    int in_arena;          /* 1: stored in the arena, at arena_offset */
    size_t arena_offset;   /* byte offset in the arena (aliases: their root's
                            * offset + their offset in it) */
    int in_state;          /* 1: a variable tensor (or a view of one) kept in the
                            * persistent state region, not the arena */
    size_t state_offset;   /* byte offset in the state region (if in_state) */
    int region;            /* memory region of arena_offset (0 without regions) */
} te_tensor_place;

/* Working arrays reused from one plan build or placement to the next
 * (plan_scratch.c), one block per use: a search that plans thousands of
 * trials keeps one and frees it at the end. */
enum {
    TE_SCRATCH_PLAN,   /* a trial plan's own arrays (te_plan_trial_arena) */
    TE_SCRATCH_ROOTS,  /* the storage roots while a plan is built */
    TE_SCRATCH_LIFETIMES, /* tensors' own lifetimes (shrinks, the bound) */
    TE_SCRATCH_WORK,   /* a placement's orders and neighbours */
    TE_SCRATCH_BESIDE, /* a placement's lists of buffers living together */
    TE_SCRATCH_PEAK,   /* the live-bytes sweep */
    TE_SCRATCH_TIED,   /* the tied placement kept while the untied one is tried */
    TE_SCRATCH_SLOTS
};
typedef struct te_plan_scratch {
    void *block[TE_SCRATCH_SLOTS];
    size_t cap[TE_SCRATCH_SLOTS];
} te_plan_scratch;
/* Slot's block, grown to at least `bytes` (contents undefined); NULL when
 * out of memory. */
void *te_plan_scratch_get(te_plan_scratch *s, int slot, size_t bytes);
/* Bytes an array of n items of `size` takes in a carved block (rounded up
 * to keep the next one aligned), and the next array carved at *at. */
static inline size_t te_scratch_bytes(size_t n, size_t size) { return (n * size + 15) & ~(size_t)15; }
static inline void *te_scratch_take(char **at, size_t n, size_t size)
{
    void *a = *at;
    *at += te_scratch_bytes(n, size);
    return a;
}
void te_plan_scratch_free(te_plan_scratch *s);

struct te_plan {
    int *schedule;         /* op indices in execution order (dead ops left out) */
    int n_steps;
    te_buffer *buffers;
    int n_buffers;
    int *tensor_buffer;    /* tensor id -> buffer index, -1 for constants/unused */
    int *op_scratch;       /* op index -> buffer index, -1 if no scratch */
    int quick;             /* placement without the local search */
    int patch_scratch;     /* buffer index of the patch stage's working memory, or -1 */
    int stage_scratch[2];  /* the same per stage of the chain (stage_scratch[0] is
                            * patch_scratch; TE_PATCH_MAX_STAGES), or -1 */
    /* the patch stage's overlay (te_patch_plan.overlay_in): buffer
     * tie_member (the input the stage reads) lies tie_offset bytes into
     * buffer tie_anchor (the stage's output S), the two overlapping while
     * both live; has_tie 0:
     * no such pair (te_plan_place drops it when placing the two apart
     * gives the smaller arena) */
    int has_tie, tie_anchor, tie_member;
    size_t tie_offset;
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
    int *root;             /* by tensor id: te_storage_root(st, t) while the
                            * plan is built (st fixed), or NULL */
    size_t *root_off;      /* and its offset in the root */
    te_tensor_place *place; /* by tensor id: where each tensor lives */
    const struct te_patch_plan *stage; /* the patch stage it runs patch by patch:
                                        * g->patch (g derived for it:
                                        * te_patch_graph), a trial stage of
                                        * the patch search, or NULL */
    unsigned char *patch_role; /* by tensor id: te_tensor.patch_role in that
                                * stage (0 ordinary, 1 stage intermediate,
                                * 2 region tensor) */
    int n_regions;         /* 0: one arena; else the arena is cut into these
                            * regions, one array each, laid end to end in the
                            * offsets (arena_bytes: their total) */
    te_plan_region regions[TE_MAX_REGIONS];
    size_t one_region_bytes; /* with regions: arena_bytes before the cut (the
                              * arena as one array), what the regions cost
                              * over it is reported */
    te_plan_scratch *scratch; /* where building and placing take their working
                               * arrays from (not owned), or NULL: allocated
                               * each time */
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
/* The arena of the quick plan of g if its first stage->n_ops live
 * operators ran patch by patch as `stage` (not built: g has no patch
 * stage), for the patch search; `exact`: with the placement te_plan_build
 * makes (its local search too), the arena the compile of that stage
 * reaches.  low's storage must give the stage's outputs storage of their
 * own.  Every array comes from ws (kept for the next trial); (size_t)-1
 * when out of memory. */
struct te_patch_plan;
size_t te_plan_trial_arena(const te_graph *g, const te_lowered *low,
                           const struct te_patch_plan *stage, int exact, te_plan_scratch *ws);
void te_plan_free(te_plan *p);

/* Assigns offsets to p->buffers (lifetimes in steps 0..n_steps-1) and sets
 * p->arena_bytes and p->lower_bound.  Used for the arena and for the
 * working memory of one patch.  A tied pair (has_tie) is placed together
 * when that gives the smaller arena, else the tie is dropped. */
void te_plan_place(te_plan *p);

/* The lowest offset where b fits beside bufs[placed[0..n_placed-1]] (those
 * living at the same time), for incremental placement; with m (not NULL)
 * placed m_off bytes into b as well (a tied pair). */
size_t te_plan_first_fit(const te_buffer *bufs, const int *placed, int n_placed,
                         const te_buffer *b, const te_buffer *m, size_t m_off);

/* Arena offset of op's scratch (only valid when it has one). */
size_t te_plan_scratch_offset(const te_plan *p, int op);
/* The memory region of op's scratch (0 without regions or scratch). */
int te_plan_scratch_region(const te_plan *p, int op);
/* Arena offset of the scratch of patch clone c of g (g->patch->clones;
 * te_patch_step.scratch_off inside the stage scratch), and that stage
 * scratch's memory region. */
size_t te_plan_clone_scratch_offset(const te_plan *p, const te_graph *g, const te_op *c);
int te_plan_clone_scratch_region(const te_plan *p, const te_graph *g, const te_op *c);

/* Sets p->place (where each tensor lives) from the buffers' offsets. */
void te_plan_assign_offsets(te_plan *p, const te_graph *g);

/* Parses "NAME=BYTES" (BYTES with an optional k/K or m/M suffix) into one
 * more region of r; on error writes one line into err and returns -1. */
int te_regions_add(te_regions *r, const char *spec, char *err, size_t err_size);
/* Cuts p's arena into the regions of r (r->n > 0): the hottest buffers
 * (bytes read and written per byte of size) in the first region while they
 * fit, the rest in the next, each region placed at its lifetime bound.
 * Fails with one line naming the region that overflows and the size it
 * would need. */
int te_plan_regions(te_plan *p, const te_graph *g, const te_regions *r, te_diag *d);

/* Bytes live at one schedule step (sum of buffers whose lifetime covers it;
 * a tied pair's shared bytes once). */
size_t te_plan_live_bytes(const te_plan *p, int step);

#endif
