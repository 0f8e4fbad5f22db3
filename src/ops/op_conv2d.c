/* op_conv2d.c - CONV_2D lowering (int8 activations, int8 per-channel or
 * per-tensor weights, optional int32 bias, SAME/VALID plus any explicit
 * padding folded in from a PAD).
 *
 * Everything TFLite Micro derives in Prepare is computed here at compile
 * time (helpers in conv_family.c) and baked into the call as literals.
 * Five kernels: te_conv2d_avx2_s8 for target x86-64-v3 wherever the
 * GEMM applies (runtime/x86/te_conv2d_avx2.c: int8 weights re-laid out in
 * channel blocks, widened as they are loaded: no flash budget needed);
 * te_conv2d_gemm_s8 (runtime/te_conv2d_gemm.c: weights
 * re-laid out as int16 in the order it reads them, input offset folded into
 * the bias, DSP SIMD layout on Cortex-M4/M7; no scratch memory) wherever it
 * applies and its int16 weights fit the flash budget (gemm_budget: on every
 * target --flash-limit or by default 1.25 x the weights + 32 KiB, the
 * convolutions with the most reuse of their weights first); on
 * Cortex-M4/M7 te_conv2d_dsp_s8 (runtime/armv7em/te_conv2d_dsp.c: int8
 * weights, im2col scratch) for the other GEMM-shaped ones, elsewhere
 * te_conv2d_w8_s8 (runtime/te_conv2d_w8.c: portable, the model's int8
 * weights as they are, patches up to TE_CONV2D_W8_KMAX); and the plain
 * te_conv2d_s8 for the rest: groups, non-constant weights, Cortex-M0+
 * (where int16 weights would double the flash), the convolutions left out
 * of the budget on the other targets. */
/* The runtime headers give scratch sizes and limits: declare kernels extern. */
#define TE_KERNEL extern

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plan/patch.h"
#include "conv_family.h"
#include "conv_family_s16.h"
#include "flash_budget.h"
#include "ir/target.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_conv2d.h"
#include "te_conv2d_avx2.h"
#include "te_conv2d_dsp.h"
#include "te_conv2d_gemm.h"
#include "te_conv2d_w8.h"
#include "conv_band.h"

/* ------------------------------------------------------------- CONV_2D */

static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    const te_options *o = &op->opt;
    int64_t oh, ow;
    int groups;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input and output must be 4-D (NHWC), got ranks %d and %d",
                          in->rank, out->rank);
    oh = te_convfam_conv_out(o, 0, in->shape[1], w->shape[1]);
    ow = te_convfam_conv_out(o, 1, in->shape[2], w->shape[2]);
    if (in->shape[3] < 1 || in->shape[3] % w->shape[3] != 0)
        return te_op_fail(d, op, "input has %d channels, not a multiple of the weights' %d",
                          in->shape[3], w->shape[3]);
    groups = in->shape[3] / w->shape[3];
    if (w->shape[0] % groups != 0)
        return te_op_fail(d, op, "%d output channels do not split into %d groups", w->shape[0],
                          groups);
    if (oh < 1 || ow < 1)
        return te_op_fail(d, op, "input %dx%d is smaller than the dilated %dx%d filter",
                          in->shape[1], in->shape[2], w->shape[1], w->shape[2]);
    if (out->shape[0] != in->shape[0] || out->shape[1] != oh || out->shape[2] != ow ||
        out->shape[3] != w->shape[0])
        return te_op_fail(d, op, "output shape [%d,%d,%d,%d] does not match the expected "
                          "[%d,%lld,%lld,%d]", out->shape[0], out->shape[1], out->shape[2],
                          out->shape[3], in->shape[0], (long long)oh, (long long)ow,
                          w->shape[0]);
    return 0;
}

static int check(te_graph *g, const te_op *op, te_diag *d)
{
    const te_tensor *in, *w, *out;
    int32_t lo, hi;
    if (te_check_io_count(d, op, 2, 3, 1))
        return -1;
    in = te_in(g, op, 0);
    w = te_in(g, op, 1);
    out = te_out(g, op, 0);
    if (te_convfam_s16(in) ? te_convfam_s16_check_io(d, op, in, out)
                           : te_convfam_check_act_type(d, op, in, "input 0") ||
                                 te_convfam_check_act_type(d, op, out, "output 0"))
        return -1;
    if (te_convfam_check_weights(d, op, w, 4, 0) ||
        (te_convfam_s16(in) ? te_convfam_s16_check_bias(d, op, te_in(g, op, 2), w->shape[0], 1)
                            : te_convfam_check_bias(d, op, te_in(g, op, 2), w->shape[0])) ||
        te_convfam_check_conv_options(d, op, in) ||
        check_shapes(d, op, in, w, out))
        return -1;
    if (te_convfam_s16(in) && !te_convfam_s16_acc32(g, op) && /* the int64 accumulator */
        te_convfam_s16_check_requant(d, op, in, w, out, w->shape[0], 0))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    return te_tensor_elems(out) * w->shape[1] * w->shape[2] * w->shape[3];
}

/* The kernels, as lowering records them (te_lowering.variant); CONV_S16:
 * the int16x8 form (conv_family_s16.c). */
enum { CONV_REF, CONV_GEMM, CONV_AVX2, CONV_DSP, CONV_W8, CONV_S16 };

/* Output 0 is a strided channel slice (te_lowering.slice_pitch). */
static int strided(const te_lowering *l) { return l->slice && l->slice_pitch; }

/* The out_stride field when the output is a channel slice of a
 * concatenation's output (pass_concat.c), or out_c when it is written over
 * the input (inplace_input; row by row from a band, only for
 * te_conv2d_gemm_s8: its patches then go to its work area, not the rest of
 * the row); nothing else. */
static void param_out_stride(te_emit *e, const te_tensor *out)
{
    if (strided(e->low))
        te_params_int(e, "out_stride", (long long)e->low->slice_pitch);
    else if (e->low->inplace_input == 0 &&
             (!e->low->inplace_band || e->low->variant == CONV_GEMM))
        te_params_int(e, "out_stride", out->shape[3]);
}

/* What a call computing one output row from the band (inplace_band) reads
 * and writes instead of the whole tensors: NULL otherwise. */
typedef struct {
    te_name x;    /* the band */
    te_name y;    /* output row `row` */
    te_name work; /* the GEMM kernel's work area, after the band */
} band_call;

/* The row geometry of the call: the whole input, or the band alone (its
 * rows, one output row, the padding rows already in it). */
static void call_rows(const te_emit *e, const te_op *op, int *in_h, int *out_h, int *stride_h,
                      int *pad_top)
{
    const te_tensor *in = te_in(e->g, op, 0), *w = te_in(e->g, op, 1), *out = te_out(e->g, op, 0);
    if (e->low->inplace_band) {
        *in_h = (w->shape[1] - 1) * op->opt.dilation_h + 1;
        *out_h = 1;
        *stride_h = 1;
        *pad_top = 0;
        return;
    }
    *in_h = in->shape[1];
    *out_h = out->shape[1];
    *stride_h = op->opt.stride_h;
    *pad_top = (int)te_convfam_conv_pad(&op->opt, 0, in->shape[1], w->shape[1], out->shape[1]);
}

