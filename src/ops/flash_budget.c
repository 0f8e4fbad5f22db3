/* flash_budget.c - the flash budget and the order of the flash-for-speed
 * trades (flash_budget.h); the int16 weight copies and the GEMM inlining
 * are op_conv2d.c's, which reads the budget left here. */
#include "flash_budget.h"

#include <stdint.h>

#include "../plan/patch.h"
#include "ir/target.h"
#include "lowering.h"

/* 1.25 x the constants + 32 KiB: flash close to the weights */
#define DEFAULT_FLASH(consts) ((consts) + (consts) / 4 + 32768)

/* Bytes the default limit keeps free of trades: a margin for the
 * estimates (fitted on the shared models, 1-4 KB above the objects the
 * trades fill the budget of). */
#define DEFAULT_RESERVE 4096

/* ADD/SUB outputs from which te_add_s8_lut is worth its tables (the
 * op files' own threshold), and the flash of one op's tables: two
 * 256-entry int32 tables and their params record. */
#define LUT_MIN_ELEMS 256
#define LUT_BYTES (2048 + 64)

#define DW_INLINE_BYTES TE_FLASH_DW_INLINE_BYTES
/* Depthwise ops the ranking looks at (more: the rest stay plain calls). */
#define TE_FLASH_DW_MAX 512

int64_t te_flash_const_bytes(const te_graph *g)
{
    int64_t consts = 0;
    int i;
    for (i = 0; i < g->n_tensors; i++)
        if (g->tensors[i].data && !g->tensors[i].compile_only)
            consts += (int64_t)te_tensor_bytes(&g->tensors[i]);
    return consts;
}

int64_t te_flash_limit(const te_graph *g)
{
    if (g->flash_limit)
        return (int64_t)g->flash_limit;
    return DEFAULT_FLASH(te_flash_const_bytes(g)); /* every target */
}

int64_t te_flash_reserve(const te_graph *g)
{
    return g->flash_limit ? 0 : DEFAULT_RESERVE;
}

int64_t te_flash_patch_allowance(const te_graph *g)
{
    return g->flash_limit ? 0 : 32768 + te_flash_const_bytes(g) / 4;
}

/* The patch stage's code (patch.h: te_patch_code_bytes) is charged before
 * the trades, what the patch allowance does not cover: it is what the
 * arena asked for. */
static int64_t trade_budget_uncached(const te_graph *g)
{
    const int64_t limit = te_flash_limit(g);
    int64_t left = limit - te_flash_base_estimate(g) - te_flash_reserve(g);
    if (g->patch) {
        int64_t code = g->patch->code_bytes - te_flash_patch_allowance(g); /* te_patch_graph */
        left -= code > 0 ? code : 0;
    }
    return left < 0 ? 0 : left;
}

/* ---- 1. depthwise DSP kernels inlined ----------------------------------- */

/* The multiply-accumulates of a live int8 depthwise op (what its inlined
 * copy speeds up), or -1. */
static int64_t dw_macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w, *out;
    if (op->opcode != TE_OP_DEPTHWISE_CONV_2D || op->dead || op->n_in < 2 || op->in[1] < 0)
        return -1;
    w = &g->tensors[op->in[1]];
    out = &g->tensors[op->out[0]];
    if (out->type != TE_DT_INT8 || w->rank != 4)
        return -1;
    return (int64_t)te_tensor_elems(out) * w->shape[1] * w->shape[2];
}

/* The op of the graph a patch clone stands for (itself otherwise). */
static const te_op *original(const te_graph *g, const te_op *op)
{
    int i;
    if (op >= g->ops && op < g->ops + g->n_ops)
        return op;
    for (i = 0; i < g->n_ops; i++)
        if (g->ops[i].index == op->index)
            return &g->ops[i];
    return op;
}

/* How many depthwise ops are inlined: the longest prefix of them by MACs
 * (most first, then op order) whose copies, less the shared kernels no
 * call needs any more (each variant's TE_FLASH_CODE_DW of the base
 * estimate), fit the budget; *bytes: what that prefix costs. */
static int dw_inlined_count_uncached(const te_graph *g, int64_t budget, int64_t *bytes);

/* dw_inlined_count, remembered for the last graph asked: the lowering of
 * every op (and every patch clone) asks, and the count is O(ops^3). The
 * key is everything the count reads: the budget and each candidate op's
 * position, MACs and kernel variant. */
