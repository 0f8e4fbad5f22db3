/* op_transpose_conv.c - TRANSPOSE_CONV: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_transpose_conv = {TE_OP_TRANSPOSE_CONV, NULL, NULL, NULL, NULL, 0};
