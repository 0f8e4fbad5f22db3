/* cmd_info.c - `tinyengine info MODEL [--json]`: the operators in execution
 * order with shapes, types, quantization and MACs, and the model totals.
 * A model with operators we do not compile still gets its operator list,
 * those marked "(unsupported)", before the error line (exit status 1). */
#include <stdio.h>
#include <string.h>

#include "../frontend/tflite_reader.h"
#include "../ops/ops.h"
#include "../plan/patch.h"
#include "../report/json_text.h"
#include "../report/plan_json.h"
#include "../ops/flash_budget.h"
#include "../ops/lowering.h"
#include "cli.h"

static void shape_text(FILE *f, const te_tensor *t, const char *open, const char *sep,
                       const char *close)
{
    int r;
    fputs(open, f);
    for (r = 0; r < t->rank; r++)
        fprintf(f, "%s%d", r ? sep : "", t->shape[r]);
    fputs(close, f);
}

static void text_tensors(FILE *f, const te_graph *g, const int *ids, int n)
{
    int i, first = 1;
    for (i = 0; i < n; i++) {
        const te_tensor *t;
        if (ids[i] < 0 || g->tensors[ids[i]].data)
            continue;
        t = &g->tensors[ids[i]];
        fprintf(f, "%s%s", first ? "" : " ", te_dtype_name(t->type));
        shape_text(f, t, "[", "x", "]");
        if (t->q.count >= 1)
            fprintf(f, "(s=%.4g,zp=%lld)", (double)t->q.scale[0], (long long)t->q.zero_point[0]);
        first = 0;
    }
}

/* The operators written over their input row by row (te_lowering.
 * inplace_band): the band of input rows each keeps in scratch and the bytes
 * it copies per inference (each output row's band written once); one line,
 * none without them. */
static void print_band_rows(FILE *f, const te_model *m)
{
    const te_graph *g = m->g;
    int i, n = 0;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        const te_lowering *l = op->dead ? NULL : te_lowered_find(m->low, g, op);
        if (!l || !l->inplace_band)
            continue;
        fprintf(f, "%s op %d (band %zu bytes, copies %lld)", n++ ? "," : "in place by rows:",
                te_op_model_index(op), l->inplace_band,
                (long long)l->inplace_band * g->tensors[op->out[0]].shape[1]);
    }
    if (n)
        fputc('\n', f);
}

static void print_text(FILE *f, const char *path, const te_model *m)
{
    const te_graph *g = m->g;
    int i;
    fprintf(f, "model: %s\n", path);
    fprintf(f, "%4s  %-24s %12s  %s\n", "#", "operator", "MACs", "inputs -> outputs");
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        fprintf(f, "%4d  %-24s %12lld  ", te_op_model_index(op), te_opcode_name(op->opcode),
                (long long)te_op_macs(g, op));
        text_tensors(f, g, op->in, op->n_in);
        fputs(" -> ", f);
        text_tensors(f, g, op->out, op->n_out);
        fputs(cli_op_folded(g, op) ? "  (folded: a constant at compile time)\n"
                            : op->dead ? "  (dead: removed)\n" : "\n", f);
    }
    fprintf(f, "total MACs:      %lld\n", (long long)te_model_macs(m));
    fprintf(f, "weights bytes:   %zu\n", te_model_weights_bytes(m));
    {
        /* the trades: int16 copies (as lowered), ADD/SUB tables, inlined kernels */
        const long long luts = (long long)te_flash_lut_bytes(g);
        const long long gemm_code = (long long)(te_flash_gemm_bytes(g) - te_model_flash_extra(m));
        const long long inl = (long long)(te_flash_dw_inline_bytes(g) +
                                          te_flash_gemm_inline_bytes(g)) +
                              (gemm_code > 0 ? gemm_code : 0);
        fprintf(f, "flash (estimate): %lld bytes: weights %zu, int16 weight copies %lld, code and "
                   "tables ~%lld, ADD tables %lld, kernels for speed ~%lld%s\n",
                (long long)(te_model_weights_bytes(m) + te_model_flash_extra(m) +
                            te_flash_code_estimate(g)) + luts + inl,
                te_model_weights_bytes(m), (long long)te_model_flash_extra(m),
                (long long)te_flash_code_estimate(g), luts, inl,
                g->flash_limit ? " (within --flash-limit)" : "");
    }
    fprintf(f, "arena bytes:     %zu\n", m->plan->arena_bytes);
    cli_print_regions(f, m, "memory region:   ");
    cli_print_ram(f, m);
    fprintf(f, "lifetime bound:  %zu (layer by layer, nothing in place)\n",
            m->plan->bound_no_inplace);
    print_band_rows(f, m);
    if (g->patch) {
        if (g->patch->lone)
            fprintf(f, "patch stage:     %d operators from step %d", g->patch->n_ops, g->patch->first);
        else
            fprintf(f, "patch stage:     first %d operators", g->patch->first + g->patch->n_ops);
        fprintf(f, ", %dx%d patches%s, %zu bytes per patch, %lld extra MACs (+%.1f%%)\n",
                g->patch->grid_h, g->patch->grid_w,
                g->patch->cache ? " with halo caching" : "", g->patch->scratch_bytes,
                (long long)(g->patch->patched_macs - g->patch->stage_macs),
                100.0 * (double)(g->patch->patched_macs - g->patch->stage_macs) /
                    (double)(te_model_macs(m) ? te_model_macs(m) : 1));
        if (g->patch->next) {
            const te_patch_plan *s2 = g->patch->next;
            fprintf(f, "patch stage 2:   %d operators from step %d, %dx%d patches%s, %zu bytes "
                       "per patch, %lld extra MACs (+%.1f%%)\n",
                    s2->n_ops, s2->first, s2->grid_h, s2->grid_w,
                    s2->cache ? " with halo caching" : "", s2->scratch_bytes,
                    (long long)(s2->patched_macs - s2->stage_macs),
                    100.0 * (double)(s2->patched_macs - s2->stage_macs) /
                        (double)(te_model_macs(m) ? te_model_macs(m) : 1));
        }
        cli_print_patch_cost(f, m, "patch cost:      ");
    }
}

