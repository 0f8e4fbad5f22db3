/* test_inplace.c - memory-saving rewrites of the convolution family:
 * the in-place DEPTHWISE_CONV_2D kernel gives the same bytes as the normal
 * one; explicit padding (a folded PAD) gives the same bytes as padding the
 * input first; the PAD-folding pass and the in-place decision on small
 * hand-built models (what folds, what must not, the scratch it asks for). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "ops/conv_family.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_conv2d.h"
#include "te_depthwise_conv2d.h"
#include "testlib.h"
#include "tflite_builder.h"

static void fill_i8(int8_t *v, size_t n, int lo, int hi)
{
    size_t i;
    for (i = 0; i < n; i++)
        v[i] = (int8_t)test_rand_range(lo, hi);
}

static int same_bytes(const int8_t *a, const int8_t *b, size_t n)
{
    return n == 0 || memcmp(a, b, n) == 0;
}

/* Random requantization: per-channel multipliers, bias, zero points and
 * activation bounds (outputs mostly unclamped). */
typedef struct {
    int32_t *mult, *shift, *bias;
    int32_t in_zp, out_zp, act_min, act_max;
} rq_params;

static void make_rq(rq_params *q, int channels, int taps)
{
    int c;
    q->mult = malloc(sizeof(int32_t) * (size_t)channels);
    q->shift = malloc(sizeof(int32_t) * (size_t)channels);
    q->bias = test_rand() % 4 ? malloc(sizeof(int32_t) * (size_t)channels) : NULL;
    for (c = 0; c < channels; c++) {
        double real = (0.0005 + (test_rand() % 1000) / 1000.0 * 0.01) * (taps > 9 ? 0.3 : 1.0);
        int sh;
        te_quantize_multiplier(real, &q->mult[c], &sh);
        q->shift[c] = sh;
        if (q->bias)
            q->bias[c] = test_rand_range(-5000, 5000);
    }
    q->in_zp = test_rand_range(-128, 127);
    q->out_zp = test_rand_range(-20, 20);
    q->act_min = test_rand() % 3 == 0 ? q->out_zp : -128;
    q->act_max = test_rand() % 3 == 0 ? 100 : 127;
}

static void free_rq(rq_params *q)
{
    free(q->mult);
    free(q->shift);
    free(q->bias);
}

/* ------------------------------------------ in-place DEPTHWISE_CONV_2D */

/* Random multiplier-1 geometry whose output is no larger than its input. */
static void dw_geometry(te_depthwise_conv2d_params *p)
{
    do {
        p->batches = test_rand() % 4 == 0 ? test_rand_range(2, 3) : 1;
        p->in_c = test_rand_range(1, 20);
        p->depth_mult = 1;
        p->k_h = test_rand_range(1, 7);
        p->k_w = test_rand() % 2 ? p->k_h : test_rand_range(1, 7);
        p->stride_h = test_rand_range(1, 3);
        p->stride_w = test_rand() % 2 ? p->stride_h : test_rand_range(1, 3);
        p->dil_h = test_rand() % 4 == 0 ? 2 : 1;
        p->dil_w = test_rand() % 4 == 0 ? 2 : 1;
        p->in_h = test_rand_range(1, 17);
        p->in_w = test_rand_range(1, 17);
        p->pad_top = test_rand_range(0, p->k_h);
        p->pad_left = test_rand_range(0, p->k_w);
        /* any output size up to the input's (covers SAME, VALID and folded pads) */
        p->out_h = test_rand_range(1, p->in_h);
        p->out_w = test_rand_range(1, p->in_w);
        if (test_rand() % 3 == 0) {
            p->out_h = p->in_h;
            p->out_w = p->in_w;
        }
    } while ((long)p->out_h * p->out_w > (long)p->in_h * p->in_w);
}

