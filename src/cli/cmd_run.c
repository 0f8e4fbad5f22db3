/* cmd_run.c - `tinyengine run`: compile the model, build it with the host C
 * compiler together with a small harness, run one inference on the given
 * input files and write the outputs (and, on request, every layer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_samples.h"
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
    "/* argv: OUT LAYERS then, per sample, LABEL and one file per input; LABEL\n"
    " * \"-\" writes OUT/output_<i>.bin, else OUT/output_<LABEL>_<i>.bin.  Layers\n"
    " * (LAYERS not \"-\") of the first sample only; the state is reset between. */\n"
    "int main(int argc, char **argv)\n{\n"
    "    int i, a, n_in = API(num_inputs)();\n    char path[4096];\n"
    "    if (argc < 4 + n_in || (argc - 3) % (1 + n_in)) { fprintf(stderr, \"harness: bad arguments\\n\"); return 1; }\n"
    "    layer_dir = strcmp(argv[2], \"-\") ? argv[2] : NULL;\n"
    "    for (a = 3; a < argc; a += 1 + n_in) {\n"
    "        const char *label = argv[a];\n"
    "        if (a > 3) { layer_dir = NULL; API(reset)(); }\n"
    "        for (i = 0; i < n_in; i++) {\n"
    "            FILE *f = fopen(argv[a + 1 + i], \"rb\");\n"
    "            size_t n = API(input_bytes)(i);\n"
    "            if (!f || fread(API(input)(i), 1, n, f) != n || fgetc(f) != EOF) {\n"
    "                fprintf(stderr, \"cannot read %zu bytes from %s\\n\", n, argv[a + 1 + i]); return 1; }\n"
    "            fclose(f);\n        }\n"
    "        if (API(invoke)() != 0) { fprintf(stderr, \"invoke failed\\n\"); return 1; }\n"
    "        for (i = 0; i < API(num_outputs)(); i++) {\n"
    "            FILE *f;\n"
    "            if (strcmp(label, \"-\"))\n"
    "                snprintf(path, sizeof path, \"%s/output_%s_%d.bin\", argv[1], label, i);\n"
    "            else\n"
    "                snprintf(path, sizeof path, \"%s/output_%d.bin\", argv[1], i);\n"
    "            f = fopen(path, \"wb\");\n"
    "            if (!f || fwrite(API(output)(i), 1, API(output_bytes)(i), f) != API(output_bytes)(i)) {\n"
    "                fprintf(stderr, \"cannot write %s\\n\", path); return 1; }\n"
    "            fclose(f);\n        }\n    }\n    return 0;\n}\n";

static const char *help =
    "usage: tinyengine run MODEL.tflite --input FILE [--input FILE ...] -o DIR\n"
    "       tinyengine run MODEL.tflite --samples SDIR -o DIR\n"
    "                      [--dump-layers LDIR] [--keep-build]\n"
    "Compiles the model, builds it with the host C compiler ($CC, default cc;\n"
    "extra flags from $TE_CFLAGS, default -O2), runs one inference on the raw input\n"
    "files (one per model input, exact tensor bytes) and writes DIR/output_<i>.bin.\n"
    "  --samples SDIR      run every sample of SDIR (input_<k>_<i>.bin: sample k, model\n"
    "                      input i; the layout of TFLite reference data) with one build,\n"
    "                      the state reset between samples; writes DIR/output_<k>_<i>.bin\n"
    "  --dump-layers LDIR  also write every operator output as LDIR/op<NNN>_<j>.bin\n"
    "                      (with --samples: of the first sample)\n"
    "  --expect FILE ...   compare output i with FILE i (one per output): on a\n"
    "                      difference, print the output, the first differing byte and,\n"
    "                      with --dump-layers and FILE's folder holding layers/op<NNN>_<j>.bin,\n"
    "                      the first differing layer; exit status 1\n"
    "  --quiet             print nothing on success (default: a summary)\n"
    "  --keep-build        keep the temporary build folder and print its path\n";

