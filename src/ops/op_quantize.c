/* op_quantize.c - QUANTIZE as TFLite Micro's reference kernel does it:
 * float32 -> int8/int16 (AffineQuantize, the output scale written into the
 * call as an exact hex float) and integer -> integer requantization with
 * QuantizeMultiplier(in_scale / out_scale) computed here.  A QUANTIZE of a
 * float32 constant (an init subgraph's initial value, a constant operand
 * the converter left in float) is folded with the kernel's own arithmetic
 * (te_quantize_affine). */
/* Only the per-element helpers are used here: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_quantize.h"
#include "unary.h"

/* The input -> output pairs TFLite Micro's QUANTIZE evaluates. */
static int supported_pair(te_dtype in, te_dtype out)
{
    static const te_dtype pairs[][2] = {
        {TE_DT_FLOAT32, TE_DT_INT8}, {TE_DT_FLOAT32, TE_DT_INT16}, {TE_DT_INT8, TE_DT_INT8},
        {TE_DT_INT8, TE_DT_UINT8},   {TE_DT_INT8, TE_DT_INT16},    {TE_DT_INT8, TE_DT_INT32},
        {TE_DT_UINT8, TE_DT_INT8},   {TE_DT_INT16, TE_DT_INT8},    {TE_DT_INT16, TE_DT_INT16},
        {TE_DT_INT16, TE_DT_INT32},  {TE_DT_INT32, TE_DT_INT8},    {TE_DT_INT32, TE_DT_INT16},
    };
    size_t i;
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i][0] == in && pairs[i][1] == out)
            return 1;
    return 0;
}

static int check_per_tensor(te_diag *d, const te_op *op, const te_tensor *t, const char *which)
{
    if (te_check_quant(d, op, t, which))
        return -1;
    if (t->q.count != 1)
        return te_op_fail(d, op, "%s (tensor %d '%s') is quantized per channel, only per-tensor "
                          "quantization is supported", which, t->id, t->name);
    if (t->q.zero_point[0] < INT32_MIN || t->q.zero_point[0] > INT32_MAX)
        return te_op_fail(d, op, "%s (tensor %d '%s') has an out-of-range zero point", which,
                          t->id, t->name);
    return 0;
}

static int quantize_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    if (te_check_io_count(d, op, 1, 1, 1))
        return -1;
    if (!in)
        return te_op_fail(d, op, "input 0 is missing");
    if (!out)
        return te_op_fail(d, op, "output 0 is missing");
    if (!supported_pair(in->type, out->type))
        return te_op_fail(d, op, "%s input (tensor %d '%s') to %s output (tensor %d '%s') is not "
                          "supported", te_dtype_name(in->type), in->id, in->name,
                          te_dtype_name(out->type), out->id, out->name);
    if (check_per_tensor(d, op, out, "output 0"))
        return -1;
    if (in->type != TE_DT_FLOAT32 && check_per_tensor(d, op, in, "input 0"))
        return -1;
    return te_check_unary_elems(d, op, in, out);
}

/* The kernel that quantizes in to out (te_quantize_<in>_<out>), or
 * TE_K_COUNT for a pair without one (check() refuses it). */
static te_kernel_id quantize_kernel(const te_tensor *in, const te_tensor *out)
{
    static const struct { te_dtype in, out; te_kernel_id k; } pairs[] = {
        {TE_DT_FLOAT32, TE_DT_INT8, TE_K_QUANTIZE_F32_S8},
        {TE_DT_FLOAT32, TE_DT_INT16, TE_K_QUANTIZE_F32_S16},
        {TE_DT_INT8, TE_DT_INT8, TE_K_QUANTIZE_S8_S8},
        {TE_DT_INT8, TE_DT_INT16, TE_K_QUANTIZE_S8_S16},
        {TE_DT_INT8, TE_DT_INT32, TE_K_QUANTIZE_S8_S32},
        {TE_DT_INT16, TE_DT_INT8, TE_K_QUANTIZE_S16_S8},
        {TE_DT_INT16, TE_DT_INT16, TE_K_QUANTIZE_S16_S16},
        {TE_DT_INT16, TE_DT_INT32, TE_K_QUANTIZE_S16_S32},
        {TE_DT_UINT8, TE_DT_INT8, TE_K_QUANTIZE_U8_S8},
        {TE_DT_INT8, TE_DT_UINT8, TE_K_QUANTIZE_S8_U8},
        {TE_DT_INT32, TE_DT_INT8, TE_K_QUANTIZE_S32_S8},
        {TE_DT_INT32, TE_DT_INT16, TE_K_QUANTIZE_S32_S16},
    };
    size_t i;
    for (i = 0; in && out && i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].in == in->type && pairs[i].out == out->type)
            return pairs[i].k;
    return TE_K_COUNT;
}

