/* cost_model.h - estimated instructions per operator from its shape: the
 * kernel variant its code will call, a handful of size features, and per
 * target a linear function of them whose coefficients bench/calibrate_cost.sh
 * fits to exact per-layer counts (QEMU for Cortex-M, callgrind for the host)
 * and writes into cost_table.c.  Also the flash estimate (constants + code). */
#ifndef TE_COST_MODEL_H
#define TE_COST_MODEL_H

#include <stddef.h>

#include "../codegen/kernels.h"
#include "../ir/ir.h"
#include "../ops/op_cost.h"
#include "../plan/patch.h"

/* One row of the coefficient table. */
typedef struct {
    const char *model;   /* cost model: "cortex-m4", "cortex-m7", "host", ... */
    const char *op;      /* "CONV_2D", or "*" for any operator */
    te_kernel_id kernel; /* kernel variant, or TE_K_ANY (see te_cost_row) */
    const char *row;     /* the op's own case of it (te_cost_features.row:
                          * "1x1", "cols"), or NULL for any */
    double c[TE_COST_NF]; /* instructions per unit of each feature */
    double k[3];         /* flash bytes of its constants: per byte of its
                          * constant inputs, per output channel, per call */
    int samples;         /* layers it was fitted on */
    double err_pct;      /* their RMS relative error of instructions, percent */
} te_cost_coef;

extern const te_cost_coef te_cost_table[];
extern const int te_cost_table_size;
extern const char te_cost_table_date[];

/* Registry kernels no lowering record names, so no row on purpose.  Any
 * other kernel without a row of its own (not calibrated yet) is estimated
 * by its operator's generic row (te_cost_row: (op, *), then (*, *));
 * unit.cost_rows lists those. */
extern const te_kernel_id te_cost_not_lowered[];
extern const int te_cost_not_lowered_size;

/* Flash bytes of code on a cost model (cost_code.c, measured by
 * tools/kernel_code.sh into runtime/te_kernel_code.def): a kernel's own
 * code with the helpers it reaches (kernel: a registry id, te_kernel_id;
 * 0 for a kernel or model the table has no bytes for), the generated
 * file's own functions (invoke, reset, accessors) and what each kernel
 * call adds to the invoke function. */
#define TE_CODE_COLUMNS 5
int te_cost_kernel_code(const char *model, te_kernel_id kernel);
int te_cost_base_code(const char *model);
int te_cost_call_code(const char *model);
/* For the patch stages' code (src/plan/patch_code.c), measured the same
 * way: what one call of a patch stage adds to the invoke function, and the
 * bytes of kernel's params record (sizeof its params struct on the cost
 * model's target; -1 for a kernel of plain arguments or one the table
 * does not know). */
int te_cost_patch_call_code(const char *model);
int te_cost_kernel_params(const char *model, te_kernel_id kernel);
/* The bytes a call of kernel adds beyond te_cost_patch_call_code: its code
 * where the compiler inlines it at each call (0: not inlined, or no row). */
int te_cost_kernel_call(const char *model, te_kernel_id kernel);

/* The cost model of a target (te_target): "cortex-m4", "cortex-m7", "host"
 * (generic C, measured on the build machine), "x86-64-v3" (its AVX2
 * kernels, callgrind on the build machine) or "armv7m-portable"
 * (cortex-m0plus). */
const char *te_cost_model_name(int target);

/* The kernel variant and the features of an operator are in its lowering
 * record (src/ops/lowering.h: te_lowering.kernel, .cost), which its op
 * file fills; bench/calibrate_cost.sh and tests/unit/test_api.c check the
 * kernel against generated code. */

/* The table row for an operator: (op, kernel, f->row) for the op's own
 * case of its kernel (a 1x1 CONV_2D, a DSP depthwise in column mode), then
 * (op, kernel), (*, kernel); for cortex-m4/m7 then the same rows of
 * armv7m-portable (portable kernels they seldom call), for x86-64-v3 the
 * same rows of host; then (op, *), (*, *);
 * NULL when the cost model has none. */
const te_cost_coef *te_cost_row(const char *model, const char *op_name, te_kernel_id variant,
                                const te_cost_features *f);

/* Estimated instructions of an operator (features f, variant v) on a cost model. */
double te_cost_estimate(const te_cost_coef *row, te_kernel_id variant, const te_cost_features *f);

struct te_lowering;

/* Estimated instructions of an operator as lowered (l: its record, whose
 * cost features it reads; NULL: 0) on a cost model. */
double te_cost_op_estimate(const char *model, const te_op *op, const struct te_lowering *l);

/* Estimated instructions of a crop copy of a patch stage (an h x w box of
 * every channel); *f gets its features. */
double te_cost_patch_copy(const char *model, const te_graph *g, const te_patch_step *st,
                          te_cost_features *f);

/* Estimated flash bytes of its constants as its kernel lays them out
 * (weights, bias, requantization and lookup tables). */
size_t te_cost_const_bytes(const te_cost_coef *row, te_kernel_id variant, size_t const_in_bytes,
                           int out_channels);

#endif
