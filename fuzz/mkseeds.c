/* mkseeds.c - writes fuzzing seeds:
 *
 *   mkseeds OUTDIR [GRAPHDIR]
 *     OUTDIR/om_<kind>.tflite   one per model of tests/unit/op_models.h
 *     GRAPHDIR/recipe_<n>       fuzz_graph recipes: 48 deterministic
 *                               pseudo-random byte strings of 64..191 bytes
 *
 * fuzz/build.sh adds te_mkmodel's kinds and makes the per-target corpora. */
#include <stdio.h>

#include "op_models.h"

static int write_recipes(const char *dir)
{
    char path[4096];
    unsigned x = 12345u;
    int k, i;
    for (k = 0; k < 48; k++) {
        FILE *f;
        int n = 64 + k * 8 % 128;
        snprintf(path, sizeof path, "%s/recipe_%02d", dir, k);
        f = fopen(path, "wb");
        if (!f)
            return -1;
        for (i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            fputc((int)((x >> 16) & 0xff), f);
        }
        if (fclose(f) != 0)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    char path[4096];
    int k, fail = 0;
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: mkseeds OUTDIR [GRAPHDIR]\n");
        return 2;
    }
    if (argc == 3 && write_recipes(argv[2]) < 0) {
        fprintf(stderr, "mkseeds: cannot write recipes in %s\n", argv[2]);
        fail = 1;
    }
    for (k = 0; k < OM_N_KINDS; k++) {
        tflb_model m;
        snprintf(path, sizeof path, "%s/om_%s.tflite", argv[1], om_kinds[k].name);
        if (om_build(k, &m) < 0 || tflb_write_file(&m, path) < 0) {
            fprintf(stderr, "mkseeds: cannot build or write %s\n", path);
            fail = 1;
        }
        tflb_free(&m);
    }
    return fail;
}
