/* cmd_bench.c - `tinyengine bench MODEL --target cortex-m4|cortex-m7`: builds
 * the generated code into a bare-metal image for QEMU's MPS2 board with
 * arm-none-eabi-gcc (startup, linker scripts and harness from
 * targets/cortex-m/), runs one inference under qemu-system-arm with the
 * te_icount plugin and reports exact instructions per inference, per MAC,
 * flash and RAM of the linked image and whether the outputs matched. */
#define _XOPEN_SOURCE 700 /* mkdtemp, fork, execvp */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../ir/target.h"
#include "cli.h"
#include "elf32.h"

#define MAX_IO 16

static const char *help =
    "usage: tinyengine bench MODEL.tflite [--target cortex-m4|cortex-m7] [--opt -O2|-Os|...]\n"
    "                        [--input FILE ...] [--expect FILE ...] [--flash SIZE]\n"
    "                        [--ram SIZE] [--keep-build]\n"
    "Builds the model for a Cortex-M board emulated by QEMU (cortex-m4: mps2-an386,\n"
    "cortex-m7: mps2-an500) with arm-none-eabi-gcc, runs one inference under\n"
    "qemu-system-arm and prints the exact number of instructions NAME_invoke executed,\n"
    "instructions per MAC, flash (.isr_vector+.text+.rodata+.data) and RAM\n"
    "(.data+.bss+stack) of the image, the model's own flash (text + data of the\n"
    "generated .c's object) and whether the outputs equal the --expect files.\n"
    "  --target T     cortex-m4 (default) or cortex-m7 (its DSP SIMD kernels)\n"
    "  --portable     use the portable C kernels instead (for comparison)\n"
    "  --opt FLAG     optimization flag for arm-none-eabi-gcc (default -O2)\n"
    "  --input FILE   raw bytes of input i (one per model input; default all zero)\n"
    "  --expect FILE  raw bytes expected for output i (one per model output)\n"
    "  --flash SIZE, --ram SIZE  emulate a smaller part (e.g. 1M, 256K; default 4M):\n"
    "                 the link fails with \"region ... overflowed\" when the image does not fit\n"
    "  --keep-build   keep the temporary build folder and print its path\n"
    "  --int8-io, --sram-limit, --flash-limit, --patch, --max-recompute: as for\n"
    "                 `tinyengine compile`:\n"
    "Needs arm-none-eabi-gcc (with newlib), qemu-system-arm, timeout and a host cc;\n"
    "$TE_QEMU_TIMEOUT sets the time limit of the run in seconds (default 120);\n"
    "$TINYENGINE_TARGETS the folder with the target files (default: the source tree's\n"
    "targets/cortex-m);\n"
    "$TE_BENCH_CACHE a folder where the harness's objects are kept for the next runs\n"
    "(by core and -O: a sweep over many models builds them once).\n";

typedef struct {
    const char *model, *target, *opt, *flash, *ram;
    int portable;          /* --portable: generic C kernels on the Cortex-M */
    const char *inputs[MAX_IO], *expects[MAX_IO];
    int n_inputs, n_expects, keep;
    te_compile_opts copts; /* --int8-io, --sram-limit, --flash-limit */
} bench_args;

typedef struct {
    const char *name, *board, *ldscript;
    const char *flags[4];
} bench_cpu;

static const bench_cpu cpus[] = {
    {"cortex-m4", "mps2-an386", "mps2-an386.ld",
     {"-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard", "-mthumb"}},
    {"cortex-m7", "mps2-an500", "mps2-an500.ld",
     {"-mcpu=cortex-m7", "-mfpu=fpv5-d16", "-mfloat-abi=hard", "-mthumb"}},
};

/* What the linked image and the run gave. */
typedef struct {
    unsigned long vec, text, rodata, data, bss, stack, other_flash, other_ram;
    unsigned long model_flash;   /* text + data of the generated NAME.c's object */
    unsigned long long interval; /* plugin count: the call + NAME_invoke */
    unsigned long stack_used;    /* measured by the harness (stack painting) */
    int run_status;              /* QEMU's exit status = the harness's */
} bench_result;

#define FMT(buf, ...) (snprintf(buf, sizeof buf, __VA_ARGS__) >= (int)sizeof buf ? -1 : 0)

static int opt_ok(const char *o)
{
    return o[0] == '-' && o[1] == 'O' && strlen(o) <= 6;
}

