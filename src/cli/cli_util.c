/* cli_util.c - file, process and error helpers shared by the subcommands. */
#define _XOPEN_SOURCE 700 /* fork, execvp, waitpid, dup2, mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../codegen/codegen.h"
#include "../ir/target.h"
#include "cli.h"

int cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("tinyengine: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

int cli_write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        cli_error("cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if ((n && fwrite(data, 1, n, f) != n) | (fclose(f) != 0)) {
        cli_error("cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void *cli_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, len = 0;
    if (!f) {
        cli_error("cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            char *nb = realloc(buf, cap ? cap * 2 : 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                cli_error("out of memory reading %s", path);
                return NULL;
            }
            buf = nb;
            cap = cap ? cap * 2 : 65536;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        cli_error("cannot read %s", path);
        return NULL;
    }
    fclose(f);
    *n = len;
    return buf;
}

int cli_mkdirs(const char *path)
{
    char tmp[4096];
    size_t i, len = strlen(path);
    if (len == 0 || len >= sizeof tmp)
        return cli_error("bad directory name '%s'", path), -1;
    memcpy(tmp, path, len + 1);
    for (i = 1; i <= len; i++) {
        if (tmp[i] == '/' || tmp[i] == '\0') {
            char c = tmp[i];
            tmp[i] = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return cli_error("cannot create directory %s: %s", tmp, strerror(errno)), -1;
            tmp[i] = c;
        }
    }
    return 0;
}

void cli_default_name(const char *model_path, char *out, size_t n)
{
    const char *base = strrchr(model_path, '/');
    char tmp[256];
    char *dot;
    snprintf(tmp, sizeof tmp, "%s", base ? base + 1 : model_path);
    dot = strrchr(tmp, '.');
    if (dot && dot != tmp)
        *dot = '\0';
    te_c_identifier(tmp, out, n);
}

/* --explain: each stage the patch search rejects, and why (stderr, so
 * that --json output stays JSON). */
static void explain_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "patch search: %s\n", line);
}

/* --max-recompute was given (it means nothing without --patch auto). */
static int max_recompute_given;

int cli_check_options(const te_compile_opts *o)
{
    if (max_recompute_given && (!o || o->patch.mode != TE_PATCH_AUTO))
        return cli_error("--max-recompute works only with --patch auto");
    return 0;
}

te_model *cli_load_opts(const char *path, const te_compile_opts *o)
{
    te_diag d = {{0}, 0};
    te_model *m;
    if (cli_check_options(o) != 0)
        return NULL;
    m = te_model_load_file(path, o, &d);
    if (!m)
        cli_error("%s: %s", path, d.failed ? d.msg : "cannot load model");
    return m;
}

te_model *cli_load(const char *path) { return cli_load_opts(path, NULL); }

