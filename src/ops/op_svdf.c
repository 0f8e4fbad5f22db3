/* op_svdf.c - SVDF (TFLite builtin 27), int8 input and output, int8
 * weights_feature, int16 or int8 weights_time with an activation state of
 * the same type (a variable tensor the kernel updates in place), optional
 * int32 bias, rank >= 1, batches >= 1, onto te_svdf_s8_s16 / te_svdf_s8_s8.
 *
 * Prepare-time values follow TFLite Micro's PrepareSvdf (svdf_common.cc):
 * the two effective scales are multiplied and divided in float, then made
 * multipliers with QuantizeMultiplier; the bias scale must be within 1e-5
 * of state scale x weights_time scale.  TFLite Micro picks the kernel by
 * weights_time's type and reads the state with that type, so the two types
 * must agree.  Its integer kernel applies no fused activation.
 *
 * On DSP targets constant weights take te_svdf_s8_s8_dsp /
 * te_svdf_s8_s16_dsp (SXTB16 + SMLAD), the input and state zero points
 * folded into per-filter and per-unit biases. */
/* Only the kernel parameter struct is used here: declare kernels extern. */
#define TE_KERNEL extern

#include <math.h>
#include <stdlib.h>

#include "../ir/target.h"
#include "ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_svdf.h"

enum { SV_IN, SV_WF, SV_WT, SV_BIAS, SV_STATE };

static int check_types(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *wf,
                       const te_tensor *wt, const te_tensor *b, const te_tensor *st,
                       const te_tensor *out)
{
    if (te_check_type(d, op, in, "input 0", TE_DT_INT8) ||
        te_check_type(d, op, wf, "input 1 (weights_feature)", TE_DT_INT8) ||
        te_check_type(d, op, out, "output 0", TE_DT_INT8))
        return -1;
    if (!wt || (wt->type != TE_DT_INT16 && wt->type != TE_DT_INT8))
        return te_op_fail(d, op, "input 2 (weights_time) must be int16 or int8");
    if (!st || st->type != wt->type)
        return te_op_fail(d, op, "input 4 (activation state) must have weights_time's type");
    if (!st->is_variable)
        return te_op_fail(d, op, "input 4 (activation state, tensor %d '%s') must be a "
                          "variable tensor", st->id, st->name);
    if (b && te_check_type(d, op, b, "input 3 (bias)", TE_DT_INT32))
        return -1;
    if (te_check_quant(d, op, in, "input 0") || te_check_quant(d, op, wf, "input 1") ||
        te_check_quant(d, op, wt, "input 2") || te_check_quant(d, op, st, "input 4") ||
        te_check_quant(d, op, out, "output 0"))
        return -1;
    if (st->type == TE_DT_INT16 && (st->q.zero_point[0] < -32768 || st->q.zero_point[0] > 32767))
        return te_op_fail(d, op, "input 4 has zero point %lld outside int16",
                          (long long)st->q.zero_point[0]);
    return 0;
}

static int check_dim(te_diag *d, const te_op *op, const te_tensor *t, const char *which,
                     int k, int want)
{
    if (t->shape[k] != want)
        return te_op_fail(d, op, "%s dimension %d is %d, expected %d", which, k, t->shape[k],
                          want);
    return 0;
}

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *wf,
                        const te_tensor *wt, const te_tensor *b, const te_tensor *st,
                        const te_tensor *out)
{
    int rank = op->opt.svdf_rank, batches, filters, memory;
    if (in->rank != 2 || wf->rank != 2 || wt->rank != 2 || st->rank != 2 || out->rank != 2)
        return te_op_fail(d, op, "input, weights, state and output must have rank 2");
    batches = in->shape[0];
    filters = wf->shape[0];
    memory = wt->shape[1];
    if (rank < 1 || filters % rank != 0)
        return te_op_fail(d, op, "rank %d does not divide the %d filters", rank, filters);
    if (check_dim(d, op, wf, "input 1", 1, in->shape[1]) ||
        check_dim(d, op, wt, "input 2", 0, filters) ||
        check_dim(d, op, st, "input 4", 0, batches) ||
        check_dim(d, op, out, "output 0", 0, batches) ||
        check_dim(d, op, out, "output 0", 1, filters / rank))
        return -1;
    if (memory < 1 || (int64_t)st->shape[1] != (int64_t)memory * filters)
        return te_op_fail(d, op, "input 4 has %d elements a batch, expected memory %d x %d "
                          "filters", st->shape[1], memory, filters);
    if (b && (b->rank < 1 || b->shape[0] != filters / rank || te_tensor_elems(b) != b->shape[0]))
        return te_op_fail(d, op, "input 3 (bias) must have %d elements", filters / rank);
    /* the int32 dots: 255 * 255 * n (feature), 65535 * 65535 * memory (time)
     * wrap as TFLite Micro's do; only the sizes must be sane */
    if (te_tensor_elems(st) > INT32_MAX || te_tensor_elems(wf) > INT32_MAX)
        return te_op_fail(d, op, "tensors are too large");
    return 0;
}

