/* patch.h - patch-based execution of a network's memory-heavy first stage
 * (the MCUNetV2 idea): the first K operators run once per cell of a grid
 * laid over the stage's output tensor S, each time on just the region of
 * every intermediate tensor that cell needs (receptive field, overlaps
 * recomputed), so the stage's big intermediates never exist whole.
 *
 * Model: the stage is a prefix of the schedule (a second stage, the
 * `next` of the first, runs the operators that follow it the same way,
 * reading the tensors made before it whole) whose last operator writes
 * S (4-D NHWC); other tensors it computes that are used after it (a
 * residual branch crossing the cut, a detector tap) are cut tensors too,
 * stored whole.  Per patch, regions are propagated backwards
 * from the cell of S; every operator is then cloned onto "region tensors"
 * (the same tensor with a smaller spatial extent, explicit padding only at
 * the real image border) and lowered by its normal emit().  Where an input
 * region needed is smaller than what was computed (a tensor read by two
 * operators, or the full network input), a box copy crops it first.
 * The per-patch working buffers have their own small plan ("micro plan"),
 * which becomes one scratch buffer of the stage in the outer plan. */
#ifndef TE_PATCH_H
#define TE_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "../ir/diag.h"
#include "../ir/ir.h"

/* One step of a patch: a crop copy or an operator clone. */
typedef struct {
    int kind;          /* TE_PSTEP_COPY_IN, TE_PSTEP_OP, TE_PSTEP_COPY_OUT */
    int op;            /* original op index (OP), or the op a crop feeds */
    int clone;         /* OP: index into te_patch_plan.clones */
    /* copies: an h x w box of tensor src at (src_y, src_x) goes to tensor
     * dst at (dst_y, dst_x); ay/ax are each tensor's height/width axes */
    int src, dst;
    int src_y, src_x, dst_y, dst_x, h, w;
    int src_ay, src_ax, dst_ay, dst_ax;
    /* OP: the input the clone overwrites in place (its output's region
     * tensor shares that input's slot; te_patch_storage links them), or
     * -1; the scratch the micro plan gives it (bytes, offset in the stage
     * scratch), 0 bytes: none */
    int inplace_input;
    size_t scratch_off, scratch_bytes;
    /* the stage the step belongs to (0: the first; its scratch holds the
     * step's region tensors) and its patch in that stage's grid */
    int stage, patch;
} te_patch_step;

#define TE_PSTEP_COPY_IN 0
#define TE_PSTEP_OP 1
#define TE_PSTEP_COPY_OUT 2

/* Most tensors of a stage besides S that are also read after it. */
#define TE_PATCH_MAX_CUTS 4

/* Most tensors of a stage that keep rows with halo caching. */
#define TE_PATCH_MAX_CACHED 32
/* Halo caching asked of te_patch_analyse_cache: every tensor that can keep
 * rows, or only as many (the smallest ones) as fit in the working memory
 * of one patch without caching. */
#define TE_PATCH_CACHE_ALL 1
#define TE_PATCH_CACHE_LEAN 2

/* Most patch stages of one plan (te_patch_plan.next). */
#define TE_PATCH_MAX_STAGES 2

