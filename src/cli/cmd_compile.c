/* cmd_compile.c - `tinyengine compile MODEL -o DIR [--name NAME] [--target T]`. */
#include <stdio.h>
#include <string.h>

#include "../codegen/codegen.h"
#include "cli.h"

static const char *help =
    "usage: tinyengine compile MODEL.tflite -o DIR [--name NAME] [--target T]\n"
    "Writes DIR/NAME.h and DIR/NAME.c: compile every .c in DIR with your firmware.\n"
    "  -o DIR       output directory (created if missing)\n"
    "  --name NAME  C prefix of every generated symbol (default: model file name)\n"
    "  --target T   generic (default), cortex-m0plus, cortex-m4 or cortex-m7\n"
    "               (today the same portable C for all; named in the file comments)\n";

static const char *const targets[] = {"generic", "cortex-m0plus", "cortex-m4", "cortex-m7", NULL};

static int known_target(const char *t)
{
    int i;
    for (i = 0; targets[i]; i++)
        if (!strcmp(t, targets[i]))
            return 1;
    return 0;
}

/* Like cli_generate, with the target named in the generated files' comments. */
static int generate_for(te_model *m, const char *model, const char *name, const char *dir,
                        const char *target)
{
    te_buf h = {0}, c = {0};
    te_diag d = {{0}, 0};
    char desc[600], path[4096];
    const char *base = strrchr(model, '/');
    int rc = -1;
    snprintf(desc, sizeof desc, "%s for %s", base ? base + 1 : model, target);
    if (te_model_generate(m, name, desc, &h, &c, &d) < 0)
        cli_error("%s: %s", model, d.msg);
    else if (cli_mkdirs(dir) == 0 && snprintf(path, sizeof path, "%s/%s.h", dir, name) > 0 &&
             cli_write_file(path, h.s, h.len) == 0 &&
             snprintf(path, sizeof path, "%s/%s.c", dir, name) > 0 &&
             cli_write_file(path, c.s, c.len) == 0)
        rc = 0;
    te_buf_free(&h);
    te_buf_free(&c);
    return rc;
}

int cmd_compile(int argc, char **argv)
{
    const char *model = NULL, *dir = NULL, *name_opt = NULL, *target = "generic";
    char name[128];
    te_compile_opts opts = TE_COMPILE_OPTS_DEFAULT;
    te_model *m;
    int i, rc, opt;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            fputs(cli_compile_options_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            dir = argv[++i];
        } else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
            name_opt = argv[++i];
        } else if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            target = argv[++i];
            if (!known_target(target))
                return cli_error("compile: unknown --target '%s' (generic, cortex-m0plus, "
                                 "cortex-m4, cortex-m7)", target);
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
    if (!strcmp(target, "generic"))
        rc = cli_generate(m, model, name, dir) < 0 ? 1 : 0;
    else
        rc = generate_for(m, model, name, dir, target) < 0 ? 1 : 0;
    te_model_free(m);
    return rc;
}
