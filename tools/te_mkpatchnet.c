/* te_mkpatchnet.c - writes the first stages of real CNN shapes as int8
 * .tflite files with random weights, for testing patch-based inference:
 *   uint8_head  uint8 input -> QUANTIZE -> MobileNet-style stem
 *   float_head  float32 input -> QUANTIZE -> the same stem
 *   fire        SqueezeNet fire modules (1x1 squeeze, parallel 1x1 / 3x3
 *               expands joined by CONCATENATION) between max pools
 *   residual    ResNet-style blocks: two 3x3 convolutions and an ADD
 *   avgpool     a stem with a 3x3 average pool (SAME) inside it
 *   neck        a detector neck: a strided backbone, its last map upsampled
 *               2x (RESIZE_NEAREST_NEIGHBOR) and joined to the map before by
 *               CONCATENATION, then the head
 *   neck_bilinear  the same with RESIZE_BILINEAR (half-pixel centers)
 *   pad_conv    explicit PADs read by two convolutions each (strided and
 *               not), so they cannot fold into one
 *   side_branch an early side branch ending in a RESHAPE (a second model
 *               output) written before the main chain
 *   inplace_chain  depthwise / 1x1 / ADD residual blocks, a strided depthwise,
 *               a narrowing 1x1 and a max pool: every operator of the stage
 *               can run in place on its patch
 *   eltwise     element-wise operators of MediaPipe / MTCNN-style stems: SUB
 *               of two maps, PRELU (a per-channel alpha, then one per pixel
 *               and channel), ReLU6 written as
 *               MAXIMUM / MINIMUM with scalars, MAXIMUM of two maps,
 *               SQUARED_DIFFERENCE with a per-channel constant
 *   focus       YOLOv5's focus layer (four STRIDED_SLICEs taking every second
 *               row and column, CONCATENATION), a CSP route group (a channel
 *               SLICE), MIRROR_PAD before a VALID convolution, SPACE_TO_DEPTH
 *   float_pool  a float32 detour inside the stage: DEQUANTIZE, NEG,
 *               L2_POOL_2D (3x3, SAME), QUANTIZE
 *   select      GREATER of two maps (a bool map), SELECT_V2 by it, ADD_N,
 *               DIV by a per-channel constant
 *   split_route a YOLOv4-tiny route group written as SPLIT (two outputs,
 *               one SLICE each in a patch stage: pass_split_slices.c)
 *   blaze       BlazeFace / BlazePalm blocks (MediaPipe): a 5x5 depthwise
 *               and a 1x1 beside a shortcut (a 2x2 max pool when strided)
 *               whose channels a PAD widens with zeros, joined by ADD
 *   flat_head   a flat int8 input (1 x H*W*3) RESHAPEd to the image, then
 *               the stem (a Keras Reshape layer first)
 *   flat_uint8_head  a flat uint8 input, QUANTIZEd to int8, then RESHAPEd
 *   se          MobileNetV3-style blocks: HARD_SWISH, and squeeze-and-
 *               excitation (MEAN over the map, two 1x1s, LOGISTIC, a MUL
 *               broadcasting it over the map) on strided depthwise outputs
 * and whole networks at the sizes users deploy, shaped like the real models
 * whose arena patch-based inference is meant to cut (bench/patch_zoo.sh):
 *   mobilenet_v1_224_uint8  MobileNetV1 1.0, 224x224, uint8 input + QUANTIZE
 *   mobilenet_v2_224_uint8  MobileNetV2 1.0, 224x224, uint8 input + QUANTIZE
 *   squeezenet_224          SqueezeNet 1.1 (fire modules), 224x224
 *   resnet_128              6 residual blocks in 3 strided stages, 128x128
 *   hand_224                a landmark net: depthwise-separable blocks at
 *                           112x112, residual ones below
 *   yolo_lc_256             a light YOLO: strided stem, conv + max pool
 *                           stages, a 1x1 detection head, 256x256
 *   ssd_mobilenet_v2_300_uint8  SSD-MobileNetV2 300x300 (Coral, COCO): the
 *                           backbone, four extra layers and 1x1 box/class
 *                           heads over six maps, each head a model output
 *   ssd_mobilenet_v2_300_detect  the same as the object detection API exports it
 *                           for int8: heads reshaped, concatenated, scores
 *                           through LOGISTIC, DEQUANTIZE, then the custom op
 *                           TFLite_Detection_PostProcess (1917 anchors)
 *   ssd_mobilenet_v1_025_256  SSD-MobileNetV1 0.25, 256x256 (ST style, an
 *                           approximation): 3x3 heads over six maps
 *   efficientnet_lite0_224_uint8  EfficientNet-Lite0 (MBConv k3/k5, no SE)
 *   inception_v1_224_uint8  GoogLeNet (TF-slim): inception modules of four
 *                           branches joined by CONCATENATION
 *   mobilenet_v2_035_224_float  MobileNetV2 0.35, float32 input + QUANTIZE
 *   mcunet_in4_160          MCUNet mcunet-in4 (512 KB model), 160x160
 *   mcunet_in3_176          MCUNet mcunet-in3 (320 KB model), 176x176
 *   tiny_yolo_v2_224_uint8  Tiny YOLOv2 (COCO), 224x224
 *   yolov8n_c2f_256         YOLOv8n's backbone stages (strided convolutions
 *                           and C2f blocks: a channel SPLIT, convolutions of
 *                           one half, CONCATENATION), 256x256, a 1x1 head
 * The deep ones keep activation scales level (flat_scales) so that 60+
 * layers stay inside the scale range the reader accepts.
 * Weights and quantization are random but sane (outputs spread over the
 * int8 range), so a wrong patch boundary shows up as differing bytes.
 * usage: te_mkpatchnet KIND OUT.tflite INPUT.bin */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_builder.h"

