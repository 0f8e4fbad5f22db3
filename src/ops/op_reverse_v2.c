/* op_reverse_v2.c - REVERSE_V2 as TFLite Micro: int8, uint8, int16, int32,
 * int64, float32 or bool, rank <= 6, a constant 1-D int32 axis tensor
 * (negative axes counted from the end) naming contiguous axes (TFLM fails
 * on others).  A strided copy with negative steps along the reversed axes
 * (te_copy_gather_s8); a constant input folds. */
#include "movement.h"
#include "ops.h"

#include <string.h>

#define RV_MAX_DIMS 6

/* flags[k] = 1 for each reversed axis; -1 on a bad axis list. */
static int reversed_axes(const te_tensor *in, const te_tensor *axis, int *flags)
{
    int k, lo = RV_MAX_DIMS, hi = -1, n = 0;
    for (k = 0; k < RV_MAX_DIMS; k++)
        flags[k] = 0;
    for (k = 0; k < axis->shape[0]; k++) {
        int64_t a = te_move_const_int(axis, k);
        if (a < 0)
            a += in->rank;
        if (a < 0 || a >= in->rank)
            return -1;
        if (!flags[a])
            n++;
        flags[a] = 1;
        lo = (int)a < lo ? (int)a : lo;
        hi = (int)a > hi ? (int)a : hi;
    }
    return n == 0 || hi - lo + 1 == n ? 0 : -1;
}

static int layout(const te_tensor *in, const te_tensor *axis, int64_t *base, int64_t *counts,
                  int64_t *steps)
{
    int flags[RV_MAX_DIMS], k;
    int64_t s = 1;
    reversed_axes(in, axis, flags);
    *base = 0;
    for (k = in->rank - 1; k >= 0; k--) {
        counts[k] = in->shape[k];
        steps[k] = flags[k] ? -s : s;
        if (flags[k])
            *base += (int64_t)(in->shape[k] - 1) * s;
        s *= in->shape[k];
    }
    return in->rank;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *axis, *out;
    int flags[RV_MAX_DIMS];
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    axis = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (in->type != TE_DT_INT8 && in->type != TE_DT_UINT8 && in->type != TE_DT_INT16 &&
        in->type != TE_DT_INT32 && in->type != TE_DT_INT64 && in->type != TE_DT_FLOAT32 &&
        in->type != TE_DT_BOOL)
        return te_op_fail(d, op, "input type %s is not supported", te_dtype_name(in->type));
    if (te_check_type(d, op, out, "output 0", in->type) < 0 ||
        te_check_type(d, op, axis, "input 1 (axis)", TE_DT_INT32) < 0)
        return -1;
    if (!axis->data)
        return te_op_fail(d, op, "the axis tensor must be a constant");
    if (te_check_const(d, op, axis, "input 1") < 0)
        return -1;
    if (axis->rank != 1 || in->rank > RV_MAX_DIMS || axis->shape[0] > in->rank)
        return te_op_fail(d, op, "a 1-D axis tensor of at most input rank (<= 6) axes is needed");
    if (reversed_axes(in, axis, flags) < 0)
        return te_op_fail(d, op, "axes must be in range and contiguous (TFLite Micro)");
    if (te_move_check_same_elems(d, op, in, out) < 0)
        return -1;
    return 0;
}

static int fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in = te_in(g, op, 0);
    int64_t base, counts[RV_MAX_DIMS], steps[RV_MAX_DIMS];
    int rank;
    if (!in->data)
        return 0;
    rank = layout(in, te_in(g, op, 1), &base, counts, steps);
    if (rank == 0 || te_tensor_elems(in) == 0) {
        memcpy(out[0], in->data, te_tensor_bytes(in));
        return 1;
    }
    te_move_gather_now(in->data, out[0], te_dtype_size(in->type), base, rank, counts, steps);
    return 1;
}

static int emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0);
    int64_t base, counts[RV_MAX_DIMS], steps[RV_MAX_DIMS];
    int rank = layout(in, te_in(e->g, op, 1), &base, counts, steps);
    if (rank == 0) {
        counts[0] = steps[0] = 1;
        rank = 1;
    }
    return te_move_emit_gather(e, op, base, rank, counts, steps);
}

const te_op_def te_op_reverse_v2 = {
    .opcode = TE_OP_REVERSE_V2,
    .int16x8 = 1,
    .check = check,
    .emit = emit,
    .fold = fold,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_GATHER_S8),
};
