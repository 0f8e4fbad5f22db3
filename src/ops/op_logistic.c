/* op_logistic.c - LOGISTIC: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_logistic = {TE_OP_LOGISTIC, NULL, NULL, NULL, NULL, 0};
