/* inline_while.c - WHILE: its cond and body subgraphs inlined into
 * subgraph 0 as one loop region.
 *
 * TFLite Micro's WHILE copies its inputs into its outputs (the loop
 * variables), runs the cond subgraph on them, and while cond's output 0 is
 * true copies them into the body's inputs, runs the body and copies the
 * body's outputs back into its outputs (values in, values out; the outputs
 * keep the last values).  Here the WHILE becomes three operators around
 * copies of the two subgraphs (op_while.c):
 *
 *   ENTER (outputs = inputs)
 *   for (;;) { <cond ops>  TEST (break unless cond)  <body ops>  NEXT (outputs = body outputs) }
 *
 * cond and body read the WHILE's outputs where they read their inputs;
 * every operator from TEST's cond to NEXT has te_op.loop set (the emitter's
 * `for (;;)` block).  NEXT reads the loop variables too, so the planner
 * keeps them alive through the whole loop, and every tensor made inside
 * lives within one iteration: the usual lifetimes are the loop's.  Control
 * flow inside cond or body, and loop variables whose type or size the
 * subgraphs change (dynamic shapes), are refused with one line. */
#include "inline_while.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inline_subgraph.h"

static int fail_oom(te_diag *d)
{
    return te_fail(d, "out of memory inlining a WHILE loop");
}

/* Loop variable j of WHILE op as seen by `where` (tensor t) agrees in
 * type and bytes with the WHILE's input j. */
static int check_var(te_inliner *in, const te_op *op, int j, const char *where,
                     const te_tensor *t)
{
    const te_tensor *x = &in->g->tensors[op->in[j]];
    if (t->type == x->type && te_tensor_bytes(t) == te_tensor_bytes(x))
        return 0;
    return te_fail(in->d, "WHILE (op %d): loop variable %d is %s, %lu bytes (tensor '%s') but "
                   "%s tensor '%s' is %s, %lu bytes: loop variables that change type or shape "
                   "(dynamic shapes) are unsupported", op->index, j, te_dtype_name(x->type),
                   (unsigned long)te_tensor_bytes(x), x->name, where, t->name,
                   te_dtype_name(t->type), (unsigned long)te_tensor_bytes(t));
}

/* Subgraph s's input/output counts fit the WHILE (TFLite Micro's Prepare). */
static int check_counts(te_inliner *in, const te_op *op)
{
    int n = op->n_in, j;
    const te_graph *c = in->g->subgraphs[op->opt.subgraph[0]];
    const te_graph *b = in->g->subgraphs[op->opt.subgraph[1]];
    if (n != op->n_out || c->n_inputs != n || b->n_inputs != n || b->n_outputs != n ||
        c->n_outputs < 1)
        return te_fail(in->d, "invalid model: WHILE (op %d): %d inputs and %d outputs; its cond "
                       "subgraph %d has %d inputs and %d outputs, its body subgraph %d %d and %d "
                       "(all inputs and outputs must be the loop variables, cond's output a bool)",
                       op->index, op->n_in, op->n_out, op->opt.subgraph[0], c->n_inputs,
                       c->n_outputs, op->opt.subgraph[1], b->n_inputs, b->n_outputs);
    for (j = 0; j < n; j++) {
        if (op->in[j] < 0 || op->out[j] < 0)
            return te_fail(in->d, "invalid model: WHILE (op %d): input or output %d is missing",
                           op->index, j);
        if (check_var(in, op, j, "the WHILE's output", &in->g->tensors[op->out[j]]) < 0 ||
            check_var(in, op, j, "the cond subgraph's input", &c->tensors[c->inputs[j]]) < 0 ||
            check_var(in, op, j, "the body subgraph's input", &b->tensors[b->inputs[j]]) < 0 ||
            check_var(in, op, j, "the body subgraph's output", &b->tensors[b->outputs[j]]) < 0)
            return -1;
    }
    return 0;
}

/* The g tensor subgraph output t stands for: mapped already (an input, a
 * result), or a copy of a constant; -1 with d set. */
static int output_of(te_inliner *in, const te_op *op, const te_graph *s, int *map, int t,
                     const char *prefix)
{
    if (map[t] >= 0)
        return map[t];
    if (s->tensors[t].data)
        return map[t] = te_inline_copy_tensor(in, &s->tensors[t], prefix);
    return te_fail(in->d, "invalid model: WHILE (op %d): subgraph output '%s' is neither an "
                   "input, a constant nor written by an operator", op->index, s->tensors[t].name);
}

