/* binary_plain.h - what the binary element-wise ops share for their
 * unquantized int32 and float32 forms (ADD, SUB, MUL, MINIMUM, MAXIMUM,
 * SQUARED_DIFFERENCE): the checks, the kernel te_binary_i32 / te_binary_f32
 * and its parameters, TFLite Micro's activation range for these types. */
#ifndef TE_OPS_BINARY_PLAIN_H
#define TE_OPS_BINARY_PLAIN_H

#include "ops.h"

/* Input 0 of op is an int32 or float32 tensor: the op takes its plain form. */
int te_binary_plain_is(const te_graph *g, const te_op *op);

/* The checks of the plain form: two inputs, one output, all of input 0's
 * type, shapes that broadcast (ranks <= 6).  refuse_quantized: ADD and
 * SUB refuse int32 operands with quantization parameters (TFLite Micro's
 * Prepare), MUL, MINIMUM, MAXIMUM and SQUARED_DIFFERENCE ignore them. */
int te_binary_plain_check(te_graph *g, const te_op *op, te_diag *d, int refuse_quantized);

/* te_binary_i32 or te_binary_f32, by input 0's type. */
te_kernel_id te_binary_plain_kernel(const te_graph *g, const te_op *op);

/* The act_min / act_max (int32) or f_min / f_max (float32, f32) fields
 * of TFLite's CalculateActivationRange for act, into the params being
 * built (DIV's too). */
void te_binary_plain_range_params(te_emit *e, te_activation act, int f32);

/* Writes the call computing bop (a te_binary_op, runtime/te_binary_plain.h).
 * clamp_i32: int32 results are clamped to the fused activation's range
 * (SUB, MUL); ADD's int32 form keeps the whole int32 range, as TFLite
 * Micro's EvalAdd.  float32 ADD, SUB and MUL always take the activation's
 * range. */
int te_binary_plain_emit(te_emit *e, const te_op *op, int bop, int clamp_i32);

#endif
