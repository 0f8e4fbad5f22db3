/* op_depthwise_conv2d.c - DEPTHWISE_CONV_2D lowering (int8 activations,
 * int8 weights [1, kh, kw, in_c * multiplier] quantized per tensor or per
 * output channel, optional int32 bias, SAME/VALID plus explicit padding
 * folded in from a PAD).  The kernel is chosen at compile time (choose(),
 * once per plan candidate: lower()) from the shape, the target and the
 * planner's in-place decision; emit() follows that record; every
 * one gives TFLite Micro's bytes, in place or not:
 *  - DSP targets (constant weights, accumulators below 2^29, no dilation):
 *    te_depthwise_dsp_s8_k<K>s<S> (multiplier 1, 3x3/5x5/7x7, stride 1 or
 *    2: SMLAD on int16 column pairs of a ring of rows), or, on images where
 *    most taps would be padding, for other filters up to 7 rows or other
 *    multipliers, te_depthwise_dsp_nhwc_s8 (any multiplier, 4 channels a
 *    word, taps inside only; within the scratch limit below, or beyond it
 *    and where the ring's scratch is too big while below_busiest_op: its
 *    scratch then cannot set the arena); where neither applies (taller
 *    filters, accumulators that may reach 2^29, dilation, scratch over the
 *    limit below) one input channel runs as the CONV_2D it is,
 *    te_conv2d_dsp_s8 (the multiplier as output channels, int8 weights
 *    re-laid out at compile time, its patches on the stack, any
 *    requantization).  No DSP path (the portable kernels below) where
 *    those refuse: more than one input channel with dilation, filters over
 *    7 rows or accumulators that may reach 2^29; one input channel in
 *    place or with patches over 2304 bytes; scratch over the limit where
 *    it could set the arena; patch clones (no scratch) of more channels;
 *  - portable: te_depthwise_conv2d_s8_ring (multiplier 1, rows of 16
 *    pixels or more, 8 pixels at a time), te_depthwise_conv2d_s8_fast (any
 *    multiplier) and _fast_inplace (16 channels at a time);
 *  - x86-64-v3 (constant weights): one input channel as the CONV_2D it is
 *    (te_conv2d_avx2_s8, the multiplier as output channels), multiplier 1
 *    te_depthwise_avx2_s8 (16 channels in AVX2 lanes, its ring of rows on
 *    the stack);
 *  - otherwise (and for patch clones, which have no scratch) the plain
 *    te_depthwise_conv2d_s8(_inplace) or the scratch-free fast kernel.
 * Kernels with scratch are used while it stays under half the tensor they
 * save or write.  Requantization uses te_convfam_fast_requant where exact.
 * Prepare-time values follow TFLite Micro's depthwise_conv_common.cc; the
 * shared helpers live in conv_family.c. */
/* The runtime headers give scratch sizes and limits: declare kernels extern. */
#define TE_KERNEL extern

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_family.h"
#include "conv_family_s16.h"
#include "flash_budget.h"
#include "ir/target.h"
#include "te_common.h"
#include "te_depthwise_avx2.h"
#include "te_depthwise_conv2d.h"

/* The multiplier is out_c / in_c.  TFLite Micro loops over the option's
 * value instead, so an option that disagrees (other than an absent 0)
 * would make it compute something else: refuse it. */
static int check_shapes(te_diag *d, const te_op *op, const te_tensor *in, const te_tensor *w,
                        const te_tensor *out)
{
    const te_options *o = &op->opt;
    int64_t oh, ow;
    int mult;
    if (in->rank != 4 || out->rank != 4)
        return te_op_fail(d, op, "input and output must be 4-D (NHWC), got ranks %d and %d",
                          in->rank, out->rank);
    if (w->shape[0] != 1)
        return te_op_fail(d, op, "weights' first dimension is %d, expected 1", w->shape[0]);
    if (in->shape[3] < 1 || w->shape[3] % in->shape[3] != 0)
        return te_op_fail(d, op, "%d output channels are not a multiple of %d input channels",
                          w->shape[3], in->shape[3]);
    mult = w->shape[3] / in->shape[3];
    if (o->depth_multiplier != 0 && o->depth_multiplier != mult)
        return te_op_fail(d, op, "depth_multiplier option %d disagrees with the shapes (%d -> "
                          "%d channels)", o->depth_multiplier, in->shape[3], w->shape[3]);
    oh = te_convfam_conv_out(o, 0, in->shape[1], w->shape[1]);
    ow = te_convfam_conv_out(o, 1, in->shape[2], w->shape[2]);
    if (oh < 1 || ow < 1)
        return te_op_fail(d, op, "input %dx%d is smaller than the dilated %dx%d filter",
                          in->shape[1], in->shape[2], w->shape[1], w->shape[2]);
    if (out->shape[0] != in->shape[0] || out->shape[1] != oh || out->shape[2] != ow ||
        out->shape[3] != w->shape[3])
        return te_op_fail(d, op, "output shape [%d,%d,%d,%d] does not match the expected "
                          "[%d,%lld,%lld,%d]", out->shape[0], out->shape[1], out->shape[2],
                          out->shape[3], in->shape[0], (long long)oh, (long long)ow,
                          w->shape[3]);
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
    if ((te_convfam_s16(in) ? te_convfam_s16_check_io(d, op, in, out)
                            : te_convfam_check_act_type(d, op, in, "input 0") ||
                                  te_convfam_check_act_type(d, op, out, "output 0")) ||
        te_convfam_check_weights(d, op, w, 4, 3) ||
        (te_convfam_s16(in) ? te_convfam_s16_check_bias(d, op, te_in(g, op, 2), w->shape[3], 0)
                            : te_convfam_check_bias(d, op, te_in(g, op, 2), w->shape[3])) ||
        te_convfam_check_conv_options(d, op, in) ||
        check_shapes(d, op, in, w, out))
        return -1;
    if (te_convfam_s16(in) && te_convfam_s16_check_requant(d, op, in, w, out, w->shape[3], 0))
        return -1;
    return te_convfam_act_range(d, op, op->opt.activation, out, &lo, &hi);
}

static int64_t macs(const te_graph *g, const te_op *op)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    return te_tensor_elems(out) * w->shape[1] * w->shape[2];
}

/* With depth multiplier 1 output channel c reads only input channel c, so
 * the in-place kernels save the input rows (or one channel plane) they
 * still need in scratch before overwriting them. */
static int inplace_input(const te_graph *g, const te_op *op)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    if (in->type != TE_DT_INT8 || out->type != TE_DT_INT8 || in->rank != 4 || w->rank != 4 ||
        out->rank != 4 || w->shape[3] != in->shape[3] || out->shape[3] != in->shape[3] ||
        out->shape[0] != in->shape[0])
        return -1;
    return 0;
}

/* ---- variant choice ---------------------------------------------------- */

