/* profile_speed.c - how fast the library profiles a model compared with a
 * full compilation, in one process: te_profile_memory (load, passes,
 * planner, report; no code) against te_compile_memory (the same plus the
 * generated NAME.h / NAME.c text), each repeated until it has run for a
 * while, per model.  Prints a markdown table of microseconds per call and
 * the ratio.  bench/profile_speed.sh builds and runs it (and counts
 * instructions with callgrind when valgrind is there: --once).
 *
 *   profile_speed [--target T] [--min-ms N] MODEL.tflite...
 *   profile_speed --once profile|compile MODEL.tflite   (one call, for callgrind) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tinyengine.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long len;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)len)) != NULL && fread(buf, 1, (size_t)len, f) == (size_t)len)
        *n = (size_t)len;
    else {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

/* One call of the measured operation; 0 on success. */
static int run_once(int compile, const void *data, size_t n, const te_config *cfg)
{
    char err[256];
    if (compile) {
        te_generated *g = te_compile_memory(data, n, "net", cfg, err, sizeof err);
        te_generated_free(g);
        return g ? 0 : -1;
    } else {
        te_report *r = te_profile_memory(data, n, cfg, err, sizeof err);
        te_report_free(r);
        return r ? 0 : -1;
    }
}

/* Microseconds per call: repeats until min_ms have passed (at least 3 calls),
 * best of 3 such rounds. */
static double time_us(int compile, const void *data, size_t n, const te_config *cfg, double min_ms)
{
    double best = -1;
    int round;
    for (round = 0; round < 3; round++) {
        double t0 = now_us(), t;
        long calls = 0;
        do {
            if (run_once(compile, data, n, cfg) != 0)
                return -1;
            calls++;
            t = now_us() - t0;
        } while (t < min_ms * 1000.0 || calls < 3);
        if (best < 0 || t / (double)calls < best)
            best = t / (double)calls;
    }
    return best;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int main(int argc, char **argv)
{
    te_config cfg;
    double min_ms = 200;
    int i, once = -1, rc = 0, header = 0;
    memset(&cfg, 0, sizeof cfg);
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            cfg.target = argv[++i];
        } else if (!strcmp(argv[i], "--min-ms") && i + 1 < argc) {
            min_ms = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--once") && i + 1 < argc) {
            once = !strcmp(argv[++i], "compile");
        } else {
            size_t n = 0;
            void *data = read_file(argv[i], &n);
            if (!data) {
                fprintf(stderr, "profile_speed: cannot read %s\n", argv[i]);
                rc = 1;
                continue;
            }
            if (once >= 0) {
                rc |= run_once(once, data, n, &cfg) != 0;
            } else {
                double p = time_us(0, data, n, &cfg, min_ms);
                double c = time_us(1, data, n, &cfg, min_ms);
                if (!header++)
                    printf("| model | profile (us) | compile (us) | compile / profile |\n"
                           "|---|---:|---:|---:|\n");
                if (p < 0 || c < 0) {
                    printf("| %s | failed | | |\n", base_name(argv[i]));
                    rc = 1;
                } else {
                    printf("| %s | %.1f | %.1f | %.0fx |\n", base_name(argv[i]), p, c, c / p);
                }
            }
            free(data);
        }
    }
    return rc;
}
