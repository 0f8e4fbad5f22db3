/* relu_s16.h - RELU and RELU6 on int16 tensors (TFLite Micro's int16 path
 * of activations.cc): checks and the te_relu_s16 call; op_relu.c and
 * op_relu6.c take this form when their input is int16. */
#ifndef TE_RELU_S16_H_OPS
#define TE_RELU_S16_H_OPS

#include "ops.h"

/* six = 0: RELU, 1: RELU6. */
int te_relu_s16_check(te_graph *g, const te_op *op, te_diag *d, int six);
int te_relu_s16_emit(te_emit *e, const te_op *op, int six);

#endif
