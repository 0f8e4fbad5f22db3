/* lowering.c - the lowering records (lowering.h): the storage decisions
 * and common cost features every op shares, then the op file's own
 * decisions through te_op_def.variant / lower / cost_features. */
#include "lowering.h"

#include <stdlib.h>
#include <string.h>

#include "../plan/patch.h"
#include "ops.h"

static int64_t elems_of(const te_graph *g, const int *ids, int n, int skip_const)
{
    int64_t sum = 0;
    int i;
    for (i = 0; i < n; i++)
        if (ids[i] >= 0 && !(skip_const && g->tensors[ids[i]].data))
            sum += te_tensor_elems(&g->tensors[ids[i]]);
    return sum;
}

/* The features every op has; its own come from its def. */
static void common_cost(const te_graph *g, const te_op *op, const te_tensor *out,
                        te_cost_features *f)
{
    f->f[TE_CF_MACS] = 0;
    f->f[TE_CF_OUT] = (double)elems_of(g, op->out, op->n_out, 0);
    f->f[TE_CF_IN] = (double)elems_of(g, op->in, op->n_in, 1);
    f->f[TE_CF_ROWS] = (double)te_cost_rows_of(out);
    f->f[TE_CF_CALL] = 1;
}

/* te_lower_op; with `same` (the op's record in an earlier candidate, for
 * ops with lower_once) its decisions are taken from there. */
static void lower_op(const te_graph *g, const te_op *op, const te_lower_opts *o,
                     const te_lowering *same, te_lowering *l)
{
    const te_op_def *def = te_op_find(op->opcode);
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    const te_storage *st = out ? o->st : NULL;
    int k;
    memset(l, 0, sizeof *l);
    l->kernel = TE_K_UNKNOWN;
    l->inplace_input = -1;
    for (k = 0; st && te_storage_inplace(st, out->id) && k < op->n_in; k++)
        if (op->in[k] >= 0 && op->in[k] == te_storage_alias_of(st, out->id)) {
            l->inplace_input = k;
            break;
        }
    l->slice = st && te_storage_slice(st, out->id);
    l->slice_pitch = st ? te_storage_slice_pitch(st, out->id) : 0;
    if (!def)
        return;
    l->macs = def->macs ? def->macs(g, op) : 0;
    common_cost(g, op, out, &l->cost);
    l->cost.f[TE_CF_MACS] = (double)l->macs;
    if (def->cost_features) /* window, taps, copied inputs, ... */
        def->cost_features(g, op, &l->cost);
    if (same && def->lower_once) { /* decided by the graph alone */
        l->kernel = same->kernel;
        l->variant = same->variant;
        l->scratch_bytes = same->scratch_bytes;
        l->work_area = same->work_area;
        return;
    }
    if (def->kernel.set)
        l->kernel = def->kernel.id;
    if (def->variant)
        l->kernel = def->variant(g, op);
    if (def->lower) /* kernel choice, scratch, ... */
        def->lower(g, op, o, l);
}

/* Code: a fixed part (invoke function, common helpers), a part per live
 * operator (its call and params record) and each kernel family's code
 * once (the depthwise DSP kernels once per filter size, stride and
 * multiplier kind, as without the flash trades every call shares them);
 * tables: the requantization entries per output channel beyond the bias
 * (counted in the constants): 12 bytes for CONV_2D (te_conv2d_dsp_s8's
 * {m, H, e}), 8 for DEPTHWISE_CONV_2D (the ring kernels' packed entries)
 * and the other weighted ops; the 256-byte table of an op te_lut_s8 runs
 * (LEAKY_RELU, RELU, LOGISTIC, ...: tflm_retinaface_466a481 has 41, 10 KB).  Figures fitted to the shared models without
 * any flash-for-speed trade (arm-gcc 12 -O2, Cortex-M4) as an upper bound
 * of every one (0.3-26 KB above). */
#define TE_FLASH_CODE_FIXED 2048
#define TE_FLASH_CODE_PER_OP 128
#define TE_FLASH_CODE_FAMILY 1024       /* any other kernel family */
#define TE_FLASH_CODE_CONV 8192         /* te_conv2d_dsp_s8 and its helpers */
#define TE_FLASH_CODE_FC 2048
#define TE_FLASH_CODE_LSTM 20480
#define TE_FLASH_CODE_SVDF 4096
#define TE_FLASH_CODE_DW_MULT 8192      /* more for a multiplier > 1 one */
#define TE_FLASH_TABLE_CONV 12
#define TE_FLASH_TABLE_OTHER 8
#define TE_FLASH_TABLE_LUT 256
#define TE_FLASH_MAX_OPCODE 256
#define TE_FLASH_MAX_DW_VARIANTS 32

/* The code of the family of opcode (a depthwise variant counts apart). */
static int64_t family_code(int opcode)
{
    switch (opcode) {
    case TE_OP_CONV_2D: return TE_FLASH_CODE_CONV;
    case TE_OP_FULLY_CONNECTED: return TE_FLASH_CODE_FC;
    case TE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return TE_FLASH_CODE_LSTM;
    case TE_OP_SVDF: return TE_FLASH_CODE_SVDF;
    case TE_OP_DEPTHWISE_CONV_2D: return 0;
    default: return TE_FLASH_CODE_FAMILY;
    }
}

