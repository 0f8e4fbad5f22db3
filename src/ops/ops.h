/* ops.h - everything the compiler knows about one operator kind lives in
 * one file src/ops/op_<name>.c, behind this table entry: validation of its
 * tensors and options, its MAC count, its lowering decisions (kernel
 * variant, scratch memory: lowering.h), what the passes, the patch planner
 * and the cost model need to know about it, and its kernel call. */
#ifndef TE_OPS_H
#define TE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "../codegen/emit.h"
#include "../ir/diag.h"
#include "../ir/ir.h"
#include "lowering.h"
#include "op_cost.h"

/* te_op_def.kernel: set by TE_ONE_KERNEL(id); zero (left out) when the op
 * has no one kernel. */
typedef struct {
    int set;
    te_kernel_id id;
} te_op_kernel;
#define TE_ONE_KERNEL(kernel_id) {1, (kernel_id)}

/* How an operator can run on a spatial region (patch) of its tensors, in a
 * patch-based first stage (src/plan/patch_*.c). */
typedef enum {
    TE_PATCH_NONE = 0,    /* only on whole tensors */
    TE_PATCH_POINTWISE,   /* each output pixel from the same input pixel (of
                           * the axes patch_axes names); 1x1 operands whole */
    TE_PATCH_WINDOW,      /* input 0 through a filter window: stride,
                           * dilation and padding in op->opt, the filter size
                           * in input 1's shape[1..2]; its clone on a patch
                           * gets explicit padding */
    TE_PATCH_REMAP        /* input 0's (the first non-constant one's)
                           * positions follow from the whole
                           * tensors' geometry (patch_remap); its clone gets
                           * its place in op->opt.region */
} te_patch_kind;

/* How an op rescales to its output, for the common quantization-scale
 * check (pass_validate.c): kind 2 = input `act` scale x input `weight`
 * scale / output scale, 1 = input `act` scale / output scale, 0 = none
 * (copies, lookup tables, ops with checks of their own). */
typedef struct {
    int kind, act, weight;
} te_rescale;

