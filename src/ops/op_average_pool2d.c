/* op_average_pool2d.c - AVERAGE_POOL_2D (int8 or int16x8, SAME/VALID, fused
 * activation): the checks and parameters shared with MAX_POOL_2D (pool.h)
 * and a call to te_pool_avg_s8 or te_pool_avg_s16. */
#include "pool.h"

static int avg_emit(te_emit *e, const te_op *op)
{
    return te_pool_emit(e, op, te_pool_kernel(e->g, op, 0));
}

static te_kernel_id avg_variant(const te_graph *g, const te_op *op)
{
    return te_pool_kernel(g, op, 0);
}

const te_op_def te_op_average_pool2d = {
    .opcode = TE_OP_AVERAGE_POOL_2D,
    .int16x8 = 1,
    .check = te_pool_check,
    .emit = avg_emit,
    .variant = avg_variant,
    .cost_features = te_pool_cost_features,
    .patch_kind = te_pool_patch_kind,
    .inplace_input = te_pool_inplace_input,
};