static int parse_args(int argc, char **argv, bench_args *a)
{
    int i, opt;
    memset(a, 0, sizeof *a);
    a->copts = (te_compile_opts)TE_COMPILE_OPTS_DEFAULT;
    a->target = "cortex-m4";
    a->opt = "-O2";
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(help, stdout);
            fputs(cli_model_options_help, stdout);
            exit(0);
        } else if (!strcmp(s, "--target") && more) {
            a->target = argv[++i];
        } else if (!strcmp(s, "--portable")) {
            a->portable = 1;
        } else if (!strcmp(s, "--opt") && more) {
            a->opt = argv[++i];
        } else if (!strcmp(s, "--flash") && more) {
            a->flash = argv[++i];
        } else if (!strcmp(s, "--ram") && more) {
            a->ram = argv[++i];
        } else if (!strcmp(s, "--input") && more && a->n_inputs < MAX_IO) {
            a->inputs[a->n_inputs++] = argv[++i];
        } else if (!strcmp(s, "--expect") && more && a->n_expects < MAX_IO) {
            a->expects[a->n_expects++] = argv[++i];
        } else if (!strcmp(s, "--keep-build")) {
            a->keep = 1;
        } else if (s[0] == '-' && s[1] == 'O' && opt_ok(s)) {
            a->opt = s; /* `bench M -Os` works as well as `--opt -Os` */
        } else if ((opt = cli_compile_option(argc, argv, &i, &a->copts)) != 0) {
            if (opt < 0)
                return 1;
        } else if (s[0] == '-') {
            return cli_error("bench: unknown or incomplete option '%s'", s);
        } else if (!a->model) {
            a->model = s;
        } else {
            return cli_error("bench: more than one model given ('%s')", s);
        }
    }
    if (!a->model) {
        fputs(help, stderr);
        return cli_error("bench: need a model");
    }
    if (!opt_ok(a->opt))
        return cli_error("bench: --opt '%s' is not an optimization flag like -O2 or -Os", a->opt);
    return 0;
}