static uint32_t rng = 12345u;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static int rnd_range(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

/* One activation tensor: its id, shape (NHWC), and quantization. */
typedef struct {
    int32_t id;
    int32_t shape[4];
    float scale;
    int64_t zp;
} act;

typedef struct {
    tflb_model *m;
    int n_names;
    int codes[256];      /* builtin -> opcode index + 1 */
    int32_t input;       /* the model's input tensor */
    int32_t extra_out[16]; /* model outputs after the first (a side branch, detector heads) */
    int n_extra;
    int flat_scales;     /* keep activation scales level through deep nets */
    int detect;          /* SSD kinds: end with TFLite_Detection_PostProcess */
} net;

static const char *name(net *n, const char *what)
{
    static char buf[8][64];
    char *b = buf[n->n_names % 8];
    snprintf(b, 64, "%s_%d", what, n->n_names++);
    return b;
}

static act new_act(net *n, const char *what, int h, int w, int c, float scale, int64_t zp)
{
    act a;
    tflb_quant q;
    a.shape[0] = 1;
    a.shape[1] = h;
    a.shape[2] = w;
    a.shape[3] = c;
    a.scale = scale;
    a.zp = zp;
    q = tflb_quant1(&a.scale, &a.zp);
    a.id = tflb_add_tensor(n->m, name(n, what), TFLB_INT8, a.shape, 4, 0, &q);
    return a;
}

static int op_code(net *n, int builtin)
{
    if (!n->codes[builtin])
        n->codes[builtin] = tflb_add_opcode(n->m, builtin, 1) + 1;
    return n->codes[builtin] - 1;
}

static void add_op(net *n, int builtin, const int32_t *in, int n_in, int out, tflb_options o)
{
    int32_t o1 = out;
    tflb_add_op(n->m, (uint32_t)op_code(n, builtin), in, n_in, &o1, 1, &o);
}

static int out_size(int in, int k, int s, int same) { return same ? (in + s - 1) / s : (in - k) / s + 1; }

/* Random per-channel int8 weights of shape ws (oc channels along axis
 * qdim, per values each) and an int32 bias for an input of scale in_scale,
 * the weight scales divided by gain, into *wid and *bid. */
static void weights_bias(net *n, const int32_t ws[4], int qdim, int oc, int per, float in_scale,
                         float gain, int32_t *wid, int32_t *bid)
{
    int8_t *w = malloc((size_t)oc * (size_t)per);
    int32_t *b = malloc(sizeof(int32_t) * (size_t)oc), bs[1];
    float *wsc = malloc(sizeof(float) * (size_t)oc), *bsc = malloc(sizeof(float) * (size_t)oc);
    int64_t *zps = calloc((size_t)oc, sizeof(int64_t));
    tflb_quant wq, bq;
    int i;
    for (i = 0; i < oc * per; i++)
        w[i] = (int8_t)rnd_range(-127, 127);
    for (i = 0; i < oc; i++) {
        wsc[i] = (float)rnd_range(60, 140) / (127.0f * 100.0f) / gain;
        bsc[i] = in_scale * wsc[i];
        b[i] = rnd_range(-2000, 2000);
    }
    bs[0] = oc;
    wq.n_scale = wq.n_zero_point = oc;
    wq.scale = wsc;
    wq.zero_point = zps;
    wq.quantized_dimension = qdim;
    *wid = tflb_add_const(n->m, name(n, "weights"), TFLB_INT8, ws, 4, w, (size_t)(oc * per), &wq);
    bq = wq;
    bq.scale = bsc;
    bq.quantized_dimension = 0;
    *bid = tflb_add_const(n->m, name(n, "bias"), TFLB_INT32, bs, 1, b, sizeof(int32_t) * (size_t)oc,
                          &bq);
    free(w);
    free(b);
    free(wsc);
    free(bsc);
    free(zps);
}

/* A convolution (depthwise when dw) with random per-channel int8 weights and
 * an output scale that keeps the accumulators in range; RELU. */
static act conv(net *n, act x, int cout, int k, int s, int same, int dw)
{
    int cin = x.shape[3], oc = dw ? cin : cout, per = k * k * (dw ? 1 : cin);
    int32_t ws[4], in[3];
    int oh = out_size(x.shape[1], k, s, same), ow = out_size(x.shape[2], k, s, same);
    /* the requantization multiplier is wsc / (sqrt(per) * 0.6) either way;
     * deep nets put the sqrt(per) * 0.6 into the weight scales instead of
     * letting activation scales grow out of range */
    float gain = n->flat_scales ? sqrtf((float)per) * 0.6f : 1.0f;
    act y = new_act(n, dw ? "dw" : "conv", oh, ow, oc,
                    n->flat_scales ? x.scale : x.scale * sqrtf((float)per) * 0.6f, -128);
    ws[0] = dw ? 1 : oc;
    ws[1] = ws[2] = k;
    ws[3] = dw ? oc : cin;
    weights_bias(n, ws, dw ? 3 : 0, oc, per, x.scale, gain, &in[1], &in[2]);
    in[0] = x.id;
    if (dw)
        add_op(n, TE_OP_DEPTHWISE_CONV_2D, in, 3, y.id,
               tflb_opt_dwconv2d(same ? TFLB_PAD_SAME : TFLB_PAD_VALID, s, s, 1, TFLB_ACT_RELU));
    else
        add_op(n, TE_OP_CONV_2D, in, 3, y.id,
               tflb_opt_conv2d(same ? TFLB_PAD_SAME : TFLB_PAD_VALID, s, s, TFLB_ACT_RELU));
    return y;
}

static act pool(net *n, act x, int builtin, int k, int s, int same)
{
    act y = new_act(n, builtin == TE_OP_MAX_POOL_2D ? "maxpool" : "avgpool",
                    out_size(x.shape[1], k, s, same), out_size(x.shape[2], k, s, same), x.shape[3],
                    x.scale, x.zp);
    add_op(n, builtin, &x.id, 1, y.id,
           tflb_opt_pool2d(same ? TFLB_PAD_SAME : TFLB_PAD_VALID, s, s, k, k, TFLB_ACT_NONE));
    return y;
}

/* The same tensor requantized to (scale, zp) by a 1x1 convolution is what a
 * converter writes; a fire module's branches share the output quantization
 * by construction here: both expands get the concatenation's scale. */
static act fire(net *n, act x, int squeeze, int expand)
{
    act s = conv(n, x, squeeze, 1, 1, 1, 0), e1 = conv(n, s, expand, 1, 1, 1, 0);
    act e3 = conv(n, s, expand, 3, 1, 1, 0), y;
    int32_t in[2];
    /* the concatenation's quantization: TFLite Micro requires equal ones */
    e3.scale = e1.scale;
    n->m->tensors[e3.id].scale[0] = e1.scale;
    y = new_act(n, "fire/concat", x.shape[1], x.shape[2], 2 * expand, e1.scale, e1.zp);
    in[0] = e1.id;
    in[1] = e3.id;
    add_op(n, TE_OP_CONCATENATION, in, 2, y.id, tflb_opt_concat(3, TFLB_ACT_NONE));
    return y;
}

/* a + b (same shape), RELU. */
static act add2(net *n, act a, act b)
{
    act y = new_act(n, "add", a.shape[1], a.shape[2], a.shape[3], a.scale * 1.5f, -128);
    int32_t in[2];
    in[0] = a.id;
    in[1] = b.id;
    add_op(n, TE_OP_ADD, in, 2, y.id, tflb_opt_add(TFLB_ACT_RELU));
    return y;
}

static act residual(net *n, act x)
{
    act a = conv(n, x, x.shape[3], 3, 1, 1, 0);
    return add2(n, x, conv(n, a, x.shape[3], 3, 1, 1, 0));
}

/* MobileNetV2's inverted residual: 1x1 expand by t (none when t is 1),
 * 3x3 depthwise with stride s, 1x1 projection to c; the input added back
 * when the shapes allow. */
static act inverted_residual(net *n, act x, int t, int c, int s)
{
    act y = t > 1 ? conv(n, x, x.shape[3] * t, 1, 1, 1, 0) : x;
    y = conv(n, conv(n, y, 0, 3, s, 1, 1), c, 1, 1, 1, 0);
    return s == 1 && x.shape[3] == c ? add2(n, x, y) : y;
}

/* A depthwise-separable block: k x k depthwise with stride s, 1x1 to c. */
static act separable(net *n, act x, int k, int c, int s)
{
    return conv(n, conv(n, x, 0, k, s, 1, 1), c, 1, 1, 1, 0);
}

/* A constant int32 tensor of n values. */
static int32_t const_i32(net *n, const char *what, const int32_t *v, int count)
{
    int32_t shape[1];
    shape[0] = count;
    return tflb_add_const(n->m, name(n, what), TFLB_INT32, shape, 1, v,
                          sizeof(int32_t) * (size_t)count, NULL);
}

/* x upsampled by 2 (nearest or bilinear), quantization unchanged. */
static act upsample(net *n, act x, int bilinear)
{
    act y = new_act(n, "upsample", 2 * x.shape[1], 2 * x.shape[2], x.shape[3], x.scale, x.zp);
    int32_t size[2], in[2];
    size[0] = y.shape[1];
    size[1] = y.shape[2];
    in[0] = x.id;
    in[1] = const_i32(n, "size", size, 2);
    add_op(n, bilinear ? TE_OP_RESIZE_BILINEAR : TE_OP_RESIZE_NEAREST_NEIGHBOR, in, 2, y.id,
           bilinear ? tflb_opt_resize_bilinear(0, 1) : tflb_opt_resize_nearest(0, 0));
    return y;
}

/* The channel concatenation of a and b; b requantized to a's scale by a
 * 1x1 convolution first, as TFLite Micro needs equal quantization. */
static act concat2(net *n, act a, act b)
{
    act y;
    int32_t in[2];
    b = conv(n, b, b.shape[3], 1, 1, 1, 0);
    n->m->tensors[b.id].scale[0] = a.scale;
    n->m->tensors[b.id].zp[0] = a.zp;
    y = new_act(n, "neck/concat", a.shape[1], a.shape[2], a.shape[3] + b.shape[3], a.scale, a.zp);
    in[0] = a.id;
    in[1] = b.id;
    add_op(n, TE_OP_CONCATENATION, in, 2, y.id, tflb_opt_concat(3, TFLB_ACT_NONE));
    return y;
}

/* A detector neck over a strided backbone. */
static act neck(net *n, act x, int bilinear)
{
    act c2, c3;
    x = conv(n, x, 16, 3, 2, 1, 0);
    x = conv(n, x, 16, 3, 1, 1, 1);
    c2 = conv(n, x, 24, 3, 2, 1, 0);
    c3 = conv(n, c2, 32, 3, 2, 1, 0);
    x = concat2(n, upsample(n, c3, bilinear), c2);
    x = conv(n, x, 32, 3, 2, 1, 0);
    return conv(n, x, 48, 1, 1, 1, 0);
}

/* x with extra channels of its zero point (a PAD of the channel axis). */
static act pad_channels(net *n, act x, int extra)
{
    int32_t amounts[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    act y = new_act(n, "pad_channels", x.shape[1], x.shape[2], x.shape[3] + extra, x.scale, x.zp);
    int32_t in[2], shape[2] = {4, 2};
    amounts[7] = extra;
    in[0] = x.id;
    in[1] = tflb_add_const(n->m, name(n, "paddings"), TFLB_INT32, shape, 2, amounts,
                           sizeof amounts, NULL);
    add_op(n, TE_OP_PAD, in, 2, y.id, tflb_opt_none());
    return y;
}

/* An explicit PAD (1 on every side, the zero point) of x. */
static act pad1(net *n, act x)
{
    static const int32_t amounts[8] = {0, 0, 1, 1, 1, 1, 0, 0};
    act y = new_act(n, "pad", x.shape[1] + 2, x.shape[2] + 2, x.shape[3], x.scale, x.zp);
    int32_t in[2], shape[2] = {4, 2};
    in[0] = x.id;
    in[1] = tflb_add_const(n->m, name(n, "paddings"), TFLB_INT32, shape, 2, amounts,
                           sizeof amounts, NULL);
    add_op(n, TE_OP_PAD, in, 2, y.id, tflb_opt_none());
    return y;
}

/* PAD + a strided 3x3 convolution (VALID), the PAD also read by a 4x4
 * stride-2 convolution (VALID); their sum. */
static act pad_block(net *n, act x, int cout)
{
    act p = pad1(n, x), a = conv(n, p, cout, 3, 2, 0, 0), b = conv(n, p, cout, 4, 2, 0, 0), y;
    int32_t in[2];
    y = new_act(n, "pad/add", a.shape[1], a.shape[2], cout, a.scale * 1.5f, -128);
    in[0] = a.id;
    in[1] = b.id;
    add_op(n, TE_OP_ADD, in, 2, y.id, tflb_opt_add(TFLB_ACT_RELU));
    return y;
}

/* The classifier tail: global average pool and a 1x1 convolution. */
static act head(net *n, act x)
{
    act p = pool(n, x, TE_OP_AVERAGE_POOL_2D, x.shape[1], 1, 0);
    return conv(n, p, 10, 1, 1, 0, 0);
}

static act stem(net *n, act x)
{
    x = conv(n, x, 16, 3, 2, 1, 0);
    x = conv(n, x, 16, 3, 1, 1, 1);
    x = conv(n, x, 24, 1, 1, 1, 0);
    x = conv(n, x, 24, 3, 2, 1, 1);
    x = conv(n, x, 32, 1, 1, 1, 0);
    x = conv(n, x, 32, 3, 2, 1, 1);
    return conv(n, x, 48, 1, 1, 1, 0);
}

static act mobilenet_v2(net *n, act x)
{
    /* expansion t, channels c, repeats, first stride */
    static const int blocks[7][4] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                     {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
    int b, i;
    x = conv(n, x, 32, 3, 2, 1, 0);
    for (b = 0; b < 7; b++)
        for (i = 0; i < blocks[b][2]; i++)
            x = inverted_residual(n, x, blocks[b][0], blocks[b][1], i ? 1 : blocks[b][3]);
    return head(n, conv(n, x, 1280, 1, 1, 1, 0));
}

static act mobilenet_v1(net *n, act x)
{
    /* pointwise channels and depthwise stride of the 13 separable blocks */
    static const int blocks[13][2] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1},
                                      {512, 2}, {512, 1}, {512, 1}, {512, 1}, {512, 1},
                                      {512, 1}, {1024, 2}, {1024, 1}};
    int b;
    x = conv(n, x, 32, 3, 2, 1, 0);
    for (b = 0; b < 13; b++)
        x = conv(n, conv(n, x, 0, 3, blocks[b][1], 1, 1), blocks[b][0], 1, 1, 1, 0);
    return head(n, x);
}

static act squeezenet(net *n, act x)
{
    x = pool(n, conv(n, x, 64, 3, 2, 0, 0), TE_OP_MAX_POOL_2D, 3, 2, 0);
    x = fire(n, fire(n, x, 16, 64), 16, 64);
    x = pool(n, x, TE_OP_MAX_POOL_2D, 3, 2, 0);
    x = fire(n, fire(n, x, 32, 128), 32, 128);
    x = pool(n, x, TE_OP_MAX_POOL_2D, 3, 2, 0);
    x = fire(n, fire(n, x, 48, 192), 48, 192);
    return head(n, fire(n, fire(n, x, 64, 256), 64, 256));
}

static act resnet(net *n, act x)
{
    int stage, c = 32;
    for (stage = 0; stage < 3; stage++, c *= 2)
        x = residual(n, residual(n, conv(n, x, c, 3, 2, 1, 0)));
    return head(n, x);
}

static act hand(net *n, act x)
{
    /* kernel, channels, repeats, first stride, shortcut */
    static const int blocks[5][5] = {{3, 40, 2, 1, 0},
                                     {5, 80, 3, 2, 1},
                                     {5, 160, 3, 2, 1},
                                     {5, 192, 3, 2, 1},
                                     {3, 192, 2, 2, 1}};
    int b, i;
    x = conv(n, x, 40, 3, 2, 1, 0);
    for (b = 0; b < 5; b++)
        for (i = 0; i < blocks[b][2]; i++) {
            act y = separable(n, x, blocks[b][0], blocks[b][1], i ? 1 : blocks[b][3]);
            x = blocks[b][4] && y.shape[3] == x.shape[3] && y.shape[1] == x.shape[1]
                    ? add2(n, x, y) : y;
        }
    return head(n, x);
}

static act yolo_lc(net *n, act x)
{
    int c;
    x = pool(n, conv(n, x, 16, 3, 2, 1, 0), TE_OP_MAX_POOL_2D, 2, 2, 0);
    for (c = 32; c <= 128; c *= 2)
        x = pool(n, conv(n, x, c, 3, 1, 1, 0), TE_OP_MAX_POOL_2D, 2, 2, 0);
    x = conv(n, conv(n, x, 256, 3, 1, 1, 0), 128, 1, 1, 1, 0);
    return conv(n, x, 30, 1, 1, 1, 0);
}

/* An MBConv block with a k x k depthwise: inverted_residual's shape (1x1
 * expand by t, none when t is 1; depthwise with stride s; 1x1 to c; the
 * input added back when the shapes allow). */
static act mbconv(net *n, act x, int t, int k, int c, int s)
{
    act y = t > 1 ? conv(n, x, x.shape[3] * t, 1, 1, 1, 0) : x;
    y = conv(n, conv(n, y, 0, k, s, 1, 1), c, 1, 1, 1, 0);
    return s == 1 && x.shape[3] == c ? add2(n, x, y) : y;
}

/* One row of an MBConv network: expansion t, depthwise kernel k, output
 * channels c, repeats r, first stride s. */
typedef struct {
    int t, k, c, r, s;
} mb_row;

/* A stride-2 3x3 stem of `stem` channels, the rows, a 1x1 feature mix of
 * `mix` channels (none when 0), the classifier tail. */
static act mbconv_net(net *n, act x, int stem, const mb_row *rows, int n_rows, int mix)
{
    int b, i;
    x = conv(n, x, stem, 3, 2, 1, 0);
    for (b = 0; b < n_rows; b++)
        for (i = 0; i < rows[b].r; i++)
            x = mbconv(n, x, rows[b].t, rows[b].k, rows[b].c, i ? 1 : rows[b].s);
    return head(n, mix ? conv(n, x, mix, 1, 1, 1, 0) : x);
}

#define N_ROWS(rows) (int)(sizeof rows / sizeof rows[0])

/* EfficientNet-Lite0: EfficientNet-B0's MBConv stages without squeeze-
 * excitation (ReLU6 there, RELU here: the same sizes). */
static act efficientnet_lite0(net *n, act x)
{
    static const mb_row rows[] = {{1, 3, 16, 1, 1},  {6, 3, 24, 2, 2},  {6, 5, 40, 2, 2},
                                  {6, 3, 80, 3, 2},  {6, 5, 112, 3, 1}, {6, 5, 192, 4, 2},
                                  {6, 3, 320, 1, 1}};
    return mbconv_net(n, x, 32, rows, N_ROWS(rows), 1280);
}

/* MobileNetV2 at width 0.35 (Keras' channel rounding to multiples of 8). */
static act mobilenet_v2_035(net *n, act x)
{
    static const mb_row rows[] = {{1, 3, 8, 1, 1},  {6, 3, 8, 2, 2},  {6, 3, 16, 3, 2},
                                  {6, 3, 24, 4, 2}, {6, 3, 32, 3, 1}, {6, 3, 56, 3, 2},
                                  {6, 3, 112, 1, 1}};
    return mbconv_net(n, x, 16, rows, N_ROWS(rows), 1280);
}

/* MCUNet mcunet-in4 (mcunet-512kb-2mb_imagenet, 160x160): TinyNAS's
 * per-block expansions and kernels; no feature mix before the pool. */
static act mcunet_in4(net *n, act x)
{
    static const mb_row rows[] = {
        {1, 3, 16, 1, 1},  {3, 7, 24, 1, 2},  {5, 3, 24, 1, 1},  {4, 5, 24, 1, 1},
        {5, 7, 40, 1, 2},  {4, 3, 40, 1, 1},  {4, 7, 40, 1, 1},  {3, 7, 80, 1, 2},
        {3, 3, 80, 1, 1},  {3, 7, 80, 1, 1},  {4, 3, 96, 1, 1},  {3, 5, 96, 1, 1},
        {3, 5, 96, 1, 1},  {4, 7, 192, 1, 2}, {3, 7, 192, 1, 1}, {3, 5, 192, 1, 1},
        {4, 5, 320, 1, 1}};
    return mbconv_net(n, x, 32, rows, N_ROWS(rows), 0);
}

/* MCUNet mcunet-in3 (mcunet-320kb-1mb_imagenet, 176x176). */
static act mcunet_in3(net *n, act x)
{
    static const mb_row rows[] = {
        {1, 3, 8, 1, 1},  {3, 7, 16, 1, 2}, {5, 3, 16, 1, 1}, {5, 7, 16, 1, 1},
        {4, 5, 16, 1, 1}, {5, 5, 24, 1, 2}, {5, 5, 24, 1, 1}, {5, 5, 24, 1, 1},
        {5, 3, 40, 1, 2}, {6, 7, 40, 1, 1}, {4, 5, 40, 1, 1}, {5, 5, 48, 1, 1},
        {5, 7, 48, 1, 1}, {5, 3, 48, 1, 1}, {6, 3, 96, 1, 2}, {5, 7, 96, 1, 1},
        {4, 3, 96, 1, 1}, {5, 7, 160, 1, 1}};
    return mbconv_net(n, x, 16, rows, N_ROWS(rows), 0);
}

/* The channel concatenation of nb branches; every branch's last tensor
 * takes the first one's quantization (TFLite Micro needs them equal). */
static act concat_n(net *n, const act *b, int nb)
{
    act y;
    int32_t in[8];
    int i, c = 0;
    for (i = 0; i < nb; i++) {
        n->m->tensors[b[i].id].scale[0] = b[0].scale;
        n->m->tensors[b[i].id].zp[0] = b[0].zp;
        in[i] = b[i].id;
        c += b[i].shape[3];
    }
    y = new_act(n, "concat", b[0].shape[1], b[0].shape[2], c, b[0].scale, b[0].zp);
    add_op(n, TE_OP_CONCATENATION, in, nb, y.id, tflb_opt_concat(3, TFLB_ACT_NONE));
    return y;
}

/* GoogLeNet's inception module as TF-slim writes it: 1x1; 1x1 then 3x3;
 * 1x1 then 3x3 (slim's "5x5" branch); 3x3 max pool then 1x1; joined. */
static act inception(net *n, act x, const int c[6])
{
    act b[4];
    b[0] = conv(n, x, c[0], 1, 1, 1, 0);
    b[1] = conv(n, conv(n, x, c[1], 1, 1, 1, 0), c[2], 3, 1, 1, 0);
    b[2] = conv(n, conv(n, x, c[3], 1, 1, 1, 0), c[4], 3, 1, 1, 0);
    b[3] = conv(n, pool(n, x, TE_OP_MAX_POOL_2D, 3, 1, 1), c[5], 1, 1, 1, 0);
    return concat_n(n, b, 4);
}

/* Inception v1 (GoogLeNet, TF-slim), 224x224. */
static act inception_v1(net *n, act x)
{
    static const int mods[9][6] = {{64, 96, 128, 16, 32, 32},    {128, 128, 192, 32, 96, 64},
                                   {192, 96, 208, 16, 48, 64},   {160, 112, 224, 24, 64, 64},
                                   {128, 128, 256, 24, 64, 64},  {112, 144, 288, 32, 64, 64},
                                   {256, 160, 320, 32, 128, 128}, {256, 160, 320, 32, 128, 128},
                                   {384, 192, 384, 48, 128, 128}};
    int i;
    x = pool(n, conv(n, x, 64, 7, 2, 1, 0), TE_OP_MAX_POOL_2D, 3, 2, 1);
    x = conv(n, conv(n, x, 64, 1, 1, 1, 0), 192, 3, 1, 1, 0);
    x = pool(n, x, TE_OP_MAX_POOL_2D, 3, 2, 1);
    for (i = 0; i < 9; i++) {
        x = inception(n, x, mods[i]);
        if (i == 1)
            x = pool(n, x, TE_OP_MAX_POOL_2D, 3, 2, 1);
        if (i == 6)
            x = pool(n, x, TE_OP_MAX_POOL_2D, 2, 2, 1);
    }
    return head(n, x);
}

/* Box and class convolutions (k x k) over each feature map, all written
 * after the maps as the object detection API orders them; every result is
 * a model output (the post-processing op is left out). */
static act ssd_heads(net *n, const act *maps, const int *anchors, int n_maps, int classes, int k)
{
    act y = maps[0];
    int i;
    for (i = 0; i < n_maps; i++) {
        act box = conv(n, maps[i], anchors[i] * 4, k, 1, 1, 0);
        y = conv(n, maps[i], anchors[i] * classes, k, 1, 1, 0);
        n->extra_out[n->n_extra++] = box.id;
        if (i + 1 < n_maps)
            n->extra_out[n->n_extra++] = y.id;
    }
    return y;
}

/* SSD's extra feature layers: 1x1 to d/2, 3x3 stride 2 to d, per depth. */
static void ssd_extras(net *n, act x, const int *depth, int n_extra, act *maps)
{
    int i;
    for (i = 0; i < n_extra; i++)
        x = maps[i] = conv(n, conv(n, x, depth[i] / 2, 1, 1, 1, 0), depth[i], 3, 2, 1, 0);
}

/* The TF object detection API's int8 export ends with: each head reshaped
 * to [1, cells x anchors, 4 or classes], concatenated over the maps, the
 * class logits through LOGISTIC, both DEQUANTIZEd to float32 and handed
 * with constant anchors (a grid per map) to TFLite_Detection_PostProcess
 * (fast NMS, 10 detections, threshold 1e-8 as exported).  Returns the
 * boxes output; classes, scores and the count are extra outputs. */
static act ssd_postprocess(net *n, const act *box, const act *cls, const int *anchors,
                           int n_maps, int classes)
{
    static const char *const names[4] = {"detection_boxes", "detection_classes",
                                         "detection_scores", "num_detections"};
    tflb_flex_entry opts[10] = {
        {"max_detections", TFLB_FLEX_INT, 10}, {"max_classes_per_detection", TFLB_FLEX_INT, 1},
        {"detections_per_class", TFLB_FLEX_INT, 100}, {"use_regular_nms", TFLB_FLEX_BOOL, 0},
        {"nms_score_threshold", TFLB_FLEX_FLOAT, 1e-8}, {"nms_iou_threshold", TFLB_FLEX_FLOAT, 0.6},
        {"num_classes", TFLB_FLEX_INT, 0}, {"y_scale", TFLB_FLEX_FLOAT, 10.0},
        {"x_scale", TFLB_FLEX_FLOAT, 10.0}, {"h_scale", TFLB_FLEX_FLOAT, 5.0}};
    tflb_flex_entry w_scale = {"w_scale", TFLB_FLEX_FLOAT, 5.0};
    tflb_flex_entry all[11];
    uint8_t flex[512];
    int32_t parts[2][8], joined[2], in[3], out[4], so[4][3] = {{1, 10, 4}, {1, 10}, {1, 10}, {1}};
    int32_t ranks[4] = {3, 2, 2, 1}, total = 0, i, j, k, y, x, a, opi;
    float *anc, sig_scale = 1.0f / 256.0f;
    int64_t sig_zp = -128;
    tflb_quant qs = tflb_quant1(&sig_scale, &sig_zp);
    for (i = 0; i < n_maps; i++)
        total += box[i].shape[1] * box[i].shape[2] * anchors[i];
    for (k = 0; k < 2; k++) { /* boxes, class logits: reshape, then one concatenation */
        int32_t width = k ? classes : 4, shape[3] = {1, 0, 0};
        tflb_quant q = tflb_quant1(&box[0].scale, &box[0].zp);
        for (i = 0; i < n_maps; i++) {
            const act *h = k ? &cls[i] : &box[i];
            shape[1] = h->shape[1] * h->shape[2] * anchors[i];
            shape[2] = width;
            n->m->tensors[h->id].scale[0] = box[0].scale;
            n->m->tensors[h->id].zp[0] = box[0].zp;
            parts[k][i] = tflb_add_tensor(n->m, name(n, "head_flat"), TFLB_INT8, shape, 3, 0, &q);
            add_op(n, TE_OP_RESHAPE, &h->id, 1, parts[k][i], tflb_opt_reshape(shape, 3));
        }
        shape[1] = total;
        joined[k] = tflb_add_tensor(n->m, name(n, "heads"), TFLB_INT8, shape, 3, 0, &q);
        add_op(n, TE_OP_CONCATENATION, parts[k], n_maps, joined[k],
               tflb_opt_concat(1, TFLB_ACT_NONE));
        if (k) {
            int32_t sig = tflb_add_tensor(n->m, name(n, "scores"), TFLB_INT8, shape, 3, 0, &qs);
            add_op(n, TE_OP_LOGISTIC, &joined[k], 1, sig, tflb_opt_none());
            joined[k] = sig;
        }
        in[k] = tflb_add_tensor(n->m, name(n, k ? "scores_f32" : "boxes_f32"), TFLB_FLOAT32,
                                shape, 3, 0, NULL);
        add_op(n, TE_OP_DEQUANTIZE, &joined[k], 1, in[k], tflb_opt_none());
    }
    anc = malloc(sizeof(float) * 4 * (size_t)total);
    for (i = 0, j = 0; anc && i < n_maps; i++)
        for (y = 0; y < box[i].shape[1]; y++)
            for (x = 0; x < box[i].shape[2]; x++)
                for (a = 0; a < anchors[i]; a++, j++) {
                    anc[4 * j] = ((float)y + 0.5f) / (float)box[i].shape[1];
                    anc[4 * j + 1] = ((float)x + 0.5f) / (float)box[i].shape[2];
                    anc[4 * j + 2] = 0.1f + 0.15f * (float)i + 0.05f * (float)a;
                    anc[4 * j + 3] = 0.1f + 0.15f * (float)i + 0.03f * (float)(anchors[i] - a);
                }
    {
        int32_t sa[2] = {0, 4};
        sa[0] = total;
        in[2] = tflb_add_const(n->m, "anchors", TFLB_FLOAT32, sa, 2, anc,
                               sizeof(float) * 4 * (size_t)total, NULL);
    }
    free(anc);
    for (k = 0; k < 4; k++)
        out[k] = tflb_add_tensor(n->m, names[k], TFLB_FLOAT32, so[k], ranks[k], 0, NULL);
    opi = tflb_add_op(n->m, (uint32_t)tflb_add_custom_opcode(n->m, "TFLite_Detection_PostProcess", 1),
                      in, 3, out, 4, NULL);
    opts[6].value = classes - 1; /* class 0 of the heads is the background */
    memcpy(all, opts, sizeof opts);
    all[10] = w_scale;
    tflb_set_custom_options(n->m, opi, flex, tflb_flex_map(flex, sizeof flex, all, 11));
    for (k = 1; k < 4; k++)
        n->extra_out[n->n_extra++] = out[k];
    {
        act r = box[0];
        r.id = out[0];
        return r;
    }
}

/* SSD-MobileNetV2 300x300 (Coral, COCO): maps from the expansion of block
 * 13 (19x19x576) and the 1x1 1280 (10x10), four extra layers, 1x1 box and
 * class predictors (3 anchors on the first map, 6 on the others, 91
 * classes). */
static act ssd_mobilenet_v2(net *n, act x)
{
    static const int blocks[7][4] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                     {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
    static const int depth[4] = {512, 256, 256, 128}, anchors[6] = {3, 6, 6, 6, 6, 6};
    act maps[6];
    int b, i;
    x = conv(n, x, 32, 3, 2, 1, 0);
    for (b = 0; b < 7; b++)
        for (i = 0; i < blocks[b][2]; i++) {
            if (b == 5 && i == 0) { /* the tap: block 13's expansion */
                maps[0] = conv(n, x, x.shape[3] * 6, 1, 1, 1, 0);
                x = conv(n, conv(n, maps[0], 0, 3, 2, 1, 1), blocks[b][1], 1, 1, 1, 0);
                continue;
            }
            x = inverted_residual(n, x, blocks[b][0], blocks[b][1], i ? 1 : blocks[b][3]);
        }
    maps[1] = conv(n, x, 1280, 1, 1, 1, 0);
    ssd_extras(n, maps[1], depth, 4, maps + 2);
    if (n->detect) { /* the exported model's tail: heads into the post-process op */
        act box[6], cls[6];
        for (i = 0; i < 6; i++) {
            box[i] = conv(n, maps[i], anchors[i] * 4, 1, 1, 1, 0);
            cls[i] = conv(n, maps[i], anchors[i] * 91, 1, 1, 1, 0);
        }
        return ssd_postprocess(n, box, cls, anchors, 6, 91);
    }
    return ssd_heads(n, maps, anchors, 6, 91, 1);
}

/* The same detector as the TF object detection API exports it for int8,
 * post-process op included (ssd_postprocess). */
static act ssd_mobilenet_v2_detect(net *n, act x)
{
    n->detect = 1;
    return ssd_mobilenet_v2(n, x);
}

/* SSD-MobileNetV1 at width 0.25, 256x256 (ST model zoo style): maps after
 * the 11th (16x16) and 13th (8x8) separable blocks, four extra layers, 3x3
 * predictors (6 anchors, 2 classes). An approximation of ST's layout. */
static act ssd_mobilenet_v1_025(net *n, act x)
{
    static const int blocks[13][2] = {{16, 1},  {32, 2},  {32, 1},  {64, 2},  {64, 1},
                                      {128, 2}, {128, 1}, {128, 1}, {128, 1}, {128, 1},
                                      {128, 1}, {256, 2}, {256, 1}};
    static const int depth[4] = {128, 64, 64, 32}, anchors[6] = {6, 6, 6, 6, 6, 6};
    act maps[6];
    int b;
    x = conv(n, x, 8, 3, 2, 1, 0);
    for (b = 0; b < 13; b++) {
        x = separable(n, x, 3, blocks[b][0], blocks[b][1]);
        if (b == 10)
            maps[0] = x;
    }
    maps[1] = x;
    ssd_extras(n, x, depth, 4, maps + 2);
    return ssd_heads(n, maps, anchors, 6, 2, 3);
}

/* Tiny YOLOv2 (COCO), 224x224: 3x3 convolutions each followed by a 2x2 max
 * pool, the last one of stride 1; a 1x1 head of 5 x 85 channels. */
static act tiny_yolo_v2(net *n, act x)
{
    int c;
    for (c = 16; c <= 256; c *= 2)
        x = pool(n, conv(n, x, c, 3, 1, 1, 0), TE_OP_MAX_POOL_2D, 2, 2, 0);
    x = pool(n, conv(n, x, 512, 3, 1, 1, 0), TE_OP_MAX_POOL_2D, 2, 1, 1);
    x = conv(n, conv(n, x, 1024, 3, 1, 1, 0), 512, 3, 1, 1, 0);
    return conv(n, x, 425, 1, 1, 1, 0);
}

static act fire_stage(net *n, act x)
{
    x = pool(n, conv(n, x, 32, 3, 2, 0, 0), TE_OP_MAX_POOL_2D, 3, 2, 0);
    x = fire(n, fire(n, x, 8, 16), 8, 16);
    x = pool(n, x, TE_OP_MAX_POOL_2D, 3, 2, 0);
    return head(n, fire(n, x, 16, 24));
}

static act residual_stage(net *n, act x)
{
    x = residual(n, conv(n, x, 16, 3, 2, 1, 0));
    x = residual(n, conv(n, x, 24, 3, 2, 1, 0));
    return head(n, conv(n, x, 32, 3, 2, 1, 0));
}

static act avgpool_stage(net *n, act x)
{
    x = pool(n, conv(n, x, 16, 3, 2, 1, 0), TE_OP_AVERAGE_POOL_2D, 3, 1, 1);
    x = pool(n, conv(n, x, 24, 3, 2, 1, 1), TE_OP_MAX_POOL_2D, 2, 2, 0);
    return head(n, conv(n, x, 32, 1, 1, 1, 0));
}

/* An early side branch (strided conv, pool, RESHAPE to 2-D) that is a
 * second model output, written before the main chain as converters do. */
static act side_branch_stage(net *n, act x)
{
    act b;
    int32_t shape[2], id;
    x = conv(n, x, 16, 3, 1, 1, 0);
    b = pool(n, conv(n, x, 8, 3, 2, 1, 0), TE_OP_AVERAGE_POOL_2D, 2, 2, 0);
    shape[0] = 1;
    shape[1] = b.shape[1] * b.shape[2] * b.shape[3];
    {
        tflb_quant q = tflb_quant1(&b.scale, &b.zp);
        id = tflb_add_tensor(n->m, name(n, "side/flat"), TFLB_INT8, shape, 2, 0, &q);
    }
    add_op(n, TE_OP_RESHAPE, &b.id, 1, id, tflb_opt_reshape(shape, 2));
    n->extra_out[n->n_extra++] = id;
    x = conv(n, conv(n, x, 0, 3, 1, 1, 1), 16, 1, 1, 1, 0);
    x = conv(n, conv(n, x, 24, 3, 2, 1, 0), 24, 3, 1, 1, 1);
    return head(n, conv(n, x, 32, 3, 2, 1, 0));
}

/* Residual separable blocks (3x3 depthwise, 1x1 at the same width, ADD),
 * a strided depthwise, a narrowing 1x1 and a max pool. */
static act inplace_chain_stage(net *n, act x)
{
    int i;
    x = conv(n, x, 16, 3, 2, 1, 0);
    for (i = 0; i < 2; i++)
        x = add2(n, x, conv(n, conv(n, x, 0, 3, 1, 1, 1), 16, 1, 1, 1, 0));
    x = conv(n, conv(n, x, 0, 3, 2, 1, 1), 12, 1, 1, 1, 0);
    x = pool(n, x, TE_OP_MAX_POOL_2D, 2, 2, 0);
    return head(n, conv(n, x, 32, 3, 2, 1, 0));
}

static act neck_stage(net *n, act x) { return head(n, neck(n, x, 0)); }
static act neck_bilinear_stage(net *n, act x) { return head(n, neck(n, x, 1)); }
static act stem_stage(net *n, act x) { return head(n, stem(n, x)); }

static act pad_conv_stage(net *n, act x)
{
    x = conv(n, pad_block(n, x, 16), 16, 3, 1, 1, 1);
    x = pad_block(n, pad_block(n, x, 24), 32);
    return head(n, conv(n, x, 48, 1, 1, 1, 0));
}

/* An int8 constant of `rank` dims (shape) quantized (scale, zp), values
 * random in [lo, hi]. */
static int32_t const_i8(net *n, const char *what, const int32_t *shape, int rank, int lo, int hi,
                        float scale, int64_t zp)
{
    int64_t count = 1;
    int i;
    int8_t *v;
    tflb_quant q = tflb_quant1(&scale, &zp);
    int32_t id;
    for (i = 0; i < rank; i++)
        count *= shape[i];
    v = malloc((size_t)count);
    for (i = 0; i < count; i++)
        v[i] = (int8_t)rnd_range(lo, hi);
    id = tflb_add_const(n->m, name(n, what), TFLB_INT8, shape, rank, v, (size_t)count, &q);
    free(v);
    return id;
}

/* A two-input element-wise op a (op) b into a new map shaped like a. */
static act binary(net *n, int builtin, act a, int32_t b, float scale, int64_t zp, tflb_options o)
{
    act y = new_act(n, "eltwise", a.shape[1], a.shape[2], a.shape[3], scale, zp);
    int32_t in[2];
    in[0] = a.id;
    in[1] = b;
    add_op(n, builtin, in, 2, y.id, o);
    return y;
}

static act eltwise_stage(net *n, act x)
{
    int32_t per_channel[3] = {1, 1, 16}, per_pixel[3] = {40, 40, 16}, scalar[1] = {1};
    act d, c;
    x = conv(n, x, 16, 3, 2, 1, 0);
    d = conv(n, x, 0, 3, 1, 1, 1);
    /* x - d: signed, around zero */
    x = binary(n, TE_OP_SUB, x, d.id, 2.0f * (x.scale > d.scale ? x.scale : d.scale), 0,
               tflb_opt_sub(TFLB_ACT_NONE));
    x = binary(n, TE_OP_PRELU, x, const_i8(n, "alpha", per_channel, 3, 0, 64, 1.0f / 256, 0),
               x.scale, 0, tflb_opt_none());
    /* Keras' PReLU without shared axes: an alpha per pixel and channel */
    x = binary(n, TE_OP_PRELU, x, const_i8(n, "alpha", per_pixel, 3, -32, 96, 1.0f / 256, 0),
               x.scale, 0, tflb_opt_none());
    /* ReLU6 as MAXIMUM(x, 0) then MINIMUM(x, 6): one scale throughout */
    x = binary(n, TE_OP_MAXIMUM, x, const_i8(n, "zero", scalar, 1, 0, 0, x.scale, 0), x.scale, 0,
               tflb_opt_none());
    x = binary(n, TE_OP_MINIMUM, x, const_i8(n, "six", scalar, 1, 90, 90, x.scale, 0), x.scale, 0,
               tflb_opt_none());
    c = conv(n, x, 16, 1, 1, 1, 0);
    n->m->tensors[c.id].scale[0] = x.scale;
    n->m->tensors[c.id].zp[0] = 0;
    x = binary(n, TE_OP_MAXIMUM, x, c.id, x.scale, 0, tflb_opt_none());
    per_channel[0] = 16;
    x = binary(n, TE_OP_SQUARED_DIFFERENCE, x,
               const_i8(n, "mean", per_channel, 1, -40, 40, x.scale, 0),
               x.scale * x.scale * 600.0f, -128, tflb_opt_none());
    x = conv(n, x, 24, 3, 2, 1, 0);
    return head(n, conv(n, x, 32, 3, 2, 1, 0));
}

/* x[:, r::2, c::2, :] */
static act every_second(net *n, act x, int r, int c)
{
    int32_t b[4] = {0, 0, 0, 0}, e[4], s[4] = {1, 2, 2, 1}, in[4];
    act y = new_act(n, "focus/slice", x.shape[1] / 2, x.shape[2] / 2, x.shape[3], x.scale, x.zp);
    b[1] = r;
    b[2] = c;
    memcpy(e, x.shape, sizeof e);
    in[0] = x.id;
    in[1] = const_i32(n, "begin", b, 4);
    in[2] = const_i32(n, "end", e, 4);
    in[3] = const_i32(n, "strides", s, 4);
    add_op(n, TE_OP_STRIDED_SLICE, in, 4, y.id, tflb_opt_strided_slice(0, 0, 0));
    return y;
}

static act focus_stage(net *n, act x)
{
    static const int32_t reflect1[8] = {0, 0, 1, 1, 1, 1, 0, 0};
    int32_t b[4] = {0, 0, 0, 8}, size[4] = {1, -1, -1, 8}, shape[2] = {4, 2}, in[4];
    act parts[4], y;
    int i;
    for (i = 0; i < 4; i++)
        parts[i] = every_second(n, x, i & 1, i >> 1);
    x = concat_n(n, parts, 4);
    x = conv(n, x, 16, 3, 1, 1, 0);
    /* the route group: channels 8..15 */
    y = new_act(n, "route", x.shape[1], x.shape[2], 8, x.scale, x.zp);
    in[0] = x.id;
    in[1] = const_i32(n, "begin", b, 4);
    in[2] = const_i32(n, "size", size, 4);
    add_op(n, TE_OP_SLICE, in, 3, y.id, tflb_opt_none());
    x = conv(n, conv(n, y, 8, 3, 1, 1, 0), 16, 1, 1, 1, 0);
    y = new_act(n, "mirror_pad", x.shape[1] + 2, x.shape[2] + 2, x.shape[3], x.scale, x.zp);
    in[0] = x.id;
    in[1] = tflb_add_const(n->m, name(n, "paddings"), TFLB_INT32, shape, 2, reflect1,
                           sizeof reflect1, NULL);
    add_op(n, TE_OP_MIRROR_PAD, in, 2, y.id, tflb_opt_mirror_pad(0));
    x = conv(n, y, 16, 3, 1, 0, 0);
    y = new_act(n, "space_to_depth", x.shape[1] / 2, x.shape[2] / 2, 4 * x.shape[3], x.scale,
                x.zp);
    add_op(n, TE_OP_SPACE_TO_DEPTH, &x.id, 1, y.id,
           tflb_opt_space_depth(TE_OPT_SPACE_TO_DEPTH, 2));
    x = conv(n, conv(n, y, 32, 1, 1, 1, 0), 32, 3, 2, 1, 0);
    return head(n, x);
}

/* A float32 map shaped like x. */
static int32_t float_map(net *n, const char *what, act x)
{
    return tflb_add_tensor(n->m, name(n, what), TFLB_FLOAT32, x.shape, 4, 0, NULL);
}

static act float_pool_stage(net *n, act x)
{
    int32_t f, g;
    act y;
    x = conv(n, x, 16, 3, 2, 1, 0);
    f = float_map(n, "dequantize", x);
    add_op(n, TE_OP_DEQUANTIZE, &x.id, 1, f, tflb_opt_none());
    g = float_map(n, "neg", x);
    add_op(n, TE_OP_NEG, &f, 1, g, tflb_opt_none());
    f = float_map(n, "l2_pool", x);
    add_op(n, TE_OP_L2_POOL_2D, &g, 1, f, tflb_opt_pool2d(TFLB_PAD_SAME, 1, 1, 3, 3, TFLB_ACT_NONE));
    y = new_act(n, "quantize", x.shape[1], x.shape[2], x.shape[3], x.scale, -128);
    add_op(n, TE_OP_QUANTIZE, &f, 1, y.id, tflb_opt_none());
    x = conv(n, y, 24, 3, 2, 1, 0);
    return head(n, conv(n, x, 32, 3, 2, 1, 0));
}

static act select_stage(net *n, act x)
{
    int32_t in[3], cond, per_channel[1] = {16};
    act d, y;
    x = conv(n, x, 16, 3, 2, 1, 0);
    d = conv(n, x, 0, 3, 1, 1, 1);
    n->m->tensors[d.id].scale[0] = d.scale = x.scale; /* SELECT_V2 and ADD_N: one quantization */
    n->m->tensors[d.id].zp[0] = d.zp = x.zp;
    cond = tflb_add_tensor(n->m, name(n, "greater"), TFLB_BOOL, x.shape, 4, 0, NULL);
    in[0] = x.id;
    in[1] = d.id;
    add_op(n, TE_OP_GREATER, in, 2, cond, tflb_opt_none());
    y = new_act(n, "select", x.shape[1], x.shape[2], x.shape[3], x.scale, x.zp);
    in[0] = cond;
    in[1] = x.id;
    in[2] = d.id;
    add_op(n, TE_OP_SELECT_V2, in, 3, y.id, tflb_opt_none());
    x = binary(n, TE_OP_ADD_N, y, d.id, 2.0f * x.scale, -128, tflb_opt_none());
    x = binary(n, TE_OP_DIV, x, const_i8(n, "divisor", per_channel, 1, 20, 100, 1.0f / 64, 0),
               x.scale * 0.5f, -128, tflb_opt_div(TFLB_ACT_NONE));
    x = conv(n, x, 24, 3, 2, 1, 0);
    return head(n, conv(n, x, 32, 3, 2, 1, 0));
}

/* SPLIT of the channels into two halves, the second half's convolution
 * joined back to the first half. */
/* A BlazeFace block: 5x5 depthwise (stride s) and a 1x1 to cout beside the
 * shortcut (a 2x2 max pool when strided, its channels padded to cout), ADD. */
static act blaze_block(net *n, act x, int cout, int s)
{
    act y = separable(n, x, 5, cout, s), skip = x;
    if (s == 2)
        skip = pool(n, x, TE_OP_MAX_POOL_2D, 2, 2, 0);
    if (cout > x.shape[3])
        skip = pad_channels(n, skip, cout - x.shape[3]);
    return add2(n, skip, y);
}

static act blaze_stage(net *n, act x)
{
    x = conv(n, x, 24, 5, 2, 1, 0);
    x = blaze_block(n, blaze_block(n, x, 24, 1), 28, 1);
    x = blaze_block(n, blaze_block(n, x, 32, 2), 36, 1);
    x = blaze_block(n, blaze_block(n, x, 48, 2), 48, 1);
    return head(n, x);
}

/* x * sigmoid(fc(relu(fc(mean(x))))): squeeze-and-excitation. */
static act squeeze_excite(net *n, act x, int squeeze)
{
    int32_t axes[2] = {1, 2}, shape[1] = {2}, in[2];
    act m = new_act(n, "se/mean", 1, 1, x.shape[3], x.scale, x.zp), g, y;
    in[0] = x.id;
    in[1] = tflb_add_const(n->m, name(n, "axes"), TFLB_INT32, shape, 1, axes, sizeof axes, NULL);
    add_op(n, TE_OP_MEAN, in, 2, m.id, tflb_opt_reducer(1));
    g = conv(n, conv(n, m, squeeze, 1, 1, 1, 0), x.shape[3], 1, 1, 1, 0);
    y = new_act(n, "se/sigmoid", 1, 1, x.shape[3], 1.0f / 256.0f, -128);
    add_op(n, TE_OP_LOGISTIC, &g.id, 1, y.id, tflb_opt_none());
    return binary(n, TE_OP_MUL, x, y.id, x.scale, x.zp, tflb_opt_mul(TFLB_ACT_NONE));
}

/* HARD_SWISH of x (its output quantized alike). */
static act hard_swish(net *n, act x)
{
    act y = new_act(n, "hswish", x.shape[1], x.shape[2], x.shape[3], x.scale, x.zp);
    add_op(n, TE_OP_HARD_SWISH, &x.id, 1, y.id, tflb_opt_none());
    return y;
}

static act se_stage(net *n, act x)
{
    x = hard_swish(n, conv(n, x, 16, 3, 2, 1, 0));
    x = conv(n, squeeze_excite(n, conv(n, x, 0, 3, 2, 1, 1), 8), 16, 1, 1, 1, 0);
    x = hard_swish(n, conv(n, x, 48, 1, 1, 1, 0));
    x = conv(n, squeeze_excite(n, conv(n, x, 0, 5, 2, 1, 1), 16), 24, 1, 1, 1, 0);
    return head(n, x);
}

static act split_route_stage(net *n, act x)
{
    int32_t axis = 3, in[2], outs[2];
    act h[2];
    int i;
    x = conv(n, conv(n, x, 16, 3, 2, 1, 0), 16, 3, 1, 1, 0);
    for (i = 0; i < 2; i++) {
        h[i] = new_act(n, "split", x.shape[1], x.shape[2], 8, x.scale, x.zp);
        outs[i] = h[i].id;
    }
    in[0] = const_i32(n, "axis", &axis, 1);
    in[1] = x.id;
    {
        tflb_options o = tflb_opt_empty(TE_OPT_SPLIT);
        o.n_dims = -1;
        tflb_add_op(n->m, (uint32_t)op_code(n, TE_OP_SPLIT), in, 2, outs, 2, &o);
    }
    x = concat2(n, h[0], conv(n, h[1], 8, 3, 1, 1, 0));
    x = conv(n, x, 24, 3, 2, 1, 0);
    return head(n, conv(n, x, 32, 3, 2, 1, 0));
}

/* YOLOv8's C2f block (one bottleneck, no shortcut): a 1x1 convolution to
 * c, SPLIT of its channels into halves, the second half through two 3x3
 * convolutions, CONCATENATION of both halves and that output (all three in
 * the 1x1's quantization, as TFLite Micro needs), a 1x1 convolution to c. */
static act c2f(net *n, act x, int c)
{
    int32_t axis = 3, in[3], outs[2];
    act h[2], b, y;
    int i;
    x = conv(n, x, c, 1, 1, 1, 0);
    for (i = 0; i < 2; i++) {
        h[i] = new_act(n, "c2f/split", x.shape[1], x.shape[2], c / 2, x.scale, x.zp);
        outs[i] = h[i].id;
    }
    in[0] = const_i32(n, "axis", &axis, 1);
    in[1] = x.id;
    {
        tflb_options o = tflb_opt_empty(TE_OPT_SPLIT);
        o.n_dims = -1;
        tflb_add_op(n->m, (uint32_t)op_code(n, TE_OP_SPLIT), in, 2, outs, 2, &o);
    }
    b = conv(n, conv(n, h[1], c / 2, 3, 1, 1, 0), c / 2, 3, 1, 1, 0);
    n->m->tensors[b.id].scale[0] = x.scale;
    n->m->tensors[b.id].zp[0] = x.zp;
    y = new_act(n, "c2f/concat", x.shape[1], x.shape[2], 3 * (c / 2), x.scale, x.zp);
    in[0] = h[0].id;
    in[1] = h[1].id;
    in[2] = b.id;
    add_op(n, TE_OP_CONCATENATION, in, 3, y.id, tflb_opt_concat(3, TFLB_ACT_NONE));
    return conv(n, y, c, 1, 1, 1, 0);
}

/* A YOLOv8n backbone's first stages: strided 3x3 convolutions and C2f
 * blocks, then a small 1x1 head. */
static act yolov8n_c2f(net *n, act x)
{
    x = conv(n, conv(n, x, 16, 3, 2, 1, 0), 32, 3, 2, 1, 0);
    x = c2f(n, x, 32);
    x = c2f(n, conv(n, x, 64, 3, 2, 1, 0), 64);
    x = c2f(n, conv(n, x, 128, 3, 2, 1, 0), 128);
    x = conv(n, conv(n, x, 256, 3, 2, 1, 0), 64, 1, 1, 1, 0);
    return conv(n, x, 30, 1, 1, 1, 0);
}

/* FastDepth (ST model zoo depth estimation) 224: a MobileNetV1 encoder and
 * an NNConv5 decoder (5x5 depthwise-separable convolution, nearest x2
 * upsampling) with additive skips from the encoder at 112, 56 and 28; a
 * 224x224 depth map. The skips live across the whole network. */
static act fastdepth(net *n, act x)
{
    static const int blocks[13][2] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1},
                                      {512, 2}, {512, 1}, {512, 1}, {512, 1}, {512, 1},
                                      {512, 1}, {1024, 2}, {1024, 1}};
    static const int dec[5] = {512, 256, 128, 64, 32};
    act skip[3];
    int b;
    x = conv(n, x, 32, 3, 2, 1, 0);
    for (b = 0; b < 13; b++) {
        x = separable(n, x, 3, blocks[b][0], blocks[b][1]);
        if (b == 0 || b == 2 || b == 4)
            skip[b / 2] = x;
    }
    for (b = 0; b < 5; b++) {
        x = upsample(n, separable(n, x, 5, dec[b], 1), 0);
        if (b >= 1 && b <= 3)
            x = add2(n, x, skip[3 - b]);
    }
    return conv(n, x, 1, 1, 1, 1, 0);
}

