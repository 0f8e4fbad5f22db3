/* cost_model.c - the estimated instructions of one operator (see
 * cost_model.h): which kernel variant its code calls, its size features and
 * the table lookup, and the flash bytes of its constants.  The
 * coefficients themselves live in cost_table.c, written by
 * bench/calibrate_cost.sh. */
#include "cost_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler.h"
#include "../ir/target.h"
#include "../ops/conv_family.h"
#include "../ops/fc_layout.h"
#include "../ops/ops.h"

const char *te_cost_model_name(int target)
{
    switch (target) {
    case TE_TARGET_CORTEX_M4: return "cortex-m4";
    case TE_TARGET_CORTEX_M7: return "cortex-m7";
    case TE_TARGET_CORTEX_M0PLUS: return "armv7m-portable";
    default: return "host";
    }
}

static const te_tensor *in0(const te_graph *g, const te_op *op)
{
    return op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
}

static const te_tensor *out0(const te_graph *g, const te_op *op)
{
    return op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
}

/* RESHAPE / SQUEEZE write nothing when the output shares the input's bytes. */
static const char *copy_variant(const te_tensor *in, const te_tensor *out)
{
    if (!in || !out || out->alias_of == in->id || te_tensor_bytes(in) == 0)
        return "view";
    if (in->in_arena && out->in_arena && in->arena_offset == out->arena_offset &&
        !in->patch_role && !out->patch_role)
        return "view";
    return "te_copy_bytes";
}

static const char *quantize_variant(const te_tensor *in, const te_tensor *out)
{
    static const struct { te_dtype in, out; const char *fn; } pairs[] = {
        {TE_DT_FLOAT32, TE_DT_INT8, "te_quantize_f32_s8"},
        {TE_DT_FLOAT32, TE_DT_INT16, "te_quantize_f32_s16"},
        {TE_DT_INT8, TE_DT_INT8, "te_quantize_s8_s8"},
        {TE_DT_INT8, TE_DT_INT16, "te_quantize_s8_s16"},
        {TE_DT_INT8, TE_DT_INT32, "te_quantize_s8_s32"},
        {TE_DT_INT16, TE_DT_INT8, "te_quantize_s16_s8"},
        {TE_DT_INT16, TE_DT_INT16, "te_quantize_s16_s16"},
        {TE_DT_INT16, TE_DT_INT32, "te_quantize_s16_s32"},
        {TE_DT_UINT8, TE_DT_INT8, "te_quantize_u8_s8"},
        {TE_DT_INT8, TE_DT_UINT8, "te_quantize_s8_u8"},
        {TE_DT_INT32, TE_DT_INT8, "te_quantize_s32_s8"},
        {TE_DT_INT32, TE_DT_INT16, "te_quantize_s32_s16"},
    };
    size_t i;
    for (i = 0; in && out && i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].in == in->type && pairs[i].out == out->type)
            return pairs[i].fn;
    return "te_quantize";
}

/* Operators with several kernels say which one their emit() calls
 * (te_op_def.variant); the others have one. */
const char *te_cost_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = in0(g, op), *out = out0(g, op);
    const te_op_def *def = te_op_find(op->opcode);
    if (def && def->variant)
        return def->variant(g, op);
    switch (op->opcode) {
    case TE_OP_TRANSPOSE_CONV: return "te_transpose_conv_s8";
    case TE_OP_ADD: return "te_add_s8";
    case TE_OP_MUL: return "te_mul_s8";
    case TE_OP_AVERAGE_POOL_2D: return "te_pool_avg_s8";
    case TE_OP_MAX_POOL_2D: return "te_pool_max_s8";
    case TE_OP_MEAN: return "te_mean_s8";
    case TE_OP_PAD: return "te_pad_s8";
    case TE_OP_RESHAPE:
    case TE_OP_SQUEEZE: return copy_variant(in, out);
    case TE_OP_TRANSPOSE:
    case TE_OP_STRIDED_SLICE: return "te_copy_gather_s8";
    case TE_OP_RESIZE_NEAREST_NEIGHBOR: return "te_resize_nearest_s8";
    case TE_OP_LOGISTIC:
    case TE_OP_TANH:
    case TE_OP_HARD_SWISH:
    case TE_OP_RELU:
    case TE_OP_RELU6: return "te_lut_s8";
    case TE_OP_SOFTMAX:
        return out && out->type == TE_DT_INT16 ? "te_softmax_s8_s16" : "te_softmax_s8";
    case TE_OP_LOG_SOFTMAX:
        return in && in->type == TE_DT_FLOAT32 ? "te_log_softmax_f32" : "te_log_softmax_s8";
    case TE_OP_QUANTIZE: return quantize_variant(in, out);
    case TE_OP_DEQUANTIZE:
        return in && in->type == TE_DT_INT16 ? "te_dequantize_s16_f32" : "te_dequantize_s8_f32";
    default: return "unknown";
    }
}

