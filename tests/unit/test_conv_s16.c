/* test_conv_s16.c - the int16x8 convolution-family kernels
 * (runtime/te_conv2d_s16.c, te_fully_connected_s16.c) against plain
 * references written here the way TFLite Micro's reference kernels compute
 * them (int64 accumulator and its MultiplyByQuantizedMultiplier, or the
 * int32 path of CONV_2D with an int32 bias or none), over random shapes,
 * strides, dilations, paddings, groups, depth multipliers, batches and
 * per-channel or per-tensor quantization; and the op checks of the form.
 * test_conv_s16_dsp.c includes this file with TE_TARGET_DSP: CONV_2D cases
 * then also run te_conv2d_s16_dsp (runtime/armv7em/) on the compiler's
 * packed weights, through te_common.h's exact emulation of SMLAD. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_graph.h"
#include "ops/ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_conv2d_s16.h"
#include "te_fully_connected_s16.h"
#include "testlib.h"
#if defined(TE_TARGET_DSP)
#include "ops/conv_family_s16.h"
#include "te_conv2d_s16_dsp.c"
static long n_dsp_cases;
#endif

/* ---- reference arithmetic ----------------------------------------------- */

/* TFLite's int64 MultiplyByQuantizedMultiplier, |x| < 2^47. */
static int32_t ref_mbqm64(int64_t x, int32_t m, int shift)
{
    int64_t reduced = m < 0x7FFF0000 ? (m + 32768) >> 16 : 0x7FFF;
    int total = 15 - shift;
    return (int32_t)((x * reduced + ((int64_t)1 << (total - 1))) >> total);
}

/* gemmlowp's rounding (half away from zero) of x / 2^e, in 64 bits. */
static int64_t ref_round_pot(int64_t x, int e)
{
    int64_t half = e > 0 ? (int64_t)1 << (e - 1) : 0;
    if (e == 0)
        return x;
    return x >= 0 ? (x + half) >> e : -((-x + half) >> e);
}

/* TFLite's int32 MultiplyByQuantizedMultiplier (double rounding). */
static int32_t ref_mbqm32(int32_t x, int32_t m, int shift)
{
    int64_t a = (int64_t)(int32_t)((uint32_t)x << (shift > 0 ? shift : 0)), ab;
    int32_t high;
    if (a == INT32_MIN && m == INT32_MIN)
        high = INT32_MAX;
    else {
        ab = a * m;
        high = (int32_t)(ab >= 0 ? (ab + ((int64_t)1 << 30)) >> 31
                                 : -((-ab + ((int64_t)1 << 30) - 1) >> 31));
    }
    return (int32_t)ref_round_pot(high, shift > 0 ? 0 : -shift);
}

/* Accumulator sum (exact) plus bias -> int16 output. */
typedef struct {
    int channels, bias_kind; /* 0 none, 32, 64 */
    int32_t *mult, *shift, *bias32;
    int64_t *bias64;
    int32_t act_min, act_max;
} rq16;

static int16_t ref_out(int64_t sum, const rq16 *q, int c, int acc32)
{
    int32_t v;
    if (acc32) {
        int64_t a = sum + (q->bias_kind == 32 ? q->bias32[c] : 0);
        v = ref_mbqm32((int32_t)(uint32_t)(uint64_t)a, q->mult[c], q->shift[c]);
    } else {
        v = ref_mbqm64(sum + (q->bias_kind == 64 ? q->bias64[c] : 0), q->mult[c], q->shift[c]);
    }
    v = v < q->act_min ? q->act_min : v > q->act_max ? q->act_max : v;
    return (int16_t)v;
}

static double rand_unit(void) { return (double)(test_rand() % 1000000u) / 1000000.0; }

/* Multipliers that keep typical outputs inside int16 for a sum of `depth`
 * int16 x int8 products (per channel or one for all), biases of the kind,
 * random activation bounds; per_tensor: one multiplier repeated. */
