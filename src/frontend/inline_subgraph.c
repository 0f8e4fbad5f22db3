/* inline_subgraph.c - copies the operators and tensors of a subgraph that
 * IF or WHILE calls into subgraph 0 (inline_if.c, inline_while.c): each
 * copied tensor gets its own id and name ("<prefix>/<name>"), each copied
 * operator its own index (after the model's), and the walk rebuilds the
 * operator list with the copies where the calling operator stood. */
#include "inline_subgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail_oom(te_diag *d)
{
    return te_fail(d, "out of memory inlining subgraphs");
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

int te_inline_push(te_inliner *in, const te_op *op)
{
    if (in->n_ops == in->cap_ops) {
        int cap = in->cap_ops ? 2 * in->cap_ops : 16;
        te_op *grown = realloc(in->ops, sizeof *grown * (size_t)cap);
        if (!grown)
            return fail_oom(in->d);
        in->ops = grown;
        in->cap_ops = cap;
    }
    in->ops[in->n_ops++] = *op;
    return 0;
}

int te_inline_copy_tensor(te_inliner *in, const te_tensor *t, const char *prefix)
{
    te_graph *g = in->g;
    te_tensor *grown = realloc(g->tensors, sizeof *grown * (size_t)(g->n_tensors + 1)), *c;
    size_t n = strlen(prefix) + strlen(t->name) + 2;
    if (!grown)
        return fail_oom(in->d);
    g->tensors = grown;
    c = &g->tensors[g->n_tensors];
    *c = *t;
    c->id = g->n_tensors++;
    c->producer = -1;
    c->alias_of = -1;
    c->name = malloc(n);
    c->q.scale = NULL;
    c->q.zero_point = NULL;
    if (t->q.count > 0) {
        c->q.scale = malloc(sizeof *c->q.scale * (size_t)t->q.count);
        c->q.zero_point = malloc(sizeof *c->q.zero_point * (size_t)t->q.count);
    }
    if (!c->name || (t->q.count > 0 && (!c->q.scale || !c->q.zero_point)))
        return fail_oom(in->d);
    snprintf(c->name, n, "%s/%s", prefix, t->name);
    if (t->q.count > 0) {
        memcpy(c->q.scale, t->q.scale, sizeof *c->q.scale * (size_t)t->q.count);
        memcpy(c->q.zero_point, t->q.zero_point, sizeof *c->q.zero_point * (size_t)t->q.count);
    }
    return c->id;
}

static int is_control_flow(int opcode)
{
    return opcode == TE_OP_IF || opcode == TE_OP_WHILE || opcode == TE_OP_CALL_ONCE;
}

int te_inline_copy_ops(te_inliner *in, const te_op *op, int s, int *map, const char *prefix,
                       const te_op *flags, const char *inside)
{
    const te_graph *b = in->g->subgraphs[s];
    int i, k;
    for (i = 0; i < b->n_ops; i++) {
        const te_op *bo = &b->ops[i];
        te_op c = *bo;
        if (is_control_flow(bo->opcode))
            return te_fail(in->d, "%s (op %d): its subgraph %d runs %s (op %d): control flow "
                           "inside %s is unsupported", te_opcode_name(op->opcode), op->index,
                           s, te_opcode_name(bo->opcode), bo->index, inside);
        c.in = malloc(sizeof *c.in * ((size_t)bo->n_in + 1));
        c.out = malloc(sizeof *c.out * ((size_t)bo->n_out + 1));
        c.custom_name = bo->custom_name ? dup_str(bo->custom_name) : NULL;
        c.index = in->next_index++;
        c.guard = flags->guard;
        c.guard_false = flags->guard_false;
        c.loop = flags->loop;
        if (te_inline_push(in, &c) < 0) {
            free(c.in);
            free(c.out);
            free(c.custom_name);
            return -1;
        }
        if (!c.in || !c.out || (bo->custom_name && !c.custom_name))
            return fail_oom(in->d);
        for (k = 0; k < bo->n_in + bo->n_out; k++) { /* c shares the pushed arrays */
            int t = k < bo->n_in ? bo->in[k] : bo->out[k - bo->n_in];
            if (t >= 0 && map[t] < 0 &&
                (map[t] = te_inline_copy_tensor(in, &b->tensors[t], prefix)) < 0)
                return -1;
            if (k < bo->n_in)
                c.in[k] = t >= 0 ? map[t] : -1;
            else
                c.out[k - bo->n_in] = map[t];
        }
    }
    return 0;
}

/* Producers are positions in g->ops again. */
static void renumber(te_graph *g)
{
    int i, j;
    for (i = 0; i < g->n_tensors; i++)
        if (!g->tensors[i].data)
            g->tensors[i].producer = -1;
    for (i = 0; i < g->n_ops; i++)
        for (j = 0; j < g->ops[i].n_out; j++)
            if (g->ops[i].out[j] >= 0)
                g->tensors[g->ops[i].out[j]].producer = i;
}

int te_inline_walk(te_graph *g, int opcode, int (*inline_one)(te_inliner *in, te_op *op),
                   te_diag *d)
{
    te_inliner in;
    int i, rc = 0;
    for (i = 0; i < g->n_ops && g->ops[i].opcode != opcode; i++)
        ;
    if (i == g->n_ops)
        return 0;
    memset(&in, 0, sizeof in);
    in.g = g;
    in.d = d;
    in.next_index = g->n_ops;
    for (i = 0; i < g->n_ops && !rc; i++)
        rc = g->ops[i].opcode == opcode ? inline_one(&in, &g->ops[i])
                                        : te_inline_push(&in, &g->ops[i]);
    if (rc) { /* the copies own their arrays; the originals stay in g */
        int k;
        for (k = 0; k < in.n_ops; k++)
            if (in.ops[k].index >= g->n_ops) {
                free(in.ops[k].in);
                free(in.ops[k].out);
                free(in.ops[k].custom_name);
            }
        free(in.ops);
        return -1;
    }
    free(g->ops);
    g->ops = in.ops;
    g->n_ops = in.n_ops;
    renumber(g);
    return 0;
}
