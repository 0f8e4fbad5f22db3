/* model_json.c - a compiled model as the JSON document `info --json` prints
 * and `compile --report FILE` writes: totals (MACs, weights, arena, state,
 * stack, flash), memory regions, the patch plan, and every operator with
 * its tensors' shapes and quantization. */
#include <stdio.h>

#include "../ops/flash_budget.h"
#include "../ops/lowering.h"
#include "../ops/ops.h"
#include "../plan/patch.h"
#include "../report/json_text.h"
#include "../report/plan_json.h"
#include "cli.h"

static void json_shape(FILE *f, const te_tensor *t)
{
    int r;
    fputc('[', f);
    for (r = 0; r < t->rank; r++)
        fprintf(f, "%s%d", r ? ", " : "", t->shape[r]);
    fputc(']', f);
}

/* A dead op whose outputs became constants was folded at compile time
 * (pass_fold_const.c); other dead ops were removed as unused. */
int cli_op_folded(const te_graph *g, const te_op *op)
{
    return op->dead && op->n_out > 0 && op->out[0] >= 0 && g->tensors[op->out[0]].data;
}

static void json_tensor(FILE *f, const te_tensor *t)
{
    fprintf(f, "{\"tensor\": %d, \"name\": ", t->id);
    te_json_fputs(f, t->name);
    fprintf(f, ", \"type\": \"%s\", \"shape\": ", te_dtype_name(t->type));
    json_shape(f, t);
    fprintf(f, ", \"const\": %s", t->data ? "true" : "false");
    if (t->q.count == 1)
        fprintf(f, ", \"scale\": %.9g, \"zero_point\": %lld", (double)t->q.scale[0],
                (long long)t->q.zero_point[0]);
    else if (t->q.count > 1) {
        int c;
        fputs(", \"scale\": [", f);
        for (c = 0; c < t->q.count; c++)
            fprintf(f, "%s%.9g", c ? ", " : "", (double)t->q.scale[c]);
        fputs("], \"zero_point\": [", f);
        for (c = 0; c < t->q.count; c++)
            fprintf(f, "%s%lld", c ? ", " : "", (long long)t->q.zero_point[c]);
        fprintf(f, "], \"quantized_dimension\": %d", t->q.quantized_dim);
    }
    fputc('}', f);
}

void cli_json_tensor_list(FILE *f, const te_graph *g, const int *ids, int n)
{
    int i, first = 1;
    fputc('[', f);
    for (i = 0; i < n; i++) {
        if (ids[i] < 0)
            continue;
        fputs(first ? "" : ", ", f);
        json_tensor(f, &g->tensors[ids[i]]);
        first = 0;
    }
    fputc(']', f);
}

/* For an op standing for one output of a model operator (a SPLIT's
 * outputs become SLICEs that share its index): `, "part_of": {"op":
 * "SPLIT", "output": k}`, naming the model's operator and its output. */
static void json_part_of(FILE *f, const te_op *op)
{
    if (op->part_of)
        fprintf(f, ", \"part_of\": {\"op\": \"%s\", \"output\": %d}",
                te_opcode_name(op->part_opcode), op->part);
}

