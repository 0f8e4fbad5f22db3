/* test_conv_fast.c - the fast CONV_2D kernel te_conv2d_gemm_s8
 * (runtime/te_conv2d_gemm.c) with the constants te_convfam_gemm_prepare
 * (src/ops/conv_family.c) makes for it, against a plain reference written
 * the way TFLite Micro's reference ConvPerChannel computes, over random
 * shapes (odd channel counts, 1x1 to 7x7 filters, strides 1-3, dilations,
 * every padding), quantization parameters (left shifts, tiny and zero
 * multipliers, huge biases, dead channels) and activation bounds; and
 * pointwise ones written over their input (in place).
 *
 * The runtime file is compiled into this test (static, as in generated
 * code).  Built as is it tests the portable kernel (its SSE2 form on x86);
 * test_conv_fast_dsp.c includes this file with TE_TARGET_DSP defined: the
 * DSP layout and SIMD arithmetic through te_common.h's exact portable
 * primitives; test_conv_avx2.c with TEST_CONV_AVX2: the same cases through
 * te_conv2d_avx2_s8 (target x86-64-v3) and te_convfam_gemm_avx2_layout;
 * test_conv_w8.c with TEST_CONV_W8: through te_conv2d_w8_s8 (the generic
 * target's kernel: the model's int8 weights, the same requantization
 * table). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef TE_KERNEL
#include "te_common.h" /* TE_KERNEL = static TE_UNUSED */
/* x86 SSE2 kernel: requantization vectors precomputed for 3 channel blocks
 * only, so that the blocks past them (made on the fly) are tested too. */
#define TE_CONV2D_GEMM_VQ 3
#include "te_conv2d_gemm.c"
#if defined(TEST_CONV_AVX2)
#include "te_conv2d_avx2.c"
#endif
#if defined(TEST_CONV_W8)
#include "te_conv2d_w8.c"
#endif

#include "ops/conv_family.h"
#include "quant/quant.h"
#include "testlib.h"

#if defined(TE_TARGET_DSP)
#define DSP 1
#else
#define DSP 0
#endif
#if defined(TEST_CONV_AVX2)
#define TE_CONV_FAST_AVX2 1
#else
#define TE_CONV_FAST_AVX2 0
#endif
#if defined(TEST_CONV_W8)
#define TEST_CONV_W8_ON 1
#else
#define TEST_CONV_W8_ON 0
#endif

/* Random convolutions per run (-DCONV_FAST_CASES=n for a longer run, e.g.
 * of this test built for a Cortex-M under QEMU, where the kernel's
 * assembly loops run). */
#ifndef CONV_FAST_CASES
#define CONV_FAST_CASES 3000
#endif

/* gemm params: pointwise when the 1x1 filter reads every pixel in place */
#define CONV_CASE_SHAPE_DONE(p)                                                                \
    ((p)->pointwise = (p)->k_h == 1 && (p)->k_w == 1 && (p)->pad_top == 0 &&                    \
                      (p)->pad_left == 0 && ((p)->out_h - 1) * (p)->stride_h < (p)->in_h &&    \
                      ((p)->out_w - 1) * (p)->stride_w < (p)->in_w)
/* AVX2: -128 too */
#define CONV_CASE_W_MIN(lim) (TE_CONV_FAST_AVX2 && (lim) == 127 ? -128 : -(lim))
#define CONV_CASE_PARAMS te_conv2d_gemm_params
#include "conv_case.h"

