/* conv_case.h - one random int8 CONV_2D case for the convolution kernel
 * tests (test_conv_fast.c and its variants, test_conv_dsp.c): the case
 * record, a plain reference written the way TFLite Micro's reference
 * ConvPerChannel computes, random geometry (output sizes from the padding
 * like TFLite's; or in-place pointwise) and random quantization (some
 * channels dead or extreme).
 * Define before including it:
 *   CONV_CASE_PARAMS           the kernel's params struct (the geometry and
 *                              quantization fields every conv kernel has)
 *   CONV_CASE_W_MIN(lim)       the lowest weight drawn for a bound lim
 *                              (default -lim)
 *   CONV_CASE_SHAPE_DONE(p)    what the kernel's params need after the
 *                              geometry is drawn (default nothing) */
#ifndef CONV_CASE_H
#define CONV_CASE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"
#include "testlib.h"

#ifndef CONV_CASE_W_MIN
#define CONV_CASE_W_MIN(lim) (-(lim))
#endif
#ifndef CONV_CASE_SHAPE_DONE
#define CONV_CASE_SHAPE_DONE(p) ((void)(p))
#endif

typedef struct {
    CONV_CASE_PARAMS p;
    int k, oc;
    int8_t *in, *w;
    int32_t *bias, *mult, *shift;
} conv_case;

static int pick(const int *v, int n) { return v[test_rand() % (unsigned)n]; }

static double rand_unit(void) { return (double)(test_rand() % 1000000u) / 1000000.0; }

/* TFLite Micro reference ConvPerChannel for one output pixel and channel. */
static int8_t ref_out(const conv_case *c, int b, int oy, int ox, int o)
{
    const CONV_CASE_PARAMS *p = &c->p;
    uint32_t acc = 0;
    int ky, kx, i;
    for (ky = 0; ky < p->k_h; ky++)
        for (kx = 0; kx < p->k_w; kx++) {
            int iy = oy * p->stride_h - p->pad_top + ky * p->dil_h;
            int ix = ox * p->stride_w - p->pad_left + kx * p->dil_w;
            if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w)
                continue;
            for (i = 0; i < p->in_c; i++) {
                int x = c->in[(((long)b * p->in_h + iy) * p->in_w + ix) * p->in_c + i];
                int wv = c->w[(long)o * c->k + (ky * p->k_w + kx) * p->in_c + i];
                acc += (uint32_t)((x - p->input_zp) * wv);
            }
        }
    if (c->bias)
        acc += (uint32_t)c->bias[o];
    {
        int32_t v = te_mul_by_quant_mult((int32_t)acc, c->mult[o], (int)c->shift[o]);
        v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
        return (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
    }
}

/* Random geometry: output sizes from the padding like TFLite's. */
static void make_shape(CONV_CASE_PARAMS *p)
{
    static const int chans[] = {1, 2, 3, 4, 5, 8, 12, 16, 17, 33};
    static const int outs[] = {1, 3, 4, 5, 8, 16, 17, 33};
    memset(p, 0, sizeof *p);
    p->batches = test_rand_range(1, 2);
    p->in_c = pick(chans, 10);
    p->out_c = pick(outs, 8);
    if (test_rand() % 3 == 0) { /* pointwise */
        p->k_h = p->k_w = 1;
    } else {
        p->k_h = test_rand_range(1, 5);
        p->k_w = test_rand_range(1, 5);
        if (test_rand() % 8 == 0)
            p->k_h = p->k_w = 7;
    }
    p->stride_h = test_rand_range(1, 3);
    p->stride_w = test_rand_range(1, 3);
    p->dil_h = test_rand() % 5 == 0 ? 2 : 1;
    p->dil_w = test_rand() % 5 == 0 ? 2 : 1;
    test_conv_axis(p->k_h, p->dil_h, p->stride_h, 10, &p->in_h, &p->pad_top, &p->out_h);
    test_conv_axis(p->k_w, p->dil_w, p->stride_w, 10, &p->in_w, &p->pad_left, &p->out_w);
    CONV_CASE_SHAPE_DONE(p);
}

/* Random geometry of a convolution the compiler may run in place (its
 * output over its input): 1x1 filter, stride 1, no padding, no more output
 * channels than input ones (as many in a third of the cases). */
static void make_inplace_shape(CONV_CASE_PARAMS *p)
{
    static const int chans[] = {1, 2, 3, 4, 5, 8, 12, 16, 17, 33, 40, 64};
    memset(p, 0, sizeof *p);
    p->batches = test_rand_range(1, 2);
    p->in_c = pick(chans, 12);
    p->out_c = test_rand() % 3 == 0 ? p->in_c : test_rand_range(1, p->in_c);
    p->k_h = p->k_w = 1;
    p->stride_h = p->stride_w = 1;
    p->dil_h = p->dil_w = 1;
    p->in_h = p->out_h = test_rand_range(1, 9);
    p->in_w = p->out_w = test_rand_range(1, 9);
    CONV_CASE_SHAPE_DONE(p);
}

