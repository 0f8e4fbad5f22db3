/* op_while.c - WHILE, after src/frontend/inline_while.c made it three
 * operators around its inlined cond and body (te_options.loop_phase):
 * ENTER copies the inputs into the outputs (the loop variables; the
 * generated code's `for (;;) {` follows it), TEST leaves the loop when the
 * cond subgraph's bool output is false, NEXT copies the body's outputs
 * (inputs 0..n-1) into the loop variables (inputs n..2n-1), as TFLite Micro
 * copies them after each body run; the block closes after it.  When a
 * source shares storage with a loop variable an earlier copy writes (a
 * body output that is another loop variable, or a view of one), the
 * sources go through scratch first. */
#include <string.h>

#include "ops.h"

/* Type and bytes of a copy's source and destination agree. */
static int check_pair(te_diag *d, const te_op *op, const te_tensor *src, const te_tensor *dst,
                      int j)
{
    if (src && dst && src->type == dst->type && te_tensor_bytes(src) == te_tensor_bytes(dst) &&
        te_dtype_size(dst->type) != 0)
        return 0;
    return te_op_fail(d, op, "loop variable %d and its new value differ in type or size", j);
}

static int while_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *c;
    int j, n;
    switch (op->opt.loop_phase) {
    case TE_LOOP_ENTER:
        if (op->n_in != op->n_out)
            return te_op_fail(d, op, "%d inputs but %d outputs", op->n_in, op->n_out);
        for (j = 0; j < op->n_in; j++)
            if (check_pair(d, op, te_in(g, op, j), te_out(g, op, j), j) < 0)
                return -1;
        return 0;
    case TE_LOOP_TEST:
        c = te_in(g, op, 0);
        if (op->n_in != 1 || op->n_out != 0 || !c || c->type != TE_DT_BOOL ||
            te_tensor_elems(c) != 1)
            return te_op_fail(d, op, "the cond subgraph's output must be a bool tensor with one "
                              "element");
        return 0;
    case TE_LOOP_NEXT:
        n = op->n_in / 2;
        if (op->n_in != 2 * n || op->n_out != 0)
            return te_op_fail(d, op, "the body's outputs do not match the loop variables");
        for (j = 0; j < n; j++)
            if (check_pair(d, op, te_in(g, op, j), te_in(g, op, n + j), j) < 0)
                return -1;
        return 0;
    default:
        return te_op_fail(d, op, "was not inlined (its cond and body are not in the graph)");
    }
}

/* Storage root of t and its offset there: the candidate's, or the graph's
 * views when it has none. */
static int root_of(const te_graph *g, const te_storage *st, int t, size_t *off)
{
    int guard = 0;
    if (st)
        return te_storage_root(st, t, off);
    *off = 0;
    while (g->tensors[t].alias_of >= 0 && guard++ < g->n_tensors) {
        *off += g->tensors[t].alias_offset;
        t = g->tensors[t].alias_of;
    }
    return t;
}

/* NEXT's copy j is needed: its source is not the loop variable's bytes. */
static int copy_needed(const te_graph *g, const te_storage *st, const te_op *op, int j)
{
    int n = op->n_in / 2;
    size_t a, b;
    return g->tensors[op->in[j]].data || root_of(g, st, op->in[j], &a) !=
                                             root_of(g, st, op->in[n + j], &b) || a != b;
}

/* 1 when, copying in order j = 0..n-1, a copy reads the storage of a loop
 * variable an earlier copy wrote (a body output that is another loop
 * variable, or a view of one), or overlaps its own destination. */
static int next_hazard(const te_graph *g, const te_storage *st, const te_op *op)
{
    int n = op->n_in / 2, j, k;
    size_t off, dst_off;
    for (j = 0; j < n; j++) {
        int dst;
        if (!copy_needed(g, st, op, j))
            continue;
        dst = root_of(g, st, op->in[n + j], &dst_off);
        for (k = j; k < n; k++)
            if (copy_needed(g, st, op, k) && !g->tensors[op->in[k]].data &&
                root_of(g, st, op->in[k], &off) == dst)
                return 1;
    }
    return 0;
}

/* The scratch NEXT needs: every needed copy's bytes when there is a hazard. */
static void while_lower(const te_graph *g, const te_op *op, const te_lower_opts *o,
                        te_lowering *l)
{
    int n = op->n_in / 2, j;
    size_t bytes = 0;
    if (op->opt.loop_phase != TE_LOOP_NEXT || !next_hazard(g, o->st, op))
        return;
    for (j = 0; j < n; j++)
        if (copy_needed(g, o->st, op, j))
            bytes += te_tensor_bytes(&g->tensors[op->in[j]]);
    l->scratch_bytes = bytes;
}

static void copy_bytes(te_emit *e, const char *dst, const char *src, size_t n)
{
    te_emit_kernel(e, TE_K_COPY_BYTES);
    te_buf_printf(&e->body, "    te_copy_bytes(%s, %s, %zu);\n", dst, src, n);
}

static void emit_next(te_emit *e, const te_op *op)
{
    const te_storage *st = te_emit_storage(e);
    int n = op->n_in / 2, j, staged = e->low && e->low->scratch_bytes > 0;
    size_t at = 0;
    te_name scratch = {""};
    if (staged) {
        scratch = te_emit_scratch(e, "uint8_t");
        for (j = 0; j < n; j++)
            if (copy_needed(e->g, st, op, j)) {
                size_t b = te_tensor_bytes(&e->g->tensors[op->in[j]]);
                copy_bytes(e, te_expr("%s + %zu", scratch.s, at).s,
                           te_emit_tensor(e, op->in[j]).s, b);
                at += b;
            }
    }
    for (j = 0, at = 0; j < n; j++) {
        size_t b = te_tensor_bytes(&e->g->tensors[op->in[j]]);
        if (!copy_needed(e->g, st, op, j) || b == 0)
            continue;
        copy_bytes(e, te_emit_tensor(e, op->in[n + j]).s,
                   staged ? te_expr("%s + %zu", scratch.s, at).s : te_emit_tensor(e, op->in[j]).s,
                   b);
        at += b;
    }
}

static int while_emit(te_emit *e, const te_op *op)
{
    int j;
    switch (op->opt.loop_phase) {
    case TE_LOOP_ENTER:
        for (j = 0; j < op->n_in; j++)
            if (te_tensor_bytes(te_out(e->g, op, j)) > 0)
                copy_bytes(e, te_emit_tensor(e, op->out[j]).s, te_emit_tensor(e, op->in[j]).s,
                           te_tensor_bytes(te_out(e->g, op, j)));
        return 0;
    case TE_LOOP_TEST:
        te_buf_printf(&e->body, "    if (!*(const uint8_t *)%s)\n        break;\n",
                      te_emit_tensor(e, op->in[0]).s);
        return 0;
    default:
        emit_next(e, op);
        return 0;
    }
}

const te_op_def te_op_while = {
    .opcode = TE_OP_WHILE,
    .check = while_check,
    .emit = while_emit,
    .lower = while_lower,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_BYTES),
};
