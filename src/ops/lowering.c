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
    l->kernel = "unknown";
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
    if (def->kernel)
        l->kernel = def->kernel;
    if (def->variant)
        l->kernel = def->variant(g, op);
    if (def->lower) /* kernel choice, scratch, ... */
        def->lower(g, op, o, l);
}

/* Code: a fixed part (invoke function, the common helpers) and a part per
 * live operator (its call, params record, its kernel when first used);
 * tables: the requantization entries per output channel of the
 * convolution family.  Figures measured on the shared models (arm-gcc
 * -O2, Cortex-M4), rounded up. */
#define TE_FLASH_CODE_FIXED 6144
#define TE_FLASH_CODE_PER_OP 640
#define TE_FLASH_TABLE_PER_CHANNEL 16

int64_t te_flash_code_estimate(const te_graph *g)
{
    int64_t code = TE_FLASH_CODE_FIXED;
    int i;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        const te_tensor *w = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
        if (op->dead)
            continue;
        code += TE_FLASH_CODE_PER_OP;
        if (w && w->data && w->rank >= 2)
            code += (int64_t)TE_FLASH_TABLE_PER_CHANNEL *
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
            l->ops[i].kernel = "unknown";
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