/* A small encoder-decoder with FastDepth's shape (three stride-2
 * separable blocks, three 3x3 separable + 2x upsampling blocks back to the
 * input's size with additive skips, a 1x1 head): the layer-by-layer peak is
 * at the last upsampled map, far from the input. */
static act decoder_stage(net *n, act x)
{
    act s1, s2;
    x = conv(n, x, 16, 3, 2, 1, 0);
    s1 = x;
    x = s2 = separable(n, x, 3, 24, 2);
    x = separable(n, x, 3, 48, 2);
    x = add2(n, upsample(n, separable(n, x, 3, 24, 1), 0), s2);
    x = add2(n, upsample(n, separable(n, x, 3, 16, 1), 0), s1);
    x = upsample(n, separable(n, x, 3, 16, 1), 0);
    return conv(n, x, 1, 1, 1, 1, 0);
}

/* A transposed convolution (a decoder's learned upsampling) to cout
 * channels, k x k taps, stride s, SAME (output in x s) or VALID ((in - 1) x
 * s + k), per-channel int8 weights [cout, k, k, cin], a bias. */
static act tconv(net *n, act x, int cout, int k, int s, int same)
{
    int cin = x.shape[3], per = k * k * cin;
    int oh = same ? x.shape[1] * s : (x.shape[1] - 1) * s + k;
    int ow = same ? x.shape[2] * s : (x.shape[2] - 1) * s + k;
    int32_t ws[4], shape[4], in[4];
    /* each output pixel gathers about per / s^2 products */
    float gain = sqrtf((float)per / (float)(s * s)) * 0.6f;
    act y = new_act(n, "tconv", oh, ow, cout, x.scale * gain, -128);
    shape[0] = 1;
    shape[1] = oh;
    shape[2] = ow;
    shape[3] = cout;
    ws[0] = cout;
    ws[1] = ws[2] = k;
    ws[3] = cin;
    in[0] = const_i32(n, "output_shape", shape, 4);
    weights_bias(n, ws, 0, cout, per, x.scale, 1.0f, &in[1], &in[3]);
    in[2] = x.id;
    add_op(n, TE_OP_TRANSPOSE_CONV, in, 4, y.id,
           tflb_opt_transpose_conv(same ? TFLB_PAD_SAME : TFLB_PAD_VALID, s, s, TFLB_ACT_NONE));
    return y;
}