static void test_dw_inplace_case(void)
{
    te_depthwise_conv2d_params p;
    rq_params q;
    int8_t *in, *w, *ref, *data, *plane;
    size_t n_in, n_out, n_w;
    memset(&p, 0, sizeof p);
    dw_geometry(&p);
    make_rq(&q, p.in_c, p.k_h * p.k_w);
    p.input_offset = -q.in_zp;
    p.output_offset = q.out_zp;
    p.act_min = q.act_min;
    p.act_max = q.act_max;
    n_in = (size_t)p.batches * p.in_h * p.in_w * p.in_c;
    n_out = (size_t)p.batches * p.out_h * p.out_w * p.in_c;
    n_w = (size_t)p.k_h * p.k_w * p.in_c;
    in = malloc(n_in);
    w = malloc(n_w);
    ref = malloc(n_out);
    data = malloc(n_in);
    plane = malloc((size_t)p.in_h * p.in_w); /* exactly the scratch the compiler gives */
    fill_i8(in, n_in, -128, 127);
    fill_i8(w, n_w, -127, 127);
    memcpy(data, in, n_in);
    te_depthwise_conv2d_s8(&p, in, w, q.bias, q.mult, q.shift, ref);
    te_depthwise_conv2d_s8_inplace(&p, data, w, q.bias, q.mult, q.shift, plane);
    CHECK(same_bytes(ref, data, n_out));
    if (!same_bytes(ref, data, n_out))
        printf("dw in place b%d %dx%dx%d -> %dx%d k%dx%d s%d,%d d%d,%d pad %d,%d differs\n",
               p.batches, p.in_h, p.in_w, p.in_c, p.out_h, p.out_w, p.k_h, p.k_w, p.stride_h,
               p.stride_w, p.dil_h, p.dil_w, p.pad_top, p.pad_left);
    free(in);
    free(w);
    free(ref);
    free(data);
    free(plane);
    free_rq(&q);
}

/* ------------------------------- explicit padding == PAD then convolve */

typedef struct {
    int h, w, c;                 /* unpadded input (batch 1) */
    int top, bottom, left, right;
    int k_h, k_w, filter_c, out_c;
    te_options o;
} fold_case;

static void fold_geometry(fold_case *f, int depthwise)
{
    memset(f, 0, sizeof *f);
    f->h = test_rand_range(1, 12);
    f->w = test_rand_range(1, 12);
    f->c = test_rand_range(1, 9);
    f->top = test_rand_range(0, 3);
    f->bottom = test_rand_range(0, 3);
    f->left = test_rand_range(0, 3);
    f->right = test_rand_range(0, 3);
    f->o.padding = test_rand() % 2 ? TE_PAD_SAME : TE_PAD_VALID;
    f->o.stride_h = test_rand_range(1, 3);
    f->o.stride_w = test_rand_range(1, 3);
    f->o.dilation_h = test_rand() % 4 == 0 ? 2 : 1;
    f->o.dilation_w = test_rand() % 4 == 0 ? 2 : 1;
    f->k_h = test_rand_range(1, 5);
    f->k_w = test_rand_range(1, 5);
    f->filter_c = depthwise ? 1 : f->c;
    f->out_c = depthwise ? f->c : test_rand_range(1, 9);
    f->o.pad_top = f->top;
    f->o.pad_bottom = f->bottom;
    f->o.pad_left = f->left;
    f->o.pad_right = f->right;
}

/* The input with the padding written out, pad value = zero point. */
static int8_t *pad_input(const fold_case *f, const int8_t *in, int8_t zp, int *ph, int *pw)
{
    int8_t *out;
    int y, x;
    *ph = f->h + f->top + f->bottom;
    *pw = f->w + f->left + f->right;
    out = malloc((size_t)*ph * *pw * f->c);
    memset(out, (unsigned char)zp, (size_t)*ph * *pw * f->c);
    for (y = 0; y < f->h; y++)
        for (x = 0; x < f->w; x++)
            memcpy(out + ((size_t)(y + f->top) * *pw + x + f->left) * f->c,
                   in + ((size_t)y * f->w + x) * f->c, (size_t)f->c);
    return out;
}

/* Runs the convolution on an in_h x in_w input with out size and leading
 * padding as given. */
