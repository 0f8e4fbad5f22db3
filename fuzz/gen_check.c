/* gen_check.c - runs the code generated for fuzzer-found models under the
 * sanitizers (the fuzz targets only generate code into memory):
 *
 *   gen_check WORKDIR INPUT...
 *
 * Each INPUT is a fuzz_compile input (options byte + .tflite; for
 * fuzz_graph inputs, fuzz/gen_check.sh first turns the recipe into one
 * with FUZZ_GRAPH_DUMP).  Models the compiler refuses are skipped; the
 * others are generated into WORKDIR, built with $CC (default cc) and
 * -fsanitize=address,undefined -fno-sanitize-recover=all together with a
 * small main() that fills every input with deterministic bytes (finite
 * values for float inputs) and calls NAME_invoke(), and run.  Prints one
 * line per input; exit status 1 when any build or run failed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "fuzz_options.h"

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long len;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)len + 1);
        if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
            free(buf);
            buf = NULL;
        }
        *n = (size_t)len;
    }
    fclose(f);
    return buf;
}

static int write_text(const char *dir, const char *name, const char *text, size_t n)
{
    char path[4200];
    FILE *f;
    int ok;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        return -1;
    ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* main.c: deterministic inputs (floats in [-4, 4)), one inference. */
static int write_main(const char *dir, const te_graph *g)
{
    char text[4096];
    size_t len = 0;
    int i;
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "#include <string.h>\n#include \"gc.h\"\n"
                            "static const int is_float[] = {0");
    for (i = 0; i < g->n_inputs && len < sizeof text; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, ", %d",
                                g->tensors[g->inputs[i]].type == TE_DT_FLOAT32);
    len += (size_t)snprintf(
        text + len, sizeof text - len,
        "};\nint main(void)\n{\n    unsigned x = 12345u;\n    int i;\n    size_t k;\n"
        "    for (i = 0; i < gc_num_inputs(); i++) {\n"
        "        unsigned char *p = gc_input(i);\n"
        "        for (k = 0; k < gc_input_bytes(i); k++) {\n"
        "            x = x * 1103515245u + 12345u;\n"
        "            if (is_float[i + 1] && k %% 4 == 0 && k + 4 <= gc_input_bytes(i)) {\n"
        "                float v = (float)((x >> 8) %% 8000) / 1000.0f - 4.0f;\n"
        "                memcpy(p + k, &v, 4);\n                k += 3;\n"
        "            } else {\n                p[k] = (unsigned char)(x >> 16);\n            }\n"
        "        }\n    }\n    return gc_invoke() == 0 ? 0 : 3;\n}\n");
    if (len >= sizeof text)
        return -1;
    return write_text(dir, "main.c", text, len);
}

/* 1 = refused by the compiler, 0 = generated code ran clean, -1 = failed. */
static int check_one(const char *dir, const uint8_t *buf, size_t n)
{
    te_compile_opts o;
    te_diag d;
    te_model *m;
    te_buf h, c;
    char cmd[9000];
    const char *cc = getenv("CC");
    int rc = -1;
    if (n < 1)
        return 1;
    te_fuzz_options(buf[0], &o);
    memset(&d, 0, sizeof d);
    m = te_model_load(buf + 1, n - 1, &o, &d);
    if (!m)
        return 1;
    memset(&h, 0, sizeof h);
    memset(&c, 0, sizeof c);
    if (te_model_generate(m, "gc", "gen_check", &h, &c, &d) == 0 &&
        write_text(dir, "gc.h", h.s, h.len) == 0 && write_text(dir, "gc.c", c.s, c.len) == 0 &&
        write_main(dir, m->g) == 0) {
        snprintf(cmd, sizeof cmd,
                 "%s -std=c99 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined "
                 "-fno-sanitize-recover=all -I'%s' '%s/gc.c' '%s/main.c' -o '%s/gc' -lm && "
                 "'%s/gc'", cc && *cc ? cc : "cc", dir, dir, dir, dir, dir);
        rc = system(cmd) == 0 ? 0 : -1;
    }
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
    return rc;
}

int main(int argc, char **argv)
{
    int i, fail = 0, ran = 0, refused = 0;
    if (argc < 3) {
        fprintf(stderr, "usage: gen_check WORKDIR INPUT...\n");
        return 2;
    }
    for (i = 2; i < argc; i++) {
        size_t n = 0;
        uint8_t *buf = slurp(argv[i], &n);
        int rc = buf ? check_one(argv[1], buf, n) : -1;
        free(buf);
        if (rc == 1) {
            refused++;
            continue;
        }
        ran++;
        if (rc < 0) {
            fail++;
            printf("FAIL %s\n", argv[i]);
            fflush(stdout);
        }
    }
    printf("gen_check: %d inputs, %d refused by the compiler, %d generated and run, %d failed\n",
           argc - 2, refused, ran, fail);
    return fail ? 1 : 0;
}