#define CLI_MODEL_OPTIONS_HELP                                                              \
    "  --int8-io           drop a leading QUANTIZE / trailing DEQUANTIZE: the API takes\n"     \
    "                      and returns int8 tensors (scale, zero point in the header)\n"       \
    "  --sram-limit BYTES  arena + state + stack (NAME_STACK_BYTES of an optimised\n"         \
    "                      build) must fit BYTES (k/K and m/M suffixes: KiB, MiB); if\n"      \
    "                      layer by layer does not, the fastest patch-based plan that\n"      \
    "                      fits is taken, else one line names the smallest reachable\n"       \
    "  --flash-limit BYTES flash (code + constants) the generated code may take (k/K,\n"     \
    "                      m/M suffixes; default on every target: 1.25 x weights + 32K).\n"  \
    "                      int16 weight copies (faster convolutions) and inlined kernels\n"   \
    "                      are added within it, layers with the most instructions saved\n"    \
    "                      per byte first; fails when even the int8 model does not fit\n"     \
    "  --memory-region NAME=BYTES  (repeatable) RAM regions, e.g. DTCM=128K then\n"        \
    "                      SRAM=320K: each buffer in one region, the hottest (bytes\n"       \
    "                      accessed per byte) in the first while they fit; one array per\n"  \
    "                      region, placed by NAME_<REGION>_ATTR (empty by default)\n"        \
    "  --patch MODE        patch-based first stage: off (default), auto (the split and\n"     \
    "                      grid with the smallest arena whose patches' code fits the flash\n" \
    "                      budget and whose cost --max-recompute allows; without\n"           \
    "                      --flash-limit, patches may add 32 KiB + 0.25 x the weights\n"      \
    "                      beyond the default budget; a finer grid only while each byte\n"   \
    "                      of SRAM it saves costs at most 8 bytes of code), or K:HxW (the\n" \
    "                      first K operators over an H x W grid of the stage output);\n"     \
    "                      K:HxW+K2:H2xW2 adds a second stage, the next K2 operators;\n"     \
    "                      K@F:HxW is one stage, the K operators from step F;\n"              \
    "                      a stage ending in :cache (6:4x3:cache) keeps the rows a patch\n"  \
    "                      shares with the one above in a line buffer instead of\n"         \
    "                      computing them again (halo caching; auto tries it too);\n"       \
    "                      auto also tries one stage around the peak step (a\n"             \
    "                      decoder's upsampled maps) and keeps it when it costs less\n"      \
    "  --max-recompute PCT with --patch auto (an error without): extra instructions the\n"   \
    "                      patches may cost (recomputed overlaps, smaller kernels, copies;\n" \
    "                      the target's cost model), in percent of the model's (default 200)\n"   \
    "  --explain           with --patch auto or --sram-limit: each stage the patch search\n"  \
    "                      rejects and why, on stderr (\"patch search: ...\")\n"

const char cli_compile_options_help[] =
    "  --target T          generic (default: portable C99), cortex-m0plus, cortex-m4,\n"
    "                      cortex-m7 (the M4/M7 get the DSP SIMD kernels), x86-64-v3\n"
    "                      (x86-64 with AVX2: AVX2 kernels; the code needs such a CPU)\n"
    CLI_MODEL_OPTIONS_HELP;
const char cli_model_options_help[] = CLI_MODEL_OPTIONS_HELP;

int cli_parse_bytes(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *s == '-')
        return -1;
    if (*end == 'k' || *end == 'K')
        v *= 1024, end++;
    else if (*end == 'm' || *end == 'M')
        v *= 1024 * 1024, end++;
    if (*end != '\0' || v == 0)
        return -1;
    *out = (size_t)v;
    return 0;
}

int cli_compile_option(int argc, char **argv, int *i, te_compile_opts *o)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--int8-io")) {
        o->int8_io = 1;
        return 1;
    }
    if (!strcmp(a, "--target")) {
        int t = *i + 1 < argc ? te_target_parse(argv[*i + 1]) : -1;
        if (t < 0) {
            cli_error("--target takes generic, cortex-m0plus, cortex-m4, cortex-m7 or x86-64-v3");
            return -1;
        }
        o->target = t;
        ++*i;
        return 1;
    }
    if (!strcmp(a, "--patch")) {
        if (*i + 1 >= argc || te_patch_opts_parse(argv[*i + 1], &o->patch) < 0) {
            cli_error("--patch takes off, auto, K:HxW, K:HxW+K2:H2xW2 or K@F:HxW, a stage "
                      "optionally ending in :cache (e.g. 4:3x3, 4:3x3+6:2x2, 6@11:2x2 or "
                      "4:3x3:cache)");
            return -1;
        }
        ++*i;
        return 1;
    }
    if (!strcmp(a, "--max-recompute")) {
        char *end;
        double v = *i + 1 < argc ? strtod(argv[*i + 1], &end) : -1;
        if (*i + 1 >= argc || end == argv[*i + 1] || *end || !(v >= 0 && v <= 1000)) {
            cli_error("--max-recompute takes a percentage such as 20");
            return -1;
        }
        o->patch.max_recompute = v / 100.0;
        max_recompute_given = 1;
        ++*i;
        return 1;
    }
    if (!strcmp(a, "--explain")) {
        o->patch.explain = explain_line;
        return 1;
    }
    if (!strcmp(a, "--flash-limit")) {
        if (*i + 1 >= argc || cli_parse_bytes(argv[*i + 1], &o->flash_limit) < 0) {
            cli_error("--flash-limit needs a byte count such as 524288 or 512K");
            return -1;
        }
        ++*i;
        return 1;
    }
    if (!strcmp(a, "--memory-region")) {
        char err[200];
        if (*i + 1 >= argc) {
            cli_error("--memory-region takes NAME=BYTES such as DTCM=128K");
            return -1;
        }
        if (te_regions_add(&o->regions, argv[*i + 1], err, sizeof err) < 0) {
            cli_error("%s", err);
            return -1;
        }
        ++*i;
        return 1;
    }
    if (!strcmp(a, "--sram-limit")) {
        if (*i + 1 >= argc || cli_parse_bytes(argv[*i + 1], &o->sram_limit) < 0) {
            cli_error("--sram-limit needs a byte count such as 262144 or 256K");
            return -1;
        }
        ++*i;
        return 1;
    }
    return 0;
}

