/* op_models.h - one small, valid int8 model per supported operator, built
 * with tools/tflite_builder.  Shared (header only, static functions) by
 * tests/unit/test_validation.c, which compiles each one and then breaks it
 * one rule at a time, and fuzz/mkseeds.c, which writes them as fuzzing
 * seeds.  Every model: graph input tensor 0 ... one operator (or a short
 * chain) ... graph output; constants are deterministic. */
#ifndef TE_OP_MODELS_H
#define TE_OP_MODELS_H

#include <stdint.h>
#include <string.h>

#include "tflite_builder.h"

/* Includers use some of these helpers only (fuzz/fuzz_graph.c). */
#if defined(__GNUC__)
#define OM_UNUSED __attribute__((unused))
#else
#define OM_UNUSED
#endif

/* ------------------------------------------------------------- tensors */

/* An int8 activation tensor, per-tensor quantized. */
static int om_act(tflb_model *m, const char *name, const int32_t *shape, int rank, float scale,
                  int64_t zp)
{
    tflb_quant q = tflb_quant1(&scale, &zp);
    return tflb_add_tensor(m, name, TFLB_INT8, shape, rank, 0, &q);
}

static int om_float(tflb_model *m, const char *name, const int32_t *shape, int rank)
{
    return tflb_add_tensor(m, name, TFLB_FLOAT32, shape, rank, 0, NULL);
}

/* Constant int8 weights with per-channel scales along dimension qdim. */
static int om_weights(tflb_model *m, const char *name, const int32_t *shape, int rank, int qdim)
{
    int8_t data[4096];
    float scale[16];
    int64_t zp[16] = {0};
    int64_t n = 1;
    int i, ch = shape[qdim];
    tflb_quant q;
    for (i = 0; i < rank && n >= 0 && n <= (int64_t)sizeof data; i++)
        n *= shape[i]; /* a perturbed shape may be negative (fuzz_graph) */
    if (i < rank || n < 0 || n > (int64_t)sizeof data || ch > 16) {
        m->err = 1; /* a model this header does not build */
        return -1;
    }
    for (i = 0; i < n; i++)
        data[i] = (int8_t)((i * 37 + 11) % 255 - 127);
    for (i = 0; i < ch; i++)
        scale[i] = 0.004f + 0.001f * (float)i;
    q.n_scale = q.n_zero_point = ch;
    q.scale = scale;
    q.zero_point = zp;
    q.quantized_dimension = qdim;
    return tflb_add_const(m, name, TFLB_INT8, shape, rank, data, (size_t)n, &q);
}

/* Constant int32 bias of n channels, scale = in_scale * weight scale c. */
static int om_bias(tflb_model *m, const char *name, int n, float in_scale)
{
    int32_t data[16];
    float scale[16];
    int64_t zp[16] = {0};
    int32_t shape[1];
    tflb_quant q;
    int i;
    if (n > 16) {
        m->err = 1;
        return -1;
    }
    shape[0] = n;
    for (i = 0; i < n; i++) {
        data[i] = (i * 97) % 400 - 200;
        scale[i] = in_scale * (0.004f + 0.001f * (float)i);
    }
    q.n_scale = q.n_zero_point = n;
    q.scale = scale;
    q.zero_point = zp;
    q.quantized_dimension = 0;
    return tflb_add_const(m, name, TFLB_INT32, shape, 1, data, (size_t)n * 4, &q);
}

/* Constant int32 tensor of shape [n] (or the given shape). */
static int om_ints(tflb_model *m, const char *name, const int32_t *v, int n)
{
    int32_t shape[1];
    shape[0] = n;
    return tflb_add_const(m, name, TFLB_INT32, shape, 1, v, (size_t)n * 4, NULL);
}

static int om_op(tflb_model *m, int builtin, const int32_t *in, int n_in, int out,
                 const tflb_options *opt)
{
    int code = tflb_add_opcode(m, builtin, 1);
    return tflb_add_op(m, code, in, n_in, &out, 1, opt);
}