/* ---- te_conv2d_gemm_s8 ---------------------------------------------- */

/* What use_gemm() finds out for emit(). */
typedef struct {
    int k;      /* patch length k_h * k_w * in_c */
    int k_pad;  /* padded for the kernel */
    int dsp;    /* DSP SIMD layout */
    int pad_top, pad_left;
} gemm_shape;

/* int16 weights cost flash: they are the third trade of the flash
 * budget (flash_budget.h: what the inlined depthwise calls and the
 * ADD/SUB tables leave of the limit minus te_flash_base_estimate, on every
 * target; te_conv2d_dsp_s8 on Cortex-M4/M7, te_conv2d_s8 elsewhere runs the
 * rest with int8 weights).  The GEMM kernel's own code, paid once when any
 * convolution gets int16 weights: on Cortex-M4/M7 at arm-gcc -O2; on the
 * other targets at x86-64 gcc -O2, portable (3.9 KB on kws_ref_model) or
 * with its SSE2 paths on x86-64-v3 (31 KB on
 * tflm_custom_model_rf_keras_7a86b0c). */
#define GEMM_CODE_BYTES_DSP 24576
#define GEMM_CODE_BYTES_SSE2 32768
#define GEMM_CODE_BYTES_OTHER 4096

static int64_t gemm_code_bytes(const te_graph *g)
{
    return te_target_has_dsp(g->target)    ? GEMM_CODE_BYTES_DSP
           : te_target_has_avx2(g->target) ? GEMM_CODE_BYTES_SSE2
                                           : GEMM_CODE_BYTES_OTHER;
}

static int gemm_shaped(const te_graph *g, const te_op *op);

/* What te_conv2d_w8_s8 adds to the base estimate's plain convolutions on
 * the targets without DSP: its table holds 16 bytes a channel (the base
 * estimate counts 12), and its code. */
#define W8_TABLE_EXTRA 4
#define W8_CODE_BYTES 1024

static int64_t w8_extra(const te_graph *g)
{
    int64_t sum = 0;
    int i;
    if (te_target_has_dsp(g->target))
        return 0;
    for (i = 0; i < g->n_ops; i++)
        if (g->ops[i].opcode == TE_OP_CONV_2D && !g->ops[i].dead && gemm_shaped(g, &g->ops[i]))
            sum += W8_TABLE_EXTRA * (int64_t)g->tensors[g->ops[i].in[1]].shape[0];
    return sum > 0 ? sum + W8_CODE_BYTES : 0;
}

/* How many bytes int16 weights may add to this model. */
static int64_t gemm_budget(const te_graph *g)
{
    const int64_t left = te_flash_trade_budget(g) - te_flash_dw_inline_bytes(g) -
                         te_flash_lut_bytes(g) - w8_extra(g);
    return left < 0 ? 0 : left;
}

/* The GEMM kernels' conditions (and k < 2^16: the portable int32 sums
 * cannot overflow). */
static int gemm_shaped(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
    const int64_t k = (int64_t)w->shape[1] * w->shape[2] * w->shape[3];
    return g->target != TE_TARGET_CORTEX_M0PLUS && in->type == TE_DT_INT8 &&
           w->shape[3] == in->shape[3] && w->data && (!b || b->data) && k < 65536;
}

/* 1 when te_conv2d_avx2_s8 runs this op (target x86-64-v3, int8 weights,
 * no flash budget needed): a GEMM op whose patches fit its stack buffers. */
static int avx2_runs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    return te_target_has_avx2(g->target) && gemm_shaped(g, op) &&
           te_convfam_gemm_k_pad(w->shape[1] * w->shape[2] * w->shape[3], 0) <=
               TE_CONV2D_AVX2_KMAX;
}

/* The int16 weight bytes te_conv2d_gemm_s8 would add, or -1 when it cannot
 * run op or te_conv2d_avx2_s8 does. */
static int64_t gemm_extra(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const int64_t k = (int64_t)w->shape[1] * w->shape[2] * w->shape[3];
    if (!gemm_shaped(g, op) || avx2_runs(g, op))
        return -1;
    return ((int64_t)w->shape[0] + 3) / 4 * 4 * te_convfam_gemm_k_pad((int)k, 1) * 2 -
           (int64_t)w->shape[0] * k;
}

/* Output pixels per weight: what int16 weights buy. */
static int64_t gemm_reuse(const te_graph *g, const te_op *op)
{
    const te_tensor *out = &g->tensors[op->out[0]];
    return (int64_t)out->shape[0] * out->shape[1] * out->shape[2];
}

/* The int16 weight bytes of every convolution gemm_chosen() picks. */
static int64_t gemm_extra_total(const te_graph *g);

/* gemm_chosen_uncached() of every op of the last graph asked, per thread
 * (the lowering of every patch clone asks, and each answer reads every
 * op): keyed like the flash budget's figures (te_flash_graph_key). */
#if defined(__GNUC__)
#define GEMM_MEMO_STORAGE static __thread
#else
#define GEMM_MEMO_STORAGE static /* compilers without thread-local storage: one thread */
#endif
#define GEMM_MEMO_OPS 2048

static int gemm_chosen_uncached(const te_graph *g, const te_op *me);
static int ascending_i64(const void *a, const void *b);

/* Whether the convolution with weights `wid` is among those that get the
 * fast kernel: by reuse, most first (then op order), while the extra flash
 * stays within gemm_budget().  Patch clones share their op's weights. */
static int gemm_chosen(const te_graph *g, int wid)
{
    GEMM_MEMO_STORAGE struct {
        uint64_t key;
        int have, n;
        unsigned char chosen[GEMM_MEMO_OPS];
        int64_t by_wid[GEMM_MEMO_OPS]; /* each convolution's weights << 32 | op, ascending */
    } memo;
    const te_op *me = NULL;
    uint64_t key;
    int i, lo, hi;
    if (g->n_ops > GEMM_MEMO_OPS || wid < 0) {
        for (i = 0; i < g->n_ops; i++)
            if (g->ops[i].opcode == TE_OP_CONV_2D && g->ops[i].in[1] == wid)
                me = &g->ops[i];
        return me ? gemm_chosen_uncached(g, me) : 1;
    }
    key = g->content_key ? g->content_key : te_flash_graph_key(g);
    if (!memo.have || memo.key != key) {
        memo.n = 0;
        for (i = 0; i < g->n_ops; i++) {
            memo.chosen[i] = g->ops[i].opcode == TE_OP_CONV_2D &&
                             (unsigned char)gemm_chosen_uncached(g, &g->ops[i]);
            if (g->ops[i].opcode == TE_OP_CONV_2D && g->ops[i].in[1] >= 0)
                memo.by_wid[memo.n++] = (int64_t)g->ops[i].in[1] * ((int64_t)1 << 32) + i;
        }
        qsort(memo.by_wid, (size_t)memo.n, sizeof(int64_t), ascending_i64);
        memo.key = key;
        memo.have = 1;
    }
    /* the last convolution with these weights: the greatest entry below wid + 1 */
    lo = 0;
    hi = memo.n;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (memo.by_wid[mid] < ((int64_t)wid + 1) * ((int64_t)1 << 32))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || memo.by_wid[lo - 1] >> 32 != wid)
        return 1; /* no convolution reads them */
    return memo.chosen[memo.by_wid[lo - 1] & 0xffffffff];
}

