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

#include "inline_subgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail_oom(te_diag *d)
{
    return te_fail(d, "out of memory inlining IF branches");
}

/* Branch input k and IF input 1 + k agree in type and bytes (TFLite
 * Micro's checks in Eval). */
static int check_pair(te_inliner *in, const te_op *op, const char *which, const te_tensor *a,
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
static int inline_branch(te_inliner *in, const te_op *op, int s, int guard, int guard_false,
                         int *outs)
{
    const te_graph *b = in->g->subgraphs[s];
    int *map = malloc(sizeof *map * ((size_t)b->n_tensors + 1)), i, k, rc = -1;
    te_op flags;
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
    memset(&flags, 0, sizeof flags);
    flags.guard = guard;
    flags.guard_false = guard_false;
    if (te_inline_copy_ops(in, op, s, map, prefix, &flags, "an IF branch") < 0)
        goto out;
    for (k = 0; k < b->n_outputs; k++) {
        int t = b->outputs[k];
        if (map[t] < 0 && (map[t] = te_inline_copy_tensor(in, &b->tensors[t], prefix)) < 0)
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
static int inline_one(te_inliner *in, te_op *op)
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
    rc = te_inline_push(in, op);
out:
    free(outs);
    free(ins);
    return rc;
}

int te_inline_if(te_graph *g, te_diag *d)
{
    return te_inline_walk(g, TE_OP_IF, inline_one, d);
}
