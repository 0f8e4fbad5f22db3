/* api_json.c - te_report_json: a profile report as one JSON object (the
 * schema is docs/profile-json.md; `tinyengine profile --json` prints it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../codegen/cbuf.h"
#include "cost_model.h"
#include "tinyengine.h"

static void json_str(te_buf *b, const char *s)
{
    te_buf_append(b, "\"", 1);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            te_buf_printf(b, "\\%c", c);
        else if (c < 0x20)
            te_buf_printf(b, "\\u%04x", c);
        else
            te_buf_append(b, s, 1);
    }
    te_buf_append(b, "\"", 1);
}

/* A number as JSON: integers without a fraction, others with 6 digits. */
static void json_num(te_buf *b, double v)
{
    if (!isfinite(v))
        te_buf_printf(b, "null");
    else if (fabs(v) < 9e15 && v == floor(v))
        te_buf_printf(b, "%.0f", v);
    else
        te_buf_printf(b, "%.6g", v);
}

static void json_tensors(te_buf *b, const te_tensor_info *t, int n)
{
    int i, r;
    te_buf_printf(b, "[");
    for (i = 0; i < n; i++) {
        te_buf_printf(b, "%s{\"type\": \"%s\", \"shape\": [", i ? ", " : "", t[i].type);
        for (r = 0; r < t[i].rank; r++)
            te_buf_printf(b, "%s%d", r ? ", " : "", t[i].shape[r]);
        te_buf_printf(b, "], \"bytes\": %zu}", t[i].bytes);
    }
    te_buf_printf(b, "]");
}

static void json_features(te_buf *b, const double *f)
{
    static const char *const names[TE_COST_FEATURES] = {"macs", "window", "taps", "out",
                                                        "in",   "rows",   "calls"};
    int k;
    te_buf_printf(b, "{");
    for (k = 0; k < TE_COST_FEATURES; k++) {
        te_buf_printf(b, "%s\"%s\": ", k ? ", " : "", names[k]);
        json_num(b, f[k]);
    }
    te_buf_printf(b, "}");
}

static void json_layer(te_buf *b, const te_layer_report *l)
{
    te_buf_printf(b, "    {\"index\": %d, \"step\": %d, \"op\": ", l->index, l->step);
    json_str(b, l->op);
    te_buf_printf(b, ", \"kernel\": ");
    json_str(b, l->kernel);
    te_buf_printf(b, ",\n     \"inputs\": ");
    json_tensors(b, l->inputs, l->n_inputs);
    te_buf_printf(b, ", \"outputs\": ");
    json_tensors(b, l->outputs, l->n_outputs);
    te_buf_printf(b, ",\n     \"macs\": %lld, \"weights_bytes\": %zu, \"const_bytes\": %zu, "
                     "\"scratch_bytes\": %zu, \"live_bytes\": %zu, \"in_place\": %s, "
                     "\"patched\": %s,\n",
                  l->macs, l->weights_bytes, l->const_bytes, l->scratch_bytes, l->live_bytes,
                  l->in_place ? "true" : "false", l->patched ? "true" : "false");
    if (l->loop)
        te_buf_printf(b, "     \"loop_of\": %d,\n", l->loop - 1);
    te_buf_printf(b, "     \"estimated_instructions\": ");
    json_num(b, floor(l->instructions + 0.5));
    te_buf_printf(b, ", \"estimated_latency_us\": ");
    json_num(b, l->latency_us);
    te_buf_printf(b, ", \"features\": ");
    json_features(b, l->features);
    te_buf_printf(b, "}");
}

static void json_patch(te_buf *b, const te_report *r)
{
    if (!r->patch_ops) {
        te_buf_printf(b, "  \"patch\": null,\n");
        return;
    }
    te_buf_printf(b, "  \"patch\": {\"ops\": %d, \"grid\": [%d, %d], \"scratch_bytes\": %zu, "
                     "\"extra_macs\": %lld",
                  r->patch_ops, r->patch_grid_h, r->patch_grid_w, r->patch_scratch_bytes,
                  r->patch_extra_macs);
    if (r->patch_first)
        te_buf_printf(b, ", \"from_step\": %d", r->patch_first);
    te_buf_printf(b, "},\n");
}

static void json_totals(te_buf *b, const te_report *r)
{
    te_buf_printf(b, "  \"macs\": %lld,\n  \"estimated_instructions\": ", r->macs);
    json_num(b, floor(r->instructions + 0.5));
    te_buf_printf(b, ",\n  \"estimated_cycles\": ");
    json_num(b, floor(r->cycles + 0.5));
    te_buf_printf(b, ",\n  \"estimated_latency_ms\": ");
    json_num(b, r->latency_ms);
    te_buf_printf(b, ",\n  \"mhz\": ");
    json_num(b, r->mhz);
    te_buf_printf(b, ", \"cpi\": ");
    json_num(b, r->cpi);
    te_buf_printf(b, ",\n  \"peak_sram_bytes\": %zu,\n  \"peak_sram_bytes_no_patch\": %zu,\n"
                     "  \"state_bytes\": %zu,\n"
                     "  \"live_peak_bytes\": %zu,\n  \"lifetime_bound_bytes\": %zu,\n"
                     "  \"peak_layer\": %d,\n",
                  r->peak_sram_bytes, r->peak_sram_bytes_no_patch, r->state_bytes, r->live_peak_bytes,
                  r->lifetime_bound_bytes, r->peak_layer >= 0 ? r->layers[r->peak_layer].index : -1);
    te_buf_printf(b, "  \"stack_bytes\": %zu,\n  \"stack_bytes_O0\": %zu,\n  \"ram_bytes\": %zu,\n",
                  r->stack_bytes, r->stack_bytes_O0, r->ram_bytes);
    te_buf_printf(b, "  \"flash_bytes\": %zu,\n  \"weights_bytes\": %zu,\n  \"const_bytes\": %zu,\n"
                     "  \"code_bytes\": %zu,\n",
                  r->flash_bytes, r->weights_bytes, r->const_bytes, r->code_bytes);
}

char *te_report_json(const te_report *r, const char *model)
{
    te_buf b = {0};
    int i;
    te_buf_printf(&b, "{\n  \"model\": ");
    if (model)
        json_str(&b, model);
    else
        te_buf_printf(&b, "null");
    te_buf_printf(&b, ",\n  \"target\": \"%s\",\n  \"cost_model\": \"%s\",\n"
                      "  \"cost_table\": \"%s\",\n",
                  r->target, r->cost_model, te_cost_table_date);
    json_totals(&b, r);
    json_patch(&b, r);
    te_buf_printf(&b, "  \"inputs\": ");
    json_tensors(&b, r->inputs, r->n_inputs);
    te_buf_printf(&b, ",\n  \"outputs\": ");
    json_tensors(&b, r->outputs, r->n_outputs);
    te_buf_printf(&b, ",\n  \"layers\": [\n");
    for (i = 0; i < r->n_layers; i++) {
        json_layer(&b, &r->layers[i]);
        te_buf_printf(&b, i + 1 < r->n_layers ? ",\n" : "\n");
    }
    te_buf_printf(&b, "  ]\n}\n");
    if (b.oom) {
        te_buf_free(&b);
        return NULL;
    }
    return b.s;
}
