/* test_dw_fast.c - the fast DEPTHWISE_CONV_2D kernels against a plain
 * reference written the way TFLite Micro's DepthwiseConvPerChannel computes:
 *  - te_convfam_fast_requant's cheaper requantization, value by value;
 *  - the portable te_depthwise_conv2d_s8_fast, _fast_inplace and _ring,
 *    separate and in place: the library build (without TE_TARGET_DSP: the
 *    SSE2 path on x86) and the plain C path, compiled into this file;
 *  - the DSP kernels te_depthwise_dsp_s8_k<K>s<S> (ring) and
 *    te_depthwise_dsp_nhwc_s8 (channels-last), compiled into this file with
 *    TE_TARGET_DSP (their exact portable primitives on the host), separate
 *    and in place;
 * over random shapes, odd channel counts, strides, SAME/VALID and explicit
 * padding, depth multipliers 1-3 and random quantization. */
#define TE_TARGET_DSP 1

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/conv_family.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_depthwise_conv2d.h"
#include "te_depthwise_dsp.h"
#include "testlib.h"

/* the DSP kernels themselves, built here with TE_TARGET_DSP */
#include "te_depthwise_dsp.c"

/* The portable kernels' plain C path (what targets without SSE2 run),
 * built here under other names: with TE_TARGET_DSP the SSE2 path is off.
 * The library's (SSE2 on x86) are tested too. */
#define te_depthwise_conv2d_s8 te_dwplain_s8
#define te_depthwise_conv2d_s8_inplace te_dwplain_s8_inplace
#define te_depthwise_conv2d_s8_fast te_dwplain_s8_fast
#define te_depthwise_conv2d_s8_fast_inplace te_dwplain_s8_fast_inplace
#define te_depthwise_conv2d_s8_ring te_dwplain_s8_ring
#include "te_depthwise_conv2d.c"
#undef te_depthwise_conv2d_s8
#undef te_depthwise_conv2d_s8_inplace
#undef te_depthwise_conv2d_s8_fast
#undef te_depthwise_conv2d_s8_fast_inplace
#undef te_depthwise_conv2d_s8_ring

/* One implementation of the three fast kernels. */
typedef struct {
    const char *name;
    void (*fast)(const te_depthwise_conv2d_params *, const int8_t *, const int8_t *,
                 const int32_t *, const int32_t *, int8_t *);
    void (*fast_inplace)(const te_depthwise_conv2d_params *, int8_t *, const int8_t *,
                         const int32_t *, const int32_t *, int8_t *);
    void (*ring)(const te_depthwise_conv2d_params *, const int8_t *, const int8_t *,
                 const int32_t *, const int32_t *, int8_t *, int16_t *);
} fast_impl;

static const fast_impl impls[2] = {
    {"", te_depthwise_conv2d_s8_fast, te_depthwise_conv2d_s8_fast_inplace,
     te_depthwise_conv2d_s8_ring},
    {"plain ", te_dwplain_s8_fast, te_dwplain_s8_fast_inplace, te_dwplain_s8_ring}};

static const int channel_choices[] = {1, 2, 3, 4, 5, 8, 16, 17, 33, 24, 32, 41};

/* One random layer: geometry, data and quantization. */
typedef struct {
    int batches, h, w, c, mult, k_h, k_w, s_h, s_w, d_h, d_w;
    int pad_top, pad_left, out_h, out_w;
    int8_t *in, *wt;
    int32_t *bias, *m, *sh, *rq;
    int32_t *rq2; /* rq packed for the DSP ring kernels (TE_DEPTHWISE_DSP_RQ_EXACT) */
    int32_t in_zp, out_zp, act_min, act_max;
    int fast; /* every rq entry of the fast form */
} layer;

static int oc_n(const layer *l) { return l->c * l->mult; }
static size_t in_bytes(const layer *l) { return (size_t)l->batches * l->h * l->w * l->c; }
static size_t out_bytes(const layer *l)
{
    return (size_t)l->batches * l->out_h * l->out_w * oc_n(l);
}

