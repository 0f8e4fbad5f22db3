/* test_conv.c - the convolution family kernels (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV) against plain references written the way
 * TFLite Micro's reference kernels compute them, over many random shapes,
 * strides, dilations, paddings and quantization parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_graph.h"
#include "ops/ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_conv2d.h"
#include "te_depthwise_conv2d.h"
#include "te_fully_connected.h"
#include "te_transpose_conv.h"
#include "testlib.h"

static const int channel_choices[] = {1, 3, 5, 8, 17, 33};

static int pick_channels(void) { return channel_choices[test_rand() % 6]; }

static void fill_i8(int8_t *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        v[i] = (int8_t)test_rand_range(-128, 127);
}

/* Weights: int8 symmetric in [-127, 127], sometimes small. */
static void fill_w(int8_t *v, size_t n)
{
    int lim = (test_rand() % 4 == 0) ? 8 : 127;
    size_t i;
    for (i = 0; i < n; i++)
        v[i] = (int8_t)test_rand_range(-lim, lim);
}

static double rand_unit(void) { return (double)(test_rand() % 1000000u) / 1000000.0; }

/* Requantization parameters as a compiler derives them from random scales
 * (per-channel or broadcast per-tensor), and random activation bounds. */
typedef struct {
    int32_t *mult, *shift, *bias;
    int32_t in_zp, out_zp, act_min, act_max;
} rq_params;

static void make_rq(rq_params *q, int channels, int depth, int with_bias)
{
    int per_channel = test_rand() % 2;
    float in_scale = (float)(0.005 + 0.1 * rand_unit());
    float out_scale = (float)(0.01 + 0.3 * rand_unit());
    float w0 = (float)(0.001 + 0.05 * rand_unit());
    int c;
    q->mult = malloc(sizeof(int32_t) * (size_t)channels);
    q->shift = malloc(sizeof(int32_t) * (size_t)channels);
    q->bias = with_bias ? malloc(sizeof(int32_t) * (size_t)channels) : NULL;
    /* outputs should not all saturate: scale down with the depth sometimes */
    if (test_rand() % 2)
        out_scale *= (float)(depth > 16 ? 4.0 : 1.0);
    for (c = 0; c < channels; c++) {
        float ws = per_channel ? (float)(0.001 + 0.05 * rand_unit()) : w0;
        int sh;
        te_quantize_multiplier((double)in_scale * (double)ws / (double)out_scale, &q->mult[c], &sh);
        q->shift[c] = sh;
        if (q->bias)
            q->bias[c] = test_rand_range(-20000, 20000);
    }
    if (test_rand() % 8 == 0) { /* extreme multipliers: left shifts, tiny values */
        q->shift[0] = test_rand_range(-31, 4);
        q->mult[0] = (int32_t)(0x40000000u + (test_rand() & 0x3fffffffu));
    }
    q->in_zp = test_rand_range(-128, 127);
    q->out_zp = test_rand_range(-128, 127);
    q->act_min = -128;
    q->act_max = 127;
    switch (test_rand() % 4) {
    case 1:
        q->act_min = q->out_zp;
        break;
    case 2:
        q->act_min = q->out_zp;
        q->act_max = TE_MIN(127, q->out_zp + test_rand_range(1, 100));
        break;
    default:
        break;
    }
}

static void free_rq(rq_params *q)
{
    free(q->mult);
    free(q->shift);
    free(q->bias);
}

/* TFLM's int32 accumulator (wrapping) followed by the requantization. */
static int8_t ref_out(int64_t acc, const rq_params *q, int c)
{
    int32_t v;
    if (q->bias)
        acc += q->bias[c];
    v = (int32_t)(uint32_t)(uint64_t)acc;
    v = te_mul_by_quant_mult(v, q->mult[c], q->shift[c]);
    v = (int32_t)((uint32_t)v + (uint32_t)q->out_zp);
    v = v < q->act_min ? q->act_min : v;
    v = v > q->act_max ? q->act_max : v;
    return (int8_t)v;
}