/* The kernel's constants as the compiler writes them (op_conv2d.c). */
static int prepare(conv_case *c, te_conv2d_gemm_w **wk, int32_t **qr)
{
    te_convfam_gemm_spec s;
    const int n = (c->oc + 3) / 4 * 4;
    int16_t *w16;
    int fast;
    s.out_c = c->oc;
    s.k = c->k;
    s.k_pad = c->p.k_pad = te_convfam_gemm_k_pad(c->k, DSP);
    s.dsp = DSP;
    s.input_zp = c->p.input_zp;
    s.output_zp = c->p.output_offset;
    s.act_min = c->p.act_min;
    s.act_max = c->p.act_max;
    w16 = malloc(sizeof(int16_t) * (size_t)n * (size_t)s.k_pad);
    *qr = malloc(sizeof(int32_t) * (size_t)n * 4);
    fast = te_convfam_gemm_prepare(&s, c->w, c->bias, c->mult, c->shift, w16, *qr);
#if DSP
    {
        size_t i, nw = (size_t)n * (size_t)s.k_pad / 2;
        *wk = malloc(sizeof(int32_t) * nw);
        for (i = 0; i < nw; i++)
            (*wk)[i] = (int32_t)((uint32_t)(uint16_t)w16[2 * i] |
                                 (uint32_t)(uint16_t)w16[2 * i + 1] << 16);
        free(w16);
    }
#else
    *wk = w16;
#endif
    return fast;
}

static long n_cases, n_fast, n_outputs, n_strided;

/* The GEMM params' geometry and quantization fields into another conv
 * kernel's params struct of the same field names (dst: a pointer). */
#define COPY_GEMM_FIELDS(src, dst)                   \
    do {                                             \
        (dst)->batches = (src)->batches;             \
        (dst)->in_h = (src)->in_h;                   \
        (dst)->in_w = (src)->in_w;                   \
        (dst)->in_c = (src)->in_c;                   \
        (dst)->out_h = (src)->out_h;                 \
        (dst)->out_w = (src)->out_w;                 \
        (dst)->out_c = (src)->out_c;                 \
        (dst)->k_h = (src)->k_h;                     \
        (dst)->k_w = (src)->k_w;                     \
        (dst)->stride_h = (src)->stride_h;           \
        (dst)->stride_w = (src)->stride_w;           \
        (dst)->dil_h = (src)->dil_h;                 \
        (dst)->dil_w = (src)->dil_w;                 \
        (dst)->pad_top = (src)->pad_top;             \
        (dst)->pad_left = (src)->pad_left;           \
        (dst)->input_zp = (src)->input_zp;           \
        (dst)->output_offset = (src)->output_offset; \
        (dst)->act_min = (src)->act_min;             \
        (dst)->act_max = (src)->act_max;             \
        (dst)->fast_rq = (src)->fast_rq;             \
        (dst)->out_stride = (src)->out_stride;       \
    } while (0)

#if defined(TEST_CONV_AVX2)
/* te_conv2d_avx2_s8 with the AVX2 layouts of the GEMM constants. */
static void run_avx2(const conv_case *c, const int16_t *w16, const int32_t *qr, int8_t *out)
{
    const int blocks = (c->oc + 7) / 8;
    int8_t *wa = malloc((size_t)blocks * 8 * (size_t)c->p.k_pad);
    int32_t *qa = malloc(sizeof(int32_t) * (size_t)blocks * 32);
    te_conv2d_avx2_params a;
    memset(&a, 0, sizeof a);
    COPY_GEMM_FIELDS(&c->p, &a);
    a.k_pad = c->p.k_pad;
    te_convfam_gemm_avx2_layout(c->oc, c->p.k_pad, c->p.fast_rq, w16, qr, wa, qa);
    te_conv2d_avx2_s8(&a, c->in, wa, qa, out);
    free(wa);
    free(qa);
}
#endif

#if defined(TEST_CONV_W8)
/* te_conv2d_w8_s8 with the model's weights and the GEMM's requantization
 * table (op_conv2d.c, emit_w8). */
static void run_w8(const conv_case *c, const int32_t *qr, int8_t *out)
{
    te_conv2d_w8_params a;
    memset(&a, 0, sizeof a);
    COPY_GEMM_FIELDS(&c->p, &a);
    te_conv2d_w8_s8(&a, c->in, c->w, qr, out);
}
#endif