static int ascending_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int gemm_chosen_uncached(const te_graph *g, const te_op *me)
{
    int64_t extra = 0, mine;
    int i;
    if ((mine = gemm_extra(g, me)) < 0)
        return 0;
    for (i = 0; i < g->n_ops; i++) {
        const te_op *o = &g->ops[i];
        int64_t e, r, rm = gemm_reuse(g, me);
        if (o->opcode != TE_OP_CONV_2D || o == me || (e = gemm_extra(g, o)) < 0)
            continue;
        r = gemm_reuse(g, o);
        if (r > rm || (r == rm && o < me))
            extra += e;
    }
    return extra + mine + gemm_code_bytes(g) <= gemm_budget(g);
}

static int64_t gemm_extra_total(const te_graph *g)
{
    int64_t sum = 0, e;
    int i;
    for (i = 0; i < g->n_ops; i++)
        if (g->ops[i].opcode == TE_OP_CONV_2D && !g->ops[i].dead &&
            (e = gemm_extra(g, &g->ops[i])) >= 0 && gemm_chosen(g, g->ops[i].in[1]))
            sum += e;
    return sum;
}

int64_t te_flash_gemm_bytes(const te_graph *g)
{
    const int64_t sum = gemm_extra_total(g);
    return sum > 0 ? sum + gemm_code_bytes(g) : 0;
}

/* The GEMM kernels' layout of this op. */
static void gemm_geometry(const te_graph *g, const te_op *op, gemm_shape *s)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    s->k = w->shape[1] * w->shape[2] * w->shape[3];
    s->dsp = te_target_has_dsp(g->target);
    s->k_pad = te_convfam_gemm_k_pad(s->k, s->dsp);
    s->pad_top = (int)te_convfam_conv_pad(&op->opt, 0, in->shape[1], w->shape[1], out->shape[1]);
    s->pad_left = (int)te_convfam_conv_pad(&op->opt, 1, in->shape[2], w->shape[2], out->shape[2]);
}

/* 1 when te_conv2d_gemm_s8 runs this op (filling *s). */
static int use_gemm(const te_graph *g, const te_op *op, gemm_shape *s)
{
    if (gemm_extra(g, op) < 0 || !gemm_chosen(g, op->in[1]))
        return 0;
    gemm_geometry(g, op, s);
    return 1;
}

/* 1 when te_conv2d_dsp_s8 runs this op (Cortex-M4/M7, int8 weights):
 * where the GEMM kernel could but its int16 weights are not chosen. */
static int use_dsp(const te_graph *g, const te_op *op, gemm_shape *s)
{
    if (!te_target_has_dsp(g->target) || gemm_extra(g, op) < 0)
        return 0;
    gemm_geometry(g, op, s);
    return 1;
}

/* 1x1 filter whose every output pixel reads one input pixel. */
static int pointwise(const te_tensor *in, const te_tensor *w, const te_tensor *out,
                     const te_options *o, const gemm_shape *s)
{
    return w->shape[1] == 1 && w->shape[2] == 1 && s->pad_top == 0 && s->pad_left == 0 &&
           (int64_t)(out->shape[1] - 1) * o->stride_h < in->shape[1] &&
           (int64_t)(out->shape[2] - 1) * o->stride_w < in->shape[2];
}

/* 1 when te_conv2d_w8_s8 runs this op (no DSP: the model's int8 weights,
 * where the GEMM's int16 copies are not chosen and the patch fits its
 * stack buffer or, pointwise, is read in place). */
static int use_w8(const te_graph *g, const te_op *op, gemm_shape *s)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    if (te_target_has_dsp(g->target) || !gemm_shaped(g, op))
        return 0;
    gemm_geometry(g, op, s);
    return (int64_t)w->shape[1] * w->shape[2] * w->shape[3] <= TE_CONV2D_W8_KMAX ||
           pointwise(&g->tensors[op->in[0]], w, &g->tensors[op->out[0]], &op->opt, s);
}

/* 1 when te_conv2d_avx2_s8 runs this op (filling *s). */
static int use_avx2(const te_graph *g, const te_op *op, gemm_shape *s)
{
    if (!avx2_runs(g, op))
        return 0;
    gemm_geometry(g, op, s);
    return 1;
}


/* Re-laid-out weights, folded bias and requantization table as constants
 * (te_convfam_gemm_prepare); *fast: the fast requantization. */
static int emit_gemm_consts(te_emit *e, const te_op *op, const gemm_shape *s, int32_t lo,
                            int32_t hi, int avx2, te_name *wt, te_name *qr, int *fast)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const te_tensor *b = op->n_in > 2 ? te_in(g, op, 2) : NULL;
    const int oc = w->shape[0], n = (oc + 3) / 4 * 4; /* channels padded to 4 */
    const size_t nw = (size_t)n * (size_t)s->k_pad;
    te_convfam_gemm_spec spec;
    int16_t *w16 = malloc(sizeof(int16_t) * nw);
    int32_t *words = malloc(sizeof(int32_t) * (nw / 2 + 1));
    int32_t *q = malloc(sizeof(int32_t) * (size_t)n * 4);
    int32_t *ms = malloc(sizeof(int32_t) * (size_t)oc * 2);
    int rc = -1, c;
    size_t i;
    if (!w16 || !words || !q || !ms) {
        te_fail(e->diag, "out of memory");
        goto out;
    }
    for (c = 0; c < oc; c++) {
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, 0, &ms[c], &sh);
        ms[oc + c] = sh;
    }
    spec.out_c = oc;
    spec.k = s->k;
    spec.k_pad = s->k_pad;
    spec.dsp = s->dsp;
    spec.input_zp = (int32_t)in->q.zero_point[0];
    spec.output_zp = (int32_t)out->q.zero_point[0];
    spec.act_min = lo;
    spec.act_max = hi;
    *fast = te_convfam_gemm_prepare(&spec, (const int8_t *)w->data,
                                    b ? (const int32_t *)b->data : NULL, ms, ms + oc, w16, q);
    if (avx2) { /* channel blocks of 8 (te_convfam_gemm_avx2_layout) */
        const size_t blocks = ((size_t)oc + 7) / 8, na = blocks * 8 * (size_t)s->k_pad;
        int8_t *wa = malloc(na);
        int32_t *qa = malloc(sizeof(int32_t) * blocks * 32);
        if (wa && qa) {
            te_convfam_gemm_avx2_layout(oc, s->k_pad, *fast, w16, q, wa, qa);
            *wt = te_emit_const_i8(e, wa, na, "weights_packed");
            *qr = te_emit_const_i32(e, qa, blocks * 32, "requant");
            rc = 0;
        } else {
            te_fail(e->diag, "out of memory");
        }
        free(wa);
        free(qa);
        goto out;
    }
    if (s->dsp) { /* two int16 per word, the first in the low half */
        for (i = 0; i < nw / 2; i++)
            words[i] = (int32_t)((uint32_t)(uint16_t)w16[2 * i] |
                                 (uint32_t)(uint16_t)w16[2 * i + 1] << 16);
        *wt = te_emit_const_i32(e, words, nw / 2, "weights_packed");
    } else {
        *wt = te_emit_const_i16(e, w16, nw, "weights_packed");
    }
    *qr = te_emit_const_i32(e, q, (size_t)n * 4, "requant");
    rc = 0;