typedef enum {
    DW_REF,          /* te_depthwise_conv2d_s8 */
    DW_REF_INPLACE,  /* te_depthwise_conv2d_s8_inplace: one channel plane in scratch */
    DW_FAST,         /* te_depthwise_conv2d_s8_fast */
    DW_FAST_INPLACE, /* te_depthwise_conv2d_s8_fast_inplace: input rows in scratch */
    DW_RING,         /* te_depthwise_conv2d_s8_ring, in place or not: int16 rows in scratch */
    DW_DSP,          /* te_depthwise_dsp_s8_k<K>s<S>, in place or not: ring in scratch */
    DW_DSP_NHWC,     /* te_depthwise_dsp_nhwc_s8, in place or not: input rows in scratch */
    DW_AVX2,         /* te_depthwise_avx2_s8, in place or not: ring on the stack */
    DW_AVX2_CONV,    /* te_conv2d_avx2_s8: one input channel, as a convolution */
    DW_S16,          /* te_depthwise_conv2d_s16: the int16x8 form (conv_family_s16.c) */
    DW_DSP_CONV      /* te_conv2d_dsp_s8: one input channel, as a convolution */
} dw_kind;

typedef struct {
    int batches, in_h, in_w, in_c, out_h, out_w, mult;
    int k_h, k_w, s_h, s_w, d_h, d_w, pad_top, pad_left;
    int inplace;
    dw_kind kind;
    int ring_w;      /* DW_DSP: 32-bit words per ring row (one channel) */
    int ring_h, band;/* DW_DSP: ring rows, output rows per band */
    int blocks;      /* DW_DSP: constants blocks (4, or 1 for small layers) */
    int cols;        /* DW_DSP: column mode (lines are columns, one band) */
    size_t scratch;  /* bytes */
} dw_plan;

/* The shapes; inplace: the planner's decision that output 0 overwrites
 * input 0 (te_lowering.inplace_input). */
static void geometry(const te_graph *g, const te_op *op, int inplace, dw_plan *p)
{
    const te_options *o = &op->opt;
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    memset(p, 0, sizeof *p);
    p->batches = in->shape[0];
    p->in_h = in->shape[1];
    p->in_w = in->shape[2];
    p->in_c = in->shape[3];
    p->out_h = out->shape[1];
    p->out_w = out->shape[2];
    p->mult = w->shape[3] / in->shape[3];
    p->k_h = w->shape[1];
    p->k_w = w->shape[2];
    p->s_h = o->stride_h;
    p->s_w = o->stride_w;
    p->d_h = o->dilation_h;
    p->d_w = o->dilation_w;
    p->pad_top = (int)te_convfam_conv_pad(o, 0, in->shape[1], w->shape[1], out->shape[1]);
    p->pad_left = (int)te_convfam_conv_pad(o, 1, in->shape[2], w->shape[2], out->shape[2]);
    p->inplace = inplace;
}

/* Largest |x - zero_point| of an int8 input. */
static int64_t max_input_magnitude(const te_tensor *in)
{
    int64_t zp = in->q.zero_point[0];
    int64_t a = -128 - zp, b = 127 - zp;
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    return a > b ? a : b;
}

static int32_t read_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/* Bound on |accumulator| of output channel c (multiplier 1): |bias| plus
 * sum |w| * max |x - zp|; "unbounded" when weights or bias are not
 * constant. */
static int64_t acc_bound(const te_graph *g, const te_op *op, int c)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
    const int channels = w->shape[3];
    int64_t sum = 0, bias = 0;
    long t, taps = (long)w->shape[1] * w->shape[2];
    if (!w->data || (b && !b->data))
        return INT64_MAX / 4;
    for (t = 0; t < taps; t++) {
        int v = (int8_t)w->data[t * channels + c];
        sum += v < 0 ? -v : v;
    }
    if (b)
        bias = read_i32(b->data + 4 * (size_t)c);
    return (bias < 0 ? -bias : bias) + sum * max_input_magnitude(in);
}

/* Every output row is written only over input rows the kernel has already
 * saved, given that rows up to oy * s - pad_top + span - 1 are saved before
 * output row oy is written. */
static int inplace_safe(const dw_plan *p, int span)
{
    int oy;
    if ((int64_t)p->out_h * p->out_w > (int64_t)p->in_h * p->in_w)
        return 0;
    for (oy = 0; oy < p->out_h; oy++) {
        int64_t saved = (int64_t)oy * p->s_h - p->pad_top + span;
        saved = saved < p->in_h ? saved : p->in_h;
        if ((int64_t)(oy + 1) * p->out_w > saved * p->in_w)
            return 0;
    }
    return 1;
}

/* Not an op of the graph but a patch clone, which gets no scratch. */
static int is_clone(const te_graph *g, const te_op *op)
{
    return op < g->ops || op >= g->ops + g->n_ops;
}

/* The DSP kernels need constant weights, accumulators below 2^29 (for
 * the doubled sums), scratch (a patch clone has none), no dilation and at
 * most 7 filter rows. */
static int dsp_eligible(const te_graph *g, const te_op *op, const dw_plan *p)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    int c;
    if (!te_target_has_dsp(g->target) || p->k_h > 7 || p->d_h != 1 || p->d_w != 1 || !w->data)
        return 0;
    if (!p->inplace && is_clone(g, op))
        return 0;
    for (c = 0; c < p->in_c * p->mult; c++)
        if (acc_bound(g, op, c) > ((int64_t)1 << 29))
            return 0;
    return 1;
}

/* Fraction of the filter taps inside the image, over all output pixels. */
static double inside_fraction(const dw_plan *p)
{
    int64_t rows = 0, cols = 0;
    int o, t;
    for (o = 0; o < p->out_h; o++)
        for (t = 0; t < p->k_h; t++)
            rows += o * p->s_h - p->pad_top + t >= 0 && o * p->s_h - p->pad_top + t < p->in_h;
    for (o = 0; o < p->out_w; o++)
        for (t = 0; t < p->k_w; t++)
            cols += o * p->s_w - p->pad_left + t >= 0 && o * p->s_w - p->pad_left + t < p->in_w;
    return (double)rows * (double)cols / ((double)p->out_h * p->k_h * p->out_w * p->k_w);
}

/* The ring kernels (multiplier 1, square 3x3/5x5/7x7, stride 1 or 2)
 * compute every padded tap: on images hardly larger than the filter, where
 * most taps are padding, the channels-last kernel is cheaper. */
static int ring_suits(const dw_plan *p)
{
    return p->mult == 1 && p->k_h == p->k_w && (p->k_h == 3 || p->k_h == 5 || p->k_h == 7) &&
           p->s_h == p->s_w && (p->s_h == 1 || p->s_h == 2) && inside_fraction(p) >= 0.35;
}