/* |bias scale - state scale x weights_time scale| < 1e-5, in float as
 * TFLite Micro computes the product. */
static int check_bias_scale(te_diag *d, const te_op *op, const te_tensor *wt,
                            const te_tensor *b, const te_tensor *st)
{
    float prod = st->q.scale[0] * wt->q.scale[0];
    double bias_scale;
    if (!b)
        return 0;
    bias_scale = b->q.count > 0 ? (double)b->q.scale[0] : 0.0;
    if (!(fabs(bias_scale - (double)prod) < 1e-5))
        return te_op_fail(d, op, "bias (tensor %d '%s') scale %g does not match state scale x "
                          "weights_time scale %g", b->id, b->name, bias_scale, (double)prod);
    return 0;
}

static const te_tensor *opt_in(te_graph *g, const te_op *op, int k)
{
    return op->n_in > k && op->in[k] >= 0 ? te_in(g, op, k) : NULL;
}

static int svdf_check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *wf, *wt, *b, *st, *out;
    if (te_check_io_count(d, op, 5, 5, 1))
        return -1;
    in = opt_in(g, op, SV_IN);
    wf = opt_in(g, op, SV_WF);
    wt = opt_in(g, op, SV_WT);
    b = opt_in(g, op, SV_BIAS);
    st = opt_in(g, op, SV_STATE);
    out = te_out(g, op, 0);
    if (check_types(d, op, in, wf, wt, b, st, out) ||
        check_shapes(d, op, in, wf, wt, b, st, out) || check_bias_scale(d, op, wt, b, st))
        return -1;
    if ((wf->data && te_check_const(d, op, wf, "input 1")) ||
        (wt->data && te_check_const(d, op, wt, "input 2")) ||
        (b && b->data && te_check_const(d, op, b, "input 3")))
        return -1;
    return 0;
}

/* Fills the kernel parameters (exported for the unit test). */
void te_svdf_make_params(const te_tensor *in, const te_tensor *wf, const te_tensor *wt,
                         const te_tensor *st, const te_tensor *out, int rank, te_svdf_params *p);
void te_svdf_make_params(const te_tensor *in, const te_tensor *wf, const te_tensor *wt,
                         const te_tensor *st, const te_tensor *out, int rank, te_svdf_params *p)
{
    /* float products and quotients, as PrepareSvdf */
    float s1 = in->q.scale[0] * wf->q.scale[0] / st->q.scale[0];
    float s2 = st->q.scale[0] * wt->q.scale[0] / out->q.scale[0];
    p->batches = in->shape[0];
    p->input_size = in->shape[1];
    p->filters = wf->shape[0];
    p->rank = rank;
    p->memory = wt->shape[1];
    p->input_offset = -(int32_t)in->q.zero_point[0];
    p->state_zp = (int32_t)st->q.zero_point[0];
    p->output_zp = (int32_t)out->q.zero_point[0];
    te_quantize_multiplier((double)s1, &p->feature_mult, &p->feature_shift);
    te_quantize_multiplier((double)s2, &p->output_mult, &p->output_shift);
}

/* The DSP kernels: DSP target, weights and bias constant. */
static int use_dsp(const te_graph *g, const te_op *op)
{
    const te_tensor *wf = te_in((te_graph *)g, op, SV_WF), *wt = te_in((te_graph *)g, op, SV_WT);
    const te_tensor *b = op->in[SV_BIAS] >= 0 ? te_in((te_graph *)g, op, SV_BIAS) : NULL;
    return te_target_has_dsp(g->target) && wf->data && wt->data && (!b || b->data);
}

/* Time weight k of wt (int16 little-endian when wt16, else int8). */
static int32_t time_weight(const void *wt, int wt16, long k)
{
    const uint8_t *b = (const uint8_t *)wt;
    if (wt16)
        return (int16_t)(uint16_t)(b[2 * k] | b[2 * k + 1] << 8);
    return (int8_t)b[k];
}

/* feature_bias (filters) then unit_bias (units), modulo 2^32; wt: the time
 * weights, int16 when wt16. */
void te_svdf_dsp_biases(const te_svdf_params *p, const int8_t *wf, const void *wt, int wt16,
                        const int32_t *bias, int32_t *feature_bias, int32_t *unit_bias);
void te_svdf_dsp_biases(const te_svdf_params *p, const int8_t *wf, const void *wt, int wt16,
                        const int32_t *bias, int32_t *feature_bias, int32_t *unit_bias)
{
    int f, k, units = p->filters / p->rank;
    for (f = 0; f < p->filters; f++) {
        uint32_t s = 0;
        for (k = 0; k < p->input_size; k++)
            s += (uint32_t)(int32_t)wf[(long)f * p->input_size + k];
        feature_bias[f] = (int32_t)(s * (uint32_t)p->input_offset);
    }
    for (f = 0; f < units; f++) {
        uint32_t s = 0;
        for (k = 0; k < p->rank * p->memory; k++)
            s += (uint32_t)time_weight(wt, wt16, (long)f * p->rank * p->memory + k);
        unit_bias[f] = (int32_t)((bias ? (uint32_t)bias[f] : 0u) - s * (uint32_t)p->state_zp);
    }
}

