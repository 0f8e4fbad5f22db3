/* test_dw_dsp.c - the DSP paths of DEPTHWISE_CONV_2D for every depth
 * multiplier, against a plain reference written the way TFLite Micro's
 * DepthwiseConvPerChannel computes (int32 wrapping accumulator, per-channel
 * MultiplyByQuantizedMultiplier, zero point, clamp):
 *  - te_depthwise_dsp_nhwc_s8 (runtime/armv7em/te_depthwise_dsp.c):
 *    multipliers 1-8, 1-17 input channels, filters up to 7 rows and 9
 *    columns, strides 1-3, every padding, separate and in place, with the
 *    requantization entries op_depthwise_conv2d.c emits;
 *  - one input channel as a convolution, te_conv2d_dsp_s8
 *    (runtime/armv7em/te_conv2d_dsp.c): multipliers 1-8, filters up to
 *    12x12 (micro_speech's 10x8), strides 1-3, dilations 1-2, with the
 *    constants op_depthwise_conv2d.c makes (te_convfam_dw_filter_rows,
 *    te_convfam_gemm_prepare, te_convfam_dsp_s8_layout/_requant), huge
 *    biases and extreme multipliers included (the exact requantization).
 * Built with TE_TARGET_DSP: te_common.h's exact portable SMLAD / SXTB16 on
 * the host, the real instructions on a Cortex-M (tests/qemu/qemu.cmake:
 * qemu.unit_dw_dsp.m4/.m7).  CONV_DSP_CASES sets the number of layers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TE_TARGET_DSP 1
#undef TE_KERNEL
#include "te_common.h" /* TE_KERNEL = static TE_UNUSED */
#include "te_conv2d_dsp.c"
#include "te_depthwise_dsp.c"

#include "ops/conv_family.h"
#include "quant/quant.h"
#include "testlib.h"

#ifndef CONV_DSP_CASES
#define CONV_DSP_CASES 3000
#endif

/* One random layer. */
typedef struct {
    int batches, h, w, c, mult, k_h, k_w, s_h, s_w, d_h, d_w;
    int pad_top, pad_left, out_h, out_w;
    int8_t *in, *wt;              /* input; filter [k_h][k_w][c * mult] */
    int32_t *bias, *m, *sh;       /* bias may be NULL */
    int32_t in_zp, out_zp, act_min, act_max;
} layer;

static int oc_n(const layer *l) { return l->c * l->mult; }
static int taps(const layer *l) { return l->k_h * l->k_w; }
static size_t in_bytes(const layer *l) { return (size_t)l->batches * l->h * l->w * l->c; }
static size_t out_bytes(const layer *l)
{
    return (size_t)l->batches * l->out_h * l->out_w * oc_n(l);
}

static void reference(const layer *l, int8_t *out)
{
    int b, oy, ox, oc, ky, kx;
    for (b = 0; b < l->batches; b++)
        for (oy = 0; oy < l->out_h; oy++)
            for (ox = 0; ox < l->out_w; ox++)
                for (oc = 0; oc < oc_n(l); oc++) {
                    uint32_t acc = 0;
                    int32_t v;
                    for (ky = 0; ky < l->k_h; ky++)
                        for (kx = 0; kx < l->k_w; kx++) {
                            int iy = oy * l->s_h - l->pad_top + ky * l->d_h;
                            int ix = ox * l->s_w - l->pad_left + kx * l->d_w;
                            int x;
                            if (iy < 0 || iy >= l->h || ix < 0 || ix >= l->w)
                                continue;
                            x = l->in[(((long)b * l->h + iy) * l->w + ix) * l->c + oc / l->mult];
                            acc += (uint32_t)((x - l->in_zp) *
                                              l->wt[(ky * l->k_w + kx) * oc_n(l) + oc]);
                        }
                    if (l->bias)
                        acc += (uint32_t)l->bias[oc];
                    v = te_mul_by_quant_mult((int32_t)acc, l->m[oc], (int)l->sh[oc]);
                    v = te_clamp_i32((int32_t)((uint32_t)v + (uint32_t)l->out_zp), l->act_min,
                                     l->act_max);
                    out[(((long)b * l->out_h + oy) * l->out_w + ox) * oc_n(l) + oc] = (int8_t)v;
                }
}

