/* resource_vars.c - resource variables (VAR_HANDLE, READ_VARIABLE,
 * ASSIGN_VARIABLE) and CALL_ONCE, resolved at compile time.
 *
 * TFLite Micro gives each (container, shared_name) pair one persistent
 * buffer, sized by the first ASSIGN_VARIABLE it prepares (subgraph 0 first,
 * then the others in index order) and filled with that value tensor's zero
 * point cast to a byte; CALL_ONCE runs its init subgraph on the first
 * invoke, which assigns the initial values.  Here each resource that
 * subgraph 0 reads or assigns becomes one variable tensor of the state
 * region (is_resource), READ_VARIABLE / ASSIGN_VARIABLE take it as input 0
 * (a copy out of it, a copy into it), and VAR_HANDLE and CALL_ONCE die.
 * The init subgraph is evaluated here: after constant folding each of its
 * ASSIGN_VARIABLEs must assign a constant, which becomes the resource's
 * state_init (NAME_reset writes it; the state starts so).  Anything else
 * in an init subgraph is refused with one line naming it. */
#include "resource_vars.h"

#include <stdlib.h>
#include <string.h>

#include "../passes/passes.h"

/* The resource whose handle is input 0 of op (a VAR_HANDLE output of the
 * same subgraph), or -1 with d set. */
static int resource_of(const te_graph *g, const te_op *op, int sub, te_diag *d)
{
    const te_tensor *t = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    if (t && t->producer >= 0 && g->ops[t->producer].opcode == TE_OP_VAR_HANDLE)
        return g->ops[t->producer].opt.resource;
    if (!t)
        return te_fail(d, "%s (op %d%s): input 0 (the resource handle) is missing",
                       te_opcode_name(op->opcode), op->index, sub ? " of an init subgraph" : "");
    return te_fail(d, "%s (op %d%s): input 0 (tensor %d '%s') is not made by a VAR_HANDLE of "
                   "the same subgraph (resource handles passed between subgraphs are "
                   "unsupported)", te_opcode_name(op->opcode), op->index,
                   sub ? " of an init subgraph" : "", t->id, t->name);
}

static int is_access(const te_op *op)
{
    return !op->dead &&
           (op->opcode == TE_OP_READ_VARIABLE || op->opcode == TE_OP_ASSIGN_VARIABLE);
}

/* Where a resource's size, type and quantization come from. */
typedef struct {
    const te_graph *g;  /* NULL: never assigned */
    int t;
} sizing_ref;

/* sizing[r]: the value tensor of the first ASSIGN_VARIABLE of resource r
 * in TFLite Micro's prepare order (subgraph 0, then the others). */
static int find_sizing(te_graph *g, sizing_ref *sizing, te_diag *d)
{
    int s, i;
    for (s = 0; s <= g->n_subgraphs; s++) {
        te_graph *sg = s == 0 ? g : s < g->n_subgraphs ? g->subgraphs[s] : NULL;
        for (i = 0; sg && i < sg->n_ops; i++) {
            const te_op *op = &sg->ops[i];
            int r;
            if (op->opcode != TE_OP_ASSIGN_VARIABLE)
                continue;
            if ((r = resource_of(sg, op, s, d)) < 0)
                return -1;
            if (op->n_in < 2 || op->in[1] < 0 || op->n_out != 0)
                return te_fail(d, "invalid model: ASSIGN_VARIABLE (op %d%s) needs 2 inputs and "
                               "no output", op->index, s ? " of an init subgraph" : "");
            if (!sizing[r].g) {
                sizing[r].g = sg;
                sizing[r].t = op->in[1];
            }
        }
    }
    return 0;
}

static int copy_quant(te_quant *dst, const te_quant *src)
{
    *dst = *src;
    dst->scale = NULL;
    dst->zero_point = NULL;
    if (src->count <= 0)
        return 0;
    dst->scale = malloc(sizeof *dst->scale * (size_t)src->count);
    dst->zero_point = malloc(sizeof *dst->zero_point * (size_t)src->count);
    if (!dst->scale || !dst->zero_point)
        return -1;
    memcpy(dst->scale, src->scale, sizeof *dst->scale * (size_t)src->count);
    memcpy(dst->zero_point, src->zero_point, sizeof *dst->zero_point * (size_t)src->count);
    return 0;
}

/* Adds the state tensor of resource r (shaped like its sizing tensor);
 * returns its id or -1. */
static int add_state_tensor(te_graph *g, const te_tensor *like, const char *name, te_diag *d)
{
    te_tensor *grown = realloc(g->tensors, sizeof *grown * (size_t)(g->n_tensors + 1)), *t;
    size_t n = strlen(name) + 1;
    if (!grown)
        return te_fail(d, "out of memory");
    g->tensors = grown;
    t = &g->tensors[g->n_tensors];
    memset(t, 0, sizeof *t);
    t->id = g->n_tensors;
    t->type = like->type;
    t->rank = like->rank;
    memcpy(t->shape, like->shape, sizeof t->shape);
    t->is_variable = 1;
    t->is_resource = 1;
    t->producer = -1;
    t->alias_of = -1;
    t->name = malloc(n);
    g->n_tensors++;
    if (!t->name || copy_quant(&t->q, &like->q) < 0)
        return te_fail(d, "out of memory");
    memcpy(t->name, name, n);
    return t->id;
}

/* Runs CALL_ONCE op's init subgraph at compile time: state_init of the
 * resources it assigns. */
