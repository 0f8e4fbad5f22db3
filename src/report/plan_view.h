/* plan_view.h - the memory plan seen as a picture: what the plan reports
 * (SVG, JSON, text) draw or print.  Live bytes per schedule step, the peak
 * step, and "segments": one per tensor that occupies a buffer for part of
 * its lifetime (a buffer shared by a tensor and its in-place output or its
 * zero-copy view yields one segment per tensor), plus one per scratch. */
#ifndef TE_PLAN_VIEW_H
#define TE_PLAN_VIEW_H

#include <stddef.h>

#include "../ir/ir.h"
#include "../codegen/stack_bound.h"
#include "../plan/plan.h"

typedef enum {
    TE_SEG_ACTIVATION,  /* an ordinary intermediate tensor (or a zero-copy view) */
    TE_SEG_INPLACE,     /* an output written over its input's storage */
    TE_SEG_SCRATCH,     /* an operator's scratch buffer */
    TE_SEG_INPUT,       /* a graph input */
    TE_SEG_OUTPUT,      /* a graph output */
    TE_SEG_N_KINDS
} te_seg_kind;

typedef struct {
    te_seg_kind kind;
    int buffer;        /* index in plan->buffers */
    int tensor;        /* tensor id, -1 for scratch (or a buffer no tensor claims) */
    int op;            /* scratch: its op index; else -1 */
    int first, last;   /* schedule steps, inclusive, inside the buffer's lifetime */
    int from_mid;      /* 1: starts half-way into step `first` (written over
                        * its input at that step) */
    size_t offset;     /* arena offset */
    size_t bytes;
} te_segment;

typedef struct {
    const te_graph *g;
    const te_plan *p;
    size_t *live;      /* live bytes per step (n_steps entries) */
    int peak_step;     /* first step with the most live bytes, -1 if no steps */
    size_t peak_bytes;
    te_segment *segs;
    int n_segs;
    size_t state_bytes;   /* persistent state beside the arena (the plan's) */
    te_stack_bound stack; /* NAME_STACK_BYTES (codegen/stack_bound.h) */
} te_plan_view;

/* Builds the view; 0 on success, -1 when out of memory. */
int te_plan_view_build(te_plan_view *v, const te_graph *g, const te_plan *p);
void te_plan_view_free(te_plan_view *v);

/* Short name of a segment kind ("activation", "inplace", "scratch",
 * "input", "output"). */
const char *te_seg_kind_name(te_seg_kind k);

/* Op type name of schedule step s. */
const char *te_plan_view_step_type(const te_plan_view *v, int s);

#endif