static int dw_inlined_count(const te_graph *g, int64_t budget, int64_t *bytes)
{
    static uint64_t last_key;
    static int last_count, have;
    static int64_t last_bytes;
    uint64_t key = 1469598103934665603ull ^ (uint64_t)budget;
    int i;
    for (i = 0; i < g->n_ops; i++) {
        int64_t m = dw_macs(g, &g->ops[i]);
        if (m < 0)
            continue;
        key = (key ^ (uint64_t)i) * 1099511628211ull;
        key = (key ^ (uint64_t)m) * 1099511628211ull;
        key = (key ^ (uint64_t)te_flash_dw_variant(g, &g->ops[i])) * 1099511628211ull;
    }
    if (!have || key != last_key) {
        last_count = dw_inlined_count_uncached(g, budget, &last_bytes);
        last_key = key;
        have = 1;
    }
    if (bytes)
        *bytes = last_bytes;
    return last_count;
}

static int dw_inlined_count_uncached(const te_graph *g, int64_t budget, int64_t *bytes)
{
    int idx[TE_FLASH_DW_MAX], n = 0, i, j, best = 0;
    int64_t best_bytes = 0;
    for (i = 0; i < g->n_ops && n < TE_FLASH_DW_MAX; i++)
        if (dw_macs(g, &g->ops[i]) >= 0)
            idx[n++] = i;
    for (i = 1; i < n; i++) /* insertion sort: MACs down, op order */
        for (j = i; j > 0 && dw_macs(g, &g->ops[idx[j]]) > dw_macs(g, &g->ops[idx[j - 1]]); j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    for (i = 1; i <= n; i++) {
        int64_t cost = (int64_t)i * DW_INLINE_BYTES;
        for (j = 0; j < i; j++) { /* variants whose every call is among the first i */
            const int v = te_flash_dw_variant(g, &g->ops[idx[j]]);
            int k, first = 1, all = 1;
            for (k = 0; k < j; k++)
                first &= te_flash_dw_variant(g, &g->ops[idx[k]]) != v;
            for (k = i; k < n; k++)
                all &= te_flash_dw_variant(g, &g->ops[idx[k]]) != v;
            if (first && all)
                cost -= TE_FLASH_CODE_DW;
        }
        if (cost <= budget) {
            best = i;
            best_bytes = cost;
        }
    }
    if (bytes)
        *bytes = best_bytes > 0 ? best_bytes : 0;
    return best;
}

/* Whether depthwise op `me` is among the inlined ones. */
static int dw_fits(const te_graph *g, const te_op *me, int64_t budget)
{
    int64_t mine = dw_macs(g, me);
    int i, rank = 0;
    if (mine < 0)
        return 0;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *o = &g->ops[i];
        int64_t e = dw_macs(g, o);
        if (o != me && e >= 0 && (e > mine || (e == mine && o < me)))
            rank++;
    }
    return rank < dw_inlined_count(g, budget, NULL);
}

int te_flash_dw_inline(const te_graph *g, const te_op *op)
{
    if (!te_target_has_dsp(g->target))
        return 0;
    return dw_fits(g, original(g, op), te_flash_trade_budget(g));
}

static int64_t dw_inline_bytes_uncached(const te_graph *g, int64_t budget)
{
    int64_t sum = 0;
    int i;
    if (!te_target_has_dsp(g->target))
        return 0;
    dw_inlined_count(g, budget, &sum);
    if (g->patch) /* clones inlined like their ops: one more copy each */
        for (i = 0; i < g->patch->n_clones; i++)
            if (dw_fits(g, original(g, &g->patch->clones[i]), budget))
                sum += DW_INLINE_BYTES;
    return sum;
}

/* ---- 2. ADD/SUB lookup tables ------------------------------------------ */

static int64_t lut_elems(const te_graph *g, const te_op *op)
{
    const te_tensor *out;
    int64_t elems;
    if ((op->opcode != TE_OP_ADD && op->opcode != TE_OP_SUB) || op->dead || op->n_out < 1)
        return -1;
    out = &g->tensors[op->out[0]];
    if (out->type != TE_DT_INT8 || (elems = te_tensor_elems(out)) < LUT_MIN_ELEMS)
        return -1;
    return elems;
}

/* Whether op is among the table candidates that fit the budget: by output
 * elements, most first (then op order); patch clones share their op's. */
