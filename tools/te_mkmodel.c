/* te_mkmodel.c - writes small .tflite models without TensorFlow:
 *
 *   te_mkmodel KIND OUT.tflite [OUT_INPUT.bin]
 *
 * tiny_cnn is a realistic int8 image classifier (deterministic weights,
 * activation ranges calibrated on a float forward pass); small_conv is a
 * one-conv model; the bad_* kinds are small_conv-like models with exactly
 * one flaw each, for error-path tests.  OUT_INPUT.bin receives one
 * deterministic sample input (raw bytes of the input tensor). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_builder.h"

/* ---------------------------------------------------------------------
 * Deterministic helpers (no libm, so results do not depend on it). */

static uint32_t rng_state;

static void rng_seed(uint32_t s) { rng_state = s ? s : 1u; }

static uint32_t rng_next(void)
{
    /* xorshift32 */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Uniform in [lo, hi). */
static float rng_uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_next() >> 8) * (1.0f / 16777216.0f);
}

static float absf(float x) { return x < 0 ? -x : x; }

/* Round half away from zero, clamped to [lo, hi]. */
static long round_clamp(double x, long lo, long hi)
{
    double r = x >= 0 ? (double)(long)(x + 0.5) : -(double)(long)(-x + 0.5);

    if (r < (double)lo)
        return lo;
    if (r > (double)hi)
        return hi;
    return (long)r;
}

/* Per-channel symmetric int8 weights: channel c is every element whose
 * index along the channel axis is c.  inner = product of the dims after
 * the axis, channels = size of the axis. */
static void quantize_weights(const float *w, int n, int channels, int inner,
                             int8_t *q, float *scale)
{
    int c, i;

    for (c = 0; c < channels; c++) {
        float mx = 0;
        for (i = 0; i < n; i++)
            if ((i / inner) % channels == c && absf(w[i]) > mx)
                mx = absf(w[i]);
        scale[c] = mx > 0 ? mx / 127.0f : 1.0f;
    }
    for (i = 0; i < n; i++) {
        c = (i / inner) % channels;
        q[i] = (int8_t)round_clamp(w[i] / scale[c], -127, 127);
    }
}

/* Replaces w by its dequantized value (what the int8 model computes). */
static void dequantize_weights(float *w, const int8_t *q, int n, int channels,
                               int inner, const float *scale)
{
    int i;

    for (i = 0; i < n; i++)
        w[i] = (float)q[i] * scale[(i / inner) % channels];
}

static void quantize_bias(float *b, int n, float in_scale, const float *w_scale,
                          int per_channel, int32_t *q, float *scale)
{
    int c;

    for (c = 0; c < n; c++) {
        scale[c] = in_scale * w_scale[per_channel ? c : 0];
        q[c] = (int32_t)round_clamp(b[c] / scale[c], -2147483647L, 2147483647L);
        b[c] = (float)q[c] * scale[c];
    }
}

/* Activation range -> int8 scale and zero point (0 exactly representable). */
typedef struct {
    float lo, hi;
} range;

static void range_reset(range *r) { r->lo = r->hi = 0; }

static void range_add(range *r, const float *v, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        if (v[i] < r->lo)
            r->lo = v[i];
        if (v[i] > r->hi)
            r->hi = v[i];
    }
}

static void range_quant(const range *r, float *scale, int64_t *zp)
{
    float lo = r->lo < 0 ? r->lo : 0, hi = r->hi > 0 ? r->hi : 0;

    if (hi - lo < 1e-6f)
        hi = lo + 1e-6f;
    *scale = (hi - lo) / 255.0f;
    *zp = round_clamp(-128.0 - (double)lo / (double)*scale, -128, 127);
}

static int write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    int rc = 0;

    if (!f) {
        fprintf(stderr, "te_mkmodel: cannot open '%s' for writing\n", path);
        return -1;
    }
    if (fwrite(data, 1, n, f) != n)
        rc = -1;
    if (fclose(f))
        rc = -1;
    if (rc)
        fprintf(stderr, "te_mkmodel: error writing '%s'\n", path);
    return rc;
}

/* A sample input a kind produces (malloc'd bytes). */
typedef struct {
    uint8_t *data;
    size_t bytes;
} sample;

/* ---------------------------------------------------------------------
 * tiny_cnn: float reference model, calibration, int8 model. */

#define IMG 16
#define C_IN 3
#define C1 8   /* conv1 3x3 s2 SAME -> 8x8x8, RELU6 */
#define S1 8
#define C3 16  /* conv 1x1 -> 8x8x16 */
#define NCLS 4