out:
    free(w16);
    free(words);
    free(q);
    free(ms);
    return rc;
}


/* The geometry fields te_conv2d_gemm_params, te_conv2d_avx2_params,
 * te_conv2d_dsp_params (with k_pad) and te_conv2d_w8_params share. */
static void params_gemm_geometry(te_emit *e, const te_op *op, const gemm_shape *s, int k_pad)
{
    const te_tensor *in = te_in(e->g, op, 0), *w = te_in(e->g, op, 1), *out = te_out(e->g, op, 0);
    int in_h, out_h, stride_h, pad_top;
    call_rows(e, op, &in_h, &out_h, &stride_h, &pad_top);
    (void)s;
    te_params_int(e, "batches", in->shape[0]);
    te_params_int(e, "in_h", in_h);
    te_params_int(e, "in_w", in->shape[2]);
    te_params_int(e, "in_c", in->shape[3]);
    te_params_int(e, "out_h", out_h);
    te_params_int(e, "out_w", out->shape[2]);
    te_params_int(e, "out_c", out->shape[3]);
    te_params_int(e, "k_h", w->shape[1]);
    te_params_int(e, "k_w", w->shape[2]);
    te_params_int(e, "stride_h", stride_h);
    te_params_int(e, "stride_w", op->opt.stride_w);
    te_params_int(e, "dil_h", op->opt.dilation_h);
    te_params_int(e, "dil_w", op->opt.dilation_w);
    te_params_int(e, "pad_top", pad_top);
    te_params_int(e, "pad_left", s->pad_left);
    if (k_pad)
        te_params_int(e, "k_pad", s->k_pad);
}

/* The quantization fields the GEMM-shaped kernels' params share (zero
 * points, clamp, the fast requantization flag) and the output stride. */
static void params_gemm_quant(te_emit *e, const te_tensor *in, const te_tensor *out, int32_t lo,
                              int32_t hi, int fast)
{
    te_params_int(e, "input_zp", in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    te_params_int(e, "fast_rq", fast);
    param_out_stride(e, out);
}

/* At most this many CONV_2D in the model: each GEMM call is the kernel's
 * _inl form, specialised on its params when the compiler optimises.  More,
 * and the copies would cost more flash than the specialising saves.  On
 * every target only within --flash-limit: GEMM_INLINE_BYTES a call left
 * after the int16 weights (the default budget is for weights only). */
#define GEMM_INLINE_MAX_CONVS 16
#define GEMM_INLINE_BYTES 4096

/* CONV_2D calls of the model: its ops and their patch clones (each clone
 * is one more call, so one more inlined copy). */
static int conv_count(const te_graph *g)
{
    int i, convs = 0;
    for (i = 0; i < g->n_ops; i++)
        convs += g->ops[i].opcode == TE_OP_CONV_2D;
    for (i = 0; g->patch && i < g->patch->n_clones; i++)
        convs += g->patch->clones[i].opcode == TE_OP_CONV_2D;
    return convs;
}

/* Whether the GEMM calls are inlined: the last trade of the budget. */
static int gemm_inline(const te_graph *g)
{
    int convs = conv_count(g);
    if (convs > GEMM_INLINE_MAX_CONVS)
        return 0;
    return g->flash_limit &&
           gemm_budget(g) - te_flash_gemm_bytes(g) >= (int64_t)convs * GEMM_INLINE_BYTES;
}

int64_t te_flash_gemm_inline_bytes(const te_graph *g)
{
    return gemm_extra_total(g) > 0 && gemm_inline(g)
               ? (int64_t)conv_count(g) * GEMM_INLINE_BYTES
               : 0;
}

/* "te_conv2d_gemm_s8", or the macro picking its _inl form when optimising
 * (both names are written: runtime_select pastes what the code names). */
static const char *gemm_call(te_emit *e)
{
    if (!gemm_inline(e->g))
        return "te_conv2d_gemm_s8";
    te_emit_once(e, "TE_CONV2D_GEMM_CALL",
                 "/* conv2d GEMM kernel: specialised at its call when optimising */\n"
                 "#if defined(__OPTIMIZE__)\n#define TE_CONV2D_GEMM_CALL(inl, plain) inl\n"
                 "#else\n#define TE_CONV2D_GEMM_CALL(inl, plain) plain\n#endif\n");
    return "TE_CONV2D_GEMM_CALL(te_conv2d_gemm_s8_inl, te_conv2d_gemm_s8)";
}

static int emit_gemm(te_emit *e, const te_op *op, const gemm_shape *s, int32_t lo, int32_t hi,
                     const band_call *bc)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    te_name wt, qr, x, y, zp, prm, work = {{0}};
    int fast, pw = pointwise(in, w, out, o, s);
    if (emit_gemm_consts(e, op, s, lo, hi, 0, &wt, &qr, &fast))
        return -1;
    if (pw) {
        snprintf(zp.s, sizeof zp.s, "NULL");
    } else { /* the padding taps of one filter row */
        size_t n = (size_t)w->shape[2] * (size_t)in->shape[3];
        int8_t *row = malloc(n);
        if (!row)
            return te_fail(e->diag, "out of memory");
        memset(row, (int)in->q.zero_point[0], n);
        zp = te_emit_const_i8(e, row, n, "pad_taps");
        free(row);
    }
    x = bc ? bc->x : te_emit_tensor(e, in->id);
    y = bc ? bc->y : te_emit_tensor(e, out->id);
    if (bc)
        work = bc->work;
    else if (e->low->work_area)
        work = te_emit_scratch(e, "int8_t");
    te_emit_kernel(e, TE_K_CONV2D_GEMM_S8);
    te_params_begin(e, "te_conv2d_gemm_params");
    params_gemm_geometry(e, op, s, 1);
    te_params_int(e, "pointwise", pw);
    params_gemm_quant(e, in, out, lo, hi, fast);
    if (work.s[0])
        te_params_expr(e, "work", work.s);
    prm = te_params_end(e);
    te_emit_call(e, gemm_call(e), prm.s, x.s, wt.s, qr.s, zp.s, y.s);
    return 0;
}