static const bench_cpu *find_cpu(const char *target)
{
    size_t i;
    for (i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
        if (!strcmp(cpus[i].name, target))
            return &cpus[i];
    cli_error("bench: --target '%s' cannot be run: use cortex-m4 or cortex-m7", target);
    return NULL;
}

/* Where the Cortex-M target files sit relative to the tool's folder: the
 * installed layout (CMake passes bin -> share/tinyengine/cortex-m), then the
 * build tree's (a link to the source tree's targets/cortex-m). No absolute
 * path is built in, so an installed tree may be moved. */
#ifndef TE_TARGETS_RELDIR
#define TE_TARGETS_RELDIR "../share/tinyengine/cortex-m"
#endif
static const char *const targets_reldirs[] = {TE_TARGETS_RELDIR, "targets/cortex-m"};

static int has_targets(const char *dir)
{
    char probe[4200];
    return FMT(probe, "%s/startup.c", dir) >= 0 && access(probe, R_OK) == 0;
}

/* The path of the running binary (Linux: /proc/self/exe); 0 when found. */
static int tool_path(char *path, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", path, n - 1);
    if (len <= 0 || (size_t)len >= n - 1)
        return -1;
    path[len] = '\0';
    return 0;
}

/* The folder of the running binary; 0 when found. */
static int tool_dir(char *dir, size_t n)
{
    char *slash;
    if (tool_path(dir, n) < 0 || !(slash = strrchr(dir, '/')))
        return -1;
    *slash = '\0';
    return 0;
}

/* $TINYENGINE_TARGETS, else targets/cortex-m beside the binary. */
static int find_targets(char *dir, size_t n)
{
    const char *env = getenv("TINYENGINE_TARGETS");
    char exe_dir[4096];
    size_t i;
    if (env && *env) {
        if (snprintf(dir, n, "%s", env) >= (int)n)
            return cli_error("bench: path too long"), -1;
        if (!has_targets(dir))
            return cli_error("bench: no Cortex-M target files in $TINYENGINE_TARGETS (%s)", dir),
                   -1;
        return 0;
    }
    if (tool_dir(exe_dir, sizeof exe_dir) == 0)
        for (i = 0; i < sizeof targets_reldirs / sizeof targets_reldirs[0]; i++)
            if (snprintf(dir, n, "%s/%s", exe_dir, targets_reldirs[i]) < (int)n &&
                has_targets(dir))
                return 0;
    return cli_error("bench: no Cortex-M target files beside the tinyengine binary (%s/%s); set "
                     "$TINYENGINE_TARGETS to a targets/cortex-m folder",
                     tool_dir(exe_dir, sizeof exe_dir) == 0 ? exe_dir : "?", TE_TARGETS_RELDIR),
           -1;
}

/* Copies a log file to stderr (after a failed step). */
static void show_log(const char *log)
{
    size_t n = 0;
    char *text = cli_read_file(log, &n);
    if (text) {
        fwrite(text, 1, n, stderr);
        free(text);
    }
}

/* Writes `static const unsigned char <var>[] = {...};` from bytes (or zeros). */
static void write_array(FILE *f, const char *var, const unsigned char *bytes, size_t n)
{
    size_t k;
    fprintf(f, "static const unsigned char %s[%zu] = {", var, n ? n : 1);
    for (k = 0; k < (n ? n : 1); k++)
        fprintf(f, "%s%u", !k ? "\n" : k % 24 ? "," : ",\n", bytes && n ? bytes[k] : 0u);
    fprintf(f, "};\n");
}

/* One blob of te_bench_data.h: the file's bytes, which must be `want` long. */
static int write_blob(FILE *f, const char *var, const char *path, size_t want, const char *what)
{
    size_t n = 0;
    unsigned char *bytes = NULL;
    if (path) {
        bytes = cli_read_file(path, &n);
        if (!bytes)
            return -1;
        if (n != want) {
            free(bytes);
            return cli_error("bench: %s %s has %zu bytes, the model's tensor has %zu", what, path,
                             n, want),
                   -1;
        }
    }
    write_array(f, var, bytes, want);
    free(bytes);
    return 0;
}

static void write_table(FILE *f, const char *table, const char *prefix, int n)
{
    int i;
    fprintf(f, "static const te_bench_blob %s[] = {", table);
    for (i = 0; i < n; i++)
        fprintf(f, "%s{%s%d, sizeof %s%d}", i ? ", " : "", prefix, i, prefix, i);
    fprintf(f, "%s};\n", n ? "" : "{0, 0}");
}

/* te_bench_data.h: the inputs (or zeros) and the expected outputs. */
static int write_data(const char *bdir, const te_model *m, const bench_args *a)
{
    const te_graph *g = m->g;
    char path[4200], var[64];
    FILE *f;
    int i, rc = 0;
    if (FMT(path, "%s/te_bench_data.h", bdir) < 0 || !(f = fopen(path, "w")))
        return cli_error("bench: cannot write %s", path), -1;
    fprintf(f, "/* te_bench_data.h - written by tinyengine bench. */\n");
    for (i = 0; i < g->n_inputs && rc == 0; i++) {
        snprintf(var, sizeof var, "te_bench_in%d", i);
        rc = write_blob(f, var, a->n_inputs ? a->inputs[i] : NULL,
                        te_tensor_bytes(&g->tensors[g->inputs[i]]), "--input");
    }
    for (i = 0; i < a->n_expects && rc == 0; i++) {
        snprintf(var, sizeof var, "te_bench_out%d", i);
        rc = write_blob(f, var, a->expects[i], te_tensor_bytes(&g->tensors[g->outputs[i]]),
                        "--expect");
    }
    fprintf(f, "#define TE_BENCH_N_INPUTS %d\n#define TE_BENCH_N_EXPECT %d\n", g->n_inputs,
            a->n_expects);
    write_table(f, "te_bench_inputs", "te_bench_in", g->n_inputs);
    write_table(f, "te_bench_expect", "te_bench_out", a->n_expects);
    if (fclose(f) != 0 && rc == 0)
        rc = -cli_error("bench: cannot write %s", path);
    return rc;
}

static int check_counts(const te_model *m, const bench_args *a)
{
    if (a->n_inputs && a->n_inputs != m->g->n_inputs)
        return cli_error("bench: the model has %d input(s), %d --input given", m->g->n_inputs,
                         a->n_inputs);
    if (a->n_expects && a->n_expects != m->g->n_outputs)
        return cli_error("bench: the model has %d output(s), %d --expect given",
                         m->g->n_outputs, a->n_expects);
    return 0;
}

/* 1 when FILE exists and is no older than SRC. */
static int up_to_date(const char *file, const char *src)
{
    struct stat f, s;
    return stat(file, &f) == 0 && stat(src, &s) == 0 && f.st_mtime >= s.st_mtime;
}

/* The instruction-count plugin into SO (room for n bytes): the te_icount.so
 * the build tree makes beside the binary when it is no older than the
 * target folder's source, else one built into BDIR with the host C
 * compiler. */
static int build_plugin(const char *bdir, const char *tdir, char *so, size_t n)
{
    char src[4200], log[4200], exe_dir[4096];
    const char *cc = getenv("CC");
    char *argv[] = {(char *)(cc && *cc ? cc : "cc"), "-std=c99", "-O2", "-shared", "-fPIC",
                    "-o", so, src, NULL};
    if (FMT(src, "%s/qemu/te_icount.c", tdir) < 0)
        return cli_error("bench: path too long"), -1;
    if (tool_dir(exe_dir, sizeof exe_dir) == 0 &&
        snprintf(so, n, "%s/te_icount.so", exe_dir) < (int)n && up_to_date(so, src))
        return 0;
    if (snprintf(so, n, "%s/te_icount.so", bdir) >= (int)n || FMT(log, "%s/plugin.log", bdir) < 0)
        return cli_error("bench: path too long"), -1;
    if (cli_spawn(argv, log) != 0) {
        show_log(log);
        return cli_error("bench: building the QEMU plugin with %s failed", argv[0]), -1;
    }
    return 0;
}

/* Puts arm-none-eabi-gcc, the core's flags, -O and the warning and section
 * flags every compile of the image shares into argv; returns the count. */
static int cc_common(char **argv, const bench_cpu *cpu, const bench_args *a)
{
    static const char *const rest[] = {"-std=c99", "-Wall", "-Wextra", "-ffunction-sections",
                                       "-fdata-sections"};
    int n = 0, i;
    argv[n++] = "arm-none-eabi-gcc";
    for (i = 0; i < 4; i++)
        argv[n++] = (char *)cpu->flags[i];
    argv[n++] = (char *)a->opt;
    for (i = 0; i < 5; i++)
        argv[n++] = (char *)rest[i];
    return n;
}

/* Compiles SRC (include folder INC) into object OBJ for the core at -O;
 * the compiler's output into LOG.  Its exit status. */
static int compile_object(const bench_cpu *cpu, const bench_args *a, const char *inc,
                          const char *src, const char *obj, const char *log)
{
    char *argv[24];
    int n = cc_common(argv, cpu, a);
    argv[n++] = (char *)inc;
    argv[n++] = "-c";
    argv[n++] = (char *)src;
    argv[n++] = "-o";
    argv[n++] = (char *)obj;
    argv[n] = NULL;
    return cli_spawn(argv, log);
}

/* The generated NAME.c alone into BDIR/model.o: the object whose size
 * `bench` reports as the model's flash (read_model_flash). */
static int build_model_object(const char *bdir, const char *name, const bench_cpu *cpu,
                              const bench_args *a)
{
    char inc_b[4200], model_c[4200], obj[4200], log[4200];
    if (FMT(inc_b, "-I%s", bdir) < 0 || FMT(model_c, "%s/%s.c", bdir, name) < 0 ||
        FMT(obj, "%s/model.o", bdir) < 0 || FMT(log, "%s/build.log", bdir) < 0)
        return cli_error("bench: path too long"), -1;
    if (compile_object(cpu, a, inc_b, model_c, obj, log) != 0) {
        show_log(log);
        return cli_error("bench: compiling %s.c for %s with arm-none-eabi-gcc failed", name,
                         cpu->name),
               -1;
    }
    return 0;
}

/* The image's start-up, semihosting and measuring code (the model's
 * harness, less bench_main.c), in link order. */
static const char *const harness_files[3] = {"startup.c", "semihost.c", "measure.c"};
static const char *const harness_headers[2] = {"semihost.h", "measure.h"};

/* 1 when the cached object OBJ is no older than the harness sources in
 * TDIR and the running binary (whose core flags built it). */
static int cached_fresh(const char *obj, const char *tdir)
{
    char path[4200], exe[4096];
    int i;
    if (tool_path(exe, sizeof exe) < 0 || !up_to_date(obj, exe))
        return 0;
    for (i = 0; i < 3; i++)
        if (FMT(path, "%s/%s", tdir, harness_files[i]) < 0 || !up_to_date(obj, path))
            return 0;
    for (i = 0; i < 2; i++)
        if (FMT(path, "%s/%s", tdir, harness_headers[i]) < 0 || !up_to_date(obj, path))
            return 0;
    return 1;
}

/* Into obj[i] the harness files' objects for this core and -O from
 * $TE_BENCH_CACHE (built there first when missing or stale; written
 * under a temporary name, then renamed, so that parallel runs share it),
 * or their sources when the cache is not set: 0, or -1 (reported). */
static int harness_objects(const char *bdir, const char *tdir, const bench_cpu *cpu,
                           const bench_args *a, char obj[3][4200])
{
    const char *cache = getenv("TE_BENCH_CACHE");
    char src[4200], tmp[4200], log[4200], inc_t[4200], key[4400];
    unsigned long h = 2166136261ul;
    int i;
    for (i = 0; !(cache && *cache) && i < 3; i++)
        if (FMT(obj[i], "%s/%s", tdir, harness_files[i]) < 0)
            return cli_error("bench: path too long"), -1;
    if (!(cache && *cache))
        return 0;
    if (mkdir(cache, 0777) != 0 && errno != EEXIST)
        return cli_error("bench: cannot create $TE_BENCH_CACHE %s: %s", cache, strerror(errno)),
               -1;
    /* the name: the core, -O and a hash of the target folder */
    if (FMT(key, "%s %s %s", tdir, cpu->name, a->opt) < 0 || FMT(inc_t, "-I%s", tdir) < 0 ||
        FMT(log, "%s/harness.log", bdir) < 0)
        return cli_error("bench: path too long"), -1;
    for (i = 0; key[i]; i++)
        h = ((h ^ (unsigned char)key[i]) * 16777619ul) & 0xfffffffful;
    for (i = 0; i < 3; i++) {
        if (FMT(obj[i], "%s/%s%s-%08lx-%.*s.o", cache, cpu->name, a->opt, h,
                (int)strlen(harness_files[i]) - 2, harness_files[i]) < 0 ||
            FMT(tmp, "%s.%ld.tmp", obj[i], (long)getpid()) < 0 ||
            FMT(src, "%s/%s", tdir, harness_files[i]) < 0)
            return cli_error("bench: path too long"), -1;
        if (cached_fresh(obj[i], tdir))
            continue;
        if (compile_object(cpu, a, inc_t, src, tmp, log) != 0 || rename(tmp, obj[i]) != 0) {
            show_log(log);
            remove(tmp);
            return cli_error("bench: building %s into $TE_BENCH_CACHE failed", src), -1;
        }
    }
    return 0;
}

static int build_image(const char *bdir, const char *tdir, const char *name,
                       const bench_cpu *cpu, const bench_args *a)
{
    char inc_b[4200], inc_t[4200], libdir[4200], ld[4200], elf[4200], log[4200], obj[4200];
    char harness[3][4200], main_c[4200], def_model[200], def_hdr[200], def_flash[80], def_ram[80];
    char *argv[48];
    int n, i;
    if (build_model_object(bdir, name, cpu, a) < 0 || harness_objects(bdir, tdir, cpu, a, harness) < 0)
        return -1;
    if (FMT(inc_b, "-I%s", bdir) < 0 || FMT(inc_t, "-I%s", tdir) < 0 ||
        FMT(libdir, "-L%s", tdir) < 0 || FMT(ld, "-T%s/%s", tdir, cpu->ldscript) < 0 ||
        FMT(elf, "%s/model.elf", bdir) < 0 || FMT(log, "%s/build.log", bdir) < 0 ||
        FMT(obj, "%s/model.o", bdir) < 0 || FMT(def_model, "-DTE_MODEL=%s", name) < 0 ||
        FMT(def_hdr, "-DTE_MODEL_HEADER=\"%s.h\"", name) < 0 ||
        FMT(main_c, "%s/bench_main.c", tdir) < 0 ||
        FMT(def_flash, "-Wl,--defsym=TE_FLASH_SIZE=%s", a->flash ? a->flash : "4M") < 0 ||
        FMT(def_ram, "-Wl,--defsym=TE_RAM_SIZE=%s", a->ram ? a->ram : "4M") < 0)
        return cli_error("bench: path or option too long"), -1;
    n = cc_common(argv, cpu, a);
    argv[n++] = inc_b;
    argv[n++] = inc_t;
    argv[n++] = def_model;
    argv[n++] = def_hdr;
    argv[n++] = obj;
    for (i = 0; i < 3; i++)
        argv[n++] = harness[i];
    argv[n++] = main_c;
    argv[n++] = libdir;
    argv[n++] = ld;
    argv[n++] = def_flash;
    argv[n++] = def_ram;
    argv[n++] = "-nostartfiles";
    argv[n++] = "--specs=nano.specs";
    argv[n++] = "--specs=nosys.specs";
    argv[n++] = "-Wl,--gc-sections";
    argv[n++] = "-lm"; /* float math kernels (te_math_f32); unused otherwise */
    argv[n++] = "-o";
    argv[n++] = elf;
    argv[n] = NULL;
    if (cli_spawn(argv, log) != 0) {
        show_log(log);
        return cli_error("bench: building the %s image with arm-none-eabi-gcc failed", cpu->name),
               -1;
    }
    return 0;
}

/* The model's own flash: text + data of BDIR/model.o (`arm-none-eabi-size`,
 * Berkeley format: .text and .rodata count as text), as a firmware that
 * links NAME.c pays for it before --gc-sections. */
static int read_model_flash(const char *bdir, bench_result *r)
{
    char obj[4200], log[4200], line[512];
    char *argv[] = {"arm-none-eabi-size", obj, NULL};
    unsigned long text, data, bss;
    FILE *f;
    int got = 0;
    if (FMT(obj, "%s/model.o", bdir) < 0 || FMT(log, "%s/size-model.txt", bdir) < 0)
        return cli_error("bench: path too long"), -1;
    if (cli_spawn(argv, log) != 0 || !(f = fopen(log, "r"))) {
        show_log(log);
        return cli_error("bench: arm-none-eabi-size failed"), -1;
    }
    while (!got && fgets(line, sizeof line, f))
        got = sscanf(line, "%lu %lu %lu", &text, &data, &bss) == 3;
    fclose(f);
    if (!got)
        return cli_error("bench: no size of model.o from arm-none-eabi-size"), -1;
    r->model_flash = text + data;
    return 0;
}

/* One allocated section of the image into the flash or RAM totals. */
static void add_section(const cli_elf_section *sec, void *ctx)
{
    bench_result *r = ctx;
    if (!strcmp(sec->name, ".isr_vector")) r->vec = sec->size;
    else if (!strcmp(sec->name, ".text")) r->text = sec->size;
    else if (!strcmp(sec->name, ".rodata")) r->rodata = sec->size;
    else if (!strcmp(sec->name, ".data")) r->data = sec->size;
    else if (!strcmp(sec->name, ".bss")) r->bss = sec->size;
    else if (!strcmp(sec->name, ".stack")) r->stack = sec->size;
    else if (sec->addr >= 0x20000000ul) r->other_ram += sec->size;
    else r->other_flash += sec->size;
}

/* Flash and RAM per allocated section of the image (what
 * `arm-none-eabi-size -A` lists, less the debug sections) and the
 * addresses of te_measure_begin/end, the plugin's interval. */
static int read_image(const char *bdir, bench_result *r, unsigned long *begin,
                      unsigned long *end)
{
    char elf[4200];
    cli_elf e;
    int rc = 0;
    if (FMT(elf, "%s/model.elf", bdir) < 0)
        return cli_error("bench: path too long"), -1;
    if (cli_elf_open(&e, elf) < 0)
        return -1;
    if (cli_elf_sections(&e, add_section, r) < 0)
        rc = -1, cli_error("bench: %s: damaged section headers", elf);
    else if (cli_elf_symbol(&e, "te_measure_begin", begin) < 0 ||
             cli_elf_symbol(&e, "te_measure_end", end) < 0)
        rc = -1, cli_error("bench: marker symbols missing from the image");
    cli_elf_close(&e);
    return rc;
}

static int run_qemu(const char *bdir, const char *so, const bench_cpu *cpu, unsigned long begin,
                    unsigned long end, bench_result *r)
{
    char elf[4200], log[4200], counts[4200], plugin[8600], line[256];
    const char *tmo = getenv("TE_QEMU_TIMEOUT");
    char *argv[] = {"timeout", (char *)(tmo && *tmo ? tmo : "120"), "qemu-system-arm", "-M",
                    (char *)cpu->board, "-nographic", "-monitor", "none", "-serial", "none",
                    "-semihosting-config", "enable=on,target=native", "-kernel", elf, "-plugin",
                    plugin, NULL};
    FILE *f;
    int got = 0;
    if (FMT(elf, "%s/model.elf", bdir) < 0 || FMT(log, "%s/qemu.log", bdir) < 0 ||
        FMT(counts, "%s/icount.txt", bdir) < 0 ||
        FMT(plugin, "%s,start=0x%lx,stop=0x%lx,out=%s", so, begin, end, counts) < 0)
        return cli_error("bench: path too long"), -1;
    r->run_status = cli_spawn(argv, log);
    if (r->run_status != 0)
        show_log(log); /* the harness's own lines (te-bench: FAIL ...) */
    if ((f = fopen(log, "r")) != NULL) {
        while (fgets(line, sizeof line, f))
            sscanf(line, "te-bench: stack %lu", &r->stack_used);
        fclose(f);
    }
    if (r->run_status == 124)
        return cli_error("bench: qemu-system-arm timed out"), -1;
    if (r->run_status >= 2 || !(f = fopen(counts, "r")))
        return cli_error("bench: the run on %s failed (status %d)", cpu->board, r->run_status), -1;
    while (fgets(line, sizeof line, f))
        got |= sscanf(line, "interval 0 %llu", &r->interval) == 1;
    fclose(f);
    if (!got || r->interval == 0)
        return cli_error("bench: no instruction count from the QEMU plugin"), -1;
    return 0;
}

/* The NAME_STACK_BYTES the build's -O selects. */
static size_t stack_bound(const te_model *m, const bench_args *a)
{
    te_stack_bound sb = te_model_stack(m);
    return strcmp(a->opt, "-O0") == 0 ? sb.o0 : sb.opt;
}

/* Measured stack over the stated bound or the reserve: one line, 1. */
static int check_stack(const te_model *m, const bench_args *a, const char *name,
                       const bench_result *r)
{
    size_t bound = stack_bound(m, a), i;
    char up[128];
    for (i = 0; name[i] && i + 1 < sizeof up; i++)
        up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
    up[i] = '\0';
    if (r->stack_used > bound)
        return cli_error("bench: %s_invoke used %lu bytes of stack, over the %zu its header "
                         "states (%s_STACK_BYTES at %s)",
                         name, r->stack_used, bound, up, a->opt);
    if (r->stack_used >= r->stack)
        return cli_error("bench: %s_invoke used all %lu bytes of the stack reserve", name,
                         r->stack);
    return 0;
}

static void report(const te_model *m, const bench_args *a, const bench_cpu *cpu,
                   const char *name, const bench_result *r)
{
    const char *base = strrchr(a->model, '/');
    unsigned long long insns = r->interval - 1; /* minus the call instruction */
    long long macs = (long long)te_model_macs(m);
    unsigned long flash = r->vec + r->text + r->rodata + r->data + r->other_flash;
    unsigned long ram = r->data + r->bss + r->stack + r->other_ram;
    printf("model:        %s\n", base ? base + 1 : a->model);
    printf("target:       %s (qemu %s, arm-none-eabi-gcc %s)\n", cpu->name, cpu->board, a->opt);
    printf("MACs:         %lld\n", macs);
    printf("instructions: %llu per inference\n", insns);
    if (macs > 0)
        printf("per MAC:      %.2f\n", (double)insns / (double)macs);
    else
        printf("per MAC:      -\n");
    printf("flash:        %lu bytes (.isr_vector %lu, .text %lu, .rodata %lu, .data %lu)\n", flash,
           r->vec, r->text, r->rodata, r->data);
    printf("model flash:  %lu bytes (%s.c alone: text + data of its object; weights %zu)\n",
           r->model_flash, name, te_model_weights_bytes(m));
    printf("RAM:          %lu bytes (.data %lu, .bss %lu, stack %lu; arena %zu)\n", ram, r->data,
           r->bss, r->stack, m->plan->arena_bytes);
    printf("stack used:   %lu bytes by %s_invoke (bound %zu, of the %lu reserved)\n",
           r->stack_used, name, stack_bound(m, a), r->stack);
    if (m->g->patch)
        cli_print_patch_cost(stdout, m, "patch:        ");
    else if (a->copts.patch.mode != TE_PATCH_OFF)
        printf("patch:        none (layer by layer)\n");
    if (!a->n_expects)
        printf("outputs:      not checked (no --expect)\n");
    else if (r->run_status == 0)
        printf("outputs:      match (%d output(s), every byte equal)\n", a->n_expects);
    else
        printf("outputs:      MISMATCH\n");
}

static void remove_build(const char *bdir, const char *name)
{
    static const char *const files[] = {"te_bench_data.h", "te_icount.so", "model.o",
                                        "model.elf", "plugin.log", "build.log", "harness.log",
                                        "size-model.txt", "qemu.log", "icount.txt",
                                        NULL};
    char path[4200];
    int i;
    for (i = 0; files[i]; i++)
        if (FMT(path, "%s/%s", bdir, files[i]) == 0)
            remove(path);
    if (FMT(path, "%s/%s.c", bdir, name) == 0)
        remove(path);
    if (FMT(path, "%s/%s.h", bdir, name) == 0)
        remove(path);
    rmdir(bdir);
}

static int bench(te_model *m, const bench_args *a, const bench_cpu *cpu, const char *tdir,
                 const char *bdir, const char *name)
{
    bench_result r;
    char so[4200];
    unsigned long begin = 0, end = 0;
    memset(&r, 0, sizeof r);
    if (cli_generate(m, a->model, name, bdir) < 0 || write_data(bdir, m, a) < 0 ||
        build_plugin(bdir, tdir, so, sizeof so) < 0 || build_image(bdir, tdir, name, cpu, a) < 0 ||
        read_image(bdir, &r, &begin, &end) < 0 || read_model_flash(bdir, &r) < 0 ||
        run_qemu(bdir, so, cpu, begin, end, &r) < 0)
        return 1;
    report(m, a, cpu, name, &r);
    if (check_stack(m, a, name, &r) != 0)
        return 1;
    return r.run_status == 0 ? 0 : 1;
}

/* Without --flash-limit, the default flash budget (1.25 x weights + 32 KiB)
 * capped to the emulated board's flash less the harness (its code and the
 * inputs and expected outputs it carries): a model whose weights nearly
 * fill the board is benched without the int16 copies that would not fit it
 * (said on stderr).  The model, or NULL (reported). */
#define BOARD_HARNESS_CODE (64 * 1024)
static te_model *fit_board_flash(te_model *m, bench_args *a)
{
    size_t board = 4u * 1024 * 1024, w = te_model_weights_bytes(m), harness = BOARD_HARNESS_CODE;
    int i;
    if (a->flash && cli_parse_bytes(a->flash, &board) < 0)
        return te_model_free(m), cli_error("bench: --flash takes a size such as 1M or 256K"), NULL;
    for (i = 0; i < m->g->n_inputs; i++)
        harness += te_tensor_bytes(&m->g->tensors[m->g->inputs[i]]);
    for (i = 0; i < m->g->n_outputs; i++)
        harness += te_tensor_bytes(&m->g->tensors[m->g->outputs[i]]);
    if (board <= harness || w + w / 4 + 32768 <= board - harness)
        return m;
    te_model_free(m);
    a->copts.flash_limit = board - harness;
    fprintf(stderr, "tinyengine: bench: flash budget capped to the board's %zu bytes less %zu for "
                    "the harness and its data (--flash-limit %zu)\n",
            board, harness, a->copts.flash_limit);
    return cli_load_opts(a->model, &a->copts);
}

int cmd_bench(int argc, char **argv)
{
    bench_args a;
    const bench_cpu *cpu;
    char name[128], tdir[4096], bdir[4096];
    const char *tmp = getenv("TMPDIR");
    te_model *m;
    int rc = 1;
    if (parse_args(argc, argv, &a) != 0 || !(cpu = find_cpu(a.target)) ||
        find_targets(tdir, sizeof tdir) < 0)
        return 1;
    cli_default_name(a.model, name, sizeof name);
    a.copts.target = a.portable ? TE_TARGET_GENERIC : te_target_parse(cpu->name);
    m = cli_load_opts(a.model, &a.copts);
    if (m && !a.copts.flash_limit)
        m = fit_board_flash(m, &a);
    if (!m)
        return 1;
    snprintf(bdir, sizeof bdir, "%s/tinyengine-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (check_counts(m, &a) != 0)
        goto out;
    if (!mkdtemp(bdir)) {
        cli_error("bench: cannot create a build folder in %s: %s", tmp ? tmp : "/tmp",
                  strerror(errno));
        goto out;
    }
    rc = bench(m, &a, cpu, tdir, bdir, name);
    if (a.keep)
        fprintf(stderr, "tinyengine: build kept in %s\n", bdir);
    else
        remove_build(bdir, name);
out:
    te_model_free(m);
    return rc;
}
