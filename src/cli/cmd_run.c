/* cmd_run.c - `tinyengine run`: compile the model, build it with the host C
 * compiler together with a small harness, run one inference on the given
 * input files and write the outputs (and, on request, every layer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../ir/target.h"

/* 1 when the code of target x86-64-v3 can run on this machine. */
static int host_has_avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

#define MAX_INPUTS 16

/* The harness uses only the generated API; TE_MODEL names the model. */
static const char harness_c[] =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "#include TE_MODEL_HEADER\n"
    "#define TE_CAT2(a, b) a##_##b\n#define TE_CAT(a, b) TE_CAT2(a, b)\n"
    "#define API(x) TE_CAT(TE_MODEL, x)\n"
    "static const char *layer_dir;\n"
    "void te_run_layer_hook(int op, int output, const void *data, size_t bytes);\n"
    "void te_run_layer_hook(int op, int output, const void *data, size_t bytes)\n{\n"
    "    char path[4096];\n    FILE *f;\n    if (!layer_dir) return;\n"
    "    snprintf(path, sizeof path, \"%s/op%03d_%d.bin\", layer_dir, op, output);\n"
    "    f = fopen(path, \"wb\");\n"
    "    if (!f || fwrite(data, 1, bytes, f) != bytes) { fprintf(stderr, \"cannot write %s\\n\", path); exit(1); }\n"
    "    fclose(f);\n}\n"
    "int main(int argc, char **argv)\n{\n"
    "    int i;\n    char path[4096];\n"
    "    if (argc != 3 + API(num_inputs)()) { fprintf(stderr, \"harness: bad arguments\\n\"); return 1; }\n"
    "    layer_dir = strcmp(argv[2], \"-\") ? argv[2] : NULL;\n"
    "    for (i = 0; i < API(num_inputs)(); i++) {\n"
    "        FILE *f = fopen(argv[3 + i], \"rb\");\n"
    "        size_t n = API(input_bytes)(i);\n"
    "        if (!f || fread(API(input)(i), 1, n, f) != n || fgetc(f) != EOF) {\n"
    "            fprintf(stderr, \"cannot read %zu bytes from %s\\n\", n, argv[3 + i]); return 1; }\n"
    "        fclose(f);\n    }\n"
    "    if (API(invoke)() != 0) { fprintf(stderr, \"invoke failed\\n\"); return 1; }\n"
    "    for (i = 0; i < API(num_outputs)(); i++) {\n"
    "        FILE *f;\n"
    "        snprintf(path, sizeof path, \"%s/output_%d.bin\", argv[1], i);\n"
    "        f = fopen(path, \"wb\");\n"
    "        if (!f || fwrite(API(output)(i), 1, API(output_bytes)(i), f) != API(output_bytes)(i)) {\n"
    "            fprintf(stderr, \"cannot write %s\\n\", path); return 1; }\n"
    "        fclose(f);\n    }\n    return 0;\n}\n";

static const char *help =
    "usage: tinyengine run MODEL.tflite --input FILE [--input FILE ...] -o DIR\n"
    "                      [--dump-layers LDIR] [--keep-build]\n"
    "Compiles the model, builds it with the host C compiler ($CC, default cc;\n"
    "extra flags from $TE_CFLAGS, default -O2), runs one inference on the raw input\n"
    "files (one per model input, exact tensor bytes) and writes DIR/output_<i>.bin.\n"
    "  --dump-layers LDIR  also write every operator output as LDIR/op<NNN>_<j>.bin\n"
    "  --keep-build        keep the temporary build folder and print its path\n";

typedef struct {
    te_compile_opts opts;
    const char *model, *out_dir, *layer_dir;
    const char *inputs[MAX_INPUTS];
    int n_inputs, keep;
} run_args;

static int parse_args(int argc, char **argv, run_args *a)
{
    int i, opt;
    memset(a, 0, sizeof *a);
    a->opts = (te_compile_opts)TE_COMPILE_OPTS_DEFAULT;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            fputs(cli_compile_options_help, stdout);
            exit(0);
        } else if (!strcmp(argv[i], "--input") && i + 1 < argc) {
            if (a->n_inputs == MAX_INPUTS)
                return cli_error("run: more than %d inputs", MAX_INPUTS);
            a->inputs[a->n_inputs++] = argv[++i];
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            a->out_dir = argv[++i];
        } else if (!strcmp(argv[i], "--dump-layers") && i + 1 < argc) {
            a->layer_dir = argv[++i];
        } else if (!strcmp(argv[i], "--keep-build")) {
            a->keep = 1;
        } else if ((opt = cli_compile_option(argc, argv, &i, &a->opts)) != 0) {
            if (opt < 0)
                return 1;
        } else if (argv[i][0] == '-') {
            return cli_error("run: unknown or incomplete option '%s'", argv[i]);
        } else if (!a->model) {
            a->model = argv[i];
        } else {
            return cli_error("run: more than one model given ('%s')", argv[i]);
        }
    }
    if (!a->model || !a->out_dir) {
        fputs(help, stderr);
        return cli_error("run: need a model, --input FILE and -o DIR");
    }
    if (te_target_has_avx2(a->opts.target) && !host_has_avx2())
        return cli_error("run: this CPU has no AVX2: code for target x86-64-v3 cannot run here "
                         "(use --target generic)");
    return 0;
}