/* |accumulator| bound of channel oc, as op_depthwise_conv2d.c's acc_bound. */
static int64_t bound(const layer *l, int oc)
{
    int64_t sum = 0, b = l->bias ? l->bias[oc] : 0;
    int64_t xa = -128 - (int64_t)l->in_zp, xb = 127 - (int64_t)l->in_zp;
    int t;
    xa = xa < 0 ? -xa : xa;
    xb = xb < 0 ? -xb : xb;
    for (t = 0; t < taps(l); t++) {
        int v = l->wt[t * oc_n(l) + oc];
        sum += v < 0 ? -v : v;
    }
    return (b < 0 ? -b : b) + sum * (xa > xb ? xa : xb);
}

/* Per-channel quantization; wide: extreme cases too (huge biases, left
 * shifts, tiny multipliers), which only the exact requantization takes. */
static void make_quant(layer *l, int wide)
{
    const int n = oc_n(l);
    const double in_s = 0.005 + 0.1 * (test_rand() % 1000) / 1000.0;
    const double out_s = (0.01 + 0.3 * (test_rand() % 1000) / 1000.0) * (taps(l) > 9 ? 3 : 1);
    int oc;
    l->bias = test_rand() % 4 ? malloc(sizeof(int32_t) * (size_t)n) : NULL;
    l->m = malloc(sizeof(int32_t) * (size_t)n);
    l->sh = malloc(sizeof(int32_t) * (size_t)n);
    l->in_zp = test_rand_range(-128, 127);
    l->out_zp = test_rand_range(-128, 127);
    for (oc = 0; oc < n; oc++) {
        const double ws = 0.001 + 0.05 * (test_rand() % 1000) / 1000.0;
        int s;
        if (l->bias)
            l->bias[oc] = test_rand_range(-30000, 30000);
        te_quantize_multiplier(in_s * ws / out_s, &l->m[oc], &s);
        switch (test_rand() % (wide ? 12 : 24)) {
        case 0: /* zero scale */
            l->m[oc] = 0;
            s = 0;
            break;
        case 1:
            s = test_rand_range(-31, 1);
            break;
        case 2:
            if (wide && l->bias)
                l->bias[oc] = (int32_t)test_rand();
            break;
        case 3:
            if (wide)
                s = test_rand_range(1, 3);
            break;
        default:
            break;
        }
        l->sh[oc] = s;
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

/* Geometry (test_conv_axis: SAME, VALID or explicit padding), data and
 * quantization of a layer with c input channels and multiplier mult. */
static void make_layer(layer *l, int c, int mult, int max_k, int max_dil, int wide)
{
    memset(l, 0, sizeof *l);
    l->batches = test_rand() % 6 == 0 ? 2 : 1;
    l->c = c;
    l->mult = mult;
    l->k_h = test_rand_range(1, max_k);
    l->k_w = test_rand_range(1, max_k + (max_k < 9 ? 2 : 0));
    l->s_h = test_rand_range(1, 3);
    l->s_w = test_rand_range(1, 3);
    l->d_h = test_rand() % 4 == 0 ? test_rand_range(1, max_dil) : 1;
    l->d_w = test_rand() % 4 == 0 ? test_rand_range(1, max_dil) : 1;
    test_conv_axis(l->k_h, l->d_h, l->s_h, 16, &l->h, &l->pad_top, &l->out_h);
    test_conv_axis(l->k_w, l->d_w, l->s_w, 16, &l->w, &l->pad_left, &l->out_w);
    l->in = malloc(in_bytes(l));
    l->wt = malloc((size_t)taps(l) * (size_t)oc_n(l));
    fill(l->in, in_bytes(l), 128);
    fill(l->wt, (size_t)taps(l) * (size_t)oc_n(l), test_rand() % 4 ? 127 : 6);
    make_quant(l, wide);
}

static void free_layer(layer *l)
{
    free(l->in);
    free(l->wt);
    free(l->bias);
    free(l->m);
    free(l->sh);
}

static int same_bytes(const layer *l, const char *kernel, const int8_t *got, const int8_t *want)
{
    size_t i, n = out_bytes(l);
    for (i = 0; i < n && got[i] == want[i]; i++)
        ;
    if (i < n)
        printf("%s: %dx%dx%dx%d m%d k%dx%d s%d,%d d%d,%d pad %d,%d -> %dx%d: byte %zu is %d, "
               "want %d\n",
               kernel, l->batches, l->h, l->w, l->c, l->mult, l->k_h, l->k_w, l->s_h, l->s_w,
               l->d_h, l->d_w, l->pad_top, l->pad_left, l->out_h, l->out_w, i, got[i], want[i]);
    return i == n;
}

/* ---- te_depthwise_dsp_nhwc_s8 ------------------------------------------- */

static long nhwc_cases, nhwc_by_mult[9];

/* Output rows land only on input rows saved first (the emitter's check). */
static int inplace_ok(const layer *l)
{
    int oy;
    if (l->mult != 1 || (long)l->out_h * l->out_w > (long)l->h * l->w)
        return 0;
    for (oy = 0; oy < l->out_h; oy++) {
        long saved = (long)oy * l->s_h - l->pad_top + l->k_h;
        saved = saved < l->h ? saved : l->h;
        if ((long)(oy + 1) * l->out_w > saved * l->w)
            return 0;
    }
    return 1;
}

static void nhwc_case(int mult)
{
    static const int chans[] = {1, 2, 3, 4, 5, 7, 8, 16, 17};
    te_depthwise_dsp_nhwc_params p;
    layer l;
    int32_t *rq;
    int8_t *want, *got;
    uint32_t *scratch;
    int oc, fast = 1;
    make_layer(&l, chans[test_rand() % 9], mult, 7, 1, 0);
    rq = malloc(sizeof(int32_t) * 3 * (size_t)oc_n(&l));
    for (oc = 0; oc < oc_n(&l); oc++) {
        if (bound(&l, oc) > ((int64_t)1 << 29)) { /* the kernel's precondition */
            free(rq);
            free_layer(&l);
            return;
        }
        fast &= te_convfam_fast_requant(l.m[oc], (int)l.sh[oc], l.out_zp, bound(&l, oc),
                                        rq + 3 * oc);
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
    p.mode = !fast ? TE_DEPTHWISE_DSP_SLOW
             : l.act_min == -128 && l.act_max == 127 ? TE_DEPTHWISE_DSP_SAT
                                                     : TE_DEPTHWISE_DSP_CLAMP;
    p.input_offset = -l.in_zp;
    p.output_offset = l.out_zp;
    p.act_min = l.act_min;
    p.act_max = l.act_max;
    want = malloc(out_bytes(&l) + in_bytes(&l));
    got = malloc(out_bytes(&l) + in_bytes(&l));
    scratch = malloc((size_t)8 * l.k_h * (l.w + l.k_w)); /* what the emitter gives */
    reference(&l, want);
    te_depthwise_dsp_nhwc_s8(&p, l.in, got, l.wt, l.bias, rq, scratch);
    CHECK(same_bytes(&l, "dsp nhwc", got, want));
    if (inplace_ok(&l)) {
        memcpy(got, l.in, in_bytes(&l));
        te_depthwise_dsp_nhwc_s8(&p, got, got, l.wt, l.bias, rq, scratch);
        CHECK(same_bytes(&l, "dsp nhwc in place", got, want));
    }
    nhwc_cases++;
    nhwc_by_mult[mult]++;
    free(want);
    free(got);
    free(scratch);
    free(rq);
    free_layer(&l);
}

/* ---- one input channel: te_conv2d_dsp_s8 -------------------------------- */

static long conv_cases, conv_fast, conv_by_mult[9];

/* The constants op_depthwise_conv2d.c emits (dsp_conv_consts). */
static int conv_consts(const layer *l, int k_pad, int32_t **words, int32_t **q8)
{
    const int oc = l->mult, k = taps(l), n = (oc + 3) / 4 * 4;
    te_convfam_gemm_spec s;
    int8_t *rows = malloc((size_t)oc * (size_t)k);
    int16_t *w16 = malloc(sizeof(int16_t) * (size_t)n * (size_t)k_pad);
    int32_t *q = malloc(sizeof(int32_t) * (size_t)n * 4);
    int fast;
    *words = malloc(sizeof(int32_t) * (size_t)(oc + 1) / 2 * (size_t)k_pad / 2);
    *q8 = malloc(sizeof(int32_t) * (size_t)(oc + 1) / 2 * 8);
    te_convfam_dw_filter_rows(k, oc, l->wt, rows);
    memset(&s, 0, sizeof s);
    s.out_c = oc;
    s.k = k;
    s.k_pad = k_pad;
    s.dsp = 1;
    s.input_zp = l->in_zp;
    s.output_zp = l->out_zp;
    s.act_min = l->act_min;
    s.act_max = l->act_max;
    fast = te_convfam_gemm_prepare(&s, rows, l->bias, l->m, l->sh, w16, q);
    te_convfam_dsp_s8_layout(oc, k, k_pad, rows, *words);
    te_convfam_dsp_s8_requant(oc, q, *q8);
    free(rows);
    free(w16);
    free(q);
    return fast;
}

static void conv_case(int mult)
{
    te_conv2d_dsp_params p;
    layer l;
    int32_t *words, *q8;
    int8_t *want, *got, *scratch;
    make_layer(&l, 1, mult, 12, 2, 1);
    memset(&p, 0, sizeof p);
    p.batches = l.batches;
    p.in_h = l.h;
    p.in_w = l.w;
    p.in_c = 1;
    p.out_h = l.out_h;
    p.out_w = l.out_w;
    p.out_c = l.mult;
    p.k_h = l.k_h;
    p.k_w = l.k_w;
    p.stride_h = l.s_h;
    p.stride_w = l.s_w;
    p.dil_h = l.d_h;
    p.dil_w = l.d_w;
    p.pad_top = l.pad_top;
    p.pad_left = l.pad_left;
    p.k_pad = te_convfam_gemm_k_pad(taps(&l), 1);
    p.input_zp = l.in_zp;
    p.output_offset = l.out_zp;
    p.act_min = l.act_min;
    p.act_max = l.act_max;
    p.fast_rq = conv_consts(&l, p.k_pad, &words, &q8);
    want = malloc(out_bytes(&l));
    got = malloc(out_bytes(&l));
    scratch = malloc((size_t)te_conv2d_dsp_s8_get_buffer_size(p.k_pad) + 1);
    reference(&l, want);
    /* as emitted: no scratch (the patches in the output's free part or on
     * the stack); sometimes with scratch, at an odd address */
    te_conv2d_dsp_s8(&p, l.in, words, q8, got, test_rand() % 4 == 0 ? scratch + 1 : NULL);
    CHECK(same_bytes(&l, "depthwise as te_conv2d_dsp_s8", got, want));
    conv_cases++;
    conv_fast += p.fast_rq;
    conv_by_mult[mult]++;
    free(want);
    free(got);
    free(scratch);
    free(words);
    free(q8);
    free_layer(&l);
}

int main(void)
{
    int i, m;
    test_seed(0xd5d5u);
    for (i = 0; i < CONV_DSP_CASES; i++) {
        nhwc_case(1 + i % 8);
        conv_case(1 + i % 8);
    }
    printf("dsp nhwc: %ld layers; one input channel as a convolution: %ld layers (%ld with the "
           "fast requantization)\n", nhwc_cases, conv_cases, conv_fast);
    for (m = 1; m <= 8; m++) {
        CHECK(nhwc_by_mult[m] > CONV_DSP_CASES / 16);
        CHECK(conv_by_mult[m] == (CONV_DSP_CASES + 8 - m) / 8);
    }
    CHECK(conv_fast > conv_cases / 4);
    CHECK(conv_fast < conv_cases);
    return test_summary();
}