void cli_model_json(FILE *f, const char *path, const te_model *m)
{
    const te_graph *g = m->g;
    char from_step[32] = "";
    int i;
    fputs("{\n  \"model\": ", f);
    te_json_fputs(f, path);
    fprintf(f, ",\n  \"macs\": %lld,\n  \"weights_bytes\": %zu,\n  \"arena_bytes\": %zu,\n",
            (long long)te_model_macs(m), te_model_weights_bytes(m), m->plan->arena_bytes);
    {
        te_stack_bound sb = te_model_stack(m);
        fprintf(f, "  \"state_bytes\": %zu,\n  \"stack_bytes\": %zu,\n  \"stack_bytes_O0\": %zu,\n"
                   "  \"ram_bytes\": %zu,\n",
                m->plan->state_bytes, sb.opt, sb.o0,
                m->plan->arena_bytes + m->plan->state_bytes + sb.opt);
    }
    fprintf(f, "  \"flash\": {\"weights\": %zu, \"expanded_weights\": %lld, "
               "\"code_and_tables_estimate\": %lld, \"add_tables\": %lld, "
               "\"speed_kernels\": %lld},\n",
            te_model_weights_bytes(m), (long long)te_model_flash_extra(m),
            (long long)te_flash_code_estimate(m->g), (long long)te_flash_lut_bytes(m->g),
            (long long)(te_flash_dw_inline_bytes(m->g) + te_flash_gemm_inline_bytes(m->g) +
                        (te_flash_gemm_bytes(m->g) > te_model_flash_extra(m)
                             ? te_flash_gemm_bytes(m->g) - te_model_flash_extra(m)
                             : 0)));
    {
        te_buf rb = {0};
        te_plan_regions_json(&rb, m->plan);
        if (rb.len)
            fputs(rb.s, f);
        te_buf_free(&rb);
    }
    fprintf(f, "  \"lifetime_lower_bound_bytes\": %zu,\n", m->plan->bound_no_inplace);
    fprintf(f, "  \"live_peak_bytes\": %zu,\n", m->plan->lower_bound);
    if (g->patch && g->patch->lone) /* "ops": its length, from that step */
        snprintf(from_step, sizeof from_step, ", \"from_step\": %d", g->patch->first);
    if (g->patch)
        fprintf(f, "  \"patch\": {\"ops\": %d, \"grid\": [%d, %d], \"scratch_bytes\": %zu, "
                   "\"extra_macs\": %lld, \"extra_instructions_estimate\": %.0f, "
                   "\"instructions_layer_by_layer_estimate\": %.0f, \"code_bytes_estimate\": %lld, "
                   "\"flash_left\": %lld, \"flash_patch_allowance\": %lld, \"halo_cache\": %s%s},\n",
                g->patch->lone ? g->patch->n_ops : g->patch->first + g->patch->n_ops,
                g->patch->grid_h, g->patch->grid_w,
                g->patch->scratch_bytes,
                (long long)te_patch_extra_macs(g->patch),
                g->patch->patched_instructions - g->patch->stage_instructions,
                g->patch->model_instructions, (long long)g->patch->code_bytes,
                (long long)te_patch_flash_left(g), (long long)te_flash_patch_allowance(g),
                g->patch->cache ? "true" : "false", from_step);
    if (g->patch && g->patch->next) { /* a second stage (only then: one stage prints as before) */
        const te_patch_plan *s2 = g->patch->next;
        fprintf(f, "  \"patch_stage2\": {\"first\": %d, \"ops\": %d, \"grid\": [%d, %d], "
                   "\"scratch_bytes\": %zu, \"extra_macs\": %lld, \"halo_cache\": %s},\n",
                s2->first, s2->n_ops, s2->grid_h, s2->grid_w, s2->scratch_bytes,
                (long long)(s2->patched_macs - s2->stage_macs), s2->cache ? "true" : "false");
    }
    if (!g->patch)
        fprintf(f, "  \"patch\": null,\n");
    fprintf(f, "  \"inputs\": ");
    cli_json_tensor_list(f, g, g->inputs, g->n_inputs);
    fputs(",\n  \"outputs\": ", f);
    cli_json_tensor_list(f, g, g->outputs, g->n_outputs);
    fputs(",\n  \"operators\": [", f);
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        fprintf(f, "%s\n    {\"index\": %d, \"op\": \"%s\", \"dead\": %s, \"folded\": %s, "
                "\"macs\": %lld, \"inputs\": ",
                i ? "," : "", te_op_model_index(op), te_opcode_name(op->opcode),
                op->dead ? "true" : "false",
                cli_op_folded(g, op) ? "true" : "false", (long long)te_op_macs(g, op));
        cli_json_tensor_list(f, g, op->in, op->n_in);
        fputs(", \"outputs\": ", f);
        cli_json_tensor_list(f, g, op->out, op->n_out);
        json_part_of(f, op);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

