/* flash_budget.h - the flash budget of the generated code and the
 * flash-for-speed trades charged to it, in one fixed order (most
 * instructions saved per byte first, measured on the shared models at
 * arm-gcc -O2 on Cortex-M4):
 *   1. the depthwise DSP kernels specialised (inlined) at their calls, the
 *      layers with the most MACs first (a copy saves about a thousand
 *      instructions per byte: without any, himax_fastest_coco_relu6 runs
 *      18% more instructions);
 *   2. the lookup tables of ADD/SUB (te_add_s8_lut), largest outputs first;
 *   3. int16 weight copies of convolutions (op_conv2d.c, by reuse; tens of
 *      instructions per byte);
 *   4. the conv2d GEMM kernel specialised at every call (op_conv2d.c).
 * Each trade is taken only when it fits what the earlier ones left of
 * the budget: the flash limit minus te_flash_base_estimate (the model
 * without any trade; the default limit keeps 4 KiB free) and minus the
 * code of the patch stage, when there is one (src/plan/patch.h,
 * te_patch_code_bytes: patches come first).  The limit:
 * --flash-limit when given; else, on every target (the host ones too),
 * 1.25 x the constants + 32 KiB. */
#ifndef TE_FLASH_BUDGET_H
#define TE_FLASH_BUDGET_H

#include <stdint.h>

#include "../ir/ir.h"

/* The model's constants (weights, biases, tables of the graph), bytes. */
int64_t te_flash_const_bytes(const te_graph *g);
/* The flash limit in effect: --flash-limit, else the default. */
int64_t te_flash_limit(const te_graph *g);
/* Bytes the default limit keeps free for the estimates' error (4 KiB; 0
 * under --flash-limit). */
int64_t te_flash_reserve(const te_graph *g);
/* The flash a patch stage may add beyond the default limit (0 under
 * --flash-limit): 32 KiB + 0.25 x the constants.  Asking for patches asks
 * to trade flash for SRAM; --flash-limit states the limit instead. */
int64_t te_flash_patch_allowance(const te_graph *g);
/* Bytes the trades may take: the limit minus the base estimate, the
 * reserve and the patch stage's code beyond te_flash_patch_allowance
 * (>= 0). */
int64_t te_flash_trade_budget(const te_graph *g);

/* What the budget figures of g depend on (its operators, tensors, patch
 * clones, target and limit), hashed: they are remembered per thread for the
 * key last asked.  Derived graphs keep theirs in content_key. */
uint64_t te_flash_graph_key(const te_graph *g);

/* One depthwise DSP call specialised (inlined) instead of calling the
 * shared kernel: an inlined copy measures about 1.7 KB (arm-gcc 12 -O2,
 * himax: 28 copies 48 KB); the shared kernel (5.6-7.4 KB) it leaves out
 * once every call of its variant is inlined is not credited (an upper
 * bound). */
#define TE_FLASH_DW_INLINE_BYTES 1792

/* 1. Whether depthwise op (or patch clone) calls its DSP kernel's inlined
 * copy (by MACs, most first, DW_INLINE_BYTES a call); the bytes of all
 * the copies. */
int te_flash_dw_inline(const te_graph *g, const te_op *op);
int64_t te_flash_dw_inline_bytes(const te_graph *g);

/* 2. Whether ADD/SUB op (int8, >= 256 outputs) may have lookup tables (by
 * output elements, most first); the bytes all chosen tables take. */
int te_flash_lut_allowed(const te_graph *g, const te_op *op);
int64_t te_flash_lut_bytes(const te_graph *g);

/* 3. (op_conv2d.c) bytes of the int16 weight copies chosen, with the GEMM
 * kernel's own code when any. */
int64_t te_flash_gemm_bytes(const te_graph *g);

/* 4. (op_conv2d.c) bytes of the GEMM kernel's inlined calls (0: none). */
int64_t te_flash_gemm_inline_bytes(const te_graph *g);

/* Bytes of every trade taken: what the generated code adds to
 * te_flash_base_estimate. */
int64_t te_flash_trades_bytes(const te_graph *g);

#endif
