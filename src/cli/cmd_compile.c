/* cmd_compile.c - `tinyengine compile MODEL... -o DIR [--name NAME[,NAME...]]
 * [--lib LIB] [options]`: one model, or a library of several that share one
 * arena and one copy of each kernel (cli_library.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "cli.h"

#define MAX_MODELS 256

static const char *help =
    "usage: tinyengine compile MODEL.tflite -o DIR [--name NAME] [options]\n"
    "       tinyengine compile A.tflite B.tflite ... -o DIR [--name A,B,...] [--lib LIB] [options]\n"
    "Writes DIR/NAME.h and DIR/NAME.c: compile every .c in DIR with your firmware.\n"
    "With several models (or --lib), one library: each model's NAME.h (its API, as\n"
    "for one model) and NAME.c, plus DIR/LIB.h and DIR/LIB.c with each kernel the\n"
    "models call, once, and one arena they share, LIB_arena: LIB_ARENA_BYTES is the\n"
    "largest of their arenas, not the sum.  Invoke the models one after the other,\n"
    "never concurrently; an invoke overwrites the others' inputs and outputs; each\n"
    "model's persistent state (LSTM/SVDF) is its own and survives.  The options\n"
    "apply to every model.\n"
    "  -o DIR              output directory (created if missing)\n"
    "  --name NAME[,NAME]  C prefix of every generated symbol, one per model in order\n"
    "                      (default: the model file's name)\n"
    "  --lib LIB           the library's name: LIB.h, LIB.c, LIB_arena (default te_models;\n"
    "                      given with one model, makes a library of one)\n"
    "  --quiet             print nothing on success (default: a summary: RAM = arena +\n"
    "                      state + stack, flash estimate, MACs, slowest layers, time)\n"
    "  --report FILE       also write FILE: the compiled model as `info --json` prints\n"
    "                      it (same plan: no second --patch search); one model only\n";

/* names[i] from --name's comma-separated list, else from the file names. */
static int model_names(const char *name_opt, const char *const *models, int n,
                       char names[][128])
{
    int i, j;
    const char *p = name_opt;
    for (i = 0; i < n; i++) {
        if (name_opt) {
            const char *end = p ? strchr(p, ',') : NULL;
            size_t len = p ? (end ? (size_t)(end - p) : strlen(p)) : 0;
            char given[128];
            if (!p || len == 0 || len >= sizeof given)
                return cli_error("compile: --name needs one name per model (%d), comma-separated", n);
            memcpy(given, p, len);
            given[len] = '\0';
            te_c_identifier(given, names[i], sizeof names[i]);
            if (strcmp(names[i], given) != 0)
                return cli_error("compile: --name '%s' is not a valid C identifier", given);
            p = end ? end + 1 : NULL;
        } else {
            cli_default_name(models[i], names[i], sizeof names[i]);
        }
        for (j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return cli_error("compile: two models named '%s': give --name A,B,...", names[i]);
    }
    if (name_opt && p)
        return cli_error("compile: --name gives more names than models (%d)", n);
    return 0;
}

/* The JSON report of m into path (--report); 0, or 1 (reported). */
static int write_report(const char *path, const char *model, const te_model *m)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cli_error("compile: cannot write --report %s: %s", path, strerror(errno));
    cli_model_json(f, model, m);
    if (fclose(f) != 0)
        return cli_error("compile: cannot write --report %s: %s", path, strerror(errno));
    return 0;
}

static int compile_one(const char *model, const char *name, const char *dir,
                       const te_compile_opts *opts, const char *report, int quiet,
                       double started)
{
    te_model *m = cli_load_opts(model, opts);
    int rc;
    if (!m)
        return 1;
    rc = cli_generate(m, model, name, dir) < 0 ? 1 : 0;
    if (rc == 0 && report)
        rc = write_report(report, model, m);
    if (rc == 0 && !quiet) {
        char what[4400];
        snprintf(what, sizeof what, "wrote %s/%s.h and %s.c", dir, name, name);
        cli_summary(stdout, what, m, started);
    }
    te_model_free(m);
    return rc;
}

int cmd_compile(int argc, char **argv)
{
    static const char *models[MAX_MODELS];
    static char names[MAX_MODELS][128];
    const char *dir = NULL, *name_opt = NULL, *lib = NULL, *report = NULL;
    te_compile_opts opts = TE_COMPILE_OPTS_DEFAULT;
    int i, opt, quiet = 0, n = 0;
    double started = cli_now();
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            fputs(cli_compile_options_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            dir = argv[++i];
        } else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
            name_opt = argv[++i];
        } else if (!strcmp(argv[i], "--lib") && i + 1 < argc) {
            lib = argv[++i];
        } else if (!strcmp(argv[i], "--report") && i + 1 < argc) {
            report = argv[++i];
        } else if ((opt = cli_compile_option(argc, argv, &i, &opts)) != 0) {
            if (opt < 0)
                return 1;
        } else if (argv[i][0] == '-') {
            return cli_error("compile: unknown or incomplete option '%s'", argv[i]);
        } else if (n == MAX_MODELS) {
            return cli_error("compile: at most %d models in one library", MAX_MODELS);
        } else {
            models[n++] = argv[i];
        }
    }
    if (!n || !dir) {
        fputs(help, stderr);
        return cli_error("compile: need a model and -o DIR");
    }
    if (model_names(name_opt, models, n, names) != 0)
        return 1;
    if (n == 1 && !lib)
        return compile_one(models[0], names[0], dir, &opts, report, quiet, started);
    if (report)
        return cli_error("compile: --report takes one model (a library has no single plan)");
    return cli_compile_library(models, names, n, lib ? lib : "te_models", dir, &opts, quiet,
                               started);
}