static void make_rq(rq16 *q, int channels, int depth, int bias_kind, int per_tensor)
{
    double base = 8000.0 / (sqrt((double)depth) * 16384.0 * 64.0);
    int c;
    q->channels = channels;
    q->bias_kind = bias_kind;
    q->mult = malloc(sizeof(int32_t) * (size_t)channels);
    q->shift = malloc(sizeof(int32_t) * (size_t)channels);
    q->bias32 = malloc(sizeof(int32_t) * (size_t)channels);
    q->bias64 = malloc(sizeof(int64_t) * (size_t)channels);
    for (c = 0; c < channels; c++) {
        double real = base * (0.2 + 3.0 * rand_unit());
        int sh;
        if (test_rand() % 16 == 0)
            real *= 64.0 + 64.0 * rand_unit(); /* a left shift */
        if (per_tensor && c > 0) {
            q->mult[c] = q->mult[0];
            q->shift[c] = q->shift[0];
        } else {
            te_quantize_multiplier(real, &q->mult[c], &sh);
            q->shift[c] = sh;
        }
        /* about the accumulator's own size, now and then far beyond */
        q->bias32[c] = (int32_t)((double)test_rand_range(-(1 << 20), 1 << 20) * sqrt(depth));
        q->bias64[c] = (int64_t)((double)test_rand_range(-(1 << 20), 1 << 20) * sqrt(depth)) *
                       (test_rand() % 16 == 0 ? 4096 : 1);
    }
    q->act_min = test_rand() % 3 == 0 ? test_rand_range(-32768, 0) : -32768;
    q->act_max = test_rand() % 3 == 0 ? test_rand_range(0, 32767) : 32767;
    if (q->act_min > q->act_max)
        q->act_min = q->act_max;
}

static void free_rq(rq16 *q)
{
    free(q->mult);
    free(q->shift);
    free(q->bias32);
    free(q->bias64);
}

static void fill_x(int16_t *v, size_t n)
{
    int lim = test_rand() % 4 == 0 ? 300 : 32767;
    size_t i;
    for (i = 0; i < n; i++)
        v[i] = (int16_t)test_rand_range(-lim - (lim == 32767), lim);
}

static void fill_w(int8_t *v, size_t n)
{
    int lim = test_rand() % 4 == 0 ? 8 : 127;
    size_t i;
    for (i = 0; i < n; i++)
        v[i] = (int8_t)test_rand_range(-lim, lim);
}

static long n_outputs, n_unclamped;

static int compare(const int16_t *got, const int16_t *want, size_t n, const rq16 *q)
{
    size_t i;
    int d = 0;
    for (i = 0; i < n; i++) {
        d += got[i] != want[i];
        n_unclamped += want[i] > q->act_min && want[i] < q->act_max;
    }
    n_outputs += (long)n;
    CHECK(d == 0);
    return d;
}

static const int channel_choices[] = {1, 2, 3, 5, 8, 17, 33};

static int pick_channels(void) { return channel_choices[test_rand() % 7]; }

/* Random window geometry: kernel, strides, dilation, input size, output
 * size and padding before (SAME/VALID with explicit padding, as a folded
 * PAD gives). */
static void rand_window(te_conv2d_s16_params *p, int max_k)
{
    p->batches = test_rand() % 5 == 0 ? 2 : 1;
    p->k_h = test_rand_range(1, max_k);
    p->k_w = test_rand() % 2 ? p->k_h : test_rand_range(1, max_k);
    p->stride_h = test_rand_range(1, 3);
    p->stride_w = test_rand() % 2 ? p->stride_h : test_rand_range(1, 3);
    p->dil_h = test_rand() % 3 == 0 ? test_rand_range(1, 3) : 1;
    p->dil_w = test_rand() % 3 == 0 ? test_rand_range(1, 3) : 1;
    test_conv_axis(p->k_h, p->dil_h, p->stride_h, 14, &p->in_h, &p->pad_top, &p->out_h);
    test_conv_axis(p->k_w, p->dil_w, p->stride_w, 14, &p->in_w, &p->pad_left, &p->out_w);
}

/* ---- CONV_2D --------------------------------------------------------------- */