/* TFLite's reference: int32 (wrapping) accumulator, requantization. */
static void reference(const layer *l, int8_t *out)
{
    int b, oy, ox, oc, ky, kx;
    for (b = 0; b < l->batches; b++)
        for (oy = 0; oy < l->out_h; oy++)
            for (ox = 0; ox < l->out_w; ox++)
                for (oc = 0; oc < oc_n(l); oc++) {
                    uint32_t acc = l->bias ? (uint32_t)l->bias[oc] : 0;
                    int32_t v;
                    for (ky = 0; ky < l->k_h; ky++)
                        for (kx = 0; kx < l->k_w; kx++) {
                            int iy = oy * l->s_h - l->pad_top + ky * l->d_h;
                            int ix = ox * l->s_w - l->pad_left + kx * l->d_w;
                            int x;
                            if (iy < 0 || iy >= l->h || ix < 0 || ix >= l->w)
                                continue;
                            x = l->in[((b * l->h + iy) * l->w + ix) * l->c + oc / l->mult];
                            acc += (uint32_t)((x - l->in_zp) *
                                              l->wt[(ky * l->k_w + kx) * oc_n(l) + oc]);
                        }
                    v = te_mul_by_quant_mult((int32_t)acc, l->m[oc], (int)l->sh[oc]);
                    v = (int32_t)((uint32_t)v + (uint32_t)l->out_zp);
                    v = v < l->act_min ? l->act_min : v;
                    v = v > l->act_max ? l->act_max : v;
                    out[((b * l->out_h + oy) * l->out_w + ox) * oc_n(l) + oc] = (int8_t)v;
                }
}

static int out_size(int same, int in, int k, int stride, int dil)
{
    int eff = (k - 1) * dil + 1;
    return same ? (in + stride - 1) / stride : (in + stride - eff) / stride;
}

/* The padding before for SAME/VALID of the input with explicit padding
 * `extra` before and `extra2` after (what conv_family computes). */
static void axis(int same, int in, int k, int stride, int dil, int extra, int extra2, int *out,
                 int *pad)
{
    int n = in + extra + extra2, total;
    *out = out_size(same, n, k, stride, dil);
    total = (*out - 1) * stride + (k - 1) * dil + 1 - n;
    *pad = extra + (total > 0 ? total / 2 : 0);
}

/* |accumulator| bound of channel oc, as the emitter computes it. */
static int64_t bound(const layer *l, int oc)
{
    int64_t sum = 0, b = l->bias ? l->bias[oc] : 0;
    int64_t xa = -128 - (int64_t)l->in_zp, xb = 127 - (int64_t)l->in_zp;
    int t;
    xa = xa < 0 ? -xa : xa;
    xb = xb < 0 ? -xb : xb;
    for (t = 0; t < l->k_h * l->k_w; t++) {
        int v = l->wt[t * oc_n(l) + oc];
        sum += v < 0 ? -v : v;
    }
    return (b < 0 ? -b : b) + sum * (xa > xb ? xa : xb);
}

static void make_quant(layer *l)
{
    int n = oc_n(l), oc;
    double in_s = 0.005 + 0.1 * (test_rand() % 1000) / 1000.0;
    double out_s = (0.01 + 0.3 * (test_rand() % 1000) / 1000.0) * (l->k_h * l->k_w > 9 ? 3 : 1);
    l->bias = test_rand() % 4 ? malloc(sizeof(int32_t) * (size_t)n) : NULL;
    l->m = malloc(sizeof(int32_t) * (size_t)n);
    l->sh = malloc(sizeof(int32_t) * (size_t)n);
    l->rq = malloc(sizeof(int32_t) * 3 * (size_t)n);
    l->rq2 = malloc(sizeof(int32_t) * 2 * (size_t)n);
    l->in_zp = test_rand_range(-128, 127);
    l->out_zp = test_rand_range(-128, 127);
    l->fast = 1;
    for (oc = 0; oc < n; oc++) {
        double ws = 0.001 + 0.05 * (test_rand() % 1000) / 1000.0;
        int s;
        if (l->bias)
            l->bias[oc] = test_rand_range(-30000, 30000);
        te_quantize_multiplier(in_s * ws / out_s, &l->m[oc], &s);
        switch (test_rand() % 16) { /* rare: zero scale, huge / tiny / > 1 multipliers */
        case 0:
            l->m[oc] = 0;
            s = 0;
            break;
        case 1:
            s = test_rand_range(-31, 1);
            break;
        default:
            break;
        }
        l->sh[oc] = s;
        l->fast &= te_convfam_fast_requant(l->m[oc], s, l->out_zp, bound(l, oc), l->rq + 3 * oc);
        l->rq2[2 * oc] = l->rq[3 * oc];
        l->rq2[2 * oc + 1] = l->rq[3 * oc + 2] ? l->rq[3 * oc + 2]
                                               : l->rq[3 * oc + 1] - TE_DEPTHWISE_DSP_RQ_EXACT;
    }
    l->act_min = -128;
    l->act_max = 127;
    if (test_rand() % 3 == 0) {
        l->act_min = l->out_zp;
        l->act_max = test_rand() % 2 ? 127 : TE_MIN(127, l->out_zp + test_rand_range(1, 120));
    }
}