/* tensorflow/lite/kernels/padding.h: output size and padding before. */
static int out_size(int same, int in, int k, int stride, int dil)
{
    int eff = (k - 1) * dil + 1;
    return same ? (in + stride - 1) / stride : (in + stride - eff) / stride;
}

static int pad_before(int in, int k, int stride, int dil, int out)
{
    int total = (out - 1) * stride + (k - 1) * dil + 1 - in;
    return total > 0 ? total / 2 : 0;
}

/* How many reference outputs were strictly inside the clamp bounds: the
 * random quantization must not make every case saturate. */
static long n_outputs, n_unclamped;

static void note_range(const int8_t *v, size_t n, const rq_params *q)
{
    size_t i;
    for (i = 0; i < n; i++)
        n_unclamped += v[i] > q->act_min && v[i] < q->act_max;
    n_outputs += (long)n;
}

static int count_diff(const int8_t *a, const int8_t *b, size_t n)
{
    size_t i;
    int d = 0;
    for (i = 0; i < n; i++)
        d += a[i] != b[i];
    return d;
}

/* The parameter fields every convolution-family kernel takes from the
 * requantization (any params struct p with them). */
#define SET_RQ_FIELDS(p, q)                                                                   \
    do {                                                                                      \
        (p).input_offset = -(q).in_zp;                                                        \
        (p).output_offset = (q).out_zp;                                                       \
        (p).act_min = (q).act_min;                                                            \
        (p).act_max = (q).act_max;                                                            \
    } while (0)

/* Random batch count, kernel size (up to max_k) and strides. */
#define RAND_WINDOW(p, max_k)                                                                 \
    do {                                                                                      \
        (p).batches = test_rand() % 5 == 0 ? 2 : 1;                                           \
        (p).k_h = test_rand_range(1, max_k);                                                  \
        (p).k_w = test_rand() % 2 ? (p).k_h : test_rand_range(1, max_k);                      \
        (p).stride_h = test_rand_range(1, 3);                                                 \
        (p).stride_w = test_rand() % 2 ? (p).stride_h : test_rand_range(1, 3);                \
    } while (0)

#define RAND_DILATION(p)                                                                      \
    do {                                                                                      \
        (p).dil_h = test_rand() % 3 == 0 ? test_rand_range(1, 3) : 1;                         \
        (p).dil_w = test_rand() % 3 == 0 ? test_rand_range(1, 3) : 1;                         \
    } while (0)

/* Random input size (VALID: at least the dilated kernel), then the output
 * size and padding TFLite derives. */
#define RAND_SPATIAL(p, same)                                                                 \
    do {                                                                                      \
        (p).in_h = test_rand_range(1, 14) + ((same) ? 0 : ((p).k_h - 1) * (p).dil_h);         \
        (p).in_w = test_rand_range(1, 14) + ((same) ? 0 : ((p).k_w - 1) * (p).dil_w);         \
        (p).out_h = out_size(same, (p).in_h, (p).k_h, (p).stride_h, (p).dil_h);               \
        (p).out_w = out_size(same, (p).in_w, (p).k_w, (p).stride_w, (p).dil_w);               \
        (p).pad_top = pad_before((p).in_h, (p).k_h, (p).stride_h, (p).dil_h, (p).out_h);      \
        (p).pad_left = pad_before((p).in_w, (p).k_w, (p).stride_w, (p).dil_w, (p).out_w);     \
    } while (0)

/* The buffers of one random case: input and weights filled at random,
 * the kernel's output (pre-filled with 0x55) and the reference output. */
typedef struct {
    int8_t *in, *w, *out, *ref;
    size_t n_in, n_w, n_out;
} case_bufs;

