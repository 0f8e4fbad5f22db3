/* cmd_profile.c - `tinyengine profile MODEL... [--json]`: the library's
 * profile report (include/tinyengine.h) per model: per layer shapes, MACs,
 * weights, live SRAM, kernel variant and estimated instructions; totals
 * with peak SRAM (with and without patches), flash and latency.  Several
 * models or folders of .tflite files are profiled in one process; with
 * --json they make one JSON array. */
#define _POSIX_C_SOURCE 200809L /* opendir, readdir */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../ir/target.h"
#include "../report/json_text.h"
#include "cli.h"
#include "tinyengine.h"

static const char profile_usage[] =
    "usage: tinyengine profile MODEL.tflite|DIR ... [--target T] [--mhz N] [--cpi X] [--json]\n"
    "                          [options]\n"
    "Loads and plans each model (no code generation) and prints per layer the operator,\n"
    "kernel variant, MACs, weights, live SRAM and estimated instructions, and the totals:\n"
    "peak SRAM with and without patches, flash (constants + code) and the estimated\n"
    "latency.  Instructions come from the cost model of the target (docs/cost-model.md).\n"
    "A DIR stands for every .tflite file in it.  With --json: one JSON object, or an\n"
    "array of them for several models (schema: docs/profile-json.md).\n"
    "  --mhz N             clock of the latency estimate (default 120)\n"
    "  --cpi X             cycles per instruction of the latency estimate (default 1)\n"
    "  --json              print JSON\n";

typedef struct {
    te_config cfg;
    char patch[64];
    int json;
    char **models;
    int n_models, cap_models;
} profile_args;

static int add_model(profile_args *a, const char *path)
{
    char **nm;
    if (a->n_models == a->cap_models) {
        int cap = a->cap_models ? 2 * a->cap_models : 16;
        nm = realloc(a->models, sizeof *nm * (size_t)cap);
        if (!nm)
            return cli_error("profile: out of memory");
        a->models = nm;
        a->cap_models = cap;
    }
    if (!(a->models[a->n_models] = malloc(strlen(path) + 1)))
        return cli_error("profile: out of memory");
    strcpy(a->models[a->n_models++], path);
    return 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every .tflite file in dir, in name order. */
static int add_dir(profile_args *a, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int first = a->n_models, rc = 0;
    char path[4096];
    if (!d)
        return cli_error("profile: cannot read folder %s", dir);
    while (rc == 0 && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        size_t dl = strlen(dir);
        while (dl > 1 && dir[dl - 1] == '/')
            dl--;
        if (n > 7 && !strcmp(e->d_name + n - 7, ".tflite") &&
            snprintf(path, sizeof path, "%.*s/%s", (int)dl, dir, e->d_name) < (int)sizeof path)
            rc = add_model(a, path);
    }
    closedir(d);
    if (rc == 0 && a->n_models == first)
        return cli_error("profile: no .tflite files in %s", dir);
    qsort(a->models + first, (size_t)(a->n_models - first), sizeof *a->models, cmp_str);
    return rc;
}

static int add_path(profile_args *a, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return add_dir(a, path);
    return add_model(a, path);
}

static int parse_number(const char *opt, const char *s, double *v)
{
    char *end;
    *v = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || !(*v > 0 && *v < 1e6))
        return cli_error("profile: %s takes a positive number", opt);
    return 0;
}

/* The compile options, parsed by the CLI's own parser, as the API's config. */
static void to_config(const te_compile_opts *o, profile_args *a)
{
    a->cfg.target = te_target_name(o->target);
    a->cfg.int8_io = o->int8_io;
    a->cfg.sram_limit = o->sram_limit;
    a->cfg.flash_limit = o->flash_limit;
    if (o->patch.mode == TE_PATCH_AUTO)
        a->cfg.patch = "auto";
    else if (o->patch.mode == TE_PATCH_EXPLICIT) {
        te_patch_opts_format(&o->patch, a->patch, sizeof a->patch);
        a->cfg.patch = a->patch;
    }
    a->cfg.max_recompute_pct = o->patch.max_recompute > 0 ? o->patch.max_recompute * 100 : -1;
}

static int parse_args(int argc, char **argv, profile_args *a)
{
    te_compile_opts o = TE_COMPILE_OPTS_DEFAULT;
    int i, opt;
    for (i = 1; i < argc; i++) {
        const char *s = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(profile_usage, stdout);
            fputs(cli_compile_options_help, stdout);
            exit(0);
        } else if (!strcmp(s, "--json")) {
            a->json = 1;
        } else if (!strcmp(s, "--mhz") || !strcmp(s, "--cpi")) {
            if (parse_number(s, next, s[2] == 'm' ? &a->cfg.mhz : &a->cfg.cpi))
                return 1;
            i++;
        } else if ((opt = cli_compile_option(argc, argv, &i, &o)) != 0) {
            if (opt < 0)
                return 1;
        } else if (s[0] == '-') {
            return cli_error("profile: unknown option '%s'", s);
        } else if (add_path(a, s)) {
            return 1;
        }
    }
    if (a->n_models == 0)
        return cli_error("profile: need a model (%.*s)", (int)strlen(profile_usage) - 1,
                         profile_usage);
    if (cli_check_options(&o) != 0)
        return 1;
    to_config(&o, a);
    return 0;
}

