/* op_resource_variable.c - READ_VARIABLE and ASSIGN_VARIABLE on the state
 * tensor of a resource variable, and VAR_HANDLE / CALL_ONCE, which the
 * frontend resolves at compile time (src/frontend/resource_vars.c): the
 * handle becomes that state tensor (input 0 of READ / ASSIGN), the init
 * subgraph its starting value, and both operators die before validation.
 *
 * TFLite Micro copies bytes both ways (MicroResourceVariables::Read /
 * Assign) and only requires the byte sizes to agree, any type: so do we,
 * with te_copy_bytes; a READ whose value is used up before the variable
 * changes reads the state in place (read_variable_view). */
#include "movement.h"

static int check_state(te_diag *d, const te_op *op, const te_tensor *st)
{
    if (!st || !st->is_resource)
        return te_op_fail(d, op, "input 0 is not a resource variable handle (VAR_HANDLE)");
    return 0;
}

static int check_same_bytes(te_diag *d, const te_op *op, const te_tensor *st,
                            const te_tensor *v, const char *which)
{
    if (te_dtype_size(v->type) == 0)
        return te_op_fail(d, op, "%s (tensor %d '%s') has type %s, unsupported", which, v->id,
                          v->name, te_dtype_name(v->type));
    if (te_tensor_bytes(v) != te_tensor_bytes(st))
        return te_op_fail(d, op, "%s (tensor %d '%s') has %lu bytes, resource variable '%s' "
                          "%lu (TFLite Micro requires the same size)", which, v->id, v->name,
                          (unsigned long)te_tensor_bytes(v), st->name,
                          (unsigned long)te_tensor_bytes(st));
    return 0;
}

static int read_variable_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *st = te_in(g, op, 0);
    if (te_check_io_count(d, op, 1, 1, 1) || check_state(d, op, st))
        return -1;
    return check_same_bytes(d, op, st, te_out(g, op, 0), "output 0");
}

static int assign_variable_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *st = te_in(g, op, 0), *v = te_in(g, op, 1);
    if (op->n_in != 2 || op->n_out != 0 || !v)
        return te_op_fail(d, op, "needs 2 inputs (handle, value) and no output");
    if (check_state(d, op, st))
        return -1;
    return check_same_bytes(d, op, st, v, "input 1 (value)");
}

static int is_graph_output(const te_graph *g, int t)
{
    int i;
    for (i = 0; i < g->n_outputs; i++)
        if (g->outputs[i] == t)
            return 1;
    return 0;
}

/* READ_VARIABLE's output may be the state itself (no copy) when everything
 * reading it runs before the next ASSIGN_VARIABLE of that variable, reads
 * it as an operand (not as a view of its own, which would live on), and it
 * is not a graph output.  The schedule keeps the model's order
 * (te_graph.keep_order), so positions in g->ops are run order. */
static int read_variable_view(const te_graph *g, const te_op *op, int k, size_t *offset)
{
    int pos = (int)(op - g->ops), out = op->out[0], st = op->in[0], i, j, next = g->n_ops;
    if (k != 0 || pos < 0 || pos >= g->n_ops || is_graph_output(g, out))
        return -1;
    for (i = pos + 1; i < g->n_ops && next == g->n_ops; i++)
        if (!g->ops[i].dead && g->ops[i].opcode == TE_OP_ASSIGN_VARIABLE &&
            g->ops[i].in[0] == st)
            next = i;
    for (i = 0; i < g->n_ops; i++) {
        const te_op_def *def;
        if (g->ops[i].dead)
            continue;
        for (j = 0; j < g->ops[i].n_in; j++) {
            if (g->ops[i].in[j] != out)
                continue;
            def = te_op_find(g->ops[i].opcode);
            if (i <= pos || i >= next || !def || def->alias_output || def->view_input ||
                def->concatenates)
                return -1;
        }
    }
    *offset = 0;
    return 0;
}

/* The value into the state. */
static int assign_variable_emit(te_emit *e, const te_op *op)
{
    const te_tensor *st = te_in(e->g, op, 0), *v = te_in(e->g, op, 1);
    te_name src, dst;
    if (te_tensor_bytes(v) == 0)
        return 0;
    src = te_emit_tensor(e, v->id);
    dst = te_emit_tensor(e, st->id);
    te_emit_kernel(e, TE_K_COPY_BYTES);
    te_emit_call(e, "te_copy_bytes", dst.s, src.s, te_expr("%zu", te_tensor_bytes(v)).s);
    return 0;
}

/* Resolved by the frontend: never reaches validation live. */
static int resolved_check(te_graph *g, const te_op *op, te_diag *d)
{
    (void)g;
    return te_op_fail(d, op, "is resolved at load time and cannot appear here");
}

static int resolved_emit(te_emit *e, const te_op *op)
{
    (void)e;
    (void)op;
    return 0;
}

const te_op_def te_op_read_variable = {
    .opcode = TE_OP_READ_VARIABLE,
    .check = read_variable_check,
    .emit = te_move_emit_copy,
    .view_input = read_variable_view,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_BYTES),
};

const te_op_def te_op_assign_variable = {
    .opcode = TE_OP_ASSIGN_VARIABLE,
    .check = assign_variable_check,
    .emit = assign_variable_emit,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_BYTES),
};

const te_op_def te_op_var_handle = {
    .opcode = TE_OP_VAR_HANDLE,
    .check = resolved_check,
    .emit = resolved_emit,
};

const te_op_def te_op_call_once = {
    .opcode = TE_OP_CALL_ONCE,
    .check = resolved_check,
    .emit = resolved_emit,
};