static void bufs_alloc(case_bufs *b, size_t n_in, size_t n_w, size_t n_out)
{
    b->n_in = n_in;
    b->n_w = n_w;
    b->n_out = n_out;
    b->in = malloc(n_in);
    b->w = malloc(n_w);
    b->out = malloc(n_out);
    b->ref = malloc(n_out);
    fill_i8(b->in, n_in);
    fill_w(b->w, n_w);
    memset(b->out, 0x55, n_out);
}

/* Checks the kernel output against the reference, frees the case;
 * returns the number of differing bytes. */
static int bufs_check_free(case_bufs *b, rq_params *q)
{
    int diffs = count_diff(b->out, b->ref, b->n_out);
    note_range(b->ref, b->n_out, q);
    CHECK(diffs == 0);
    free(b->in);
    free(b->w);
    free(b->out);
    free(b->ref);
    free_rq(q);
    return diffs;
}

/* ------------------------------------------------------------ CONV_2D */

static void ref_conv(const te_conv2d_params *p, const int8_t *in, const int8_t *w,
                     const rq_params *q, int8_t *out)
{
    int per_group = p->out_c / (p->in_c / p->filter_c);
    int b, oy, ox, oc, ky, kx, ic;
    for (b = 0; b < p->batches; b++)
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++)
                for (oc = 0; oc < p->out_c; oc++) {
                    int g = oc / per_group;
                    int64_t acc = 0;
                    for (ky = 0; ky < p->k_h; ky++)
                        for (kx = 0; kx < p->k_w; kx++) {
                            int iy = oy * p->stride_h - p->pad_top + ky * p->dil_h;
                            int ix = ox * p->stride_w - p->pad_left + kx * p->dil_w;
                            if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
                                continue;
                            for (ic = 0; ic < p->filter_c; ic++) {
                                int32_t x = in[((b * p->in_h + iy) * p->in_w + ix) * p->in_c +
                                               g * p->filter_c + ic];
                                int32_t f = w[((oc * p->k_h + ky) * p->k_w + kx) * p->filter_c + ic];
                                acc += f * (x - q->in_zp);
                            }
                        }
                    out[((b * p->out_h + oy) * p->out_w + ox) * p->out_c + oc] = ref_out(acc, q, oc);
                }
}

/* The same convolution written as a channel slice of a wider tensor
 * (out_stride): every pixel's channels equal the contiguous output, the
 * bytes in between are untouched. */
static void check_strided(te_conv2d_params *p, const case_bufs *b, const rq_params *q)
{
    const long pixels = (long)p->batches * p->out_h * p->out_w;
    const int pitch = p->out_c + test_rand_range(1, 7);
    int8_t *wide = malloc((size_t)(pixels * pitch));
    long i, bad = 0;
    int c;
    memset(wide, 0x55, (size_t)(pixels * pitch));
    p->out_stride = pitch;
    te_conv2d_s8(p, b->in, b->w, q->bias, q->mult, q->shift, wide);
    p->out_stride = 0;
    for (i = 0; i < pixels; i++)
        for (c = 0; c < pitch; c++)
            bad += wide[i * pitch + c] != (c < p->out_c ? b->out[i * p->out_c + c] : 0x55);
    CHECK(bad == 0);
    free(wide);
}

