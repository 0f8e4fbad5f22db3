/* compiler.h - the pipeline in one place: read the model, run the passes,
 * plan memory, generate code.  The CLI and the tests call these. */
#ifndef TE_COMPILER_H
#define TE_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#include "codegen/cbuf.h"
#include "codegen/stack_bound.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "plan/patch.h"
#include "plan/plan.h"

/* What a user can ask of a compilation (all zero = the defaults). */
typedef struct {
    int int8_io;        /* drop a leading QUANTIZE / trailing DEQUANTIZE: int8 I/O */
    size_t sram_limit;  /* fail when arena + stack (optimised build) need more (0 = no limit) */
    te_patch_opts patch; /* patch-based first stage (mode 0 = off) */
    int target;          /* te_target: kernel variants (0 = generic C99) */
    size_t flash_limit;  /* bytes of flash (text + rodata) the generated code may
                          * take; int16 weights and inlined kernels only within
                          * it (0 = none given) */
    te_regions regions;  /* --memory-region: RAM regions, hottest buffers in
                          * the first (n = 0: one arena) */
} te_compile_opts;

/* --max-recompute's default, 200%: the extra instructions (the target's cost
 * model) a patch plan may cost, as a fraction of the model's layer by layer;
 * every shared model's smallest-arena plan is within it (person_detect's the
 * most: +186%), and compile/info/plan state the slowdown. */
#define TE_PATCH_MAX_RECOMPUTE 2.0
#define TE_COMPILE_OPTS_DEFAULT {0, 0, {TE_PATCH_OFF, 0, 0, 0, TE_PATCH_MAX_RECOMPUTE, NULL, NULL, 0, 0, 0, 0, 0, 0, 0}, 0, 0, {0}}

typedef struct {
    /* The graph the plan, the lowering and the code are of: `source`, or,
     * when a patch stage was chosen, a graph derived from it
     * (te_patch_graph: g->base == source, g->patch the stage), owned. */
    te_graph *g;
    /* The model as read and simplified by the passes (owned); only read
     * after them (every stage takes it as const te_graph *). */
    te_graph *source;
    te_plan *plan;
    te_lowered *low; /* the operators' lowering records the plan was made with */
    te_storage *st;  /* the storage decisions (in place, slices) of both */
    te_compile_opts opts; /* what it was compiled with (the generated files say) */
} te_model;

/* Reads a .tflite file, validates it, runs the passes and plans memory.
 * o may be NULL for the defaults. */
te_model *te_model_load_file(const char *path, const te_compile_opts *o, te_diag *d);
/* Same, from a model image in memory (copied). */
te_model *te_model_load(const uint8_t *data, size_t size, const te_compile_opts *o, te_diag *d);
void te_model_free(te_model *m);

/* Generates NAME.h into h and NAME.c into c; their first comment names
 * model_desc (e.g. the model's file name), the tool version, the options
 * and the model's sha256 (see te_model_provenance). */
int te_model_generate(te_model *m, const char *name, const char *model_desc, te_buf *h, te_buf *c,
                      te_diag *d);

/* Lines for the generated files' first comment (provenance.c): the tool
 * version, the options that shaped the code (as `tinyengine compile`
 * spells them, with --name name) and the model image's sha256. */
void te_model_provenance(const te_model *m, const char *name, te_buf *out);

/* Per-operator and whole-model figures. */
int64_t te_op_macs(const te_graph *g, const te_op *op);
int64_t te_model_macs(const te_model *m);
size_t te_model_weights_bytes(const te_model *m); /* bytes of all constant tensors used */
/* Upper bound of the stack NAME_invoke needs (codegen/stack_bound.h); the
 * generated header states the same as NAME_STACK_BYTES. */
te_stack_bound te_model_stack(const te_model *m);
/* Flash bytes the kernel choices add beyond the weights (int16 copies). */
int64_t te_model_flash_extra(const te_model *m);

#endif