static void run_conv(const fold_case *f, int depthwise, const int8_t *in, int in_h, int in_w,
                     int out_h, int out_w, int pad_top, int pad_left, const int8_t *w,
                     const rq_params *q, int8_t *out)
{
/* The fields te_conv2d_params and te_depthwise_conv2d_params share. */
#define COMMON_FIELDS(p)                                                                      \
    do {                                                                                      \
        memset(&(p), 0, sizeof(p));                                                           \
        (p).batches = 1;                                                                      \
        (p).in_h = in_h;                                                                      \
        (p).in_w = in_w;                                                                      \
        (p).in_c = f->c;                                                                      \
        (p).out_h = out_h;                                                                    \
        (p).out_w = out_w;                                                                    \
        (p).k_h = f->k_h;                                                                     \
        (p).k_w = f->k_w;                                                                     \
        (p).stride_h = f->o.stride_h;                                                         \
        (p).stride_w = f->o.stride_w;                                                         \
        (p).dil_h = f->o.dilation_h;                                                          \
        (p).dil_w = f->o.dilation_w;                                                          \
        (p).pad_top = pad_top;                                                                \
        (p).pad_left = pad_left;                                                              \
        (p).input_offset = -q->in_zp;                                                         \
        (p).output_offset = q->out_zp;                                                        \
        (p).act_min = q->act_min;                                                             \
        (p).act_max = q->act_max;                                                             \
    } while (0)
    if (depthwise) {
        te_depthwise_conv2d_params p;
        COMMON_FIELDS(p);
        p.depth_mult = 1;
        te_depthwise_conv2d_s8(&p, in, w, q->bias, q->mult, q->shift, out);
    } else {
        te_conv2d_params p;
        COMMON_FIELDS(p);
        p.out_c = f->out_c;
        p.filter_c = f->filter_c;
        te_conv2d_s8(&p, in, w, q->bias, q->mult, q->shift, out);
    }
#undef COMMON_FIELDS
}

static void test_fold_case(int depthwise)
{
    fold_case f;
    rq_params q;
    int8_t *in, *padded, *w, *ref, *got;
    int ph, pw;
    int64_t oh, ow, oh2, ow2;
    size_t n_out, n_w;
    fold_geometry(&f, depthwise);
    in = malloc((size_t)f.h * f.w * f.c);
    fill_i8(in, (size_t)f.h * f.w * f.c, -128, 127);
    make_rq(&q, f.out_c, f.k_h * f.k_w * f.filter_c);
    padded = pad_input(&f, in, (int8_t)q.in_zp, &ph, &pw);
    /* the unfolded model: conv with its own padding on the padded tensor */
    oh = te_convfam_out_size(f.o.padding, ph, f.k_h, f.o.stride_h, f.o.dilation_h);
    ow = te_convfam_out_size(f.o.padding, pw, f.k_w, f.o.stride_w, f.o.dilation_w);
    oh2 = te_convfam_conv_out(&f.o, 0, f.h, f.k_h);
    ow2 = te_convfam_conv_out(&f.o, 1, f.w, f.k_w);
    CHECK(oh == oh2 && ow == ow2);
    if (oh < 1 || ow < 1 || oh != oh2 || ow != ow2) {
        free(in);
        free(padded);
        free_rq(&q);
        return;
    }
    n_out = (size_t)(oh * ow) * f.out_c;
    n_w = (size_t)f.out_c * f.k_h * f.k_w * f.filter_c;
    w = malloc(n_w);
    ref = malloc(n_out);
    got = malloc(n_out);
    fill_i8(w, n_w, -127, 127);
    run_conv(&f, depthwise, padded, ph, pw, (int)oh, (int)ow,
             (int)te_convfam_pad_before(ph, f.k_h, f.o.stride_h, f.o.dilation_h, oh),
             (int)te_convfam_pad_before(pw, f.k_w, f.o.stride_w, f.o.dilation_w, ow), w, &q,
             ref);
    run_conv(&f, depthwise, in, f.h, f.w, (int)oh, (int)ow,
             (int)te_convfam_conv_pad(&f.o, 0, f.h, f.k_h, oh),
             (int)te_convfam_conv_pad(&f.o, 1, f.w, f.k_w, ow), w, &q, got);
    CHECK(same_bytes(ref, got, n_out));
    if (!same_bytes(ref, got, n_out))
        printf("%s folded pad %d,%d,%d,%d %s differs\n", depthwise ? "dw" : "conv", f.top,
               f.bottom, f.left, f.right, f.o.padding == TE_PAD_SAME ? "SAME" : "VALID");
    free(in);
    free(padded);
    free(w);
    free(ref);
    free(got);
    free_rq(&q);
}

/* --------------------------------------- the passes on built models */

enum {
    V_PLAIN = 0,     /* PAD [1,2],[2,1] -> DEPTHWISE VALID: folds */
    V_CONV,          /* the same with CONV_2D (SAME on top of the PAD): folds */
    V_CHANNELS,      /* pads channels too: stays */
    V_VALUE_OTHER,   /* constant_values != zero point: stays */
    V_VALUE_ZP,      /* constant_values == zero point: folds */
    V_PAD_OUTPUT,    /* the padded tensor is also a graph output: stays */
    V_REQUANT        /* PAD output quantized differently from its input: stays */
};