static void print_shape(const te_tensor_info *t, int n)
{
    int i, r;
    for (i = 0; i < n; i++) {
        printf("%s", i ? "," : "");
        for (r = 0; r < t[i].rank; r++)
            printf("%s%d", r ? "x" : "", t[i].shape[r]);
    }
}

/* A note for the layers that run in WHILE loops: their costs are per
 * iteration. */
static void print_loops(const te_report *r)
{
    int i, first = -1;
    for (i = 0; i <= r->n_layers; i++) {
        const te_layer_report *l = i < r->n_layers ? &r->layers[i] : NULL;
        if (first >= 0 && (!l || l->loop != r->layers[first].loop)) {
            printf("loop:                ops %d..%d run in the loop of WHILE op %d: their "
                   "estimates and the totals count one iteration (trip count unknown at "
                   "compile time)\n", r->layers[first].index, r->layers[i - 1].index,
                   r->layers[first].loop - 1);
            first = -1;
        }
        if (l && l->loop && first < 0)
            first = i;
    }
}

static void print_text(const char *path, const te_report *r)
{
    int i;
    printf("model: %s (target %s, cost model %s, %.0f MHz, %.2f cycles/instruction)\n", path,
           r->target, r->cost_model, r->mhz, r->cpi);
    printf("%4s  %-22s %-32s %11s %9s %9s %13s  %s\n", "#", "operator", "kernel", "MACs",
           "weights", "live B", "est. instr", "output");
    for (i = 0; i < r->n_layers; i++) {
        const te_layer_report *l = &r->layers[i];
        printf("%4d  %-22s %-32s %11lld %9zu %9zu %13.0f  ", l->index, l->op, l->kernel, l->macs,
               l->weights_bytes, l->live_bytes, l->instructions);
        print_shape(l->outputs, l->n_outputs);
        printf("%s%s\n", l->patched ? " (patched)" : "", l->loop ? " (per iteration)" : "");
    }
    printf("MACs:                %lld\n", r->macs);
    printf("peak SRAM (arena):   %zu bytes (without patches %zu, layer-by-layer bound %zu)\n",
           r->peak_sram_bytes, r->peak_sram_bytes_no_patch, r->lifetime_bound_bytes);
    printf("RAM:                 %zu bytes (arena %zu, state %zu, stack %zu; stack at -O0 %zu)\n",
           r->ram_bytes, r->peak_sram_bytes, r->state_bytes, r->stack_bytes, r->stack_bytes_O0);
    printf("flash (estimate):    %zu bytes (weights %zu, other constants %zu, code %zu)\n",
           r->flash_bytes, r->weights_bytes, r->const_bytes - r->weights_bytes, r->code_bytes);
    printf("instructions (est.): %.0f\n", r->instructions);
    printf("latency (est.):      %.3f ms at %.0f MHz\n", r->latency_ms, r->mhz);
    print_loops(r);
}

/* One model: its JSON object (or an error object) or its text report. */
static int profile_one(const profile_args *a, const char *path, int index)
{
    char err[512];
    te_report *r = te_profile_file(path, &a->cfg, err, sizeof err);
    char *js;
    if (a->json && a->n_models > 1)
        fputs(index ? ",\n" : "[\n", stdout);
    if (!r) {
        cli_error("%s: %s", path, err);
        if (a->json && a->n_models > 1) {
            fputs("{\"model\": ", stdout);
            te_json_fputs(stdout, path);
            fputs(", \"error\": ", stdout);
            te_json_fputs(stdout, err);
            fputs("}\n", stdout);
        }
        return 1;
    }
    if (!a->json) {
        print_text(path, r);
    } else if ((js = te_report_json(r, path)) != NULL) {
        fputs(js, stdout);
        te_free(js);
    } else {
        te_report_free(r);
        return cli_error("profile: out of memory");
    }
    te_report_free(r);
    return 0;
}

int cmd_profile(int argc, char **argv)
{
    profile_args a;
    int i, rc;
    memset(&a, 0, sizeof a);
    rc = parse_args(argc, argv, &a);
    if (rc == 0) {
        for (i = 0; i < a.n_models; i++) {
            if (!a.json && i)
                putchar('\n');
            rc |= profile_one(&a, a.models[i], i);
        }
        if (a.json && a.n_models > 1)
            fputs("]\n", stdout);
    }
    for (i = 0; i < a.n_models; i++)
        free(a.models[i]);
    free(a.models);
    return rc;
}