typedef struct {
    float w1[C1 * 3 * 3 * C_IN], b1[C1];  /* [out][kh][kw][in] */
    float wd[3 * 3 * C1], bd[C1];         /* [1][kh][kw][c] */
    float w2[C3 * C1], b2[C3];            /* [out][1][1][in] */
    float wf[NCLS * C3], bf[NCLS];        /* [out][in] */
} cnn_weights;

typedef struct {
    float a1[S1 * S1 * C1];  /* conv1 + relu6 */
    float a2[S1 * S1 * C1];  /* depthwise + relu */
    float a3[S1 * S1 * C3];  /* conv 1x1 + relu */
    float pool[C3];
    float logits[NCLS];
} cnn_acts;

static void fill_uniform(float *v, int n, float a)
{
    int i;

    for (i = 0; i < n; i++)
        v[i] = rng_uniform(-a, a);
}

static void cnn_init(cnn_weights *w)
{
    rng_seed(0x7E5EEDu);
    fill_uniform(w->w1, C1 * 9 * C_IN, 0.45f);
    fill_uniform(w->b1, C1, 0.2f);
    fill_uniform(w->wd, 9 * C1, 0.7f);
    fill_uniform(w->bd, C1, 0.2f);
    fill_uniform(w->w2, C3 * C1, 1.0f);
    fill_uniform(w->b2, C3, 0.2f);
    fill_uniform(w->wf, NCLS * C3, 4.0f);
    fill_uniform(w->bf, NCLS, 0.5f);
}

static float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* SAME padding before the first row/column, as TFLite computes it. */
static int same_pad(int in, int k, int stride, int out)
{
    int total = (out - 1) * stride + k - in;

    return total > 0 ? total / 2 : 0;
}

static void cnn_conv1(const cnn_weights *w, const float *x, float *y)
{
    int pad = same_pad(IMG, 3, 2, S1), oy, ox, oc, ky, kx, ic;

    for (oy = 0; oy < S1; oy++)
        for (ox = 0; ox < S1; ox++)
            for (oc = 0; oc < C1; oc++) {
                double acc = w->b1[oc];
                for (ky = 0; ky < 3; ky++)
                    for (kx = 0; kx < 3; kx++) {
                        int iy = oy * 2 - pad + ky, ix = ox * 2 - pad + kx;
                        if (iy < 0 || iy >= IMG || ix < 0 || ix >= IMG)
                            continue;
                        for (ic = 0; ic < C_IN; ic++)
                            acc += (double)w->w1[((oc * 3 + ky) * 3 + kx) * C_IN + ic] *
                                   x[(iy * IMG + ix) * C_IN + ic];
                    }
                y[(oy * S1 + ox) * C1 + oc] = clampf((float)acc, 0, 6);
            }
}

static void cnn_dw(const cnn_weights *w, const float *x, float *y)
{
    int oy, ox, c, ky, kx;

    for (oy = 0; oy < S1; oy++)
        for (ox = 0; ox < S1; ox++)
            for (c = 0; c < C1; c++) {
                double acc = w->bd[c];
                for (ky = 0; ky < 3; ky++)
                    for (kx = 0; kx < 3; kx++) {
                        int iy = oy - 1 + ky, ix = ox - 1 + kx;
                        if (iy < 0 || iy >= S1 || ix < 0 || ix >= S1)
                            continue;
                        acc += (double)w->wd[(ky * 3 + kx) * C1 + c] * x[(iy * S1 + ix) * C1 + c];
                    }
                y[(oy * S1 + ox) * C1 + c] = acc > 0 ? (float)acc : 0;
            }
}

static void cnn_pointwise(const cnn_weights *w, const float *x, float *y)
{
    int p, oc, ic;

    for (p = 0; p < S1 * S1; p++)
        for (oc = 0; oc < C3; oc++) {
            double acc = w->b2[oc];
            for (ic = 0; ic < C1; ic++)
                acc += (double)w->w2[oc * C1 + ic] * x[p * C1 + ic];
            y[p * C3 + oc] = acc > 0 ? (float)acc : 0;
        }
}

static void cnn_head(const cnn_weights *w, cnn_acts *a)
{
    int p, c, o;

    for (c = 0; c < C3; c++) {
        double s = 0;
        for (p = 0; p < S1 * S1; p++)
            s += a->a3[p * C3 + c];
        a->pool[c] = (float)(s / (S1 * S1));
    }
    for (o = 0; o < NCLS; o++) {
        double acc = w->bf[o];
        for (c = 0; c < C3; c++)
            acc += (double)w->wf[o * C3 + c] * a->pool[c];
        a->logits[o] = (float)acc;
    }
}

static void cnn_forward(const cnn_weights *w, const float *x, cnn_acts *a)
{
    cnn_conv1(w, x, a->a1);
    cnn_dw(w, a->a1, a->a2);
    cnn_pointwise(w, a->a2, a->a3);
    cnn_head(w, a);
}