/* A decoder of transposed convolutions back above the input's size: 3x3
 * and 2x2 stride 2, SAME and VALID, and last 1x1 stride 2 (127x127: its odd
 * rows and columns no tap reaches).  The layer-by-layer peak is at the end. */
static act deconv_stage(net *n, act x)
{
    x = conv(n, conv(n, x, 16, 3, 2, 1, 0), 32, 3, 2, 1, 0);
    x = tconv(n, x, 16, 3, 2, 1);
    x = tconv(n, x, 8, 2, 2, 0);
    return tconv(n, x, 8, 1, 2, 0);
}

/* Input types of the kinds below: int8 / uint8 written 1 x H*W*3, a
 * RESHAPE to the image first (after a QUANTIZE to int8 for uint8). */
#define FLAT_INT8 (-1)
#define FLAT_UINT8 (-2)

/* Every kind: its name, input side and type, and the network after the
 * input (and its QUANTIZE head). */
static const struct kind {
    const char *name;
    int hw, in_type;
    act (*body)(net *, act);
    int flat_scales;
} kinds[] = {
    {"uint8_head", 80, TFLB_UINT8, stem_stage, 0},
    {"float_head", 80, TFLB_FLOAT32, stem_stage, 0},
    {"fire", 64, TFLB_INT8, fire_stage, 0},
    {"residual", 80, TFLB_INT8, residual_stage, 0},
    {"avgpool", 80, TFLB_INT8, avgpool_stage, 0},
    {"neck", 96, TFLB_INT8, neck_stage, 0},
    {"neck_bilinear", 96, TFLB_INT8, neck_bilinear_stage, 0},
    {"pad_conv", 80, TFLB_INT8, pad_conv_stage, 0},
    {"side_branch", 80, TFLB_INT8, side_branch_stage, 0},
    {"inplace_chain", 96, TFLB_INT8, inplace_chain_stage, 0},
    {"eltwise", 80, TFLB_INT8, eltwise_stage, 0},
    {"focus", 96, TFLB_INT8, focus_stage, 0},
    {"float_pool", 80, TFLB_INT8, float_pool_stage, 0},
    {"select", 80, TFLB_INT8, select_stage, 0},
    {"split_route", 80, TFLB_INT8, split_route_stage, 0},
    {"blaze", 96, TFLB_INT8, blaze_stage, 0},
    {"flat_head", 80, FLAT_INT8, stem_stage, 0},
    {"flat_uint8_head", 80, FLAT_UINT8, stem_stage, 0},
    {"se", 96, TFLB_INT8, se_stage, 0},
    {"decoder", 64, TFLB_INT8, decoder_stage, 1},
    {"deconv", 64, TFLB_INT8, deconv_stage, 1},
    {"mobilenet_v1_224_uint8", 224, TFLB_UINT8, mobilenet_v1, 0},
    {"mobilenet_v2_224_uint8", 224, TFLB_UINT8, mobilenet_v2, 0},
    {"squeezenet_224", 224, TFLB_INT8, squeezenet, 0},
    {"resnet_128", 128, TFLB_INT8, resnet, 0},
    {"hand_224", 224, TFLB_INT8, hand, 0},
    {"yolo_lc_256", 256, TFLB_INT8, yolo_lc, 0},
    {"ssd_mobilenet_v2_300_uint8", 300, TFLB_UINT8, ssd_mobilenet_v2, 1},
    {"ssd_mobilenet_v2_300_detect", 300, TFLB_UINT8, ssd_mobilenet_v2_detect, 1},
    {"ssd_mobilenet_v1_025_256", 256, TFLB_INT8, ssd_mobilenet_v1_025, 1},
    {"efficientnet_lite0_224_uint8", 224, TFLB_UINT8, efficientnet_lite0, 1},
    {"inception_v1_224_uint8", 224, TFLB_UINT8, inception_v1, 1},
    {"mobilenet_v2_035_224_float", 224, TFLB_FLOAT32, mobilenet_v2_035, 1},
    {"mcunet_in4_160", 160, TFLB_INT8, mcunet_in4, 1},
    {"mcunet_in3_176", 176, TFLB_INT8, mcunet_in3, 1},
    {"tiny_yolo_v2_224_uint8", 224, TFLB_UINT8, tiny_yolo_v2, 1},
    {"yolov8n_c2f_256", 256, TFLB_INT8, yolov8n_c2f, 1},
    {"fastdepth_224", 224, TFLB_INT8, fastdepth, 1},
};
#define N_KINDS (int)(sizeof kinds / sizeof kinds[0])

