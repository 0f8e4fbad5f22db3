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

static const te_cost_coef *find_coef(const char *model, const char *op, const char *kernel)
{
    int i;
    for (i = 0; i < te_cost_table_size; i++) {
        const te_cost_coef *c = &te_cost_table[i];
        if (!strcmp(c->model, model) && !strcmp(c->op, op) && !strcmp(c->kernel, kernel))
            return c;
    }
    return NULL;
}

/* The rows of one cost model that name the kernel: the op's own case of
 * it first (f->row: "<kernel>/1x1", "<kernel>/cols"). */
static const te_cost_coef *kernel_row(const char *model, const char *op_name,
                                      const char *variant, const te_cost_features *f)
{
    const te_cost_coef *c = NULL;
    char key[96];
    if (f->row && snprintf(key, sizeof key, "%s/%s", variant, f->row) < (int)sizeof key)
        c = find_coef(model, op_name, key);
    if (!c)
        c = find_coef(model, op_name, variant);
    if (!c)
        c = find_coef(model, "*", variant); /* the kernel, whichever op calls it */
    return c;
}

const te_cost_coef *te_cost_row(const char *model, const char *op_name, const char *variant,
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
        c = find_coef(model, op_name, "*");
    if (!c)
        c = find_coef(model, "*", "*");
    return c;
}

double te_cost_estimate(const te_cost_coef *row, const char *variant, const te_cost_features *f)
{
    double sum = 0;
    int k;
    if (!row || !strcmp(variant, "view"))
        return 0;
    for (k = 0; k < TE_COST_NF; k++)
        sum += row->c[k] * f->f[k];
    return sum > 0 ? sum : 0;
}

size_t te_cost_const_bytes(const te_cost_coef *row, const char *variant, size_t const_in_bytes,
                           int out_channels)
{
    /* uncalibrated: the weights as they are, int32 multiplier and shift per channel */
    static const double plain[3] = {1, 8, 0};
    const double *k = row ? row->k : plain;
    double v;
    double in = (double)const_in_bytes;
    if (!strcmp(variant, "view"))
        return 0;
    /* the DSP kernel's packed weights pad the rows to a multiple of its block */
    if (!strcmp(variant, "te_fully_connected_s8_dsp") && out_channels > 0)
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
    return te_cost_estimate(te_cost_row(model, "STRIDED_SLICE", "te_copy_gather_s8", f),
                            "te_copy_gather_s8", f);
}