typedef struct te_patch_plan {
    int first;          /* schedule position of the stage's first operator */
    int n_ops;          /* stage = n_ops live operators of the schedule from there */
    int lone;           /* 1: the chain's only stage, later in the network than
                         * its first operators (--patch auto's lone stage, or
                         * --patch K@F:HxW); 0: the first stage (the first
                         * first + n_ops operators) or a next one */
    int grid_h, grid_w; /* cells over S */
    /* halo caching (patch_cache.c): the level asked (TE_PATCH_CACHE_*) when
     * some tensor keeps the rows its region shares with the patch of the
     * cell above (a line buffer carries them; they are not recomputed),
     * else 0: every patch computes its whole regions; the tensors that keep
     * rows */
    int cache;
    int n_cached, cached[TE_PATCH_MAX_CACHED];
    int out_tensor;     /* S */
    /* the stage's other cut tensors: intermediates on S's way that are also
     * read after the stage (a residual branch crossing the cut, a detector
     * tap); each is stored whole, every patch writing the part of its
     * region no patch before it wrote */
    int n_cuts;
    int cuts[TE_PATCH_MAX_CUTS];
    size_t scratch_bytes; /* micro-plan arena: working memory of one patch */
    int64_t stage_macs, patched_macs; /* MACs of the stage without / with patches */
    /* estimated instructions on the target's cost model (src/api/cost_model.h),
     * set by te_patch_search / te_patch_estimate: the stage layer by layer and
     * patch by patch (clones and crop copies), the whole model layer by layer */
    double stage_instructions, patched_instructions, model_instructions;
    /* flash bytes the patches' code takes (te_patch_code_bytes), set by
     * te_patch_estimate and, on a derived graph's copy, by te_patch_graph */
    int64_t code_bytes;
    /* stack bound (optimised builds) of the plan's kernels, layer-by-layer
     * and clones (codegen/stack_bound.h), set by te_patch_estimate */
    size_t stack_bytes;
    /* The overlay (patch_overlay.c): the network input the stage reads
     * (overlay_in, a tensor id; -1: none) may start overlay_offset bytes
     * into S's place, because every patch writes its cell of S only over
     * input bytes no later patch reads; set by te_patch_analyse.  The
     * planner keeps both in one place when that lowers the arena. */
    int overlay_in;
    size_t overlay_offset;

    /* the next stage (owned; it starts after this one ends), or NULL.
     * Only the first stage has an overlay (overlay_in -1 on the others). */
    struct te_patch_plan *next;

    /* filled in the derived graph's own copy (te_patch_graph; NULL / 0 in
     * the plans the analysis and the search return), on the first stage,
     * for every stage (te_patch_step.stage says which): */
    te_op *clones;      /* operator clones on region tensors */
    int n_clones;
    te_patch_step *steps; /* all patches, in execution order */
    int n_steps;
} te_patch_plan;

/* Patch settings the user asks for. */
typedef struct {
    int mode;            /* TE_PATCH_OFF, TE_PATCH_AUTO, TE_PATCH_EXPLICIT */
    int n_ops, grid_h, grid_w; /* explicit form */
    double max_recompute; /* auto: extra instructions allowed (the target's cost
                           * model), as a fraction of the model's layer by layer */
    /* --explain: given one line per stage the search rejects and why;
     * NULL: quiet */
    void (*explain)(void *ctx, const char *line);
    void *explain_ctx;
    int n_ops2, grid_h2, grid_w2; /* explicit form's second stage (the next n_ops2
                                   * operators); n_ops2 0: none */
    int cache, cache2; /* explicit form: each stage with halo caching (":cache") */
    int no_cache_pass; /* auto: skip the search's halo-caching pass (the compiler's
                        * searches in other execution orders: the pass would
                        * multiply their cost) */
    int from;          /* explicit form "K@F:HxW": a lone stage, the n_ops operators
                        * from schedule step F (>= 1; no second stage); 0: the
                        * first n_ops */
} te_patch_opts;

#define TE_PATCH_OFF 0
#define TE_PATCH_AUTO 1
#define TE_PATCH_EXPLICIT 2

/* Parses a --patch setting: NULL or "off", "auto", "K:HxW" (1 <= K,
 * 2 <= H x W, H and W at most 64), "K:HxW+K2:H2xW2" (a second stage: the
 * K2 operators after the first K) or "K@F:HxW" (a lone stage: the K
 * operators from step F >= 1), each stage optionally followed by ":cache"
 * (halo caching), into p's mode and explicit form; -1 when it is none of
 * those. */
int te_patch_opts_parse(const char *s, te_patch_opts *p);
/* The explicit form of p as --patch takes it ("4:3x3", "4:3x3+6:2x2"). */
void te_patch_opts_format(const te_patch_opts *p, char *buf, size_t n);

/* Checks that the first n_ops operators form a stage that can run patch
 * by patch with this grid and computes its scratch and MACs (the graph is
 * not changed).  Returns NULL with d set (explicit form) or quietly (d ==
 * NULL, used by the search) when it cannot. */
te_patch_plan *te_patch_analyse(const te_graph *g, int n_ops, int grid_h, int grid_w, te_diag *d);
/* The same for the n_ops live operators from schedule position `first`
 * (tensors made before them are read whole, like the network input). */
te_patch_plan *te_patch_analyse_at(const te_graph *g, int first, int n_ops, int grid_h,
                                   int grid_w, te_diag *d);