#define IN_SCALE (1.0f / 255.0f)
#define IN_ZP (-128)
#define IMG_N (IMG * IMG * C_IN)

/* The shipped sample: a smooth colour gradient. */
static void gradient_image(int8_t *q)
{
    int y, x;

    for (y = 0; y < IMG; y++)
        for (x = 0; x < IMG; x++) {
            int8_t *p = &q[(y * IMG + x) * C_IN];
            p[0] = (int8_t)(x * 17 - 128);               /* 0..255 across */
            p[1] = (int8_t)(y * 17 - 128);               /* 0..255 down */
            p[2] = (int8_t)(255 - (x + y) * 17 / 2 - 128); /* diagonal fade */
        }
}

/* Calibration image k: 0 = the sample, odd = noise, even = random gradient. */
static void calib_image(int k, int8_t *q)
{
    int i, y, x, c;

    if (k == 0) {
        gradient_image(q);
        return;
    }
    if (k % 2) {
        for (i = 0; i < IMG_N; i++)
            q[i] = (int8_t)(int)rng_uniform(-128.0f, 127.99f);
        return;
    }
    for (c = 0; c < C_IN; c++) {
        float gx = rng_uniform(-16, 16), gy = rng_uniform(-16, 16);
        float base = rng_uniform(-128, 127);
        for (y = 0; y < IMG; y++)
            for (x = 0; x < IMG; x++)
                q[(y * IMG + x) * C_IN + c] =
                    (int8_t)round_clamp(base + gx * (x - 7.5f) + gy * (y - 7.5f), -128, 127);
    }
}

#define N_CALIB 17

typedef struct {
    float s1, s2, s3, sl;     /* activation scales */
    int64_t z1, z2, z3, zl;   /* and zero points */
} cnn_act_quant;

static void cnn_calibrate(const cnn_weights *w, cnn_act_quant *aq)
{
    static cnn_acts a;
    int8_t q[IMG_N];
    float x[IMG_N];
    range r1, r2, r3, rl;
    int k, i;

    range_reset(&r1);
    range_reset(&r2);
    range_reset(&r3);
    range_reset(&rl);
    rng_seed(0xCA11B8u);
    for (k = 0; k < N_CALIB; k++) {
        calib_image(k, q);
        for (i = 0; i < IMG_N; i++)
            x[i] = IN_SCALE * (float)(q[i] - IN_ZP);
        cnn_forward(w, x, &a);
        range_add(&r1, a.a1, S1 * S1 * C1);
        range_add(&r2, a.a2, S1 * S1 * C1);
        range_add(&r3, a.a3, S1 * S1 * C3);
        range_add(&rl, a.logits, NCLS);
    }
    range_quant(&r1, &aq->s1, &aq->z1);
    range_quant(&r2, &aq->s2, &aq->z2);
    range_quant(&r3, &aq->s3, &aq->z3);
    range_quant(&rl, &aq->sl, &aq->zl);
}

/* Quantized parameters of one layer: int8 weights (per-channel or
 * per-tensor, zero points 0) and an int32 bias. */
typedef struct {
    int8_t w[256];
    float w_scale[C3];
    int64_t w_zp[C3];
    int32_t b[C3];
    float b_scale[C3];
} qlayer;

/* Quantizes w (n values, `channels` along an axis with `inner` values after
 * it; channels = 1 for per-tensor) and replaces w by its dequantized value,
 * so that calibration sees what the int8 model computes. */
static void qlayer_weights(qlayer *l, float *w, int n, int channels, int inner)
{
    memset(l->w_zp, 0, sizeof(l->w_zp));
    quantize_weights(w, n, channels, inner, l->w, l->w_scale);
    dequantize_weights(w, l->w, n, channels, inner, l->w_scale);
}

/* Adds the weights tensor (rank wrank, its quantization along qdim) and the
 * bias tensor (n_out values) of a layer; returns the weights tensor id and
 * the bias id in *bias. */
static int add_layer_consts(tflb_model *m, const char *name, const qlayer *l,
                            const int32_t *wshape, int wrank, int n_w, int n_out,
                            int per_channel, int qdim, int32_t *bias)
{
    char nm[96];
    int32_t bshape[1];
    tflb_quant wq, bq;
    int wid;

    wq.n_scale = wq.n_zero_point = per_channel ? n_out : 1;
    wq.scale = l->w_scale;
    wq.zero_point = l->w_zp;
    wq.quantized_dimension = per_channel ? qdim : 0;
    snprintf(nm, sizeof(nm), "%s/weights", name);
    wid = tflb_add_const(m, nm, TFLB_INT8, wshape, wrank, l->w, (size_t)n_w, &wq);
    bq = wq;
    bq.scale = l->b_scale;
    bq.quantized_dimension = 0;
    bshape[0] = n_out;
    snprintf(nm, sizeof(nm), "%s/bias", name);
    *bias = tflb_add_const(m, nm, TFLB_INT32, bshape, 1, l->b,
                           (size_t)n_out * sizeof(int32_t), &bq);
    return wid;
}