typedef struct {
    int opcode;
    /* Checks input/output counts, types, shapes, quantization and options.
     * On error: te_op_fail(...) and return -1. */
    int (*check)(te_graph *g, const te_op *op, te_diag *d);
    /* Multiply-accumulates (0 for ops that move data). May be NULL. */
    int64_t (*macs)(const te_graph *g, const te_op *op);
    /* Writes constants and the kernel call. Return 0, or -1 with e->diag set. */
    int (*emit)(te_emit *e, const te_op *op);
    /* 1: output 0 may share input 0's storage unchanged (RESHAPE, SQUEEZE):
     * the planner aliases them and emit() writes nothing for that case. */
    int alias_output;
    /* Which input output 0 may overwrite in place (its kernel is written so
     * that reading and writing the same buffer gives the same result), or
     * -1.  The planner decides (the input must die here); emit() sees the
     * decision as te_lowering.inplace_input.  May be NULL. */
    int (*inplace_input)(const te_graph *g, const te_op *op);
    /* 1: the in-place link is only tried (te_pass_inplace_trial): its
     * output is smaller than its input, whose buffer then stays whole for
     * as long as the output lives, which can cost more than the op's peak
     * saves; the compiler keeps it when the arena comes out smaller. */
    int inplace_on_trial;
    /* 1 when emit() can write output 0 as a strided channel slice of a
     * wider tensor (te_lowering.slice_pitch): a CONCATENATION's
     * producers then write straight into its output.  May be NULL. */
    int (*slice_output)(const te_graph *g, const te_op *op);
    /* The registry kernel emit() calls for this op as planned (for reports
     * and the cost model), e.g. TE_K_CONV2D_GEMM_S8, or TE_K_VIEW when it
     * calls none.  May be NULL for an op with one kernel (then `kernel`
     * names it). */
    te_kernel_id (*variant)(const te_graph *g, const te_op *op);
    /* The op's own lowering decisions for one plan candidate (kernel
     * variant, scratch bytes, work area, cost features such as the
     * depthwise column mode), into l, which holds the common ones already:
     * storage decisions, MACs, cost features, kernel / variant().  o: the
     * plan's options.  Computed once per candidate (te_lower_graph);
     * emit() then reads e->low.  May be NULL. */
    void (*lower)(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l);
    /* 1: the lowering depends on the graph after the passes alone (not on
     * storage decisions or plan options): later candidates reuse it. */
    int lower_once;
    /* The one registry kernel of an op without variant(), for reports and
     * the cost model: TE_ONE_KERNEL(TE_K_LUT_S8).  Left out: TE_K_UNKNOWN
     * (unless variant() or lower() say). */
    te_op_kernel kernel;
    /* Adds the op's own cost features (window, taps, row, ...) to the
     * common ones f already holds (te_cost_features_of).  May be NULL. */
    void (*cost_features)(const te_graph *g, const te_op *op, te_cost_features *f);

    /* Patch-based inference: how the op runs on a region (te_patch_kind),
     * given its tensors are 4-D.  May be NULL: TE_PATCH_NONE. */
    te_patch_kind (*patch_kind)(const te_graph *g, const te_op *op);
    /* Input k's (height, width) axes for the output's (oy, ox), e.g. a
     * TRANSPOSE's permutation.  May be NULL: the same axes. */
    void (*patch_axes)(const te_graph *g, const te_op *op, int oy, int ox, int *iy, int *ix);
    /* TE_PATCH_REMAP: the box of its first non-constant input (axes ay, ax;
     * input 0 but for TRANSPOSE_CONV) that output box `out` reads; -1 when
     * none or it cannot run on it. */
    int (*patch_remap)(const te_graph *g, const te_op *op, int ay, int ax, te_region out,
                       te_region *in);

    /* 1: the op takes extra explicit height/width padding in
     * op->opt.pad_top/bottom/left/right, padding with its input zero
     * point (a PAD before it may fold into it). */
    int absorbs_padding;
    /* The height/width padding {top, bottom, left, right} this op adds,
     * when all it does is pad height and width of a 4-D tensor with the
     * output zero point and the same quantization: 0, else -1 (PAD folding,
     * pass_fold_pad.c).  May be NULL: never. */
    int (*hw_padding)(const te_graph *g, const te_op *op, int p[4]);
    /* 1: output 0 is inputs 0..n-1 laid out along op->opt.axis, so each
     * input may be written straight into its part (pass_concat.c). */
    int concatenates;
    /* Inputs (bit k: input k) that may read an int8 tensor through the
     * table of the DEQUANTIZE that made their float32 input, instead of
     * its output (pass_fold_dequantize.c): check() accepts the int8 input
     * when op->opt.dequantized has its bit, emit() passes the table. */
    unsigned dequantize_inputs;
    /* --int8-io: 1 on the float -> int op that may be dropped at a model
     * input (io_quantize), the int -> float op at an output (io_dequantize). */
    int io_quantize, io_dequantize;
    /* Quantization-scale check of the common validation. */
    te_rescale rescale;
    /* 1: check() also accepts int16x8 (int16 activations), for the
     * operator list (docs/operators.md). */
    int int16x8;
    /* Constant folding (pass_fold_const.c): computes the op's outputs at
     * compile time, with its kernel's arithmetic, into out[j] (zeroed,
     * te_tensor_bytes of output j each) and returns 1; returns 0 when an
     * input is not known at compile time.  check() has passed.  May be
     * NULL.  An op with fold but no emit (SHAPE, TILE) runs only folded. */
    int (*fold)(te_graph *g, const te_op *op, uint8_t *const *out);
    /* An int8 unary op whose whole lowering is a 256-entry table: fills it
     * from the op's quantization (-1: the rescale cannot be tabulated).
     * te_lut_op_check / te_lut_op_emit (lut_emit.h) then serve as its check
     * and emit.  May be NULL. */
    int (*lut)(te_graph *g, const te_op *op, int8_t table[256]);
    /* Output k is an unchanged contiguous piece of one input (SPLIT on the
     * outermost axis, UNPACK, SLICE ...): returns that input's index and
     * its byte offset in *offset, else -1.  pass_alias then makes output k
     * a view (alias_of, alias_offset), and emit() writes nothing for it
     * (te_move_is_view).  May be NULL. */
    int (*view_input)(const te_graph *g, const te_op *op, int k, size_t *offset);
    /* Output k is a box of one input that is gathered, not a view (SPLIT,
     * SPLIT_V along a dimension with one above it that is not 1): returns
     * that input's index and the box's first entry per dimension in
     * begin[0 .. rank - 1] (its size: output k's shape), else -1.  When a
     * patch stage may be planned, pass_split_slices.c writes such an op as
     * one box op (takes_box) per output.  May be NULL. */
    int (*box_input)(const te_graph *g, const te_op *op, int k, int32_t *begin);
    /* 1: output 0 is the box of input 0 at constant input 1 (begin) of
     * constant size input 2, int32 vectors of input 0's rank (SLICE). */
    int takes_box;
} te_op_def;

/* The definition for an opcode the generated code can run (one with an
 * emit()), or NULL if unsupported. */
const te_op_def *te_op_find(int opcode);
/* The definition for an opcode, emit() or not (folding), or NULL. */
const te_op_def *te_op_lookup(int opcode);
/* The op that takes a box of its input (te_op_def.takes_box), or NULL. */
const te_op_def *te_op_box_taker(void);
/* The table itself (every definition of the op files, sorted by name):
 * te_op_at(0 .. te_op_count()-1). */
int te_op_count(void);
const te_op_def *te_op_at(int i);

/* 1 when every input of op that is present is a constant. */
int te_op_inputs_const(const te_graph *g, const te_op *op);

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

/* patch_kind for element-wise ops that run on any region. */
te_patch_kind te_patch_pointwise(const te_graph *g, const te_op *op);
/* patch_kind for element-wise ops with broadcast operands (any types):
 * pointwise when every constant operand is per-channel or a scalar (its
 * elements all on the last axis), so the clone reads it whole; a constant
 * with a height or width of its own would need its region too. */
te_patch_kind te_patch_pointwise_bcast(const te_graph *g, const te_op *op);
/* 1 when every constant input of op is per-channel or a scalar (as above). */
int te_patch_consts_per_channel(const te_graph *g, const te_op *op);
/* patch_kind for ops with a filter window over input 0. */
te_patch_kind te_patch_window(const te_graph *g, const te_op *op);

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
