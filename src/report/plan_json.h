/* plan_json.h - the memory plan as JSON (`tinyengine plan --json`): arena,
 * bounds, live bytes per schedule step, and every placed buffer with the
 * tensors that share it. */
#ifndef TE_PLAN_JSON_H
#define TE_PLAN_JSON_H

#include "../codegen/cbuf.h"
#include "plan_view.h"

/* Appends the JSON document (ends with a newline) to out. */
void te_plan_json(te_buf *out, const te_plan_view *v, const char *model_path);
/* With memory regions, the lines `  "memory_regions": [{"name": ..., "bytes": ...,
 * "limit": ..., "base": ..., "live_peak_bytes": ...}, ...],` and
 * `  "one_region_arena_bytes": N,` (the arena as one array; nothing without). */
void te_plan_regions_json(te_buf *out, const te_plan *p);

#endif
