/* op_add.c - ADD: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_add = {TE_OP_ADD, NULL, NULL, NULL, NULL, 0};