static int add_act(tflb_model *m, const char *name, const int32_t *shape, int rank,
                   float scale, int64_t zp)
{
    tflb_quant q = tflb_quant1(&scale, &zp);

    return tflb_add_tensor(m, name, TFLB_INT8, shape, rank, 0, &q);
}

static void add_op(tflb_model *m, int code, const int32_t *in, int n_in, int32_t out,
                   tflb_options opt)
{
    tflb_add_op(m, code, in, n_in, &out, 1, &opt);
}

static int build_tiny_cnn(tflb_model *m, sample *s)
{
    static cnn_weights w;
    static qlayer l1, ld, l2, lf;
    cnn_act_quant aq;
    int32_t t_in, t1, t2, t3, tp, tr, tl, tout, wt, bt, shp;
    int c_conv, c_dw, c_pool, c_resh, c_fc, c_sm;
    const int32_t in_shape[4] = {1, IMG, IMG, C_IN}, s1[4] = {1, S1, S1, C1};
    const int32_t s3[4] = {1, S1, S1, C3}, sp[4] = {1, 1, 1, C3}, sr[2] = {1, C3};
    const int32_t sl[2] = {1, NCLS};
    const int32_t w1s[4] = {C1, 3, 3, C_IN}, wds[4] = {1, 3, 3, C1};
    const int32_t w2s[4] = {C3, 1, 1, C1}, wfs[2] = {NCLS, C3};
    const int32_t new_shape[2] = {1, C3}, shape_dim[1] = {2};
    const float sm_scale = 1.0f / 256.0f;

    cnn_init(&w);
    qlayer_weights(&l1, w.w1, C1 * 9 * C_IN, C1, 9 * C_IN);  /* [out][3][3][in] */
    qlayer_weights(&ld, w.wd, 9 * C1, C1, 1);                /* [1][3][3][c] */
    qlayer_weights(&l2, w.w2, C3 * C1, C3, C1);              /* [out][1][1][in] */
    qlayer_weights(&lf, w.wf, NCLS * C3, 1, NCLS * C3);      /* per-tensor */
    cnn_calibrate(&w, &aq);
    /* Bias scale = input scale x weight scale: known after calibration. */
    quantize_bias(w.b1, C1, IN_SCALE, l1.w_scale, 1, l1.b, l1.b_scale);
    quantize_bias(w.bd, C1, aq.s1, ld.w_scale, 1, ld.b, ld.b_scale);
    quantize_bias(w.b2, C3, aq.s2, l2.w_scale, 1, l2.b, l2.b_scale);
    quantize_bias(w.bf, NCLS, aq.s3, lf.w_scale, 0, lf.b, lf.b_scale);

    tflb_set_description(m, "tiny_cnn: int8 16x16x3 -> 4 classes (te_mkmodel)");
    c_conv = tflb_add_opcode(m, TE_OP_CONV_2D, 3);
    c_dw = tflb_add_opcode(m, TE_OP_DEPTHWISE_CONV_2D, 3);
    c_pool = tflb_add_opcode(m, TE_OP_AVERAGE_POOL_2D, 2);
    c_resh = tflb_add_opcode(m, TE_OP_RESHAPE, 1);
    c_fc = tflb_add_opcode(m, TE_OP_FULLY_CONNECTED, 4);
    c_sm = tflb_add_opcode(m, TE_OP_SOFTMAX, 2);

    {
        float sc = IN_SCALE;
        int64_t zp = IN_ZP;
        tflb_quant q = tflb_quant1(&sc, &zp);
        t_in = tflb_add_tensor(m, "input", TFLB_INT8, in_shape, 4, 0, &q);
    }

    t1 = add_act(m, "conv1/relu6", s1, 4, aq.s1, aq.z1);
    wt = add_layer_consts(m, "conv1", &l1, w1s, 4, C1 * 9 * C_IN, C1, 1, 0, &bt);
    {
        int32_t in[3] = {t_in, wt, bt};
        add_op(m, c_conv, in, 3, t1, tflb_opt_conv2d(TFLB_PAD_SAME, 2, 2, TFLB_ACT_RELU6));
    }

    t2 = add_act(m, "dw/relu", s1, 4, aq.s2, aq.z2);
    wt = add_layer_consts(m, "dw", &ld, wds, 4, 9 * C1, C1, 1, 3, &bt);
    {
        int32_t in[3] = {t1, wt, bt};
        add_op(m, c_dw, in, 3, t2, tflb_opt_dwconv2d(TFLB_PAD_SAME, 1, 1, 1, TFLB_ACT_RELU));
    }

    t3 = add_act(m, "pw/relu", s3, 4, aq.s3, aq.z3);
    wt = add_layer_consts(m, "pw", &l2, w2s, 4, C3 * C1, C3, 1, 0, &bt);
    {
        int32_t in[3] = {t2, wt, bt};
        add_op(m, c_conv, in, 3, t3, tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, TFLB_ACT_RELU));
    }

    /* Pool and reshape keep their input's quantization. */
    tp = add_act(m, "pool", sp, 4, aq.s3, aq.z3);
    add_op(m, c_pool, &t3, 1, tp,
           tflb_opt_pool2d(TFLB_PAD_VALID, 1, 1, S1, S1, TFLB_ACT_NONE));

    tr = add_act(m, "flatten", sr, 2, aq.s3, aq.z3);
    shp = tflb_add_const(m, "flatten/shape", TFLB_INT32, shape_dim, 1, new_shape,
                         sizeof(new_shape), NULL);
    {
        int32_t in[2] = {tp, shp};
        add_op(m, c_resh, in, 2, tr, tflb_opt_reshape(new_shape, 2));
    }

    tl = add_act(m, "logits", sl, 2, aq.sl, aq.zl);
    wt = add_layer_consts(m, "fc", &lf, wfs, 2, NCLS * C3, NCLS, 0, 0, &bt);
    {
        int32_t in[3] = {tr, wt, bt};
        add_op(m, c_fc, in, 3, tl, tflb_opt_fc(TFLB_ACT_NONE, 0));
    }

    tout = add_act(m, "probs", sl, 2, sm_scale, -128);
    add_op(m, c_sm, &tl, 1, tout, tflb_opt_softmax(1.0f));

    tflb_set_inputs(m, &t_in, 1);
    tflb_set_outputs(m, &tout, 1);

    s->bytes = IMG_N;
    s->data = malloc(IMG_N);
    if (!s->data)
        return -1;
    gradient_image((int8_t *)s->data);
    return 0;
}