typedef struct {
    te_compile_opts opts;
    const char *model, *out_dir, *layer_dir, *samples_dir;
    const char *inputs[MAX_INPUTS], *expects[MAX_INPUTS];
    int n_inputs, n_expects, keep, quiet;
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
        } else if (!strcmp(argv[i], "--expect") && i + 1 < argc) {
            if (a->n_expects == MAX_INPUTS)
                return cli_error("run: more than %d --expect files", MAX_INPUTS);
            a->expects[a->n_expects++] = argv[++i];
            while (i + 1 < argc && argv[i + 1][0] != '-' && a->n_expects < MAX_INPUTS)
                a->expects[a->n_expects++] = argv[++i]; /* --expect A B ... */
        } else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            a->samples_dir = argv[++i];
        } else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
            a->quiet = 1;
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
    if (a->samples_dir && (a->n_inputs || a->n_expects))
        return cli_error("run: --samples runs a folder of samples: give it without --input and "
                         "--expect");
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

/* Runs the build: argv OUT LAYERS, then per sample its label ("-": the
 * single sample of --input) and its input files. */
static int execute(const char *bdir, const run_args *a, const run_samples *smp)
{
    char exe[4096];
    char **argv, *labels;
    int i, j, n = 0, rc;
    int n_samples = smp ? smp->n : 1, n_in = smp ? smp->n_inputs : a->n_inputs;
    if (FMT(exe, "%s/model_run", bdir) < 0)
        return PATH_TOO_LONG;
    argv = malloc(((size_t)n_samples * (size_t)(n_in + 1) + 4) * sizeof *argv);
    labels = malloc((size_t)n_samples * 24);
    if (!argv || !labels) {
        free(argv);
        free(labels);
        return cli_error("run: out of memory"), -1;
    }
    argv[n++] = exe;
    argv[n++] = (char *)a->out_dir;
    argv[n++] = (char *)(a->layer_dir ? a->layer_dir : "-");
    for (j = 0; j < n_samples; j++) {
        char *label = labels + 24 * j;
        if (smp)
            snprintf(label, 24, "%ld", smp->ids[j]);
        else
            snprintf(label, 24, "-");
        argv[n++] = label;
        for (i = 0; i < n_in; i++)
            argv[n++] = smp ? smp->paths[j * n_in + i] : (char *)a->inputs[i];
    }
    argv[n] = NULL;
    rc = cli_spawn(argv, NULL);
    free(argv);
    free(labels);
    if (rc != 0)
        return cli_error("run: the compiled model failed"), -1;
    return 0;
}

/* Each of the n files has the size of the model's input i. */
static int check_input_files(const te_model *m, const char *const *files, int n)
{
    int i;
    if (n != m->g->n_inputs)
        return cli_error("run: the model has %d input(s), %d --input given", m->g->n_inputs, n);
    for (i = 0; i < n; i++) {
        size_t got = 0;
        void *data = cli_read_file(files[i], &got);
        size_t want = te_tensor_bytes(&m->g->tensors[m->g->inputs[i]]);
        free(data);
        if (!data)
            return 1;
        if (got != want)
            return cli_error("run: input %d (%s) has %zu bytes, the model's input %d needs %zu", i,
                             files[i], got, i, want);
    }
    return 0;
}

/* The --input files, or every sample of --samples (found into smp). */
static int check_inputs(const te_model *m, const run_args *a, run_samples *smp)
{
    int j;
    if (!a->samples_dir)
        return check_input_files(m, a->inputs, a->n_inputs);
    if (run_samples_find(a->samples_dir, m->g->n_inputs, smp) != 0)
        return 1;
    for (j = 0; j < smp->n; j++)
        if (check_input_files(m, (const char *const *)smp->paths + j * smp->n_inputs,
                              smp->n_inputs) != 0)
            return 1;
    return 0;
}

/* Index of the first byte where a and b differ (the shorter length when
 * one is a prefix of the other), or -1 when equal. */
static long first_difference(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    size_t i, n = na < nb ? na : nb;
    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return (long)i;
    return na == nb ? -1 : (long)n;
}

/* 1 when the two files differ (how: "byte K: got G, expected W" or the
 * sizes), 0 when equal, -1 when one cannot be read (quiet: for layer files
 * that may be missing). */