/* Words per ring row: the stored pixels [0, pad + len) of a line in pairs,
 * and every word the pixel groups read (see te_depthwise_dsp.c): pixel ox
 * reads words from ox * s / 2 on (nw of them, and one more for stride 1
 * quads), up to pixel olen - 1.  Lines are rows (columns in column mode). */
static int dsp_ring_w(const dw_plan *p, int pad, int len, int olen)
{
    int nw = (p->k_h + 1) / 2, last = olen - 1;
    int store = (pad + len + 1) / 2;
    int read = p->s_w == 1 ? last / 2 + nw + 1 : last + nw;
    return store > read ? store : read;
}

/* Rough instructions per channel of the ring kernels' assembly for olines
 * lines of olen pixels: per line a fixed part, quads of pixels, the tail. */
static double dsp_line_cost(const dw_plan *p, int olines, int olen)
{
    double quad = p->k_h == 3 ? 63 : p->k_h == 5 ? 110 : 170;
    double tail = (olen % 4 >= 2 ? 0.6 * quad : 0) + (olen % 2 ? 0.4 * quad : 0);
    return (double)olines * (40 + (olen / 4) * quad + tail);
}

/* DSP scratch: the ring of 4 channels with as many output rows per band
 * (fewer, longer passes over each channel; all of them when the padded
 * input fits) as fit in a quarter of the input (at least 1 KB from 8 KB of
 * input on, at most 2 KB), at least one; the table of row pointers; the
 * constants blocks, one per channel of the group unless that would be more
 * than a quarter of the input (then one, remade per channel and band; 3x3
 * always has 4).  Column mode (the whole plane of the group's columns, one
 * band) when its long lines are cheaper and it fits that budget: narrow
 * images. */
static void dsp_ring(dw_plan *p)
{
    int64_t row_bytes = (int64_t)16 * dsp_ring_w(p, p->pad_left, p->in_w, p->out_w);
    int64_t col_bytes = (int64_t)16 * dsp_ring_w(p, p->pad_top, p->in_h, p->out_h);
    int64_t in_bytes = (int64_t)p->batches * p->in_h * p->in_w * p->in_c;
    int64_t budget = in_bytes / 4, block = (int64_t)(p->k_h * (p->k_h + 1) + 15) * 4;
    int band = p->out_h;
    budget = budget > 1024 || in_bytes < 8192 ? budget : 1024;
    budget = budget < 2048 ? budget : 2048;
    p->cols = dsp_line_cost(p, p->out_w, p->out_h) < 0.97 * dsp_line_cost(p, p->out_h, p->out_w) &&
              ((int64_t)(p->out_w - 1) * p->s_w + p->k_w) * col_bytes <= budget;
    if (p->cols) {
        band = p->out_w;
        row_bytes = col_bytes;
    }
    while (band > 1 && ((int64_t)(band - 1) * p->s_h + p->k_h) * row_bytes > budget)
        band--;
    p->ring_w = (int)(row_bytes / 16);
    p->band = band;
    p->ring_h = (band - 1) * p->s_h + p->k_h;
    p->blocks = p->k_h == 3 || 4 * block <= in_bytes / 4 ? 4 : 1;
    /* row pointers: room for 8-byte pointers, the DSP kernels also run on
     * hosts (te_depthwise_dsp.c) */
    p->scratch = (size_t)(p->ring_h * row_bytes) + (size_t)band * (size_t)p->k_h * 8 +
                 (size_t)p->blocks * (size_t)block;
}

/* The shape fields of the portable kernels' params, for their
 * scratch-size functions (the registry's BUFFER_SIZE, runtime/te_depthwise_conv2d.h). */
static te_depthwise_conv2d_params portable_shape(const dw_plan *p)
{
    te_depthwise_conv2d_params rp;
    memset(&rp, 0, sizeof rp);
    rp.batches = p->batches;
    rp.in_h = p->in_h;
    rp.in_w = p->in_w;
    rp.in_c = p->in_c;
    rp.out_h = p->out_h;
    rp.out_w = p->out_w;
    rp.depth_mult = p->mult;
    rp.k_h = p->k_h;
    rp.k_w = p->k_w;
    rp.stride_h = p->s_h;
    rp.stride_w = p->s_w;
    rp.dil_h = p->d_h;
    rp.dil_w = p->d_w;
    rp.pad_top = p->pad_top;
    rp.pad_left = p->pad_left;
    return rp;
}

/* A kernel's scratch is worth it up to half the output (or, in place, half
 * the tensor): tiny layers keep the kernels without (or with less). */
static size_t dsp_scratch_limit(const te_graph *g, const te_op *op, const dw_plan *p)
{
    const te_tensor *t = &g->tensors[p->inplace ? op->in[0] : op->out[0]];
    return te_tensor_bytes(t) / 2;
}

/* Ring columns of te_depthwise_avx2_s8 (runtime/te_depthwise_avx2.h). */
static int64_t avx2_cols(const dw_plan *p)
{
    int64_t right = (int64_t)(p->out_w - 1) * p->s_w + (int64_t)(p->k_w - 1) * p->d_w + 1;
    return p->pad_left + p->in_w > right ? p->pad_left + p->in_w : right;
}


/* te_depthwise_avx2_s8's conditions: constant weights and bias, multiplier
 * 1, at most 16 filter rows, its ring within the stack buffer. */
static int avx2_eligible(const te_graph *g, const te_op *op, const dw_plan *p, int span)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
    return te_target_has_avx2(g->target) && p->mult == 1 && p->k_h <= 16 && w->data &&
           (!b || b->data) && TE_DEPTHWISE_AVX2_RING_BYTES((int64_t)span, avx2_cols(p)) <= TE_DEPTHWISE_AVX2_RING &&
           (!p->inplace || inplace_safe(p, span));
}

/* One input channel, not in place, constant weights and bias, the patch
 * within te_conv2d_avx2_s8's (TE_CONV2D_AVX2_KMAX): that convolution. */
static int avx2_conv_eligible(const te_graph *g, const te_op *op, const dw_plan *p)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
    return te_target_has_avx2(g->target) && p->in_c == 1 && !p->inplace && w->data &&
           (!b || b->data) && p->k_h * p->k_w <= 2048;
}

/* Bytes of the non-constant tensors op reads and writes (views and
 * aliases not told apart: an upper bound of what it needs at once). */
static int64_t op_live_bytes(const te_graph *g, const te_op *op)
{
    int64_t sum = 0;
    int i;
    for (i = 0; i < op->n_in; i++)
        if (op->in[i] >= 0 && !g->tensors[op->in[i]].data)
            sum += (int64_t)te_tensor_bytes(&g->tensors[op->in[i]]);
    for (i = 0; i < op->n_out; i++)
        if (op->out[i] >= 0)
            sum += (int64_t)te_tensor_bytes(&g->tensors[op->out[i]]);
    return sum;
}

