/* op_log_softmax.c - LOG_SOFTMAX: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_log_softmax = {TE_OP_LOG_SOFTMAX, NULL, NULL, NULL, NULL, 0};
