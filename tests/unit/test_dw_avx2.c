/* test_dw_avx2.c - the DEPTHWISE_CONV_2D kernel of target x86-64-v3,
 * te_depthwise_avx2_s8 and its 3x3, 5x5 and 7x7 entries (each square filter
 * with dil_w 1 through its entry or, every other case, the general one), with the constants the compiler makes for it
 * (te_convfam_gemm_prepare of the filter read as [c][taps], then
 * te_convfam_gemm_avx2_layout and te_convfam_dw_avx2_layout), against a
 * plain reference written the way TFLite Micro's DepthwiseConvPerChannel
 * computes: random shapes (odd channel counts, 1x1 to 7x7 and non-square
 * filters, strides 1-3, dilations, every padding), quantization (tiny and
 * zero multipliers, left shifts, huge biases) and activation bounds,
 * separate and in place.  Exit 77 (skipped) on a CPU without AVX2; not
 * built off x86-64. */
#define TE_TARGET_AVX2 1

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef TE_KERNEL
#include "te_common.h"
#include "te_depthwise_avx2.c"

#include "ops/conv_family.h"
#include "quant/quant.h"
#include "testlib.h"

#ifndef DW_AVX2_CASES
#define DW_AVX2_CASES 2000
#endif

typedef struct {
    te_depthwise_avx2_params p;
    int taps;
    int8_t *in, *w; /* w: [taps][c], as in the model */
    int32_t *bias, *mult, *shift;
} dw_case;

static double rand_unit(void) { return (double)(test_rand() % 1000000u) / 1000000.0; }

