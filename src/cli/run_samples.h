/* run_samples.h - the samples of a folder for `tinyengine run --samples`
 * (run_samples.c). */
#ifndef TE_RUN_SAMPLES_H
#define TE_RUN_SAMPLES_H

#include "cli.h"

typedef struct {
    int n;        /* samples found */
    int n_inputs; /* files per sample (the model's inputs) */
    long *ids;    /* sample numbers k, ascending */
    char **paths; /* paths[j * n_inputs + i]: input i of sample ids[j] */
} run_samples;

/* Finds every DIR/input_<k>_0.bin and checks sample k has exactly
 * input_<k>_0 .. input_<k>_<n_inputs - 1>.  0, or 1 after reporting. */
int run_samples_find(const char *dir, int n_inputs, run_samples *s);
void run_samples_free(run_samples *s);

#endif
