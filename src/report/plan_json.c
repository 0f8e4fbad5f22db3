/* plan_json.c - writes the memory plan as JSON (see plan_json.h). */
#include "plan_json.h"

#include "json_text.h"

static void json_shape(te_buf *o, const te_tensor *t)
{
    int r;
    te_buf_append(o, "[", 1);
    for (r = 0; r < t->rank; r++)
        te_buf_printf(o, "%s%d", r ? ", " : "", t->shape[r]);
    te_buf_append(o, "]", 1);
}

static void json_steps(te_buf *o, const te_plan_view *v)
{
    int s;
    te_buf_printf(o, "  \"steps\": [");
    for (s = 0; s < v->p->n_steps; s++)
        te_buf_printf(o, "%s\n    {\"step\": %d, \"op\": %d, \"type\": \"%s\", \"live_bytes\": %zu}",
                      s ? "," : "", s, v->p->schedule[s], te_plan_view_step_type(v, s), v->live[s]);
    te_buf_printf(o, "\n  ],\n");
}

/* The tensors (segments) that occupy buffer b. */
static void json_buffer_tensors(te_buf *o, const te_plan_view *v, int b)
{
    int i, n = 0;
    te_buf_printf(o, "[");
    for (i = 0; i < v->n_segs; i++) {
        const te_segment *sg = &v->segs[i];
        if (sg->buffer != b || sg->tensor < 0)
            continue;
        te_buf_printf(o, "%s{\"tensor\": %d, \"name\": ", n++ ? ", " : "", sg->tensor);
        te_json_str(o, v->g->tensors[sg->tensor].name);
        te_buf_printf(o, ", \"kind\": \"%s\", \"shape\": ", te_seg_kind_name(sg->kind));
        json_shape(o, &v->g->tensors[sg->tensor]);
        te_buf_printf(o, ", \"first\": %d, \"last\": %d, \"offset\": %zu}", sg->first, sg->last,
                      sg->offset);
    }
    te_buf_printf(o, "]");
}

void te_plan_regions_json(te_buf *o, const te_plan *p)
{
    int r;
    if (!p->n_regions)
        return;
    te_buf_printf(o, "  \"memory_regions\": [");
    for (r = 0; r < p->n_regions; r++) {
        const te_plan_region *pr = &p->regions[r];
        te_buf_printf(o, "%s{\"name\": \"%s\", \"bytes\": %zu, \"limit\": %zu, \"base\": %zu, "
                         "\"live_peak_bytes\": %zu}",
                      r ? ", " : "", pr->spec.name, pr->bytes, pr->spec.limit, pr->base,
                      pr->lower_bound);
    }
    te_buf_printf(o, "],\n  \"one_region_arena_bytes\": %zu,\n", p->one_region_bytes);
}

static const te_segment *first_seg_of(const te_plan_view *v, int b)
{
    int i;
    for (i = 0; i < v->n_segs; i++)
        if (v->segs[i].buffer == b)
            return &v->segs[i];
    return NULL;
}

static void json_buffer(te_buf *o, const te_plan_view *v, int b)
{
    const te_buffer *buf = &v->p->buffers[b];
    const te_segment *sg = first_seg_of(v, b);
    te_buf_printf(o, "    {\"buffer\": %d, \"kind\": \"%s\", ", b,
                  te_seg_kind_name(sg ? sg->kind : TE_SEG_ACTIVATION));
    if (buf->tensor >= 0) {
        te_buf_printf(o, "\"tensor\": %d, \"name\": ", buf->tensor);
        te_json_str(o, v->g->tensors[buf->tensor].name);
        te_buf_printf(o, ", \"shape\": ");
        json_shape(o, &v->g->tensors[buf->tensor]);
    } else if (buf->op >= 0 && buf->op < v->g->n_ops) {
        te_buf_printf(o, "\"scratch_op\": %d, \"type\": \"%s\"", buf->op,
                      te_opcode_name(v->g->ops[buf->op].opcode));
    } else {
        te_buf_printf(o, "\"scratch_op\": null, \"patch_stage\": true");
    }
    te_buf_printf(o, ", \"bytes\": %zu, \"first\": %d, \"last\": %d, \"first_op\": %d, "
                     "\"last_op\": %d, \"offset\": %zu",
                  buf->bytes, buf->first, buf->last, v->p->schedule[buf->first],
                  v->p->schedule[buf->last], buf->offset);
    if (v->p->n_regions) /* its region, and the offset within the region's array */
        te_buf_printf(o, ", \"region\": \"%s\", \"region_offset\": %zu",
                      v->p->regions[buf->region].spec.name,
                      buf->offset - v->p->regions[buf->region].base);
    if (buf->tensor >= 0) {
        te_buf_printf(o, ", \"tensors\": ");
        json_buffer_tensors(o, v, b);
    }
    te_buf_printf(o, "}");
}

void te_plan_json(te_buf *o, const te_plan_view *v, const char *model_path)
{
    const te_plan *p = v->p;
    int b, n = 0;
    te_buf_printf(o, "{\n  \"model\": ");
    te_json_str(o, model_path);
    te_buf_printf(o, ",\n  \"arena_bytes\": %zu,\n  \"state_bytes\": %zu,\n"
                     "  \"stack_bytes\": %zu,\n  \"stack_bytes_O0\": %zu,\n  \"ram_bytes\": %zu,\n"
                     "  \"lifetime_lower_bound_bytes\": %zu,\n  \"live_peak_bytes\": %zu,\n",
                  p->arena_bytes, v->state_bytes, v->stack.opt, v->stack.o0,
                  p->arena_bytes + v->state_bytes + v->stack.opt, p->bound_no_inplace,
                  p->lower_bound);
    te_plan_regions_json(o, p);
    if (v->peak_step >= 0)
        te_buf_printf(o, "  \"peak\": {\"step\": %d, \"op\": %d, \"type\": \"%s\", "
                         "\"live_bytes\": %zu},\n",
                      v->peak_step, p->schedule[v->peak_step],
                      te_plan_view_step_type(v, v->peak_step), v->peak_bytes);
    json_steps(o, v);
    te_buf_printf(o, "  \"buffers\": [");
    for (b = 0; b < p->n_buffers; b++) {
        if (p->buffers[b].first > p->buffers[b].last)
            continue; /* never used: not in the arena */
        te_buf_printf(o, "%s\n", n++ ? "," : "");
        json_buffer(o, v, b);
    }
    te_buf_printf(o, "\n  ]\n}\n");
}