static void fill(int8_t *v, size_t n, int lim)
{
    size_t i;
    for (i = 0; i < n; i++)
        v[i] = (int8_t)test_rand_range(-lim, lim);
}

/* A random layer of one of these kinds: */
enum {
    ANY,      /* multiplier 1-3 (or 8, 16), filters up to 7x7, strides up to 3 */
    RING,     /* multiplier 1, square 3x3 / 5x5 / 7x7, equal strides 1 or 2 */
    PORTABLE  /* multiplier 1, filters up to 7x7, strides up to 3, dilation 1 or 2 */
};

static void make_layer(layer *l, int kind)
{
    static const int ks[] = {3, 5, 7};
    int same = test_rand() % 2, et, eb, el, er;
    memset(l, 0, sizeof *l);
    l->batches = test_rand() % 5 == 0 ? 2 : 1;
    l->c = channel_choices[test_rand() % 12];
    l->mult = kind != ANY || test_rand() % 2 ? 1 : test_rand_range(1, 3);
    if (kind == ANY && test_rand() % 8 == 0) { /* person_detect's first layer: 1 -> 8 */
        l->mult = test_rand() % 2 ? 8 : 16;
        l->c = test_rand_range(1, 3);
    }
    l->k_h = kind == RING ? ks[test_rand() % 3] : test_rand_range(1, 7);
    l->k_w = kind == RING ? l->k_h : test_rand_range(1, 7);
    l->s_h = kind == RING ? test_rand_range(1, 2) : test_rand_range(1, 3);
    l->s_w = kind == RING ? l->s_h : test_rand_range(1, 3);
    l->d_h = kind == PORTABLE && test_rand() % 4 == 0 ? 2 : 1;
    l->d_w = kind == PORTABLE && test_rand() % 4 == 0 ? 2 : 1;
    et = test_rand() % 3 == 0 ? test_rand_range(0, l->k_h - 1) : 0;
    eb = test_rand() % 3 == 0 ? test_rand_range(0, l->k_h - 1) : 0;
    el = test_rand() % 3 == 0 ? test_rand_range(0, l->k_w - 1) : 0;
    er = test_rand() % 3 == 0 ? test_rand_range(0, l->k_w - 1) : 0;
    do {
        l->h = test_rand_range(1, 14) + (same ? 0 : (l->k_h - 1) * l->d_h);
        l->w = test_rand_range(1, 14) + (same ? 0 : (l->k_w - 1) * l->d_w);
        axis(same, l->h, l->k_h, l->s_h, l->d_h, et, eb, &l->out_h, &l->pad_top);
        axis(same, l->w, l->k_w, l->s_w, l->d_w, el, er, &l->out_w, &l->pad_left);
    } while (l->out_h < 1 || l->out_w < 1);
    l->in = malloc(in_bytes(l));
    l->wt = malloc((size_t)l->k_h * l->k_w * oc_n(l));
    fill(l->in, in_bytes(l), 128);
    fill(l->wt, (size_t)l->k_h * l->k_w * oc_n(l), test_rand() % 4 ? 127 : 6);
    l->in[0] = -128;
    make_quant(l);
}

static void free_layer(layer *l)
{
    free(l->in);
    free(l->wt);
    free(l->bias);
    free(l->m);
    free(l->sh);
    free(l->rq);
    free(l->rq2);
}

/* Output rows land only on input rows saved first (the emitter's check). */
static int inplace_ok(const layer *l, int span)
{
    int oy;
    if (l->mult != 1 || (long)l->out_h * l->out_w > (long)l->h * l->w)
        return 0;
    for (oy = 0; oy < l->out_h; oy++) {
        long saved = (long)oy * l->s_h - l->pad_top + span;
        saved = saved < l->h ? saved : l->h;
        if ((long)(oy + 1) * l->out_w > saved * l->w)
            return 0;
    }
    return 1;
}

