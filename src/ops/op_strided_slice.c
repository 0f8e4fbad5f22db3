/* op_strided_slice.c - STRIDED_SLICE: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_strided_slice = {TE_OP_STRIDED_SLICE, NULL, NULL, NULL, NULL, 0};
