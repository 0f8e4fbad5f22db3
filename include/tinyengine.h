/* tinyengine.h - TinyEngine as a C library: profile an int8 .tflite model
 * (memory plan, MACs, flash, estimated instructions and latency, per layer)
 * fast enough to sit inside an architecture search loop, or compile it to
 * the generated C text in memory.
 *
 * Style: opaque inputs in, one plain report struct out, owned by the
 * library and freed with its own function.  No global state: every call is
 * independent and may run in any thread at the same time as any other
 * (two reports or models may be alive at once).  Errors: the functions
 * return NULL and write one line (NUL-terminated, truncated to err_size)
 * into err when err is not NULL.
 *
 *   te_report *r = te_profile_memory(data, size, NULL, err, sizeof err);
 *   if (!r) { fprintf(stderr, "%s\n", err); ... }
 *   printf("%zu bytes of SRAM, %.0f instructions\n", r->peak_sram_bytes,
 *          r->instructions);
 *   te_report_free(r);
 *
 * Build: link the te_compiler library (CMake target te_compiler) and add
 * this folder to the include path; see examples/api/. */
#ifndef TINYENGINE_H
#define TINYENGINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TE_API_VERSION 1
#define TE_COST_FEATURES 7

/* What to compile for; all zero (or a NULL pointer) = the defaults. */
typedef struct {
    const char *target;  /* "generic" (NULL: the default), "cortex-m0plus", "cortex-m4",
                          * "cortex-m7": picks the kernel variants and the cost model */
    int int8_io;         /* 1: drop a leading QUANTIZE / trailing DEQUANTIZE */
    size_t sram_limit;   /* fail when the arena needs more bytes (0: no limit) */
    const char *patch;   /* patch-based first stage: NULL or "off", "auto", "K:HxW" */
    double max_recompute_pct; /* patch "auto": extra instructions allowed (the target's
                               * cost model), in percent of the model's layer by
                               * layer (0: the default 200; negative: none) */
    double mhz;          /* clock of the latency estimate (0: 120) */
    double cpi;          /* cycles per instruction of the latency estimate (0: 1.0) */
    size_t flash_limit;  /* flash the generated code may take; int16 weight copies and
                          * inlined kernels only within it (0: none given) */
    const char *memory_regions; /* RAM regions as the CLI's --memory-region options,
                          * comma-separated: "DTCM=128K,SRAM=320K" (NULL or "": one
                          * arena); the hottest buffers go in the first */
} te_config;

/* One tensor an operator reads or writes. */
typedef struct {
    const char *type;    /* "int8", "float32", ... */
    int rank;
    int shape[6];
    size_t bytes;
} te_tensor_info;

/* One operator in execution order. */
typedef struct {
    int index;           /* operator index in the model (TFLite's numbering) */
    int step;            /* position in the execution order */
    const char *op;      /* "CONV_2D", "ADD", ... */
    const char *kernel;  /* kernel variant: the runtime function its code calls
                          * ("te_conv2d_s8", ...), "view" when it needs no code */
    int n_inputs, n_outputs;
    const te_tensor_info *inputs;  /* activations (constants not listed) */
    const te_tensor_info *outputs;
    long long macs;
    size_t weights_bytes; /* bytes of its constant inputs */
    size_t const_bytes;  /* estimated flash for its constants as its kernel lays
                          * them out (weights, bias, requantization tables) */
    size_t scratch_bytes; /* its kernel's scratch buffer in the arena */
    size_t live_bytes;   /* arena bytes live while it runs */
    int in_place;        /* 1: writes its output over its input */
    int patched;         /* 1: part of the patch-based first stage */
    double instructions; /* estimated instructions on the target (cost model) */
    double latency_us;   /* instructions * cpi / mhz */
    /* what the estimate is linear in (patched layers: summed over patches):
     * MACs, gathered window elements (conv patches, pool windows), filter
     * taps (MACs / input channels, convolutions), output elements,
     * activation input elements, output rows or pixels, calls */
    double features[TE_COST_FEATURES];
    /* k > 0: it runs in the loop of the WHILE of model operator k - 1, once
     * per iteration; its estimate (and the totals) count one iteration, the
     * trip count being unknown at compile time.  0: it runs once. */
    int loop;
} te_layer_report;

typedef struct {
    const char *target;     /* as compiled: "generic", "cortex-m4", ... */
    const char *cost_model; /* coefficients used: "cortex-m4", "cortex-m7", "host", ... */
    double mhz, cpi;

    long long macs;
    size_t weights_bytes;   /* constant tensors the model uses */
    size_t const_bytes;     /* estimated flash for constants: the layers' const_bytes */
    size_t code_bytes;      /* estimated flash for code: used kernels + calls */
    size_t flash_bytes;     /* const_bytes + code_bytes */

    size_t peak_sram_bytes;          /* the static arena with these options */
    size_t peak_sram_bytes_no_patch; /* the arena without patch-based execution */
    size_t state_bytes;              /* persistent state (LSTM/SVDF variable tensors),
                                      * static RAM beside the arena */
    size_t live_peak_bytes;          /* most bytes live at one step (no placement gaps) */
    size_t lifetime_bound_bytes;     /* bound of layer-by-layer execution, nothing in place */
    int peak_layer;                  /* layer with the most live bytes (index into layers) */
    size_t stack_bytes;              /* NAME_STACK_BYTES: invoke's stack bound, optimised build */
    size_t stack_bytes_O0;           /* the same at -O0 */
    size_t ram_bytes;                /* peak_sram_bytes + state_bytes + stack_bytes */

    int patch_ops, patch_grid_h, patch_grid_w; /* patch stage (0 when none) */
    long long patch_extra_macs;
    size_t patch_scratch_bytes;
    int patch_first; /* 0: the stage is the first patch_ops operators; else a
                      * lone stage later in the network (--patch auto when
                      * no first stage lowers the arena): patch_ops operators
                      * from step patch_first */

    double instructions;    /* estimated instructions per inference */
    double cycles;          /* instructions * cpi */
    double latency_ms;      /* cycles / mhz */

    int n_inputs, n_outputs;
    const te_tensor_info *inputs, *outputs;
    int n_layers;
    const te_layer_report *layers;
} te_report;

/* Loads a model image (not kept: it may be freed after the call), runs the
 * passes and the memory planner, and returns the report; NULL on error.
 * cfg may be NULL. Generates no code. */
te_report *te_profile_memory(const void *model, size_t size, const te_config *cfg, char *err,
                             size_t err_size);
/* The same for a .tflite file. */
te_report *te_profile_file(const char *path, const te_config *cfg, char *err, size_t err_size);
void te_report_free(te_report *r);

/* The report as one JSON object (the schema is docs/profile-json.md);
 * `model` names it (may be NULL).  malloc'd: free with te_free(); NULL when
 * out of memory. */
char *te_report_json(const te_report *r, const char *model);

/* The generated files for a model, as `tinyengine compile` writes them. */
typedef struct {
    char *header;        /* NAME.h, NUL-terminated */
    size_t header_bytes;
    char *source;        /* NAME.c */
    size_t source_bytes;
} te_generated;

/* Compiles a model image to C (name: the C prefix, NULL = "model");
 * NULL on error. */
te_generated *te_compile_memory(const void *model, size_t size, const char *name,
                                const te_config *cfg, char *err, size_t err_size);
void te_generated_free(te_generated *g);

void te_free(void *p);

/* "0.1.0" */
const char *te_version(void);

#ifdef __cplusplus
}
#endif

#endif