static void test_conv_case(int verbose)
{
    te_conv2d_params p;
    rq_params q;
    case_bufs b;
    int same = test_rand() % 2, groups = 1, diffs;
    memset(&p, 0, sizeof p);
    RAND_WINDOW(p, 7);
    RAND_DILATION(p);
    p.in_c = pick_channels();
    p.out_c = pick_channels();
    if (test_rand() % 6 == 0) { /* grouped convolution */
        groups = test_rand_range(2, 3);
        p.in_c = groups * test_rand_range(1, 5);
        p.out_c = groups * test_rand_range(1, 4);
    }
    p.filter_c = p.in_c / groups;
    RAND_SPATIAL(p, same);
    make_rq(&q, p.out_c, p.k_h * p.k_w * p.filter_c, test_rand() % 4 != 0);
    SET_RQ_FIELDS(p, q);
    bufs_alloc(&b, (size_t)p.batches * p.in_h * p.in_w * p.in_c,
               (size_t)p.out_c * p.k_h * p.k_w * p.filter_c,
               (size_t)p.batches * p.out_h * p.out_w * p.out_c);
    te_conv2d_s8(&p, b.in, b.w, q.bias, q.mult, q.shift, b.out);
    if (test_rand() % 3 == 0)
        check_strided(&p, &b, &q);
    ref_conv(&p, b.in, b.w, &q, b.ref);
    diffs = bufs_check_free(&b, &q);
    if (verbose || diffs)
        printf("conv %dx%dx%d k%dx%d s%d,%d d%d,%d g%d -> %dx%dx%d pad %d,%d: %d diffs\n", p.in_h,
               p.in_w, p.in_c, p.k_h, p.k_w, p.stride_h, p.stride_w, p.dil_h, p.dil_w, groups,
               p.out_h, p.out_w, p.out_c, p.pad_top, p.pad_left, diffs);
}

/* ----------------------------------------------------- DEPTHWISE_CONV_2D */

static void ref_dw(const te_depthwise_conv2d_params *p, const int8_t *in, const int8_t *w,
                   const rq_params *q, int8_t *out)
{
    int oc_n = p->in_c * p->depth_mult;
    int b, oy, ox, ic, m, ky, kx;
    for (b = 0; b < p->batches; b++)
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++)
                for (ic = 0; ic < p->in_c; ic++)
                    for (m = 0; m < p->depth_mult; m++) {
                        int oc = m + ic * p->depth_mult;
                        int64_t acc = 0;
                        for (ky = 0; ky < p->k_h; ky++)
                            for (kx = 0; kx < p->k_w; kx++) {
                                int iy = oy * p->stride_h - p->pad_top + ky * p->dil_h;
                                int ix = ox * p->stride_w - p->pad_left + kx * p->dil_w;
                                if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
                                    continue;
                                acc += (int32_t)w[(ky * p->k_w + kx) * oc_n + oc] *
                                       (in[((b * p->in_h + iy) * p->in_w + ix) * p->in_c + ic] -
                                        q->in_zp);
                            }
                        out[((b * p->out_h + oy) * p->out_w + ox) * oc_n + oc] = ref_out(acc, q, oc);
                    }
}

static void test_dw_case(void)
{
    te_depthwise_conv2d_params p;
    rq_params q;
    case_bufs b;
    int same = test_rand() % 2, oc_n, diffs;
    memset(&p, 0, sizeof p);
    RAND_WINDOW(p, 7);
    RAND_DILATION(p);
    p.in_c = pick_channels();
    p.depth_mult = test_rand() % 2 ? 1 : test_rand_range(1, 3);
    oc_n = p.in_c * p.depth_mult;
    RAND_SPATIAL(p, same);
    make_rq(&q, oc_n, p.k_h * p.k_w, test_rand() % 4 != 0);
    SET_RQ_FIELDS(p, q);
    bufs_alloc(&b, (size_t)p.batches * p.in_h * p.in_w * p.in_c, (size_t)p.k_h * p.k_w * oc_n,
               (size_t)p.batches * p.out_h * p.out_w * oc_n);
    te_depthwise_conv2d_s8(&p, b.in, b.w, q.bias, q.mult, q.shift, b.out);
    ref_dw(&p, b.in, b.w, &q, b.ref);
    diffs = bufs_check_free(&b, &q);
    if (diffs)
        printf("dw %dx%dx%d m%d k%dx%d s%d,%d d%d,%d: %d diffs\n", p.in_h, p.in_w, p.in_c,
               p.depth_mult, p.k_h, p.k_w, p.stride_h, p.stride_w, p.dil_h, p.dil_w, diffs);
}

