/* ops.h - everything the compiler knows about one operator kind lives in
 * one file src/ops/op_<name>.c, behind this table entry: validation of its
 * tensors and options, its MAC count, the scratch memory its kernel needs,
 * and its lowering to a runtime kernel call. */
#ifndef TE_OPS_H
#define TE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "../codegen/emit.h"
#include "../ir/diag.h"
#include "../ir/ir.h"

typedef struct {
    int opcode;
    /* Checks input/output counts, types, shapes, quantization and options.
     * On error: te_op_fail(...) and return -1. */
    int (*check)(te_graph *g, const te_op *op, te_diag *d);
    /* Multiply-accumulates (0 for ops that move data). May be NULL. */
    int64_t (*macs)(const te_graph *g, const te_op *op);
    /* Bytes of arena scratch the kernel needs during this op. May be NULL. */
    size_t (*scratch_bytes)(const te_graph *g, const te_op *op);
    /* Writes constants and the kernel call. Return 0, or -1 with e->diag set. */
    int (*emit)(te_emit *e, const te_op *op);
    /* 1: output 0 may share input 0's storage unchanged (RESHAPE, SQUEEZE):
     * the planner aliases them and emit() writes nothing for that case. */
    int alias_output;
    /* Which input output 0 may overwrite in place (its kernel is written so
     * that reading and writing the same buffer gives the same result), or
     * -1.  The planner decides (the input must die here); emit() sees the
     * decision as out->inplace && out->alias_of == that input.  May be NULL. */
    int (*inplace_input)(const te_graph *g, const te_op *op);
    /* 1 when emit() can write output 0 as a strided channel slice of a
     * wider tensor (out->slice with a slice_pitch): a CONCATENATION's
     * producers then write straight into its output.  May be NULL. */
    int (*slice_output)(const te_graph *g, const te_op *op);
    /* The runtime kernel emit() calls for this op as planned (for reports
     * and the cost model), e.g. "te_conv2d_gemm_s8".  May be NULL for an
     * op with one kernel (te_cost_variant() names it). */
    const char *(*variant)(const te_graph *g, const te_op *op);
    /* Output k is an unchanged contiguous piece of one input (SPLIT on the
     * outermost axis, UNPACK, SLICE ...): returns that input's index and
     * its byte offset in *offset, else -1.  pass_alias then makes output k
     * a view (alias_of, alias_offset), and emit() writes nothing for it
     * (te_move_is_view).  May be NULL. */
    int (*view_input)(const te_graph *g, const te_op *op, int k, size_t *offset);
} te_op_def;

/* The definition for an opcode, or NULL if unsupported. */
const te_op_def *te_op_find(int opcode);

/* Reports "OPNAME (op N): <message>" and returns -1. */
int te_op_fail(te_diag *d, const te_op *op, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* inplace_input for element-wise ops whose kernel reads element i before
 * writing element i: input 0 when it has output 0's byte size and type. */
int te_inplace_same_size_input0(const te_graph *g, const te_op *op);
/* Same for two-input element-wise ops (ADD, MUL): the first input whose
 * shape equals the output's (the other may be broadcast). */
int te_inplace_same_shape_input(const te_graph *g, const te_op *op);

/* slice_output for ops whose kernel writes any output pixel stride. */
int te_slice_output_always(const te_graph *g, const te_op *op);

/* Common checks; each reports through te_op_fail and returns -1 on error. */
int te_check_io_count(te_diag *d, const te_op *op, int min_in, int max_in, int n_out);
/* Tensor `which` ("input 0", "output 0", ...) exists and has type `type`. */
int te_check_type(te_diag *d, const te_op *op, const te_tensor *t, const char *which, te_dtype type);
/* Tensor is per-tensor quantized with a finite scale > 0 (int8: zp in range). */
int te_check_quant(te_diag *d, const te_op *op, const te_tensor *t, const char *which);
/* Tensor is a constant (has data) of the right byte size. */
int te_check_const(te_diag *d, const te_op *op, const te_tensor *t, const char *which);

#endif