/* te_patch_analyse_at with halo caching when `cache` (TE_PATCH_CACHE_ALL
 * or _LEAN; te_patch_plan.cache); refused, d set, when no tensor of the
 * stage can be cached or the grid has one row. */
te_patch_plan *te_patch_analyse_cache(const te_graph *g, int first, int n_ops, int grid_h,
                                      int grid_w, int cache, te_diag *d);

/* The stage of chain p whose schedule steps hold `step` and its index in
 * the chain (*index, may be NULL), or NULL. */
const te_patch_plan *te_patch_stage_of(const te_patch_plan *p, int step, int *index);
/* The schedule position of the last operator of stage p. */
int te_patch_stage_last(const te_patch_plan *p);
/* Stages in chain p (0 for NULL). */
int te_patch_n_stages(const te_patch_plan *p);
/* Extra MACs of every stage of chain p (patched_macs - stage_macs). */
int64_t te_patch_extra_macs(const te_patch_plan *p);
/* "first 10 operators in 2x2 patches" (+ " + 8 operators from step 12 in
 * 3x3 patches" per further stage) into buf. */
void te_patch_describe(const te_patch_plan *p, char *buf, size_t n);
/* A copy of chain p's analysed stages (clones and steps not copied); NULL
 * when out of memory. */
te_patch_plan *te_patch_plan_copy(const te_patch_plan *p);

/* A new graph derived from g (te_graph.base: it borrows g's operators and
 * constant data, g must outlive it) that runs p's stage patch by patch: a
 * copy of g's tensors with the stage's internal tensors marked as not
 * stored (patch_role 1), the region tensors of every patch added, placed
 * inside the stage scratch (slot_offset, relative to it; codegen adds the
 * scratch's arena offset), and its own copy of p (te_graph.patch) with the
 * operator clones and steps.  g and p are only read.  te_graph_free()
 * frees it (only what it owns); NULL with d set when it cannot be built. */
te_graph *te_patch_graph(const te_graph *g, const te_patch_plan *p, te_diag *d);

struct te_lowered;

/* --patch auto: the stage and grid with the smallest arena (below
 * `baseline`, the arena without patches) whose extra instructions (the
 * target's cost model: clones and crop copies against the stage layer by
 * layer) are at most max_recompute x the model's and whose code (operator
 * clones and crop copies, te_patch_code_bytes) fits the flash the model
 * leaves (te_patch_flash_left), the fewest extra instructions among equal
 * arenas; NULL when no patch plan beats the baseline.  Every stage length
 * is tried, over H x W grids (TE_PATCH_ALL_GRIDS: which ones; finer grids
 * of a stage only while coarser ones are within the limits, each row of
 * grids by binary search: the arena falls and the instructions grow with
 * the cells).  With fit > 0 (an SRAM budget for the arena): of the plans whose
 * arena fits it, the one with the fewest extra instructions (the fastest);
 * the smallest arena when none fits.  po: its max_recompute (extra
 * instructions allowed, a fraction of the model's) and explain (each
 * rejected stage and why).  *arena (if not NULL) gets the estimated arena
 * of the plan returned.  low: g's current lowering (the scratch of the
 * operators after a stage, the cost of each operator).  The plan returned
 * may have a second stage (next) over operators after the first, kept when
 * it lowers the arena within what the first leaves of the limits and costs
 * less by the thrift rule (patch_search.c, search_next); its instruction
 * and code estimates are then both stages'.  The search runs again with
 * halo caching on the first stage (TE_PATCH_CACHE_LEAN) and keeps that plan
 * only when it beats the one without by these rules. */
te_patch_plan *te_patch_search(const te_graph *g, const struct te_lowered *low,
                               const te_patch_opts *po, size_t baseline, size_t fit,
                               size_t *arena);

/* Why the first n_ops operators cannot form a patch stage (an operator that
 * cannot run on a region, no cut tensor, ...) into why[n]; 0 when
 * they can. */
int te_patch_stage_reason(const te_graph *g, int n_ops, char *why, size_t n);

/* Sets p's instruction estimates (stage_instructions, ...) by building its
 * patches in a derived graph (te_patch_graph), lowering them and freeing it
 * (low: g's lowering); -1 when the patches cannot be built. */