static void ref_conv(const te_conv2d_s16_params *p, const int16_t *in, const int8_t *w,
                     const rq16 *q, int acc32, int16_t *out)
{
    int per_group = p->out_c / (p->in_c / p->filter_c);
    int b, oy, ox, oc, ky, kx, ic;
    for (b = 0; b < p->batches; b++)
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++)
                for (oc = 0; oc < p->out_c; oc++) {
                    int64_t sum = 0;
                    for (ky = 0; ky < p->k_h; ky++)
                        for (kx = 0; kx < p->k_w; kx++) {
                            int iy = oy * p->stride_h - p->pad_top + ky * p->dil_h;
                            int ix = ox * p->stride_w - p->pad_left + kx * p->dil_w;
                            if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
                                continue;
                            for (ic = 0; ic < p->filter_c; ic++)
                                sum += (int64_t)w[((oc * p->k_h + ky) * p->k_w + kx) *
                                                      p->filter_c + ic] *
                                       in[((b * p->in_h + iy) * p->in_w + ix) * p->in_c +
                                          oc / per_group * p->filter_c + ic];
                        }
                    out[((b * p->out_h + oy) * p->out_w + ox) * p->out_c + oc] =
                        ref_out(sum, q, oc, acc32);
                }
}

static void run_conv(te_conv2d_s16_params *p, int bias_kind, int per_tensor)
{
    size_t n_in = (size_t)p->batches * p->in_h * p->in_w * p->in_c;
    size_t n_w = (size_t)p->out_c * p->k_h * p->k_w * p->filter_c;
    size_t n_out = (size_t)p->batches * p->out_h * p->out_w * p->out_c;
    int16_t *in = malloc(sizeof(int16_t) * n_in), *out = malloc(sizeof(int16_t) * n_out);
    int16_t *ref = malloc(sizeof(int16_t) * n_out);
    int8_t *w = malloc(n_w);
    rq16 q;
    fill_x(in, n_in);
    fill_w(w, n_w);
    make_rq(&q, p->out_c, p->k_h * p->k_w * p->filter_c, bias_kind, per_tensor);
    p->act_min = q.act_min;
    p->act_max = q.act_max;
    if (bias_kind == 64)
        te_conv2d_s16(p, in, w, q.bias64, q.mult, q.shift, out);
    else
        te_conv2d_s16_b32(p, in, w, bias_kind ? q.bias32 : NULL, q.mult, q.shift, out);
    ref_conv(p, in, w, &q, bias_kind != 64, ref);
#if defined(TE_TARGET_DSP)
    if (p->filter_c == p->in_c &&
        te_convfam_s16_dsp_fits(w, p->out_c, p->k_h * p->k_w * p->filter_c)) {
        te_conv2d_s16_dsp_params d;
        size_t nw = te_convfam_s16_dsp_words(p->out_c, p->k_h * p->k_w, p->in_c);
        int32_t *packed = malloc(sizeof(int32_t) * nw);
        int16_t *dout = malloc(sizeof(int16_t) * n_out);
        te_convfam_s16_dsp_pack(w, p->out_c, p->k_h * p->k_w, p->in_c, packed);
        memset(&d, 0, sizeof d);
        d.batches = p->batches;
        d.in_h = p->in_h, d.in_w = p->in_w, d.in_c = p->in_c;
        d.out_h = p->out_h, d.out_w = p->out_w, d.out_c = p->out_c;
        d.k_h = p->k_h, d.k_w = p->k_w;
        d.stride_h = p->stride_h, d.stride_w = p->stride_w;
        d.dil_h = p->dil_h, d.dil_w = p->dil_w;
        d.pad_top = p->pad_top, d.pad_left = p->pad_left;
        d.acc32 = bias_kind != 64;
        d.act_min = p->act_min, d.act_max = p->act_max;
        te_conv2d_s16_dsp(&d, in, packed, bias_kind == 64 ? q.bias64 : NULL,
                          bias_kind == 32 ? q.bias32 : NULL, q.mult, q.shift, dout);
        compare(dout, ref, n_out, &q);
        n_dsp_cases++;
        free(packed);
        free(dout);
    }
#endif
    if (compare(out, ref, n_out, &q))
        printf("conv s16 %dx%dx%d k%dx%d s%d,%d d%d,%d f%d -> %dx%dx%d bias %d\n", p->in_h,
               p->in_w, p->in_c, p->k_h, p->k_w, p->stride_h, p->stride_w, p->dil_h, p->dil_w,
               p->filter_c, p->out_h, p->out_w, p->out_c, bias_kind);
    free_rq(&q);
    free(in);
    free(out);
    free(ref);
    free(w);
}