static int report(const layer *l, const char *kernel, const int8_t *got, const int8_t *want,
                  size_t n)
{
    size_t i;
    for (i = 0; i < n && got[i] == want[i]; i++)
        ;
    if (i < n)
        printf("%s: %dx%dx%d m%d k%dx%d s%d,%d pad %d,%d -> %dx%d: byte %zu is %d, want %d\n",
               kernel, l->h, l->w, l->c, l->mult, l->k_h, l->k_w, l->s_h, l->s_w, l->pad_top,
               l->pad_left, l->out_h, l->out_w, i, got[i], want[i]);
    return i == n;
}

/* ---------------------------------------------------- fast requantization */

static void test_fast_requant(void)
{
    int iter, bad = 0, fast = 0;
    for (iter = 0; iter < 200000; iter++) {
        int32_t m, e3[3], zp = test_rand_range(-128, 127), acc, v, want;
        int sh;
        int64_t bnd = iter % 3 ? test_rand_range(0, 1 << 29) : test_rand_range(0, 70000);
        if (iter % 7 == 0) {
            m = 0;
            sh = 0;
        } else {
            m = (int32_t)(0x40000000u + (test_rand() & 0x3fffffffu));
            sh = iter % 5 == 0 ? test_rand_range(-31, 2) : test_rand_range(-14, -1);
        }
        if (!te_convfam_fast_requant(m, sh, zp, bnd, e3))
            continue;
        fast++;
        switch (iter % 4) { /* the bound, its edges, ties of the rounding */
        case 0: acc = (int32_t)(iter % 8 ? bnd : -bnd); break;
        case 1: acc = test_rand_range(-3, 3); break;
        default: acc = test_rand_range((int32_t)-bnd, (int32_t)bnd); break;
        }
        want = te_mul_by_quant_mult(acc, m, sh) + zp;
        v = te_depthwise_dsp_smmlar(2 * acc, e3[0], e3[1] - (acc < 0)) >> e3[2];
        bad += v != want;
        if (v != want && bad < 5)
            printf("fast requant: acc %d m %d shift %d zp %d: %d, want %d\n", acc, m, sh, zp, v,
                   want);
    }
    CHECK(bad == 0);
    CHECK(fast > 100000);
}

/* ------------------------------------------------------ portable kernels */

static te_depthwise_conv2d_params conv_params(const layer *l)
{
    te_depthwise_conv2d_params p;
    memset(&p, 0, sizeof p);
    p.batches = l->batches;
    p.in_h = l->h;
    p.in_w = l->w;
    p.in_c = l->c;
    p.out_h = l->out_h;
    p.out_w = l->out_w;
    p.depth_mult = l->mult;
    p.k_h = l->k_h;
    p.k_w = l->k_w;
    p.stride_h = l->s_h;
    p.stride_w = l->s_w;
    p.dil_h = l->d_h;
    p.dil_w = l->d_w;
    p.pad_top = l->pad_top;
    p.pad_left = l->pad_left;
    p.input_offset = -l->in_zp;
    p.output_offset = l->out_zp;
    p.act_min = l->act_min;
    p.act_max = l->act_max;
    return p;
}

/* te_depthwise_conv2d_s8_fast with multipliers 1-3 (non-square filters,
 * strides up to 3). */
static void test_fast_mult_case(void)
{
    layer l;
    te_depthwise_conv2d_params p;
    int8_t *want, *got;
    int32_t *zero;
    make_layer(&l, ANY);
    p = conv_params(&l);
    want = malloc(out_bytes(&l));
    got = malloc(out_bytes(&l));
    zero = calloc((size_t)oc_n(&l), sizeof *zero);
    reference(&l, want);
    te_depthwise_conv2d_s8_fast(&p, l.in, l.wt, l.bias ? l.bias : zero, l.rq, got);
    CHECK(report(&l, "fast (multiplier)", got, want, out_bytes(&l)));
    memset(got, 0x55, out_bytes(&l));
    te_dwplain_s8_fast(&p, l.in, l.wt, l.bias ? l.bias : zero, l.rq, got);
    CHECK(report(&l, "plain fast (multiplier)", got, want, out_bytes(&l)));
    free(want);
    free(got);
    free(zero);
    free_layer(&l);
}

/* One implementation on a layer: separate, then in place when the
 * emitter would allow it (output buffers exactly sized, for ASan). */
