/* pass_split_slices.c - an operator whose outputs are gathered boxes of one
 * input (te_op_def.box_input: a SPLIT / SPLIT_V along the channels of a
 * feature map, as in YOLO's C2f and CSP route groups) becomes one box op
 * (te_op_def.takes_box: SLICE) per output, on the same input, with
 * constant begin and size, each writing the original output tensor.  A
 * patch stage runs operators of one output only, and SLICE runs on patches
 * (TE_PATCH_REMAP); the SPLIT would end the stage.  Dead code elimination
 * then drops the slice of an output nobody reads.
 *
 * Each slice gets a new op index after every other (the schedule names ops
 * by index) and remembers the op it stands for (te_op.part_of, part):
 * layer dumps and messages name its output as that op's.  Only 4-D inputs
 * (the ones a patch stage runs), outside IF branches and WHILE loops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"
#include "passes.h"

#define BOX_RANK 4

/* The input whose boxes op's outputs are (begin: TE_MAX_RANK entries per
 * output), or -1 when op is not to become box ops. */
static int boxed_input(const te_graph *g, const te_op *op, int32_t *begin)
{
    const te_op_def *def = te_op_find(op->opcode);
    const te_tensor *in;
    int k, i = -1;
    if (op->dead || op->guard || op->loop || !def || !def->box_input || op->n_out < 1)
        return -1;
    for (k = 0; k < op->n_out; k++) {
        int j = def->box_input(g, op, k, &begin[k * TE_MAX_RANK]);
        if (j < 0 || (k > 0 && j != i) || j >= op->n_in || op->in[j] < 0 || op->out[k] < 0)
            return -1;
        i = j;
    }
    in = &g->tensors[op->in[i]];
    return in->rank == BOX_RANK && !in->data ? i : -1;
}

/* A new constant int32 vector of BOX_RANK entries named NAME.WHAT; its
 * tensor id, or -1 when out of memory. */
static int new_vector(te_graph *g, const char *name, const char *what, const int32_t *v)
{
    te_tensor *grown = realloc(g->tensors, sizeof *grown * ((size_t)g->n_tensors + 1)), *t;
    size_t n = strlen(name) + strlen(what) + 2;
    int32_t *data;
    if (!grown)
        return -1;
    g->tensors = grown;
    data = te_graph_adopt(g, malloc(sizeof *data * BOX_RANK));
    if (!data)
        return -1;
    memcpy(data, v, sizeof *data * BOX_RANK);
    t = &g->tensors[g->n_tensors];
    memset(t, 0, sizeof *t);
    t->name = malloc(n);
    if (!t->name)
        return -1;
    snprintf(t->name, n, "%s.%s", name, what);
    t->id = g->n_tensors++;
    t->type = TE_DT_INT32;
    t->rank = 1;
    t->shape[0] = BOX_RANK;
    t->data = (const uint8_t *)data;
    t->data_bytes = sizeof *data * BOX_RANK;
    t->compile_only = 1; /* the slice's kernel call holds its geometry */
    t->producer = -1;
    t->alias_of = -1;
    return t->id;
}

/* Into s, the box op (opcode box) writing output j of op from input
 * tensor `in` at begin, op index `index`.  0, or -1 when out of memory (s
 * holds what it owns). */
static int make_box(te_graph *g, const te_op *op, int box, int in, int j, const int32_t *begin,
                    int index, te_op *s)
{
    int32_t size[BOX_RANK];
    int k, b, z;
    char *name = g->tensors[op->out[j]].name;
    for (k = 0; k < BOX_RANK; k++)
        size[k] = g->tensors[op->out[j]].shape[k];
    memset(s, 0, sizeof *s);
    s->opcode = box;
    s->version = 1;
    s->index = index;
    s->part_of = op->index + 1;
    s->part = j;
    s->part_opcode = op->opcode;
    s->in = malloc(sizeof(int) * 3);
    s->out = malloc(sizeof(int));
    if (!s->in || !s->out)
        return -1;
    s->n_in = 3;
    s->n_out = 1;
    s->out[0] = op->out[j];
    b = new_vector(g, name, "begin", begin);
    z = b < 0 ? -1 : new_vector(g, name, "size", size);
    s->in[0] = in;
    s->in[1] = b;
    s->in[2] = z;
    return z < 0 ? -1 : 0;
}

/* The ops array with op at position i replaced by the n ops of s. */
static int replace_op(te_graph *g, int i, const te_op *s, int n)
{
    te_op *grown = realloc(g->ops, sizeof *grown * ((size_t)g->n_ops + (size_t)n));
    if (!grown)
        return -1;
    g->ops = grown;
    free(g->ops[i].in);
    free(g->ops[i].out);
    free(g->ops[i].custom_name);
    memmove(&g->ops[i + n], &g->ops[i + 1], sizeof *grown * (size_t)(g->n_ops - i - 1));
    memcpy(&g->ops[i], s, sizeof *s * (size_t)n);
    g->n_ops += n - 1;
    return 0;
}

/* The box ops (def) of op i, reading its input `in` at begin (per output),
 * the first with index *next; 1 replaced, 0 left (def's check refuses
 * one), -1 out of memory. */
static int split_op(te_graph *g, int i, int in, const int32_t *begin, const te_op_def *def,
                    int *next)
{
    int j, n = g->ops[i].n_out, rc = 0;
    te_op *s = calloc((size_t)n, sizeof *s);
    te_diag quiet = {{0}, 0};
    if (!s)
        return -1;
    for (j = 0; j < n && rc == 0; j++) {
        if (make_box(g, &g->ops[i], def->opcode, in, j, &begin[j * TE_MAX_RANK], *next + j,
                     &s[j]) < 0)
            rc = -1;
        else if (def->check && def->check(g, &s[j], &quiet) < 0)
            rc = 1; /* the constants made stay the graph's, unread */
    }
    if (rc == 0 && replace_op(g, i, s, n) == 0) {
        *next += n;
        free(s);
        return 1;
    }
    for (j = 0; j < n; j++) {
        free(s[j].in);
        free(s[j].out);
    }
    free(s);
    return rc < 0 ? -1 : 0;
}

int te_pass_split_slices(te_graph *g, te_diag *d)
{
    const te_op_def *def = te_op_box_taker();
    int i, j, next = 0, changed = 0;
    if (g->has_guards || !def)
        return 0;
    for (i = 0; i < g->n_ops; i++)
        if (g->ops[i].index >= next)
            next = g->ops[i].index + 1;
    for (i = 0; i < g->n_ops; i++) {
        const te_op_def *od = te_op_find(g->ops[i].opcode);
        int n = g->ops[i].n_out, in, r;
        int32_t *begin;
        if (!od || !od->box_input)
            continue;
        begin = calloc((size_t)(n > 0 ? n : 1), sizeof(int32_t) * TE_MAX_RANK);
        if (!begin)
            return te_fail(d, "out of memory");
        in = boxed_input(g, &g->ops[i], begin);
        r = in < 0 ? 0 : split_op(g, i, g->ops[i].in[in], begin, def, &next);
        free(begin);
        if (r < 0)
            return te_fail(d, "out of memory");
        if (r > 0) {
            changed = 1;
            i += n - 1;
        }
    }
    for (i = 0; changed && i < g->n_ops; i++) /* producers: positions again */
        for (j = 0; j < g->ops[i].n_out; j++)
            if (g->ops[i].out[j] >= 0)
                g->tensors[g->ops[i].out[j]].producer = i;
    return 0;
}
