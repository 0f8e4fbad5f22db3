/* inline_if.c - IF: both branch subgraphs inlined into subgraph 0 as
 * guarded operators.
 *
 * TFLite Micro's IF copies inputs 1..n into the chosen branch subgraph's
 * inputs, runs it, and copies its outputs into the IF's outputs (values in,
 * values out).  Here each branch's operators are copied in front of the IF
 * with their own tensors (new arena buffers, planned with everything
 * else), reading the IF's inputs where the branch reads its own inputs, and
 * guarded by the condition (te_op.guard: the generated code runs them in
 * `if (cond) { ... } else ...` blocks).  The IF op then only selects:
 * output j = cond ? then-output j : else-output j (op_if.c).  A constant
 * condition inlines the taken branch alone, unguarded, and the IF's outputs
 * become views of its outputs.  Nested control flow (IF, WHILE, CALL_ONCE in
 * a branch) is refused with one line. */
#include "inline_if.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    te_graph *g;
    te_op *ops;        /* the new operator list */
    int n_ops, cap_ops;
    int next_index;    /* op->index of the next inlined operator */
    te_diag *d;
} inliner;

static int fail_oom(te_diag *d)
{
    return te_fail(d, "out of memory inlining IF branches");
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static int push_op(inliner *in, const te_op *op)
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

/* A copy of branch tensor t in g, named "<prefix>/<name>"; its id or -1. */
static int copy_tensor(inliner *in, const te_tensor *t, const char *prefix)
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

/* Branch input k and IF input 1 + k agree in type and bytes (TFLite
 * Micro's checks in Eval). */
static int check_pair(inliner *in, const te_op *op, const char *which, const te_tensor *a,
                      const te_tensor *b)
{
    if (a->type == b->type && te_tensor_bytes(a) == te_tensor_bytes(b))
        return 0;
    return te_fail(in->d, "IF (op %d): %s (tensor '%s', %s, %lu bytes) does not match its branch "
                   "tensor '%s' (%s, %lu bytes)", op->index, which, a->name,
                   te_dtype_name(a->type), (unsigned long)te_tensor_bytes(a), b->name,
                   te_dtype_name(b->type), (unsigned long)te_tensor_bytes(b));
}

/* Copies branch subgraph `s` in front of IF op (guard: cond tensor + 1, or
 * 0), mapping its inputs to the IF's; outs[j]: the g tensor of branch
 * output j. */
static int inline_branch(inliner *in, const te_op *op, int s, int guard, int guard_false,
                         int *outs)
{
    const te_graph *b = in->g->subgraphs[s];
    int *map = malloc(sizeof *map * ((size_t)b->n_tensors + 1)), i, k, rc = -1;
    char prefix[48];
    if (!map)
        return fail_oom(in->d);
    snprintf(prefix, sizeof prefix, "if%d.%s", op->index, guard_false ? "else" : "then");
    for (i = 0; i < b->n_tensors; i++)
        map[i] = -1;
    if (b->n_inputs != op->n_in - 1 || b->n_outputs != op->n_out) {
        te_fail(in->d, "invalid model: IF (op %d): %d inputs and %d outputs, its subgraph %d has "
                "%d and %d (it must have the IF's minus the condition)", op->index, op->n_in,
                op->n_out, s, b->n_inputs, b->n_outputs);
        goto out;
    }
    for (k = 0; k < b->n_inputs; k++) {
        const te_tensor *x = op->in[k + 1] >= 0 ? &in->g->tensors[op->in[k + 1]] : NULL;
        if (!x) {
            te_fail(in->d, "invalid model: IF (op %d): input %d is missing", op->index, k + 1);
            goto out;
        }
        if (check_pair(in, op, "an input", x, &b->tensors[b->inputs[k]]) < 0)
            goto out;
        map[b->inputs[k]] = x->id;
    }
    for (i = 0; i < b->n_ops; i++) {
        const te_op *bo = &b->ops[i];
        te_op c = *bo;
        if (is_control_flow(bo->opcode)) {
            te_fail(in->d, "IF (op %d): its subgraph %d runs %s (op %d): control flow inside "
                    "an IF branch is unsupported", op->index, s, te_opcode_name(bo->opcode),
                    bo->index);
            goto out;
        }
        c.in = malloc(sizeof *c.in * ((size_t)bo->n_in + 1));
        c.out = malloc(sizeof *c.out * ((size_t)bo->n_out + 1));
        c.custom_name = bo->custom_name ? dup_str(bo->custom_name) : NULL;
        c.index = in->next_index++;
        c.guard = guard;
        c.guard_false = guard_false;
        if (push_op(in, &c) < 0) {
            free(c.in);
            free(c.out);
            free(c.custom_name);
            goto out;
        }
        if (!c.in || !c.out || (bo->custom_name && !c.custom_name)) {
            fail_oom(in->d);
            goto out;
        }
        for (k = 0; k < bo->n_in + bo->n_out; k++) { /* c shares the pushed arrays */
            int t = k < bo->n_in ? bo->in[k] : bo->out[k - bo->n_in];
            if (t >= 0 && map[t] < 0 && (map[t] = copy_tensor(in, &b->tensors[t], prefix)) < 0)
                goto out;
            if (k < bo->n_in)
                c.in[k] = t >= 0 ? map[t] : -1;
            else
                c.out[k - bo->n_in] = map[t];
        }
    }
    for (k = 0; k < b->n_outputs; k++) {
        int t = b->outputs[k];
        if (map[t] < 0 && (map[t] = copy_tensor(in, &b->tensors[t], prefix)) < 0)
            goto out; /* a constant output, or one nothing writes */
        if (check_pair(in, op, "an output", &in->g->tensors[op->out[k]], &in->g->tensors[map[t]]))
            goto out;
        outs[k] = map[t];
    }
    rc = 0;
out:
    free(map);
    return rc;
}

/* Inlines IF op's branches and rewrites it into the selection. */
static int inline_one(inliner *in, te_op *op)
{
    te_graph *g = in->g;
    const te_tensor *cond = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    int *outs, *ins, j, rc = -1, n = op->n_out;
    if (!cond || cond->type != TE_DT_BOOL || te_tensor_elems(cond) != 1)
        return te_fail(in->d, "IF (op %d): input 0 (the condition) must be a bool tensor with "
                       "one element", op->index);
    outs = malloc(sizeof *outs * (2 * (size_t)n + 1));
    ins = malloc(sizeof *ins * (2 * (size_t)n + 2));
    if (!outs || !ins) {
        fail_oom(in->d);
        goto out;
    }
    if (cond->data) { /* known now: the taken branch alone */
        int s = op->opt.subgraph[cond->data[0] ? 0 : 1];
        if (inline_branch(in, op, s, 0, 0, outs) < 0)
            goto out;
        op->opt.branches = 1;
    } else {
        if (inline_branch(in, op, op->opt.subgraph[0], op->in[0] + 1, 0, outs) < 0 ||
            inline_branch(in, op, op->opt.subgraph[1], op->in[0] + 1, 1, outs + n) < 0)
            goto out;
        op->opt.branches = 2;
        g->has_guards = 1;
    }
    ins[0] = op->in[0];
    for (j = 0; j < op->opt.branches * n; j++)
        ins[1 + j] = outs[j];
    free(op->in);
    op->in = ins;
    ins = NULL;
    op->n_in = 1 + op->opt.branches * n;
    g->keep_order = 1;
    rc = 0;
out:
    free(outs);
    free(ins);
    return rc;
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

int te_inline_if(te_graph *g, te_diag *d)
{
    inliner in;
    int i, rc = 0;
    for (i = 0; i < g->n_ops && g->ops[i].opcode != TE_OP_IF; i++)
        ;
    if (i == g->n_ops)
        return 0;
    memset(&in, 0, sizeof in);
    in.g = g;
    in.d = d;
    in.next_index = g->n_ops;
    for (i = 0; i < g->n_ops && !rc; i++) {
        if (g->ops[i].opcode == TE_OP_IF && inline_one(&in, &g->ops[i]) < 0)
            rc = -1;
        if (!rc)
            rc = push_op(&in, &g->ops[i]);
    }
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