/* Cond's operators, mapped onto the loop variables; *cond: its output 0. */
static int inline_cond(te_inliner *in, const te_op *op, const te_op *flags, int *cond)
{
    int s = op->opt.subgraph[0], j, rc = -1;
    const te_graph *c = in->g->subgraphs[s];
    int *map = malloc(sizeof *map * ((size_t)c->n_tensors + 1));
    char prefix[48];
    if (!map)
        return fail_oom(in->d);
    snprintf(prefix, sizeof prefix, "while%d.cond", op->index);
    for (j = 0; j < c->n_tensors; j++)
        map[j] = -1;
    for (j = 0; j < c->n_inputs; j++)
        map[c->inputs[j]] = op->out[j];
    if (te_inline_copy_ops(in, op, s, map, prefix, flags, "a WHILE loop") < 0 ||
        (*cond = output_of(in, op, c, map, c->outputs[0], prefix)) < 0)
        goto out;
    if (in->g->tensors[*cond].type != TE_DT_BOOL || te_tensor_elems(&in->g->tensors[*cond]) != 1) {
        te_fail(in->d, "WHILE (op %d): the cond subgraph's output 0 must be a bool tensor with "
                "one element", op->index);
        goto out;
    }
    rc = 0;
out:
    free(map);
    return rc;
}

/* Body's operators, mapped onto the loop variables; next[j]: what NEXT
 * copies into loop variable j. */
static int inline_body(te_inliner *in, const te_op *op, const te_op *flags, int *next)
{
    int s = op->opt.subgraph[1], j, rc = -1;
    const te_graph *b = in->g->subgraphs[s];
    int *map = malloc(sizeof *map * ((size_t)b->n_tensors + 1));
    char prefix[48];
    if (!map)
        return fail_oom(in->d);
    snprintf(prefix, sizeof prefix, "while%d.body", op->index);
    for (j = 0; j < b->n_tensors; j++)
        map[j] = -1;
    for (j = 0; j < b->n_inputs; j++)
        map[b->inputs[j]] = op->out[j];
    if (te_inline_copy_ops(in, op, s, map, prefix, flags, "a WHILE loop") < 0)
        goto out;
    for (j = 0; j < b->n_outputs; j++)
        if ((next[j] = output_of(in, op, b, map, b->outputs[j], prefix)) < 0)
            goto out;
    rc = 0;
out:
    free(map);
    return rc;
}

/* A loop operator of the WHILE (TEST or NEXT) reading `ins`. */
static int push_phase(te_inliner *in, const te_op *op, int phase, const int *ins, int n_in)
{
    te_op c = *op;
    c.in = malloc(sizeof *c.in * ((size_t)n_in + 1));
    c.out = malloc(sizeof *c.out);
    c.n_in = n_in;
    c.n_out = 0;
    c.custom_name = NULL;
    c.index = in->next_index++;
    c.opt.loop_phase = phase;
    c.loop = op->index + 1;
    if (!c.in || !c.out || te_inline_push(in, &c) < 0) {
        free(c.in);
        free(c.out);
        return c.in && c.out ? -1 : fail_oom(in->d);
    }
    memcpy(c.in, ins, sizeof *ins * (size_t)n_in);
    return 0;
}

static int inline_one(te_inliner *in, te_op *op)
{
    te_graph *g = in->g;
    int n = op->n_in, cond = -1, j, rc = -1, k;
    int *ins = malloc(sizeof *ins * (2 * (size_t)n + 1));
    te_op flags;
    if (!ins)
        return fail_oom(in->d);
    for (k = 0; k < 2; k++)
        if (op->opt.subgraph[k] < 1 || op->opt.subgraph[k] >= g->n_subgraphs ||
            !g->subgraphs[op->opt.subgraph[k]]) {
            te_fail(in->d, "invalid model: WHILE (op %d): calls subgraph %d, which the model "
                    "does not have", op->index, op->opt.subgraph[k]);
            goto out;
        }
    if (check_counts(in, op) < 0)
        goto out;
    memset(&flags, 0, sizeof flags);
    flags.loop = op->index + 1;
    op->opt.loop_phase = TE_LOOP_ENTER;
    if (te_inline_push(in, op) < 0 || inline_cond(in, op, &flags, &cond) < 0 ||
        push_phase(in, op, TE_LOOP_TEST, &cond, 1) < 0 || inline_body(in, op, &flags, ins) < 0)
        goto out;
    for (j = 0; j < n; j++)
        ins[n + j] = op->out[j];
    if (push_phase(in, op, TE_LOOP_NEXT, ins, 2 * n) < 0)
        goto out;
    g->keep_order = 1;
    g->has_guards = 1;
    rc = 0;
out:
    free(ins);
    return rc;
}

int te_inline_while(te_graph *g, te_diag *d)
{
    return te_inline_walk(g, TE_OP_WHILE, inline_one, d);
}