static void om_io(tflb_model *m, int in, int out)
{
    int32_t i = in, o = out;
    tflb_set_inputs(m, &i, 1);
    tflb_set_outputs(m, &o, 1);
}

static const int32_t om_nhwc[4] = {1, 6, 6, 4};

/* ------------------------------------------------------------- convolutions */

static int om_conv2d(tflb_model *m)
{
    static const int32_t ws[4] = {3, 3, 3, 4}, os[4] = {1, 3, 3, 3};
    int32_t in[3];
    tflb_options o = tflb_opt_conv2d(TFLB_PAD_SAME, 2, 2, TFLB_ACT_RELU);
    in[0] = om_act(m, "x", om_nhwc, 4, 0.05f, -3);
    in[1] = om_weights(m, "w", ws, 4, 0);
    in[2] = om_bias(m, "b", 3, 0.05f);
    om_op(m, TE_OP_CONV_2D, in, 3, om_act(m, "y", os, 4, 0.08f, -10), &o);
    om_io(m, in[0], 3);
    return 0;
}

static int om_dwconv(tflb_model *m)
{
    static const int32_t ws[4] = {1, 3, 3, 4}, os[4] = {1, 4, 4, 4};
    int32_t in[3];
    tflb_options o = tflb_opt_dwconv2d(TFLB_PAD_VALID, 1, 1, 1, TFLB_ACT_RELU6);
    in[0] = om_act(m, "x", om_nhwc, 4, 0.05f, 5);
    in[1] = om_weights(m, "w", ws, 4, 3);
    in[2] = om_bias(m, "b", 4, 0.05f);
    om_op(m, TE_OP_DEPTHWISE_CONV_2D, in, 3, om_act(m, "y", os, 4, 0.03f, -128), &o);
    om_io(m, in[0], 3);
    return 0;
}

static int om_fc(tflb_model *m)
{
    static const int32_t xs[2] = {1, 12}, ws[2] = {5, 12}, os[2] = {1, 5};
    int32_t in[3];
    tflb_options o = tflb_opt_fc(TFLB_ACT_NONE, 0);
    in[0] = om_act(m, "x", xs, 2, 0.1f, 0);
    in[1] = om_weights(m, "w", ws, 2, 0);
    in[2] = om_bias(m, "b", 5, 0.1f);
    om_op(m, TE_OP_FULLY_CONNECTED, in, 3, om_act(m, "y", os, 2, 0.2f, 3), &o);
    om_io(m, in[0], 3);
    return 0;
}

static int om_transpose_conv(tflb_model *m)
{
    static const int32_t xs[4] = {1, 3, 3, 2}, ws[4] = {3, 3, 3, 2}, oshape[4] = {1, 6, 6, 3};
    int32_t in[4];
    tflb_options o = tflb_opt_transpose_conv(TFLB_PAD_SAME, 2, 2, TFLB_ACT_NONE);
    in[0] = om_ints(m, "output_shape", oshape, 4);
    in[1] = om_weights(m, "w", ws, 4, 0);
    in[2] = om_act(m, "x", xs, 4, 0.05f, 1);
    in[3] = om_bias(m, "b", 3, 0.05f);
    om_op(m, TE_OP_TRANSPOSE_CONV, in, 4, om_act(m, "y", oshape, 4, 0.1f, 0), &o);
    om_io(m, in[2], 4);
    return 0;
}

/* ------------------------------------------------------------- element-wise */

static int om_binary(tflb_model *m, int builtin, const tflb_options *o, const int32_t *bshape)
{
    int32_t in[2];
    in[0] = om_act(m, "a", om_nhwc, 4, 0.05f, 2);
    in[1] = om_act(m, "b", bshape, 4, 0.03f, -7);
    om_op(m, builtin, in, 2, om_act(m, "y", om_nhwc, 4, 0.07f, 1), o);
    tflb_set_inputs(m, in, 2);
    tflb_set_outputs(m, (int32_t[]){2}, 1);
    return 0;
}