static void run_case(void)
{
    conv_case c;
    te_conv2d_gemm_w *wk;
    int32_t *qr;
    int8_t *out, *zp_row, *in_copy, *work = NULL;
    long n_in, n_out, bad = 0, gap_bad = 0, pitch;
    int b, oy, ox, o, fast;
    make_shape(&c.p);
#if defined(TEST_CONV_W8) /* larger patches go to another kernel */
    while (!c.p.pointwise && c.p.k_h * c.p.k_w * c.p.in_c > TE_CONV2D_W8_KMAX)
        make_shape(&c.p);
#endif
    c.oc = c.p.out_c;
    c.k = c.p.k_h * c.p.k_w * c.p.in_c;
    /* a third of the cases write a channel slice of a wider tensor (a
     * concatenation's output), with or without a work area */
    c.p.out_stride = test_rand() % 3 == 0 ? c.oc + test_rand_range(1, 9) : 0;
    pitch = c.p.out_stride ? c.p.out_stride : c.oc;
    n_in = (long)c.p.batches * c.p.in_h * c.p.in_w * c.p.in_c;
    n_out = (long)c.p.batches * c.p.out_h * c.p.out_w * pitch;
    c.in = malloc((size_t)n_in);
    in_copy = malloc((size_t)n_in);
    c.w = malloc((size_t)c.k * (size_t)c.oc);
    c.bias = test_rand() % 5 ? malloc(sizeof(int32_t) * (size_t)c.oc) : NULL;
    c.mult = malloc(sizeof(int32_t) * (size_t)c.oc);
    c.shift = malloc(sizeof(int32_t) * (size_t)c.oc);
    out = malloc((size_t)n_out); /* exactly the tensor: the kernel works inside it */
    zp_row = malloc((size_t)(c.p.k_w * c.p.in_c));
    for (b = 0; b < n_in; b++)
        c.in[b] = (int8_t)test_rand_range(-128, 127);
    memcpy(in_copy, c.in, (size_t)n_in);
    make_quant(&c);
    memset(zp_row, c.p.input_zp, (size_t)(c.p.k_w * c.p.in_c));
    memset(out, 0x55, (size_t)n_out);
    fast = prepare(&c, &wk, &qr);
    c.p.fast_rq = fast;
    if (c.p.out_stride && test_rand() % 2)
        c.p.work = work = malloc((size_t)TE_CONV2D_GEMM_WORK(c.p.k_pad));
#if defined(TEST_CONV_AVX2)
    run_avx2(&c, wk, qr, out);
#elif defined(TEST_CONV_W8)
    CHECK(c.k <= TE_CONV2D_W8_KMAX || c.p.pointwise);
    run_w8(&c, qr, out);
#else
    te_conv2d_gemm_s8(&c.p, c.in, wk, qr, c.p.pointwise ? NULL : zp_row, out);
#endif
    for (b = 0; b < c.p.batches; b++)
        for (oy = 0; oy < c.p.out_h; oy++)
            for (ox = 0; ox < c.p.out_w; ox++) {
                long at = (((long)b * c.p.out_h + oy) * c.p.out_w + ox) * pitch;
                for (o = 0; o < c.oc; o++)
                    bad += out[at + o] != ref_out(&c, b, oy, ox, o);
                for (o = c.oc; o < pitch; o++) /* the other tensors' bytes */
                    gap_bad += out[at + o] != 0x55;
            }
    CHECK(bad == 0);
    CHECK(gap_bad == 0);
    n_strided += c.p.out_stride != 0;
    CHECK(memcmp(in_copy, c.in, (size_t)n_in) == 0);
    if (bad || gap_bad)
        printf("  case %ld: %dx%dx%d -> %dx%dx%d k %dx%d s %d,%d d %d,%d pad %d,%d fast %d: %ld "
               "bytes differ\n",
               n_cases, c.p.in_h, c.p.in_w, c.p.in_c, c.p.out_h, c.p.out_w, c.oc, c.p.k_h,
               c.p.k_w, c.p.stride_h, c.p.stride_w, c.p.dil_h, c.p.dil_w, c.p.pad_top,
               c.p.pad_left, fast, bad);
    n_cases++;
    n_fast += fast;
    n_outputs += n_out;
    free(c.in);
    free(in_copy);
    free(c.w);
    free(c.bias);
    free(c.mult);
    free(c.shift);
    free(out);
    free(zp_row);
    free(wk);
    free(qr);
    free(work);
}

