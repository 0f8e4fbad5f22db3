/* pass_validate.c - refuses, with one line naming the culprit, any graph
 * the code generator cannot compile exactly: unsupported operators, tensor
 * types an operator does not accept, bad graph inputs/outputs, rescale
 * factors no integer kernel can apply, and models whose multiply-accumulate
 * count is beyond any microcontroller (which also keeps every later MAC
 * sum, e.g. the patch search's, far from overflow). */
#include "../ops/ops.h"
#include "passes.h"

/* 2^40 (about 1.1e12) MACs: ~1000x MobileNetV2 at 224x224. */
#define TE_MAX_MODEL_MACS ((int64_t)1 << 40)

/* Integer kernels rescale by multiplier x 2^shift, a left shift of the
 * 32-bit accumulator first when shift > 0 (TFLite's
 * MultiplyByQuantizedMultiplier): a factor of 2^31 or more needs a shift
 * of 32 bits or more, undefined in TFLite's kernels and in ours. */
#define TE_MAX_RESCALE 2147483648.0

static int io_type_ok(te_dtype t)
{
    return t == TE_DT_INT8 || t == TE_DT_UINT8 || t == TE_DT_INT16 || t == TE_DT_INT32 ||
           t == TE_DT_FLOAT32;
}

static int check_graph_io(te_graph *g, te_diag *d)
{
    int i;
    for (i = 0; i < g->n_inputs + g->n_outputs; i++) {
        int is_in = i < g->n_inputs;
        int t = is_in ? g->inputs[i] : g->outputs[i - g->n_inputs];
        const te_tensor *tt = &g->tensors[t];
        const char *what = is_in ? "input" : "output";
        int k = is_in ? i : i - g->n_inputs;
        if (tt->data && is_in)
            return te_fail(d, "graph input %d (tensor %d '%s') is a constant", k, t, tt->name);
        if (!io_type_ok(tt->type))
            return te_fail(d, "graph %s %d (tensor %d '%s') has unsupported type %s", what, k, t,
                           tt->name, te_dtype_name(tt->type));
    }
    if (g->n_outputs == 0)
        return te_fail(d, "the model has no outputs");
    return 0;
}

static int check_outputs_not_const(te_graph *g, const te_op *op, te_diag *d)
{
    int i;
    for (i = 0; i < op->n_out; i++) {
        const te_tensor *t = te_out(g, op, i);
        if (!t)
            return te_op_fail(d, op, "output %d is missing", i);
        if (t->data)
            return te_op_fail(d, op, "output %d (tensor %d '%s') is a constant buffer", i, t->id,
                              t->name);
    }
    return 0;
}

/* How an op rescales to its output (te_op_def.rescale): 2 = input *act x
 * input *other scale / output scale, 1 = input *act scale / output scale,
 * 0 = not at all. */
static int rescale_kind(const te_op *op, int *act, int *other)
{
    const te_op_def *def = te_op_find(op->opcode);
    *act = 0, *other = 1;
    if (!def || !def->rescale.kind)
        return 0;
    *act = def->rescale.act;
    *other = def->rescale.weight;
    return def->rescale.kind;
}

static int quantized_int(const te_tensor *t)
{
    return t && t->q.count >= 1 && (t->type == TE_DT_INT8 || t->type == TE_DT_INT16);
}

/* Every factor an int8/int16 output is rescaled by stays below 2^31. */
static int check_rescale(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *out = te_out(g, op, 0), *a, *w;
    int c, ai, wi, kind = rescale_kind(op, &ai, &wi);
    double f;
    a = te_in(g, op, ai);
    w = te_in(g, op, wi);
    if (!kind || !quantized_int(out) || !quantized_int(a))
        return 0;
    if (kind == 1) {
        f = (double)a->q.scale[0] / (double)out->q.scale[0];
        if (f >= TE_MAX_RESCALE)
            return te_op_fail(d, op, "input %d scale / output scale = %g is 2^31 or more: no "
                              "integer kernel can rescale by that", ai, f);
        return 0;
    }
    for (c = 0; quantized_int(w) && c < w->q.count; c++) {
        f = (double)a->q.scale[0] * (double)w->q.scale[c] / (double)out->q.scale[0];
        if (f >= TE_MAX_RESCALE)
            return te_op_fail(d, op, "input %d scale x input %d scale (channel %d) / output "
                              "scale = %g is 2^31 or more: no integer kernel can rescale by that",
                              ai, wi, c, f);
    }
    return 0;
}

/* Called after every op passed check(): shapes are consistent and each
 * tensor holds < 2^31 elements, so one op's count (a product of two such
 * bounds at most) fits in int64; the running sum is checked each step. */
static int check_macs(te_graph *g, te_diag *d)
{
    int64_t total = 0;
    int i;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        int64_t macs = def && def->macs ? def->macs(g, op) : 0;
        if (macs < 0 || macs > TE_MAX_MODEL_MACS - total)
            return te_op_fail(d, op, "the model needs more than 2^40 multiply-accumulates (this "
                              "operator alone %lld): too large to compile", (long long)macs);
        total += macs;
    }
    return 0;
}

int te_pass_validate(te_graph *g, te_diag *d)
{
    int i;
    if (check_graph_io(g, d) < 0)
        return -1;
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        if (!def) {
            if (op->custom_name)
                return te_fail(d, "unsupported operator CUSTOM '%s' (op %d)", op->custom_name, i);
            return te_fail(d, "unsupported operator %s (op %d)", te_opcode_name(op->opcode), i);
        }
        if (check_outputs_not_const(g, op, d) < 0)
            return -1;
        if ((def->check && def->check(g, op, d) < 0) || check_rescale(g, op, d) < 0)
            return -1;
    }
    return check_macs(g, d);
}