/* This op's tensors and its scratch p->scratch need less than the tensors
 * of the graph's busiest operator (other than views): a lower bound of
 * any arena, so the scratch hardly ever raises it (checked on every shared
 * model).  The ring's fallback asks this: a scratch the kernels before it
 * did not take must not cost arena. */
static int below_busiest_op(const te_graph *g, const te_op *op, const dw_plan *p)
{
    const te_tensor *in = &g->tensors[op->in[0]], *out = &g->tensors[op->out[0]];
    int64_t own = (int64_t)te_tensor_bytes(out) + (int64_t)p->scratch, most = 0;
    int i;
    if (!p->inplace)
        own += (int64_t)te_tensor_bytes(in);
    for (i = 0; i < g->n_ops; i++) {
        const te_op_def *def = te_op_lookup(g->ops[i].opcode);
        if (!g->ops[i].dead && &g->ops[i] != op && (!def || !def->alias_output)) {
            int64_t b = op_live_bytes(g, &g->ops[i]);
            most = b > most ? b : most;
        }
    }
    return own <= most;
}

/* te_conv2d_dsp_s8's patch bytes (te_conv2d_dsp_s8_get_buffer_size) for a
 * patch of k taps: on its stack buffer, at most TE_CONV2D_DSP_STACK
 * (2304) bytes, so the arena gets no scratch. */
static int64_t dsp_conv_patch_bytes(const dw_plan *p)
{
    return 5 * (int64_t)te_convfam_gemm_k_pad(p->k_h * p->k_w, 1) + 4;
}

/* One input channel on a DSP target, not in place (te_conv2d_dsp_s8's
 * input and output must not overlap), constant weights and bias, the
 * patches on the kernel's stack buffer: that convolution (any filter,
 * stride, dilation and requantization). */
static int dsp_conv_eligible(const te_graph *g, const te_op *op, const dw_plan *p)
{
    const te_tensor *w = &g->tensors[op->in[1]];
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? &g->tensors[op->in[2]] : NULL;
    return te_target_has_dsp(g->target) && p->in_c == 1 && !p->inplace && w->data &&
           (!b || b->data) && dsp_conv_patch_bytes(p) <= 2304;
}

static void choose(const te_graph *g, const te_op *op, int inplace, dw_plan *p)
{
    te_depthwise_conv2d_params rp;
    int span;
    geometry(g, op, inplace, p);
    rp = portable_shape(p);
    span = (p->k_h - 1) * p->d_h + 1;
    if (avx2_conv_eligible(g, op, p)) {
        p->kind = DW_AVX2_CONV;
        return;
    }
    if (avx2_eligible(g, op, p, span)) {
        p->kind = DW_AVX2;
        return;
    }
    if (dsp_eligible(g, op, p) && (!p->inplace || inplace_safe(p, p->k_h))) {
        if (ring_suits(p)) {
            p->kind = DW_DSP;
            dsp_ring(p);
            if (p->scratch <= dsp_scratch_limit(g, op, p))
                return;
        }
        /* the channels-last kernel (it needs only the filter's rows of one
         * group of channels): within the limit, or where its scratch cannot
         * be what sets the arena; where the ring's was too big only then */
        p->kind = DW_DSP_NHWC;
        p->scratch = (size_t)8 * (size_t)p->k_h * ((size_t)p->in_w + (size_t)p->k_w);
        if (below_busiest_op(g, op, p) ||
            (p->scratch <= dsp_scratch_limit(g, op, p) && !ring_suits(p)))
            return;
        p->scratch = 0;
    }
    if (dsp_conv_eligible(g, op, p)) {
        p->kind = DW_DSP_CONV;
        return;
    }
    /* portable: rows of 16 pixels or more go 8 pixels at a time (the ring
     * kernel), others 16 channels at a time (the fast kernels) */
    if (p->mult == 1 && p->k_h <= 16 && p->k_w <= 16 && p->s_w <= 2 && p->out_w >= 16 &&
        !is_clone(g, op) && (!p->inplace || inplace_safe(p, span))) {
        p->kind = DW_RING;
        p->scratch = (size_t)te_depthwise_conv2d_ring_bytes(&rp);
        if (p->scratch <= dsp_scratch_limit(g, op, p))
            return;
    }
    p->scratch = 0;
    if (p->k_h <= 16 && !p->inplace) {
        p->kind = DW_FAST;
    } else if (p->mult == 1 && p->k_h <= 16 && inplace_safe(p, span) &&
               (size_t)te_depthwise_conv2d_s8_fast_inplace_get_buffer_size(&rp) <=
                   dsp_scratch_limit(g, op, p) / 2) {
        /* rows of 16 channels, while a quarter of the tensor at most (else
         * the one plane of the plain kernel is less memory) */
        p->kind = DW_FAST_INPLACE;
        p->scratch = (size_t)te_depthwise_conv2d_s8_fast_inplace_get_buffer_size(&rp);
    } else if (p->inplace) {
        p->kind = DW_REF_INPLACE;
        p->scratch = (size_t)te_depthwise_conv2d_s8_inplace_get_buffer_size(&rp);
    } else {
        p->kind = DW_REF;
    }
}

/* The AVX2 depthwise entry for p's filter: a square 3x3, 5x5 or 7x7
 * without horizontal dilation has its own (only its loop is pasted). */
static te_kernel_id avx2_dw_kernel(const dw_plan *p)
{
    const int k = p->d_w == 1 && p->k_h == p->k_w ? p->k_h : 0;
    return k == 3   ? TE_K_DEPTHWISE_AVX2_S8_3X3
           : k == 5 ? TE_K_DEPTHWISE_AVX2_S8_5X5
           : k == 7 ? TE_K_DEPTHWISE_AVX2_S8_7X7
                    : TE_K_DEPTHWISE_AVX2_S8;
}

static te_kernel_id kind_kernel(const dw_plan *p)
{
    static const te_kernel_id kernels[] = {
        TE_K_DEPTHWISE_CONV2D_S8, TE_K_DEPTHWISE_CONV2D_S8_INPLACE, TE_K_DEPTHWISE_CONV2D_S8_FAST,
        TE_K_DEPTHWISE_CONV2D_S8_FAST_INPLACE, TE_K_DEPTHWISE_CONV2D_S8_RING};
    static const te_kernel_id dsp[3][2] = {
        {TE_K_DEPTHWISE_DSP_S8_K3S1, TE_K_DEPTHWISE_DSP_S8_K3S2},
        {TE_K_DEPTHWISE_DSP_S8_K5S1, TE_K_DEPTHWISE_DSP_S8_K5S2},
        {TE_K_DEPTHWISE_DSP_S8_K7S1, TE_K_DEPTHWISE_DSP_S8_K7S2}};
    if (p->kind == DW_DSP)
        return dsp[(p->k_h - 3) / 2][p->s_h - 1];
    if (p->kind == DW_DSP_NHWC)
        return TE_K_DEPTHWISE_DSP_NHWC_S8;
    if (p->kind == DW_AVX2)
        return avx2_dw_kernel(p);
    if (p->kind == DW_AVX2_CONV)
        return TE_K_CONV2D_AVX2_S8;
    if (p->kind == DW_DSP_CONV)
        return TE_K_CONV2D_DSP_S8;
    return kernels[p->kind];
}