static void portable_impl(const layer *l, const fast_impl *k, const int8_t *want)
{
    const te_depthwise_conv2d_params p = conv_params(l);
    const int32_t *bias = l->bias;
    const int span = (l->k_h - 1) * l->d_h + 1;
    int32_t *zero = calloc((size_t)l->c, sizeof *zero);
    int8_t *got = malloc(out_bytes(l)), *data = malloc(in_bytes(l));
    int16_t *ring = malloc((size_t)te_depthwise_conv2d_ring_bytes(&p));
    char name[64];
    bias = bias ? bias : zero;
    memset(got, 0x55, out_bytes(l));
    k->fast(&p, l->in, l->wt, bias, l->rq, got);
    snprintf(name, sizeof name, "%sfast", k->name);
    CHECK(report(l, name, got, want, out_bytes(l)));
    if (l->s_w <= 2) {
        memset(got, 0x55, out_bytes(l));
        k->ring(&p, l->in, l->wt, bias, l->rq, got, ring);
        snprintf(name, sizeof name, "%sring", k->name);
        CHECK(report(l, name, got, want, out_bytes(l)));
    }
    if (inplace_ok(l, span)) {
        int8_t *rows = malloc((size_t)span * l->w * (l->c < 16 ? l->c : 16));
        memcpy(data, l->in, in_bytes(l));
        k->fast_inplace(&p, data, l->wt, bias, l->rq, rows);
        snprintf(name, sizeof name, "%sfast in place", k->name);
        CHECK(report(l, name, data, want, out_bytes(l)));
        free(rows);
        if (l->s_w <= 2) {
            memcpy(data, l->in, in_bytes(l));
            k->ring(&p, data, l->wt, bias, l->rq, data, ring);
            snprintf(name, sizeof name, "%sring in place", k->name);
            CHECK(report(l, name, data, want, out_bytes(l)));
        }
    }
    free(zero);
    free(got);
    free(data);
    free(ring);
}

static void test_portable_case(void)
{
    layer l;
    int8_t *want;
    make_layer(&l, PORTABLE);
    if (l.mult != 1) {
        free_layer(&l);
        return;
    }
    want = malloc(out_bytes(&l));
    reference(&l, want);
    portable_impl(&l, &impls[0], want);
    portable_impl(&l, &impls[1], want);
    free(want);
    free_layer(&l);
}

/* ------------------------------------------------------------ DSP kernels */

typedef void (*dsp_kernel)(const te_depthwise_dsp_params *, const int8_t *, int8_t *,
                           const int8_t *, const int32_t *, const int32_t *, uint32_t *);

static dsp_kernel ring_kernel(int k, int s)
{
    static const dsp_kernel ks[3][2] = {{te_depthwise_dsp_s8_k3s1, te_depthwise_dsp_s8_k3s2},
                                        {te_depthwise_dsp_s8_k5s1, te_depthwise_dsp_s8_k5s2},
                                        {te_depthwise_dsp_s8_k7s1, te_depthwise_dsp_s8_k7s2}};
    return ks[(k - 3) / 2][s - 1];
}

static int dsp_mode(const layer *l)
{
    if (!l->fast)
        return TE_DEPTHWISE_DSP_SLOW;
    return l->act_min == -128 && l->act_max == 127 ? TE_DEPTHWISE_DSP_SAT
                                                   : TE_DEPTHWISE_DSP_CLAMP;
}

/* Ring parameters: row or column mode, any band, ring rows and width at
 * least what the kernel needs (the emitter picks the smallest), either
 * number of blocks.  Column mode is the same on the transposed image. */
static size_t ring_params(const layer *l, te_depthwise_dsp_params *p)
{
    const int cols = test_rand() % 2;
    const int pad_px = cols ? l->pad_top : l->pad_left, len = cols ? l->h : l->w;
    const int olen = cols ? l->out_h : l->out_w, olines = cols ? l->out_w : l->out_h;
    int nw = (l->k_h + 1) / 2, store = (pad_px + len + 1) / 2;
    int read = l->s_w == 1 ? (olen - 1) / 2 + nw + 1 : olen - 1 + nw;
    memset(p, 0, sizeof *p);
    p->batches = l->batches;
    p->in_h = l->h;
    p->in_w = l->w;
    p->c = l->c;
    p->out_h = l->out_h;
    p->out_w = l->out_w;
    p->pad_top = l->pad_top;
    p->pad_left = l->pad_left;
    p->cols = cols;
    p->band = test_rand() % 2 ? olines : test_rand_range(1, olines);
    p->ring_h = (p->band - 1) * l->s_h + l->k_h;
    p->ring_h += test_rand() % 3 == 0 ? test_rand_range(1, 3) : 0;
    p->ring_w = (store > read ? store : read) + (test_rand() % 3 == 0 ? 1 : 0);
    p->blocks = l->k_h == 3 || test_rand() % 2 ? 4 : 1;
    p->mode = dsp_mode(l);
    p->input_offset = -l->in_zp;
    p->output_offset = l->out_zp;
    p->act_min = l->act_min;
    p->act_max = l->act_max;
    return (size_t)(4 * p->ring_h * p->ring_w + 2 * p->band * l->k_h +
                    p->blocks * (l->k_h * (l->k_h + 1) + 15)) * 4;
}

