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
#include "../ir/storage.h"
#include "cbuf.h"
#include "kernels.h"

/* A C identifier or expression produced by the emitter. */
typedef struct {
    char s[128];
} te_name;

struct te_plan;
struct te_emit_syms; /* emit_params.c: identifiers, shared objects, params being built */
struct te_lowering;

typedef struct {
    te_graph *g;
    const struct te_plan *plan;
    const char *name;              /* model prefix for every symbol */
    te_buf consts;                 /* file-scope const arrays (flash) */
    te_buf body;                   /* statements inside NAME_invoke() */
    te_buf funcs;                  /* functions of their own NAME_invoke calls
                                    * (te_emit_outlined_call), after the constants */
    te_kernel_id kernels[TE_K_COUNT]; /* declared by te_emit_kernel, in order */
    int n_kernels;
    int n_consts;
    int byte_strings;              /* byte arrays written as string literals */
    int *tensor_const;             /* tensor id -> const array number + 1, or 0 */
    const te_op *cur_op;           /* operator being lowered */
    const struct te_lowering *low; /* its lowering record (src/ops/lowering.h):
                                    * the decisions emit() carries out */
    te_diag *diag;
    struct te_emit_syms *syms;     /* made on first use; te_emit_release() frees it */
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

/* Indents what NAME_invoke gained since its length was `start` (e->body.len
 * then) by one level: a block an operator or the emitter opened. */
void te_emit_indent_since(te_emit *e, size_t start);

/* Writes a `static const` array (or finds its twin) and returns its name,
 * NAME_op<index>_<hint> ("w", "bias", "mult", ...).  An int8_t or uint8_t
 * array of TE_BYTE_STRING_MIN or more elements is a string literal,
 * TE_BYTES_PER_LINE bytes a line, exactly n bytes (C drops the NUL when
 * the array has no room for it): a compiler reads it ~15 times faster than
 * a list of integers. */
#define TE_BYTE_STRING_MIN 4096
#define TE_BYTES_PER_LINE 38 /* 158 columns: within the file's 160 */
/* Appends such an array's body: lines "\n    \"\x12\xfe...\"" of
 * TE_BYTES_PER_LINE bytes (the last fewer), every byte as \xHH. */
void te_emit_byte_string(te_buf *b, const uint8_t *v, size_t n);
te_name te_emit_const_i8(te_emit *e, const int8_t *v, size_t n, const char *hint);
te_name te_emit_const_u8(te_emit *e, const uint8_t *v, size_t n, const char *hint);
te_name te_emit_const_i16(te_emit *e, const int16_t *v, size_t n, const char *hint);
te_name te_emit_const_i32(te_emit *e, const int32_t *v, size_t n, const char *hint);
te_name te_emit_const_i64(te_emit *e, const int64_t *v, size_t n, const char *hint);
te_name te_emit_const_f32(te_emit *e, const float *v, size_t n, const char *hint);

/* A pointer expression for tensor `tid` with its element type: for an arena
 * tensor a macro named after the model's tensor, "NAME_T_conv2d_3_Relu",
 * defined on first use as ((int8_t *)(NAME_arena.bytes + 1024)); for a
 * constant tensor its array, NAME_op<index>_weights / _bias / _<tensor>. */
te_name te_emit_tensor(te_emit *e, int tid);

/* The storage decisions of the plan being emitted (te_plan.st): which
 * tensors run in place or are concatenation slices. */
const te_storage *te_emit_storage(const te_emit *e);

/* A pointer expression of C type `ctype *` to the current operator's
 * scratch buffer (as many bytes as its scratch_bytes() asked for): a macro
 * NAME_OP<index>_SCRATCH defined on first use. */
te_name te_emit_scratch(te_emit *e, const char *ctype);
/* The arena array's name: "NAME_arena", or with memory regions region's
 * own, "NAME_arena_<REGION NAME>". */
void te_emit_arena_name(const char *name, const struct te_plan *p, int region, char *out,
                        size_t n);

/* Element C type of a dtype: "int8_t", "int32_t", "float", ... */
const char *te_ctype(te_dtype t);

/* ---- emit_params.c: named file-scope objects and readable calls ----
 *
 * Kernel parameters are `static const` objects at file scope (flash), one
 * designated field per line, named after the operator:
 *
 *     te_params_begin(e, "te_pool_params");
 *     te_params_int(e, "batches", 1);
 *     ...
 *     prm = te_params_end(e);            -> "&NAME_op9_pool_params"
 *     te_emit_kernel_call(e, TE_K_POOL_AVG_S8, prm.s, x.s, y.s);
 *
 * Objects with the same type and contents are written once and shared. */
void te_params_begin(te_emit *e, const char *type);
void te_params_int(te_emit *e, const char *field, long long v);
/* A field from a constant expression: a pointer (a const array's name, an
 * arena address from te_emit_tensor() or te_emit_scratch()), a float, ... */
void te_params_expr(te_emit *e, const char *field, const char *expr);
/* An array field: {v[0], ..., v[n-1]}. */
void te_params_ints(te_emit *e, const char *field, const int *v, int n);
/* Writes the object (or finds its twin) and returns "&name". */
te_name te_params_end(te_emit *e);

/* Appends `fn(arg, ...);` to NAME_invoke, one argument per line when the
 * call would not fit in TE_EMIT_LINE_MAX characters. */
#define TE_EMIT_LINE_MAX 159
#define te_emit_call(e, fn, ...) te_emit_call_args(e, fn, __VA_ARGS__, (const char *)0)
void te_emit_call_args(te_emit *e, const char *fn, ...);

/* The same call in a function of its own, `static OUTLINE void NAME_<base>(void)`
 * (te_emit_symbol), written after the constants, and a call of that function
 * appended to NAME_invoke. `outline` is the function's storage and
 * attributes (a macro the op file defines with te_emit_once, e.g. for
 * noinline): a kernel inlined there is compiled with registers of its own,
 * not among the whole invoke's. The arguments must be file-scope
 * expressions (constants, arena and scratch pointers). */
#define te_emit_outlined_call(e, outline, base, fn, ...) \
    te_emit_outlined_call_args(e, outline, base, fn, __VA_ARGS__, (const char *)0)
void te_emit_outlined_call_args(te_emit *e, const char *outline, const char *base,
                                const char *fn, ...);

/* The same for a kernel that returns nonzero on bad input (an index out of
 * range): `if (fn(arg, ...) != 0) return 1;` makes NAME_invoke fail. */
#define te_emit_call_status(e, fn, ...) \
    te_emit_call_status_args(e, fn, __VA_ARGS__, (const char *)0)
void te_emit_call_status_args(te_emit *e, const char *fn, ...);

/* The same calls naming the kernel by its registry id (runtime/te_kernels.def),
 * never by a string: te_emit_kernel_call(e, TE_K_LUT_S8, x.s, y.s, n.s, t.s). */
#define te_emit_kernel_call(e, id, ...) \
    te_emit_call_args(e, te_kernel_name(id), __VA_ARGS__, (const char *)0)
#define te_emit_kernel_call_status(e, id, ...) \
    te_emit_call_status_args(e, te_kernel_name(id), __VA_ARGS__, (const char *)0)

/* Writes `text` before the constants once per generated file, however
 * often it is asked for under the same `key`. */
void te_emit_once(te_emit *e, const char *key, const char *text);

/* A C float literal of v, exact to the float ("6.0f", "0.00390625f",
 * "-3.40282347e+38f"). */
te_name te_float_literal(float v);

/* A C expression built with printf formatting (e.g. "(int8_t *)X + 16"). */
te_name te_expr(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A fresh identifier "NAME_<base>" (base made a C identifier, suffixed
 * _2, _3 ... when taken). */
te_name te_emit_symbol(te_emit *e, const char *base);

/* The base of names that belong to the operator being lowered: "op12_<what>",
 * or `what` alone outside any operator. */
te_name te_emit_op_base(const te_emit *e, const char *what);

/* Writes `static const TYPE NAME[DIM] = BODY;` (DIM "" for a scalar or
 * struct) under a fresh name from `base`, or returns the name of an object
 * already written with the same type, dimension and body. */
te_name te_emit_object(te_emit *e, const char *type, const char *dim, const char *body,
                       const char *base);

/* A short C identifier for tensor `tid` from its model name
 * ("model/conv2d_3/Relu;..." -> "conv2d_3_Relu"), "t<id>" when it has none. */
void te_emit_tensor_base(const te_emit *e, int tid, char *out, size_t n);

/* Where te_emit_tensor() keeps tensor `tid`'s symbol (NULL without memory). */
te_name *te_emit_tensor_symbol(te_emit *e, int tid);

/* Frees what emit_params.c allocated. */
void te_emit_release(te_emit *e);

#endif
