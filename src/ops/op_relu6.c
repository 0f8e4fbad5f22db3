/* op_relu6.c - RELU6: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_relu6 = {TE_OP_RELU6, NULL, NULL, NULL, NULL, 0};
