/* op_tanh.c - TANH: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_tanh = {TE_OP_TANH, NULL, NULL, NULL, NULL, 0};