/* The kernel (variant: its dw_kind), its scratch, and the DSP column mode
 * (its own cost-model row), chosen once for the plan's in-place decision. */
static void lower(const te_graph *g, const te_op *op, const te_lower_opts *o, te_lowering *l)
{
    dw_plan p;
    (void)o;
    if (te_convfam_s16(&g->tensors[op->in[0]])) {
        l->variant = DW_S16;
        l->kernel = te_convfam_s16_window_kernel(g, op, 1);
        return;
    }
    choose(g, op, l->inplace_input == 0, &p);
    l->variant = (int)p.kind;
    l->kernel = kind_kernel(&p);
    l->scratch_bytes = p.scratch;
    if (op->n_in > 1 && op->in[1] >= 0 && p.kind == DW_DSP && p.cols)
        l->cost.row = "cols";
    if (p.kind == DW_DSP_CONV) /* the patches on the kernel's stack buffer */
        l->stack_buffer = (size_t)dsp_conv_patch_bytes(&p);
}

/* The plan lowering chose (the kernel's layout follows from the shapes). */
static void recorded_plan(const te_graph *g, const te_op *op, const te_lowering *l, dw_plan *p)
{
    geometry(g, op, l->inplace_input == 0, p);
    p->kind = (dw_kind)l->variant;
    if (p->kind == DW_DSP)
        dsp_ring(p);
    p->scratch = l->scratch_bytes;
}

/* ---- emission ------------------------------------------------------------ */

/* Per channel {mult, H, e} or {mult, shift, 0} (te_convfam_fast_requant). */
static te_name emit_rq(te_emit *e, const te_op *op, int channels)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    int32_t *rq = malloc(sizeof(int32_t) * 3 * (size_t)channels);
    te_name n;
    int c;
    if (!rq) {
        te_fail(e->diag, "out of memory");
        n.s[0] = 0;
        return n;
    }
    for (c = 0; c < channels; c++) {
        int32_t m;
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, 0, &m, &sh);
        te_convfam_fast_requant(m, sh, (int32_t)out->q.zero_point[0], acc_bound(g, op, c),
                                rq + 3 * c);
    }
    n = te_emit_const_i32(e, rq, 3 * (size_t)channels, "requant");
    free(rq);
    return n;
}

/* The ring kernels' packed entries (runtime/armv7em/te_depthwise_dsp.h):
 * two int32 per channel instead of three, the exact form's shift offset by
 * TE_DEPTHWISE_DSP_RQ_EXACT (unit.dw_fast runs the kernels on entries
 * packed alike). */
#define TE_DEPTHWISE_DSP_RQ_EXACT (1 << 24)
static te_name emit_rq_ring(te_emit *e, const te_op *op, int channels)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const int32_t zp = (int32_t)out->q.zero_point[0];
    int32_t *rq = malloc(sizeof(int32_t) * 2 * (size_t)channels);
    te_name n;
    int c;
    if (!rq) {
        te_fail(e->diag, "out of memory");
        n.s[0] = 0;
        return n;
    }
    for (c = 0; c < channels; c++) {
        int32_t m, entry[3];
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, 0, &m, &sh);
        rq[2 * c] = entry[0] = m;
        if (te_convfam_fast_requant(m, sh, zp, acc_bound(g, op, c), entry) &&
            entry[1] == (int32_t)((uint32_t)(2 * zp + 1) << (entry[2] - 1))) {
            rq[2 * c + 1] = entry[2];
        } else if (!entry[2] && entry[1] > -(1 << 20) && entry[1] < (1 << 20)) {
            rq[2 * c + 1] = entry[1] - TE_DEPTHWISE_DSP_RQ_EXACT;
        } else {
            free(rq);
            te_fail(e->diag, "depthwise: requantization entry not packable");
            n.s[0] = 0;
            return n;
        }
    }
    n = te_emit_const_i32(e, rq, 2 * (size_t)channels, "requant");
    free(rq);
    return n;
}

/* The bias tensor, or zeros. */
static te_name emit_bias(te_emit *e, const te_op *op, int channels)
{
    te_graph *g = e->g;
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? te_in(g, op, 2) : NULL;
    int32_t *v;
    te_name n;
    if (b)
        return te_emit_tensor(e, b->id);
    v = calloc((size_t)channels, sizeof *v);
    if (!v) {
        te_fail(e->diag, "out of memory");
        n.s[0] = 0;
        return n;
    }
    n = te_emit_const_i32(e, v, (size_t)channels, "bias0");
    free(v);
    return n;
}

/* TE_DEPTHWISE_DSP_SAT (1), CLAMP (2) or SLOW (0), see te_depthwise_dsp.h. */
static int dsp_mode(const te_graph *g, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi)
{
    const te_tensor *in = &g->tensors[op->in[0]], *w = &g->tensors[op->in[1]];
    const te_tensor *out = &g->tensors[op->out[0]];
    int c;
    for (c = 0; c < p->in_c * p->mult; c++) {
        int32_t m, entry[3];
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, 0, &m, &sh);
        if (!te_convfam_fast_requant(m, sh, (int32_t)out->q.zero_point[0], acc_bound(g, op, c),
                                     entry))
            return 0;
    }
    return lo == -128 && hi == 127 ? 1 : 2;
}

/* The DSP kernels' _inl forms specialise each call on its constants when
 * the compiler optimises; at -O0 nothing is specialised and every inlined
 * copy would keep a frame of its own, so the plain kernel is called
 * instead.  Both names are written in the call: the runtime pasted is what
 * the code names (runtime_select).  Each specialised call is a function of
 * its own (noinline), not code in NAME_invoke: inlined into the invoke, the
 * copies shared one register allocation with every other layer, and where
 * its values were spilled moved with unrelated changes elsewhere
 * (tinyengine_vww ran 0.1% more instructions than with the same kernels a
 * month earlier; in functions of their own its layers run 0.5% fewer).
 * The copies cost flash: only for the layers that fit the flash budget
 * (its first trade, flash_budget.h); the others call the plain kernel. */
