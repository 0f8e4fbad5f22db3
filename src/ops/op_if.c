/* op_if.c - IF, after src/frontend/inline_if.c put its branches' operators
 * in front of it (guarded by the condition): what is left is the choice of
 * outputs, output j = cond ? then-output j : else-output j (input 1 + j,
 * input 1 + n + j), as TFLite Micro copies the active branch's outputs
 * into the IF's.  With a constant condition only the taken branch was
 * inlined (opt.branches = 1): its outputs are views or byte copies. */
#include <string.h>

#include "movement.h"

static int if_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *cond = te_in(g, op, 0);
    int n = op->n_out, k = op->opt.branches, j;
    if ((k != 1 && k != 2) || op->n_in != 1 + k * n)
        return te_op_fail(d, op, "was not inlined (its branches are not in the graph)");
    if (!cond || cond->type != TE_DT_BOOL || te_tensor_elems(cond) != 1)
        return te_op_fail(d, op, "input 0 (the condition) must be a bool tensor with one "
                          "element");
    for (j = 0; j < k * n; j++) {
        const te_tensor *b = te_in(g, op, 1 + j), *o = te_out(g, op, j % n);
        if (!b || !o || b->type != o->type || te_tensor_bytes(b) != te_tensor_bytes(o) ||
            te_dtype_size(o->type) == 0)
            return te_op_fail(d, op, "output %d and its branch tensor differ in type or size",
                              j % n);
    }
    return 0;
}

/* A constant condition: output k is the taken branch's output k. */
static int if_view(const te_graph *g, const te_op *op, int k, size_t *offset)
{
    (void)g;
    *offset = 0;
    return op->opt.branches == 1 ? 1 + k : -1;
}

/* Output out_j = input in_i, at `indent` spaces. */
static void copy_into(te_emit *e, const te_op *op, int out_j, int in_i, int indent)
{
    const te_tensor *b = te_in(e->g, op, in_i), *o = te_out(e->g, op, out_j);
    te_name src = te_emit_tensor(e, b->id), dst = te_emit_tensor(e, o->id);
    if (te_tensor_bytes(o) == 0 || strcmp(src.s, dst.s) == 0)
        return;
    te_emit_kernel(e, TE_K_COPY_BYTES);
    te_buf_printf(&e->body, "%*ste_copy_bytes(%s, %s, %zu);\n", indent, "", dst.s, src.s,
                  te_tensor_bytes(o));
}

static int if_emit(te_emit *e, const te_op *op)
{
    int n = op->n_out, j;
    if (op->opt.branches == 1) {
        for (j = 0; j < n; j++)
            if (!te_move_is_view(e->g, op, 1 + j, j))
                copy_into(e, op, j, 1 + j, 4);
        return 0;
    }
    te_buf_printf(&e->body, "    if (*(const uint8_t *)%s) {\n",
                  te_emit_tensor(e, op->in[0]).s);
    for (j = 0; j < n; j++)
        copy_into(e, op, j, 1 + j, 8);
    te_buf_printf(&e->body, "    } else {\n");
    for (j = 0; j < n; j++)
        copy_into(e, op, j, 1 + n + j, 8);
    te_buf_printf(&e->body, "    }\n");
    return 0;
}

const te_op_def te_op_if = {
    .opcode = TE_OP_IF,
    .check = if_check,
    .emit = if_emit,
    .view_input = if_view,
    .kernel = TE_ONE_KERNEL(TE_K_COPY_BYTES),
};