/* ------------------------------------------------------- FULLY_CONNECTED */

static void test_fc_case(void)
{
    static const int depths[] = {1, 3, 8, 17, 64, 128, 300};
    te_fully_connected_params p;
    rq_params q;
    case_bufs bufs;
    int b, u, d;
    memset(&p, 0, sizeof p);
    p.batches = test_rand_range(1, 3);
    p.depth = depths[test_rand() % 7];
    p.units = test_rand() % 2 ? pick_channels() : test_rand_range(1, 40);
    make_rq(&q, p.units, p.depth, test_rand() % 3 != 0);
    SET_RQ_FIELDS(p, q);
    bufs_alloc(&bufs, (size_t)p.batches * p.depth, (size_t)p.units * p.depth,
               (size_t)p.batches * p.units);
    te_fully_connected_s8(&p, bufs.in, bufs.w, q.bias, q.mult, q.shift, bufs.out);
    for (b = 0; b < p.batches; b++)
        for (u = 0; u < p.units; u++) {
            int64_t acc = 0;
            for (d = 0; d < p.depth; d++)
                acc += (int32_t)bufs.w[u * p.depth + d] * (bufs.in[b * p.depth + d] - q.in_zp);
            bufs.ref[b * p.units + u] = ref_out(acc, &q, u);
        }
    bufs_check_free(&bufs, &q);
}

/* -------------------------------------------------------- TRANSPOSE_CONV */

/* TFLM's scatter formulation into an int32 buffer, then requantization. */
static void ref_tconv(const te_transpose_conv_params *p, const int8_t *in, const int8_t *w,
                      const rq_params *q, int8_t *out)
{
    size_t n = (size_t)p->batches * p->out_h * p->out_w * p->out_c, i;
    int64_t *acc = calloc(n, sizeof(int64_t));
    int b, iy, ix, ic, ky, kx, oc;
    for (b = 0; b < p->batches; b++)
        for (iy = 0; iy < p->in_h; iy++)
            for (ix = 0; ix < p->in_w; ix++)
                for (ic = 0; ic < p->in_c; ic++)
                    for (ky = 0; ky < p->k_h; ky++)
                        for (kx = 0; kx < p->k_w; kx++)
                            for (oc = 0; oc < p->out_c; oc++) {
                                int oy = iy * p->stride_h - p->pad_top + ky;
                                int ox = ix * p->stride_w - p->pad_left + kx;
                                if (oy < 0 || oy >= p->out_h || ox < 0 || ox >= p->out_w)
                                    continue;
                                acc[((b * p->out_h + oy) * p->out_w + ox) * p->out_c + oc] +=
                                    (in[((b * p->in_h + iy) * p->in_w + ix) * p->in_c + ic] -
                                     q->in_zp) *
                                    (int32_t)w[((oc * p->k_h + ky) * p->k_w + kx) * p->in_c + ic];
                            }
    for (i = 0; i < n; i++)
        out[i] = ref_out(acc[i], q, (int)(i % (size_t)p->out_c));
    free(acc);
}

