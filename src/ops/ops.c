/* ops.c - the operator table (gathered from the op files, see below): maps
 * a builtin opcode to its definition, and the shared checks every
 * definition uses. */
#include "ops.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* Every te_op_def of the op files (src/ops), gathered at build time by
 * cmake/gather_ops.cmake into te_op_list.h (one TE_OP(name) line each):
 * an op file defines its te_op_def and nothing else lists it. */
#define TE_OP(name) extern const te_op_def name;
#include "te_op_list.h"
#undef TE_OP

static const te_op_def *const op_table[] = {
#define TE_OP(name) &name,
#include "te_op_list.h"
#undef TE_OP
};

static const te_op_def *search_table(int opcode)
{
    size_t i;
    for (i = 0; i < sizeof op_table / sizeof op_table[0]; i++)
        if (op_table[i]->opcode == opcode)
            return op_table[i];
    return NULL;
}

/* Builtin codes below this are remembered, per thread, once looked up (the
 * patch search looks up every clone's operator many times). */
#define LOOKUP_MEMO_CODES 256
#if defined(__GNUC__)
#define LOOKUP_MEMO_STORAGE static __thread
#else
#define LOOKUP_MEMO_STORAGE static /* compilers without thread-local storage: one thread */
#endif

const te_op_def *te_op_lookup(int opcode)
{
    LOOKUP_MEMO_STORAGE const te_op_def *memo[LOOKUP_MEMO_CODES];
    LOOKUP_MEMO_STORAGE unsigned char known[LOOKUP_MEMO_CODES];
    if (opcode < 0 || opcode >= LOOKUP_MEMO_CODES)
        return search_table(opcode);
    if (!known[opcode]) {
        memo[opcode] = search_table(opcode);
        known[opcode] = 1;
    }
    return memo[opcode];
}

int te_op_count(void) { return (int)(sizeof op_table / sizeof op_table[0]); }

const te_op_def *te_op_at(int i) { return i >= 0 && i < te_op_count() ? op_table[i] : NULL; }

const te_op_def *te_op_find(int opcode)
{
    const te_op_def *def = te_op_lookup(opcode);
    return def && def->emit ? def : NULL;
}

const te_op_def *te_op_box_taker(void)
{
    int i;
    for (i = 0; i < te_op_count(); i++)
        if (te_op_at(i)->takes_box)
            return te_op_at(i);
    return NULL;
}

int te_op_inputs_const(const te_graph *g, const te_op *op)
{
    int i;
    for (i = 0; i < op->n_in; i++)
        if (op->in[i] >= 0 && !g->tensors[op->in[i]].data)
            return 0;
    return 1;
}

int te_op_fail(te_diag *d, const te_op *op, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return te_fail(d, "%s (op %d): %s", te_opcode_name(op->opcode), te_op_model_index(op), msg);
}

int te_check_io_count(te_diag *d, const te_op *op, int min_in, int max_in, int n_out)
{
    if (op->n_in < min_in || op->n_in > max_in) {
        if (min_in == max_in)
            return te_op_fail(d, op, "has %d inputs, expected %d", op->n_in, min_in);
        return te_op_fail(d, op, "has %d inputs, expected %d to %d", op->n_in, min_in, max_in);
    }
    if (op->n_out != n_out)
        return te_op_fail(d, op, "has %d outputs, expected %d", op->n_out, n_out);
    return 0;
}

int te_check_type(te_diag *d, const te_op *op, const te_tensor *t, const char *which, te_dtype type)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (t->type != type)
        return te_op_fail(d, op, "%s (tensor %d '%s') has type %s, expected %s", which, t->id,
                          t->name, te_dtype_name(t->type), te_dtype_name(type));
    return 0;
}

int te_check_quant(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (t->q.count < 1)
        return te_op_fail(d, op, "%s (tensor %d '%s') has no quantization parameters", which,
                          t->id, t->name);
    if (!(t->q.scale[0] > 0.0f) || !isfinite(t->q.scale[0]))
        return te_op_fail(d, op, "%s (tensor %d '%s') has invalid scale %g", which, t->id,
                          t->name, (double)t->q.scale[0]);
    if (t->type == TE_DT_INT8 && (t->q.zero_point[0] < -128 || t->q.zero_point[0] > 127))
        return te_op_fail(d, op, "%s (tensor %d '%s') has zero point %lld outside int8", which,
                          t->id, t->name, (long long)t->q.zero_point[0]);
    return 0;
}

int te_check_const(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (!t)
        return te_op_fail(d, op, "%s is missing", which);
    if (!t->data)
        return te_op_fail(d, op, "%s (tensor %d '%s') must be a constant", which, t->id, t->name);
    if (t->data_bytes != te_tensor_bytes(t))
        return te_op_fail(d, op, "%s (tensor %d '%s') has %zu bytes of data, its shape needs %zu",
                          which, t->id, t->name, t->data_bytes, te_tensor_bytes(t));
    return 0;
}

int te_inplace_same_size_input0(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    if (!in || !out || in->type != out->type || te_tensor_bytes(in) != te_tensor_bytes(out))
        return -1;
    return 0;
}

int te_inplace_same_shape_input(const te_graph *g, const te_op *op)
{
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    int k, r;
    for (k = 0; out && k < op->n_in && k < 2; k++) {
        const te_tensor *in = op->in[k] >= 0 ? &g->tensors[op->in[k]] : NULL;
        int same = in && in->type == out->type && te_tensor_elems(in) == te_tensor_elems(out);
        for (r = 0; same && r < out->rank && r < in->rank; r++)
            same = in->shape[in->rank - 1 - r] == out->shape[out->rank - 1 - r];
        if (same)
            return k;
    }
    return -1;
}

int te_slice_output_always(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return 1;
}

te_patch_kind te_patch_pointwise(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_PATCH_POINTWISE;
}

int te_patch_consts_per_channel(const te_graph *g, const te_op *op)
{
    int k;
    for (k = 0; k < op->n_in; k++) {
        const te_tensor *c = op->in[k] >= 0 ? &g->tensors[op->in[k]] : NULL;
        if (c && c->data && c->rank > 0 && te_tensor_elems(c) != c->shape[c->rank - 1])
            return 0;
    }
    return 1;
}

te_patch_kind te_patch_pointwise_bcast(const te_graph *g, const te_op *op)
{
    return te_patch_consts_per_channel(g, op) ? TE_PATCH_POINTWISE : TE_PATCH_NONE;
}

te_patch_kind te_patch_window(const te_graph *g, const te_op *op)
{
    (void)g;
    (void)op;
    return TE_PATCH_WINDOW;
}

int64_t te_cost_rows_of(const te_tensor *t)
{
    int64_t last;
    if (!t || t->rank == 0)
        return 1;
    last = t->shape[t->rank - 1];
    return last > 0 ? te_tensor_elems(t) / last : 0;
}
