/* emit.h - the interface operator lowerings (src/ops/op_*.c) use to write
 * generated C: constant arrays in flash, pointers to tensors in the arena,
 * the current operator's scratch buffer, statements of NAME_invoke, and
 * the runtime kernels the model needs.
 *
 * The generic parts of the generated file (header, arena, I/O accessors,
 * the pasted runtime) are written by codegen.c; an operator only adds its
 * constants and its kernel call. */
#ifndef TE_EMIT_H
#define TE_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include "../ir/diag.h"
#include "../ir/ir.h"
#include "cbuf.h"
#include "kernels.h"

/* A C identifier or expression produced by the emitter. */
typedef struct {
    char s[128];
} te_name;

struct te_plan;
struct te_lowering;

typedef struct {
    te_graph *g;
    const struct te_plan *plan;
    const char *name;              /* model prefix for every symbol */
    te_buf consts;                 /* file-scope const arrays (flash) */
    te_buf body;                   /* statements inside NAME_invoke() */
    te_kernel_id kernels[TE_K_COUNT]; /* declared by te_emit_kernel, in order */
    int n_kernels;
    int n_consts;
    int *tensor_const;             /* tensor id -> const array number + 1, or 0 */
    const te_op *cur_op;           /* operator being lowered */
    const struct te_lowering *low; /* its lowering record (src/ops/lowering.h):
                                    * the decisions emit() carries out */
    te_diag *diag;
} te_emit;

/* Declares that the operator calls runtime kernel `id` (runtime/te_kernels.def):
 * its family's files are pasted (only the parts the code calls, see
 * runtime_select.h).  The name in the call must be te_kernel_name(id). */
void te_emit_kernel(te_emit *e, te_kernel_id id);

/* Appends one statement line (indented, newline added) to NAME_invoke; any
 * length. */
void te_emit_stmt(te_emit *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Writes a `static const` array and returns its name.  `hint` becomes part of
 * the name ("w", "bias", "mult", ...). */
te_name te_emit_const_i8(te_emit *e, const int8_t *v, size_t n, const char *hint);
te_name te_emit_const_u8(te_emit *e, const uint8_t *v, size_t n, const char *hint);
te_name te_emit_const_i16(te_emit *e, const int16_t *v, size_t n, const char *hint);
te_name te_emit_const_i32(te_emit *e, const int32_t *v, size_t n, const char *hint);
te_name te_emit_const_f32(te_emit *e, const float *v, size_t n, const char *hint);

/* A pointer expression for tensor `tid` with its element type, e.g.
 * "((int8_t *)(m_arena + 1024))" for an arena tensor or the name of its
 * const array for a constant tensor (written on first use). */
te_name te_emit_tensor(te_emit *e, int tid);

/* A pointer expression of C type `ctype *` to the current operator's
 * scratch buffer (as many bytes as its scratch_bytes() asked for). */
te_name te_emit_scratch(te_emit *e, const char *ctype);

/* Element C type of a dtype: "int8_t", "int32_t", "float", ... */
const char *te_ctype(te_dtype t);

#endif