/* ---------------------------------------------------------------------
 * small_conv and its one-flaw variants:
 *   input int8 1x8x8x4 -> CONV_2D 3x3 s1 SAME 4->4 RELU (per-channel) -> output */

enum {
    FLAW_NONE,
    FLAW_UNSUPPORTED_OP,   /* an LSH_PROJECTION after the conv */
    FLAW_CUSTOM_OP,        /* a CUSTOM "MyOp" after the conv */
    FLAW_FLOAT_CONV,       /* float32 input/weights/bias/output */
    FLAW_TENSOR_INDEX,     /* conv input 0 = number of tensors */
    FLAW_BUFFER_INDEX,     /* weights buffer = number of buffers */
    FLAW_PERCHANNEL_COUNT  /* 4 weight scales, 3 zero points */
};

#define SC_HW 8
#define SC_C 4
#define SC_N (SC_HW * SC_HW * SC_C)

/* Appends the flaw's extra operator (LSH_PROJECTION, which TFLite Micro
 * has no kernel for, or CUSTOM "MyOp") reading x;
 * returns its output tensor. */
static int32_t add_extra_op(tflb_model *m, int flaw, int32_t x, const int32_t *shape,
                            float scale, int64_t zp)
{
    int32_t out = add_act(m, "extra_out", shape, 4, scale, zp);

    if (flaw == FLAW_UNSUPPORTED_OP) {
        int8_t k[SC_N];
        tflb_quant q = tflb_quant1(&scale, &zp);
        int i, code = tflb_add_opcode(m, TE_OP_LSH_PROJECTION, 1);
        int32_t in[2];
        for (i = 0; i < SC_N; i++)
            k[i] = (int8_t)(i % 7 - 3);
        in[0] = tflb_add_const(m, "hash_const", TFLB_INT8, shape, 4, k, SC_N, &q);
        in[1] = x;
        tflb_add_op(m, code, in, 2, &out, 1, NULL);
    } else {
        int code = tflb_add_custom_opcode(m, "MyOp", 1);
        tflb_add_op(m, code, &x, 1, &out, 1, NULL);
    }
    return out;
}

/* Deterministic conv parameters (float for the float variant). */
typedef struct {
    int8_t wq[SC_C * 9 * SC_C];
    float wf[SC_C * 9 * SC_C], bf[SC_C];
    int32_t bq[SC_C];
    float w_scale[SC_C], b_scale[SC_C];
    int64_t zp[SC_C];
} small_params;

