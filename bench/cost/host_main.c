/* host_main.c - host harness of bench/calibrate_cost.sh: per-layer
 * instruction counts of a generated model (portable C kernels) on the build
 * machine, under valgrind's callgrind.
 *
 * Built with -DTE_MODEL=m -DTE_MODEL_HEADER="m.h" -DM_LAYER_HOOK=te_layer_mark.
 * Reads input i from te_in<i>.bin, calls te_layer_mark once, runs m_invoke
 * (te_layer_mark after every operator output), calls it once more and writes
 * output i to te_out<i>.bin.  Run
 * with `valgrind --tool=callgrind --dump-before=te_layer_mark`: dump k+2 then
 * holds the instructions from mark k to mark k+1 (dump 1 is the start-up). */
#include <stdio.h>

#include TE_MODEL_HEADER

#define TE_CAT2(a, b) a##_##b
#define TE_CAT(a, b) TE_CAT2(a, b)
#define API(x) TE_CAT(TE_MODEL, x)

void te_layer_mark(int op, int output, const void *data, size_t bytes);

/* Does nothing; not inlined, so that callgrind sees every call. */
__attribute__((noinline)) void te_layer_mark(int op, int output, const void *data, size_t bytes)
{
    __asm__ volatile("" : : "r"(op), "r"(output), "r"(data), "r"(bytes) : "memory");
}

static int load_input(int i)
{
    char path[32];
    FILE *f;
    size_t n = API(input_bytes)(i), got;
    snprintf(path, sizeof path, "te_in%d.bin", i);
    f = fopen(path, "rb");
    if (!f)
        return -1;
    got = fread(API(input)(i), 1, n, f);
    fclose(f);
    return got == n ? 0 : -1;
}

static void save_output(int i)
{
    char path[32];
    FILE *f;
    snprintf(path, sizeof path, "te_out%d.bin", i);
    if ((f = fopen(path, "wb")) != NULL) {
        fwrite(API(output)(i), 1, API(output_bytes)(i), f);
        fclose(f);
    }
}

int main(void)
{
    int i, rc;
    for (i = 0; i < API(num_inputs)(); i++)
        if (load_input(i) < 0) {
            fprintf(stderr, "te-layers: cannot read te_in%d.bin\n", i);
            return 2;
        }
    te_layer_mark(-1, 0, NULL, 0);
    rc = API(invoke)();
    te_layer_mark(-2, 0, NULL, 0);
    for (i = 0; i < API(num_outputs)(); i++)
        save_output(i);
    return rc == 0 ? 0 : 2;
}
