/* op_dequantize.c - DEQUANTIZE: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_dequantize = {TE_OP_DEQUANTIZE, NULL, NULL, NULL, NULL, 0};
