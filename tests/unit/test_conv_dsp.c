/* test_conv_dsp.c - the int8-weight DSP CONV_2D kernel te_conv2d_dsp_s8
 * (runtime/armv7em/te_conv2d_dsp.c) with the constants the compiler makes
 * for it (te_convfam_gemm_prepare's requantization table,
 * te_convfam_dsp_s8_layout's weights), against a plain
 * reference written the way TFLite Micro's reference ConvPerChannel
 * computes, over random shapes (odd channel and pixel counts, 1x1 to 7x7
 * filters, strides, dilations, every padding), per-channel quantization
 * (left shifts, zero multipliers, huge biases, dead channels), activation
 * bounds and channel-slice outputs, pointwise outputs written over their
 * input (in place, with scratch); the slice-of-K
 * path (patches too long for the stack buffer) on its own with tiny
 * buffers.  Built with TE_TARGET_DSP: the SIMD
 * arithmetic runs through te_common.h's exact portable SMLAD / SXTB16 on
 * the host, the real instructions when built for a Cortex-M. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TE_TARGET_DSP 1
#undef TE_KERNEL
#include "te_common.h" /* TE_KERNEL = static TE_UNUSED */
#include "te_conv2d_dsp.c"

#include "ops/conv_family.h"
#include "quant/quant.h"
#include "testlib.h"

#ifndef CONV_DSP_CASES
#define CONV_DSP_CASES 3000
#endif

#define CONV_CASE_PARAMS te_conv2d_dsp_params
#include "conv_case.h"

/* The kernel's constants as op_conv2d.c writes them. */
static int prepare(conv_case *c, int32_t **wk, int32_t **qr)
{
    te_convfam_gemm_spec s;
    const int n = (c->oc + 3) / 4 * 4, pairs = (c->oc + 1) / 2;
    int16_t *w16;
    int fast;
    s.out_c = c->oc;
    s.k = c->k;
    s.k_pad = c->p.k_pad = te_convfam_gemm_k_pad(c->k, 1);
    s.dsp = 1;
    s.input_zp = c->p.input_zp;
    s.output_zp = c->p.output_offset;
    s.act_min = c->p.act_min;
    s.act_max = c->p.act_max;
    w16 = malloc(sizeof(int16_t) * (size_t)n * (size_t)s.k_pad);
    *qr = malloc(sizeof(int32_t) * (size_t)n * 4);
    fast = te_convfam_gemm_prepare(&s, c->w, c->bias, c->mult, c->shift, w16, *qr);
    free(w16);
    *wk = malloc(sizeof(int32_t) * (size_t)pairs * (size_t)s.k_pad / 2);
    te_convfam_dsp_s8_layout(c->oc, c->k, s.k_pad, c->w, *wk);
    {
        int32_t *q8 = malloc(sizeof(int32_t) * (size_t)pairs * 8);
        te_convfam_dsp_s8_requant(c->oc, *qr, q8);
        free(*qr);
        *qr = q8;
    }
    return fast;
}

static long n_cases, n_fast, n_outputs, n_strided, n_sliced;

/* The slice-of-K path alone (te_conv2d_dsp_chunked, which the kernel takes
 * for patches too long for its stack buffer) over every pixel pair, with a
 * buffer of a random size (a few words: many slices of K and blocks of
 * channel pairs; an odd last pixel paired with itself, not stored): the
 * number of outputs that differ from the reference. */
static long run_chunked(const conv_case *c, int fast, const int32_t *wq, const int32_t *qr)
{
    const te_conv2d_dsp_params *p = &c->p;
    const long n_pix = (long)p->batches * p->out_h * p->out_w;
    const long plane = (long)p->in_h * p->in_w * p->in_c;
    const int mode = !fast ? 0 : p->act_min <= -128 && p->act_max >= 127 ? 2 : 1;
    const int words = (int)((sizeof(te_conv2d_dsp_job) + 3) / 4) +
                      (test_rand() % 3 == 0 ? test_rand_range(9, 40) : test_rand_range(41, 400));
    uint32_t *buf = malloc(sizeof(uint32_t) * (size_t)words);
    int8_t *o = malloc((size_t)c->oc * 2);
    const uint32_t *wk = (const uint32_t *)(const void *)wq;
    long i, bad = 0;
    int k;
    for (i = 0; i < n_pix; i += 2) {
        const long j = i + 1 < n_pix ? i + 1 : i;
        const int ba = (int)(i / (p->out_h * p->out_w)), bb = (int)(j / (p->out_h * p->out_w));
        const int ya = (int)(i / p->out_w % p->out_h), yb = (int)(j / p->out_w % p->out_h);
        const int xa = (int)(i % p->out_w), xb = (int)(j % p->out_w);
        memset(o, 0x55, (size_t)c->oc * 2);
        te_conv2d_dsp_job *job = (te_conv2d_dsp_job *)(void *)buf;
        job->in_a = c->in + ba * plane;
        job->in_b = c->in + bb * plane;
        job->ya = ya * p->stride_h - p->pad_top;
        job->xa = xa * p->stride_w - p->pad_left;
        job->yb = yb * p->stride_h - p->pad_top;
        job->xb = xb * p->stride_w - p->pad_left;
        job->oa = o;
        job->ob = j != i ? o + c->oc : NULL;
        job->mode = mode;
        job->n_words = words;
        te_conv2d_dsp_chunked(p, wk, qr, buf);
        for (k = 0; k < c->oc; k++) {
            bad += o[k] != ref_out(c, ba, ya, xa, k);
            bad += j != i ? o[c->oc + k] != ref_out(c, bb, yb, xb, k) : o[c->oc + k] != 0x55;
        }
    }
    n_sliced++;
    free(buf);
    free(o);
    return bad;
}

