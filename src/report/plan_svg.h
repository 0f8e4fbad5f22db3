/* plan_svg.h - the memory plan as an SVG picture (`tinyengine plan --svg`):
 * x = schedule step, y = arena address; one rectangle per tensor segment
 * coloured by kind with a tooltip, the peak step marked, the arena size
 * line, and a bar row of live bytes per step under it. */
#ifndef TE_PLAN_SVG_H
#define TE_PLAN_SVG_H

#include "../codegen/cbuf.h"
#include "plan_view.h"

typedef struct {
    const char *title;     /* e.g. the model's file name; may be NULL */
    /* A range of steps drawn on a grey background (a patch-based stage);
     * stage_first < 0 for none. */
    int stage_first, stage_last;
    const char *stage_label;  /* NULL: "patch stage" */
} te_plan_svg_opts;

/* Appends a standalone SVG document (starts with "<svg", ends with "</svg>\n"). */
void te_plan_svg(te_buf *out, const te_plan_view *v, const te_plan_svg_opts *o);

#endif
