/* pass_inplace.c - in-place execution: an operator whose kernel can write
 * its output over one of its inputs (te_op_def.inplace_input) does so when
 * that input dies at this operator, so the two never need separate memory.
 * The output is then linked to the input in the candidate's storage
 * (TE_STORE_INPLACE) and the planner gives both one buffer.  A link that
 * can cost more than it saves (te_op_def.inplace_on_trial) is made by
 * te_pass_inplace_trial only, for the compiler to plan both ways.  Inside
 * a patch stage the micro plan decides (te_patch_step.inplace_input): those
 * links are made as it says, whatever the candidate.  The graph is only
 * read. */
#include "../ops/ops.h"
#include "../plan/patch.h"
#include "passes.h"

static int root_of(const te_storage *s, int t) { return te_storage_root(s, t, NULL); }

/* 1 if storage `root` is read by a live op after op `at`, is a graph output
 * or is persistent state (then overwriting it at `at` would destroy a value
 * still needed). */
static int used_after(const te_graph *g, const te_storage *s, int root, int at)
{
    int i, j;
    if (g->tensors[root].is_variable)
        return 1;
    for (i = 0; i < g->n_outputs; i++)
        if (root_of(s, g->outputs[i]) == root)
            return 1;
    for (i = at + 1; i < g->n_ops; i++) {
        if (g->ops[i].dead)
            continue;
        for (j = 0; j < g->ops[i].n_in; j++)
            if (g->ops[i].in[j] >= 0 && !g->tensors[g->ops[i].in[j]].data &&
                root_of(s, g->ops[i].in[j]) == root)
                return 1;
    }
    return 0;
}

void te_pass_inplace_clones(const te_graph *g, te_storage *s)
{
    int i;
    for (i = 0; g->patch && i < g->patch->n_steps; i++) {
        const te_patch_step *st = &g->patch->steps[i];
        const te_op *c = st->kind == TE_PSTEP_OP ? &g->patch->clones[st->clone] : NULL;
        if (c && st->inplace_input >= 0)
            te_storage_link(s, c->out[0], TE_STORE_INPLACE, c->in[st->inplace_input], 0);
    }
}

static void link_inplace(const te_graph *g, te_storage *s, int trial)
{
    int i;
    te_pass_inplace_clones(g, s);
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        const te_tensor *in, *out;
        int k;
        if (op->dead || !def || !def->inplace_input || op->n_out < 1 || op->out[0] < 0 ||
            (def->inplace_on_trial && !trial))
            continue;
        k = def->inplace_input(g, op);
        if (k < 0 || k >= op->n_in || op->in[k] < 0)
            continue;
        in = &g->tensors[op->in[k]];
        out = &g->tensors[op->out[0]];
        if (in->patch_role || out->patch_role || (g->patch && te_patch_is_cut(g->patch, out->id)))
            continue;
        if (in->data || te_storage_alias_of(s, out->id) >= 0 ||
            te_graph_is_input(g, out->id) ||
            te_tensor_bytes(out) > te_tensor_bytes(in) || used_after(g, s, root_of(s, in->id), i))
            continue;
        te_storage_link(s, out->id, TE_STORE_INPLACE, in->id, 0);
    }
}

void te_pass_inplace(const te_graph *g, te_storage *s) { link_inplace(g, s, 0); }

void te_pass_inplace_trial(const te_graph *g, te_storage *s) { link_inplace(g, s, 1); }

void te_pass_inplace_untry(const te_graph *g, te_storage *s)
{
    int i;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        if (!op->dead && def && def->inplace_on_trial && op->n_out > 0 && op->out[0] >= 0 &&
            te_storage_inplace(s, op->out[0]))
            te_storage_unlink(s, op->out[0]);
    }
}

/* A copy of st without its in-place links, or NULL.  The links of a patch
 * stage's clones (region tensors: the micro plan placed them) stay. */
te_storage *te_inplace_without(const te_graph *g, const te_storage *st)
{
    te_storage *s = te_storage_copy(st);
    int t;
    for (t = 0; s && t < s->n_tensors; t++)
        if (te_storage_inplace(s, t) && g->tensors[t].patch_role != 2)
            te_storage_unlink(s, t);
    return s;
}

/* A copy of st without the in-place links of outputs smaller than the
 * input they overwrite (a strided pool or depthwise convolution), whose
 * merged buffer keeps the input's size for the output's whole life; NULL
 * when st has none or out of memory. */
te_storage *te_inplace_without_shrinking(const te_graph *g, const te_storage *st)
{
    te_storage *s = NULL;
    int t;
    for (t = 0; t < g->n_tensors; t++) {
        int to = te_storage_inplace(st, t) ? te_storage_alias_of(st, t) : -1;
        if (to < 0 || te_tensor_bytes(&g->tensors[t]) >= te_tensor_bytes(&g->tensors[to]) ||
            g->tensors[t].patch_role == 2)
            continue;
        if (!s && !(s = te_storage_copy(st)))
            return NULL;
        te_storage_unlink(s, t);
    }
    return s;
}
