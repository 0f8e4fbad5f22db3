/* op_hard_swish.c - HARD_SWISH: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_hard_swish = {TE_OP_HARD_SWISH, NULL, NULL, NULL, NULL, 0};
