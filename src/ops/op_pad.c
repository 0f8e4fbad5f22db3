/* op_pad.c - PAD: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_pad = {TE_OP_PAD, NULL, NULL, NULL, NULL, 0};
