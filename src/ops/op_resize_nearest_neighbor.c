/* op_resize_nearest_neighbor.c - RESIZE_NEAREST_NEIGHBOR: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_resize_nearest_neighbor = {TE_OP_RESIZE_NEAREST_NEIGHBOR, NULL, NULL, NULL, NULL, 0};