/* The model input of side hw and type in_type; a QUANTIZE to int8 follows
 * a uint8 or float32 input, a RESHAPE to the image a flat one. */
static act input(net *n, int hw, int in_type, size_t *in_bytes)
{
    int32_t shape[4] = {1, 0, 0, 3};
    float sc = 1.0f / 255.0f;
    int64_t zp = 0;
    tflb_quant q = tflb_quant1(&sc, &zp);
    act x;
    int id;
    shape[1] = shape[2] = hw;
    *in_bytes = (size_t)hw * (size_t)hw * 3 * (in_type == TFLB_FLOAT32 ? 4 : 1);
    if (in_type == FLAT_INT8 || in_type == FLAT_UINT8) {
        int32_t flat_shape[2] = {1, 0}, image[4] = {1, 0, 0, 3};
        int64_t zp8 = -128;
        tflb_quant q8 = tflb_quant1(&sc, &zp8);
        int32_t flat;
        flat_shape[1] = hw * hw * 3;
        image[1] = image[2] = hw;
        flat = tflb_add_tensor(n->m, "input", in_type == FLAT_UINT8 ? TFLB_UINT8 : TFLB_INT8,
                               flat_shape, 2, 0, in_type == FLAT_UINT8 ? &q : &q8);
        n->input = flat;
        if (in_type == FLAT_UINT8) {
            int32_t q_id = tflb_add_tensor(n->m, "input_int8", TFLB_INT8, flat_shape, 2, 0, &q8);
            add_op(n, TE_OP_QUANTIZE, &flat, 1, q_id, tflb_opt_none());
            flat = q_id;
        }
        x = new_act(n, "input_image", hw, hw, 3, sc, -128);
        add_op(n, TE_OP_RESHAPE, &flat, 1, x.id, tflb_opt_reshape(image, 4));
        return x;
    }
    if (in_type == TFLB_INT8) {
        x = new_act(n, "input", hw, hw, 3, sc, -128);
        n->input = x.id;
        return x;
    }
    id = tflb_add_tensor(n->m, "input", in_type, shape, 4, 0, in_type == TFLB_UINT8 ? &q : NULL);
    x = new_act(n, "input_int8", hw, hw, 3, sc, -128);
    add_op(n, TE_OP_QUANTIZE, &id, 1, x.id, tflb_opt_none());
    n->input = id;
    return x;
}