static void test_tconv_case(void)
{
    te_transpose_conv_params p;
    rq_params q;
    case_bufs b;
    int same = test_rand() % 2, th, tw, diffs;
    memset(&p, 0, sizeof p);
    RAND_WINDOW(p, 5);
    p.in_c = pick_channels();
    p.out_c = pick_channels();
    p.in_h = test_rand_range(1, 9);
    p.in_w = test_rand_range(1, 9);
    /* output size as the converter writes it; padding as TFLM derives it
     * from the output size */
    p.out_h = same ? p.in_h * p.stride_h : (p.in_h - 1) * p.stride_h + p.k_h;
    p.out_w = same ? p.in_w * p.stride_w : (p.in_w - 1) * p.stride_w + p.k_w;
    if (test_rand() % 4 == 0) { /* odd sizes too */
        p.out_h -= test_rand_range(0, 2);
        p.out_w -= test_rand_range(0, 2);
        p.out_h = p.out_h < 1 ? 1 : p.out_h;
        p.out_w = p.out_w < 1 ? 1 : p.out_w;
    }
    th = out_size(same, p.out_h, p.k_h, p.stride_h, 1);
    tw = out_size(same, p.out_w, p.k_w, p.stride_w, 1);
    p.pad_top = pad_before(p.out_h, p.k_h, p.stride_h, 1, th);
    p.pad_left = pad_before(p.out_w, p.k_w, p.stride_w, 1, tw);
    make_rq(&q, p.out_c, p.k_h * p.k_w * p.in_c, test_rand() % 4 != 0);
    SET_RQ_FIELDS(p, q);
    bufs_alloc(&b, (size_t)p.batches * p.in_h * p.in_w * p.in_c,
               (size_t)p.out_c * p.k_h * p.k_w * p.in_c,
               (size_t)p.batches * p.out_h * p.out_w * p.out_c);
    te_transpose_conv_s8(&p, b.in, b.w, q.bias, q.mult, q.shift, b.out);
    ref_tconv(&p, b.in, b.w, &q, b.ref);
    diffs = bufs_check_free(&b, &q);
    if (diffs)
        printf("tconv %dx%dx%d k%dx%d s%d,%d -> %dx%dx%d pad %d,%d: %d diffs\n", p.in_h, p.in_w,
               p.in_c, p.k_h, p.k_w, p.stride_h, p.stride_w, p.out_h, p.out_w, p.out_c,
               p.pad_top, p.pad_left, diffs);
}

/* A fixed case checked by hand: 1x3x3x1 input, 3x3 all-ones filter, SAME. */
static void test_conv_fixed(void)
{
    static const int8_t in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const int8_t w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    static const int32_t mult[1] = {1073741824}; /* 0.5 with shift 1: exactly x */
    static const int32_t shift[1] = {1};
    static const int8_t want[9] = {12, 21, 16, 27, 45, 33, 24, 39, 28};
    int8_t out[9];
    te_conv2d_params p;
    memset(&p, 0, sizeof p);
    p.batches = 1;
    p.in_h = p.in_w = p.out_h = p.out_w = 3;
    p.in_c = p.out_c = p.filter_c = 1;
    p.k_h = p.k_w = 3;
    p.stride_h = p.stride_w = p.dil_h = p.dil_w = 1;
    p.pad_top = p.pad_left = 1;
    p.act_min = -128;
    p.act_max = 127;
    te_conv2d_s8(&p, in, w, NULL, mult, shift, out);
    CHECK(memcmp(out, want, 9) == 0);
}

/* ------------------------------------------- operator checks (no crash) */

/* Tensor id of the checks' graphs: scale 0.05. */
static void mini_tensor(conv_graph *m, int id, te_dtype type, int rank, const int *shape,
                        int nscales)
{
    cg_tensor(m, id, type, rank, shape, nscales, 0.05f);
}

/* CONV_2D 1x8x8x3 -> 1x8x8x4, 3x3 SAME, per-channel weights, bias. */
static void mini_conv(conv_graph *m, int opcode)
{
    static const int in_s[4] = {1, 8, 8, 3}, w_s[4] = {4, 3, 3, 3}, b_s[1] = {4},
                     out_s[4] = {1, 8, 8, 4};
    memset(m, 0, sizeof *m);
    mini_tensor(m, 0, TE_DT_INT8, 4, in_s, 1);
    mini_tensor(m, 1, TE_DT_INT8, 4, w_s, 4);
    mini_tensor(m, 2, TE_DT_INT32, 1, b_s, 1);
    mini_tensor(m, 3, TE_DT_INT8, 4, out_s, 1);
    cg_wire(m, opcode, 6);
}