void cli_print_ram(FILE *f, const te_model *m)
{
    te_stack_bound sb = te_model_stack(m);
    fprintf(f, "stack bytes:     %zu (NAME_STACK_BYTES, optimised build; %zu at -O0)\n", sb.opt,
            sb.o0);
    fprintf(f, "RAM bytes:       %zu (arena %zu + state %zu + stack %zu)\n",
            m->plan->arena_bytes + m->plan->state_bytes + sb.opt, m->plan->arena_bytes,
            m->plan->state_bytes, sb.opt);
}

void cli_print_regions(FILE *f, const te_model *m, const char *lead)
{
    int r;
    for (r = 0; r < m->plan->n_regions; r++) {
        const te_plan_region *pr = &m->plan->regions[r];
        fprintf(f, "%s%s %zu of %zu bytes (live peak %zu)%s\n", lead, pr->spec.name, pr->bytes,
                pr->spec.limit, pr->lower_bound,
                r == 0 ? ", the hottest buffers" : "");
    }
}

int cli_generate(te_model *m, const char *model_path, const char *name, const char *dir)
{
    te_buf h = {0}, c = {0};
    te_diag d = {{0}, 0};
    char path[4096];
    int rc = -1;
    const char *base = strrchr(model_path, '/');
    if (te_model_generate(m, name, base ? base + 1 : model_path, &h, &c, &d) < 0) {
        cli_error("%s: %s", model_path, d.msg);
        goto out;
    }
    if (cli_mkdirs(dir) < 0)
        goto out;
    snprintf(path, sizeof path, "%s/%s.h", dir, name);
    if (cli_write_file(path, h.s, h.len) < 0)
        goto out;
    snprintf(path, sizeof path, "%s/%s.c", dir, name);
    if (cli_write_file(path, c.s, c.len) < 0)
        goto out;
    rc = 0;
out:
    te_buf_free(&h);
    te_buf_free(&c);
    return rc;
}

/* Child side of cli_spawn: redirect to the log, then exec. */
static void spawn_child(char **argv, const char *log)
{
    if (log) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        close(fd);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "tinyengine: error: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int cli_spawn(char **argv, const char *log)
{
    pid_t pid = fork();
    int status;
    if (pid < 0)
        return -1;
    if (pid == 0)
        spawn_child(argv, log);
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int cli_build_dir_create(const char *cmd, char *bdir, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(bdir, n, "%s/tinyengine-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", cmd);
    if (mkdtemp(bdir))
        return 0;
    cli_error("%s: cannot create a build folder in %s: %s", cmd, tmp ? tmp : "/tmp",
              strerror(errno));
    return -1;
}

void cli_build_dir_finish(const char *bdir, const char *name, const char *const *files, int keep)
{
    char path[4400];
    int i;
    if (keep) {
        fprintf(stderr, "tinyengine: build kept in %s\n", bdir);
        return;
    }
    for (i = 0; files[i]; i++)
        if (snprintf(path, sizeof path, "%s/%s", bdir, files[i]) < (int)sizeof path)
            remove(path);
    if (snprintf(path, sizeof path, "%s/%s.c", bdir, name) < (int)sizeof path)
        remove(path);
    if (snprintf(path, sizeof path, "%s/%s.h", bdir, name) < (int)sizeof path)
        remove(path);
    rmdir(bdir);
}
