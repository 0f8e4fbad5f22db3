/* lowering.h - one lowering record per operator: what the op file decided
 * for one plan candidate (the target, the graph after the passes and the
 * candidate's storage decisions: in place, concatenation slices, work
 * areas).  Computed once per operator per candidate by te_lower_graph; the
 * planner reads its scratch bytes, emit() its kernel variant, the cost
 * model and the reports its kernel id and cost features.  The records
 * live beside the graph (te_lowered, owned by the compiler's model), never
 * in te_op / te_graph. */
#ifndef TE_LOWERING_H
#define TE_LOWERING_H

#include <stddef.h>
#include <stdint.h>

#include "../codegen/kernels.h"
#include "../ir/diag.h"
#include "../ir/ir.h"
#include "../ir/storage.h"
#include "op_cost.h"

/* The plan candidate lowering depends on: its storage decisions and its
 * plan-level choices. */
typedef struct {
    const te_storage *st; /* in place, slices (NULL: the graph's views only,
                           * nothing in place, no slices); not owned */
    int slice_no_work; /* 1: kernels writing strided concatenation slices get
                        * no work area (they use their slower path) */
    int no_speed_scratch; /* 1: kernels whose scratch only saves time
                           * (te_lowering.speed_scratch) go without it */
} te_lower_opts;

typedef struct te_lowering {
    te_kernel_id kernel;  /* registry kernel the generated code calls
                           * (runtime/te_kernels.def), TE_K_VIEW when it
                           * calls none, TE_K_UNKNOWN if not said; reports
                           * print te_kernel_report_name(kernel) */
    int variant;          /* the op file's own variant id (its enum; 0 default) */
    size_t scratch_bytes; /* arena scratch the kernel needs during the op */
    int inplace_input;    /* input output 0 overwrites (the planner's
                           * decision), or -1 */
    int slice;            /* output 0 is a slice of a concatenation */
    size_t slice_pitch;   /* ... a strided one: bytes from one pixel to the
                           * next in the concatenation's output (else 0) */
    int work_area;        /* its scratch is a work area for that slice */
    size_t inplace_band;  /* in place row by row (a convolution taller than
                           * 1x1): bytes of its scratch that save the input
                           * rows later output rows still read, else 0 */
    int speed_scratch;    /* its scratch only saves time: the kernel also runs
                           * without (te_lower_opts.no_speed_scratch) */
    size_t stack_buffer;  /* bytes of the kernel's stack work buffer this op
                           * uses (te_conv2d_dsp_s8: its patches when no arena
                           * scratch); the generated code sizes the buffer to
                           * the largest, so the stack is what the model needs */
    int64_t macs;         /* multiply-accumulates */
    int64_t flash_extra;  /* constant bytes the kernel variant adds beyond the
                           * model's own weights (int16 copies of them) */
    te_cost_features cost; /* the cost model's features */
} te_lowering;

/* The records of one plan candidate: g->ops[i] at i, then the patch
 * stage's clones (g->patch->clones[c] at n_ops + c, when g is a graph
 * derived for its patch stage: te_patch_graph). */
typedef struct te_lowered {
    te_lower_opts opts;
    int n_ops, n_clones;
    te_lowering *ops;
} te_lowered;

/* Estimated flash of the generated code without any flash-for-speed
 * trade: the model's constants plus an estimate of the kernels' code and
 * the per-channel tables (--flash-limit). */
int64_t te_flash_code_estimate(const te_graph *g);
/* The depthwise kernel variant of op (filter, stride, dilated,
 * multiplier > 1) as a key (bit 0: multiplier > 1); the estimate counts
 * each variant's code once. */
int te_flash_dw_variant(const te_graph *g, const te_op *op);
/* The code the estimate counts for one depthwise kernel variant. */
#define TE_FLASH_CODE_DW 6144
int64_t te_flash_base_estimate(const te_graph *g);

/* Lowers one operator (of g->ops or a patch clone). */
void te_lower_op(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l);

/* Lowers every live operator and clone of g as it stands; NULL with d set
 * when out of memory.  prev (may be NULL): an earlier candidate of the same
 * graph, whose records of ops with te_op_def.lower_once are reused. */
te_lowered *te_lower_graph(const te_graph *g, const te_lower_opts *o, const te_lowered *prev,
                           te_diag *d);
void te_lowered_free(te_lowered *l);

/* The record of op (an op of g or one of its patch clones), or NULL. */
const te_lowering *te_lowered_find(const te_lowered *l, const te_graph *g, const te_op *op);

/* A copy of st without the in-place links of the operators low runs row by
 * row over a band (te_lowering.inplace_band); NULL when st has none (or out
 * of memory).  Such links lower the arena of one plan and may raise it in
 * another (beside a patch stage): planned both ways. */
te_storage *te_lowered_without_bands(const te_lowered *low, const te_graph *g,
                                     const te_storage *st);

#endif