/* The DSP kernel's folded biases. */
static int emit_dsp_biases(te_emit *e, const te_op *op, const te_svdf_params *p, te_name *fb,
                           te_name *ub)
{
    te_graph *g = e->g;
    const te_tensor *wt = te_in(g, op, SV_WT);
    const int8_t *wfd = (const int8_t *)te_in(g, op, SV_WF)->data;
    const int32_t *bd = op->in[SV_BIAS] >= 0 ? (const int32_t *)te_in(g, op, SV_BIAS)->data : NULL;
    size_t units = (size_t)(p->filters / p->rank);
    int32_t *buf = malloc(sizeof(int32_t) * ((size_t)p->filters + units));
    if (!buf)
        return te_op_fail(e->diag, op, "out of memory");
    te_svdf_dsp_biases(p, wfd, wt->data, wt->type == TE_DT_INT16, bd, buf, buf + p->filters);
    *fb = te_emit_const_i32(e, buf, (size_t)p->filters, "feature_bias");
    *ub = te_emit_const_i32(e, buf + p->filters, units, "unit_bias");
    free(buf);
    return 0;
}

static void emit_params(te_emit *e, const te_svdf_params *p)
{
    te_params_begin(e, "te_svdf_params");
    te_params_int(e, "batches", p->batches);
    te_params_int(e, "input_size", p->input_size);
    te_params_int(e, "filters", p->filters);
    te_params_int(e, "rank", p->rank);
    te_params_int(e, "memory", p->memory);
    te_params_int(e, "input_offset", p->input_offset);
    te_params_int(e, "feature_mult", p->feature_mult);
    te_params_int(e, "feature_shift", p->feature_shift);
    te_params_int(e, "state_zp", p->state_zp);
    te_params_int(e, "output_mult", p->output_mult);
    te_params_int(e, "output_shift", p->output_shift);
    te_params_int(e, "output_zp", p->output_zp);
}

static int svdf_emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, SV_IN), *wf = te_in(g, op, SV_WF),
                    *wt = te_in(g, op, SV_WT), *st = te_in(g, op, SV_STATE),
                    *out = te_out(g, op, 0);
    int s16 = wt->type == TE_DT_INT16;
    te_svdf_params p;
    te_name x, w1, w2, b, s, y, prm, fb, ub;
    te_svdf_make_params(in, wf, wt, st, out, op->opt.svdf_rank, &p);
    if (use_dsp(g, op)) {
        if (emit_dsp_biases(e, op, &p, &fb, &ub))
            return -1;
        x = te_emit_tensor(e, in->id);
        w1 = te_emit_tensor(e, wf->id);
        w2 = te_emit_tensor(e, wt->id);
        s = te_emit_tensor(e, st->id);
        y = te_emit_tensor(e, out->id);
        te_emit_kernel(e, s16 ? TE_K_SVDF_S8_S16_DSP : TE_K_SVDF_S8_S8_DSP);
        emit_params(e, &p);
        prm = te_params_end(e);
        te_emit_kernel_call(e, s16 ? TE_K_SVDF_S8_S16_DSP : TE_K_SVDF_S8_S8_DSP, prm.s, x.s, w1.s, fb.s,
                     w2.s, ub.s, s.s, y.s);
        return 0;
    }
    x = te_emit_tensor(e, in->id);
    w1 = te_emit_tensor(e, wf->id);
    w2 = te_emit_tensor(e, wt->id);
    b = te_emit_tensor(e, op->in[SV_BIAS]);
    s = te_emit_tensor(e, st->id);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, s16 ? TE_K_SVDF_S8_S16 : TE_K_SVDF_S8_S8);
    emit_params(e, &p);
    prm = te_params_end(e);
    te_emit_kernel_call(e, s16 ? TE_K_SVDF_S8_S16 : TE_K_SVDF_S8_S8, prm.s, x.s, w1.s, w2.s, b.s, s.s,
                 y.s);
    return 0;
}

static int64_t svdf_macs(const te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in((te_graph *)g, op, SV_IN), *wf = te_in((te_graph *)g, op, SV_WF),
                    *st = te_in((te_graph *)g, op, SV_STATE);
    if (!in || !wf || !st || in->rank != 2)
        return 0;
    return te_tensor_elems(wf) * in->shape[0] + te_tensor_elems(st);
}

static te_kernel_id svdf_variant(const te_graph *g, const te_op *op)
{
    const te_tensor *wt = te_in((te_graph *)g, op, SV_WT);
    int s16 = wt && wt->type == TE_DT_INT16;
    if (use_dsp(g, op))
        return s16 ? TE_K_SVDF_S8_S16_DSP : TE_K_SVDF_S8_S8_DSP;
    return s16 ? TE_K_SVDF_S8_S16 : TE_K_SVDF_S8_S8;
}

const te_op_def te_op_svdf = {
    .opcode = TE_OP_SVDF,
    .check = svdf_check,
    .macs = svdf_macs,
    .emit = svdf_emit,
    .variant = svdf_variant,
};