/* Whether op runs te_lut_s8 (a 256-byte table of its own). */
static int runs_lut(const te_graph *g, const te_op *op)
{
    const te_op_def *def = te_op_lookup(op->opcode);
    if (!def)
        return 0;
    if (def->variant)
        return def->variant(g, op) == TE_K_LUT_S8;
    return def->kernel.set && def->kernel.id == TE_K_LUT_S8;
}

int te_flash_dw_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const int mult = w->rank == 4 && in->rank == 4 && w->shape[3] != in->shape[3];
    const int dilated = op->opt.dilation_h > 1 || op->opt.dilation_w > 1;
    return w->rank == 4
               ? (((w->shape[1] * 16 + w->shape[2]) * 16 + op->opt.stride_h) * 2 + dilated) * 2 + mult
               : -1;
}

/* The code of a depthwise op's kernel variant when first seen in
 * seen[0..*n). */
static int64_t dw_variant_code(const te_graph *g, const te_op *op, int *seen, int *n)
{
    const int key = te_flash_dw_variant(g, op), mult = key >= 0 && (key & 1);
    int i;
    for (i = 0; i < *n; i++)
        if (seen[i] == key)
            return 0;
    if (*n < TE_FLASH_MAX_DW_VARIANTS)
        seen[(*n)++] = key;
    return TE_FLASH_CODE_DW + (mult ? TE_FLASH_CODE_DW_MULT : 0);
}

int64_t te_flash_code_estimate(const te_graph *g)
{
    int64_t code = TE_FLASH_CODE_FIXED;
    unsigned char family[TE_FLASH_MAX_OPCODE] = {0};
    int dw_seen[TE_FLASH_MAX_DW_VARIANTS], n_dw = 0;
    int i;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        const te_tensor *w = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
        if (op->dead)
            continue;
        code += TE_FLASH_CODE_PER_OP;
        if (op->opcode >= 0 && op->opcode < TE_FLASH_MAX_OPCODE && !family[op->opcode]) {
            family[op->opcode] = 1;
            code += family_code(op->opcode);
        }
        if (op->opcode == TE_OP_DEPTHWISE_CONV_2D && op->in[0] >= 0 && w)
            code += dw_variant_code(g, op, dw_seen, &n_dw);
        if (runs_lut(g, op))
            code += TE_FLASH_TABLE_LUT;
        if (w && w->data && w->rank >= 2)
            code += (int64_t)(op->opcode == TE_OP_CONV_2D ? TE_FLASH_TABLE_CONV
                                                           : TE_FLASH_TABLE_OTHER) *
                    (w->shape[0] > 1 ? w->shape[0] : w->shape[w->rank - 1]);
    }
    return code;
}

int64_t te_flash_base_estimate(const te_graph *g)
{
    int64_t consts = 0;
    int i;
    for (i = 0; i < g->n_tensors; i++)
        if (g->tensors[i].data)
            consts += (int64_t)te_tensor_bytes(&g->tensors[i]);
    return consts + te_flash_code_estimate(g);
}

void te_lower_op(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l)
{
    lower_op(g, op, o, NULL, l);
}

te_lowered *te_lower_graph(const te_graph *g, const te_lower_opts *o, const te_lowered *prev,
                           te_diag *d)
{
    te_lowered *l = calloc(1, sizeof *l);
    int n_clones = g->patch ? g->patch->n_clones : 0, i;
    if (l)
        l->ops = calloc((size_t)(g->n_ops + n_clones) + 1, sizeof *l->ops);
    if (!l || !l->ops) {
        free(l);
        te_fail(d, "out of memory lowering the operators");
        return NULL;
    }
    l->opts = *o;
    l->n_ops = g->n_ops;
    l->n_clones = n_clones;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        if (op->dead) {
            l->ops[i].kernel = TE_K_UNKNOWN;
            l->ops[i].inplace_input = -1;
        } else {
            lower_op(g, op, o, prev && prev->n_ops == g->n_ops ? &prev->ops[i] : NULL,
                     &l->ops[i]);
        }
    }
    for (i = 0; i < n_clones; i++)
        te_lower_op(g, &g->patch->clones[i], o, &l->ops[g->n_ops + i]);
    return l;
}

void te_lowered_free(te_lowered *l)
{
    if (!l)
        return;
    free(l->ops);
    free(l);
}

const te_lowering *te_lowered_find(const te_lowered *l, const te_graph *g, const te_op *op)
{
    if (!l || !op)
        return NULL;
    if (op >= g->ops && op < g->ops + g->n_ops && op - g->ops < l->n_ops)
        return &l->ops[op - g->ops];
    if (g->patch && op >= g->patch->clones && op < g->patch->clones + g->patch->n_clones &&
        op - g->patch->clones < l->n_clones)
        return &l->ops[l->n_ops + (op - g->patch->clones)];
    return NULL;
}

te_storage *te_lowered_without_bands(const te_lowered *low, const te_graph *g,
                                     const te_storage *st)
{
    te_storage *s = NULL;
    int i;
    for (i = 0; low && st && i < g->n_ops; i++) {
        const te_lowering *l = g->ops[i].dead ? NULL : te_lowered_find(low, g, &g->ops[i]);
        if (!l || !l->inplace_band || !te_storage_inplace(st, g->ops[i].out[0]))
            continue;
        if (!s && !(s = te_storage_copy(st)))
            return NULL;
        te_storage_unlink(s, g->ops[i].out[0]);
    }
    return s;
}
