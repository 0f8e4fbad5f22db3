/* plan_svg.h - the memory plan as an SVG picture (`tinyengine plan --svg`):
 * x = schedule step, y = arena address; one rectangle per tensor segment
 * coloured by kind with a tooltip, the peak step marked, the arena size
 * line, and a bar row of live bytes per step under it. */
#ifndef TE_PLAN_SVG_H
#define TE_PLAN_SVG_H

#include "../codegen/cbuf.h"
#include "plan_view.h"

#define TE_PLAN_SVG_STAGES 2

typedef struct {
    const char *title;     /* e.g. the model's file name; may be NULL */
    /* Ranges of steps drawn on a grey background (the patch-based stages,
     * TE_PLAN_SVG_STAGES at most); n_stages 0 for none. */
    int n_stages;
    int stage_first[TE_PLAN_SVG_STAGES], stage_last[TE_PLAN_SVG_STAGES];
    const char *stage_label[TE_PLAN_SVG_STAGES]; /* NULL: "patch stage" */
} te_plan_svg_opts;

/* Appends a standalone SVG document (starts with "<svg", ends with "</svg>\n"). */
void te_plan_svg(te_buf *out, const te_plan_view *v, const te_plan_svg_opts *o);

#endif
