/* op_max_pool2d.c - MAX_POOL_2D: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_max_pool2d = {TE_OP_MAX_POOL_2D, NULL, NULL, NULL, NULL, 0};
