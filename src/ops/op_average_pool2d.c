/* op_average_pool2d.c - AVERAGE_POOL_2D: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_average_pool2d = {TE_OP_AVERAGE_POOL_2D, NULL, NULL, NULL, NULL, 0};
