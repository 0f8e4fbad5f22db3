/* op_quantize.c - QUANTIZE: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_quantize = {TE_OP_QUANTIZE, NULL, NULL, NULL, NULL, 0};