/* The params record and the call of a kernel that reads the input x, the
 * weights wt and the requantization table qr into y: te_conv2d_avx2_s8
 * (geometry padded for its blocks: avx2 1) and te_conv2d_w8_s8 share them. */
static void emit_gemm_call(te_emit *e, const te_op *op, const gemm_shape *s, te_kernel_id k,
                           int avx2, int32_t lo, int32_t hi, int fast, const te_name *x,
                           const te_name *wt, const te_name *qr, const te_name *y)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_name prm;
    te_emit_kernel(e, k);
    te_params_begin(e, te_kernel_get(k)->params);
    params_gemm_geometry(e, op, s, avx2);
    params_gemm_quant(e, in, out, lo, hi, fast);
    prm = te_params_end(e);
    te_emit_kernel_call(e, k, prm.s, x->s, wt->s, qr->s, y->s);
}

static int emit_avx2(te_emit *e, const te_op *op, const gemm_shape *s, int32_t lo, int32_t hi,
                     const band_call *bc)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    te_name wt, qr, x, y;
    int fast;
    if (emit_gemm_consts(e, op, s, lo, hi, 1, &wt, &qr, &fast))
        return -1;
    x = bc ? bc->x : te_emit_tensor(e, in->id);
    y = bc ? bc->y : te_emit_tensor(e, out->id);
    emit_gemm_call(e, op, s, TE_K_CONV2D_AVX2_S8, 1, lo, hi, fast, &x, &wt, &qr, &y);
    return 0;
}

/* ---- te_conv2d_dsp_s8 (Cortex-M4/M7, int8 weights) ---------------------- */

/* The int8 weights in the kernel's order and the requantization table of
 * te_convfam_gemm_prepare (biases doubled when fast: the kernel doubles
 * the patches instead of the weights). */
static int emit_dsp_consts(te_emit *e, const te_op *op, const gemm_shape *s, int32_t lo,
                           int32_t hi, te_name *wt, te_name *qr, int *fast)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const te_tensor *b = op->n_in > 2 ? te_in(g, op, 2) : NULL;
    const int oc = w->shape[0], n = (oc + 3) / 4 * 4;
    const size_t nwords = (size_t)(oc + 1) / 2 * (size_t)s->k_pad / 2;
    te_convfam_gemm_spec spec;
    int16_t *w16 = malloc(sizeof(int16_t) * (size_t)n * (size_t)s->k_pad);
    int32_t *words = malloc(sizeof(int32_t) * nwords);
    int32_t *q = malloc(sizeof(int32_t) * (size_t)n * 4);
    int32_t *ms = malloc(sizeof(int32_t) * (size_t)oc * 2);
    int32_t *q8 = malloc(sizeof(int32_t) * (size_t)(oc + 1) / 2 * 8);
    int rc = -1, c;
    if (!w16 || !words || !q || !ms || !q8) {
        te_fail(e->diag, "out of memory");
        goto out;
    }
    for (c = 0; c < oc; c++) {
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, 0, &ms[c], &sh);
        ms[oc + c] = sh;
    }
    spec.out_c = oc;
    spec.k = s->k;
    spec.k_pad = s->k_pad;
    spec.dsp = 1;
    spec.input_zp = (int32_t)in->q.zero_point[0];
    spec.output_zp = (int32_t)out->q.zero_point[0];
    spec.act_min = lo;
    spec.act_max = hi;
    *fast = te_convfam_gemm_prepare(&spec, (const int8_t *)w->data,
                                    b ? (const int32_t *)b->data : NULL, ms, ms + oc, w16, q);
    te_convfam_dsp_s8_layout(oc, s->k, s->k_pad, (const int8_t *)w->data, words);
    te_convfam_dsp_s8_requant(oc, q, q8);
    *wt = te_emit_const_i32(e, words, nwords, "weights_s8");
    *qr = te_emit_const_i32(e, q8, (size_t)(oc + 1) / 2 * 8, "requant");
    rc = 0;
out:
    free(w16);
    free(words);
    free(q);
    free(ms);
    free(q8);
    return rc;
}

static int emit_dsp(te_emit *e, const te_op *op, const gemm_shape *s, int32_t lo, int32_t hi)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *out = te_out(g, op, 0);
    te_name wt, qr, x, y, prm, scratch;
    int fast;
    if (emit_dsp_consts(e, op, s, lo, hi, &wt, &qr, &fast))
        return -1;
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    if (e->low->work_area)
        scratch = te_emit_scratch(e, "int8_t");
    else
        snprintf(scratch.s, sizeof scratch.s, "NULL");
    te_emit_kernel(e, TE_K_CONV2D_DSP_S8);
    te_params_begin(e, "te_conv2d_dsp_params");
    params_gemm_geometry(e, op, s, 1);
    params_gemm_quant(e, in, out, lo, hi, fast);
    prm = te_params_end(e);
    te_emit_kernel_call(e, TE_K_CONV2D_DSP_S8, prm.s, x.s, wt.s, qr.s, y.s, scratch.s);
    return 0;
}

/* ---- te_conv2d_w8_s8 (no DSP, the model's int8 weights) ----------------- */

/* The requantization table of te_convfam_gemm_prepare (its int16 weights
 * unused): te_conv2d_w8_s8 reads the weights tensor itself. */
static int emit_w8(te_emit *e, const te_op *op, const gemm_shape *s, int32_t lo, int32_t hi,
                   const band_call *bc)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const te_tensor *b = op->n_in > 2 ? te_in(g, op, 2) : NULL;
    const int oc = w->shape[0], n = (oc + 3) / 4 * 4;
    te_convfam_gemm_spec spec;
    int16_t *w16 = malloc(sizeof(int16_t) * (size_t)n * (size_t)s->k_pad);
    int32_t *q = malloc(sizeof(int32_t) * (size_t)n * 4);
    int32_t *ms = malloc(sizeof(int32_t) * (size_t)oc * 2);
    te_name wt, qr, x, y;
    int fast, c, rc = -1;
    if (!w16 || !q || !ms) {
        te_fail(e->diag, "out of memory");
        goto out;
    }
    for (c = 0; c < oc; c++) {
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, 0, &ms[c], &sh);
        ms[oc + c] = sh;
    }
    memset(&spec, 0, sizeof spec);
    spec.out_c = oc;
    spec.k = s->k;
    spec.k_pad = s->k_pad;
    spec.input_zp = (int32_t)in->q.zero_point[0];
    spec.output_zp = (int32_t)out->q.zero_point[0];
    spec.act_min = lo;
    spec.act_max = hi;
    fast = te_convfam_gemm_prepare(&spec, (const int8_t *)w->data,
                                   b ? (const int32_t *)b->data : NULL, ms, ms + oc, w16, q);
    qr = te_emit_const_i32(e, q, (size_t)n * 4, "requant");
    x = bc ? bc->x : te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    y = bc ? bc->y : te_emit_tensor(e, out->id);
    emit_gemm_call(e, op, s, TE_K_CONV2D_W8_S8, 0, lo, hi, fast, &x, &wt, &qr, &y);
    rc = 0;
