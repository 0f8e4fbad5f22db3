/* op_max_pool2d.c - MAX_POOL_2D (int8 or int16x8, SAME/VALID, fused
 * activation): the checks and parameters shared with AVERAGE_POOL_2D
 * (pool.h) and a call to te_pool_max_s8 or te_pool_max_s16. */
#include "pool.h"

static int max_emit(te_emit *e, const te_op *op)
{
    return te_pool_emit(e, op, te_pool_kernel(e->g, op, 1));
}

static te_kernel_id max_variant(const te_graph *g, const te_op *op)
{
    return te_pool_kernel(g, op, 1);
}

const te_op_def te_op_max_pool2d = {
    .opcode = TE_OP_MAX_POOL_2D,
    .int16x8 = 1,
    .check = te_pool_check,
    .emit = max_emit,
    .variant = max_variant,
    .cost_features = te_pool_cost_features,
    .patch_kind = te_pool_patch_kind,
    .inplace_input = te_pool_inplace_input,
};