static int om_add(tflb_model *m)
{
    tflb_options o = tflb_opt_add(TFLB_ACT_RELU);
    return om_binary(m, TE_OP_ADD, &o, om_nhwc);
}

static int om_mul(tflb_model *m)
{
    static const int32_t bs[4] = {1, 1, 1, 4};
    tflb_options o = tflb_opt_mul(TFLB_ACT_NONE);
    return om_binary(m, TE_OP_MUL, &o, bs);
}

/* One input, one output, same shape; the output quantization is given. */
static int om_unary(tflb_model *m, int builtin, const tflb_options *o, float oscale, int64_t ozp)
{
    static const int32_t s[2] = {2, 10};
    int x = om_act(m, "x", s, 2, 0.06f, 4);
    int32_t in = x;
    om_op(m, builtin, &in, 1, om_act(m, "y", s, 2, oscale, ozp), o);
    om_io(m, x, 1);
    return 0;
}

static int om_softmax(tflb_model *m)
{
    tflb_options o = tflb_opt_softmax(1.0f);
    return om_unary(m, TE_OP_SOFTMAX, &o, 1.0f / 256, -128);
}
static int om_log_softmax(tflb_model *m) { return om_unary(m, TE_OP_LOG_SOFTMAX, NULL, 16.0f / 256, 127); }
static int om_logistic(tflb_model *m) { return om_unary(m, TE_OP_LOGISTIC, NULL, 1.0f / 256, -128); }
static int om_tanh(tflb_model *m) { return om_unary(m, TE_OP_TANH, NULL, 1.0f / 128, 0); }
static int om_hard_swish(tflb_model *m) { return om_unary(m, TE_OP_HARD_SWISH, NULL, 0.04f, -20); }
static int om_relu(tflb_model *m) { return om_unary(m, TE_OP_RELU, NULL, 0.03f, -128); }
static int om_relu6(tflb_model *m) { return om_unary(m, TE_OP_RELU6, NULL, 0.06f, 4); }

static int om_quantize(tflb_model *m)
{
    static const int32_t s[2] = {1, 16};
    int x = om_float(m, "x", s, 2);
    int32_t in = x;
    om_op(m, TE_OP_QUANTIZE, &in, 1, om_act(m, "y", s, 2, 0.02f, -1), NULL);
    om_io(m, x, 1);
    return 0;
}

static int om_requantize(tflb_model *m) { return om_unary(m, TE_OP_QUANTIZE, NULL, 0.09f, 11); }

static int om_dequantize(tflb_model *m)
{
    static const int32_t s[2] = {1, 16};
    int x = om_act(m, "x", s, 2, 0.02f, -1);
    int32_t in = x;
    om_op(m, TE_OP_DEQUANTIZE, &in, 1, om_float(m, "y", s, 2), NULL);
    om_io(m, x, 1);
    return 0;
}

/* ------------------------------------------------------------- pooling, reduction */

static int om_pool(tflb_model *m, int builtin)
{
    static const int32_t os[4] = {1, 3, 3, 4};
    tflb_options o = tflb_opt_pool2d(TFLB_PAD_VALID, 2, 2, 2, 2, TFLB_ACT_NONE);
    int x = om_act(m, "x", om_nhwc, 4, 0.05f, 0);
    int32_t in = x;
    om_op(m, builtin, &in, 1, om_act(m, "y", os, 4, 0.05f, 0), &o);
    om_io(m, x, 1);
    return 0;
}
static int om_avg_pool(tflb_model *m) { return om_pool(m, TE_OP_AVERAGE_POOL_2D); }
static int om_max_pool(tflb_model *m) { return om_pool(m, TE_OP_MAX_POOL_2D); }

static int om_mean(tflb_model *m)
{
    static const int32_t axes[2] = {1, 2}, os[4] = {1, 1, 1, 4};
    tflb_options o = tflb_opt_reducer(1);
    int32_t in[2];
    in[0] = om_act(m, "x", om_nhwc, 4, 0.05f, 3);
    in[1] = om_ints(m, "axes", axes, 2);
    om_op(m, TE_OP_MEAN, in, 2, om_act(m, "y", os, 4, 0.04f, -2), &o);
    om_io(m, in[0], 2);
    return 0;
}

