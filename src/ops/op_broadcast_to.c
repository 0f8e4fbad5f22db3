/* op_broadcast_to.c - BROADCAST_TO as TFLite Micro: any fixed-size type,
 * input rank <= output rank <= 5, a 1-D int32 / int64 shape tensor equal to
 * the output's shape, each input dimension 1 or the output's.  A strided
 * copy (te_copy_gather_s8) with step 0 along the broadcast dimensions;
 * constant inputs fold. */
#include "movement.h"
#include "ops.h"

#include <string.h>

#define BT_MAX_DIMS 5

/* Counts (the output shape) and input element steps (0: broadcast). */
static int layout(const te_tensor *in, const te_tensor *out, int64_t *counts, int64_t *steps)
{
    int k, lead = out->rank - in->rank;
    int64_t s = 1;
    for (k = out->rank - 1; k >= 0; k--) {
        int d = k >= lead ? in->shape[k - lead] : 1;
        counts[k] = out->shape[k];
        steps[k] = d == 1 ? 0 : s;
        s *= d;
    }
    return out->rank;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *shape, *out;
    int k, lead;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    shape = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_dtype_size(in->type) == 0)
        return te_op_fail(d, op, "input type %s is not supported", te_dtype_name(in->type));
    if (te_check_type(d, op, out, "output 0", in->type) < 0)
        return -1;
    if (te_move_check_index_tensor(d, op, shape, "input 1 (shape)", 1) < 0)
        return -1;
    if (shape->rank != 1 || shape->shape[0] != out->rank)
        return te_op_fail(d, op, "the shape tensor must be 1-D with output 0's rank");
    if (out->rank > BT_MAX_DIMS || in->rank > out->rank)
        return te_op_fail(d, op, "input rank %d, output rank %d: TFLite Micro broadcasts to "
                          "at most 5 dimensions, from no more", in->rank, out->rank);
    lead = out->rank - in->rank;
    for (k = 0; k < out->rank; k++) {
        if (te_move_const_int(shape, k) != out->shape[k])
            return te_op_fail(d, op, "output 0 dimension %d is %d, the shape tensor says %lld", k,
                              out->shape[k], (long long)te_move_const_int(shape, k));
        if (k >= lead && in->shape[k - lead] != 1 && in->shape[k - lead] != out->shape[k])
            return te_op_fail(d, op, "input 0 dimension %d (%d) does not broadcast to %d",
                              k - lead, in->shape[k - lead], out->shape[k]);
    }
    return 0;
}

static int fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in = te_in(g, op, 0), *o = te_out(g, op, 0);
    int64_t counts[BT_MAX_DIMS], steps[BT_MAX_DIMS];
    int rank;
    if (!in->data)
        return 0;
    rank = layout(in, o, counts, steps);
    if (rank == 0 || te_tensor_elems(o) == 0) {
        if (te_tensor_elems(o) == 1)
            memcpy(out[0], in->data, te_dtype_size(in->type));
        return 1;
    }
    te_move_gather_now(in->data, out[0], te_dtype_size(in->type), 0, rank, counts, steps);
    return 1;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *o = te_out(e->g, op, 0);
    int64_t counts[BT_MAX_DIMS], steps[BT_MAX_DIMS];
    int rank = layout(in, o, counts, steps);
    if (rank == 0) { /* a scalar: one element */
        counts[0] = 1;
        steps[0] = 1;
        rank = 1;
    }
    return te_move_emit_gather(e, op, 0, rank, counts, steps);
}

const te_op_def te_op_broadcast_to = {
    .opcode = TE_OP_BROADCAST_TO,
    .int16x8 = 1,
    .check = check,
    .emit = emit,
    .fold = fold,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_GATHER_S8),
};
