/* run_samples.c - `tinyengine run --samples DIR`: the samples of a folder in
 * the layout of TFLite reference data (input_<k>_<i>.bin: sample k, model
 * input i), found, sorted by k and checked to be complete, so that one
 * build of the generated code runs them all. */
#define _POSIX_C_SOURCE 200809L /* opendir, readdir */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_samples.h"

static int by_number(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* k when name is "input_<k>_0.bin", else -1. */
static long sample_of(const char *name)
{
    char *end;
    long k;
    if (strncmp(name, "input_", 6) != 0 || name[6] < '0' || name[6] > '9')
        return -1;
    k = strtol(name + 6, &end, 10);
    return strcmp(end, "_0.bin") == 0 && k < 1000000 ? k : -1;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* Sample j has exactly the files input_<k>_0 .. input_<k>_<n_inputs - 1>;
 * records their paths.  0, or 1 after reporting. */
static int check_sample(const char *dir, run_samples *s, int j)
{
    char path[4200];
    long k = s->ids[j];
    int i;
    for (i = 0; i <= s->n_inputs; i++) {
        int there;
        if (snprintf(path, sizeof path, "%s/input_%ld_%d.bin", dir, k, i) >= (int)sizeof path)
            return cli_error("run: path too long");
        there = file_exists(path);
        if (i < s->n_inputs && !there)
            return cli_error("run: sample %ld has no %s (the model has %d inputs)", k, path,
                             s->n_inputs);
        if (i == s->n_inputs && there)
            return cli_error("run: sample %ld has %s but the model has %d input(s)", k, path,
                             s->n_inputs);
        if (i < s->n_inputs && !(s->paths[j * s->n_inputs + i] = strdup(path)))
            return cli_error("run: out of memory");
    }
    return 0;
}

int run_samples_find(const char *dir, int n_inputs, run_samples *s)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t cap = 0;
    int j;
    memset(s, 0, sizeof *s);
    if (!d)
        return cli_error("run: cannot open the samples folder %s", dir);
    while ((e = readdir(d)) != NULL) {
        long k = sample_of(e->d_name);
        if (k < 0)
            continue;
        if ((size_t)s->n == cap) {
            long *grown = realloc(s->ids, (cap = cap ? 2 * cap : 16) * sizeof *grown);
            if (!grown) {
                closedir(d);
                run_samples_free(s);
                return cli_error("run: out of memory");
            }
            s->ids = grown;
        }
        s->ids[s->n++] = k;
    }
    closedir(d);
    if (!s->n)
        return cli_error("run: no samples (input_<k>_0.bin) in %s", dir);
    qsort(s->ids, s->n, sizeof *s->ids, by_number);
    s->paths = calloc(s->n * (size_t)n_inputs, sizeof *s->paths);
    if (!s->paths) {
        run_samples_free(s);
        return cli_error("run: out of memory");
    }
    s->n_inputs = n_inputs;
    for (j = 0; j < s->n; j++)
        if (check_sample(dir, s, j) != 0) {
            run_samples_free(s);
            return 1;
        }
    return 0;
}

void run_samples_free(run_samples *s)
{
    int j;
    if (s->paths)
        for (j = 0; j < s->n * s->n_inputs; j++)
            free(s->paths[j]);
    free(s->paths);
    free(s->ids);
    memset(s, 0, sizeof *s);
}