static void test_conv_checks(void)
{
    conv_graph m;
    mini_conv(&m, TE_OP_CONV_2D);
    CHECK(cg_check(&m) == 0);
    CHECK(te_op_find(TE_OP_CONV_2D)->macs(&m.g, &m.op) == 8 * 8 * 4 * 3 * 3 * 3);
    m.in[2] = -1; /* bias absent */
    CHECK(cg_check(&m) == 0);
    m.op.n_in = 2;
    CHECK(cg_check(&m) == 0);

    mini_conv(&m, TE_OP_CONV_2D);
    m.t[0].type = TE_DT_INT16;
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "int16") != NULL);
    mini_conv(&m, TE_OP_CONV_2D);
    m.t[1].type = TE_DT_UINT8;
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "only int8 weights") != NULL);
    mini_conv(&m, TE_OP_CONV_2D);
    m.t[1].q.count = 3; /* neither 1 nor out_c */
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "scales") != NULL);
    mini_conv(&m, TE_OP_CONV_2D);
    m.zp[1][2] = 3; /* TFLite Micro's per-channel kernels ignore the weights' zero point */
    CHECK(cg_check(&m) == 0);
    mini_conv(&m, TE_OP_CONV_2D);
    m.t[2].type = TE_DT_INT8;
    CHECK(cg_check(&m) == -1);
    mini_conv(&m, TE_OP_CONV_2D);
    m.t[3].shape[1] = 7;
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "output shape") != NULL);
    mini_conv(&m, TE_OP_CONV_2D);
    m.op.opt.padding = TE_PAD_VALID;
    CHECK(cg_check(&m) == -1);
    m.t[3].shape[1] = m.t[3].shape[2] = 6;
    CHECK(cg_check(&m) == 0);
    mini_conv(&m, TE_OP_CONV_2D);
    m.op.opt.activation = TE_ACT_TANH;
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "activation") != NULL);
    mini_conv(&m, TE_OP_CONV_2D);
    m.op.opt.stride_h = 0;
    CHECK(cg_check(&m) == -1);
    mini_conv(&m, TE_OP_CONV_2D);
    m.in[1] = -1; /* weights absent: an error, not a crash */
    CHECK(cg_check(&m) == -1);
    mini_conv(&m, TE_OP_CONV_2D);
    m.t[1].shape[3] = 2; /* 3 input channels, filter depth 2: no grouping */
    CHECK(cg_check(&m) == -1);
    mini_conv(&m, TE_OP_CONV_2D);
    m.t[1].shape[3] = 0;
    CHECK(cg_check(&m) == -1);
}

static void test_dw_checks(void)
{
    static const int w_s[4] = {1, 3, 3, 6}, out_s[4] = {1, 8, 8, 6};
    conv_graph m;
    mini_conv(&m, TE_OP_DEPTHWISE_CONV_2D);
    mini_tensor(&m, 1, TE_DT_INT8, 4, w_s, 6);
    m.t[1].q.quantized_dim = 3;
    m.t[2].shape[0] = 6;
    mini_tensor(&m, 3, TE_DT_INT8, 4, out_s, 1);
    m.op.opt.depth_multiplier = 2;
    CHECK(cg_check(&m) == 0);
    CHECK(te_op_find(TE_OP_DEPTHWISE_CONV_2D)->macs(&m.g, &m.op) == 8 * 8 * 6 * 9);
    m.op.opt.depth_multiplier = 0;
    CHECK(cg_check(&m) == 0);
    m.op.opt.depth_multiplier = 1;
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "depth_multiplier") != NULL);
    m.op.opt.depth_multiplier = 2;
    m.t[1].q.count = 4;
    CHECK(cg_check(&m) == -1);
    m.t[1].q.count = 6;
    m.t[1].shape[0] = 2;
    CHECK(cg_check(&m) == -1);
}

