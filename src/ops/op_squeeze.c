/* op_squeeze.c - SQUEEZE: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_squeeze = {TE_OP_SQUEEZE, NULL, NULL, NULL, NULL, 0};
