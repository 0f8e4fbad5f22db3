/* op_mul.c - MUL: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_mul = {TE_OP_MUL, NULL, NULL, NULL, NULL, 0};
