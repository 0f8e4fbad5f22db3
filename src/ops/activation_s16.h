/* activation_s16.h - the int16 LOGISTIC and TANH (zero point 0) as TFLite
 * Micro prepares them: the input rescaling of its LUT-free kernels
 * (runtime/te_activation_s16.c), which UNIDIRECTIONAL_SEQUENCE_LSTM's gates
 * use too, and the checks and kernel call of the two operators. */
#ifndef TE_OPS_ACTIVATION_S16_H
#define TE_OPS_ACTIVATION_S16_H

#include <stdint.h>

#include "ops.h"

/* TFLite CheckedLog2 (float arithmetic): *log2 = round(log2(x)); 1 when x
 * is a power of two within 1e-3 in the exponent, else 0. */
int te_checked_log2(float x, int *log2_result);

/* The kernels' input rescaling (x * mult + round) >> shift for an input of
 * scale in_scale, as TFLM's LOGISTIC (tanh 0) or TANH (tanh 1) Prepare
 * computes it, with its power-of-two form resolved.  -1 when the
 * multiplier exceeds 32767 (an input scale TFLM does not support). */
int te_s16_act_rescale(float in_scale, int tanh, int32_t *mult, int32_t *shift);

/* The rescaling of TFLM's LSTM tanh of an int16 value with scale
 * 2^scale_power (lstm_internal::Tanh); -1 when out of range. */
int te_s16_tanh_pot_rescale(int scale_power, int32_t *mult, int32_t *shift);

/* LOGISTIC / TANH with an int16 input: checks (one int16 input and output
 * of as many elements, zero points 0, output scale 2^-15) and the call. */
int te_s16_act_check(te_graph *g, const te_op *op, te_diag *d, int tanh);
int te_s16_act_emit(te_emit *e, const te_op *op, int tanh);

/* patch_kind of LOGISTIC and TANH: pointwise for int8; int16 stays out of
 * patch stages (they are int8). */
te_patch_kind te_s16_act_patch_kind(const te_graph *g, const te_op *op);

#endif
