/* pass_concat.c - CONCATENATION without copies: each input whose producer
 * can write straight into its place in the concatenation's output becomes
 * a slice of that output in the candidate's storage (TE_STORE_SLICE, at
 * its byte offset there), and the concatenation then copies only the
 * inputs that are not.  The graph is only read.
 *
 * Two cases.  When every dimension before the axis is 1 (a [1, N] vector,
 * or an NHWC image joined along its height), each input is one contiguous
 * block of the output: any producer writes it there unchanged and any
 * other reader reads it there.  When the axis is the channels of an NHWC
 * image, an input is a strided channel slice (slice_pitch bytes from one
 * pixel to the next): its producer must say it can write that
 * (te_op_def.slice_output), and the concatenation must be its only reader.
 *
 * Whether this lowers the arena is the planner's call (compiler.c plans
 * with and without): the output then lives from its first producer on. */
#include "../ops/ops.h"
#include "../plan/patch.h"
#include "passes.h"

/* The op lays its inputs out along an axis (te_op_def.concatenates). */
static int concatenates(const te_op *op)
{
    const te_op_def *def = te_op_find(op->opcode);
    return def && def->concatenates;
}

/* The live operator writing tensor t, or NULL. */
static const te_op *producer_of(const te_graph *g, int t)
{
    int i, j;
    for (i = 0; i < g->n_ops; i++)
        for (j = 0; j < g->ops[i].n_out; j++)
            if (!g->ops[i].dead && g->ops[i].out[j] == t)
                return &g->ops[i];
    return NULL;
}

/* How many times live operators read tensor t. */
static int readers_of(const te_graph *g, int t)
{
    int i, j, n = 0;
    for (i = 0; i < g->n_ops; i++)
        for (j = 0; j < g->ops[i].n_in; j++)
            n += !g->ops[i].dead && g->ops[i].in[j] == t;
    return n;
}

/* Some tensor shares t's storage (a view, or a slice of it). */
static int has_views(const te_storage *s, int t)
{
    int i;
    for (i = 0; i < s->n_tensors; i++)
        if (te_storage_alias_of(s, i) == t)
            return 1;
    return 0;
}

/* Whether input tensor t of `cat` can be written in place at its slice:
 * contiguous (1) or as a strided channel slice (0). */
static int can_slice(const te_graph *g, const te_storage *s, const te_op *cat, int t,
                     int contiguous)
{
    const te_tensor *tt = &g->tensors[t];
    const te_op *prod = producer_of(g, t);
    const te_op_def *def = prod ? te_op_find(prod->opcode) : NULL;
    int i, uses = 0;
    for (i = 0; i < cat->n_in; i++)
        uses += cat->in[i] == t;
    if (tt->data || te_storage_alias_of(s, t) >= 0 || tt->patch_role || uses != 1 || !def ||
        (g->patch && te_patch_is_cut(g->patch, t)) || /* written patch by patch */
        prod->n_out != 1 || te_graph_is_input(g, t) ||
        te_graph_is_output(g, t))
        return 0;
    if (contiguous)
        return 1;
    return readers_of(g, t) == 1 && !has_views(s, t) && def->slice_output &&
           def->slice_output(g, prod);
}

static void slice_inputs(const te_graph *g, te_storage *s, const te_op *cat)
{
    const te_tensor *out = &g->tensors[cat->out[0]];
    const size_t esize = te_dtype_size(out->type);
    int64_t outer = 1, inner = (int64_t)esize, offset = 0;
    int i, k, axis = cat->opt.axis < 0 ? cat->opt.axis + out->rank : cat->opt.axis;
    int contiguous, channels;
    if (te_storage_alias_of(s, out->id) >= 0 || out->data || out->patch_role ||
        te_tensor_elems(out) == 0 || te_graph_is_input(g, out->id))
        return;
    for (k = 0; k < axis; k++)
        outer *= out->shape[k];
    for (k = axis + 1; k < out->rank; k++)
        inner *= out->shape[k];
    contiguous = outer == 1;
    channels = out->rank == 4 && axis == 3 && out->type == TE_DT_INT8;
    if (!contiguous && !channels)
        return;
    for (i = 0; i < cat->n_in; i++) {
        int t = cat->in[i];
        const te_tensor *in = &g->tensors[t];
        int64_t row = in->shape[axis] * inner;
        if (row > 0 && can_slice(g, s, cat, t, contiguous)) {
            te_storage_link(s, t, TE_STORE_SLICE, out->id, (size_t)offset);
            s->t[t].slice_pitch = contiguous ? 0 : (size_t)(out->shape[3] * (int64_t)esize);
        }
        offset += row;
    }
}

void te_pass_concat_slices(const te_graph *g, te_storage *s)
{
    int i;
    for (i = 0; i < g->n_ops; i++)
        if (!g->ops[i].dead && concatenates(&g->ops[i]) && g->ops[i].n_out == 1 &&
            g->ops[i].out[0] >= 0)
            slice_inputs(g, s, &g->ops[i]);
}