/* ------------------------------------------------------------- data movement */

static int om_pad(tflb_model *m)
{
    static const int32_t pads[8] = {0, 0, 1, 2, 2, 1, 0, 0}, ps[2] = {4, 2},
                         os[4] = {1, 9, 9, 4};
    int32_t in[2];
    in[0] = om_act(m, "x", om_nhwc, 4, 0.05f, -5);
    in[1] = tflb_add_const(m, "paddings", TFLB_INT32, ps, 2, pads, sizeof pads, NULL);
    om_op(m, TE_OP_PAD, in, 2, om_act(m, "y", os, 4, 0.05f, -5), NULL);
    om_io(m, in[0], 2);
    return 0;
}

static int om_reshape(tflb_model *m)
{
    static const int32_t ns[2] = {1, 144};
    tflb_options o = tflb_opt_reshape(ns, 2);
    int32_t in[2];
    in[0] = om_act(m, "x", om_nhwc, 4, 0.05f, 0);
    in[1] = om_ints(m, "shape", ns, 2);
    om_op(m, TE_OP_RESHAPE, in, 2, om_act(m, "y", ns, 2, 0.05f, 0), &o);
    om_io(m, in[0], 2);
    return 0;
}

static int om_squeeze(tflb_model *m)
{
    static const int32_t xs[4] = {1, 1, 1, 8}, dims[2] = {1, 2}, os[2] = {1, 8};
    tflb_options o = tflb_opt_squeeze(dims, 2);
    int x = om_act(m, "x", xs, 4, 0.05f, 0);
    int32_t in = x;
    om_op(m, TE_OP_SQUEEZE, &in, 1, om_act(m, "y", os, 2, 0.05f, 0), &o);
    om_io(m, x, 1);
    return 0;
}

static int om_transpose(tflb_model *m)
{
    static const int32_t perm[4] = {0, 2, 1, 3}, xs[4] = {1, 2, 3, 4}, os[4] = {1, 3, 2, 4};
    int32_t in[2];
    in[0] = om_act(m, "x", xs, 4, 0.05f, 0);
    in[1] = om_ints(m, "perm", perm, 4);
    om_op(m, TE_OP_TRANSPOSE, in, 2, om_act(m, "y", os, 4, 0.05f, 0), NULL);
    om_io(m, in[0], 2);
    return 0;
}

static int om_concat(tflb_model *m)
{
    static const int32_t bs[4] = {1, 6, 6, 2}, os[4] = {1, 6, 6, 6};
    tflb_options o = tflb_opt_concat(3, TFLB_ACT_NONE);
    int32_t in[2];
    in[0] = om_act(m, "a", om_nhwc, 4, 0.05f, 0);
    in[1] = om_act(m, "b", bs, 4, 0.05f, 0);
    om_op(m, TE_OP_CONCATENATION, in, 2, om_act(m, "y", os, 4, 0.05f, 0), &o);
    tflb_set_inputs(m, in, 2);
    tflb_set_outputs(m, (int32_t[]){2}, 1);
    return 0;
}

static int om_strided_slice(tflb_model *m)
{
    static const int32_t b[4] = {0, 1, 0, 1}, e[4] = {1, 5, 6, 4}, s[4] = {1, 2, 2, 1},
                         os[4] = {1, 2, 3, 3};
    tflb_options o = tflb_opt_strided_slice(0, 0, 0);
    int32_t in[4];
    in[0] = om_act(m, "x", om_nhwc, 4, 0.05f, 0);
    in[1] = om_ints(m, "begin", b, 4);
    in[2] = om_ints(m, "end", e, 4);
    in[3] = om_ints(m, "strides", s, 4);
    om_op(m, TE_OP_STRIDED_SLICE, in, 4, om_act(m, "y", os, 4, 0.05f, 0), &o);
    om_io(m, in[0], 4);
    return 0;
}