static void test_fc_checks(void)
{
    static const int in_s[2] = {2, 12}, w_s[2] = {5, 12}, b_s[1] = {5}, out_s[2] = {2, 5};
    conv_graph m;
    mini_conv(&m, TE_OP_FULLY_CONNECTED);
    mini_tensor(&m, 0, TE_DT_INT8, 2, in_s, 1);
    mini_tensor(&m, 1, TE_DT_INT8, 2, w_s, 1);
    mini_tensor(&m, 2, TE_DT_INT32, 1, b_s, 1);
    mini_tensor(&m, 3, TE_DT_INT8, 2, out_s, 1);
    m.scale[2][0] = 0.05f * 0.05f;
    CHECK(cg_check(&m) == 0);
    CHECK(te_op_find(TE_OP_FULLY_CONNECTED)->macs(&m.g, &m.op) == 2 * 5 * 12);
    m.scale[2][0] = 1.0f; /* bias scale far from in*w: TFLite refuses it */
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "bias") != NULL);
    m.in[2] = -1;
    CHECK(cg_check(&m) == 0);
    m.op.opt.weights_format = 1;
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "format") != NULL);
    m.op.opt.weights_format = 0;
    m.t[1].q.count = 5; /* per-channel */
    CHECK(cg_check(&m) == 0);
    m.t[1].q.quantized_dim = 1;
    CHECK(cg_check(&m) == -1);
    m.t[1].q.quantized_dim = 0;
    m.t[0].shape[1] = 11;
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "elements") != NULL);
}

static void test_tconv_checks(void)
{
    static const int s_s[1] = {4}, w_s[4] = {4, 3, 3, 8}, in_s[4] = {1, 4, 4, 8},
                     out_s[4] = {1, 8, 8, 4}, b_s[1] = {4};
    static const uint8_t shape_bytes[16] = {1, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 4, 0, 0, 0};
    static const uint8_t bad_bytes[16] = {1, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0, 4, 0, 0, 0};
    conv_graph m;
    mini_conv(&m, TE_OP_TRANSPOSE_CONV);
    mini_tensor(&m, 0, TE_DT_INT32, 1, s_s, 0);
    m.t[0].data = shape_bytes;
    m.t[0].data_bytes = 16;
    mini_tensor(&m, 1, TE_DT_INT8, 4, w_s, 4);
    mini_tensor(&m, 2, TE_DT_INT8, 4, in_s, 1);
    mini_tensor(&m, 4, TE_DT_INT32, 1, b_s, 1);
    mini_tensor(&m, 3, TE_DT_INT8, 4, out_s, 1);
    m.op.n_in = 4;
    m.in[3] = 4;
    m.op.opt.stride_h = m.op.opt.stride_w = 2;
    CHECK(cg_check(&m) == 0);
    CHECK(te_op_find(TE_OP_TRANSPOSE_CONV)->macs(&m.g, &m.op) == 4 * 4 * 8 * 9 * 4);
    m.op.n_in = 3;
    CHECK(cg_check(&m) == 0);
    m.t[0].data = bad_bytes; /* never read, as in TFLite Micro: the output tensor rules */
    CHECK(cg_check(&m) == 0);
    m.t[0].data = shape_bytes;
    m.t[2].shape[3] = 7;
    CHECK(cg_check(&m) == -1);
}

int main(void)
{
    int i;
    test_seed(20240601u);
    test_conv_fixed();
    test_conv_checks();
    test_dw_checks();
    test_fc_checks();
    test_tconv_checks();
    for (i = 0; i < 600; i++)
        test_conv_case(0);
    for (i = 0; i < 600; i++)
        test_dw_case();
    for (i = 0; i < 600; i++)
        test_fc_case();
    for (i = 0; i < 400; i++)
        test_tconv_case();
    printf("%ld of %ld outputs inside the clamp bounds\n", n_unclamped, n_outputs);
    CHECK(n_unclamped * 3 > n_outputs);
    return test_summary();
}
