/* profile_model.c - the TinyEngine library from C: profiles one model for
 * each target and patch setting (what an architecture search would compare),
 * prints a summary line per setting and the three most expensive layers of
 * the first, and writes the generated C of the model into memory.
 *
 *   make && ./profile_model ../models/tiny_cnn.tflite */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tinyengine.h"

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

/* The three layers with the most estimated instructions. */
static void top_layers(const te_report *r)
{
    int shown[3] = {-1, -1, -1}, k, i;
    for (k = 0; k < 3 && k < r->n_layers; k++) {
        int best = -1;
        for (i = 0; i < r->n_layers; i++)
            if (i != shown[0] && i != shown[1] &&
                (best < 0 || r->layers[i].instructions > r->layers[best].instructions))
                best = i;
        shown[k] = best;
        printf("    op %-3d %-18s %-28s %10.0f instructions, %8zu B live\n",
               r->layers[best].index, r->layers[best].op, r->layers[best].kernel,
               r->layers[best].instructions, r->layers[best].live_bytes);
    }
}

int main(int argc, char **argv)
{
    static const char *const targets[] = {"cortex-m4", "cortex-m7"};
    static const char *const patches[] = {"off", "auto"};
    size_t n = 0;
    void *model;
    char err[512];
    te_generated *gen;
    int t, p;
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL.tflite\n", argv[0]);
        return 2;
    }
    if (!(model = read_file(argv[1], &n))) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    printf("%s (TinyEngine %s)\n", argv[1], te_version());
    for (t = 0; t < 2; t++)
        for (p = 0; p < 2; p++) {
            te_config cfg;
            te_report *r;
            memset(&cfg, 0, sizeof cfg);
            cfg.target = targets[t];
            cfg.patch = patches[p];
            cfg.mhz = t == 0 ? 168 : 480;
            r = te_profile_memory(model, n, &cfg, err, sizeof err);
            if (!r) {
                fprintf(stderr, "error: %s\n", err);
                free(model);
                return 1;
            }
            printf("  %-9s patch %-4s: %7zu B SRAM, %8zu B flash, %11.0f instructions, "
                   "%8.3f ms at %.0f MHz\n",
                   r->target, patches[p], r->peak_sram_bytes, r->flash_bytes, r->instructions,
                   r->latency_ms, r->mhz);
            if (t == 0 && p == 0)
                top_layers(r);
            te_report_free(r);
        }
    gen = te_compile_memory(model, n, "net", NULL, err, sizeof err);
    if (!gen) {
        fprintf(stderr, "error: %s\n", err);
        free(model);
        return 1;
    }
    printf("  generated net.h: %zu bytes, net.c: %zu bytes\n", gen->header_bytes,
           gen->source_bytes);
    te_generated_free(gen);
    free(model);
    return 0;
}
