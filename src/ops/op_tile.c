/* op_tile.c - TILE of a constant (an SSD head's anchors tiled by a
 * computed multiple): folded at compile time into the tiled constant.
 * TFLite Micro has no TILE kernel, and neither have we: a TILE of an
 * activation stays unsupported. */
#include <string.h>

#include "movement.h"

static int tile_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *mult, *out;
    int k;
    if (te_check_io_count(d, op, 2, 2, 1) < 0)
        return -1;
    in = te_in(g, op, 0);
    mult = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (!in || te_dtype_size(in->type) == 0)
        return te_op_fail(d, op, "input 0 is missing or of unsupported type");
    if (te_move_check_index_tensor(d, op, mult, "input 1 (multiples)", 1) < 0)
        return -1;
    if (te_tensor_elems(mult) != in->rank)
        return te_op_fail(d, op, "input 1 (multiples) has %lld entries, input rank is %d",
                          (long long)te_tensor_elems(mult), in->rank);
    if (te_check_type(d, op, out, "output 0", in->type) < 0)
        return -1;
    if (out->rank != in->rank)
        return te_op_fail(d, op, "output 0 has rank %d, input 0 %d", out->rank, in->rank);
    for (k = 0; k < in->rank; k++)
        if ((int64_t)in->shape[k] * te_move_const_int(mult, k) != out->shape[k])
            return te_op_fail(d, op, "output 0 dimension %d is %d, input x multiple gives %lld",
                              k, out->shape[k],
                              (long long)in->shape[k] * te_move_const_int(mult, k));
    return 0;
}

static int tile_fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in = te_in(g, op, 0), *o = te_out(g, op, 0);
    size_t esz = te_dtype_size(in->type);
    int64_t n = te_tensor_elems(o), i;
    if (!in->data)
        return 0;
    for (i = 0; i < n; i++) { /* output element i reads input (i_k mod in_k) */
        int64_t rest = i, src = 0, stride = 1;
        int k;
        for (k = o->rank - 1; k >= 0; k--) {
            src += (rest % o->shape[k]) % in->shape[k] * stride;
            rest /= o->shape[k];
            stride *= in->shape[k];
        }
        memcpy(out[0] + (size_t)i * esz, in->data + (size_t)src * esz, esz);
    }
    return 1;
}

const te_op_def te_op_tile = {
    .opcode = TE_OP_TILE,
    .check = tile_check,
    .fold = tile_fold,
};
