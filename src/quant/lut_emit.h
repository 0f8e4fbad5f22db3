/* lut_emit.h - the shared validation and lowering of the table-driven int8
 * elementwise operators (LOGISTIC, TANH, HARD_SWISH, RELU, RELU6): one
 * int8 input, one int8 output of as many elements, lowered to a 256-entry
 * table and a te_lut_s8 call; and what LOGISTIC and TANH share on top. */
#ifndef TE_LUT_EMIT_H
#define TE_LUT_EMIT_H

#include <stdint.h>

#include "../ops/ops.h"
#include "lut_nonlinear.h"

/* One int8 input with per-tensor quantization, one int8 output with the
 * same number of elements; the output's quantization is checked only when
 * need_out_quant (TFLM ignores it for TANH and RELU6). */
int te_lut_check_unary(te_graph *g, const te_op *op, te_diag *d, int need_out_quant);

/* Writes the table and out[i] = table[(uint8_t)in[i]]. */
int te_lut_emit_table(te_emit *e, const te_op *op, const int8_t table[256]);

/* check and emit of an op with a te_op_def.lut table (RELU, ABS, ELU,
 * LEAKY_RELU): the unary checks with the output quantization, and the
 * table must exist; then the table and the lookup. */
int te_lut_op_check(te_graph *g, const te_op *op, te_diag *d);
int te_lut_op_emit(te_emit *e, const te_op *op);

/* LOGISTIC and TANH: input 0's scale is in the range TFLM's Q4.27
 * rescaling supports. */
int te_lut_check_sigmoid_input(te_graph *g, const te_op *op, te_diag *d);

/* LOGISTIC and TANH: the table `fill` computes from input 0's Q4.27
 * parameters, and the lookup. */
int te_lut_emit_sigmoid(te_emit *e, const te_op *op,
                        void (*fill)(const te_lut_sigmoid_params *p, int8_t table[256]));

#endif