out:
    free(w16);
    free(q);
    free(ms);
    return rc;
}

/* ---- te_conv2d_s8 (reference) -------------------------------------------- */

static int emit_ref(te_emit *e, const te_op *op, int32_t lo, int32_t hi, const band_call *bc)
{
    te_graph *g = e->g;
    const te_options *o = &op->opt;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    te_name mult, shift, x, wt, b, y, prm;
    int in_h, out_h, stride_h, pad_top;
    const int over_input = e->low->kernel == TE_K_CONV2D_S8_INPLACE;
    if (te_convfam_emit_requant(e, in, w, out, w->shape[0], 0, &mult, &shift))
        return -1;
    call_rows(e, op, &in_h, &out_h, &stride_h, &pad_top);
    x = bc ? bc->x : te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = bc ? bc->y : te_emit_tensor(e, out->id);
    te_emit_kernel(e, over_input ? TE_K_CONV2D_S8_INPLACE : TE_K_CONV2D_S8);
    te_params_begin(e, "te_conv2d_params");
    te_params_int(e, "batches", in->shape[0]);
    te_params_int(e, "in_h", in_h);
    te_params_int(e, "in_w", in->shape[2]);
    te_params_int(e, "in_c", in->shape[3]);
    te_params_int(e, "out_h", out_h);
    te_params_int(e, "out_w", out->shape[2]);
    te_params_int(e, "out_c", out->shape[3]);
    te_params_int(e, "k_h", w->shape[1]);
    te_params_int(e, "k_w", w->shape[2]);
    te_params_int(e, "filter_c", w->shape[3]);
    te_params_int(e, "stride_h", stride_h);
    te_params_int(e, "stride_w", o->stride_w);
    te_params_int(e, "dil_h", o->dilation_h);
    te_params_int(e, "dil_w", o->dilation_w);
    te_params_int(e, "pad_top", pad_top);
    te_params_int(e, "pad_left", te_convfam_conv_pad(o, 1, in->shape[2], w->shape[2], out->shape[2]));
    te_params_int(e, "input_offset", -in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    param_out_stride(e, out);
    prm = te_params_end(e);
    if (over_input) /* y is x */
        te_emit_kernel_call(e, TE_K_CONV2D_S8_INPLACE, prm.s, y.s, wt.s, b.s, mult.s, shift.s,
                            te_emit_scratch(e, "int8_t").s);
    else
        te_emit_kernel_call(e, TE_K_CONV2D_S8, prm.s, x.s, wt.s, b.s, mult.s, shift.s, y.s);
    return 0;
}

/* The kernel's int8 variant for a non-int16 op (CONV_AVX2, CONV_GEMM,
 * CONV_DSP, CONV_W8 or CONV_REF) and its GEMM geometry. */
static int int8_variant(const te_graph *g, const te_op *op, gemm_shape *s)
{
    return use_avx2(g, op, s)  ? CONV_AVX2
           : use_gemm(g, op, s) ? CONV_GEMM
           : use_dsp(g, op, s)  ? CONV_DSP
           : use_w8(g, op, s)   ? CONV_W8
                                : CONV_REF;
}

/* Arena work area an in-place variant needs, or -1 when it may not write
 * the output over its input.  te_conv2d_avx2_s8 gathers four patches on
 * its stack before storing their pixels; te_conv2d_w8_s8 copies each
 * pixel's input to its stack patch (in_c <= its KMAX; it knows from
 * out_stride == out_c); te_conv2d_gemm_s8 builds each pixel's patch whole
 * in the work area (out_stride == out_c: not in the output's free part).
 * te_conv2d_dsp_s8 would be safe given scratch (each pair of pixels'
 * patches built whole in it, unit.conv_dsp), but in a model whose other
 * calls pass none, its scratch path is code the model did not have
 * (150-800 bytes on Cortex-M4, once): not taken, no silent trade.  te_conv2d_s8 reads a pixel's input again for
 * each output channel after storing the ones before: in place it is
 * te_conv2d_s8_inplace, which computes the pixels whose outputs reach their
 * own input into out_c bytes of scratch first.  Nor the GEMM
 * kernel's batched pointwise path on a DSP core, which it would give up in
 * place (no silent slowdown). */
static long inplace_work(const te_graph *g, const te_op *op, int variant, const gemm_shape *s)
{
    const te_tensor *in = &g->tensors[op->in[0]], *out = &g->tensors[op->out[0]];
    int32_t lo = -128, hi = 127;
    switch (variant) {
    case CONV_AVX2:
        return 0;
    case CONV_W8:
        return in->shape[3] <= TE_CONV2D_W8_KMAX ? 0 : -1;
    case CONV_DSP: /* safe with scratch, but see above */
        return -1;
    case CONV_REF: {
        te_conv2d_params p;
        memset(&p, 0, sizeof p);
        p.out_c = out->shape[3];
        return te_conv2d_s8_inplace_get_buffer_size(&p);
    }
    case CONV_GEMM:
        if (te_target_has_dsp(g->target) && in->shape[3] % 4 == 0 && out->shape[3] % 4 == 0 &&
            (te_convfam_act_range(NULL, op, op->opt.activation, out, &lo, &hi) ||
             (lo <= -128 && hi >= 127)))
            return -1; /* te_conv2d_gemm_batch's case */
        return te_conv2d_gemm_s8_get_buffer_size(s->k_pad);
    default:
        return -1;
    }
}

/* 0 when the output may overwrite input 0 pixel by pixel: a 1x1
 * filter at stride 1 without padding nor groups, int8, no more output
 * channels than input ones (pixel p's outputs then end where its input
 * ends or before, below every later pixel's input), run by a kernel that
 * reads each pixel's input whole before storing its outputs
 * (inplace_work), with a work area smaller than the output it saves. */
static int pixel_inplace(const te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in((te_graph *)g, op, 0), *w = te_in((te_graph *)g, op, 1);
    const te_tensor *out = te_out((te_graph *)g, op, 0);
    gemm_shape s;
    long work;
    int variant;
    if (!in || !w || !out || in->type != TE_DT_INT8 || out->type != TE_DT_INT8 ||
        in->rank != 4 || w->rank != 4 || out->rank != 4 || w->shape[1] != 1 ||
        w->shape[2] != 1 || w->shape[3] != in->shape[3] || op->opt.stride_h != 1 ||
        op->opt.stride_w != 1 || out->shape[0] != in->shape[0] ||
        out->shape[1] != in->shape[1] || out->shape[2] != in->shape[2] ||
        out->shape[3] > in->shape[3])
        return -1;
    variant = int8_variant(g, op, &s);
    /* te_conv2d_s8 layer by layer only: offered to the clones of a patch
     * stage too (not ops of the graph), it made the micro plan's choice of
     * links, dropped one by one from all of them, stop at a larger set
     * (the mcunet_in4_160 stand-in on Cortex-M0+: 117312 -> 137680 bytes a
     * patch) */
    if (variant == CONV_REF && !(op >= g->ops && op < g->ops + g->n_ops))
        return -1;
    gemm_geometry(g, op, &s); /* the padding, whichever kernel runs */
    work = inplace_work(g, op, variant, &s);
    if (work < 0 || s.pad_top != 0 || s.pad_left != 0 || (size_t)work >= te_tensor_bytes(out))
        return -1;
    return 0;
}

/* The band of op's input rows each output row reads (te_conv2d_band_s8). */
static void band_geometry(const te_graph *g, const te_op *op, te_conv2d_band_params *b)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    b->rows = (w->shape[1] - 1) * op->opt.dilation_h + 1;
    b->row_bytes = in->shape[2] * in->shape[3];
    b->in_h = in->shape[1];
    b->stride_h = op->opt.stride_h;
    b->pad_top = (int)te_convfam_conv_pad(&op->opt, 0, in->shape[1], w->shape[1], out->shape[1]);
    b->zero_point = (int32_t)in->q.zero_point[0];
}