static void emit_dsp_call(te_emit *e, const te_op *op, te_kernel_id kernel, const char *prm,
                          const char *x, const char *y, const char *wt, const char *b,
                          const char *rq, const char *scratch)
{
    const char *plain = te_kernel_name(kernel); /* its always-inline form: plain + "_inl" */
    te_name call;
    if (!te_flash_dw_inline(e->g, op)) {
        te_emit_call(e, plain, prm, x, y, wt, b, rq, scratch);
        return;
    }
    te_emit_once(e, "TE_DEPTHWISE_DSP_CALL",
                 "/* depthwise DSP kernels: specialised at their call when optimising, each\n"
                 " * call in a function of its own */\n"
                 "#if defined(__OPTIMIZE__)\n#define TE_DEPTHWISE_DSP_CALL(inl, plain) inl\n"
                 "#else\n#define TE_DEPTHWISE_DSP_CALL(inl, plain) plain\n#endif\n"
                 "#if defined(__GNUC__)\n"
                 "#define TE_DEPTHWISE_DSP_LAYER static __attribute__((noinline))\n"
                 "#else\n#define TE_DEPTHWISE_DSP_LAYER static\n#endif\n");
    call = te_expr("TE_DEPTHWISE_DSP_CALL(%s_inl, %s)", plain, plain);
    te_emit_outlined_call(e, "TE_DEPTHWISE_DSP_LAYER", te_emit_op_base(e, "depthwise").s, call.s,
                          prm, x, y, wt, b, rq, scratch);
}

static int emit_dsp(te_emit *e, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    te_name wt, b, rq = emit_rq_ring(e, op, p->in_c), x, y, ring, prm;
    if (!rq.s[0])
        return -1;
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    ring = te_emit_scratch(e, "uint32_t");
    te_emit_kernel(e, kind_kernel(p));
    te_params_begin(e, "te_depthwise_dsp_params");
    te_params_int(e, "batches", p->batches);
    te_params_int(e, "in_h", p->in_h);
    te_params_int(e, "in_w", p->in_w);
    te_params_int(e, "c", p->in_c);
    te_params_int(e, "out_h", p->out_h);
    te_params_int(e, "out_w", p->out_w);
    te_params_int(e, "pad_top", p->pad_top);
    te_params_int(e, "pad_left", p->pad_left);
    te_params_int(e, "ring_h", p->ring_h);
    te_params_int(e, "ring_w", p->ring_w);
    te_params_int(e, "band", p->band);
    te_params_int(e, "blocks", p->blocks);
    te_params_int(e, "mode", dsp_mode(g, op, p, lo, hi));
    te_params_int(e, "cols", p->cols);
    te_params_int(e, "input_offset", -in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    prm = te_params_end(e);
    emit_dsp_call(e, op, kind_kernel(p), prm.s, p->inplace ? y.s : x.s, y.s, wt.s, b.s, rq.s,
                  ring.s);
    return 0;
}

static int emit_dsp_nhwc(te_emit *e, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    te_name wt, b, rq = emit_rq(e, op, p->in_c * p->mult), x, y, sc, prm;
    if (!rq.s[0])
        return -1;
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    x = te_emit_tensor(e, in->id);
    y = te_emit_tensor(e, out->id);
    sc = te_emit_scratch(e, "uint32_t");
    te_emit_kernel(e, TE_K_DEPTHWISE_DSP_NHWC_S8);
    te_params_begin(e, "te_depthwise_dsp_nhwc_params");
    te_params_int(e, "batches", p->batches);
    te_params_int(e, "in_h", p->in_h);
    te_params_int(e, "in_w", p->in_w);
    te_params_int(e, "c", p->in_c);
    te_params_int(e, "out_h", p->out_h);
    te_params_int(e, "out_w", p->out_w);
    te_params_int(e, "depth_mult", p->mult);
    te_params_int(e, "k_h", p->k_h);
    te_params_int(e, "k_w", p->k_w);
    te_params_int(e, "stride_h", p->s_h);
    te_params_int(e, "stride_w", p->s_w);
    te_params_int(e, "pad_top", p->pad_top);
    te_params_int(e, "pad_left", p->pad_left);
    te_params_int(e, "mode", dsp_mode(g, op, p, lo, hi));
    te_params_int(e, "input_offset", -in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    prm = te_params_end(e);
    emit_dsp_call(e, op, TE_K_DEPTHWISE_DSP_NHWC_S8, prm.s, p->inplace ? y.s : x.s, y.s, wt.s,
                  b.s, rq.s, sc.s);
    return 0;
}

/* te_depthwise_avx2_s8's constants: per output channel (filter [taps][c]
 * read as [c][taps]) the GEMM preparation (input offset in the bias, fast
 * entries), then its block layouts of int8 weights (te_depthwise_avx2.h);
 * the requantization blocks padded to whole blocks of 16 channels.  For
 * DW_AVX2_CONV (one input channel: the [c][taps] filter is a CONV_2D's) the
 * layouts of te_conv2d_avx2_s8 instead. */
static int avx2_consts(te_emit *e, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi,
                       te_name *wt, te_name *qr, int *fast)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? te_in(g, op, 2) : NULL;
    const int c = p->in_c * p->mult, taps = p->k_h * p->k_w;
    const int kp = (taps + 7) / 8 * 8, b16 = (c + 15) / 16;
    const int8_t *wd = (const int8_t *)w->data;
    te_convfam_gemm_spec spec;
    int8_t *wc = malloc((size_t)c * (size_t)taps);
    int16_t *w16 = malloc(sizeof(int16_t) * (size_t)(c + 3) / 4 * 4 * (size_t)kp);
    int8_t *wa = malloc((size_t)b16 * 16 * (size_t)kp);
    int8_t *wo = calloc((size_t)b16 * (size_t)taps * 16, 1);
    int32_t *q = malloc(sizeof(int32_t) * (size_t)(c + 3) / 4 * 16);
    int32_t *qa = calloc((size_t)b16 * 64, sizeof(int32_t));
    int32_t *ms = malloc(sizeof(int32_t) * (size_t)c * 2);
    int rc = -1, ch, t;
    if (!wc || !w16 || !wa || !wo || !q || !qa || !ms) {
        te_fail(e->diag, "out of memory");
        goto out;
    }
    for (ch = 0; ch < c; ch++) {
        int sh;
        te_convfam_channel_multiplier(in, w, out, ch, 0, &ms[ch], &sh);
        ms[c + ch] = sh;
        for (t = 0; t < taps; t++)
            wc[(long)ch * taps + t] = wd[(long)t * c + ch];
    }
    memset(&spec, 0, sizeof spec);
    spec.out_c = c;
    spec.k = taps;
    spec.k_pad = kp;
    spec.input_zp = (int32_t)in->q.zero_point[0];
    spec.output_zp = (int32_t)out->q.zero_point[0];
    spec.act_min = lo;
    spec.act_max = hi;
    *fast = te_convfam_gemm_prepare(&spec, wc, b ? (const int32_t *)b->data : NULL, ms, ms + c,
                                    w16, q);
    te_convfam_gemm_avx2_layout(c, kp, *fast, w16, q, wa, qa);
    if (p->kind == DW_AVX2_CONV) {
        *wt = te_emit_const_i8(e, wa, (size_t)(c + 7) / 8 * 8 * (size_t)kp, "weights_packed");
        *qr = te_emit_const_i32(e, qa, (size_t)(c + 7) / 8 * 32, "requant");
        rc = 0;
        goto out;
    }
    te_convfam_dw_avx2_layout(c, taps, kp, *fast, w16, wo);
    *wt = te_emit_const_i8(e, wo, (size_t)b16 * (size_t)taps * 16, "weights_packed");
    *qr = te_emit_const_i32(e, qa, (size_t)b16 * 64, "requant");
    rc = 0;
out:
    free(wc);
    free(w16);
    free(wa);
    free(wo);
    free(q);
    free(qa);
    free(ms);
    return rc;
}

/* te_depthwise_avx2_s8(p, in, w, qr, out) (or its entry for p's filter,
 * avx2_dw_kernel), in and out the same in place;
 * DW_AVX2_CONV: te_conv2d_avx2_s8(p, in, w, qr, out), one input channel,
 * the multiplier's outputs as the convolution's output channels. */
static int emit_avx2(te_emit *e, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    const int conv = p->kind == DW_AVX2_CONV;
    const te_kernel_id kernel = conv ? TE_K_CONV2D_AVX2_S8 : avx2_dw_kernel(p);
    te_name wt, qr, x, y, prm;
    int fast;
    if (avx2_consts(e, op, p, lo, hi, &wt, &qr, &fast))
        return -1;
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, kernel);
    te_params_begin(e, te_kernel_get(kernel)->params);
    te_params_int(e, "batches", p->batches);
    te_params_int(e, "in_h", p->in_h);
    te_params_int(e, "in_w", p->in_w);
    te_params_int(e, "in_c", p->in_c);
    te_params_int(e, "out_h", p->out_h);
    te_params_int(e, "out_w", p->out_w);
    if (conv) {
        te_params_int(e, "out_c", p->mult);
        te_params_int(e, "k_pad", (p->k_h * p->k_w + 7) / 8 * 8);
    } else {
        te_params_int(e, "cols", (long long)avx2_cols(p));
    }
    te_params_int(e, "k_h", p->k_h);
    te_params_int(e, "k_w", p->k_w);
    te_params_int(e, "stride_h", p->s_h);
    te_params_int(e, "stride_w", p->s_w);
    te_params_int(e, "dil_h", p->d_h);
    te_params_int(e, "dil_w", p->d_w);
    te_params_int(e, "pad_top", p->pad_top);
    te_params_int(e, "pad_left", p->pad_left);
    te_params_int(e, "input_zp", in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    te_params_int(e, "fast_rq", fast);
    prm = te_params_end(e);
    te_emit_call(e, te_kernel_name(kernel), prm.s, p->inplace ? y.s : x.s, wt.s, qr.s, y.s);
    return 0;
}

/* te_conv2d_dsp_s8's constants for one input channel (DW_DSP_CONV): the
 * filter read as [mult][taps] is the convolution's [out_c][k]; its int8
 * words and requantization records as op_conv2d.c makes them
 * (te_convfam_gemm_prepare, te_convfam_dsp_s8_layout/_requant). */
static int dsp_conv_consts(te_emit *e, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi,
                           te_name *wt, te_name *qr, int *fast)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    const te_tensor *b = op->n_in > 2 && op->in[2] >= 0 ? te_in(g, op, 2) : NULL;
    const int oc = p->mult, k = p->k_h * p->k_w, kp = te_convfam_gemm_k_pad(k, 1);
    const int n = (oc + 3) / 4 * 4;
    const size_t nwords = (size_t)(oc + 1) / 2 * (size_t)kp / 2;
    te_convfam_gemm_spec spec;
    int8_t *rows = malloc((size_t)oc * (size_t)k);
    int16_t *w16 = malloc(sizeof(int16_t) * (size_t)n * (size_t)kp);
    int32_t *words = malloc(sizeof(int32_t) * nwords);
    int32_t *q = malloc(sizeof(int32_t) * (size_t)n * 4);
    int32_t *ms = malloc(sizeof(int32_t) * (size_t)oc * 2);
    int32_t *q8 = malloc(sizeof(int32_t) * (size_t)(oc + 1) / 2 * 8);
    int rc = -1, c;
    if (!rows || !w16 || !words || !q || !ms || !q8) {
        te_fail(e->diag, "out of memory");
        goto out;
    }
    for (c = 0; c < oc; c++) {
        int sh;
        te_convfam_channel_multiplier(in, w, out, c, 0, &ms[c], &sh);
        ms[oc + c] = sh;
    }
    te_convfam_dw_filter_rows(k, oc, (const int8_t *)w->data, rows);
    memset(&spec, 0, sizeof spec);
    spec.out_c = oc;
    spec.k = k;
    spec.k_pad = kp;
    spec.dsp = 1;
    spec.input_zp = (int32_t)in->q.zero_point[0];
    spec.output_zp = (int32_t)out->q.zero_point[0];
    spec.act_min = lo;
    spec.act_max = hi;
    *fast = te_convfam_gemm_prepare(&spec, rows, b ? (const int32_t *)b->data : NULL, ms, ms + oc,
                                    w16, q);
    te_convfam_dsp_s8_layout(oc, k, kp, rows, words);
    te_convfam_dsp_s8_requant(oc, q, q8);
    *wt = te_emit_const_i32(e, words, nwords, "weights_s8");
    *qr = te_emit_const_i32(e, q8, (size_t)(oc + 1) / 2 * 8, "requant");
    rc = 0;
out:
    free(rows);
    free(w16);
    free(words);
    free(q);
    free(ms);
    free(q8);
    return rc;
}

