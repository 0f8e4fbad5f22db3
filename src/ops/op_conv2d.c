/* op_conv2d.c - CONV_2D: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_conv2d = {TE_OP_CONV_2D, NULL, NULL, NULL, NULL, 0};