static void run_case(void)
{
    conv_case c;
    int32_t *wk, *qr;
    int8_t *out, *in_copy, *scratch;
    long n_in, n_out, bad = 0, gap_bad = 0, pitch;
    int b, oy, ox, o, fast;
    make_shape(&c.p);
    c.oc = c.p.out_c;
    c.k = c.p.k_h * c.p.k_w * c.p.in_c;
    c.p.out_stride = test_rand() % 4 == 0 ? c.oc + test_rand_range(1, 9) : 0;
    pitch = c.p.out_stride ? c.p.out_stride : c.oc;
    n_in = (long)c.p.batches * c.p.in_h * c.p.in_w * c.p.in_c;
    n_out = (long)c.p.batches * c.p.out_h * c.p.out_w * pitch;
    c.in = malloc((size_t)n_in);
    in_copy = malloc((size_t)n_in);
    c.w = malloc((size_t)c.k * (size_t)c.oc);
    c.bias = test_rand() % 5 ? malloc(sizeof(int32_t) * (size_t)c.oc) : NULL;
    c.mult = malloc(sizeof(int32_t) * (size_t)c.oc);
    c.shift = malloc(sizeof(int32_t) * (size_t)c.oc);
    out = malloc((size_t)n_out);
    for (b = 0; b < n_in; b++)
        c.in[b] = (int8_t)test_rand_range(-128, 127);
    memcpy(in_copy, c.in, (size_t)n_in);
    make_quant(&c);
    memset(out, 0x55, (size_t)n_out);
    fast = prepare(&c, &wk, &qr);
    c.p.fast_rq = fast;
    /* scratch (at an odd address: the kernel aligns it itself) for most
     * strided outputs and some others; else the room in the output (out is
     * exactly the tensor) and the direct path for the last pixels */
    scratch = malloc((size_t)te_conv2d_dsp_s8_get_buffer_size(c.p.k_pad) + 1);
    te_conv2d_dsp_s8(&c.p, c.in, wk, qr, out,
                     (test_rand() % 4 == 0) == !c.p.out_stride ? scratch + 1 : NULL);
    for (b = 0; b < c.p.batches; b++)
        for (oy = 0; oy < c.p.out_h; oy++)
            for (ox = 0; ox < c.p.out_w; ox++) {
                long at = (((long)b * c.p.out_h + oy) * c.p.out_w + ox) * pitch;
                for (o = 0; o < c.oc; o++)
                    bad += out[at + o] != ref_out(&c, b, oy, ox, o);
                for (o = c.oc; o < pitch; o++)
                    gap_bad += out[at + o] != 0x55;
            }
    if (test_rand() % 4 == 0) {
        const long sliced_bad = run_chunked(&c, fast, wk, qr);
        CHECK(sliced_bad == 0);
        if (sliced_bad)
            printf("  case %ld: the slice-of-K path: %ld outputs differ\n", n_cases, sliced_bad);
    }
    CHECK(bad == 0);
    CHECK(gap_bad == 0);
    CHECK(memcmp(in_copy, c.in, (size_t)n_in) == 0);
    if (bad || gap_bad)
        printf("  case %ld: %dx%dx%d -> %dx%dx%d k %dx%d s %d,%d d %d,%d pad %d,%d fast %d: %ld "
               "bytes differ\n",
               n_cases, c.p.in_h, c.p.in_w, c.p.in_c, c.p.out_h, c.p.out_w, c.oc, c.p.k_h,
               c.p.k_w, c.p.stride_h, c.p.stride_w, c.p.dil_h, c.p.dil_w, c.p.pad_top,
               c.p.pad_left, fast, bad);
    n_cases++;
    n_fast += fast;
    n_strided += c.p.out_stride != 0;
    n_outputs += n_out;
    free(c.in);
    free(in_copy);
    free(c.w);
    free(c.bias);
    free(c.mult);
    free(c.shift);
    free(out);
    free(wk);
    free(qr);
    free(scratch);
}

/* A pointwise convolution written over its input (as the compiler plans
 * it in place, out_stride == out_c): one buffer holds the input, then the
 * output; the patches in scratch. */
static long n_inplace;

static void run_inplace_case(void)
{
    conv_case c;
    int32_t *wk, *qr;
    int8_t *buf = make_inplace_case(&c), *scratch;
    c.p.fast_rq = prepare(&c, &wk, &qr);
    c.p.out_stride = c.oc; /* in place */
    scratch = malloc((size_t)te_conv2d_dsp_s8_get_buffer_size(c.p.k_pad) + 1);
    te_conv2d_dsp_s8(&c.p, buf, wk, qr, buf, scratch + 1);
    check_inplace_case(&c, buf);
    n_inplace++;
    free(wk);
    free(qr);
    free(scratch);
}

int main(void)
{
    int i;
    test_seed(0x5eedd58u);
    for (i = 0; i < CONV_DSP_CASES; i++)
        run_case();
    for (i = 0; i < CONV_DSP_CASES / 3; i++)
        run_inplace_case();
    printf("in place: %ld pointwise cases\n", n_inplace);
    printf("int8-weight DSP kernel: %ld cases (%ld with the fast requantization, %ld strided, "
           "%ld also by slices of K), %ld outputs\n", n_cases, n_fast, n_strided, n_sliced,
           n_outputs);
    CHECK(n_sliced > n_cases / 8);
    CHECK(n_fast > n_cases / 4);
    CHECK(n_strided > n_cases / 8);
    return test_summary();
}