/* snprintf that reports truncation (paths longer than the buffer). */
#define PATH_TOO_LONG (cli_error("run: path too long"), -1)
#define FMT(buf, ...) (snprintf(buf, sizeof buf, __VA_ARGS__) >= (int)sizeof buf ? -1 : 0)

/* Splits $TE_CFLAGS (or "-O2") on spaces into argv slots. */
static int add_cflags(char **argv, int n, int max, char *buf, size_t bufsz)
{
    const char *env = getenv("TE_CFLAGS");
    char *tok;
    snprintf(buf, bufsz, "%s", env ? env : "-O2");
    for (tok = strtok(buf, " "); tok && n < max; tok = strtok(NULL, " "))
        argv[n++] = tok;
    return n;
}

static int build(const char *bdir, const char *name, int hook)
{
    char exe[4096], src[4096], harness[4096], hdr[300], model_def[200], hook_def[300], up[128];
    char flagbuf[1024];
    char *argv[64];
    const char *cc = getenv("CC");
    int n = 0, i;
    for (i = 0; name[i] && i < 127; i++)
        up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    up[i] = '\0';
    if (FMT(exe, "%s/model_run", bdir) < 0)
        return PATH_TOO_LONG;
    if (FMT(src, "%s/%s.c", bdir, name) < 0)
        return PATH_TOO_LONG;
    if (FMT(harness, "%s/te_run_main.c", bdir) < 0)
        return PATH_TOO_LONG;
    if (FMT(hdr, "-DTE_MODEL_HEADER=\"%s.h\"", name) < 0)
        return PATH_TOO_LONG;
    if (FMT(model_def, "-DTE_MODEL=%s", name) < 0)
        return PATH_TOO_LONG;
    if (FMT(hook_def, "-D%s_LAYER_HOOK=te_run_layer_hook", up) < 0)
        return PATH_TOO_LONG;
    argv[n++] = (char *)(cc && *cc ? cc : "cc");
    argv[n++] = "-std=c99";
    n = add_cflags(argv, n, 40, flagbuf, sizeof flagbuf);
    argv[n++] = hdr;
    argv[n++] = model_def;
    if (hook)
        argv[n++] = hook_def;
    argv[n++] = "-o";
    argv[n++] = exe;
    argv[n++] = src;
    argv[n++] = harness;
    argv[n++] = "-lm"; /* float math kernels (te_math_f32) call the C library's */
    argv[n] = NULL;
    if (cli_write_file(harness, harness_c, sizeof harness_c - 1) < 0)
        return -1;
    if (cli_spawn(argv, NULL) != 0)
        return cli_error("run: building the generated code with %s failed", argv[0]), -1;
    return 0;
}

static int execute(const char *bdir, const run_args *a)
{
    char exe[4096];
    char *argv[MAX_INPUTS + 4];
    int i, n = 0;
    if (FMT(exe, "%s/model_run", bdir) < 0)
        return PATH_TOO_LONG;
    argv[n++] = exe;
    argv[n++] = (char *)a->out_dir;
    argv[n++] = (char *)(a->layer_dir ? a->layer_dir : "-");
    for (i = 0; i < a->n_inputs; i++)
        argv[n++] = (char *)a->inputs[i];
    argv[n] = NULL;
    if (cli_spawn(argv, NULL) != 0)
        return cli_error("run: the compiled model failed"), -1;
    return 0;
}

static int check_inputs(const te_model *m, const run_args *a)
{
    int i;
    if (a->n_inputs != m->g->n_inputs)
        return cli_error("run: the model has %d input(s), %d --input given", m->g->n_inputs,
                         a->n_inputs);
    for (i = 0; i < a->n_inputs; i++) {
        size_t n = 0;
        void *data = cli_read_file(a->inputs[i], &n);
        size_t want = te_tensor_bytes(&m->g->tensors[m->g->inputs[i]]);
        free(data);
        if (!data)
            return 1;
        if (n != want)
            return cli_error("run: input %d (%s) has %zu bytes, the model's input %d needs %zu", i,
                             a->inputs[i], n, i, want);
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    run_args a;
    static const char *const files[] = {"model_run", "te_run_main.c", NULL};
    char name[128], bdir[4096];
    te_model *m;
    int rc = 1;
    if (parse_args(argc, argv, &a) != 0)
        return 1;
    cli_default_name(a.model, name, sizeof name);
    m = cli_load_opts(a.model, &a.opts);
    if (!m)
        return 1;
    if (check_inputs(m, &a) != 0 || cli_mkdirs(a.out_dir) < 0 ||
        (a.layer_dir && cli_mkdirs(a.layer_dir) < 0) ||
        cli_build_dir_create("run", bdir, sizeof bdir) < 0)
        goto out;
    if (cli_generate(m, a.model, name, bdir) == 0 && build(bdir, name, a.layer_dir != NULL) == 0 &&
        execute(bdir, &a) == 0)
        rc = 0;
    cli_build_dir_finish(bdir, name, files, a.keep);
out:
    te_model_free(m);
    return rc;
}
