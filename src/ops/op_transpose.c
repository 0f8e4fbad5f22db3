/* op_transpose.c - TRANSPOSE: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_transpose = {TE_OP_TRANSPOSE, NULL, NULL, NULL, NULL, 0};
