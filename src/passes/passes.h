/* passes.h - graph passes run between the frontend and the planner, in
 * this order: constant folding, validate, (int8 I/O), (SPLIT to slices), dead-code
 * elimination, PAD folding,
 * aliasing.  Then the graph is const: the storage decisions of each plan
 * candidate (concatenation slices, in place) are computed from it into a
 * te_storage value (storage.h). */
#ifndef TE_PASSES_H
#define TE_PASSES_H

#include "../ir/diag.h"
#include "../ir/ir.h"
#include "../ir/storage.h"

/* Evaluates at compile time every operator whose outputs can be computed
 * there (te_op_def.fold): its outputs become constants, the op dies. */
int te_pass_fold_const(te_graph *g, te_diag *d);

/* Every operator supported and accepted by its check(); graph inputs and
 * outputs are non-constant tensors of a type we can pass through the API. */
int te_pass_validate(te_graph *g, te_diag *d);

/* --int8-io: a float32 graph input consumed only by a QUANTIZE becomes
 * that QUANTIZE's int8 output, and a graph output made by a DEQUANTIZE
 * becomes its int8 input; the QUANTIZE/DEQUANTIZE ops die. */
void te_pass_int8_io(te_graph *g);

/* When a patch stage may be planned (--patch, --sram-limit): each SPLIT /
 * SPLIT_V of a 4-D input whose outputs are gathered copies becomes one
 * SLICE per output (te_op.part_of names the SPLIT), so that a patch stage
 * can run through it.  0, or -1 with d set (out of memory). */
int te_pass_split_slices(te_graph *g, te_diag *d);

/* Marks operators whose outputs nobody reads (and are not graph outputs)
 * dead, repeatedly, so the planner and emitter skip them. */
void te_pass_dce(te_graph *g);

/* Removes a PAD (of height/width, with the zero point) whose only reader
 * is a CONV_2D or DEPTHWISE_CONV_2D: the convolution reads the PAD's input
 * with the padding as explicit padding; the PAD is marked dead. */
void te_pass_fold_pad(te_graph *g);

/* Removes a DEQUANTIZE (int8 -> float32, per tensor) whose only reader is
 * an input of an op that can read int8 through its table
 * (te_op_def.dequantize_inputs): that op reads the int8 tensor and
 * dequantizes each value as it uses it, the same floats; the float32
 * tensor (four times the bytes) is never made.  The DEQUANTIZE is marked
 * dead. */
void te_pass_fold_dequantize(te_graph *g);

/* Lets RESHAPE/SQUEEZE outputs share their input's storage (zero-copy). */
void te_pass_alias(te_graph *g);

/* Links the inputs of each CONCATENATION whose producers can write straight
 * into the concatenation's output to their place there (TE_STORE_SLICE in
 * s, which holds the graph's views). */
void te_pass_concat_slices(const te_graph *g, te_storage *s);

/* Links the output of each operator that may write it over an input dying
 * there (te_op_def.inplace_input) to that input (TE_STORE_INPLACE in s);
 * not those whose link is only tried (te_op_def.inplace_on_trial). */
/* A copy of st without its in-place links (te_inplace_without), or without
 * those of outputs smaller than the input they overwrite (a strided pool or
 * depthwise convolution, whose merged buffer keeps the input's size for the
 * output's life; te_inplace_without_shrinking: NULL when st has none); the
 * links of a patch stage's clones stay.  NULL when out of memory. */
te_storage *te_inplace_without(const te_graph *g, const te_storage *st);
te_storage *te_inplace_without_shrinking(const te_graph *g, const te_storage *st);
/* The in-place links of a patch stage's clones (te_patch_step.inplace_input,
 * the micro plan's: every candidate has them), into s. */
void te_pass_inplace_clones(const te_graph *g, te_storage *s);
void te_pass_inplace(const te_graph *g, te_storage *s);

/* The same with the links only tried too. */
void te_pass_inplace_trial(const te_graph *g, te_storage *s);

/* Removes the links only tried from s (one a patch stage's storage took
 * over from the layer-by-layer plan, for instance). */
void te_pass_inplace_untry(const te_graph *g, te_storage *s);

#endif