static void build(tflb_model *m, const struct kind *k, size_t *in_bytes)
{
    static net n;
    act y;
    int32_t outs[17];
    int i;
    memset(&n, 0, sizeof n);
    n.m = m;
    n.flat_scales = k->flat_scales;
    tflb_set_description(m, k->name);
    y = k->body(&n, input(&n, k->hw, k->in_type, in_bytes));
    outs[0] = y.id;
    for (i = 0; i < n.n_extra; i++)
        outs[1 + i] = n.extra_out[i];
    tflb_set_inputs(m, &n.input, 1);
    tflb_set_outputs(m, outs, 1 + n.n_extra);
}


int main(int argc, char **argv)
{
    tflb_model m;
    uint8_t *img, *data = NULL;
    size_t size, in_bytes = 0, i;
    const struct kind *k = NULL;
    int rc;
    for (i = 0; argc == 4 && i < (size_t)N_KINDS; i++)
        if (!strcmp(argv[1], kinds[i].name))
            k = &kinds[i];
    if (!k) {
        if (argc == 4)
            fprintf(stderr, "te_mkpatchnet: unknown kind '%s'\n", argv[1]);
        fprintf(stderr, "usage: te_mkpatchnet KIND OUT.tflite INPUT.bin\nkinds:");
        for (i = 0; i < (size_t)N_KINDS; i++)
            fprintf(stderr, " %s", kinds[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    tflb_init(&m);
    build(&m, k, &in_bytes);
    img = malloc(in_bytes);
    for (i = 0; img && i < in_bytes; i++)
        img[i] = (uint8_t)rnd();
    if (img && k->in_type == TFLB_FLOAT32)
        for (i = 0; i < in_bytes / 4; i++) {
            float v = (float)(rnd() % 1000u) / 1000.0f;
            memcpy(img + 4 * i, &v, 4);
        }
    rc = !img || tflb_finish(&m, &data, &size) < 0 || tflb_write_bytes(argv[2], data, size) < 0 ||
         tflb_write_bytes(argv[3], img, in_bytes) < 0;
    free(img);
    free(data);
    tflb_free(&m);
    return rc;
}