static int64_t elems_of(const te_graph *g, const int *ids, int n, int skip_const)
{
    int64_t sum = 0;
    int i;
    for (i = 0; i < n; i++)
        if (ids[i] >= 0 && !(skip_const && g->tensors[ids[i]].data))
            sum += te_tensor_elems(&g->tensors[ids[i]]);
    return sum;
}

/* Outer loop count: N*H*W of an image, all but the last dimension otherwise. */
static int64_t rows_of(const te_tensor *t)
{
    int64_t last;
    if (!t || t->rank == 0)
        return 1;
    last = t->shape[t->rank - 1];
    return last > 0 ? te_tensor_elems(t) / last : 0;
}

static double window_of(const te_graph *g, const te_op *op, const te_tensor *out)
{
    const te_tensor *w = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
    switch (op->opcode) {
    case TE_OP_CONV_2D:
        return w && w->rank == 4 ? (double)rows_of(out) * w->shape[1] * w->shape[2] * w->shape[3]
                                 : 0;
    case TE_OP_AVERAGE_POOL_2D:
    case TE_OP_MAX_POOL_2D:
        return out ? (double)te_tensor_elems(out) * op->opt.filter_h * op->opt.filter_w : 0;
    default: return 0;
    }
}

void te_cost_features_of(const te_graph *g, const te_op *op, te_cost_features *f)
{
    const te_tensor *out = out0(g, op);
    const te_op_def *def = te_op_find(op->opcode);
    memset(f, 0, sizeof *f);
    f->f[TE_CF_MACS] = def && def->macs ? (double)def->macs(g, op) : 0;
    f->f[TE_CF_WINDOW] = window_of(g, op, out);
    if (op->opcode == TE_OP_CONV_2D && op->n_in > 1 && op->in[1] >= 0 &&
        g->tensors[op->in[1]].rank == 4 && g->tensors[op->in[1]].shape[3] > 0)
        f->f[TE_CF_TAPS] = f->f[TE_CF_MACS] / g->tensors[op->in[1]].shape[3];
    f->f[TE_CF_OUT] = (double)elems_of(g, op->out, op->n_out, 0);
    f->f[TE_CF_IN] = (double)elems_of(g, op->in, op->n_in, 1);
    f->f[TE_CF_ROWS] = (double)rows_of(out);
    f->f[TE_CF_CALL] = 1;
    f->columns = op->opcode == TE_OP_DEPTHWISE_CONV_2D && op->n_in > 1 && op->in[1] >= 0 &&
                 te_convfam_dw_columns(g, op);
    if (op->opcode == TE_OP_CONCATENATION) { /* inputs written in place cost nothing */
        int i;
        double copied = 0;
        for (i = 0; i < op->n_in; i++)
            if (op->in[i] >= 0 && !(g->tensors[op->in[i]].slice &&
                                    g->tensors[op->in[i]].alias_of == op->out[0]))
                copied += (double)te_tensor_elems(&g->tensors[op->in[i]]);
        if (f->f[TE_CF_OUT] > 0)
            f->f[TE_CF_ROWS] *= copied / f->f[TE_CF_OUT];
        f->f[TE_CF_OUT] = copied;
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

/* The rows of one cost model that name the kernel. */
static const te_cost_coef *kernel_row(const char *model, const char *op_name,
                                      const char *variant, const te_cost_features *f)
{
    const te_cost_coef *c = NULL;
    char key[96];
    /* a 1x1 convolution (taps == outputs) skips the patch gathering; a
     * DSP depthwise kernel in column mode has its own costs */
    if (!strcmp(op_name, "CONV_2D") && f->f[TE_CF_TAPS] == f->f[TE_CF_OUT] &&
        snprintf(key, sizeof key, "%s/1x1", variant) < (int)sizeof key)
        c = find_coef(model, op_name, key);
    if (!c && f->columns && snprintf(key, sizeof key, "%s/cols", variant) < (int)sizeof key)
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

const te_cost_code *te_cost_code_row(const char *model, const char *name)
{
    const te_cost_code *best = NULL;
    size_t best_len = 0;
    int i;
    for (i = 0; i < te_cost_code_table_size; i++) {
        const te_cost_code *c = &te_cost_code_table[i];
        size_t len = strlen(c->name);
        if (strcmp(c->model, model))
            continue;
        if (!strcmp(c->name, name))
            return c;
        if (!strncmp(name, "te_", 3) && !strncmp(name + 3, c->name, len) && name[3 + len] == '_' &&
            len > best_len) {
            best = c;
            best_len = len;
        }
    }
    return best;
}