static int8_t ref_out(const dw_case *c, int b, int oy, int ox, int ch)
{
    const te_depthwise_avx2_params *p = &c->p;
    uint32_t acc = 0;
    int ky, kx;
    for (ky = 0; ky < p->k_h; ky++)
        for (kx = 0; kx < p->k_w; kx++) {
            int iy = oy * p->stride_h - p->pad_top + ky * p->dil_h;
            int ix = ox * p->stride_w - p->pad_left + kx * p->dil_w;
            if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
                continue;
            acc += (uint32_t)((c->in[(((long)b * p->in_h + iy) * p->in_w + ix) * p->in_c + ch] -
                               p->input_zp) *
                              c->w[(long)(ky * p->k_w + kx) * p->in_c + ch]);
        }
    if (c->bias)
        acc += (uint32_t)c->bias[ch];
    {
        int32_t v = te_mul_by_quant_mult((int32_t)acc, c->mult[ch], (int)c->shift[ch]);
        v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
        return (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
    }
}

static void make_shape(te_depthwise_avx2_params *p)
{
    static const int chans[] = {1, 2, 3, 5, 8, 15, 16, 17, 24, 32, 33, 48};
    int right;
    memset(p, 0, sizeof *p);
    p->batches = test_rand_range(1, 2);
    p->in_c = chans[test_rand() % 12];
    if (test_rand() % 2) {
        p->k_h = p->k_w = 3 + 2 * (int)(test_rand() % 3);
    } else {
        p->k_h = test_rand_range(1, 5);
        p->k_w = test_rand_range(1, 5);
    }
    p->stride_h = test_rand_range(1, 3);
    p->stride_w = test_rand_range(1, 3);
    p->dil_h = test_rand() % 5 == 0 ? 2 : 1;
    p->dil_w = test_rand() % 5 == 0 ? 2 : 1;
    test_conv_axis(p->k_h, p->dil_h, p->stride_h, 12, &p->in_h, &p->pad_top, &p->out_h);
    test_conv_axis(p->k_w, p->dil_w, p->stride_w, 12, &p->in_w, &p->pad_left, &p->out_w);
    right = (p->out_w - 1) * p->stride_w + (p->k_w - 1) * p->dil_w + 1;
    p->cols = p->pad_left + p->in_w > right ? p->pad_left + p->in_w : right;
}

static void make_quant(dw_case *c)
{
    te_depthwise_avx2_params *p = &c->p;
    const float in_s = (float)(0.005 + 0.1 * rand_unit());
    const float out_s = (float)(0.01 + 0.3 * rand_unit());
    int ch, i, lim = test_rand() % 4 == 0 ? 8 : 127;
    p->input_zp = test_rand_range(-128, 127);
    p->output_offset = test_rand_range(-128, 127);
    for (i = 0; i < c->taps * p->in_c; i++)
        c->w[i] = (int8_t)test_rand_range(lim == 127 ? -128 : -lim, lim);
    for (ch = 0; ch < p->in_c; ch++) {
        int sh;
        float ws = (float)(0.001 + 0.05 * rand_unit());
        te_quantize_multiplier((double)in_s * ws / out_s, &c->mult[ch], &sh);
        c->shift[ch] = sh;
        if (c->bias)
            c->bias[ch] = test_rand_range(-20000, 20000);
        switch (test_rand() % 12) {
        case 0: c->mult[ch] = 0; c->shift[ch] = 0; break;      /* zero multiplier */
        case 1: c->shift[ch] = test_rand_range(1, 3); break;   /* left shift */
        case 2: if (c->bias) c->bias[ch] = (int32_t)test_rand(); break; /* huge bias */
        default: break;
        }
    }
    p->act_min = -128;
    p->act_max = 127;
    if (test_rand() % 3 == 0) {
        p->act_min = test_rand_range(-128, 0);
        p->act_max = test_rand_range(1, 127);
    }
}

/* The compiler's constants (op_depthwise_conv2d.c, avx2_consts). */
static int prepare(const dw_case *c, int8_t **wo, int32_t **qa)
{
    const int ch = c->p.in_c, kp = (c->taps + 7) / 8 * 8, b16 = (ch + 15) / 16;
    te_convfam_gemm_spec s;
    int8_t *wc = malloc((size_t)ch * (size_t)c->taps);
    int16_t *w16 = malloc(sizeof(int16_t) * (size_t)(ch + 3) / 4 * 4 * (size_t)kp);
    int8_t *wa = malloc((size_t)b16 * 16 * (size_t)kp);
    int32_t *q = malloc(sizeof(int32_t) * (size_t)(ch + 3) / 4 * 16);
    int i, t, fast;
    for (i = 0; i < ch; i++)
        for (t = 0; t < c->taps; t++)
            wc[(long)i * c->taps + t] = c->w[(long)t * ch + i];
    memset(&s, 0, sizeof s);
    s.out_c = ch;
    s.k = c->taps;
    s.k_pad = kp;
    s.input_zp = c->p.input_zp;
    s.output_zp = c->p.output_offset;
    s.act_min = c->p.act_min;
    s.act_max = c->p.act_max;
    *wo = malloc((size_t)b16 * (size_t)c->taps * 16); /* exactly: ASan sees reads past it */
    *qa = calloc((size_t)b16 * 64, sizeof(int32_t));
    fast = te_convfam_gemm_prepare(&s, wc, c->bias, c->mult, c->shift, w16, q);
    te_convfam_gemm_avx2_layout(ch, kp, fast, w16, q, wa, *qa);
    te_convfam_dw_avx2_layout(ch, c->taps, kp, fast, w16, *wo);
    free(wc);
    free(w16);
    free(wa);
    free(q);
    return fast;
}

/* Output row oy is written only over input rows already in the ring. */
static int inplace_safe(const te_depthwise_avx2_params *p)
{
    const int span = (p->k_h - 1) * p->dil_h + 1;
    int oy;
    if (p->out_h * p->out_w > p->in_h * p->in_w)
        return 0;
    for (oy = 0; oy < p->out_h; oy++) {
        int saved = TE_MIN(oy * p->stride_h - p->pad_top + span, p->in_h);
        if ((oy + 1) * p->out_w > saved * p->in_w)
            return 0;
    }
    return 1;
}

static long n_cases, n_fast, n_inplace, n_entry;

typedef void (*dw_entry)(const te_depthwise_avx2_params *, const int8_t *, const int8_t *,
                         const int32_t *, int8_t *);

/* The compiler's entry for p (op_depthwise_conv2d.c, avx2_dw_kernel), or
 * every other time the general one, which takes every shape. */
static dw_entry pick_entry(const te_depthwise_avx2_params *p)
{
    const int k = p->dil_w == 1 && p->k_h == p->k_w ? p->k_h : 0;
    if (test_rand() % 2 == 0)
        return te_depthwise_avx2_s8;
    n_entry += k == 3 || k == 5 || k == 7;
    return k == 3   ? te_depthwise_avx2_s8_3x3
           : k == 5 ? te_depthwise_avx2_s8_5x5
           : k == 7 ? te_depthwise_avx2_s8_7x7
                    : te_depthwise_avx2_s8;
}

static void run_case(void)
{
    dw_case c;
    int8_t *wo;
    int32_t *qa;
    int8_t *out, *data;
    long n_in, n_out, bad = 0, i;
    int b, oy, ox, ch, inplace;
    make_shape(&c.p);
    if (TE_DEPTHWISE_AVX2_RING_BYTES((c.p.k_h - 1) * c.p.dil_h + 1, c.p.cols) >
        TE_DEPTHWISE_AVX2_RING)
        return;
    c.taps = c.p.k_h * c.p.k_w;
    n_in = (long)c.p.batches * c.p.in_h * c.p.in_w * c.p.in_c;
    n_out = (long)c.p.batches * c.p.out_h * c.p.out_w * c.p.in_c;
    c.in = malloc((size_t)n_in);
    c.w = malloc((size_t)c.taps * (size_t)c.p.in_c);
    c.bias = test_rand() % 5 ? malloc(sizeof(int32_t) * (size_t)c.p.in_c) : NULL;
    c.mult = malloc(sizeof(int32_t) * (size_t)c.p.in_c);
    c.shift = malloc(sizeof(int32_t) * (size_t)c.p.in_c);
    for (i = 0; i < n_in; i++)
        c.in[i] = (int8_t)test_rand_range(-128, 127);
    make_quant(&c);
    c.p.fast_rq = prepare(&c, &wo, &qa);
    inplace = inplace_safe(&c.p) && test_rand() % 2;
    /* exactly the tensor (ASan sees any read or write past it) */
    data = malloc((size_t)n_in);
    memcpy(data, c.in, (size_t)n_in);
    out = inplace ? data : malloc((size_t)n_out);
    pick_entry(&c.p)(&c.p, data, wo, qa, out);
    for (b = 0; b < c.p.batches; b++)
        for (oy = 0; oy < c.p.out_h; oy++)
            for (ox = 0; ox < c.p.out_w; ox++)
                for (ch = 0; ch < c.p.in_c; ch++)
                    bad += out[(((long)b * c.p.out_h + oy) * c.p.out_w + ox) * c.p.in_c + ch] !=
                           ref_out(&c, b, oy, ox, ch);
    CHECK(bad == 0);
    if (bad)
        printf("  case %ld: %dx%dx%d -> %dx%d k %dx%d s %d,%d d %d,%d pad %d,%d fast %d "
               "inplace %d: %ld bytes differ\n",
               n_cases, c.p.in_h, c.p.in_w, c.p.in_c, c.p.out_h, c.p.out_w, c.p.k_h, c.p.k_w,
               c.p.stride_h, c.p.stride_w, c.p.dil_h, c.p.dil_w, c.p.pad_top, c.p.pad_left,
               c.p.fast_rq, inplace, bad);
    n_cases++;
    n_fast += c.p.fast_rq;
    n_inplace += inplace;
    if (!inplace)
        free(out);
    free(data);
    free(c.in);
    free(c.w);
    free(c.bias);
    free(c.mult);
    free(c.shift);
    free(wo);
    free(qa);
}

int main(void)
{
    int i;
    if (!__builtin_cpu_supports("avx2")) {
        printf("this CPU has no AVX2: te_depthwise_avx2_s8 not tested\n");
        return 77;
    }
    test_seed(0x5eedd0a2u);
    for (i = 0; i < DW_AVX2_CASES; i++)
        run_case();
    printf("AVX2 depthwise kernel: %ld cases (%ld fast requantization, %ld in place, %ld "
           "through a filter's own entry)\n",
           n_cases, n_fast, n_inplace, n_entry);
    CHECK(n_cases > DW_AVX2_CASES / 2);
    CHECK(n_fast > n_cases / 4);
    CHECK(n_inplace > n_cases / 10);
    CHECK(n_entry > n_cases / 10);
    return test_summary();
}