/* A pointwise convolution written over its input (as the compiler plans
 * it in place: out_stride == out_c): one buffer holds the input, then the
 * output; the GEMM kernel's patches in its work area, te_conv2d_avx2_s8's
 * on its stack, te_conv2d_w8_s8's pixels copied to its stack patch. */
static long n_inplace;

static void run_inplace_case(void)
{
    conv_case c;
    te_conv2d_gemm_w *wk;
    int32_t *qr;
    int8_t *buf = make_inplace_case(&c), *work;
    c.p.fast_rq = prepare(&c, &wk, &qr);
    c.p.out_stride = c.oc; /* in place */
    c.p.work = work = malloc((size_t)TE_CONV2D_GEMM_WORK(c.p.k_pad));
#if defined(TEST_CONV_AVX2) || defined(TEST_CONV_W8)
    {
        int8_t *keep = c.in;
        c.in = buf;
#if defined(TEST_CONV_AVX2)
        run_avx2(&c, wk, qr, buf);
#else
        run_w8(&c, qr, buf);
#endif
        c.in = keep;
    }
#else
    te_conv2d_gemm_s8(&c.p, buf, wk, qr, NULL, buf);
#endif
    check_inplace_case(&c, buf);
    n_inplace++;
    free(wk);
    free(qr);
    free(work);
}

/* The fast requantization entries against te_mul_by_quant_mult, including
 * ties, for every right shift they accept. */
static void test_fast_requant(void)
{
    int i, bad = 0, used = 0;
    for (i = 0; i < 200000; i++) {
        int32_t mult = (int32_t)(0x40000000u + (test_rand() & 0x3fffffffu)), e[3];
        int shift = -test_rand_range(0, 24), zp = test_rand_range(-128, 127);
        int32_t acc = test_rand_range(-(1 << 28), 1 << 28);
        if (i % 3 == 0)
            acc = te_shl_i32((int32_t)(test_rand() % 2000) - 1000, test_rand_range(0, 18));
        if (!te_convfam_fast_requant(mult, shift, zp, (int64_t)1 << 29, e))
            continue;
        used++;
        bad += te_conv2d_gemm_rq_fast(2 * acc, e) !=
               (int32_t)((uint32_t)te_mul_by_quant_mult(acc, mult, shift) + (uint32_t)zp);
    }
    CHECK(bad == 0);
    CHECK(used > 100000);
}

int main(void)
{
    int i;
#if defined(TEST_CONV_AVX2)
    if (!__builtin_cpu_supports("avx2")) {
        printf("this CPU has no AVX2: te_conv2d_avx2_s8 not tested\n");
        return 77;
    }
#endif
    test_seed(DSP ? 0x5eed0d5bu : 0x5eed0c0du);
    test_fast_requant();
    for (i = 0; i < CONV_FAST_CASES; i++)
        run_case();
    for (i = 0; i < CONV_FAST_CASES / 3; i++)
        run_inplace_case();
    printf("in place: %ld pointwise cases\n", n_inplace);
    printf("%s kernel: %ld cases (%ld with the fast requantization, %ld strided), %ld outputs\n",
           DSP ? "DSP" : TE_CONV_FAST_AVX2 ? "AVX2" : TEST_CONV_W8_ON ? "w8" : "portable", n_cases, n_fast, n_strided, n_outputs);
    CHECK(n_fast > n_cases / 4);
    CHECK(n_strided > n_cases / 5);
    return test_summary();
}
