/* op_concatenation.c - CONCATENATION: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_concatenation = {TE_OP_CONCATENATION, NULL, NULL, NULL, NULL, 0};