static void small_params_make(small_params *p, float in_scale)
{
    int i;

    rng_seed(0x5A11C0u);
    for (i = 0; i < SC_C * 9 * SC_C; i++) {
        p->wq[i] = (int8_t)(int)rng_uniform(-127.0f, 127.99f);
        p->wf[i] = (float)p->wq[i] / 127.0f;
    }
    for (i = 0; i < SC_C; i++) {
        p->w_scale[i] = 0.004f * (float)(i + 1);
        p->b_scale[i] = in_scale * p->w_scale[i];
        p->bq[i] = (int32_t)(i * 50 - 60);
        p->bf[i] = 0.1f * (float)(i - 1);
        p->zp[i] = 0;
    }
}

static void small_sample(sample *s, int is_float)
{
    int i;

    s->bytes = is_float ? SC_N * sizeof(float) : SC_N;
    s->data = malloc(s->bytes);
    if (!s->data)
        return;
    for (i = 0; i < SC_N; i++) {
        if (is_float) {
            float v = (float)((i * 37) % 101 - 50) / 25.0f;
            memcpy(s->data + i * sizeof(float), &v, sizeof(float));
        } else {
            s->data[i] = (uint8_t)(int8_t)((i * 37) % 256 - 128);
        }
    }
}

/* Adds the conv's weights and bias (int8/int32 or float32). */
static void small_consts(tflb_model *m, const small_params *p, int flaw, int32_t *t_w,
                         int32_t *t_b)
{
    const int32_t wshape[4] = {SC_C, 3, 3, SC_C}, bshape[1] = {SC_C};
    tflb_quant q_w, q_b;

    if (flaw == FLAW_FLOAT_CONV) {
        *t_w = tflb_add_const(m, "conv/weights", TFLB_FLOAT32, wshape, 4, p->wf,
                              sizeof(p->wf), NULL);
        *t_b = tflb_add_const(m, "conv/bias", TFLB_FLOAT32, bshape, 1, p->bf,
                              sizeof(p->bf), NULL);
        return;
    }
    q_w.n_scale = SC_C;
    q_w.scale = p->w_scale;
    q_w.n_zero_point = flaw == FLAW_PERCHANNEL_COUNT ? SC_C - 1 : SC_C;
    q_w.zero_point = p->zp;
    q_w.quantized_dimension = 0;
    q_b = q_w;
    q_b.n_zero_point = SC_C;
    q_b.scale = p->b_scale;
    *t_w = tflb_add_const(m, "conv/weights", TFLB_INT8, wshape, 4, p->wq, sizeof(p->wq), &q_w);
    *t_b = tflb_add_const(m, "conv/bias", TFLB_INT32, bshape, 1, p->bq, sizeof(p->bq), &q_b);
}

static int build_small(tflb_model *m, sample *s, int flaw)
{
    const int32_t shape[4] = {1, SC_HW, SC_HW, SC_C};
    const float in_scale = 0.02f, out_scale = 0.05f;
    const int64_t in_zp = 0, out_zp = -128;
    int is_float = flaw == FLAW_FLOAT_CONV;
    small_params p;
    int32_t t_in, t_w, t_b, t_out, in[3];
    int code;

    small_params_make(&p, in_scale);
    tflb_set_description(m, "small_conv (te_mkmodel)");
    code = tflb_add_opcode(m, TE_OP_CONV_2D, is_float ? 1 : 3);
    if (is_float) {
        t_in = tflb_add_tensor(m, "input", TFLB_FLOAT32, shape, 4, 0, NULL);
        t_out = tflb_add_tensor(m, "conv/relu", TFLB_FLOAT32, shape, 4, 0, NULL);
    } else {
        t_in = add_act(m, "input", shape, 4, in_scale, in_zp);
        t_out = add_act(m, "conv/relu", shape, 4, out_scale, out_zp);
    }
    small_consts(m, &p, flaw, &t_w, &t_b);
    /* All of the conv's tensors exist now: n_tensors is one past the last. */
    in[0] = flaw == FLAW_TENSOR_INDEX ? m->n_tensors : t_in;
    in[1] = t_w;
    in[2] = t_b;
    add_op(m, code, in, 3, t_out, tflb_opt_conv2d(TFLB_PAD_SAME, 1, 1, TFLB_ACT_RELU));
    if (flaw == FLAW_UNSUPPORTED_OP || flaw == FLAW_CUSTOM_OP)
        t_out = add_extra_op(m, flaw, t_out, shape, out_scale, out_zp);
    if (flaw == FLAW_BUFFER_INDEX)
        m->tensors[t_w].buffer = (uint32_t)m->n_buffers;
    tflb_set_inputs(m, &t_in, 1);
    tflb_set_outputs(m, &t_out, 1);
    small_sample(s, is_float);
    return s->data ? 0 : -1;
}