static void test_conv_case(void)
{
    static const int bias_kinds[] = {64, 64, 32, 0};
    te_conv2d_s16_params p;
    int groups = 1;
    memset(&p, 0, sizeof p);
    rand_window(&p, 5);
    p.in_c = pick_channels();
    p.out_c = pick_channels();
    if (test_rand() % 6 == 0) {
        groups = test_rand_range(2, 3);
        p.in_c = groups * test_rand_range(1, 5);
        p.out_c = groups * test_rand_range(1, 4);
    }
    p.filter_c = p.in_c / groups;
    run_conv(&p, bias_kinds[test_rand() % 4], test_rand() % 4 == 0);
}

/* An int32 accumulator that wraps: 1x1, 1024 channels of 32767 x 127. */
static void test_conv_wrap(void)
{
    te_conv2d_s16_params p;
    enum { C = 1024 };
    static int16_t in[C], out[2];
    static int8_t w[2 * C];
    int32_t mult[2], shift[2], bias[2] = {5, -7};
    int i, c;
    memset(&p, 0, sizeof p);
    p.batches = p.in_h = p.in_w = p.out_h = p.out_w = p.k_h = p.k_w = 1;
    p.stride_h = p.stride_w = p.dil_h = p.dil_w = 1;
    p.in_c = p.filter_c = C;
    p.out_c = 2;
    p.act_min = -32768;
    p.act_max = 32767;
    for (i = 0; i < C; i++) {
        in[i] = 32767;
        w[i] = 127;
        w[C + i] = -127;
    }
    for (c = 0; c < 2; c++) {
        int sh;
        te_quantize_multiplier(1.0 / 65536.0, &mult[c], &sh);
        shift[c] = sh;
    }
    te_conv2d_s16_b32(&p, in, w, bias, mult, shift, out);
    for (c = 0; c < 2; c++) {
        int64_t sum = (int64_t)C * 32767 * (c ? -127 : 127) + bias[c];
        int32_t want = ref_mbqm32((int32_t)(uint32_t)(uint64_t)sum, mult[c], shift[c]);
        CHECK(out[c] == (int16_t)(want < -32768 ? -32768 : want > 32767 ? 32767 : want));
    }
    te_conv2d_s16(&p, in, w, NULL, mult, shift, out); /* int64: no wrap */
    CHECK(out[0] == 32767 && out[1] == -32768);
}

/* ---- DEPTHWISE_CONV_2D -------------------------------------------------- */

static void ref_dw(const te_conv2d_s16_params *p, const int16_t *in, const int8_t *w,
                   const rq16 *q, int16_t *out)
{
    int b, oy, ox, oc, ky, kx;
    for (b = 0; b < p->batches; b++)
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++)
                for (oc = 0; oc < p->out_c; oc++) {
                    int64_t sum = 0;
                    for (ky = 0; ky < p->k_h; ky++)
                        for (kx = 0; kx < p->k_w; kx++) {
                            int iy = oy * p->stride_h - p->pad_top + ky * p->dil_h;
                            int ix = ox * p->stride_w - p->pad_left + kx * p->dil_w;
                            if (iy >= 0 && iy < p->in_h && ix >= 0 && ix < p->in_w)
                                sum += (int64_t)w[(ky * p->k_w + kx) * p->out_c + oc] *
                                       in[((b * p->in_h + iy) * p->in_w + ix) * p->in_c +
                                          oc / p->depth_mult];
                        }
                    out[((b * p->out_h + oy) * p->out_w + ox) * p->out_c + oc] =
                        ref_out(sum, q, oc, 0);
                }
}