static int quantize_emit(te_emit *e, const te_op *op)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    long long n = (long long)te_tensor_elems(in), out_zp = (long long)out->q.zero_point[0];
    te_name src = te_emit_tensor(e, in->id), dst = te_emit_tensor(e, out->id);
    te_kernel_id k = quantize_kernel(in, out);
    if (n == 0)
        return 0;
    te_emit_kernel(e, in->type == TE_DT_FLOAT32 ? TE_K_QUANTIZE_F32_S8 : TE_K_QUANTIZE_S8_S8);
    if (k == TE_K_COUNT)
        return te_fail(e->diag, "internal: QUANTIZE %s -> %s has no kernel", te_dtype_name(in->type),
                       te_dtype_name(out->type));
    if (in->type == TE_DT_FLOAT32) {
        te_emit_kernel_call(e, k, src.s, dst.s, te_expr("%lld", n).s,
                            te_expr("%af", (double)out->q.scale[0]).s, te_expr("%lld", out_zp).s);
    } else {
        int32_t mult;
        int shift;
        te_quantize_multiplier((double)in->q.scale[0] / (double)out->q.scale[0], &mult, &shift);
        te_emit_kernel_call(e, k, src.s, dst.s, te_expr("%lld", n).s,
                            te_expr("%lld", (long long)in->q.zero_point[0]).s,
                            te_expr("%ld", (long)mult).s, te_expr("%d", shift).s,
                            te_expr("%lld", out_zp).s);
    }
    return 0;
}

/* Every kernel is one forward loop, out[i] from in[i]: in place when an
 * output element is no wider than an input one (int8 -> int8, a uint8 or
 * float32 input head -> int8, int16 -> int8, ...), as out[i] then only
 * covers bytes of elements up to i, all read before it is written.  A
 * narrower output leaves the rest of the input's buffer free once it is
 * all that is left of it (the planner's shrinking in-place links). */
static int quantize_inplace(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]], *out = &g->tensors[op->out[0]];
    return te_dtype_size(out->type) <= te_dtype_size(in->type) &&
                   te_tensor_elems(in) == te_tensor_elems(out)
               ? 0
               : -1;
}

/* The kernel emit() calls (TE_K_UNKNOWN for a pair check() refuses). */
static te_kernel_id quantize_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *in = op->n_in > 0 && op->in[0] >= 0 ? &g->tensors[op->in[0]] : NULL;
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    te_kernel_id k = quantize_kernel(in, out);
    return k == TE_K_COUNT ? TE_K_UNKNOWN : k;
}

/* On a patch: int8 requantization, or float32 / uint8 -> int8 at a model's
 * input (the converter's input heads). */
static te_patch_kind quantize_patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in((te_graph *)g, op, 0), *out = te_out((te_graph *)g, op, 0);
    return (in->type == TE_DT_INT8 || in->type == TE_DT_UINT8 || in->type == TE_DT_FLOAT32) &&
                   out->type == TE_DT_INT8
               ? TE_PATCH_POINTWISE
               : TE_PATCH_NONE;
}

/* A float32 constant quantized to int8 or int16 at compile time. */
static int quantize_fold(te_graph *g, const te_op *op, uint8_t *const *out)
{
    const te_tensor *in = te_in(g, op, 0), *o = te_out(g, op, 0);
    int64_t i, n = te_tensor_elems(in);
    int32_t zp, lo = o->type == TE_DT_INT16 ? -32768 : -128, hi = -lo - 1;
    float scale, x;
    if (!in->data || in->type != TE_DT_FLOAT32 ||
        (o->type != TE_DT_INT8 && o->type != TE_DT_INT16))
        return 0;
    scale = o->q.scale[0];
    zp = (int32_t)o->q.zero_point[0];
    for (i = 0; i < n; i++) { /* tensor data is little-endian, whatever the host */
        const uint8_t *p = in->data + 4 * i;
        uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                        (uint32_t)p[3] << 24;
        uint32_t v;
        memcpy(&x, &bits, 4);
        v = (uint32_t)te_clamp_i32(te_quantize_affine(x, scale, zp), lo, hi);
        if (o->type == TE_DT_INT8) {
            out[0][i] = (uint8_t)v;
        } else {
            out[0][2 * i] = (uint8_t)v;
            out[0][2 * i + 1] = (uint8_t)(v >> 8);
        }
    }
    return 1;
}

const te_op_def te_op_quantize = {
    .opcode = TE_OP_QUANTIZE,
    .int16x8 = 1,
    .check = quantize_check,
    .emit = quantize_emit,
    .inplace_input = quantize_inplace,
    .variant = quantize_variant,
    .patch_kind = quantize_patch_kind,
    .io_quantize = 1,
    .rescale = {1, 0, 1},
    .fold = quantize_fold,
};
