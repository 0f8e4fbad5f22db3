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

/* Makes a valid C identifier out of any string (a model file's base name). */
void te_c_identifier(const char *in, char *out, size_t out_size);

#endif