static void test_dw_case(void)
{
    te_conv2d_s16_params p;
    size_t n_in, n_w, n_out;
    int16_t *in, *out, *ref;
    int8_t *w;
    rq16 q;
    memset(&p, 0, sizeof p);
    rand_window(&p, 7);
    p.in_c = pick_channels();
    p.depth_mult = test_rand() % 3 == 0 ? test_rand_range(2, 3) : 1;
    p.out_c = p.in_c * p.depth_mult;
    n_in = (size_t)p.batches * p.in_h * p.in_w * p.in_c;
    n_w = (size_t)p.k_h * p.k_w * p.out_c;
    n_out = (size_t)p.batches * p.out_h * p.out_w * p.out_c;
    in = malloc(sizeof(int16_t) * n_in);
    out = malloc(sizeof(int16_t) * n_out);
    ref = malloc(sizeof(int16_t) * n_out);
    w = malloc(n_w);
    fill_x(in, n_in);
    fill_w(w, n_w);
    make_rq(&q, p.out_c, p.k_h * p.k_w, test_rand() % 4 ? 64 : 0, test_rand() % 4 == 0);
    p.act_min = q.act_min;
    p.act_max = q.act_max;
    te_depthwise_conv2d_s16(&p, in, w, q.bias_kind ? q.bias64 : NULL, q.mult, q.shift, out);
    ref_dw(&p, in, w, &q, ref);
    if (compare(out, ref, n_out, &q))
        printf("dw s16 %dx%dx%d k%dx%d s%d,%d d%d,%d m%d\n", p.in_h, p.in_w, p.in_c, p.k_h,
               p.k_w, p.stride_h, p.stride_w, p.dil_h, p.dil_w, p.depth_mult);
    free_rq(&q);
    free(in);
    free(out);
    free(ref);
    free(w);
}

/* ---- FULLY_CONNECTED ------------------------------------------------------ */

static void test_fc_case(void)
{
    te_fully_connected_s16_params p;
    int16_t *in, *out, *ref;
    int8_t *w;
    rq16 q;
    int b, u, k;
    memset(&p, 0, sizeof p);
    p.batches = test_rand_range(1, 3);
    p.depth = test_rand_range(1, 300);
    p.units = test_rand_range(1, 40);
    in = malloc(sizeof(int16_t) * (size_t)(p.batches * p.depth));
    out = malloc(sizeof(int16_t) * (size_t)(p.batches * p.units));
    ref = malloc(sizeof(int16_t) * (size_t)(p.batches * p.units));
    w = malloc((size_t)(p.units * p.depth));
    fill_x(in, (size_t)(p.batches * p.depth));
    fill_w(w, (size_t)(p.units * p.depth));
    make_rq(&q, p.units, p.depth, test_rand() % 4 ? 64 : 0, 1);
    p.mult = q.mult[0];
    p.shift = q.shift[0];
    p.act_min = q.act_min;
    p.act_max = q.act_max;
    te_fully_connected_s16(&p, in, w, q.bias_kind ? q.bias64 : NULL, out);
    for (b = 0; b < p.batches; b++)
        for (u = 0; u < p.units; u++) {
            int64_t sum = 0;
            for (k = 0; k < p.depth; k++)
                sum += (int64_t)in[b * p.depth + k] * w[u * p.depth + k];
            ref[b * p.units + u] = ref_out(sum, &q, u, 0);
        }
    if (compare(out, ref, (size_t)(p.batches * p.units), &q))
        printf("fc s16 %d x %d -> %d\n", p.batches, p.depth, p.units);
    free_rq(&q);
    free(in);
    free(out);
    free(ref);
    free(w);
}

/* ---- requantization edge cases ------------------------------------------- */

static void test_mbqm64(void)
{
    static const int32_t mults[] = {0, 1 << 30, 0x7FFEFFFF, 0x7FFF0000, 0x7FFFFFFF, 1518500250};
    static const int shifts[] = {-31, -20, -8, -1, 0, 3, 7};
    static const int64_t xs[] = {0, 1, -1, 32767, -32768, 123456789, -987654321,
                                 (int64_t)1 << 40, -((int64_t)1 << 40)};
    unsigned i, j, k;
    for (i = 0; i < sizeof mults / sizeof mults[0]; i++)
        for (j = 0; j < sizeof shifts / sizeof shifts[0]; j++)
            for (k = 0; k < sizeof xs / sizeof xs[0]; k++) {
                if (shifts[j] > 0 && (xs[k] > (1 << 24) || xs[k] < -(1 << 24)))
                    continue; /* TFLite's result would not fit an int32 */
                CHECK(te_mul_by_quant_mult_i64(xs[k], mults[i], shifts[j]) ==
                      ref_mbqm64(xs[k], mults[i], shifts[j]));
            }
}

