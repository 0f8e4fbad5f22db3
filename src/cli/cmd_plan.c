/* cmd_plan.c - `tinyengine plan MODEL [--svg FILE] [--json]`: the static
 * memory plan as a picture (SVG), as JSON, or as a short text summary. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "plan/patch.h"
#include "report/plan_json.h"
#include "report/plan_svg.h"
#include "report/plan_view.h"

static const char plan_usage[] = "usage: tinyengine plan MODEL.tflite [--svg FILE] [--json] [options]\n";

static void print_summary(FILE *f, const char *path, const te_model *m, const te_plan_view *v)
{
    const te_plan *p = v->p;
    const te_patch_plan *sp;
    int k;
    fprintf(f, "model: %s\n", path);
    fprintf(f, "arena bytes:     %zu\n", p->arena_bytes);
    cli_print_ram(f, m);
    fprintf(f, "live peak:       %zu", p->lower_bound);
    if (v->peak_step >= 0)
        fprintf(f, " at step %d: op %d (%s)", v->peak_step, p->schedule[v->peak_step],
                te_plan_view_step_type(v, v->peak_step));
    fputc('\n', f);
    fprintf(f, "lifetime bound:  %zu (layer by layer, nothing in place)\n", p->bound_no_inplace);
    for (sp = m->g->patch, k = 0; sp && k < TE_PATCH_MAX_STAGES; sp = sp->next, k++)
        if (p->stage_scratch[k] >= 0)
            fprintf(f, "%-17ssteps %d..%d, %d x %d patches, %zu bytes of working memory\n",
                    k ? "patch stage 2:" : "patch stage:", p->buffers[p->stage_scratch[k]].first,
                    p->buffers[p->stage_scratch[k]].last, sp->grid_h, sp->grid_w,
                    p->buffers[p->stage_scratch[k]].bytes);
    cli_print_patch_cost(f, m, "patch cost:      ");
    fprintf(f, "steps: %d, buffers: %d\n", p->n_steps, p->n_buffers);
}

/* The patch stages' steps (each working-memory buffer's lifetime), if any;
 * labels[k] holds stage k's label. */
static void patch_stages(const te_model *m, te_plan_svg_opts *o, char (*labels)[96])
{
    const te_plan *p = m->plan;
    const te_patch_plan *sp;
    int k;
    o->n_stages = 0;
    for (sp = m->g->patch, k = 0; sp && k < TE_PLAN_SVG_STAGES && k < TE_PATCH_MAX_STAGES;
         sp = sp->next, k++) {
        int b = p->stage_scratch[k];
        if (b < 0)
            continue;
        o->stage_first[o->n_stages] = p->buffers[b].first;
        o->stage_last[o->n_stages] = p->buffers[b].last;
        snprintf(labels[o->n_stages], 96, "patch stage%s: %d x %d patches%s", k ? " 2" : "",
                 sp->grid_h, sp->grid_w, sp->cache ? ", halo caching" : "");
        o->stage_label[o->n_stages] = labels[o->n_stages];
        o->n_stages++;
    }
}

static int write_svg(const char *file, const char *model, const te_model *m, const te_plan_view *v)
{
    te_buf b = {0};
    te_plan_svg_opts o;
    char labels[TE_PLAN_SVG_STAGES][96], title[512];
    const char *base = strrchr(model, '/');
    int rc;
    snprintf(title, sizeof title, "%s%s", base ? base + 1 : model,
             m->g->patch ? " with a patch-based first stage" : "");
    o.title = title;
    patch_stages(m, &o, labels);
    te_plan_svg(&b, v, &o);
    rc = b.oom ? cli_error("plan: out of memory writing the SVG") : cli_write_file(file, b.s, b.len);
    te_buf_free(&b);
    return rc ? 1 : 0;
}

static int print_json(const char *model, const te_plan_view *v)
{
    te_buf b = {0};
    int rc = 0;
    te_plan_json(&b, v, model);
    if (b.oom)
        rc = cli_error("plan: out of memory writing the JSON");
    else
        fputs(b.s, stdout);
    te_buf_free(&b);
    return rc;
}

static int report(const char *model, te_model *m, const char *svg, int json, int quiet,
                  double started)
{
    te_plan_view v;
    int rc = 0;
    if (te_plan_view_build(&v, m->g, m->plan) < 0)
        return cli_error("plan: out of memory");
    if (svg)
        rc = write_svg(svg, model, m, &v);
    if (!rc && json)
        rc = print_json(model, &v);
    if (!rc && !svg && !json)
        print_summary(stdout, model, m, &v);
    if (!rc && !json && !quiet) {
        char what[4200];
        snprintf(what, sizeof what, "planned%s%s", svg ? ", wrote " : "", svg ? svg : "");
        cli_summary(stdout, what, m, started);
    }
    te_plan_view_free(&v);
    return rc;
}

int cmd_plan(int argc, char **argv)
{
    const char *model = NULL, *svg = NULL;
    te_compile_opts opts = TE_COMPILE_OPTS_DEFAULT;
    int json = 0, quiet = 0, i, opt, rc;
    double started = cli_now();
    te_model *m;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(plan_usage, stdout);
            fputs("  --svg FILE          write the plan as a picture: x = operator, y = arena\n"
                  "                      address, one rectangle per buffer, live bytes below\n"
                  "  --json              print arena, bounds, live bytes per step and buffers\n"
                  "  --quiet             no summary (RAM, flash, MACs, slowest layers, time)\n",
                  stdout);
            fputs(cli_compile_options_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--svg")) {
            if (++i >= argc)
                return cli_error("plan: --svg needs a file name");
            svg = argv[i];
        } else if ((opt = cli_compile_option(argc, argv, &i, &opts)) != 0) {
            if (opt < 0)
                return 1;
        } else if (argv[i][0] == '-') {
            return cli_error("plan: unknown option '%s'", argv[i]);
        } else if (!model) {
            model = argv[i];
        } else {
            return cli_error("plan: more than one model given ('%s')", argv[i]);
        }
    }
    if (!model)
        return cli_error("plan: need a model (%.*s)", (int)strlen(plan_usage) - 1, plan_usage);
    m = cli_load_opts(model, &opts);
    if (!m)
        return 1;
    rc = report(model, m, svg, json, quiet, started);
    te_model_free(m);
    return rc;
}
