/* codegen.h - writes the generated NAME.h and NAME.c for a planned graph. */
#ifndef TE_CODEGEN_H
#define TE_CODEGEN_H

#include "../ir/diag.h"
#include "../ir/ir.h"
#include "../plan/plan.h"
#include "cbuf.h"

/* Longest model name (C prefix) te_codegen accepts: every generated
 * identifier and pointer expression built from it then fits the emitter's
 * fixed name buffers (te_name, 128 bytes).  Longer names fail with one line. */
#define TE_NAME_MAX 63

typedef struct {
    const char *name;       /* C prefix (a valid identifier, at most TE_NAME_MAX chars) */
    const char *model_desc; /* shown in the file comments, e.g. the model path */
    const char *provenance; /* more lines for the first comment (tool version, options,
                             * model hash), '\n'-separated; NULL for none */
} te_codegen_opts;

/* Fills h and c with the two files. Returns 0, or -1 with d set. */
int te_codegen(te_graph *g, const te_plan *p, const te_codegen_opts *o, te_buf *h, te_buf *c,
               te_diag *d);

/* Several models in one library (library.c): each model's NAME.c calls
 * the kernels of one shared runtime, LIB.c (declared in LIB.h), and uses
 * one arena, LIB_arena, as large as the largest of theirs; the models must
 * then run one after the other.  Each model's state stays its own. */
typedef struct {
    const char *name;          /* LIB: the C prefix of the library's symbols */
    int n_models, target;      /* so far; the target of the first */
    te_buf models;             /* their names, comma-separated (for comments) */
    te_buf calls;              /* what their invoke functions call */
    const char *families[64];  /* the kernel families they call, each once */
    int n_families;
    size_t arena_bytes;        /* the largest arena */
    size_t dsp_stack;          /* the largest DSP convolution stack buffer (0: none) */
} te_codegen_lib;

/* te_codegen for a model of lib (the same NAME.h; a NAME.c without the
 * runtime or an arena of its own), adding what it needs to lib. */
int te_codegen_in_library(te_graph *g, const te_plan *p, const te_codegen_opts *o,
                          te_codegen_lib *lib, te_buf *h, te_buf *c, te_diag *d);
/* LIB.h and LIB.c once every model is in. */
int te_codegen_library(const te_codegen_lib *lib, te_buf *h, te_buf *c, te_diag *d);
void te_codegen_lib_free(te_codegen_lib *lib);

/* Makes a valid C identifier out of any string (a model file's base name). */
void te_c_identifier(const char *in, char *out, size_t out_size);

#endif
