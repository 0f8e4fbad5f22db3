/* unary.h - checks shared by operators with one input and one output
 * (the table-driven activations, pooling, QUANTIZE / DEQUANTIZE). */
#ifndef TE_OPS_UNARY_H
#define TE_OPS_UNARY_H

#include "ops.h"

/* Exactly one int8 input and one int8 output, per-tensor quantized (the
 * output's quantization is checked only when need_out_quant). */
int te_check_unary_s8(te_graph *g, const te_op *op, te_diag *d, int need_out_quant);

/* Input 0 and output 0 have as many elements, at most 2^31 - 1. */
int te_check_unary_elems(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *out);

#endif
