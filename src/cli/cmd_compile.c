/* cmd_compile.c - `tinyengine compile MODEL -o DIR [--name NAME] [options]`. */
#include <stdio.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "cli.h"

static const char *help =
    "usage: tinyengine compile MODEL.tflite -o DIR [--name NAME] [options]\n"
    "Writes DIR/NAME.h and DIR/NAME.c: compile every .c in DIR with your firmware.\n"
    "  -o DIR              output directory (created if missing)\n"
    "  --name NAME         C prefix of every generated symbol (default: model file name)\n"
    "  --quiet             print nothing on success (default: a summary: RAM = arena +\n"
    "                      state + stack, flash estimate, MACs, slowest layers, time)\n";

int cmd_compile(int argc, char **argv)
{
    const char *model = NULL, *dir = NULL, *name_opt = NULL;
    char name[128];
    te_compile_opts opts = TE_COMPILE_OPTS_DEFAULT;
    te_model *m;
    int i, rc, opt, quiet = 0;
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
        } else if ((opt = cli_compile_option(argc, argv, &i, &opts)) != 0) {
            if (opt < 0)
                return 1;
        } else if (argv[i][0] == '-') {
            return cli_error("compile: unknown or incomplete option '%s'", argv[i]);
        } else if (!model) {
            model = argv[i];
        } else {
            return cli_error("compile: more than one model given ('%s')", argv[i]);
        }
    }
    if (!model || !dir) {
        fputs(help, stderr);
        return cli_error("compile: need a model and -o DIR");
    }
    if (name_opt) {
        te_c_identifier(name_opt, name, sizeof name);
        if (strcmp(name, name_opt) != 0)
            return cli_error("compile: --name '%s' is not a valid C identifier", name_opt);
    } else {
        cli_default_name(model, name, sizeof name);
    }
    m = cli_load_opts(model, &opts);
    if (!m)
        return 1;
    rc = cli_generate(m, model, name, dir) < 0 ? 1 : 0;
    if (rc == 0 && !quiet) {
        char what[4400];
        snprintf(what, sizeof what, "wrote %s/%s.h and %s.c", dir, name, name);
        cli_summary(stdout, what, m, started);
    }
    te_model_free(m);
    return rc;
}