static const float s_in = 0.05f, s_w = 0.02f, s_b = 0.001f, s_out = 0.1f, s_other = 0.07f;
static const int64_t zp_in = -3, zp_w = 0, zp_out = 5;

/* input [1,8,8,4] -> PAD -> (DEPTHWISE_)CONV_2D 3x3 -> output. */
static uint8_t *build_pad_model(int v, size_t *size)
{
    tflb_model m;
    tflb_quant qi = tflb_quant1(&s_in, &zp_in), qw = tflb_quant1(&s_w, &zp_w),
               qb = tflb_quant1(&s_b, &zp_w), qo = tflb_quant1(&s_out, &zp_out),
               qp = tflb_quant1(v == V_REQUANT ? &s_other : &s_in, &zp_in);
    int32_t pads[8] = {0, 0, 1, 2, 2, 1, 0, v == V_CHANNELS ? 1 : 0};
    int32_t s_x[4] = {1, 8, 8, 4}, s_pads[2] = {4, 2}, s_p[4] = {1, 11, 11, 4};
    int32_t s_wt[4] = {1, 3, 3, 4}, s_bias[1] = {4}, s_y[4] = {1, 9, 9, 4}, s_one[1] = {1};
    int8_t wdata[180];
    int32_t bias[5] = {100, -200, 300, 0, 7};
    int8_t value = v == V_VALUE_OTHER ? 7 : (int8_t)zp_in;
    int32_t pin[3], pout[1], cin[3], cout[1], outs[2];
    tflb_options o;
    uint8_t *data = NULL;
    int i, conv = v == V_CONV;
    tflb_init(&m);
    for (i = 0; i < 180; i++)
        wdata[i] = (int8_t)(i * 7 % 19 - 9);
    if (v == V_CHANNELS)
        s_p[3] = s_y[3] = s_wt[3] = s_bias[0] = 5;
    if (conv) { /* CONV_2D [4,3,3,4] SAME on the 11x11 padded input: 11x11 out */
        s_wt[0] = 4;
        s_wt[3] = 4;
        s_y[1] = s_y[2] = 11;
    }
    pin[0] = tflb_add_tensor(&m, "x", TFLB_INT8, s_x, 4, 0, &qi);
    pin[1] = tflb_add_const(&m, "pads", TFLB_INT32, s_pads, 2, pads, sizeof pads, NULL);
    pout[0] = tflb_add_tensor(&m, "padded", TFLB_INT8, s_p, 4, 0, &qp);
    cin[0] = pout[0];
    cin[1] = tflb_add_const(&m, "w", TFLB_INT8, s_wt, 4, wdata, (size_t)s_wt[0] * 9 * s_wt[3],
                            &qw);
    cin[2] = tflb_add_const(&m, "b", TFLB_INT32, s_bias, 1, bias, sizeof(int32_t) * s_bias[0],
                            &qb);
    cout[0] = tflb_add_tensor(&m, "y", TFLB_INT8, s_y, 4, 0, &qo);
    pin[2] = tflb_add_const(&m, "value", TFLB_INT8, s_one, 1, &value, 1, &qi);
    o = tflb_opt_empty(TE_OPT_PAD);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_PAD, 2), pin,
                v == V_VALUE_OTHER || v == V_VALUE_ZP ? 3 : 2, pout, 1, &o);
    o = conv ? tflb_opt_conv2d(TFLB_PAD_SAME, 1, 1, TFLB_ACT_RELU)
             : tflb_opt_dwconv2d(TFLB_PAD_VALID, 1, 1, 1, TFLB_ACT_NONE);
    tflb_add_op(&m, tflb_add_opcode(&m, conv ? TE_OP_CONV_2D : TE_OP_DEPTHWISE_CONV_2D, 3),
                cin, 3, cout, 1, &o);
    tflb_set_inputs(&m, pin, 1);
    outs[0] = cout[0];
    outs[1] = pout[0];
    tflb_set_outputs(&m, outs, v == V_PAD_OUTPUT ? 2 : 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_fold_pass(void)
{
    int v;
    for (v = V_PLAIN; v <= V_REQUANT; v++) {
        size_t size;
        uint8_t *data = build_pad_model(v, &size);
        te_diag d;
        te_model *m;
        int folds = v == V_PLAIN || v == V_CONV || v == V_VALUE_ZP;
        memset(&d, 0, sizeof d);
        CHECK(data != NULL);
        m = data ? te_model_load(data, size, NULL, &d) : NULL;
        CHECK(m != NULL);
        if (!m) {
            printf("variant %d: %s\n", v, d.msg);
            free(data);
            continue;
        }
        CHECK(m->g->n_ops == 2 && m->g->ops[0].dead == folds);
        if (folds) {
            const te_op *c = &m->g->ops[1];
            CHECK(c->in[0] == m->g->inputs[0]);
            CHECK(c->opt.pad_top == 1 && c->opt.pad_bottom == 2 && c->opt.pad_left == 2 &&
                  c->opt.pad_right == 1);
            /* the PAD's 11x11x4 copy is gone: input and output only */
            CHECK(m->plan->arena_bytes ==
                  256 + ((te_tensor_bytes(&m->g->tensors[c->out[0]]) + 15) & ~(size_t)15));
        } else {
            CHECK(m->g->ops[1].in[0] == m->g->ops[0].out[0]);
            CHECK(m->g->ops[1].opt.pad_top == 0 && m->g->ops[1].opt.pad_right == 0);
        }
        te_model_free(m);
        free(data);
    }
}

/* input [1,8,8,4] -> DEPTHWISE 3x3 SAME s1 -> DEPTHWISE 3x3 SAME s2 -> output,
 * the first with depth multiplier `mult`. */
static uint8_t *build_dw_chain(int mult, size_t *size)
{
    tflb_model m;
    tflb_quant qi = tflb_quant1(&s_in, &zp_in), qw = tflb_quant1(&s_w, &zp_w),
               qo = tflb_quant1(&s_out, &zp_out);
    int32_t s_x[4] = {1, 8, 8, 4}, s_w1[4] = {1, 3, 3, 4 * mult}, s_t[4] = {1, 8, 8, 4 * mult};
    int32_t s_w2[4] = {1, 3, 3, 4 * mult}, s_y[4] = {1, 4, 4, 4 * mult};
    int8_t wdata[72];
    int32_t x, t, y, in1[2], in2[2];
    tflb_options o;
    uint8_t *data = NULL;
    int i, code;
    tflb_init(&m);
    for (i = 0; i < 72; i++)
        wdata[i] = (int8_t)(i * 5 % 23 - 11);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, s_x, 4, 0, &qi);
    t = tflb_add_tensor(&m, "t", TFLB_INT8, s_t, 4, 0, &qo);
    y = tflb_add_tensor(&m, "y", TFLB_INT8, s_y, 4, 0, &qo);
    in1[0] = x;
    in1[1] = tflb_add_const(&m, "w1", TFLB_INT8, s_w1, 4, wdata, (size_t)36 * mult, &qw);
    in2[0] = t;
    in2[1] = tflb_add_const(&m, "w2", TFLB_INT8, s_w2, 4, wdata, (size_t)36 * mult, &qw);
    code = tflb_add_opcode(&m, TE_OP_DEPTHWISE_CONV_2D, 3);
    o = tflb_opt_dwconv2d(TFLB_PAD_SAME, 1, 1, mult, TFLB_ACT_RELU6);
    tflb_add_op(&m, code, in1, 2, &t, 1, &o);
    o = tflb_opt_dwconv2d(TFLB_PAD_SAME, 2, 2, 1, TFLB_ACT_NONE);
    tflb_add_op(&m, code, in2, 2, &y, 1, &o);
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, &y, 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

static void test_inplace_decision(void)
{
    int mult;
    for (mult = 1; mult <= 2; mult++) {
        size_t size;
        uint8_t *data = build_dw_chain(mult, &size);
        te_diag d;
        te_model *m;
        te_buf h, c;
        memset(&d, 0, sizeof d);
        memset(&h, 0, sizeof h);
        memset(&c, 0, sizeof c);
        m = data ? te_model_load(data, size, NULL, &d) : NULL;
        CHECK(m != NULL);
        if (!m) {
            printf("dw chain m%d: %s\n", mult, d.msg);
            free(data);
            continue;
        }
        {
            const te_graph *g = m->g;
            const te_tensor *t = &g->tensors[g->ops[0].out[0]];
            const te_tensor *y = &g->tensors[g->ops[1].out[0]];
            const te_lowering *l0 = te_lowered_find(m->low, g, &g->ops[0]);
            const te_lowering *l1 = te_lowered_find(m->low, g, &g->ops[1]);
            const te_storage *st = m->st;
            /* multiplier 2 cannot run in place; the second op can either way */
            CHECK(te_storage_inplace(st, t->id) == (mult == 1));
            CHECK(te_storage_inplace(st, y->id) && te_storage_alias_of(st, y->id) == t->id);
            CHECK(m->plan->st == st && m->low->opts.st == st);
            CHECK(l0 && l0->scratch_bytes == (mult == 1 ? 64u : 0u));
            CHECK(l1 && l1->scratch_bytes == 64u);
            CHECK(l1 && l1->inplace_input == 0);
            CHECK(te_model_generate(m, "dwc", "", &h, &c, &d) == 0);
            CHECK(c.s && strstr(c.s, "te_depthwise_conv2d_s8_inplace(") != NULL);
            /* m1: one 8x8x4 buffer plus one 8x8 plane; m2: x and t */
            CHECK(m->plan->arena_bytes == (mult == 1 ? 256u + 64u : 256u + 512u));
        }
        te_buf_free(&h);
        te_buf_free(&c);
        te_model_free(m);
        free(data);
    }
}

/* Two convolutions (1x1 -> 3 channels, 3x3 SAME -> 5) of x [1,6,6,4] joined
 * along the channels (axis 3, or -1); with a_out, the first is also a
 * graph output.  Or (image 0) two FULLY_CONNECTED of x [1,16] joined along
 * axis 1 and read by a third. */
static uint8_t *build_concat_model(int image, int a_out, size_t *size)
{
    tflb_model m;
    tflb_quant qi = tflb_quant1(&s_in, &zp_in), qw = tflb_quant1(&s_w, &zp_w),
               qo = tflb_quant1(&s_out, &zp_out);
    int32_t s_x[4] = {1, 6, 6, 4}, s_wa[4] = {3, 1, 1, 4}, s_wb[4] = {5, 3, 3, 4};
    int32_t s_a[4] = {1, 6, 6, 3}, s_b[4] = {1, 6, 6, 5}, s_y[4] = {1, 6, 6, 8};
    int32_t f_x[2] = {1, 16}, f_wa[2] = {4, 16}, f_wb[2] = {6, 16}, f_wc[2] = {3, 10};
    int32_t f_a[2] = {1, 4}, f_b[2] = {1, 6}, f_y[2] = {1, 10}, f_z[2] = {1, 3};
    int8_t wdata[180];
    int32_t x, a, b, y, z, in[2], outs[2];
    tflb_options o;
    uint8_t *data = NULL;
    int i, code;
    tflb_init(&m);
    for (i = 0; i < 180; i++)
        wdata[i] = (int8_t)(i * 7 % 19 - 9);
    x = tflb_add_tensor(&m, "x", TFLB_INT8, image ? s_x : f_x, image ? 4 : 2, 0, &qi);
    a = tflb_add_tensor(&m, "a", TFLB_INT8, image ? s_a : f_a, image ? 4 : 2, 0, &qo);
    b = tflb_add_tensor(&m, "b", TFLB_INT8, image ? s_b : f_b, image ? 4 : 2, 0, &qo);
    y = tflb_add_tensor(&m, "y", TFLB_INT8, image ? s_y : f_y, image ? 4 : 2, 0, &qo);
    code = tflb_add_opcode(&m, image ? TE_OP_CONV_2D : TE_OP_FULLY_CONNECTED, 3);
    o = image ? tflb_opt_conv2d(TFLB_PAD_SAME, 1, 1, TFLB_ACT_NONE)
              : tflb_opt_fc(TFLB_ACT_NONE, 0);
    in[0] = x;
    in[1] = tflb_add_const(&m, "wa", TFLB_INT8, image ? s_wa : f_wa, image ? 4 : 2, wdata,
                           image ? 12 : 64, &qw);
    tflb_add_op(&m, code, in, 2, &a, 1, &o);
    in[1] = tflb_add_const(&m, "wb", TFLB_INT8, image ? s_wb : f_wb, image ? 4 : 2, wdata,
                           image ? 180 : 96, &qw);
    tflb_add_op(&m, code, in, 2, &b, 1, &o);
    in[0] = a;
    in[1] = b;
    o = tflb_opt_concat(image ? -1 : 1, TFLB_ACT_NONE);
    tflb_add_op(&m, tflb_add_opcode(&m, TE_OP_CONCATENATION, 1), in, 2, &y, 1, &o);
    outs[0] = y;
    if (!image) {
        z = tflb_add_tensor(&m, "z", TFLB_INT8, f_z, 2, 0, &qo);
        in[0] = y;
        in[1] = tflb_add_const(&m, "wc", TFLB_INT8, f_wc, 2, wdata, 30, &qw);
        o = tflb_opt_fc(TFLB_ACT_NONE, 0);
        tflb_add_op(&m, code, in, 2, &z, 1, &o);
        outs[0] = z;
    }
    outs[1] = a;
    tflb_set_inputs(&m, &x, 1);
    tflb_set_outputs(&m, outs, a_out ? 2 : 1);
    if (tflb_finish(&m, &data, size))
        data = NULL;
    tflb_free(&m);
    return data;
}

/* Producers write straight into their CONCATENATION's output: strided
 * channel slices for convolutions, contiguous blocks along a [1, N] axis;
 * not a tensor that is also a graph output, and not when the planner finds
 * the arena smaller without. */
static void test_concat_slices(void)
{
    static const struct { int image, a_out; } cases[] = {{1, 0}, {1, 1}, {0, 0}};
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t size;
        uint8_t *data = build_concat_model(cases[k].image, cases[k].a_out, &size);
        te_diag d;
        te_model *m;
        te_buf h, c;
        memset(&d, 0, sizeof d);
        memset(&h, 0, sizeof h);
        memset(&c, 0, sizeof c);
        m = data ? te_model_load(data, size, NULL, &d) : NULL;
        CHECK(m != NULL);
        if (!m) {
            printf("concat case %d: %s\n", (int)k, d.msg);
            free(data);
            continue;
        }
        {
            const te_graph *g = m->g;
            const te_tensor *a = &g->tensors[g->ops[0].out[0]];
            const te_tensor *b = &g->tensors[g->ops[1].out[0]];
            const te_tensor *y = &g->tensors[g->ops[2].out[0]];
            const te_storage *st = m->st;
            const te_tensor_place *pl = m->plan->place;
            CHECK(te_storage_slice(st, a->id) == !cases[k].a_out);
            if (cases[k].a_out) { /* a slice of b alone does not pay for a work area */
                CHECK(te_storage_slice(st, b->id) && m->low->opts.slice_no_work);
                CHECK(m->plan->arena_bytes <= m->plan->bound_no_inplace);
                te_model_free(m);
                free(data);
                continue;
            }
            CHECK(te_storage_slice(st, b->id) && te_storage_alias_of(st, b->id) == y->id);
            CHECK(st->t[b->id].alias_offset == (cases[k].image ? 3u : 4u));
            CHECK(te_storage_slice_pitch(st, b->id) == (cases[k].image ? 8u : 0u));
            CHECK(pl[b->id].arena_offset == pl[y->id].arena_offset + st->t[b->id].alias_offset);
            CHECK(b->alias_of < 0 && y->alias_of < 0); /* the graph holds views only */
            if (te_storage_slice(st, a->id))
                CHECK(st->t[a->id].alias_offset == 0 &&
                      pl[a->id].arena_offset == pl[y->id].arena_offset);
            CHECK(m->plan->arena_bytes <= m->plan->bound_no_inplace);
            CHECK(te_model_generate(m, "cat", "", &h, &c, &d) == 0);
            CHECK(c.s && strstr(c.s, "te_concat_s8(") == NULL);
            if (cases[k].image)
                CHECK(c.s && strstr(c.s, ".out_stride = 8") != NULL);
        }
        te_buf_free(&h);
        te_buf_free(&c);
        te_model_free(m);
        free(data);
    }
}

int main(void)
{
    int i;
    test_seed(20240917u);
    for (i = 0; i < 3000; i++)
        test_dw_inplace_case();
    for (i = 0; i < 1500; i++) {
        test_fold_case(1);
        test_fold_case(0);
    }
    test_fold_pass();
    test_inplace_decision();
    test_concat_slices();
    return test_summary();
}