static int readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static int compare_files(const char *got, const char *want, char *how, size_t how_n, int quiet)
{
    size_t ng = 0, nw = 0;
    long k;
    unsigned char *g, *w;
    if (quiet && (!readable(got) || !readable(want)))
        return -1;
    g = cli_read_file(got, &ng);
    w = g ? cli_read_file(want, &nw) : NULL;
    if (!g || !w) {
        free(g);
        return -1;
    }
    k = first_difference(g, ng, w, nw);
    if (k >= 0 && (size_t)k < ng && (size_t)k < nw)
        snprintf(how, how_n, "byte %ld: got %d, expected %d (as int8)", k, (int)(signed char)g[k],
                 (int)(signed char)w[k]);
    else if (k >= 0)
        snprintf(how, how_n, "%zu bytes, expected %zu", ng, nw);
    free(g);
    free(w);
    return k >= 0;
}

/* The first operator (in schedule order) whose dumped output differs from
 * layers/op<NNN>_<j>.bin beside the first --expect file. */
static void first_bad_layer(const te_model *m, const run_args *a)
{
    char want[4200], got[4200], dir[4096];
    const char *slash = strrchr(a->expects[0], '/');
    int s, j;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - a->expects[0]) : 1,
             slash ? a->expects[0] : ".");
    for (s = 0; s < m->plan->n_steps; s++) {
        const te_op *op = &m->g->ops[m->plan->schedule[s]];
        for (j = 0; j < op->n_out; j++) {
            char how[128];
            int index = te_op_model_index(op), out = te_op_model_output(op, j);
            const char *name = op->part_of ? "a split's SLICE" : te_opcode_name(op->opcode);
            if (FMT(want, "%s/layers/op%03d_%d.bin", dir, index, out) < 0 ||
                FMT(got, "%s/op%03d_%d.bin", a->layer_dir, index, out) < 0)
                return;
            if (compare_files(got, want, how, sizeof how, 1) == 1) {
                cli_error("run: first differing layer: op %d (%s) output %d, %s", index, name,
                          out, how);
                return;
            }
        }
    }
}

/* --expect: 0 when every output equals its file, else 1 (reported). */
static int check_expect(const te_model *m, const run_args *a)
{
    char got[4200];
    int i;
    if (!a->n_expects)
        return 0;
    if (a->n_expects != m->g->n_outputs)
        return cli_error("run: the model has %d output(s), %d --expect given", m->g->n_outputs,
                         a->n_expects);
    for (i = 0; i < a->n_expects; i++) {
        char how[128];
        int d;
        if (FMT(got, "%s/output_%d.bin", a->out_dir, i) < 0)
            return cli_error("run: path too long");
        d = compare_files(got, a->expects[i], how, sizeof how, 0);
        if (d < 0)
            return 1;
        if (d > 0) {
            cli_error("run: output %d differs from %s: %s", i, a->expects[i], how);
            if (a->layer_dir)
                first_bad_layer(m, a);
            return 1;
        }
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    run_args a;
    run_samples smp;
    static const char *const files[] = {"model_run", "te_run_main.c", NULL};
    char name[128], bdir[4096];
    te_model *m;
    int rc = 1;
    double started = cli_now();
    memset(&smp, 0, sizeof smp);
    if (parse_args(argc, argv, &a) != 0)
        return 1;
    cli_default_name(a.model, name, sizeof name);
    m = cli_load_opts(a.model, &a.opts);
    if (!m)
        return 1;
    if (check_inputs(m, &a, &smp) != 0 || cli_mkdirs(a.out_dir) < 0 ||
        (a.layer_dir && cli_mkdirs(a.layer_dir) < 0) ||
        cli_build_dir_create("run", bdir, sizeof bdir) < 0)
        goto out;
    if (cli_generate(m, a.model, name, bdir) == 0 && build(bdir, name, a.layer_dir != NULL) == 0 &&
        execute(bdir, &a, a.samples_dir ? &smp : NULL) == 0)
        rc = check_expect(m, &a);
    cli_build_dir_finish(bdir, name, files, a.keep);
    if (rc == 0 && !a.quiet) {
        char what[4200];
        if (a.samples_dir)
            snprintf(what, sizeof what, "ran %d samples, wrote %s/output_<k>_*.bin", smp.n,
                     a.out_dir);
        else
            snprintf(what, sizeof what, "ran, wrote %s/output_*.bin%s", a.out_dir,
                     a.n_expects ? ", outputs match --expect" : "");
        cli_summary(stdout, what, m, started);
    }
out:
    run_samples_free(&smp);
    te_model_free(m);
    return rc;
}
