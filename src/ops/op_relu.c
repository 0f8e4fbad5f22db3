/* op_relu.c - RELU: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_relu = {TE_OP_RELU, NULL, NULL, NULL, NULL, 0};