static int om_resize(tflb_model *m)
{
    static const int32_t size[2] = {12, 9}, os[4] = {1, 12, 9, 4};
    tflb_options o = tflb_opt_resize_nearest(0, 1);
    int32_t in[2];
    in[0] = om_act(m, "x", om_nhwc, 4, 0.05f, 0);
    in[1] = om_ints(m, "size", size, 2);
    om_op(m, TE_OP_RESIZE_NEAREST_NEIGHBOR, in, 2, om_act(m, "y", os, 4, 0.05f, 0), &o);
    om_io(m, in[0], 2);
    return 0;
}

/* ------------------------------------------------------------- a small network */

/* float QUANTIZE -> CONV_2D -> DEPTHWISE -> ADD (residual) -> AVERAGE_POOL
 * -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX -> DEQUANTIZE: every pass
 * (int8 I/O, in-place, aliasing) and the patch search have work to do. */
static int om_network(tflb_model *m)
{
    static const int32_t is[4] = {1, 16, 16, 3}, cs[4] = {1, 8, 8, 8}, cw[4] = {8, 3, 3, 3},
                         dw[4] = {1, 3, 3, 8}, ps[4] = {1, 1, 1, 8}, fs[2] = {1, 8},
                         fw[2] = {4, 8}, os[2] = {1, 4};
    tflb_options conv = tflb_opt_conv2d(TFLB_PAD_SAME, 2, 2, TFLB_ACT_RELU6);
    tflb_options dwo = tflb_opt_dwconv2d(TFLB_PAD_SAME, 1, 1, 1, TFLB_ACT_NONE);
    tflb_options add = tflb_opt_add(TFLB_ACT_NONE), fc = tflb_opt_fc(TFLB_ACT_NONE, 0);
    tflb_options pool = tflb_opt_pool2d(TFLB_PAD_VALID, 8, 8, 8, 8, TFLB_ACT_NONE);
    tflb_options rs = tflb_opt_reshape(fs, 2), sm = tflb_opt_softmax(1.0f);
    int32_t in[3];
    int x = om_float(m, "image", is, 4), q = om_act(m, "q", is, 4, 0.02f, -128);
    int c = om_act(m, "c", cs, 4, 0.03f, -128), d = om_act(m, "d", cs, 4, 0.04f, 2);
    int a = om_act(m, "a", cs, 4, 0.05f, -1), p = om_act(m, "p", ps, 4, 0.05f, -1);
    int r = om_act(m, "r", fs, 2, 0.05f, -1), f = om_act(m, "f", os, 2, 0.1f, 0);
    int s = om_act(m, "s", os, 2, 1.0f / 256, -128), y = om_float(m, "scores", os, 2);
    in[0] = x;
    om_op(m, TE_OP_QUANTIZE, in, 1, q, NULL);
    in[0] = q, in[1] = om_weights(m, "cw", cw, 4, 0), in[2] = om_bias(m, "cb", 8, 0.02f);
    om_op(m, TE_OP_CONV_2D, in, 3, c, &conv);
    in[0] = c, in[1] = om_weights(m, "dw", dw, 4, 3), in[2] = om_bias(m, "db", 8, 0.03f);
    om_op(m, TE_OP_DEPTHWISE_CONV_2D, in, 3, d, &dwo);
    in[0] = c, in[1] = d;
    om_op(m, TE_OP_ADD, in, 2, a, &add);
    in[0] = a;
    om_op(m, TE_OP_AVERAGE_POOL_2D, in, 1, p, &pool);
    in[0] = p;
    om_op(m, TE_OP_RESHAPE, in, 1, r, &rs);
    in[0] = r, in[1] = om_weights(m, "fw", fw, 2, 0), in[2] = om_bias(m, "fb", 4, 0.05f);
    om_op(m, TE_OP_FULLY_CONNECTED, in, 3, f, &fc);
    in[0] = f;
    om_op(m, TE_OP_SOFTMAX, in, 1, s, &sm);
    in[0] = s;
    om_op(m, TE_OP_DEQUANTIZE, in, 1, y, NULL);
    om_io(m, x, y);
    return 0;
}