int te_patch_estimate(const te_graph *g, const struct te_lowered *low, te_patch_plan *p);

/* The storage decisions `before` (of dg's base; NULL: none) on dg, a
 * derived graph with a patch stage: the stage's tensors (patch roles, its
 * output), the new region tensors and any tensor that lived inside one no
 * patch stores whole on their own, but the output of each clone the micro
 * plan runs in place (te_patch_step.inplace_input), linked to that input. */
struct te_storage *te_patch_storage(const te_graph *dg, const struct te_storage *before);

/* The grids the search tries: H x W cells over the cut tensor, H and W
 * each any count up to TE_PATCH_ALL_GRIDS, and beyond it up to
 * TE_PATCH_MAX_GRID (what --patch K:HxW accepts) the fewest cells giving
 * each size of the largest cell; finer grids of a stage only while coarser
 * ones are within the limits (patch_search.c). */
#define TE_PATCH_ALL_GRIDS 8

/* The thrift rule of --patch auto (without --sram-limit): of the grids of
 * the stage it picks, a finer one is kept over a coarser one, and patches
 * over layer by layer, only when each byte of SRAM it saves costs at most
 * this many bytes of the patches' code (flash is a few times larger than
 * SRAM on the targets: 1 MiB / 256 KiB and the like). */
#define TE_PATCH_FLASH_PER_BYTE 8
#define TE_PATCH_MAX_GRID 64

/* The stack (optimised builds) the project promises an invoke stays within:
 * --patch auto keeps no plan whose kernels' stack bound exceeds it and the
 * layer-by-layer one (it would trade stack for arena silently). */
#define TE_PATCH_STACK_PROMISE 2048

/* Estimated flash bytes of p's patches (p materialized: its clones and
 * steps): each clone and crop copy one call of its kernel (runtime/
 * te_kernel_code.def's measured bytes per call of that kernel on the
 * target, its code where the compiler inlines it), each distinct params
 * record (clones of one operator on regions of the same shapes, padding
 * and place share theirs) sizeof its kernel's params struct on the target
 * (128 bytes for a kernel of plain arguments), each distinct crop copy
 * array (counts per box, strides per tensor) 16 bytes, the copy kernel
 * once.  An upper bound of what the generated code gains (the stage's own
 * calls are not deducted; cli.patch_code). */
int64_t te_patch_code_bytes(const te_graph *g, const te_patch_plan *p);
/* A lower bound of te_patch_code_bytes known before the patches are
 * built: one call per stage operator and cell.  It caps the clones a plan
 * may have at the flash left / the bytes of a call. */
int64_t te_patch_code_floor(const te_graph *g, const te_patch_plan *p);
/* Flash the patches may take: the flash limit (--flash-limit, else 1.25 x
 * the constants + 32 KiB, plus te_flash_patch_allowance) less the
 * model's constants and code
 * (te_flash_base_estimate) and, under the default limit, the 4 KiB kept
 * free for the estimates' error; may be negative.  The speed trades of
 * flash_budget.h get what the patches leave of it. */
int64_t te_patch_flash_left(const te_graph *g);

/* What makes the params records of two clones of one operator differ: the
 * shapes of their region tensors, explicit padding and place. */
#define TE_PATCH_CLONE_SIG_INTS (4 * (4 + 1) + 8)
void te_patch_clone_signature(const te_graph *g, const te_op *c, int *sig);
/* A hash of operator op's clone signature sig, for the caches keyed on
 * (op, signature): the cells of a grid whose regions all differ (a
 * RESIZE's clones, each in its own place) make a linear scan quadratic. */
uint32_t te_patch_sig_hash(int op, const int *sig);

/* Runs dg's patch steps (dg derived: te_patch_graph) over plan p's arena
 * byte by byte: -1 if a crop copy of the overlaid input (overlay_in) reads
 * a byte some patch's copy into S wrote before (or out of memory), else 0.
 * The planner drops the tie of a plan that fails it. */
struct te_plan;
int te_patch_overlay_check(const te_graph *dg, const struct te_plan *p);

/* 1 if tensor t is stored whole by a stage of chain p: its S or another
 * cut tensor. */
int te_patch_is_cut(const te_patch_plan *p, int t);

void te_patch_plan_free(te_patch_plan *p);

#endif