/* Scratch of a convolution in place row by row: the band, then (for
 * te_conv2d_gemm_s8, which builds its patches there) its work area; -1 for
 * the kernels not run that way.  Each computes an output pixel from its
 * window alone, so one call per output row over the band gives the
 * whole-tensor call's bytes.  te_conv2d_dsp_s8 would build the patches of
 * most of a row's pixels on its stack or in scratch (a short row leaves
 * little room after them): no silent slowdown, not offered. */
static long band_scratch(const te_graph *g, const te_op *op, int variant, const gemm_shape *s)
{
    te_conv2d_band_params b;
    long band;
    band_geometry(g, op, &b);
    band = (long)b.rows * b.row_bytes;
    switch (variant) {
    case CONV_REF:
    case CONV_W8:
    case CONV_AVX2:
        return band;
    case CONV_GEMM:
        return band + te_conv2d_gemm_s8_get_buffer_size(s->k_pad);
    default:
        return -1;
    }
}

/* 0 when the output may overwrite input 0 row by row (te_lowering.
 * inplace_band): a filter taller than one row, int8, one batch, a kernel
 * that runs on a band (band_scratch), output rows that never reach an
 * input row before its band is loaded (te_conv2d_band_safe), and scratch
 * smaller than the output it saves. */
static int band_inplace(const te_graph *g, const te_op *op)
{
    const te_tensor *in = te_in((te_graph *)g, op, 0), *w = te_in((te_graph *)g, op, 1);
    const te_tensor *out = te_out((te_graph *)g, op, 0);
    te_conv2d_band_params b;
    gemm_shape s;
    long scratch;
    if (!in || !w || !out || in->type != TE_DT_INT8 || out->type != TE_DT_INT8 ||
        in->rank != 4 || w->rank != 4 || out->rank != 4 || w->shape[1] < 2 ||
        in->shape[0] != 1 || out->shape[0] != 1)
        return -1;
    scratch = band_scratch(g, op, int8_variant(g, op, &s), &s);
    band_geometry(g, op, &b);
    if (scratch < 0 || (size_t)scratch >= te_tensor_bytes(out) ||
        !te_conv2d_band_safe(&b, out->shape[1], (long)out->shape[2] * out->shape[3]))
        return -1;
    return 0;
}

/* te_op_def.inplace_input: pixel by pixel (a 1x1 filter) or row by row
 * over a band of saved input rows. */
static int inplace_input(const te_graph *g, const te_op *op)
{
    return pixel_inplace(g, op) == 0 ? 0 : band_inplace(g, op);
}

/* Bytes te_conv2d_dsp_s8 needs for the patches of two pixels
 * (te_conv2d_dsp_s8_get_buffer_size), 0 when another kernel runs op. */
static long dsp_patch_bytes(const te_graph *g, const te_op *op)
{
    gemm_shape s;
    if (te_convfam_s16(&g->tensors[op->in[0]]) || int8_variant(g, op, &s) != CONV_DSP)
        return 0;
    return te_conv2d_dsp_s8_get_buffer_size(s.k_pad);
}

/* The kernel, and a work area for the GEMM kernel when it writes a strided
 * output (which cannot hold patches in its unwritten part) unless the plan
 * says no (o->slice_no_work). */
static void lower(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l)
{
    static const te_kernel_id kernels[] = {TE_K_CONV2D_S8, TE_K_CONV2D_GEMM_S8,
                                           TE_K_CONV2D_AVX2_S8, TE_K_CONV2D_DSP_S8,
                                           TE_K_CONV2D_W8_S8};
    gemm_shape s;
    long dsp_bytes;
    if (te_convfam_s16(&g->tensors[op->in[0]])) {
        l->variant = CONV_S16;
        l->kernel = te_convfam_s16_window_kernel(g, op, 0);
        return;
    }
    l->variant = int8_variant(g, op, &s);
    l->kernel = kernels[l->variant];
    if (l->variant == CONV_GEMM)
        l->flash_extra = gemm_extra(g, op);
    if (l->inplace_input == 0 && pixel_inplace(g, op) != 0) { /* row by row */
        te_conv2d_band_params b;
        band_geometry(g, op, &b);
        l->scratch_bytes = (size_t)band_scratch(g, op, l->variant, &s);
        l->inplace_band = (size_t)b.rows * (size_t)b.row_bytes;
        return;
    }
    if (l->inplace_input == 0) { /* output over input 0 (inplace_input) */
        const long work = inplace_work(g, op, l->variant, &s);
        if (l->variant == CONV_REF) { /* its pixels' outputs first in scratch */
            l->kernel = TE_K_CONV2D_S8_INPLACE;
            l->scratch_bytes = (size_t)work;
        } else if (work > 0) {
            l->scratch_bytes = (size_t)work;
            l->work_area = 1;
        }
        return;
    }
    /* te_conv2d_dsp_s8 builds the patches of all but the output's last
     * pixels in the output's free part; those of the last ones on the stack
     * when they fit TE_CONV2D_DSP_STACK (its default, the cap; stack_buffer:
     * the generated code sizes the buffer to the largest), else in arena
     * scratch (its get_buffer_size, counted in the arena), as for a strided
     * output, else a slice of K at a time in the whole stack buffer.  A patch clone (not an op of the graph) is never that large:
     * patch_kind keeps such ops out of patch stages, which provide no
     * scratch.  Scratch for patches too large for the stack only saves time
     * (without, the kernel computes those pixels directly): the compiler
     * drops it when that lowers the arena (no_speed_scratch). */
    dsp_bytes = l->variant == CONV_DSP ? te_conv2d_dsp_s8_get_buffer_size(s.k_pad) : 0;
    if (l->variant == CONV_DSP && !(strided(l) && o->slice_no_work) &&
        ((dsp_bytes > TE_CONV2D_DSP_STACK && !o->no_speed_scratch) || strided(l)) &&
        op >= g->ops && op < g->ops + g->n_ops) {
        l->scratch_bytes = (size_t)dsp_bytes;
        l->work_area = 1;
        l->speed_scratch = !strided(l);
    }
    if (l->variant == CONV_DSP && !l->scratch_bytes && dsp_bytes <= TE_CONV2D_DSP_STACK)
        l->stack_buffer = (size_t)dsp_bytes;
    else if (l->variant == CONV_DSP && !l->scratch_bytes) /* a slice of K at a time: */
        l->stack_buffer = TE_CONV2D_DSP_STACK - 4;        /* the whole buffer (the emitter
                                                           * rounds up by 4) */
    if (l->variant == CONV_GEMM && strided(l) && !o->slice_no_work) {
        l->scratch_bytes = (size_t)te_conv2d_gemm_s8_get_buffer_size(s.k_pad);
        l->work_area = 1;
    }
}

