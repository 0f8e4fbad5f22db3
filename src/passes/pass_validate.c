/* pass_validate.c - refuses, with one line naming the culprit, any graph
 * the code generator cannot compile exactly: unsupported operators, tensor
 * types an operator does not accept, bad graph inputs/outputs, rescale
 * factors no integer kernel can apply, and models whose multiply-accumulate
 * count is beyond any microcontroller (which also keeps every later MAC
 * sum, e.g. the patch search's, far from overflow). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"
#include "passes.h"
#include "quant/quant.h"

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
           t == TE_DT_FLOAT32 || t == TE_DT_BOOL || t == TE_DT_INT64;
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

/* 1 when |f| is 2^31 or more as TFLite's QuantizeMultiplier rounds it: a
 * left shift of more than 31 (within 0.5 below 2^31 the multiplier rounds
 * up to 2^31 and the shift to 32), which no kernel can apply. */
static int rescale_too_large(double f)
{
    int32_t m;
    int shift;
    te_quantize_multiplier(f, &m, &shift);
    return shift > 31 || fabs(f) >= TE_MAX_RESCALE;
}

/* Every factor an int8/int16 output is rescaled by is one QuantizeMultiplier
 * makes a shift of at most 31 of (below 2^31). */
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
        if (rescale_too_large(f))
            return te_op_fail(d, op, "input %d scale / output scale = %g is 2^31 or more: no "
                              "integer kernel can rescale by that", ai, f);
        return 0;
    }
    for (c = 0; quantized_int(w) && c < w->q.count; c++) {
        f = (double)a->q.scale[0] * (double)w->q.scale[c] / (double)out->q.scale[0];
        if (rescale_too_large(f))
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
        const te_op_def *def = op->dead ? NULL : te_op_find(op->opcode);
        int64_t macs = def && def->macs ? def->macs(g, op) : 0;
        if (macs < 0 || macs > TE_MAX_MODEL_MACS - total)
            return te_op_fail(d, op, "the model needs more than 2^40 multiply-accumulates (this "
                              "operator alone %lld): too large to compile", (long long)macs);
        total += macs;
    }
    return 0;
}

/* ------------------------------------------------ unsupported operators */

/* A bounded text buffer: appends until full, then drops the rest. */
typedef struct {
    char s[400];
    size_t n;
    int full;
} line_buf;

static void put(line_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(line_buf *b, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (b->full)
        return;
    va_start(ap, fmt);
    k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof b->s - b->n - 8) { /* room left for ", ..." */
        b->s[b->n] = '\0';
        b->full = 1;
        return;
    }
    b->n += (size_t)k;
}

/* Same operator kind: the builtin code and, for CUSTOM, the custom name. */
static int same_kind(const te_op *a, const te_op *b)
{
    if (a->opcode != b->opcode)
        return 0;
    if (!a->custom_name || !b->custom_name)
        return a->custom_name == b->custom_name;
    return strcmp(a->custom_name, b->custom_name) == 0;
}

/* "SHAPE", "CUSTOM 'ethos-u'", or "BUILTIN_<n>" for a code past the schema
 * table. */
static void put_kind(line_buf *b, const te_op *op)
{
    if (op->custom_name)
        put(b, "%s '%s'", te_opcode_name(op->opcode), op->custom_name);
    else if (op->opcode >= 0 && op->opcode < TE_BUILTIN_COUNT)
        put(b, "%s", te_opcode_name(op->opcode));
    else
        put(b, "BUILTIN_%d", op->opcode);
}

/* Custom operators that only an accelerator runs: the model given is the
 * accelerator compiler's output, not something a CPU can execute. */
static const struct {
    const char *custom_name;
    const char *hint;
} accelerator_ops[] = {
    {"ethos-u", "the model was compiled by Vela for an Arm Ethos-U NPU: compile the original "
                ".tflite (the one given to Vela) instead"},
    {"edgetpu-custom-op", "the model was compiled by edgetpu_compiler for a Coral Edge TPU: "
                          "compile the original .tflite (the one given to the Edge TPU "
                          "compiler) instead"},
};

static const char *accelerator_hint(const te_op *op)
{
    size_t k;
    for (k = 0; op->custom_name && k < sizeof accelerator_ops / sizeof accelerator_ops[0]; k++)
        if (strcmp(op->custom_name, accelerator_ops[k].custom_name) == 0)
            return accelerator_ops[k].hint;
    return NULL;
}

/* An operator left to run (not folded away) that no op file compiles. */
static int unsupported(const te_op *op)
{
    return !op->dead && !te_op_find(op->opcode);
}

/* Lists the operators in group order after `first` (an unsupported op not
 * listed yet): " (op 3)" or " (ops 3, 7, 9)"; marks them listed. */
static void put_group(line_buf *b, const te_graph *g, int first, char *listed)
{
    int j, n = 0;
    for (j = first; j < g->n_ops; j++)
        n += !listed[j] && unsupported(&g->ops[j]) && same_kind(&g->ops[first], &g->ops[j]);
    put(b, n == 1 ? " (op" : " (ops");
    for (j = first; j < g->n_ops; j++) {
        if (listed[j] || !unsupported(&g->ops[j]) || !same_kind(&g->ops[first], &g->ops[j]))
            continue;
        listed[j] = 1;
        put(b, "%s %d", j == first ? "" : ",", j);
    }
    put(b, ")");
}

/* Every operator no op file compiles, in one line, grouped by kind in order
 * of first appearance:
 *   unsupported operator SHAPE (op 33)
 *   unsupported operators: SHAPE (ops 33, 40), TILE (op 51)
 * with a hint when one is an accelerator's custom operator. */
static int check_supported(const te_graph *g, te_diag *d)
{
    line_buf b;
    char *listed;
    const char *hint = NULL;
    int i, n = 0, kinds = 0;
    for (i = 0; i < g->n_ops; i++)
        n += unsupported(&g->ops[i]);
    if (n == 0)
        return 0;
    listed = calloc((size_t)g->n_ops, 1);
    if (!listed)
        return te_fail(d, "out of memory listing %d unsupported operators", n);
    b.n = 0;
    b.full = 0;
    b.s[0] = '\0';
    for (i = 0; i < g->n_ops && !b.full; i++) {
        const te_op *op = &g->ops[i];
        if (listed[i] || !unsupported(op))
            continue;
        put(&b, kinds++ ? ", " : "");
        put_kind(&b, op);
        put_group(&b, g, i, listed);
        if (!hint)
            hint = accelerator_hint(op);
    }
    free(listed);
    return te_fail(d, "unsupported operator%s%s%s%s%s", n > 1 ? "s: " : " ", b.s,
                   b.full ? ", ..." : "", hint ? "; " : "", hint ? hint : "");
}

int te_pass_validate(te_graph *g, te_diag *d)
{
    int i;
    if (check_supported(g, d) < 0 || check_graph_io(g, d) < 0)
        return -1;
    for (i = 0; i < g->n_ops; i++) {
        te_op *op = &g->ops[i];
        const te_op_def *def = te_op_find(op->opcode);
        if (op->dead) /* folded to constants (pass_fold_const.c) */
            continue;
        if (check_outputs_not_const(g, op, d) < 0)
            return -1;
        if ((def->check && def->check(g, op, d) < 0) || check_rescale(g, op, d) < 0)
            return -1;
    }
    return check_macs(g, d);
}
