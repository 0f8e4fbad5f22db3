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

/* Registry kernels without a row of their own, on purpose: those whose
 * estimate is their operator's generic row, and those no lowering record
 * names (unit.cost_rows keeps the lists and the table in step). */
extern const te_kernel_id te_cost_generic[];
extern const int te_cost_generic_size;
extern const te_kernel_id te_cost_not_lowered[];
extern const int te_cost_not_lowered_size;

/* Flash bytes of code on a cost model, per kernel variant (kernel), or
 * with kernel TE_K_ANY per name: a kernel family (the runtime file
 * te_<family>.c: the mean of its variants, for variants not calibrated
 * yet) or "base" (NAME_invoke and the I/O accessors).  A kernel costs `bytes` once and `per_call` at every call
 * (always-inlined kernels are copied into each call). */
typedef struct {
    const char *model;
    te_kernel_id kernel; /* the variant, or TE_K_ANY */
    const char *name;    /* with TE_K_ANY: the family, or "base"; else NULL */
    int bytes, per_call;
} te_cost_code;

extern const te_cost_code te_cost_code_table[];
extern const int te_cost_code_table_size;

/* The code table row of a kernel variant, or else of its family (the
 * longest family f with the variant named te_<f>_..., as
 * bench/cost/fit.py groups them); NULL if none (TE_K_VIEW: none). */
const te_cost_code *te_cost_code_row(const char *model, te_kernel_id kernel);
/* The code table row of "base" (invoke function, accessors), or NULL. */
const te_cost_code *te_cost_code_base(const char *model);

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
