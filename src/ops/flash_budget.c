/* flash_budget.c - the flash budget and the order of the flash-for-speed
 * trades (flash_budget.h); the int16 weight copies and the GEMM inlining
 * are op_conv2d.c's, which reads the budget left here. */
#include "flash_budget.h"

#include "../plan/patch.h"
#include "ir/target.h"
#include "lowering.h"

/* 1.25 x the constants + 32 KiB: flash close to the weights */
#define DEFAULT_FLASH(consts) ((consts) + (consts) / 4 + 32768)

/* ADD/SUB outputs from which te_add_s8_lut is worth its tables (the
 * op files' own threshold), and the flash of one op's tables: two
 * 256-entry int32 tables and their params record. */
#define LUT_MIN_ELEMS 256
#define LUT_BYTES (2048 + 64)

/* One depthwise DSP call specialised (inlined) instead of calling the
 * shared kernel: measured 860-1060 bytes a call (arm-gcc 12 -O2,
 * gd32_food_101 and himax), rounded up. */
#define DW_INLINE_BYTES 1280

int64_t te_flash_const_bytes(const te_graph *g)
{
    int64_t consts = 0;
    int i;
    for (i = 0; i < g->n_tensors; i++)
        if (g->tensors[i].data)
            consts += (int64_t)te_tensor_bytes(&g->tensors[i]);
    return consts;
}

int64_t te_flash_limit(const te_graph *g)
{
    if (g->flash_limit)
        return (int64_t)g->flash_limit;
    if (te_target_has_dsp(g->target))
        return DEFAULT_FLASH(te_flash_const_bytes(g));
    return -1;
}

int64_t te_flash_trade_budget(const te_graph *g)
{
    int64_t limit = te_flash_limit(g), left;
    if (limit < 0)
        return INT64_MAX;
    left = limit - te_flash_base_estimate(g);
    return left < 0 ? 0 : left;
}

/* ---- 1. ADD/SUB lookup tables ------------------------------------------ */

static int64_t lut_elems(const te_graph *g, const te_op *op)
{
    const te_tensor *out;
    if ((op->opcode != TE_OP_ADD && op->opcode != TE_OP_SUB) || op->dead || op->n_out < 1)
        return -1;
    out = &g->tensors[op->out[0]];
    if (out->type != TE_DT_INT8 || te_tensor_elems(out) < LUT_MIN_ELEMS)
        return -1;
    return (int64_t)te_tensor_elems(out);
}

/* Whether op is among the table candidates that fit the budget: by output
 * elements, most first (then op order); patch clones share their op's. */
static int lut_fits(const te_graph *g, const te_op *me, int64_t budget)
{
    int64_t mine = lut_elems(g, me), used = LUT_BYTES;
    int i;
    if (mine < 0)
        return 0;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *o = &g->ops[i];
        int64_t e = lut_elems(g, o);
        if (o != me && e >= 0 && (e > mine || (e == mine && o < me)))
            used += LUT_BYTES;
    }
    return used <= budget;
}

int te_flash_lut_allowed(const te_graph *g, const te_op *op)
{
    int i;
    if (te_flash_limit(g) < 0)
        return 1;
    if (op < g->ops || op >= g->ops + g->n_ops) /* a patch clone: its op's choice */
        for (i = 0; i < g->n_ops; i++)
            if (g->ops[i].index == op->index)
                return lut_fits(g, &g->ops[i], te_flash_trade_budget(g));
    return lut_fits(g, op, te_flash_trade_budget(g));
}

int64_t te_flash_lut_bytes(const te_graph *g)
{
    int64_t budget = te_flash_trade_budget(g), sum = 0;
    int i;
    for (i = 0; i < g->n_ops; i++)
        if (lut_fits(g, &g->ops[i], budget))
            sum += LUT_BYTES;
    return sum;
}

/* ---- 3. depthwise DSP kernels inlined ---------------------------------- */

/* Live int8 depthwise calls (patch clones included): an upper bound of
 * the DSP ring kernel's calls. */
static int dw_calls(const te_graph *g)
{
    int i, n = 0;
    for (i = 0; i < g->n_ops; i++)
        n += g->ops[i].opcode == TE_OP_DEPTHWISE_CONV_2D && !g->ops[i].dead &&
             g->tensors[g->ops[i].out[0]].type == TE_DT_INT8;
    if (g->patch)
        for (i = 0; i < g->patch->n_clones; i++)
            n += g->patch->clones[i].opcode == TE_OP_DEPTHWISE_CONV_2D;
    return n;
}

int te_flash_dw_inline(const te_graph *g)
{
    int64_t left = te_flash_trade_budget(g);
    if (!te_target_has_dsp(g->target))
        return 0;
    if (left == INT64_MAX)
        return 1;
    left -= te_flash_lut_bytes(g) + te_flash_gemm_bytes(g);
    return left >= (int64_t)dw_calls(g) * DW_INLINE_BYTES;
}

int64_t te_flash_dw_inline_bytes(const te_graph *g)
{
    return te_flash_dw_inline(g) ? (int64_t)dw_calls(g) * DW_INLINE_BYTES : 0;
}

int64_t te_flash_trades_bytes(const te_graph *g)
{
    return te_flash_lut_bytes(g) + te_flash_gemm_bytes(g) + te_flash_dw_inline_bytes(g) +
           te_flash_gemm_inline_bytes(g);
}
