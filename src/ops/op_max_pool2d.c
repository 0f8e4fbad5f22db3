/* op_max_pool2d.c - MAX_POOL_2D (int8, SAME/VALID, fused activation): the
 * checks and parameters shared with AVERAGE_POOL_2D (op_average_pool2d.c)
 * and a call to te_pool_max_s8. */
#include "ops.h"

int te_pool_check(te_graph *g, const te_op *op, te_diag *d);
int te_pool_emit(te_emit *e, const te_op *op, const char *kernel_fn);

static int max_emit(te_emit *e, const te_op *op)
{
    return te_pool_emit(e, op, "te_pool_max_s8");
}

const te_op_def te_op_max_pool2d = {TE_OP_MAX_POOL_2D, te_pool_check, NULL, NULL, max_emit, 0, NULL};