/* A first stage with large activations (32x32x16 at the input
 * resolution) feeding a small tail: --patch auto finds a patch plan. */
static int om_patchable(tflb_model *m)
{
    static const int32_t is[4] = {1, 32, 32, 3}, c1[4] = {1, 32, 32, 16}, w1[4] = {16, 3, 3, 3},
                         c2[4] = {1, 16, 16, 16}, w2[4] = {1, 3, 3, 16}, c3[4] = {1, 8, 8, 8},
                         w3[4] = {8, 3, 3, 16}, ps[4] = {1, 1, 1, 8};
    tflb_options conv1 = tflb_opt_conv2d(TFLB_PAD_SAME, 1, 1, TFLB_ACT_RELU);
    tflb_options dwo = tflb_opt_dwconv2d(TFLB_PAD_SAME, 2, 2, 1, TFLB_ACT_RELU6);
    tflb_options conv3 = tflb_opt_conv2d(TFLB_PAD_SAME, 2, 2, TFLB_ACT_NONE);
    tflb_options pool = tflb_opt_pool2d(TFLB_PAD_VALID, 8, 8, 8, 8, TFLB_ACT_NONE);
    int32_t in[3];
    int x = om_act(m, "x", is, 4, 0.02f, -128), a = om_act(m, "a", c1, 4, 0.03f, -128);
    int b = om_act(m, "b", c2, 4, 0.03f, -128), c = om_act(m, "c", c3, 4, 0.05f, 3);
    int y = om_act(m, "y", ps, 4, 0.05f, 3);
    in[0] = x, in[1] = om_weights(m, "w1", w1, 4, 0), in[2] = om_bias(m, "b1", 16, 0.02f);
    om_op(m, TE_OP_CONV_2D, in, 3, a, &conv1);
    in[0] = a, in[1] = om_weights(m, "w2", w2, 4, 3), in[2] = om_bias(m, "b2", 16, 0.03f);
    om_op(m, TE_OP_DEPTHWISE_CONV_2D, in, 3, b, &dwo);
    in[0] = b, in[1] = om_weights(m, "w3", w3, 4, 0), in[2] = om_bias(m, "b3", 8, 0.03f);
    om_op(m, TE_OP_CONV_2D, in, 3, c, &conv3);
    in[0] = c;
    om_op(m, TE_OP_AVERAGE_POOL_2D, in, 1, y, &pool);
    om_io(m, x, y);
    return 0;
}

/* ------------------------------------------------------------- the list */

typedef struct {
    const char *name;
    int (*build)(tflb_model *m);
} om_kind;

static const om_kind om_kinds[] OM_UNUSED = {
    {"conv2d", om_conv2d},           {"depthwise_conv2d", om_dwconv},
    {"fully_connected", om_fc},      {"transpose_conv", om_transpose_conv},
    {"add", om_add},                 {"mul", om_mul},
    {"average_pool2d", om_avg_pool}, {"max_pool2d", om_max_pool},
    {"mean", om_mean},               {"softmax", om_softmax},
    {"log_softmax", om_log_softmax}, {"logistic", om_logistic},
    {"tanh", om_tanh},               {"hard_swish", om_hard_swish},
    {"relu", om_relu},               {"relu6", om_relu6},
    {"pad", om_pad},                 {"reshape", om_reshape},
    {"squeeze", om_squeeze},         {"transpose", om_transpose},
    {"concatenation", om_concat},    {"strided_slice", om_strided_slice},
    {"resize_nearest", om_resize},   {"quantize", om_quantize},
    {"requantize", om_requantize},   {"dequantize", om_dequantize},
    {"network", om_network},         {"patchable", om_patchable},
};

#define OM_N_KINDS ((int)(sizeof om_kinds / sizeof om_kinds[0]))

/* Builds kind k into *m (initialised here; the caller frees it). */
static OM_UNUSED int om_build(int k, tflb_model *m)
{
    tflb_init(m);
    if (om_kinds[k].build(m) < 0 || m->err)
        return -1;
    return 0;
}

#endif