static int lut_fits(const te_graph *g, const te_op *me, int64_t budget)
{
    int64_t mine, used = LUT_BYTES;
    int i;
    if (used > budget || (mine = lut_elems(g, me)) < 0)
        return 0;
    for (i = 0; i < g->n_ops && used <= budget; i++) { /* used only grows */
        const te_op *o = &g->ops[i];
        int64_t e = lut_elems(g, o);
        if (o != me && e >= 0 && (e > mine || (e == mine && o < me)))
            used += LUT_BYTES;
    }
    return used <= budget;
}

/* What the inlined depthwise calls leave of the budget. */
static int64_t lut_budget(const te_graph *g)
{
    return te_flash_trade_budget(g) - te_flash_dw_inline_bytes(g);
}

static int64_t lut_bytes_uncached(const te_graph *g, int64_t budget)
{
    int64_t sum = 0;
    int i;
    for (i = 0; i < g->n_ops; i++)
        if (lut_fits(g, &g->ops[i], budget))
            sum += LUT_BYTES;
    return sum;
}

int te_flash_lut_allowed(const te_graph *g, const te_op *op)
{
    return lut_fits(g, original(g, op), lut_budget(g));
}


int64_t te_flash_trades_bytes(const te_graph *g)
{
    return te_flash_lut_bytes(g) + te_flash_gemm_bytes(g) + te_flash_dw_inline_bytes(g) +
           te_flash_gemm_inline_bytes(g);
}

/* ---- the figures every lowering asks for, remembered ------------------- */

/* The trade budget, the inlined depthwise copies and the ADD tables of the
 * last graph asked, per thread (the C API may compile on several): the
 * lowering of every op and every patch clone asks for them, and computing
 * them reads every tensor and every pair of ops.  The key is what they
 * read: the graph, its ops (kind, liveness, operands), its tensors'
 * count, its limit and target, and its patch clones. */
#if defined(__GNUC__)
#define BUDGET_MEMO_STORAGE static __thread
#else
#define BUDGET_MEMO_STORAGE static /* compilers without thread-local storage: one thread */
#endif

typedef struct {
    uint64_t key;
    int have;
    int64_t trade, dw_bytes, lut_bytes;
} budget_memo;

static uint64_t mix(uint64_t k, uint64_t v)
{
    return (k ^ v) * 1099511628211ull;
}

uint64_t te_flash_graph_key(const te_graph *g)
{
    uint64_t k = mix(1469598103934665603ull, (uint64_t)(uintptr_t)g);
    int i, j;
    k = mix(k, (uint64_t)(uintptr_t)g->ops);
    k = mix(k, (uint64_t)(uintptr_t)g->tensors);
    k = mix(k, (uint64_t)g->n_ops);
    k = mix(k, (uint64_t)g->n_tensors);
    k = mix(k, (uint64_t)g->flash_limit);
    k = mix(k, (uint64_t)g->target);
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        k = mix(k, (uint64_t)op->opcode * 4 + (uint64_t)(op->dead != 0));
        for (j = 0; j < op->n_in; j++)
            k = mix(k, (uint64_t)(int64_t)op->in[j]);
        for (j = 0; j < op->n_out; j++)
            k = mix(k, (uint64_t)(int64_t)op->out[j]);
    }
    k = mix(k, g->patch ? (uint64_t)g->patch->n_clones : ~0ull);
    for (i = 0; g->patch && i < g->patch->n_clones; i++)
        k = mix(k, (uint64_t)(int64_t)g->patch->clones[i].index);
    return k;
}

static const budget_memo *budget_of(const te_graph *g)
{
    BUDGET_MEMO_STORAGE budget_memo memo;
    uint64_t key = g->content_key ? g->content_key : te_flash_graph_key(g);
    if (!memo.have || memo.key != key) {
        memo.trade = trade_budget_uncached(g);
        memo.dw_bytes = te_target_has_dsp(g->target) ? dw_inline_bytes_uncached(g, memo.trade) : 0;
        memo.lut_bytes = lut_bytes_uncached(g, memo.trade - memo.dw_bytes);
        memo.key = key;
        memo.have = 1;
    }
    return &memo;
}

int64_t te_flash_trade_budget(const te_graph *g)
{
    return budget_of(g)->trade;
}

int64_t te_flash_dw_inline_bytes(const te_graph *g)
{
    return budget_of(g)->dw_bytes;
}

int64_t te_flash_lut_bytes(const te_graph *g)
{
    return budget_of(g)->lut_bytes;
}
