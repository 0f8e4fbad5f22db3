/* cost_model.c - the estimated instructions of one operator (see
 * cost_model.h) from its lowering record (kernel variant, size features):
 * the table lookup, and the flash bytes of its constants.  The
 * coefficients themselves live in cost_table.c, written by
 * bench/calibrate_cost.sh. */
#include "cost_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler.h"
#include "../ir/target.h"
#include "../ops/fc_layout.h"
#include "../ops/ops.h"

/* Registry kernels no lowering record names, so no row: the fast fully
 * connected kernels' inner helpers, and the patch stage's crop copy
 * (te_cost_patch_copy: STRIDED_SLICE's gather row). */
const te_kernel_id te_cost_not_lowered[] = {
    TE_K_FULLY_CONNECTED_S8_LANES, TE_K_FULLY_CONNECTED_S8_ROWS4, TE_K_PATCH_COPY_S8,
};
const int te_cost_not_lowered_size =
    (int)(sizeof te_cost_not_lowered / sizeof te_cost_not_lowered[0]);

const char *te_cost_model_name(int target)
{
    switch (target) {
    case TE_TARGET_CORTEX_M4: return "cortex-m4";
    case TE_TARGET_CORTEX_M7: return "cortex-m7";
    case TE_TARGET_CORTEX_M0PLUS: return "armv7m-portable";
    case TE_TARGET_X86_64_V3: return "x86-64-v3";
    default: return "host";
    }
}

/* The row (model, op, kernel, row); row NULL: the kernel's general row. */
static const te_cost_coef *find_coef(const char *model, const char *op, te_kernel_id kernel,
                                     const char *row)
{
    int i;
    for (i = 0; i < te_cost_table_size; i++) {
        const te_cost_coef *c = &te_cost_table[i];
        if (c->kernel == kernel && !strcmp(c->model, model) && !strcmp(c->op, op) &&
            (row ? c->row && !strcmp(c->row, row) : !c->row))
            return c;
    }
    return NULL;
}

/* The rows of one cost model that name the kernel: the op's own case of
 * it first (f->row: "1x1", "cols"). */
static const te_cost_coef *kernel_row(const char *model, const char *op_name,
                                      te_kernel_id variant, const te_cost_features *f)
{
    const te_cost_coef *c = NULL;
    if (f->row)
        c = find_coef(model, op_name, variant, f->row);
    if (!c)
        c = find_coef(model, op_name, variant, NULL);
    if (!c)
        c = find_coef(model, "*", variant, NULL); /* the kernel, whichever op calls it */
    return c;
}

const te_cost_coef *te_cost_row(const char *model, const char *op_name, te_kernel_id variant,
                                const te_cost_features *f)
{
    const te_cost_coef *c = kernel_row(model, op_name, variant, f);
    /* a portable kernel the DSP targets rarely call (patch clones): its
     * count on the same core with the portable build */
    if (!c && (!strcmp(model, "cortex-m4") || !strcmp(model, "cortex-m7")))
        c = kernel_row("armv7m-portable", op_name, variant, f);
    /* x86-64-v3 is calibrated on the real models (its AVX2 kernels); the
     * portable kernels it shares with the host keep the host's rows */
    if (!c && !strcmp(model, "x86-64-v3"))
        c = kernel_row("host", op_name, variant, f);
    if (!c)
        c = find_coef(model, op_name, TE_K_ANY, NULL);
    if (!c)
        c = find_coef(model, "*", TE_K_ANY, NULL);
    return c;
}

double te_cost_estimate(const te_cost_coef *row, te_kernel_id variant, const te_cost_features *f)
{
    double sum = 0;
    int k;
    if (!row || variant == TE_K_VIEW)
        return 0;
    for (k = 0; k < TE_COST_NF; k++)
        sum += row->c[k] * f->f[k];
    return sum > 0 ? sum : 0;
}

size_t te_cost_const_bytes(const te_cost_coef *row, te_kernel_id variant, size_t const_in_bytes,
                           int out_channels)
{
    /* uncalibrated: the weights as they are, int32 multiplier and shift per channel */
    static const double plain[3] = {1, 8, 0};
    const double *k = row ? row->k : plain;
    double v;
    double in = (double)const_in_bytes;
    if (variant == TE_K_VIEW)
        return 0;
    /* the DSP kernel's packed weights pad the rows to a multiple of its block */
    if (variant == TE_K_FULLY_CONNECTED_S8_DSP && out_channels > 0)
        in *= (double)te_fc_dsp_words(out_channels, 1) / out_channels;
    v = k[0] * in + k[1] * out_channels + k[2];
    return v > 0 ? (size_t)(v + 0.5) : 0;
}

double te_cost_op_estimate(const char *model, const te_op *op, const te_lowering *l)
{
    if (!l)
        return 0;
    return te_cost_estimate(te_cost_row(model, te_opcode_name(op->opcode), l->kernel, &l->cost),
                            l->kernel, &l->cost);
}

double te_cost_patch_copy(const char *model, const te_graph *g, const te_patch_step *st,
                          te_cost_features *f)
{
    const te_tensor *src = &g->tensors[st->src];
    int64_t hw = (int64_t)src->shape[st->src_ay] * src->shape[st->src_ax];
    double per_px = hw > 0 ? (double)te_tensor_elems(src) / (double)hw : 0;
    memset(f, 0, sizeof *f);
    f->f[TE_CF_OUT] = f->f[TE_CF_IN] = per_px * st->h * st->w;
    f->f[TE_CF_ROWS] = st->h;
    f->f[TE_CF_CALL] = 1;
    /* not calibrated on its own: a strided box copy like STRIDED_SLICE's gather */
    return te_cost_estimate(te_cost_row(model, "STRIDED_SLICE", TE_K_COPY_GATHER_S8, f),
                            TE_K_COPY_GATHER_S8, f);
}