/* ---------------------------------------------------------------------
 * unsupported_ops: small_conv, then LSH_PROJECTION, TILE and LSH_PROJECTION
 * again (well-formed, three operators we do not compile, two of one kind;
 * TILE of an activation is not folded):
 *   op 0 CONV_2D -> c;  op 1 LSH_PROJECTION(c);  op 2 TILE(c, [1,1,1,1]) -> t;
 *   op 3 LSH_PROJECTION(t).  Outputs: t and the second projection. */

static int build_unsupported_ops(tflb_model *m, sample *s)
{
    const int32_t shape[4] = {1, SC_HW, SC_HW, SC_C}, four[1] = {4};
    const int32_t ones[4] = {1, 1, 1, 1};
    int32_t c, sh1, t, sh2, mult, outs[2], in[2];
    int c_shape, c_tile;

    if (build_small(m, s, FLAW_NONE))
        return -1;
    tflb_set_description(m, "small_conv + LSH_PROJECTION, TILE, LSH_PROJECTION (te_mkmodel)");
    c = m->outputs[0];
    c_shape = tflb_add_opcode(m, TE_OP_LSH_PROJECTION, 1);
    c_tile = tflb_add_opcode(m, TE_OP_TILE, 1);
    sh1 = tflb_add_tensor(m, "shape1", TFLB_INT32, four, 1, 0, NULL);
    add_op(m, c_shape, &c, 1, sh1, tflb_opt_none());
    t = add_act(m, "tile", shape, 4, m->tensors[c].scale[0], m->tensors[c].zp[0]);
    mult = tflb_add_const(m, "tile/multiples", TFLB_INT32, four, 1, ones, sizeof ones, NULL);
    in[0] = c;
    in[1] = mult;
    add_op(m, c_tile, in, 2, t, tflb_opt_empty(TE_OPT_TILE));
    sh2 = tflb_add_tensor(m, "shape2", TFLB_INT32, four, 1, 0, NULL);
    add_op(m, c_shape, &t, 1, sh2, tflb_opt_none());
    outs[0] = t;
    outs[1] = sh2;
    tflb_set_outputs(m, outs, 2);
    return 0;
}

/* ---------------------------------------------------------------------
 * ethos_u, edgetpu: what a model compiled for an accelerator looks like
 * (Vela for Arm Ethos-U, edgetpu_compiler for the Edge TPU): int8 input and
 * output around one CUSTOM operator whose inputs are its command stream
 * and weights (large constant uint8 buffers) and two scratch areas that no
 * operator writes, configured by opaque custom_options bytes. */

#define ACC_IN (SC_HW * SC_HW * SC_C)
#define ACC_FLASH 65536
#define ACC_CMD 512

static int build_accelerated(tflb_model *m, sample *s, const char *custom_code)
{
    static uint8_t flash[ACC_FLASH], cmd[ACC_CMD];
    static const uint8_t options[] = {'C', 'O', 'P', '1', 1, 0, 16, 0, 0, 0, 0, 0, 6, 36, 1};
    const int32_t in_shape[4] = {1, SC_HW, SC_HW, SC_C}, out_shape[2] = {1, 10};
    const int32_t cmd_shape[1] = {ACC_CMD}, flash_shape[1] = {ACC_FLASH};
    const int32_t scratch_shape[1] = {4096}, fast_shape[1] = {1024};
    int32_t in[5], out;
    int i, code, op;

    for (i = 0; i < ACC_FLASH; i++)
        flash[i] = (uint8_t)((i * 131u + 7u) >> 3);
    for (i = 0; i < ACC_CMD; i++)
        cmd[i] = (uint8_t)(i * 29u + 1u);
    tflb_set_description(m, custom_code);
    code = tflb_add_custom_opcode(m, custom_code, 1);
    in[4] = add_act(m, "input", in_shape, 4, 0.02f, -128);
    out = add_act(m, "output", out_shape, 2, 0.05f, -128);
    in[0] = tflb_add_const(m, "_split_1_command_stream", TFLB_UINT8, cmd_shape, 1, cmd,
                           sizeof cmd, NULL);
    in[1] = tflb_add_const(m, "_split_1_flash", TFLB_UINT8, flash_shape, 1, flash,
                           sizeof flash, NULL);
    /* scratch areas: an empty buffer each, written by no operator */
    in[2] = tflb_add_tensor(m, "_split_1_scratch", TFLB_UINT8, scratch_shape, 1,
                            (uint32_t)tflb_add_buffer(m, NULL, 0), NULL);
    in[3] = tflb_add_tensor(m, "_split_1_scratch_fast", TFLB_UINT8, fast_shape, 1,
                            (uint32_t)tflb_add_buffer(m, NULL, 0), NULL);
    op = tflb_add_op(m, code, in, 5, &out, 1, NULL);
    tflb_set_custom_options(m, op, options, sizeof options);
    tflb_set_inputs(m, &in[4], 1);
    tflb_set_outputs(m, &out, 1);
    s->bytes = ACC_IN;
    s->data = calloc(1, ACC_IN);
    return s->data ? 0 : -1;
}