/* ------------------------------------------- models we cannot compile */

static int unsupported(const te_op *op) { return te_op_find(op->opcode) == NULL; }

static void op_label(char *buf, size_t n, const te_op *op)
{
    if (op->custom_name)
        snprintf(buf, n, "%s '%s'", te_opcode_name(op->opcode), op->custom_name);
    else
        snprintf(buf, n, "%s", te_opcode_name(op->opcode));
}

/* The operators of a model that failed validation because of unsupported
 * ones, as the reader gave them (no MACs: nothing was checked). */
static void print_text_unsupported(FILE *f, const char *path, const te_graph *g)
{
    char label[96];
    int i;
    fprintf(f, "model: %s\n", path);
    fprintf(f, "%4s  %-24s %12s  %s\n", "#", "operator", "MACs", "inputs -> outputs");
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        op_label(label, sizeof label, op);
        fprintf(f, "%4d  %-24s %12s  ", op->index, label, "-");
        text_tensors(f, g, op->in, op->n_in);
        fputs(" -> ", f);
        text_tensors(f, g, op->out, op->n_out);
        fputs(unsupported(op) ? "  (unsupported)\n" : "\n", f);
    }
}

static void print_json_unsupported(FILE *f, const char *path, const te_graph *g,
                                   const char *error)
{
    int i;
    fputs("{\n  \"model\": ", f);
    te_json_fputs(f, path);
    fputs(",\n  \"error\": ", f);
    te_json_fputs(f, error);
    fputs(",\n  \"operators\": [", f);
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        fprintf(f, "%s\n    {\"index\": %d, \"op\": \"%s\", ", i ? "," : "", op->index,
                te_opcode_name(op->opcode));
        if (op->custom_name) {
            fputs("\"custom\": ", f);
            te_json_fputs(f, op->custom_name);
            fputs(", ", f);
        }
        fprintf(f, "\"supported\": %s, \"inputs\": ", unsupported(op) ? "false" : "true");
        cli_json_tensor_list(f, g, op->in, op->n_in);
        fputs(", \"outputs\": ", f);
        cli_json_tensor_list(f, g, op->out, op->n_out);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

/* When the model reads but does not compile: lists its operators with the
 * unsupported ones marked if it has any, then reports the error; exit 1. */
static int info_failed(const char *path, int json, const te_diag *d)
{
    te_diag rd = {{0}, 0};
    te_graph *g = te_load_tflite_file(path, &rd);
    int i, any = 0;
    for (i = 0; g && i < g->n_ops; i++)
        any |= unsupported(&g->ops[i]);
    if (any && json)
        print_json_unsupported(stdout, path, g, d->msg);
    else if (any)
        print_text_unsupported(stdout, path, g);
    fflush(stdout);
    te_graph_free(g);
    return cli_error("%s: %s", path, d->failed ? d->msg : "cannot load model");
}

int cmd_info(int argc, char **argv)
{
    const char *model = NULL;
    te_compile_opts opts = TE_COMPILE_OPTS_DEFAULT;
    te_diag d = {{0}, 0};
    int json = 0, i, opt;
    te_model *m;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs("usage: tinyengine info MODEL.tflite [--json] [options]\n", stdout);
            fputs(cli_compile_options_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if ((opt = cli_compile_option(argc, argv, &i, &opts)) != 0) {
            if (opt < 0)
                return 1;
        } else if (argv[i][0] == '-') {
            return cli_error("info: unknown option '%s'", argv[i]);
        } else if (!model) {
            model = argv[i];
        } else {
            return cli_error("info: more than one model given ('%s')", argv[i]);
        }
    }
    if (!model)
        return cli_error("info: need a model (usage: tinyengine info MODEL.tflite [--json])");
    if (cli_check_options(&opts) != 0)
        return 1;
    m = te_model_load_file(model, &opts, &d);
    if (!m)
        return info_failed(model, json, &d);
    if (json)
        cli_model_json(stdout, model, m);
    else
        print_text(stdout, model, m);
    te_model_free(m);
    return 0;
}
