/* op_reshape.c - RESHAPE: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_reshape = {TE_OP_RESHAPE, NULL, NULL, NULL, NULL, 0};
