/* test_fuzz_regressions.c - replays every input the fuzzers (fuzz/) ever
 * crashed on, kept in tests/unit/fuzz_regressions/:
 *   reader-<what>.bin    bytes for te_load_tflite (fuzz_reader)
 *   compile-<what>.bin   options byte + model for te_model_load and
 *                        te_model_generate (fuzz_compile, fuzz_options.h)
 *   <name>.expect        optional: first line is text the error message
 *                        must contain, or "ok" when the input must compile
 * Each must load or fail with one line, never crash, and take less than the
 * fuzzers' hang limit (2 s of CPU time; compile-add-table-search-unbounded
 * took 4.8 s before its fix): run under ASan and UBSan (tests/run_all.sh)
 * this is the regression test of every fix. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../fuzz/fuzz_options.h"
#include "compiler.h"
#include "frontend/tflite_reader.h"
#include "testlib.h"

static char dir[4096];

/* The folder next to this source file. */
static void find_dir(void)
{
    const char *slash = strrchr(__FILE__, '/');
    size_t n = slash ? (size_t)(slash - __FILE__) : 1;
    if (!slash)
        snprintf(dir, sizeof dir, "./fuzz_regressions");
    else
        snprintf(dir, sizeof dir, "%.*s/fuzz_regressions", (int)n, __FILE__);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *size = (size_t)n;
    }
    fclose(f);
    return buf;
}

/* First line of NAME.expect ("" when there is none). */
static void read_expect(const char *bin, char *want, size_t n)
{
    char path[4200];
    size_t len = strlen(bin), got = 0;
    uint8_t *text;
    want[0] = '\0';
    snprintf(path, sizeof path, "%s/%.*s.expect", dir, (int)(len - 4), bin);
    text = read_file(path, &got);
    if (!text)
        return;
    text[got] = '\0';
    snprintf(want, n, "%s", (char *)text);
    want[strcspn(want, "\r\n")] = '\0';
    free(text);
}

/* 0 = compiled, -1 = refused (message in d). */
static int run_compile(const uint8_t *buf, size_t n, te_diag *d)
{
    te_compile_opts o;
    te_model *m;
    te_buf h, c;
    int rc;
    if (n < 1)
        return te_fail(d, "empty input");
    te_fuzz_options(buf[0], &o);
    m = te_model_load(buf + 1, n - 1, &o, d);
    if (!m)
        return -1;
    memset(&h, 0, sizeof h);
    memset(&c, 0, sizeof c);
    rc = te_model_generate(m, "fz", "regression", &h, &c, d);
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    return rc;
}

static int run_reader(const uint8_t *buf, size_t n, te_diag *d)
{
    te_graph *g = te_load_tflite(buf, n, d);
    te_graph_free(g);
    return g ? 0 : -1;
}

static void replay(const char *name)
{
    char path[4200], want[256];
    uint8_t *buf;
    size_t n = 0;
    te_diag d;
    int rc, ok;
    clock_t t0;
    double secs;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    buf = read_file(path, &n);
    CHECK(buf != NULL);
    if (!buf)
        return;
    memset(&d, 0, sizeof d);
    t0 = clock();
    rc = strncmp(name, "compile-", 8) == 0 ? run_compile(buf, n, &d) : run_reader(buf, n, &d);
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    read_expect(name, want, sizeof want);
    ok = rc == 0 ? !d.failed : (d.failed && d.msg[0] && !strchr(d.msg, '\n'));
    if (strcmp(want, "ok") == 0)
        ok = ok && rc == 0;
    else if (want[0])
        ok = ok && rc < 0 && strstr(d.msg, want) != NULL;
    if (!ok)
        fprintf(stderr, "%s: %s '%s' (expected '%s')\n", name, rc ? "refused" : "compiled", d.msg,
                want);
    if (secs >= 2.0) {
        fprintf(stderr, "%s: took %.1f s of CPU time (a hang: the limit is 2 s)\n", name, secs);
        ok = 0;
    }
    te_test_report(ok, __FILE__, __LINE__, name);
    free(buf);
}

int main(void)
{
    DIR *dp;
    struct dirent *e;
    int count = 0;
    find_dir();
    dp = opendir(dir);
    CHECK(dp != NULL);
    if (!dp) {
        fprintf(stderr, "cannot open %s\n", dir);
        return test_summary();
    }
    while ((e = readdir(dp)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".bin") == 0 &&
            (strncmp(e->d_name, "compile-", 8) == 0 || strncmp(e->d_name, "reader-", 7) == 0)) {
            replay(e->d_name);
            count++;
        }
    }
    closedir(dp);
    CHECK(count > 0);
    return test_summary();
}
