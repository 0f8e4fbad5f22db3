/* e2e_run.h - end-to-end runs for operator tests: compiles a model image
 * (built with tools/tflite_builder) to C with te_compile_memory, builds the
 * generated NAME.c with a harness that uses only the generated API with the
 * host C compiler ($CC, default cc; -O0, the quickest build, -Wall -Wextra
 * -Werror: generated code must build warning-free; the optimising passes'
 * warnings are checked on the conformance and real models by
 * golden.portability* and cli.flash_bound_host), runs one inference on the given inputs and
 * returns the outputs.  TE_E2E_SAVE=DIR also writes each model there as
 * modelN.tflite.  Header only (static functions). */
#ifndef TE_E2E_RUN_H
#define TE_E2E_RUN_H

#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tinyengine.h"

#if defined(__GNUC__)
#define E2E_UNUSED __attribute__((unused))
#else
#define E2E_UNUSED
#endif

#define E2E_MAX_IO 8

static const char e2e_harness[] =
    "#include <stdio.h>\n#include \"net.h\"\n"
    "int main(int argc, char **argv)\n{\n"
    "    int i;\n    (void)argc;\n"
    "    for (i = 0; i < net_num_inputs(); i++) {\n"
    "        char p[512]; FILE *f; snprintf(p, sizeof p, \"%s/in%d.bin\", argv[1], i);\n"
    "        f = fopen(p, \"rb\");\n"
    "        if (!f || fread(net_input(i), 1, net_input_bytes(i), f) != net_input_bytes(i)) return 2;\n"
    "        fclose(f);\n    }\n"
    "    if (net_invoke() != 0) return 3;\n"
    "    for (i = 0; i < net_num_outputs(); i++) {\n"
    "        char p[512]; FILE *f; snprintf(p, sizeof p, \"%s/out%d.bin\", argv[1], i);\n"
    "        f = fopen(p, \"wb\");\n"
    "        if (!f || fwrite(net_output(i), 1, net_output_bytes(i), f) != net_output_bytes(i)) return 4;\n"
    "        fclose(f);\n    }\n    return 0;\n}\n";

static E2E_UNUSED int e2e_write(const char *dir, const char *name, const void *data, size_t n)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        return -1;
    if (n && fwrite(data, 1, n, f) != n) {
        fclose(f);
        return -1;
    }
    return fclose(f);
}

/* TE_E2E_SAVE=DIR: writes the model there as STEMn.tflite (n counts the
 * models saved), for portability / QEMU checks by hand. */
static E2E_UNUSED void e2e_save_model(const uint8_t *model, size_t size, const char *stem)
{
    static int saved;
    char path[600];
    FILE *f;
    if (!getenv("TE_E2E_SAVE"))
        return;
    snprintf(path, sizeof path, "%s/%s%d.tflite", getenv("TE_E2E_SAVE"), stem, saved++);
    f = fopen(path, "wb");
    if (f) {
        fwrite(model, 1, size, f);
        fclose(f);
    }
}

/* The generated net.h, net.c and the harness main.c in dir; 0, or -1. */
static E2E_UNUSED int e2e_write_sources(const char *dir, const te_generated *gen,
                                        const char *harness, size_t harness_bytes)
{
    if (e2e_write(dir, "net.h", gen->header, gen->header_bytes) < 0 ||
        e2e_write(dir, "net.c", gen->source, gen->source_bytes) < 0 ||
        e2e_write(dir, "main.c", harness, harness_bytes) < 0)
        return -1;
    return 0;
}

/* Removes a run's temporary directory; 0, or -1. */
static E2E_UNUSED int e2e_remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) != 0 ? -1 : 0;
}

/* Compiles model (and frees it): 1 when it compiles and expect is NULL, or
 * when it is refused with a message containing expect; otherwise 0, with
 * the message printed. */
static E2E_UNUSED int e2e_compiles(uint8_t *model, size_t size, const char *expect)
{
    char err[512] = "";
    te_generated *gen = te_compile_memory(model, size, "net", NULL, err, sizeof err);
    int ok = expect ? gen == NULL && strstr(err, expect) != NULL : gen != NULL;
    if (!ok)
        printf("  expected %s, got: %s\n", expect ? expect : "success", err);
    te_generated_free(gen);
    free(model);
    return ok;
}

/* e2e_run compiled with cfg (target, flash limit, ...; NULL: defaults). */
static E2E_UNUSED int e2e_run_cfg(const uint8_t *model, size_t size, const te_config *cfg,
                                  int n_in, const void *const *in, const size_t *in_bytes,
                                  int n_out, void *const *out, const size_t *out_bytes)
{
    char err[512], tmpl[] = "/tmp/te-e2e-XXXXXX", cmd[2048], name[32];
    const char *cc = getenv("CC");
    te_generated *gen = te_compile_memory(model, size, "net", cfg, err, sizeof err);
    int i, rc = -1;
    char *dir;
    if (!gen) {
        printf("e2e: compile failed: %s\n", err);
        return -1;
    }
    e2e_save_model(model, size, "model");
    dir = mkdtemp(tmpl);
    if (!dir || e2e_write_sources(dir, gen, e2e_harness, sizeof e2e_harness - 1) < 0)
        goto done;
    for (i = 0; i < n_in; i++) {
        snprintf(name, sizeof name, "in%d.bin", i);
        if (e2e_write(dir, name, in[i], in_bytes[i]) < 0)
            goto done;
    }
    snprintf(cmd, sizeof cmd,
             "%s -std=c99 -O0 -Wall -Wextra -Werror -o %s/net %s/net.c %s/main.c -lm && %s/net %s",
             cc && *cc ? cc : "cc", dir, dir, dir, dir, dir);
    if (system(cmd) != 0) {
        printf("e2e: build or run failed (an invoke a test expects to fail included)\n");
        goto done;
    }
    for (i = 0; i < n_out; i++) {
        char path[512];
        FILE *f;
        size_t got;
        snprintf(path, sizeof path, "%s/out%d.bin", dir, i);
        f = fopen(path, "rb");
        if (!f)
            goto done;
        got = fread(out[i], 1, out_bytes[i], f);
        if (got != out_bytes[i] || fgetc(f) != EOF) {
            printf("e2e: output %d has the wrong size\n", i);
            fclose(f);
            goto done;
        }
        fclose(f);
    }
    rc = 0;
done:
    if (dir && e2e_remove_dir(dir) < 0)
        rc = -1;
    te_generated_free(gen);
    return rc;
}

/* Runs the model on inputs in[i] (in_bytes[i] each) and reads output i into
 * out[i] (out_bytes[i] expected).  0 on success; -1 with a message printed. */
static E2E_UNUSED int e2e_run(const uint8_t *model, size_t size, int n_in, const void *const *in,
                   const size_t *in_bytes, int n_out, void *const *out, const size_t *out_bytes)
{
    return e2e_run_cfg(model, size, NULL, n_in, in, in_bytes, n_out, out, out_bytes);
}

#endif