/* te_conv2d_dsp_s8(p, in, w, qr, out, NULL): one input channel, the
 * multiplier's outputs as the convolution's output channels; no arena
 * scratch (the patches go on its stack buffer, te_lowering.stack_buffer). */
static int emit_dsp_conv(te_emit *e, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_name wt, qr, x, y, prm;
    int fast;
    if (dsp_conv_consts(e, op, p, lo, hi, &wt, &qr, &fast))
        return -1;
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, TE_K_CONV2D_DSP_S8);
    te_params_begin(e, "te_conv2d_dsp_params");
    te_params_int(e, "batches", p->batches);
    te_params_int(e, "in_h", p->in_h);
    te_params_int(e, "in_w", p->in_w);
    te_params_int(e, "in_c", 1);
    te_params_int(e, "out_h", p->out_h);
    te_params_int(e, "out_w", p->out_w);
    te_params_int(e, "out_c", p->mult);
    te_params_int(e, "k_h", p->k_h);
    te_params_int(e, "k_w", p->k_w);
    te_params_int(e, "stride_h", p->s_h);
    te_params_int(e, "stride_w", p->s_w);
    te_params_int(e, "dil_h", p->d_h);
    te_params_int(e, "dil_w", p->d_w);
    te_params_int(e, "pad_top", p->pad_top);
    te_params_int(e, "pad_left", p->pad_left);
    te_params_int(e, "k_pad", te_convfam_gemm_k_pad(p->k_h * p->k_w, 1));
    te_params_int(e, "input_zp", in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    te_params_int(e, "fast_rq", fast);
    prm = te_params_end(e);
    te_emit_call(e, "te_conv2d_dsp_s8", prm.s, x.s, wt.s, qr.s, y.s, "NULL");
    return 0;
}

