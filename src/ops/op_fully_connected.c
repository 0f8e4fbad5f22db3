/* op_fully_connected.c - FULLY_CONNECTED: not implemented yet (stub; te_op_find reports it unsupported). */
#include "ops.h"

const te_op_def te_op_fully_connected = {TE_OP_FULLY_CONNECTED, NULL, NULL, NULL, NULL, 0};