static int k_ethos_u(tflb_model *m, sample *s) { return build_accelerated(m, s, "ethos-u"); }
static int k_edgetpu(tflb_model *m, sample *s)
{
    return build_accelerated(m, s, "edgetpu-custom-op");
}

/* ---------------------------------------------------------------------
 * Command line */

static int k_small(tflb_model *m, sample *s) { return build_small(m, s, FLAW_NONE); }
static int k_unsup(tflb_model *m, sample *s) { return build_small(m, s, FLAW_UNSUPPORTED_OP); }
static int k_custom(tflb_model *m, sample *s) { return build_small(m, s, FLAW_CUSTOM_OP); }
static int k_float(tflb_model *m, sample *s) { return build_small(m, s, FLAW_FLOAT_CONV); }
static int k_tidx(tflb_model *m, sample *s) { return build_small(m, s, FLAW_TENSOR_INDEX); }
static int k_bidx(tflb_model *m, sample *s) { return build_small(m, s, FLAW_BUFFER_INDEX); }
static int k_pcc(tflb_model *m, sample *s) { return build_small(m, s, FLAW_PERCHANNEL_COUNT); }

static const struct {
    const char *name;
    int (*build)(tflb_model *, sample *);
    const char *help;
} kinds[] = {
    {"tiny_cnn", build_tiny_cnn, "int8 16x16x3 classifier: CONV_2D, DEPTHWISE_CONV_2D, "
                                 "CONV_2D 1x1, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX"},
    {"small_conv", k_small, "valid: int8 1x8x8x4 -> CONV_2D 3x3 4->4 RELU (the bad_* base)"},
    {"bad_unsupported_op", k_unsup, "small_conv followed by an LSH_PROJECTION (unsupported builtin 15)"},
    {"bad_custom_op", k_custom, "small_conv followed by a CUSTOM op \"MyOp\""},
    {"bad_float_conv", k_float, "small_conv in float32 (input, weights, bias, output)"},
    {"bad_tensor_index", k_tidx, "conv input 0 = number of tensors"},
    {"bad_buffer_index", k_bidx, "conv weights tensor's buffer = number of buffers"},
    {"bad_perchannel_count", k_pcc, "conv weights: 4 scales but 3 zero points"},
    {"unsupported_ops", build_unsupported_ops, "small_conv followed by LSH_PROJECTION, TILE, "
                                                "LSH_PROJECTION (ops 1, 2, 3: not compiled)"},
    {"ethos_u", k_ethos_u, "Vela-compiled look: int8 I/O around one CUSTOM 'ethos-u' op "
                           "(command stream, 64 KiB weights, scratch inputs)"},
    {"edgetpu", k_edgetpu, "the same around a CUSTOM 'edgetpu-custom-op' (Edge TPU compiler)"},
};

#define N_KINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

static void usage(FILE *f)
{
    int i;

    fputs("usage: te_mkmodel KIND OUT.tflite [OUT_INPUT.bin]\n"
          "Writes a .tflite model (and optionally one sample input, raw tensor bytes).\n"
          "kinds:\n",
          f);
    for (i = 0; i < N_KINDS; i++)
        fprintf(f, "  %-22s %s\n", kinds[i].name, kinds[i].help);
}

int main(int argc, char **argv)
{
    tflb_model m;
    sample s = {NULL, 0};
    int i, rc;

    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc < 3 || argc > 4) {
        usage(stderr);
        return 2;
    }
    for (i = 0; i < N_KINDS; i++)
        if (!strcmp(argv[1], kinds[i].name))
            break;
    if (i == N_KINDS) {
        fprintf(stderr, "te_mkmodel: unknown kind '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    tflb_init(&m);
    rc = kinds[i].build(&m, &s);
    if (rc == 0)
        rc = tflb_write_file(&m, argv[2]);
    if (rc == 0 && argc == 4)
        rc = write_bytes(argv[3], s.data, s.bytes);
    if (rc)
        fprintf(stderr, "te_mkmodel: could not write the %s model\n", argv[1]);
    free(s.data);
    tflb_free(&m);
    return rc ? 1 : 0;
}
