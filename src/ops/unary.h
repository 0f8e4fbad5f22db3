/* unary.h - checks shared by operators with one input and one output
 * (the table-driven activations, pooling, QUANTIZE / DEQUANTIZE). */
#ifndef TE_OPS_UNARY_H
#define TE_OPS_UNARY_H

#include "ops.h"

/* Exactly one int8 input and one int8 output, per-tensor quantized (the
 * output's quantization is checked only when need_out_quant). */
int te_check_unary_s8(te_graph *g, const te_op *op, te_diag *d, int need_out_quant);

/* The same for int16 (int16x8 models), and the element counts agree
 * (te_check_unary_elems). */
int te_check_unary_s16(te_graph *g, const te_op *op, te_diag *d);

/* 1: input 0 is int16 (the op takes its int16x8 form). */
int te_unary_is_s16(const te_graph *g, const te_op *op);

/* te_patch_pointwise for an int8 op, none for its int16 form (patch
 * stages cut int8 tensors). */
te_patch_kind te_unary_patch_kind_s8(const te_graph *g, const te_op *op);

/* Input 0 and output 0 have as many elements, at most 2^31 - 1. */
int te_check_unary_elems(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *out);

#endif