/* The portable kernels' params object: its address into buf. */
static void portable_params(te_emit *e, const te_op *op, const dw_plan *p, int32_t lo, int32_t hi,
                            char *buf, size_t n)
{
    const te_tensor *in = te_in(e->g, op, 0), *out = te_out(e->g, op, 0);
    te_params_begin(e, "te_depthwise_conv2d_params");
    te_params_int(e, "batches", p->batches);
    te_params_int(e, "in_h", p->in_h);
    te_params_int(e, "in_w", p->in_w);
    te_params_int(e, "in_c", p->in_c);
    te_params_int(e, "out_h", p->out_h);
    te_params_int(e, "out_w", p->out_w);
    te_params_int(e, "depth_mult", p->mult);
    te_params_int(e, "k_h", p->k_h);
    te_params_int(e, "k_w", p->k_w);
    te_params_int(e, "stride_h", p->s_h);
    te_params_int(e, "stride_w", p->s_w);
    te_params_int(e, "dil_h", p->d_h);
    te_params_int(e, "dil_w", p->d_w);
    te_params_int(e, "pad_top", p->pad_top);
    te_params_int(e, "pad_left", p->pad_left);
    te_params_int(e, "input_offset", -in->q.zero_point[0]);
    te_params_int(e, "output_offset", out->q.zero_point[0]);
    te_params_int(e, "act_min", lo);
    te_params_int(e, "act_max", hi);
    snprintf(buf, n, "%s", te_params_end(e).s);
}

/* te_depthwise_conv2d_s8_fast(p, in, w, bias, rq, out), _fast_inplace(p,
 * data, w, bias, rq, rows), _ring(p, in, w, bias, rq, out, scratch). */
static int emit_fast(te_emit *e, const te_op *op, const dw_plan *p, const char *params)
{
    te_name wt = te_emit_tensor(e, op->in[1]), b = emit_bias(e, op, p->in_c * p->mult);
    te_name rq = emit_rq(e, op, p->in_c * p->mult), x, y;
    if (!b.s[0] || !rq.s[0])
        return -1;
    x = te_emit_tensor(e, op->in[0]);
    y = te_emit_tensor(e, op->out[0]);
    te_emit_kernel(e, p->kind == DW_FAST ? TE_K_DEPTHWISE_CONV2D_S8_FAST : p->kind == DW_FAST_INPLACE ? TE_K_DEPTHWISE_CONV2D_S8_FAST_INPLACE : TE_K_DEPTHWISE_CONV2D_S8_RING);
    if (p->kind == DW_FAST)
        te_emit_kernel_call(e, TE_K_DEPTHWISE_CONV2D_S8_FAST, params, x.s, wt.s, b.s, rq.s, y.s);
    else if (p->kind == DW_FAST_INPLACE)
        te_emit_kernel_call(e, TE_K_DEPTHWISE_CONV2D_S8_FAST_INPLACE, params, y.s, wt.s, b.s, rq.s,
                     te_emit_scratch(e, "int8_t").s);
    else
        te_emit_kernel_call(e, TE_K_DEPTHWISE_CONV2D_S8_RING, params, p->inplace ? y.s : x.s, wt.s, b.s,
                     rq.s, y.s, te_emit_scratch(e, "int16_t").s);
    return 0;
}

/* te_depthwise_conv2d_s8(p, in, w, bias, mult, shift, out) or _inplace(p,
 * data, w, bias, mult, shift, plane). */
static int emit_ref(te_emit *e, const te_op *op, const dw_plan *p, const char *params)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    te_name mult, shift, x, wt, b, y;
    if (te_convfam_emit_requant(e, in, w, out, w->shape[3], 0, &mult, &shift))
        return -1;
    x = te_emit_tensor(e, in->id);
    wt = te_emit_tensor(e, w->id);
    b = te_emit_tensor(e, op->n_in > 2 ? op->in[2] : -1);
    y = te_emit_tensor(e, out->id);
    te_emit_kernel(e, p->kind == DW_REF_INPLACE ? TE_K_DEPTHWISE_CONV2D_S8_INPLACE : TE_K_DEPTHWISE_CONV2D_S8);
    if (p->kind == DW_REF_INPLACE)
        te_emit_kernel_call(e, TE_K_DEPTHWISE_CONV2D_S8_INPLACE, params, y.s, wt.s, b.s, mult.s, shift.s,
                     te_emit_scratch(e, "int8_t").s);
    else
        te_emit_kernel_call(e, TE_K_DEPTHWISE_CONV2D_S8, params, x.s, wt.s, b.s, mult.s, shift.s, y.s);
    return 0;
}

static int emit(te_emit *e, const te_op *op)
{
    te_graph *g = e->g;
    const te_tensor *in = te_in(g, op, 0), *w = te_in(g, op, 1), *out = te_out(g, op, 0);
    dw_plan p;
    int32_t lo, hi;
    char params[512];
    if (e->low->variant == DW_S16)
        return te_convfam_s16_emit_window(e, op, 1);
    recorded_plan(g, op, e->low, &p);
    if (p.inplace && (w->shape[3] != in->shape[3] || te_tensor_bytes(out) > te_tensor_bytes(in)))
        return te_op_fail(e->diag, op, "cannot run in place (internal error)");
    if (te_convfam_act_range(e->diag, op, op->opt.activation, out, &lo, &hi))
        return -1;
    if (p.kind == DW_DSP)
        return emit_dsp(e, op, &p, lo, hi);
    if (p.kind == DW_DSP_NHWC)
        return emit_dsp_nhwc(e, op, &p, lo, hi);
    if (p.kind == DW_AVX2 || p.kind == DW_AVX2_CONV)
        return emit_avx2(e, op, &p, lo, hi);
    if (p.kind == DW_DSP_CONV)
        return emit_dsp_conv(e, op, &p, lo, hi);
    portable_params(e, op, &p, lo, hi, params, sizeof params);
    if (p.kind == DW_REF || p.kind == DW_REF_INPLACE)
        return emit_ref(e, op, &p, params);
    return emit_fast(e, op, &p, params);
}

const te_op_def te_op_depthwise_conv2d = {
    .opcode = TE_OP_DEPTHWISE_CONV_2D,
    .int16x8 = 1,
    .check = check,
    .macs = macs,
    .emit = emit,
    .inplace_input = inplace_input,
    .lower = lower,
    .patch_kind = te_patch_window,
    .absorbs_padding = 1,
    .rescale = {2, 0, 1},
};