/* Random requantization, bias and weights (some channels dead or extreme). */
static void make_quant(conv_case *c)
{
    CONV_CASE_PARAMS *p = &c->p;
    const float in_s = (float)(0.005 + 0.1 * rand_unit());
    float out_s = (float)(0.01 + 0.3 * rand_unit()) * (float)(1 + c->k / 32);
    int o, i, lim = test_rand() % 4 == 0 ? 8 : 127;
    p->input_zp = test_rand_range(-128, 127);
    p->output_offset = test_rand_range(-128, 127);
    for (i = 0; i < p->k_h * p->k_w * p->in_c * c->oc; i++)
        c->w[i] = (int8_t)test_rand_range(CONV_CASE_W_MIN(lim), lim);
    for (o = 0; o < c->oc; o++) {
        int sh;
        float ws = (float)(0.001 + 0.05 * rand_unit());
        te_quantize_multiplier((double)in_s * ws / out_s, &c->mult[o], &sh);
        c->shift[o] = sh;
        if (c->bias)
            c->bias[o] = test_rand_range(-20000, 20000);
        switch (test_rand() % 16) {
        case 0: /* dead channel: no weights, odd bias, tiny multiplier */
            memset(c->w + (long)o * c->k, 0, (size_t)c->k);
            c->shift[o] = -31;
            if (c->bias)
                c->bias[o] = test_rand_range(1 << 29, 1 << 30);
            break;
        case 1: /* zero multiplier */
            c->mult[o] = 0;
            c->shift[o] = 0;
            break;
        case 2: /* left shift */
            c->shift[o] = test_rand_range(1, 3);
            break;
        case 3: /* huge bias */
            if (c->bias)
                c->bias[o] = (int32_t)test_rand();
            break;
        default:
            break;
        }
    }
    p->act_min = -128;
    p->act_max = 127;
    switch (test_rand() % 4) {
    case 1:
        p->act_min = p->output_offset;
        break;
    case 2:
        p->act_min = test_rand_range(-128, 0);
        p->act_max = test_rand_range(1, 127);
        break;
    default:
        break;
    }
}

/* An in-place case (make_inplace_shape): the case's buffers, a random
 * input and quantization; returns a copy of the input for the kernel to
 * overwrite with its output (free it with check_inplace_case). */
static int8_t *make_inplace_case(conv_case *c)
{
    long n_in, i;
    int8_t *buf;
    make_inplace_shape(&c->p);
    c->oc = c->p.out_c;
    c->k = c->p.in_c;
    n_in = (long)c->p.batches * c->p.in_h * c->p.in_w * c->p.in_c;
    c->in = malloc((size_t)n_in);
    buf = malloc((size_t)n_in); /* exactly the input: the output is no larger */
    c->w = malloc((size_t)c->k * (size_t)c->oc);
    c->bias = test_rand() % 5 ? malloc(sizeof(int32_t) * (size_t)c->oc) : NULL;
    c->mult = malloc(sizeof(int32_t) * (size_t)c->oc);
    c->shift = malloc(sizeof(int32_t) * (size_t)c->oc);
    for (i = 0; i < n_in; i++)
        c->in[i] = (int8_t)test_rand_range(-128, 127);
    memcpy(buf, c->in, (size_t)n_in);
    make_quant(c);
    return buf;
}

/* The output the kernel wrote over buf against the reference (a CHECK and
 * a line when bytes differ); frees buf and the case's buffers. */
static void check_inplace_case(conv_case *c, int8_t *buf)
{
    long bad = 0;
    int b, oy, ox, o;
    for (b = 0; b < c->p.batches; b++)
        for (oy = 0; oy < c->p.out_h; oy++)
            for (ox = 0; ox < c->p.out_w; ox++)
                for (o = 0; o < c->oc; o++)
                    bad += buf[(((long)b * c->p.out_h + oy) * c->p.out_w + ox) * c->oc + o] !=
                           ref_out(c, b, oy, ox, o);
    CHECK(bad == 0);
    if (bad)
        printf("  in place %d x %dx%dx%d -> %d: %ld bytes differ\n", c->p.batches, c->p.in_h,
               c->p.in_w, c->p.in_c, c->oc, bad);
    free(c->in);
    free(buf);
    free(c->w);
    free(c->bias);
    free(c->mult);
    free(c->shift);
}

#endif