/* A window op of a patch stage, unless te_conv2d_dsp_s8 would need more
 * than its stack buffer for the patches of its clones' last pixels (a
 * patch stage has no arena scratch to give; computing those pixels
 * directly would be a silent slowdown). */
static te_patch_kind patch_kind(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    /* the cheap tests first (the patch analysis asks for every cell): only
     * te_conv2d_dsp_s8 with patches over its stack buffer keeps the op out,
     * and whether it runs (gemm_chosen, over every op) is asked last */
    if (te_convfam_s16(&g->tensors[op->in[0]]) || !te_target_has_dsp(g->target) ||
        gemm_extra(g, op) < 0 ||
        te_conv2d_dsp_s8_get_buffer_size(
            te_convfam_gemm_k_pad(w->shape[1] * w->shape[2] * w->shape[3], 1)) <=
            TE_CONV2D_DSP_STACK)
        return TE_PATCH_WINDOW;
    return dsp_patch_bytes(g, op) > TE_CONV2D_DSP_STACK ? TE_PATCH_NONE : TE_PATCH_WINDOW;
}

/* The kernel call of emit(); bc: one output row from the band. */
static int emit_call(te_emit *e, const te_op *op, int32_t lo, int32_t hi, const band_call *bc)
{
    gemm_shape s;
    if (e->low->variant == CONV_REF)
        return emit_ref(e, op, lo, hi, bc);
    gemm_geometry(e->g, op, &s);
    if (e->low->variant == CONV_AVX2)
        return emit_avx2(e, op, &s, lo, hi, bc);
    if (e->low->variant == CONV_DSP)
        return emit_dsp(e, op, &s, lo, hi);
    if (e->low->variant == CONV_W8)
        return emit_w8(e, op, &s, lo, hi, bc);
    return emit_gemm(e, op, &s, lo, hi, bc);
}

/* In place row by row (te_lowering.inplace_band): a loop over the output
 * rows, each loading its band (te_conv2d_band_s8) and computing its row
 * from the band alone with the op's kernel. */
static int emit_band(te_emit *e, const te_op *op, int32_t lo, int32_t hi)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_conv2d_band_params b;
    band_call bc;
    te_name x, y, prm;
    size_t start;
    int rc;
    band_geometry(e->g, op, &b);
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    bc.x = te_emit_scratch(e, "int8_t");
    bc.y = te_expr("%s + row * %ld", y.s, (long)out->shape[2] * out->shape[3]);
    bc.work = te_expr("%s + %zu", bc.x.s, e->low->inplace_band);
    te_emit_kernel(e, TE_K_CONV2D_BAND_S8);
    te_params_begin(e, "te_conv2d_band_params");
    te_params_int(e, "rows", b.rows);
    te_params_int(e, "row_bytes", b.row_bytes);
    te_params_int(e, "in_h", b.in_h);
    te_params_int(e, "stride_h", b.stride_h);
    te_params_int(e, "pad_top", b.pad_top);
    te_params_int(e, "zero_point", b.zero_point);
    prm = te_params_end(e);
    te_emit_stmt(e, "/* over its input, one output row at a time: first the %d input rows it "
                    "reads into a band */", b.rows);
    te_emit_stmt(e, "for (int row = 0; row < %d; row++) {", out->shape[1]);
    start = e->body.len;
    te_emit_kernel_call(e, TE_K_CONV2D_BAND_S8, prm.s, x.s, bc.x.s, "row");
    rc = emit_call(e, op, lo, hi, &bc);
    te_emit_indent_since(e, start);
    te_emit_stmt(e, "}");
    return rc;
}

static int emit(te_emit *e, const te_op *op)
{
    int32_t lo, hi;
    if (e->low->variant == CONV_S16)
        return te_convfam_s16_emit_window(e, op, 0);
    if (te_convfam_act_range(e->diag, op, op->opt.activation, te_out(e->g, op, 0), &lo, &hi))
        return -1;
    if (e->low->inplace_band)
        return emit_band(e, op, lo, hi);
    return emit_call(e, op, lo, hi, NULL);
}

/* Cost features: the im2col patch elements gathered (window), the
 * (output, filter tap) pairs of a direct convolution (taps), and the 1x1
 * case's own cost-table row. */
static void cost_features(const te_graph *g, const te_op *op, te_cost_features *f)
{
    const te_tensor *w = op->n_in > 1 && op->in[1] >= 0 ? &g->tensors[op->in[1]] : NULL;
    const te_tensor *out = op->n_out > 0 && op->out[0] >= 0 ? &g->tensors[op->out[0]] : NULL;
    if (!w || w->rank != 4)
        return;
    f->f[TE_CF_WINDOW] = (double)te_cost_rows_of(out) * w->shape[1] * w->shape[2] * w->shape[3];
    if (w->shape[3] > 0)
        f->f[TE_CF_TAPS] = f->f[TE_CF_MACS] / w->shape[3];
    if (f->f[TE_CF_TAPS] == f->f[TE_CF_OUT]) /* 1x1: no patch gathering */
        f->row = "1x1";
}

/* The int8 kernels write any output pixel stride; the int16x8 ones write
 * whole tensors only. */
static int slice_output(const te_graph *g, const te_op *op)
{
    return !te_convfam_s16(&g->tensors[op->in[0]]);
}

const te_op_def te_op_conv2d = {
    .opcode = TE_OP_CONV_2D,
    .int16x8 = 1,
    .check = check,
    .macs = macs,
    .emit = emit,
    .slice_output = slice_output,
    .lower = lower,
    .cost_features = cost_features,
    .patch_kind = patch_kind,
    .inplace_input = inplace_input,
    .inplace_on_trial = 1,
    .absorbs_padding = 1,
    .rescale = {2, 0, 1},
};
