/* api_harness.c - checks a generated model through its public API only.
 * Built with -DTE_MODEL=<name> -DTE_MODEL_HEADER="<name>.h".
 * usage: api_harness IN_0 .. IN_{n-1} EXPECTED_OUT_0 .. EXPECTED_OUT_{m-1}
 * Runs the inference twice: from the initial (zeroed) state, then again after
 * NAME_reset() on the same inputs; both must give the expected bytes (a model
 * with LSTM/SVDF state would otherwise carry the first invoke into the second).
 * Exit 0 when every output byte equals the expected file, 1 otherwise.
 * Built with -DTE_HARNESS_LAYERS -DTE_MODEL_LAYER_HOOK=te_harness_layer too,
 * the first invoke writes every operator output as `tinyengine run
 * --dump-layers` does, into $TE_HARNESS_LAYER_DIR/op<NNN>_<j>.bin (when set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include TE_MODEL_HEADER

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define API(x) CAT(TE_MODEL, x)

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long len;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    buf = malloc((size_t)len + 1);
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *n = (size_t)len;
    return buf;
}

#ifdef TE_HARNESS_LAYERS
static const char *layer_dir; /* NULL: no layers written */
void te_harness_layer(int op, int output, const void *data, size_t bytes);
void te_harness_layer(int op, int output, const void *data, size_t bytes)
{
    char path[4096];
    FILE *f;
    if (!layer_dir)
        return;
    snprintf(path, sizeof path, "%s/op%03d_%d.bin", layer_dir, op, output);
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, bytes, f) != bytes) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}
#endif

static int load_inputs(char **files, int nin)
{
    int i;
    for (i = 0; i < nin; i++) {
        size_t n;
        unsigned char *d = slurp(files[i], &n);
        if (n != API(input_bytes)(i)) {
            fprintf(stderr, "%s: %zu bytes, input %d needs %zu\n", files[i], n, i,
                    API(input_bytes)(i));
            return 1;
        }
        memcpy(API(input)(i), d, n);
        free(d);
    }
    return 0;
}

static int compare_outputs(char **files, int nout, const char *when)
{
    int i, bad = 0;
    for (i = 0; i < nout; i++) {
        size_t n, j;
        unsigned char *want = slurp(files[i], &n);
        const unsigned char *got = API(output)(i);
        if (n != API(output_bytes)(i)) {
            fprintf(stderr, "output %d: %zu bytes, expected file has %zu\n", i,
                    API(output_bytes)(i), n);
            bad = 1;
        } else {
            for (j = 0; j < n && got[j] == want[j]; j++)
                ;
            if (j < n) {
                fprintf(stderr, "output %d differs at byte %zu %s: got %d, expected %d\n", i, j,
                        when, got[j], want[j]);
                bad = 1;
            }
        }
        free(want);
    }
    return bad;
}

/* The header's macros for input 0 and output 0 (built with --name te_model)
 * agree with the accessors: element type x shape = bytes. */
static int check_io_macros(void)
{
#if defined(TE_MODEL_INPUT0_BYTES) && defined(TE_MODEL_OUTPUT0_BYTES)
    static const int in_shape[] = TE_MODEL_INPUT0_SHAPE, out_shape[] = TE_MODEL_OUTPUT0_SHAPE;
    size_t in_n = sizeof(TE_MODEL_INPUT0_CTYPE), out_n = sizeof(TE_MODEL_OUTPUT0_CTYPE);
    int r;
    for (r = 0; r < TE_MODEL_INPUT0_RANK; r++)
        in_n *= (size_t)in_shape[r];
    for (r = 0; r < TE_MODEL_OUTPUT0_RANK; r++)
        out_n *= (size_t)out_shape[r];
    if (in_n != TE_MODEL_INPUT0_BYTES || in_n != API(input_bytes)(0) ||
        out_n != TE_MODEL_OUTPUT0_BYTES || out_n != API(output_bytes)(0)) {
        fprintf(stderr, "header macros: input 0 %zu bytes, output 0 %zu, accessors %zu, %zu\n",
                in_n, out_n, API(input_bytes)(0), API(output_bytes)(0));
        return 1;
    }
#endif
    return 0;
}

int main(int argc, char **argv)
{
    int nin = API(num_inputs)(), nout = API(num_outputs)(), run;
    if (argc != 1 + nin + nout) {
        fprintf(stderr, "usage: %s IN x%d EXPECTED x%d\n", argv[0], nin, nout);
        return 2;
    }
    if (check_io_macros())
        return 1;
    for (run = 0; run < 2; run++) {
#ifdef TE_HARNESS_LAYERS
        layer_dir = run ? NULL : getenv("TE_HARNESS_LAYER_DIR");
        if (layer_dir && !*layer_dir)
            layer_dir = NULL;
#endif
        if (run)
            API(reset)();
        if (load_inputs(argv + 1, nin))
            return 1;
        if (API(invoke)() != 0) {
            fprintf(stderr, "invoke failed\n");
            return 1;
        }
        if (compare_outputs(argv + 1 + nin, nout, run ? "after reset" : "on the first invoke"))
            return 1;
    }
    return 0;
}