/* In place: rows mode under the header's condition, column mode with a
 * single band. */
static int ring_inplace_ok(const layer *l, const te_depthwise_dsp_params *p)
{
    if (p->cols)
        return p->band >= l->out_w && l->out_h * l->out_w <= l->h * l->w;
    return inplace_ok(l, l->k_h);
}

/* Accumulators must stay below 2^29 for the doubled sums. */
static int dsp_bounded(const layer *l)
{
    int oc;
    for (oc = 0; oc < oc_n(l); oc++)
        if (bound(l, oc) > ((int64_t)1 << 29))
            return 0;
    return 1;
}

static void test_ring_case(void)
{
    layer l;
    te_depthwise_dsp_params p;
    int8_t *want, *got;
    uint32_t *scratch;
    size_t sb;
    make_layer(&l, RING);
    if (!dsp_bounded(&l)) {
        free_layer(&l);
        return;
    }
    sb = ring_params(&l, &p);
    want = malloc(out_bytes(&l) + in_bytes(&l));
    got = malloc(out_bytes(&l) + in_bytes(&l));
    scratch = malloc(sb);
    reference(&l, want);
    ring_kernel(l.k_h, l.s_h)(&p, l.in, got, l.wt, l.bias, l.rq2, scratch);
    CHECK(report(&l, p.cols ? "dsp ring (columns)" : "dsp ring", got, want, out_bytes(&l)));
    if (ring_inplace_ok(&l, &p)) {
        memcpy(got, l.in, in_bytes(&l));
        ring_kernel(l.k_h, l.s_h)(&p, got, got, l.wt, l.bias, l.rq2, scratch);
        CHECK(report(&l, p.cols ? "dsp ring (columns) in place" : "dsp ring in place", got,
                     want, out_bytes(&l)));
    }
    free(want);
    free(got);
    free(scratch);
    free_layer(&l);
}

static void test_nhwc_case(void)
{
    layer l;
    te_depthwise_dsp_nhwc_params p;
    int8_t *want, *got;
    uint32_t *scratch;
    make_layer(&l, ANY);
    if (!dsp_bounded(&l)) {
        free_layer(&l);
        return;
    }
    memset(&p, 0, sizeof p);
    p.batches = l.batches;
    p.in_h = l.h;
    p.in_w = l.w;
    p.c = l.c;
    p.out_h = l.out_h;
    p.out_w = l.out_w;
    p.depth_mult = l.mult;
    p.k_h = l.k_h;
    p.k_w = l.k_w;
    p.stride_h = l.s_h;
    p.stride_w = l.s_w;
    p.pad_top = l.pad_top;
    p.pad_left = l.pad_left;
    p.mode = dsp_mode(&l);
    p.input_offset = -l.in_zp;
    p.output_offset = l.out_zp;
    p.act_min = l.act_min;
    p.act_max = l.act_max;
    want = malloc(out_bytes(&l) + in_bytes(&l));
    got = malloc(out_bytes(&l) + in_bytes(&l));
    scratch = malloc((size_t)8 * l.k_h * (l.w + l.k_w));
    reference(&l, want);
    te_depthwise_dsp_nhwc_s8(&p, l.in, got, l.wt, l.bias, l.rq, scratch);
    CHECK(report(&l, "dsp nhwc", got, want, out_bytes(&l)));
    if (inplace_ok(&l, l.k_h)) {
        memcpy(got, l.in, in_bytes(&l));
        te_depthwise_dsp_nhwc_s8(&p, got, got, l.wt, l.bias, l.rq, scratch);
        CHECK(report(&l, "dsp nhwc in place", got, want, out_bytes(&l)));
    }
    free(want);
    free(got);
    free(scratch);
    free_layer(&l);
}

int main(void)
{
    int i;
    test_seed(20261121);
    test_fast_requant();
    for (i = 0; i < 1500; i++) {
        test_portable_case();
        test_fast_mult_case();
        test_ring_case();
        test_nhwc_case();
    }
    return test_summary();
}
