/* op_mean.c - MEAN: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_mean = {TE_OP_MEAN, NULL, NULL, NULL, NULL, 0};