static int run_init(te_graph *g, const te_op *call, const int *state, te_diag *d)
{
    te_graph *sub = g->subgraphs[call->opt.subgraph[0]];
    int i, r, s = call->opt.subgraph[0];
    if (te_pass_fold_const(sub, d) < 0)
        return -1;
    for (i = 0; i < sub->n_ops; i++) {
        const te_op *op = &sub->ops[i];
        const te_tensor *v;
        if (op->dead || op->opcode == TE_OP_VAR_HANDLE)
            continue;
        if (op->opcode != TE_OP_ASSIGN_VARIABLE)
            return te_fail(d, "CALL_ONCE (op %d): its init subgraph %d runs %s (op %d), which "
                           "is not known at compile time: only init subgraphs that assign "
                           "constant values are supported", call->index, s,
                           te_opcode_name(op->opcode), op->index);
        r = resource_of(sub, op, s, d);
        if (r < 0)
            return -1;
        v = &sub->tensors[op->in[1]];
        if (!v->data)
            return te_fail(d, "CALL_ONCE (op %d): its init subgraph %d assigns tensor %d '%s' "
                           "(ASSIGN_VARIABLE, op %d), computed at run time: only constant "
                           "initial values are supported", call->index, s, v->id, v->name,
                           op->index);
        if (state[r] < 0)
            continue; /* a resource subgraph 0 never touches */
        if (te_tensor_bytes(v) != te_tensor_bytes(&g->tensors[state[r]]))
            return te_fail(d, "CALL_ONCE (op %d): its init subgraph %d assigns %lu bytes "
                           "(tensor %d '%s', ASSIGN_VARIABLE op %d) to resource variable '%s' "
                           "of %lu bytes (TFLite Micro requires the same size)", call->index,
                           s, (unsigned long)te_tensor_bytes(v), v->id, v->name, op->index,
                           g->tensors[state[r]].name,
                           (unsigned long)te_tensor_bytes(&g->tensors[state[r]]));
        g->tensors[state[r]].state_init = v->data;
    }
    return 0;
}

/* CALL_ONCE ops must run before subgraph 0 touches a variable (as the
 * converter writes them: first), so their values are the starting state. */
static int run_inits(te_graph *g, const int *state, te_diag *d)
{
    int i, first_access = -1;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        if (is_access(op) && first_access < 0)
            first_access = i;
        if (op->opcode != TE_OP_CALL_ONCE || op->dead)
            continue;
        if (op->n_in || op->n_out)
            return te_fail(d, "invalid model: CALL_ONCE (op %d) has inputs or outputs",
                           op->index);
        if (first_access >= 0)
            return te_fail(d, "CALL_ONCE (op %d) runs after %s (op %d): unsupported (its init "
                           "subgraph must run before the model reads or assigns a variable)",
                           op->index, te_opcode_name(g->ops[first_access].opcode),
                           g->ops[first_access].index);
        if (run_init(g, op, state, d) < 0)
            return -1;
    }
    return 0;
}

/* A state tensor per resource subgraph 0 reads or assigns (state[r], -1
 * when none). */
static int make_states(te_graph *g, const sizing_ref *sizing, char **names, int *state,
                       te_diag *d)
{
    int i, r;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        te_tensor like;
        if (!is_access(op))
            continue;
        if ((r = resource_of(g, op, 0, d)) < 0)
            return -1;
        if (state[r] >= 0)
            continue;
        if (!sizing[r].g)
            return te_fail(d, "%s (op %d): resource variable '%s' is never assigned (TFLite "
                           "Micro gives it no buffer)", te_opcode_name(op->opcode), op->index,
                           names[r]);
        like = sizing[r].g->tensors[sizing[r].t]; /* a copy: g->tensors grows below */
        if (te_dtype_size(like.type) == 0)
            return te_fail(d, "%s (op %d): resource variable '%s' has type %s, unsupported",
                           te_opcode_name(op->opcode), op->index, names[r],
                           te_dtype_name(like.type));
        if ((state[r] = add_state_tensor(g, &like, names[r][0] ? names[r] : "resource", d)) < 0)
            return -1;
    }
    return 0;
}

/* READ/ASSIGN take the state tensor as input 0; VAR_HANDLE and CALL_ONCE die. */
static void rewrite(te_graph *g, const int *state)
{
    int i;
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        if (is_access(op)) {
            te_tensor *h = &g->tensors[op->in[0]];
            op->in[0] = state[g->ops[h->producer].opt.resource];
            g->keep_order = 1;
        }
    }
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        if (op->opcode == TE_OP_CALL_ONCE || op->opcode == TE_OP_VAR_HANDLE)
            op->dead = 1;
    }
}

int te_lower_resource_vars(te_graph *g, char **names, int n, te_diag *d)
{
    sizing_ref *sizing;
    int *state, i, rc = -1;
    for (i = 0; i < g->n_ops && !g->n_subgraphs && !n; i++)
        if (is_access(&g->ops[i]) || g->ops[i].opcode == TE_OP_CALL_ONCE)
            break;
    if (!g->n_subgraphs && !n && i == g->n_ops)
        return 0; /* no variables, no init subgraph: nothing to do */
    sizing = calloc((size_t)n + 1, sizeof *sizing);
    state = malloc(sizeof *state * ((size_t)n + 1));
    if (!sizing || !state) {
        te_fail(d, "out of memory");
        goto out;
    }
    for (i = 0; i < n; i++)
        state[i] = -1;
    if (find_sizing(g, sizing, d) < 0 || make_states(g, sizing, names, state, d) < 0 ||
        run_inits(g, state, d) < 0)
        goto out;
    rewrite(g, state);
    rc = 0;
out:
    free(sizing);
    free(state);
    return rc;
}
