/* op_softmax.c - SOFTMAX: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_softmax = {TE_OP_SOFTMAX, NULL, NULL, NULL, NULL, 0};