/* ---- operator checks ------------------------------------------------------ */

/* Tensor id of the checks' graphs: input scale 1/4096, others 0.01. */
static void mini_tensor(conv_graph *m, int id, te_dtype type, int rank, const int *shape,
                        int nscales)
{
    cg_tensor(m, id, type, rank, shape, nscales, id == 0 ? 1.0f / 4096.0f : 0.01f);
}

/* int16 CONV_2D / DEPTHWISE_CONV_2D 1x6x6x4 -> 1x6x6x4 3x3 SAME, or
 * FULLY_CONNECTED 1x24 -> 1x4; int64 bias. */
static void mini(conv_graph *m, int opcode)
{
    static const int x4[4] = {1, 6, 6, 4}, wc[4] = {4, 3, 3, 4}, wd[4] = {1, 3, 3, 4},
                     x2[2] = {1, 24}, wf[2] = {4, 24}, y2[2] = {1, 4}, b1[1] = {4};
    int fc = opcode == TE_OP_FULLY_CONNECTED;
    memset(m, 0, sizeof *m);
    mini_tensor(m, 0, TE_DT_INT16, fc ? 2 : 4, fc ? x2 : x4, 1);
    mini_tensor(m, 1, TE_DT_INT8, fc ? 2 : 4,
                fc ? wf : opcode == TE_OP_CONV_2D ? wc : wd, fc ? 1 : 4);
    m->t[1].q.quantized_dim = opcode == TE_OP_DEPTHWISE_CONV_2D ? 3 : 0;
    mini_tensor(m, 2, TE_DT_INT64, 1, b1, 1);
    m->scale[2][0] = m->scale[0][0] * m->scale[1][0];
    mini_tensor(m, 3, TE_DT_INT16, fc ? 2 : 4, fc ? y2 : x4, 1);
    cg_wire(m, opcode, 4);
}

static void test_checks(void)
{
    static const int ops[3] = {TE_OP_CONV_2D, TE_OP_DEPTHWISE_CONV_2D, TE_OP_FULLY_CONNECTED};
    conv_graph m;
    int i;
    for (i = 0; i < 3; i++) {
        mini(&m, ops[i]);
        CHECK(cg_check(&m) == 0);
        m.op.n_in = 2; /* no bias */
        CHECK(cg_check(&m) == 0);
        mini(&m, ops[i]);
        m.zp[0][0] = 3;
        CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "zero point") != NULL);
        mini(&m, ops[i]);
        m.zp[3][0] = -1;
        CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "zero point") != NULL);
        mini(&m, ops[i]);
        m.t[3].type = TE_DT_INT8; /* int16 in, int8 out */
        CHECK(cg_check(&m) == -1);
        mini(&m, ops[i]);
        m.t[2].type = TE_DT_INT32; /* TFLite Micro: CONV_2D and FULLY_CONNECTED */
        CHECK(cg_check(&m) == (ops[i] != TE_OP_DEPTHWISE_CONV_2D ? 0 : -1));
        mini(&m, ops[i]);
        m.t[2].type = TE_DT_INT16;
        CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "int64") != NULL);
        mini(&m, ops[i]);
        m.op.opt.activation = TE_ACT_RELU6;
        CHECK(cg_check(&m) == 0);
    }
    mini(&m, TE_OP_FULLY_CONNECTED);
    m.t[1].q.count = 4; /* per-channel: int8 inputs only in TFLite Micro */
    CHECK(cg_check(&m) == -1 && strstr(m.d.msg, "per tensor") != NULL);
}

int main(void)
{
    int i;
    test_seed(20261126u);
    test_mbqm64();
    test_conv_wrap();
    test_checks();
    for (i = 0; i < 500; i++)
        test_conv_case();
    for (i = 0; i < 500; i++)
        test_dw_case();
    for (i = 0; i < 500; i++)
        test_fc_case();
    printf("%ld of %ld outputs inside the clamp bounds\n", n_unclamped, n_outputs);
    CHECK(n_unclamped * 2 > n_outputs);
#if defined(TE_TARGET_DSP)
    printf("%ld CONV_2D cases through te_conv2d_s16_dsp\n", n_dsp_cases);
    CHECK(n_dsp_cases > 100);
#endif
    return test_summary();
}
