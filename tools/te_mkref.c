/* te_mkref.c - one-operator models of forms TFLite Micro runs that the
 * shared goldens do not cover (the int16x8 operators, EMBEDDING_LOOKUP's
 * hybrid path), each with the outputs it must give, for
 * tests/cli/test_op_references.sh:
 *
 *   te_mkref                         lists the kinds
 *   te_mkref KIND 8|16 DIR           writes DIR/model.tflite, DIR/input_<i>.bin
 *                                    (and DIR/expect_<i>.bin, see below)
 *   te_mkref widen ZP IN8 OUT16      OUT16 = IN8 - ZP as int16
 *
 * Data-movement kinds (and MINIMUM / MAXIMUM) have an int8 form and an
 * int16x8 form with the same real values: the int8 form quantizes every
 * activation with scale 0.05 and zero point ZP8 (-5), the int16 form with
 * scale 0.05 and zero point 0, as the 16x8 converter does, and its inputs
 * are the int8 inputs minus ZP8.  These operators move or compare values
 * without arithmetic, so TFLite Micro's int16 output is the int8 output
 * minus ZP8 (`widen`), which the int8 goldens pin: the test runs the int8
 * model, widens its outputs and expects them from the int16 model.
 *
 * Arithmetic kinds have one form (written with 16 as the width): the tool
 * also writes expect_<i>.bin, the outputs of its own plain reference of
 * TFLite Micro's kernel (reference_ops / reference_integer_ops formulas,
 * with TFLite's QuantizeMultiplier and double-rounding fixed-point helpers,
 * written out here independently of the runtime's).  A refuse_* kind is a
 * model the compiler must refuse; refuse.txt holds words of the message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_builder.h"

/* The int16 sigmoid and tanh of TFLite Micro's LSTM, the runtime's (pinned
 * by the int8 LSTM goldens, whose cell path is the same), for the 16x8
 * LSTM reference. */
#undef TE_KERNEL
#include "te_common.h" /* TE_KERNEL = static TE_UNUSED */
#include "te_activation_s16.c"

#define ZP8 (-5)
#define MAX_INPUTS 2
#define MAX_OUTPUTS 6

typedef struct {
    tflb_model *m;
    int bits;
    int codes[256];                 /* opcode index + 1 per builtin */
    int n_in;
    int32_t in_ids[MAX_INPUTS];
    int32_t in_elems[MAX_INPUTS];
    int16_t *in_vals[MAX_INPUTS];   /* the input values (int8 ones widened) */
    int32_t *in_i32[MAX_INPUTS];    /* or an int32 input's values */
    float *in_f32[MAX_INPUTS];      /* or a float32 input's values */
    int n_expect;                   /* arithmetic kinds: reference outputs */
    int32_t expect_elems[MAX_OUTPUTS];
    int16_t *expect[MAX_OUTPUTS];
    float *expect_f32[MAX_OUTPUTS]; /* float32 reference outputs (else int16) */
    int32_t *expect_i32[MAX_OUTPUTS]; /* or int32 ones */
    int expect_bool[MAX_OUTPUTS];   /* 1: expect[i] holds bools, one byte each */
    const char *refuse;             /* a model the compiler must refuse: its message */
    int in_bits;                    /* a one-form kind's input width (0: 16) */
} gen;

static uint32_t rng_state = 12345u;

static uint32_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static int32_t elems(const int32_t *shape, int rank)
{
    int32_t n = 1;
    int i;
    for (i = 0; i < rank; i++)
        n *= shape[i];
    return n;
}

/* An activation tensor of the model's width. */
static int32_t act(gen *g, const char *name, const int32_t *shape, int rank)
{
    static float scale = 0.05f;
    static int64_t zp8 = ZP8, zp16 = 0;
    tflb_quant q = tflb_quant1(&scale, g->bits == 8 ? &zp8 : &zp16);
    return tflb_add_tensor(g->m, name, g->bits == 8 ? TFLB_INT8 : TFLB_INT16, shape, rank, 0, &q);
}

/* Input values: int8 over the whole range, or the same minus ZP8 as int16
 * (the draws are the same for both forms). */
static int16_t *input_values(const gen *g, int32_t n)
{
    int16_t *v = malloc(sizeof(int16_t) * (size_t)(n > 0 ? n : 1));
    int32_t k;
    if (!v) {
        fprintf(stderr, "te_mkref: out of memory\n");
        exit(1);
    }
    for (k = 0; k < n; k++) {
        int x = (int)(rng_next() % 256u) - 128;
        v[k] = (int16_t)(g->bits == 8 ? x : x - ZP8);
    }
    return v;
}

static int32_t input(gen *g, const char *name, const int32_t *shape, int rank)
{
    int32_t id = act(g, name, shape, rank);
    g->in_ids[g->n_in] = id;
    g->in_elems[g->n_in] = elems(shape, rank);
    g->in_vals[g->n_in] = input_values(g, g->in_elems[g->n_in]);
    g->n_in++;
    return id;
}

static int32_t const_i32(gen *g, const char *name, const int32_t *v, int32_t n,
                         const int32_t *shape, int rank)
{
    return tflb_add_const(g->m, name, TFLB_INT32, shape, rank, v, sizeof(int32_t) * (size_t)n,
                          NULL);
}

static int32_t const_vec(gen *g, const char *name, const int32_t *v, int32_t n)
{
    return const_i32(g, name, v, n, &n, 1);
}

static void op(gen *g, int builtin, const int32_t *in, int n_in, const int32_t *out, int n_out,
               tflb_options o)
{
    if (!g->codes[builtin])
        g->codes[builtin] = tflb_add_opcode(g->m, builtin, 1) + 1;
    tflb_add_op(g->m, g->codes[builtin] - 1, in, n_in, out, n_out, &o);
}

static void finish(gen *g, const int32_t *outs, int n_out)
{
    tflb_set_inputs(g->m, g->in_ids, g->n_in);
    tflb_set_outputs(g->m, outs, n_out);
}

/* ---------------------------------------------------------------------
 * Arithmetic kinds: int16 tensors of their own scale (zero point 0), full
 * range inputs, and TFLite's fixed-point helpers for the references. */

static int32_t act16(gen *g, const char *name, const int32_t *shape, int rank, float scale)
{
    int64_t zp = 0;
    tflb_quant q = tflb_quant1(&scale, &zp);
    return tflb_add_tensor(g->m, name, TFLB_INT16, shape, rank, 0, &q);
}

static int32_t input16(gen *g, const char *name, const int32_t *shape, int rank, float scale)
{
    int32_t id = act16(g, name, shape, rank, scale), n = elems(shape, rank), k;
    int16_t *v = input_values(g, n);
    for (k = 0; k < n; k++)
        v[k] = (int16_t)((int32_t)(rng_next() % 65536u) - 32768);
    g->in_ids[g->n_in] = id;
    g->in_elems[g->n_in] = n;
    g->in_vals[g->n_in++] = v;
    return id;
}

/* The next reference output, n values (filled by the caller). */
static int16_t *expect(gen *g, int32_t n)
{
    int16_t *v = calloc((size_t)(n > 0 ? n : 1), sizeof(int16_t));
    if (!v) {
        fprintf(stderr, "te_mkref: out of memory\n");
        exit(1);
    }
    g->expect_elems[g->n_expect] = n;
    g->expect[g->n_expect++] = v;
    return v;
}

/* TFLite QuantizeMultiplier: m = q * 2^(shift - 31), q in [2^30, 2^31). */
static void quantize_multiplier(double m, int32_t *q, int *shift)
{
    double frac;
    int64_t r;
    if (m == 0.0) {
        *q = 0;
        *shift = 0;
        return;
    }
    frac = frexp(m, shift);
    r = (int64_t)round(frac * 2147483648.0);
    if (r == 2147483648LL) {
        r /= 2;
        (*shift)++;
    }
    if (*shift < -31) {
        r = 0;
        *shift = 0;
    }
    *q = (int32_t)r;
}

/* gemmlowp SaturatingRoundingDoublingHighMul. */
static int32_t srdhm(int32_t a, int32_t b)
{
    int64_t ab = (int64_t)a * b, nudge = ab >= 0 ? (1LL << 30) : 1 - (1LL << 30);
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    return (int32_t)((ab + nudge) / (1LL << 31));
}

/* gemmlowp RoundingDivideByPOT (ties away from zero). */
static int32_t rdbp(int32_t x, int e)
{
    int32_t mask = (int32_t)((1LL << e) - 1), rem = x & mask, thr = (mask >> 1) + (x < 0);
    return (x >> e) + (rem > thr ? 1 : 0);
}

/* MultiplyByQuantizedMultiplier (int32, double rounding). */
static int32_t mbqm(int32_t x, int32_t q, int shift)
{
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    return rdbp(srdhm((int32_t)((uint32_t)x << left), q), right);
}

/* MultiplyByQuantizedMultiplierSmallerThanOneExp. */
static int32_t mbqm_small(int32_t x, int32_t q, int shift) { return rdbp(srdhm(x, q), -shift); }

/* MultiplyByQuantizedMultiplier (int64): the multiplier reduced to 16 bits,
 * one rounding shift. */
static int32_t mbqm64(int64_t x, int32_t q, int shift)
{
    int64_t rq = q < 0x7FFF0000 ? ((int64_t)q + (1 << 15)) >> 16 : 0x7FFF;
    int total = 15 - shift;
    return (int32_t)((x * rq + ((int64_t)1 << (total - 1))) >> total);
}

static int16_t sat16(int32_t x) { return (int16_t)(x < -32768 ? -32768 : x > 32767 ? 32767 : x); }

/* Element i of a 4-D broadcast between shapes a and b (output shape o). */
static int32_t bcast_index(const int32_t *shape, const int32_t *o, int32_t i)
{
    int32_t idx = 0, k, stride = 1, rest = i;
    int32_t pos[4];
    for (k = 3; k >= 0; k--) {
        pos[k] = rest % o[k];
        rest /= o[k];
    }
    for (k = 3; k >= 0; k--) {
        idx += (shape[k] == 1 ? 0 : pos[k]) * stride;
        stride *= shape[k];
    }
    return idx;
}

/* ---------------------------------------------------------------------
 * The kinds. */

static void k_pad(gen *g)
{
    int32_t s[4] = {1, 5, 6, 3}, so[4] = {1, 8, 9, 4}, ps[2] = {4, 2};
    int32_t amounts[8] = {0, 0, 1, 2, 2, 1, 0, 1}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_i32(g, "paddings", amounts, 8, ps, 2);
    out = act(g, "y", so, 4);
    op(g, TE_OP_PAD, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

/* PADV2 with a constant value, quantized like the data (real 0.6). */
static void k_padv2(gen *g)
{
    static float scale = 0.05f;
    static int64_t zp8 = ZP8, zp16 = 0;
    int32_t s[4] = {1, 4, 5, 6}, so[4] = {1, 6, 5, 9}, ps[2] = {4, 2}, one = 1;
    int32_t amounts[8] = {0, 0, 2, 0, 0, 0, 1, 2}, in[3], out;
    tflb_quant q = tflb_quant1(&scale, g->bits == 8 ? &zp8 : &zp16);
    int8_t v8 = 12 + ZP8;
    int16_t v16 = 12;
    in[0] = input(g, "x", s, 4);
    in[1] = const_i32(g, "paddings", amounts, 8, ps, 2);
    /* int16: an unquantized value (TFLite Micro pads int16 with the raw value) */
    in[2] = g->bits == 8 ? tflb_add_const(g->m, "value", TFLB_INT8, &one, 0, &v8, 1, &q)
                         : tflb_add_const(g->m, "value", TFLB_INT16, &one, 0, &v16, 2, NULL);
    out = act(g, "y", so, 4);
    op(g, TE_OP_PADV2, in, 3, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_transpose(gen *g)
{
    int32_t s[4] = {1, 4, 5, 6}, so[4] = {1, 6, 4, 5}, perm[4] = {0, 3, 1, 2}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "perm", perm, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_TRANSPOSE, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_slice(gen *g)
{
    int32_t s[4] = {1, 5, 6, 7}, so[4] = {1, 3, 2, 4}, begin[4] = {0, 1, 2, 1};
    int32_t size[4] = {1, 3, 2, 4}, in[3], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "begin", begin, 4);
    in[2] = const_vec(g, "size", size, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_SLICE, in, 3, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_strided_slice(gen *g)
{
    int32_t s[4] = {1, 6, 7, 5}, so[4] = {1, 3, 2, 5}, begin[4] = {0, 0, 1, 0};
    int32_t end[4] = {1, 6, 7, 5}, strides[4] = {1, 2, 3, 1}, in[4], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "begin", begin, 4);
    in[2] = const_vec(g, "end", end, 4);
    in[3] = const_vec(g, "strides", strides, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_STRIDED_SLICE, in, 4, &out, 1, tflb_opt_strided_slice(0, 0, 0));
    finish(g, &out, 1);
}

static void k_split(gen *g)
{
    int32_t s[4] = {1, 4, 4, 9}, so[4] = {1, 4, 4, 3}, axis = 3, one = 1, in[2], out[3];
    in[0] = const_i32(g, "axis", &axis, 1, &one, 0);
    in[1] = input(g, "x", s, 4);
    out[0] = act(g, "y0", so, 4);
    out[1] = act(g, "y1", so, 4);
    out[2] = act(g, "y2", so, 4);
    op(g, TE_OP_SPLIT, in, 2, out, 3, tflb_opt_split(TE_OPT_SPLIT, 3));
    finish(g, out, 3);
}

/* SPLIT with an int64 axis (ONNX-converted models): TFLite Micro reads its
 * low word. */
static void k_split_axis64(gen *g)
{
    int32_t s[3] = {2, 6, 3}, so[3] = {2, 3, 3}, one = 1, in[2], out[2];
    int64_t axis = -2;
    in[0] = tflb_add_const(g->m, "axis", TFLB_INT64, &one, 0, &axis, sizeof(axis), NULL);
    in[1] = input(g, "x", s, 3);
    out[0] = act(g, "y0", so, 3);
    out[1] = act(g, "y1", so, 3);
    op(g, TE_OP_SPLIT, in, 2, out, 2, tflb_opt_split(TE_OPT_SPLIT, 2));
    finish(g, out, 2);
}

static void k_split_v(gen *g)
{
    int32_t s[4] = {1, 9, 4, 3}, s0[4] = {1, 2, 4, 3}, s1[4] = {1, 5, 4, 3}, s2[4] = {1, 2, 4, 3};
    int32_t sizes[3] = {2, 5, -1}, axis = 1, one = 1, in[3], out[3];
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "sizes", sizes, 3);
    in[2] = const_i32(g, "axis", &axis, 1, &one, 0);
    out[0] = act(g, "y0", s0, 4);
    out[1] = act(g, "y1", s1, 4);
    out[2] = act(g, "y2", s2, 4);
    op(g, TE_OP_SPLIT_V, in, 3, out, 3, tflb_opt_split(TE_OPT_SPLIT_V, 3));
    finish(g, out, 3);
}

static void k_pack(gen *g)
{
    int32_t s[3] = {3, 4, 5}, so[4] = {3, 2, 4, 5}, in[2], out;
    in[0] = input(g, "a", s, 3);
    in[1] = input(g, "b", s, 3);
    out = act(g, "y", so, 4);
    op(g, TE_OP_PACK, in, 2, &out, 1, tflb_opt_pack(TE_OPT_PACK, 2, 1));
    finish(g, &out, 1);
}

static void k_unpack(gen *g)
{
    int32_t s[3] = {4, 3, 5}, so[2] = {4, 5}, in, out[3];
    in = input(g, "x", s, 3);
    out[0] = act(g, "y0", so, 2);
    out[1] = act(g, "y1", so, 2);
    out[2] = act(g, "y2", so, 2);
    op(g, TE_OP_UNPACK, &in, 1, out, 3, tflb_opt_pack(TE_OPT_UNPACK, 3, 1));
    finish(g, out, 3);
}

/* EXPAND_DIMS then SQUEEZE back, then a TRANSPOSE so that the output is not
 * the input's storage. */
static void k_expand_squeeze(gen *g)
{
    int32_t s[3] = {4, 5, 6}, se[4] = {4, 1, 5, 6}, so[3] = {6, 4, 5}, axis = 1, one = 1;
    int32_t dims[1] = {1}, perm[3] = {2, 0, 1}, in[2], mid, sq, out;
    in[0] = input(g, "x", s, 3);
    in[1] = const_i32(g, "axis", &axis, 1, &one, 0);
    mid = act(g, "expanded", se, 4);
    op(g, TE_OP_EXPAND_DIMS, in, 2, &mid, 1, tflb_opt_none());
    sq = act(g, "squeezed", s, 3);
    op(g, TE_OP_SQUEEZE, &mid, 1, &sq, 1, tflb_opt_squeeze(dims, 1));
    in[0] = sq;
    in[1] = const_vec(g, "perm", perm, 3);
    out = act(g, "y", so, 3);
    op(g, TE_OP_TRANSPOSE, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_resize_nearest(gen *g)
{
    int32_t s[4] = {1, 4, 5, 3}, so[4] = {1, 7, 10, 3}, size[2] = {7, 10}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "size", size, 2);
    out = act(g, "y", so, 4);
    op(g, TE_OP_RESIZE_NEAREST_NEIGHBOR, in, 2, &out, 1, tflb_opt_resize_nearest(0, 1));
    finish(g, &out, 1);
}

static void k_reverse(gen *g)
{
    int32_t s[4] = {1, 4, 5, 3}, axis = 2, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "axis", &axis, 1);
    out = act(g, "y", s, 4);
    op(g, TE_OP_REVERSE_V2, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_broadcast_to(gen *g)
{
    int32_t s[4] = {1, 1, 4, 3}, so[4] = {1, 3, 4, 3}, in[2], out;
    in[0] = input(g, "x", s, 4);
    in[1] = const_vec(g, "shape", so, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_BROADCAST_TO, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_select_v2(gen *g)
{
    int32_t s[4] = {1, 3, 4, 5}, sc[4] = {1, 1, 4, 5}, in[3], out;
    uint8_t cond[20];
    int i;
    for (i = 0; i < 20; i++)
        cond[i] = (uint8_t)((i * 7 + 3) % 3 == 0);
    in[0] = tflb_add_const(g->m, "condition", TFLB_BOOL, sc, 4, cond, sizeof(cond), NULL);
    in[1] = input(g, "a", s, 4);
    in[2] = input(g, "b", s, 4);
    out = act(g, "y", s, 4);
    op(g, TE_OP_SELECT_V2, in, 3, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_maxmin(gen *g, int builtin)
{
    int32_t s[4] = {1, 3, 4, 5}, sb[4] = {1, 1, 1, 5}, in[2], out;
    in[0] = input(g, "a", s, 4);
    in[1] = input(g, "b", sb, 4);
    out = act(g, "y", s, 4);
    op(g, builtin, in, 2, &out, 1, tflb_opt_empty(TE_OPT_MAXIMUM_MINIMUM));
    finish(g, &out, 1);
}

static void k_maximum(gen *g) { k_maxmin(g, TE_OP_MAXIMUM); }
static void k_minimum(gen *g) { k_maxmin(g, TE_OP_MINIMUM); }

/* RESHAPE to a scalar with an empty shape constant (tf.reshape(x, [])):
 * the shape tensor has no element and no data, which is no missing writer. */
static void k_reshape_scalar(gen *g)
{
    int32_t s[2] = {1, 1}, zero = 0, in[2], out;
    in[0] = input(g, "x", s, 2);
    in[1] = tflb_add_const(g->m, "shape", TFLB_INT32, &zero, 1, NULL, 0, NULL);
    out = act(g, "y", s, 0);
    op(g, TE_OP_RESHAPE, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
}

static void k_concat(gen *g)
{
    int32_t sa[4] = {1, 3, 4, 2}, sb[4] = {1, 3, 4, 5}, so[4] = {1, 3, 4, 7}, in[2], out;
    in[0] = input(g, "a", sa, 4);
    in[1] = input(g, "b", sb, 4);
    out = act(g, "y", so, 4);
    op(g, TE_OP_CONCATENATION, in, 2, &out, 1, tflb_opt_concat(3, TFLB_ACT_NONE));
    finish(g, &out, 1);
}


/* SUB, input 2 broadcast along the channels, fused RELU (sub_common.cc:
 * left shift 15, ratios to twice the larger input scale in float). */
static void k_sub(gen *g)
{
    int32_t s[4] = {1, 3, 4, 5}, sb[4] = {1, 1, 1, 5}, in[2], out, i, n = 60;
    float sa = 0.0005f, sbs = 0.0007f, so = 0.001f;
    float twice_max = 2.0f * (sa > sbs ? sa : sbs);
    int32_t m1, m2, mo;
    int s1, s2, s_o;
    int16_t *y;
    in[0] = input16(g, "a", s, 4, sa);
    in[1] = input16(g, "b", sb, 4, sbs);
    out = act16(g, "y", s, 4, so);
    op(g, TE_OP_SUB, in, 2, &out, 1, tflb_opt_sub(TFLB_ACT_RELU));
    finish(g, &out, 1);
    quantize_multiplier((double)(sa / twice_max), &m1, &s1);
    quantize_multiplier((double)(sbs / twice_max), &m2, &s2);
    quantize_multiplier((double)(twice_max / ((float)(1 << 15) * so)), &mo, &s_o);
    y = expect(g, n);
    for (i = 0; i < n; i++) {
        int32_t a = mbqm_small(g->in_vals[0][i] * (1 << 15), m1, s1);
        int32_t b = mbqm_small(g->in_vals[1][bcast_index(sb, s, i)] * (1 << 15), m2, s2);
        int32_t r = mbqm_small(a - b, mo, s_o);
        y[i] = (int16_t)(r < 0 ? 0 : r > 32767 ? 32767 : r); /* RELU: [0, 32767] */
    }
}

/* LEAKY_RELU (leaky_relu_common.cc: both ratios in float, QuantizeMultiplier). */
static void k_leaky_relu(gen *g)
{
    int32_t s[4] = {1, 4, 5, 6}, in, out, i, n = 120, mi, ma;
    float si = 0.001f, so = 0.0008f, alpha = 0.2f;
    int shi, sha;
    int16_t *y;
    tflb_options o = tflb_opt_leaky_relu(alpha);
    in = input16(g, "x", s, 4, si);
    out = act16(g, "y", s, 4, so);
    op(g, TE_OP_LEAKY_RELU, &in, 1, &out, 1, o);
    finish(g, &out, 1);
    quantize_multiplier((double)(si / so), &mi, &shi);
    quantize_multiplier((double)(si * alpha / so), &ma, &sha);
    y = expect(g, n);
    for (i = 0; i < n; i++) {
        int32_t v = g->in_vals[0][i];
        y[i] = sat16(v >= 0 ? mbqm(v, mi, shi) : mbqm(v, ma, sha));
    }
}

/* ABS (elementwise.cc AbsEvalQuantized<int16_t>), without and with a rescale. */
static void abs_kind(gen *g, float so)
{
    int32_t s[4] = {1, 4, 5, 6}, in, out, i, n = 120, m = 0;
    float si = 0.001f;
    int sh = 0;
    int16_t *y;
    in = input16(g, "x", s, 4, si);
    out = act16(g, "y", s, 4, so);
    op(g, TE_OP_ABS, &in, 1, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
    if (si != so)
        quantize_multiplier((double)si / (double)so, &m, &sh);
    y = expect(g, n);
    for (i = 0; i < n; i++) {
        int32_t v = g->in_vals[0][i] < 0 ? -g->in_vals[0][i] : g->in_vals[0][i];
        y[i] = sat16(si != so ? mbqm(v, m, sh) : v);
    }
}

static void k_abs(gen *g) { abs_kind(g, 0.001f); }
static void k_abs_rescale(gen *g) { abs_kind(g, 0.0015f); }

/* SQUARED_DIFFERENCE, input 2 broadcast (squared_difference.cc: left shift
 * 0, ratios to twice the larger scale in double). */
static void k_squared_difference(gen *g)
{
    int32_t s[4] = {1, 3, 4, 5}, sb[4] = {1, 1, 4, 5}, in[2], out, i, n = 60, m1, m2, mo;
    float sa = 0.001f, sbs = 0.0012f, so = 0.2f;
    double twice_max = 2.0 * (double)(sa > sbs ? sa : sbs);
    int s1, s2, s_o;
    int16_t *y;
    in[0] = input16(g, "a", s, 4, sa);
    in[1] = input16(g, "b", sb, 4, sbs);
    out = act16(g, "y", s, 4, so);
    op(g, TE_OP_SQUARED_DIFFERENCE, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
    quantize_multiplier((double)sa / twice_max, &m1, &s1);
    quantize_multiplier((double)sbs / twice_max, &m2, &s2);
    quantize_multiplier(twice_max * twice_max / (double)((float)1 * so), &mo, &s_o);
    y = expect(g, n);
    for (i = 0; i < n; i++) {
        int32_t a = mbqm_small(g->in_vals[0][i], m1, s1);
        int32_t b = mbqm_small(g->in_vals[1][bcast_index(sb, s, i)], m2, s2);
        y[i] = sat16(mbqm((a - b) * (a - b), mo, s_o));
    }
}


/* PRELU with a per-channel int8 alpha (prelu_common.cc: both ratios in
 * double; int16 data needs an int8 alpha). */
static void k_prelu(gen *g)
{
    static float sa = 0.01f;
    static int64_t azp = 3;
    int32_t s[4] = {1, 3, 4, 5}, sc = 5, in[2], out, i, n = 60, m1, m2;
    int8_t alpha[5] = {25, -7, 3, 90, 0};
    float si = 0.001f, so = 0.0009f;
    int s1, s2;
    int16_t *y;
    tflb_quant qa = tflb_quant1(&sa, &azp);
    in[0] = input16(g, "x", s, 4, si);
    in[1] = tflb_add_const(g->m, "alpha", TFLB_INT8, &sc, 1, alpha, sizeof(alpha), &qa);
    out = act16(g, "y", s, 4, so);
    op(g, TE_OP_PRELU, in, 2, &out, 1, tflb_opt_none());
    finish(g, &out, 1);
    quantize_multiplier((double)si / (double)so, &m1, &s1);
    quantize_multiplier((double)si * (double)sa / (double)so, &m2, &s2);
    y = expect(g, n);
    for (i = 0; i < n; i++) {
        int32_t v = g->in_vals[0][i];
        y[i] = sat16(v >= 0 ? mbqm(v, m1, s1) : mbqm(v * (alpha[i % 5] - (int32_t)azp), m2, s2));
    }
}


/* SUM over height and width (reduce_common.cc: the int32 sum minus count x
 * zero point, times QuantizeMultiplier(in scale / out scale)). */
static void k_sum(gen *g)
{
    int32_t s[4] = {1, 4, 5, 6}, so[2] = {1, 6}, axes[2] = {1, 2}, in[2], out, c, k, m;
    float si = 0.001f, sout = 0.01f;
    int sh;
    int16_t *y;
    in[0] = input16(g, "x", s, 4, si);
    in[1] = const_vec(g, "axes", axes, 2);
    out = act16(g, "y", so, 2, sout);
    op(g, TE_OP_SUM, in, 2, &out, 1, tflb_opt_reducer(0));
    finish(g, &out, 1);
    quantize_multiplier((double)si / (double)sout, &m, &sh);
    y = expect(g, 6);
    for (c = 0; c < 6; c++) {
        int32_t sum = 0;
        for (k = 0; k < 20; k++)
            sum += g->in_vals[0][k * 6 + c];
        y[c] = sat16(mbqm(sum, m, sh));
    }
}


/* BATCH_MATMUL int16 (batch_matmul.cc: zero points 0, the multiplier of
 * GetQuantizedConvolutionMultipler's bias-less overload, the int64 sum
 * requantized by the int64 MultiplyByQuantizedMultiplier).  lhs [B, R, D]
 * (or [B, D, R] with adj_x) times rhs [1, D, C] (broadcast over B), an
 * activation or, transposed by the compiler, a constant. */
static void bmm_kind(gen *g, int adj_x, int const_rhs)
{
    int32_t B = 3, R = 4, D = 6, C = 5, sl[3], sr[3] = {1, 6, 5}, so[3] = {3, 4, 5}, in[2], out;
    int32_t b, i, j, k, m;
    float ls = 0.001f, rs = 0.002f, os = 0.1f;
    int sh;
    int16_t *y, rhs[30];
    static int64_t zp0 = 0;
    tflb_options o = tflb_opt_batch_matmul(adj_x, 0);
    sl[0] = B;
    sl[1] = adj_x ? D : R;
    sl[2] = adj_x ? R : D;
    in[0] = input16(g, "lhs", sl, 3, ls);
    if (const_rhs) {
        tflb_quant q = tflb_quant1(&rs, &zp0);
        for (k = 0; k < D * C; k++)
            rhs[k] = (int16_t)((int32_t)(rng_next() % 65536u) - 32768);
        in[1] = tflb_add_const(g->m, "rhs", TFLB_INT16, sr, 3, rhs, sizeof(rhs), &q);
    } else {
        in[1] = input16(g, "rhs", sr, 3, rs);
        memcpy(rhs, g->in_vals[1], sizeof(rhs));
    }
    out = act16(g, "y", so, 3, os);
    op(g, TE_OP_BATCH_MATMUL, in, 2, &out, 1, o);
    finish(g, &out, 1);
    quantize_multiplier((double)(ls * rs) / (double)os, &m, &sh); /* float product */
    y = expect(g, B * R * C);
    for (b = 0; b < B; b++)
        for (i = 0; i < R; i++)
            for (j = 0; j < C; j++) {
                int64_t acc = 0;
                for (k = 0; k < D; k++) {
                    int32_t l = g->in_vals[0][b * R * D + (adj_x ? k * R + i : i * D + k)];
                    acc += (int64_t)l * rhs[k * C + j];
                }
                y[(b * R + i) * C + j] = sat16(mbqm64(acc, m, sh));
            }
}

static void k_batch_matmul(gen *g) { bmm_kind(g, 0, 0); }
static void k_batch_matmul_const_adj_x(gen *g) { bmm_kind(g, 1, 1); }


/* TRANSPOSE_CONV 16x8 (transpose_conv.cc: int8 per-channel filter, int64
 * bias, int64 scratch the input pixels scatter onto, per-channel
 * multipliers in double, the int64 MultiplyByQuantizedMultiplier, no
 * offsets), SAME padding, stride 2, fused RELU. */
static void tconv_kind(gen *g, int bias16)
{
    enum { IH = 3, IW = 4, IC = 5, OH = 6, OW = 8, OC = 6, K = 3, S = 2 };
    static float ws[OC] = {0.01f, 0.02f, 0.005f, 0.03f, 0.015f, 0.008f};
    static int64_t wzp[OC];
    int32_t si[4] = {1, IH, IW, IC}, so[4] = {1, OH, OW, OC}, sw[4] = {OC, K, K, IC}, sb = OC;
    int32_t shape[4] = {1, OH, OW, OC}, in[4], out, m[OC];
    int8_t w[OC * K * K * IC];
    int64_t bias[OC], acc[OH * OW * OC];
    float sx = 0.001f, sy = 0.002f;
    int sh[OC], pad_t, pad_l, iy, ix, ky, kx, c, oc, i;
    int16_t *y;
    tflb_quant wq = {OC, ws, OC, wzp, 0};
    for (i = 0; i < OC * K * K * IC; i++)
        w[i] = (int8_t)((int32_t)(rng_next() % 255u) - 127);
    for (i = 0; i < OC; i++) /* an int16 bias: TFLite Micro widens it to int64 */
        bias[i] = bias16 ? (int64_t)((int32_t)(rng_next() % 60001u) - 30000)
                         : (int64_t)((int32_t)(rng_next() % 2000001u) - 1000000);
    in[0] = const_vec(g, "output_shape", shape, 4);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sw, 4, w, sizeof(w), &wq);
    in[2] = input16(g, "x", si, 4, sx);
    if (bias16) {
        int16_t b16[OC];
        for (i = 0; i < OC; i++)
            b16[i] = (int16_t)bias[i];
        in[3] = tflb_add_const(g->m, "bias", TFLB_INT16, &sb, 1, b16, sizeof(b16), NULL);
    } else {
        in[3] = tflb_add_const(g->m, "bias", TFLB_INT64, &sb, 1, bias, sizeof(bias), NULL);
    }
    out = act16(g, "y", so, 4, sy);
    {
        tflb_options o = tflb_opt_transpose_conv(TFLB_PAD_SAME, S, S, TFLB_ACT_RELU);
        op(g, TE_OP_TRANSPOSE_CONV, in, 4, &out, 1, o);
    }
    finish(g, &out, 1);
    /* padding.h ComputePaddingHeightWidth on the output size */
    pad_t = ((OH + S - 1) / S - 1) * S + K - OH;
    pad_l = ((OW + S - 1) / S - 1) * S + K - OW;
    pad_t = pad_t > 0 ? pad_t / 2 : 0;
    pad_l = pad_l > 0 ? pad_l / 2 : 0;
    memset(acc, 0, sizeof(acc));
    for (iy = 0; iy < IH; iy++)
        for (ix = 0; ix < IW; ix++)
            for (ky = 0; ky < K; ky++)
                for (kx = 0; kx < K; kx++) {
                    int oy = iy * S - pad_t + ky, ox = ix * S - pad_l + kx;
                    if (oy < 0 || oy >= OH || ox < 0 || ox >= OW)
                        continue;
                    for (oc = 0; oc < OC; oc++)
                        for (c = 0; c < IC; c++)
                            acc[(oy * OW + ox) * OC + oc] +=
                                (int32_t)g->in_vals[0][(iy * IW + ix) * IC + c] *
                                w[((oc * K + ky) * K + kx) * IC + c];
                }
    for (oc = 0; oc < OC; oc++)
        quantize_multiplier((double)sx * (double)ws[oc] / (double)sy, &m[oc], &sh[oc]);
    y = expect(g, OH * OW * OC);
    for (i = 0; i < OH * OW * OC; i++)
        y[i] = sat16(mbqm64(acc[i] + bias[i % OC], m[i % OC], sh[i % OC]));
    for (i = 0; i < OH * OW * OC; i++) /* the fused RELU (TFLite Micro since January 2026) */
        y[i] = y[i] < 0 ? 0 : y[i];
}

static void k_transpose_conv(gen *g) { tconv_kind(g, 0); }
static void k_transpose_conv_bias16(gen *g) { tconv_kind(g, 1); }


/* A FULLY_CONNECTED 16x8 whose output scale is so small that the multiplier
 * leaves TFLite's int64 requantization (shift above 7, which TFLite
 * asserts): the compiler must refuse it.  refuse.txt holds the message. */
static void k_refuse_fc_out_scale(gen *g)
{
    static float ws = 0.01f;
    static int64_t wzp = 0;
    int32_t si[2] = {1, 8}, sw[2] = {4, 8}, so[2] = {1, 4}, in[2], out;
    int8_t w[32] = {0};
    tflb_quant wq = tflb_quant1(&ws, &wzp);
    in[0] = input16(g, "x", si, 2, 0.5f);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sw, 2, w, sizeof(w), &wq);
    out = act16(g, "y", so, 2, 1e-6f);
    op(g, TE_OP_FULLY_CONNECTED, in, 2, &out, 1, tflb_opt_fc(TFLB_ACT_NONE, 0));
    finish(g, &out, 1);
    g->refuse = "too small for the input and weight scales";
}


/* EMBEDDING_LOOKUP's hybrid path (embedding_lookup.cc EvalHybrid): rows of
 * an int8 table (zero point 0) picked by int32 ids, dequantized into
 * float32 as (float)v * scale. */
static void k_embedding_hybrid(gen *g)
{
    enum { ROWS = 7, COLS = 6, LOOKUPS = 4 };
    static float scale = 0.0371f;
    static int64_t zp0 = 0;
    int32_t sv[2] = {ROWS, COLS}, si = LOOKUPS, so[2] = {LOOKUPS, COLS}, in[2], out, i, j;
    int32_t ids[LOOKUPS] = {3, 0, 6, 3};
    int8_t table[ROWS * COLS];
    tflb_quant q = tflb_quant1(&scale, &zp0);
    float *y;
    for (i = 0; i < ROWS * COLS; i++)
        table[i] = (int8_t)((int32_t)(rng_next() % 256u) - 128);
    in[0] = tflb_add_tensor(g->m, "ids", TFLB_INT32, &si, 1, 0, NULL);
    in[1] = tflb_add_const(g->m, "table", TFLB_INT8, sv, 2, table, sizeof(table), &q);
    out = tflb_add_tensor(g->m, "y", TFLB_FLOAT32, so, 2, 0, NULL);
    op(g, TE_OP_EMBEDDING_LOOKUP, in, 2, &out, 1, tflb_opt_none());
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = LOOKUPS;
    g->in_i32[g->n_in] = malloc(sizeof(ids));
    if (!g->in_i32[g->n_in])
        exit(1);
    memcpy(g->in_i32[g->n_in++], ids, sizeof(ids));
    finish(g, &out, 1);
    y = malloc(sizeof(float) * LOOKUPS * COLS);
    if (!y)
        exit(1);
    for (i = 0; i < LOOKUPS; i++)
        for (j = 0; j < COLS; j++)
            y[i * COLS + j] = (float)table[ids[i] * COLS + j] * scale;
    g->expect_elems[g->n_expect] = LOOKUPS * COLS;
    g->expect_f32[g->n_expect++] = y;
}


/* GREATER on int16, input 2 broadcast (comparisons.cc: left shift 8, each
 * input's own scale as a QuantizeMultiplierSmallerThanOneExp multiplier). */
static void k_greater(gen *g)
{
    int32_t s[4] = {1, 3, 4, 5}, sb[4] = {1, 1, 1, 5}, in[2], out, i, n = 60, m1, m2;
    float sa = 0.001f, sbs = 0.0013f;
    int s1, s2;
    int16_t *y;
    in[0] = input16(g, "a", s, 4, sa);
    in[1] = input16(g, "b", sb, 4, sbs);
    out = tflb_add_tensor(g->m, "y", TFLB_BOOL, s, 4, 0, NULL);
    op(g, TE_OP_GREATER, in, 2, &out, 1, tflb_opt_empty(TE_OPT_GREATER));
    finish(g, &out, 1);
    quantize_multiplier((double)sa, &m1, &s1);
    quantize_multiplier((double)sbs, &m2, &s2);
    g->expect_bool[g->n_expect] = 1;
    y = expect(g, n);
    for (i = 0; i < n; i++) {
        int32_t a = mbqm_small(g->in_vals[0][i] * (1 << 8), m1, s1);
        int32_t b = mbqm_small(g->in_vals[1][bcast_index(sb, s, i)] * (1 << 8), m2, s2);
        y[i] = (int16_t)(a > b);
    }
}


/* UNIDIRECTIONAL_SEQUENCE_LSTM 16x8 (EvalLstm<int16_t, int8_t, int16_t,
 * int64_t>): int16 input and hidden state (zero points 0), int8 weights,
 * int64 biases, int16 cell state of scale 2^-11, batch major, three steps
 * from the zero state.  Per step and gate (TFLite's order: input, forget,
 * cell, output tensors): both products summed in int64, requantized by the
 * int64 MultiplyByQuantizedMultiplier to Q3.12 with the multiplier
 * float(s_in x s_w) / 2^-12, clamped, added with saturation; sigmoid
 * (tanh for the cell gate); cell = forget x cell + input x cell gate;
 * hidden = tanh(cell) x output. */
static void k_lstm16(gen *g)
{
    enum { T = 3, NI = 5, NS = 4 };
    static float sx = 0.0005f, sh = 0.00004f, sc = 1.0f / 2048.0f;
    static float sw[8] = {0.011f, 0.009f, 0.013f, 0.007f, 0.012f, 0.01f, 0.008f, 0.014f};
    static int64_t zp0 = 0;
    const float q15 = 1.0f / 32768.0f;
    int32_t shape_x[3] = {1, T, NI}, shape_s[2] = {1, NS}, shape_o[3] = {1, T, NS};
    int32_t shape_wi[2] = {NS, NI}, shape_wr[2] = {NS, NS}, shape_b = NS, in[24], out, hid, cel;
    int8_t w[8][NS * NS > NS * NI ? NS * NS : NS * NI];
    int64_t bias[4][NS];
    int32_t m[8], mf, mi, mh, k, r, j, t;
    int sh8[8], sf, si, shh;
    int16_t h[NS] = {0}, cell[NS] = {0}, gate[4][NS], th[NS], *y;
    tflb_quant qh = tflb_quant1(&sh, &zp0), qc = tflb_quant1(&sc, &zp0);
    char name[16];
    for (k = 0; k < 24; k++)
        in[k] = -1;
    in[0] = input16(g, "x", shape_x, 3, sx);
    for (k = 0; k < 8; k++) {
        tflb_quant qw = tflb_quant1(&sw[k], &zp0);
        int n = k < 4 ? NS * NI : NS * NS;
        for (j = 0; j < n; j++)
            w[k][j] = (int8_t)((int32_t)(rng_next() % 255u) - 127);
        snprintf(name, sizeof name, "w%d", k);
        in[1 + k] = tflb_add_const(g->m, name, TFLB_INT8, k < 4 ? shape_wi : shape_wr, 2, w[k],
                                   (size_t)n, &qw);
    }
    for (k = 0; k < 4; k++) {
        for (r = 0; r < NS; r++)
            bias[k][r] = (int64_t)((int32_t)(rng_next() % 4000001u) - 2000000);
        snprintf(name, sizeof name, "b%d", k);
        in[12 + k] = tflb_add_const(g->m, name, TFLB_INT64, &shape_b, 1, bias[k], sizeof(bias[k]),
                                    NULL);
    }
    hid = tflb_add_tensor(g->m, "hidden", TFLB_INT16, shape_s, 2, 0, &qh);
    cel = tflb_add_tensor(g->m, "cell", TFLB_INT16, shape_s, 2, 0, &qc);
    g->m->tensors[hid].is_variable = 1;
    g->m->tensors[cel].is_variable = 1;
    in[18] = hid;
    in[19] = cel;
    out = tflb_add_tensor(g->m, "y", TFLB_INT16, shape_o, 3, 0, &qh);
    op(g, TE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, in, 24, &out, 1,
       tflb_opt_sequence_lstm(4 /* TANH */, 0.0f, 0));
    finish(g, &out, 1);
    for (k = 0; k < 8; k++)
        quantize_multiplier((double)((k < 4 ? sx : sh) * sw[k]) / (double)(1.0f / 4096.0f), &m[k],
                            &sh8[k]);
    quantize_multiplier((double)q15 * (double)sc / (double)sc, &mf, &sf);
    quantize_multiplier((double)q15 * (double)q15 / (double)sc, &mi, &si);
    quantize_multiplier((double)q15 * (double)q15 / (double)sh, &mh, &shh);
    y = expect(g, T * NS);
    for (t = 0; t < T; t++) {
        const int16_t *x = g->in_vals[0] + t * NI;
        for (k = 0; k < 4; k++) { /* input, forget, cell, output */
            for (r = 0; r < NS; r++) {
                int64_t a = bias[k][r], c = 0;
                for (j = 0; j < NI; j++)
                    a += (int32_t)w[k][r * NI + j] * x[j];
                for (j = 0; j < NS; j++)
                    c += (int32_t)w[4 + k][r * NS + j] * h[j];
                gate[k][r] = sat16(sat16(mbqm64(a, m[k], sh8[k])) +
                                   sat16(mbqm64(c, m[4 + k], sh8[4 + k])));
            }
            if (k == 2)
                te_tanh_s16(gate[k], gate[k], NS, 3, 0);
            else
                te_sigmoid_s16(gate[k], gate[k], NS, 3, 0);
        }
        for (r = 0; r < NS; r++)
            cell[r] = sat16(sat16(mbqm(gate[1][r] * cell[r], mf, sf)) +
                            sat16(mbqm(gate[0][r] * gate[2][r], mi, si)));
        te_tanh_s16(cell, th, NS, 6, 0); /* cell scale 2^-11 (the int8 LSTM's rescaling) */
        for (r = 0; r < NS; r++)
            y[t * NS + r] = h[r] = sat16(mbqm(th[r] * gate[3][r], mh, shh));
    }
}


/* FULLY_CONNECTED int8 with a negative per-channel weight scale whose
 * multiplier is exactly INT32_MIN (input scale 1 + 2^-23, weight scale
 * -(1 - 2^-23), output scale 1), bias INT32_MIN on that unit and inputs at
 * the zero point: the accumulator is INT32_MIN, TFLite's doubling high
 * multiply saturates to INT32_MAX and the output clamps to 127 (a fast
 * kernel's rounding shortcut, exact for multipliers in [0, 2^31), gave
 * -128).  Written as an int8 kind of one form. */
static void k_fc_int8_min_multiplier(gen *g)
{
    static float sx = 1.0f + 1.0f / 8388608.0f, sy = 1.0f;
    static float ws[2] = {0.01f, -(1.0f - 1.0f / 8388608.0f)};
    static int64_t zx = 3, zy = 0, wzp[2] = {0, 0};
    int32_t si[2] = {1, 4}, sw[2] = {2, 4}, so[2] = {1, 2}, sb = 2, in[3], out;
    int8_t w[8] = {5, -7, 9, 11, 1, 2, 3, 4};
    int32_t bias[2] = {1000, INT32_MIN};
    tflb_quant qx = tflb_quant1(&sx, &zx), qy = tflb_quant1(&sy, &zy);
    tflb_quant qw = {2, ws, 2, wzp, 0};
    int16_t *y;
    int32_t m, acc = 1000, k;
    int sh;
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, si, 2, 0, &qx);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sw, 2, w, sizeof(w), &qw);
    in[2] = tflb_add_const(g->m, "bias", TFLB_INT32, &sb, 1, bias, sizeof(bias), NULL);
    out = tflb_add_tensor(g->m, "y", TFLB_INT8, so, 2, 0, &qy);
    op(g, TE_OP_FULLY_CONNECTED, in, 3, &out, 1, tflb_opt_fc(TFLB_ACT_NONE, 0));
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = 4;
    g->in_vals[g->n_in++] = input_values(g, 4);
    for (k = 0; k < 4; k++)
        g->in_vals[0][k] = 3; /* the zero point */
    g->in_bits = 8;
    finish(g, &out, 1);
    g->expect_bool[g->n_expect] = 1; /* int8 values, one byte each */
    y = expect(g, 2);
    quantize_multiplier((double)sx * (double)ws[0] / (double)sy, &m, &sh);
    acc = mbqm(acc, m, sh);
    y[0] = (int16_t)(acc > 127 ? 127 : acc < -128 ? -128 : acc);
    quantize_multiplier((double)sx * (double)ws[1] / (double)sy, &m, &sh);
    y[1] = m == INT32_MIN && srdhm(INT32_MIN, m) == INT32_MAX ? 127 : -999;
}


/* CONV_2D int8, 1x1 over 1025 channels of weight -128, whose requantized
 * accumulator plus the output zero point wraps int32 at the top of its
 * range (multiplier 2147483600, shift 6; TFLite's `acc += output_offset`
 * wraps on the hosts it runs on, and so do our kernels): the output is not
 * monotonic in the accumulator, so it is not the constant the ends of the
 * range give.  Inputs 0 and 127 at two pixels. */
static void k_conv_int8_zp_wrap(gen *g)
{
    enum { C = 1025 };
    static float sx = 0.01f, sw = 6400.0f, sy = 1.0f;
    static int64_t zx = 0, zw = 0, zy = 127;
    static int8_t w[C];
    int32_t si[4] = {1, 1, 2, C}, sk[4] = {1, 1, 1, C}, so[4] = {1, 1, 2, 1}, sb = 1, in[3], out;
    int32_t bias = 16760831, m, k, px;
    tflb_quant qx = tflb_quant1(&sx, &zx), qw = tflb_quant1(&sw, &zw), qy = tflb_quant1(&sy, &zy);
    int16_t *y;
    int sh;
    for (k = 0; k < C; k++)
        w[k] = -128;
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, si, 4, 0, &qx);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sk, 4, w, sizeof(w), &qw);
    in[2] = tflb_add_const(g->m, "bias", TFLB_INT32, &sb, 1, &bias, sizeof(bias), NULL);
    out = tflb_add_tensor(g->m, "y", TFLB_INT8, so, 4, 0, &qy);
    op(g, TE_OP_CONV_2D, in, 3, &out, 1, tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, TFLB_ACT_NONE));
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = 2 * C;
    g->in_vals[g->n_in++] = input_values(g, 2 * C);
    for (k = 0; k < 2 * C; k++)
        g->in_vals[0][k] = (int16_t)(k < C ? 0 : 127);
    g->in_bits = 8;
    finish(g, &out, 1);
    quantize_multiplier((double)sx * (double)sw / (double)sy, &m, &sh);
    g->expect_bool[g->n_expect] = 1; /* int8 values, one byte each */
    y = expect(g, 2);
    for (px = 0; px < 2; px++) {
        uint32_t acc = (uint32_t)bias, v;
        int32_t q;
        for (k = 0; k < C; k++)
            acc += (uint32_t)(w[k] * g->in_vals[0][px * C + k]);
        v = (uint32_t)mbqm((int32_t)acc, m, sh) + (uint32_t)zy; /* wraps as TFLite's */
        q = (int32_t)v;
        y[px] = (int16_t)(q > 127 ? 127 : q < -128 ? -128 : q);
    }
}


/* A FULLY_CONNECTED int8 with one negative per-tensor weight scale: TFLite
 * Micro refuses it (GetQuantizedConvolutionMultipler ensures the product of
 * the input and weight scales is not negative); the reader refuses every
 * per-tensor scale that is not positive (the fast kernels assume a
 * multiplier of at least 0 there). */
static void k_refuse_fc_negative_scale(gen *g)
{
    static float sx = 0.02f, sw = -0.01f, sy = 0.05f;
    static int64_t zx = 0, zw = 0, zy = 0;
    int32_t si[2] = {1, 4}, sw2[2] = {2, 4}, so[2] = {1, 2}, in[2], out;
    int8_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tflb_quant qx = tflb_quant1(&sx, &zx), qw = tflb_quant1(&sw, &zw), qy = tflb_quant1(&sy, &zy);
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, si, 2, 0, &qx);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sw2, 2, w, sizeof(w), &qw);
    out = tflb_add_tensor(g->m, "y", TFLB_INT8, so, 2, 0, &qy);
    op(g, TE_OP_FULLY_CONNECTED, in, 2, &out, 1, tflb_opt_fc(TFLB_ACT_NONE, 0));
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = 4;
    g->in_vals[g->n_in++] = input_values(g, 4);
    g->in_bits = 8;
    finish(g, &out, 1);
    g->refuse = "must be finite and > 0";
}

/* ---------------------------------------------------------------------
 * Unquantized int32 and float32 binary ops (shape arithmetic, float
 * tails): x of shape 2x3x4 and y of shape 3x1 (broadcast) into ADD (RELU),
 * SUB (RELU), MUL (RELU6), MAXIMUM, MINIMUM (y first) and
 * SQUARED_DIFFERENCE.  TFLite Micro: int32 ADD keeps the whole int32 range
 * whatever the activation (EvalAdd), SUB and MUL clamp to
 * CalculateActivationRange's; float32 ADD, SUB and MUL clamp as
 * std::min(std::max(v, lo), hi); MAXIMUM / MINIMUM compare el1 > el2 /
 * el1 < el2; nothing wider than the type: int32 results wrap. */

enum { BIN_X = 24, BIN_Y = 3, BIN_OPS = 6 };

static const int BIN_BUILTIN[BIN_OPS] = {TE_OP_ADD, TE_OP_SUB, TE_OP_MUL, TE_OP_MAXIMUM,
                                         TE_OP_MINIMUM, TE_OP_SQUARED_DIFFERENCE};

static tflb_options bin_options(int k)
{
    switch (BIN_BUILTIN[k]) {
    case TE_OP_ADD:
        return tflb_opt_add(TFLB_ACT_RELU);
    case TE_OP_SUB:
        return tflb_opt_sub(TFLB_ACT_RELU);
    case TE_OP_MUL:
        return tflb_opt_mul(TFLB_ACT_RELU6);
    default:
        return tflb_opt_empty(BIN_BUILTIN[k] == TE_OP_SQUARED_DIFFERENCE
                                  ? TE_OPT_SQUARED_DIFFERENCE
                                  : TE_OPT_MAXIMUM_MINIMUM);
    }
}

/* The model of both kinds; type TFLB_INT32 or TFLB_FLOAT32, whose inputs
 * the caller sets. */
static void bin_model(gen *g, int type)
{
    int32_t sx[3] = {2, 3, 4}, sy[2] = {3, 1}, in[2], pair[2], outs[BIN_OPS];
    int k;
    static const char *const names[BIN_OPS] = {"sum", "difference", "product", "maximum",
                                               "minimum", "squared_difference"};
    in[0] = tflb_add_tensor(g->m, "x", type, sx, 3, 0, NULL);
    in[1] = tflb_add_tensor(g->m, "y", type, sy, 2, 0, NULL);
    for (k = 0; k < BIN_OPS; k++) {
        outs[k] = tflb_add_tensor(g->m, names[k], type, sx, 3, 0, NULL);
        pair[0] = in[BIN_BUILTIN[k] == TE_OP_MINIMUM];
        pair[1] = in[BIN_BUILTIN[k] != TE_OP_MINIMUM];
        op(g, BIN_BUILTIN[k], pair, 2, &outs[k], 1, bin_options(k));
    }
    g->in_ids[0] = in[0];
    g->in_ids[1] = in[1];
    g->in_elems[0] = BIN_X;
    g->in_elems[1] = BIN_Y;
    g->n_in = 2;
    finish(g, outs, BIN_OPS);
}

static void *alloc_or_die(size_t n)
{
    void *p = calloc(n, 1);
    if (!p) {
        fprintf(stderr, "te_mkref: out of memory\n");
        exit(1);
    }
    return p;
}

static int32_t clamp_i32(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void k_binary_i32(gen *g)
{
    int32_t *x = alloc_or_die(4 * BIN_X), *y = alloc_or_die(4 * BIN_Y), i, k;
    bin_model(g, TFLB_INT32);
    for (i = 0; i < BIN_X; i++) /* some products and squares wrap */
        x[i] = (int32_t)(rng_next() % 200001u) - 100000;
    y[0] = 3;
    y[1] = -7;
    y[2] = 65537;
    g->in_i32[0] = x;
    g->in_i32[1] = y;
    for (k = 0; k < BIN_OPS; k++) {
        int32_t *o = alloc_or_die(4 * BIN_X);
        for (i = 0; i < BIN_X; i++) {
            uint32_t a = (uint32_t)x[i], b = (uint32_t)y[(i / 4) % 3];
            switch (BIN_BUILTIN[k]) {
            case TE_OP_ADD: o[i] = (int32_t)(a + b); break;
            case TE_OP_SUB: o[i] = clamp_i32((int32_t)(a - b), 0, INT32_MAX); break;
            case TE_OP_MUL: o[i] = clamp_i32((int32_t)(a * b), 0, 6); break;
            case TE_OP_MAXIMUM: o[i] = (int32_t)a > (int32_t)b ? (int32_t)a : (int32_t)b; break;
            case TE_OP_MINIMUM: o[i] = (int32_t)b < (int32_t)a ? (int32_t)b : (int32_t)a; break;
            default: o[i] = (int32_t)((a - b) * (a - b)); break;
            }
        }
        g->expect_elems[g->n_expect] = BIN_X;
        g->expect_i32[g->n_expect++] = o;
    }
}

static float clamp_f32(float v, float lo, float hi)
{
    v = v < lo ? lo : v;
    return hi < v ? hi : v;
}

static void k_binary_f32(gen *g)
{
    float *x = alloc_or_die(4 * BIN_X), *y = alloc_or_die(4 * BIN_Y);
    int32_t i, k;
    bin_model(g, TFLB_FLOAT32);
    for (i = 0; i < BIN_X; i++)
        x[i] = (float)((int32_t)(rng_next() % 20001u) - 10000) / 1250.0f;
    y[0] = 0.75f;
    y[1] = -2.5f;
    y[2] = 3.0e38f; /* sums and products past the float range clamp to FLT_MAX */
    g->in_f32[0] = x;
    g->in_f32[1] = y;
    for (k = 0; k < BIN_OPS; k++) {
        float *o = alloc_or_die(4 * BIN_X);
        for (i = 0; i < BIN_X; i++) {
            float a = x[i], b = y[(i / 4) % 3], d = a - b;
            switch (BIN_BUILTIN[k]) {
            case TE_OP_ADD: o[i] = clamp_f32(a + b, 0.0f, 3.402823466e38f); break;
            case TE_OP_SUB: o[i] = clamp_f32(a - b, 0.0f, 3.402823466e38f); break;
            case TE_OP_MUL: o[i] = clamp_f32(a * b, 0.0f, 6.0f); break;
            case TE_OP_MAXIMUM: o[i] = a > b ? a : b; break;
            case TE_OP_MINIMUM: o[i] = b < a ? b : a; break;
            default: o[i] = d * d; break; /* may be +inf: not clamped */
            }
        }
        g->expect_elems[g->n_expect] = BIN_X;
        g->expect_f32[g->n_expect++] = o;
    }
}

/* FULLY_CONNECTED int8 with per-channel weights and keep_num_dims: input
 * 2x3x5, output 2x3x4 (TFLite Micro's FullyConnectedPerChannel: the
 * output's leading dimensions are the batches; per unit c the multiplier
 * of double(s_in) x double(s_w[c]) / double(s_out), zero-point offsets on
 * the input only). */
static void k_fc_per_channel_rank3(gen *g)
{
    enum { B = 6, D = 5, U = 4 };
    static float sx = 0.031f, sy = 0.07f, ws[U] = {0.004f, 0.011f, 0.0023f, 0.0071f};
    static int64_t zx = -7, zy = 4, wzp[U] = {0, 0, 0, 0};
    int32_t si[3] = {2, 3, D}, sw[2] = {U, D}, so[3] = {2, 3, U}, sb = U, in[3], out, b, c, k;
    int8_t w[U * D];
    int32_t bias[U] = {700, -1500, 42, 0};
    tflb_quant qx = tflb_quant1(&sx, &zx), qy = tflb_quant1(&sy, &zy);
    tflb_quant qw = {U, ws, U, wzp, 0};
    int16_t *y;
    for (k = 0; k < U * D; k++)
        w[k] = (int8_t)((int32_t)(rng_next() % 255u) - 127);
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, si, 3, 0, &qx);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sw, 2, w, sizeof(w), &qw);
    in[2] = tflb_add_const(g->m, "bias", TFLB_INT32, &sb, 1, bias, sizeof(bias), NULL);
    out = tflb_add_tensor(g->m, "y", TFLB_INT8, so, 3, 0, &qy);
    op(g, TE_OP_FULLY_CONNECTED, in, 3, &out, 1, tflb_opt_fc(TFLB_ACT_RELU, 1));
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = B * D;
    g->in_vals[g->n_in++] = input_values(g, B * D);
    for (k = 0; k < B * D; k++) /* the int8 values the file holds */
        g->in_vals[0][k] = (int8_t)g->in_vals[0][k];
    g->in_bits = 8;
    finish(g, &out, 1);
    g->expect_bool[g->n_expect] = 1; /* int8 values, one byte each */
    y = expect(g, B * U);
    for (c = 0; c < U; c++) {
        int32_t m;
        int sh;
        quantize_multiplier((double)sx * (double)ws[c] / (double)sy, &m, &sh);
        for (b = 0; b < B; b++) {
            int32_t acc = bias[c], v;
            for (k = 0; k < D; k++)
                acc += w[c * D + k] * (g->in_vals[0][b * D + k] - (int32_t)zx);
            v = mbqm(acc, m, sh) + (int32_t)zy;
            y[b * U + c] = (int16_t)(v > 127 ? 127 : v < (int32_t)zy ? (int32_t)zy : v);
        }
    }
}

/* DEQUANTIZE uint8 -> float32 (dequantize.cc's uint8 case, old uint8
 * models' float tails): static_cast<float>(double(scale) * (x - zp)). */
static void k_dequantize_u8(gen *g)
{
    enum { N = 256 };
    static float scale = 0.0371f;
    static int64_t zp = 130;
    int32_t s[2] = {16, 16}, in, out, i;
    tflb_quant q = tflb_quant1(&scale, &zp);
    float *y = malloc(sizeof(float) * N);
    if (!y)
        exit(1);
    in = tflb_add_tensor(g->m, "x", TFLB_UINT8, s, 2, 0, &q);
    out = tflb_add_tensor(g->m, "y", TFLB_FLOAT32, s, 2, 0, NULL);
    op(g, TE_OP_DEQUANTIZE, &in, 1, &out, 1, tflb_opt_none());
    g->in_ids[g->n_in] = in;
    g->in_elems[g->n_in] = N;
    g->in_vals[g->n_in] = input_values(g, N);
    for (i = 0; i < N; i++) /* every uint8 value once, in a shuffled order */
        g->in_vals[g->n_in][i] = (int16_t)((i * 37 + 11) % 256);
    g->n_in++;
    g->in_bits = 8;
    finish(g, &out, 1);
    for (i = 0; i < N; i++)
        y[i] = (float)((double)scale * (g->in_vals[0][i] - (int32_t)zp));
    g->expect_elems[g->n_expect] = N;
    g->expect_f32[g->n_expect++] = y;
}

/* CAST bool -> float32 (cast.cc's bool case: a mask made 0 / 1), the
 * mask from a GREATER of int8 inputs. */
static void k_cast_bool(gen *g)
{
    enum { N = 24 };
    static float scale = 0.05f;
    static int64_t zp = -3;
    int32_t s[2] = {4, 6}, one = 1, in[2], mask, out, i;
    tflb_quant q = tflb_quant1(&scale, &zp);
    int8_t c = 7;
    float *y = malloc(sizeof(float) * N);
    if (!y)
        exit(1);
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, s, 2, 0, &q);
    in[1] = tflb_add_const(g->m, "threshold", TFLB_INT8, &one, 1, &c, 1, &q);
    mask = tflb_add_tensor(g->m, "mask", TFLB_BOOL, s, 2, 0, NULL);
    out = tflb_add_tensor(g->m, "y", TFLB_FLOAT32, s, 2, 0, NULL);
    op(g, TE_OP_GREATER, in, 2, &mask, 1, tflb_opt_empty(TE_OPT_GREATER));
    op(g, TE_OP_CAST, &mask, 1, &out, 1, tflb_opt_none());
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = N;
    g->in_vals[g->n_in] = input_values(g, N);
    for (i = 0; i < N; i++)
        g->in_vals[g->n_in][i] = (int16_t)(i - 5);
    g->n_in++;
    g->in_bits = 8;
    finish(g, &out, 1);
    for (i = 0; i < N; i++)
        y[i] = g->in_vals[0][i] > c ? 1.0f : 0.0f;
    g->expect_elems[g->n_expect] = N;
    g->expect_f32[g->n_expect++] = y;
}

/* A RESHAPE whose int32 shape constant carries a quantization scale of 0
 * (some exporters write one; TFLite Micro never looks at it): the model
 * compiles and the output is the input's bytes. */
static void k_zero_scale_shape(gen *g)
{
    enum { N = 12 };
    static float scale = 0.05f, zero = 0.0f;
    static int64_t zp = -3, zp0 = 0;
    int32_t si[2] = {2, 6}, so[2] = {3, 4}, n2 = 2, in[2], out, i;
    tflb_quant q = tflb_quant1(&scale, &zp), qz = tflb_quant1(&zero, &zp0);
    int16_t *y;
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, si, 2, 0, &q);
    in[1] = tflb_add_const(g->m, "shape", TFLB_INT32, &n2, 1, so, sizeof(so), &qz);
    out = tflb_add_tensor(g->m, "y", TFLB_INT8, so, 2, 0, &q);
    op(g, TE_OP_RESHAPE, in, 2, &out, 1, tflb_opt_none());
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = N;
    g->in_vals[g->n_in] = input_values(g, N);
    for (i = 0; i < N; i++)
        g->in_vals[g->n_in][i] = (int16_t)(i * 21 - 128);
    g->n_in++;
    g->in_bits = 8;
    finish(g, &out, 1);
    g->expect_bool[g->n_expect] = 1; /* int8 values, one byte each */
    y = expect(g, N);
    for (i = 0; i < N; i++)
        y[i] = g->in_vals[0][i];
}

/* CONV_2D 16x8 without a bias (and no quantized_bias_type hint): TFLite
 * Micro accumulates in int64 (since its PR 3598; the sums here pass 2^31,
 * which the int32 path would wrap) and requantizes with the int64
 * MultiplyByQuantizedMultiplier.  1x1 kernel over 600 channels. */
static void k_conv_s16_nobias(gen *g)
{
    enum { P = 4, IC = 600, OC = 2 };
    static float ws[OC] = {0.002f, 0.0007f};
    static int64_t wzp[OC];
    int32_t si[4] = {1, 2, 2, IC}, sw[4] = {OC, 1, 1, IC}, so[4] = {1, 2, 2, OC}, in[2], out;
    int32_t i, c, p, m[OC];
    int sh[OC];
    float sx = 0.0004f, sy = 0.9f;
    static int8_t w[OC * IC];
    tflb_quant wq = {OC, ws, OC, wzp, 0};
    int16_t *y;
    for (i = 0; i < OC * IC; i++) /* channel 0 all +127, channel 1 mixed */
        w[i] = (int8_t)(i < IC ? 127 : (int32_t)(rng_next() % 255u) - 127);
    in[0] = input16(g, "x", si, 4, sx);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sw, 4, w, sizeof(w), &wq);
    out = act16(g, "y", so, 4, sy);
    op(g, TE_OP_CONV_2D, in, 2, &out, 1, tflb_opt_conv2d(TFLB_PAD_VALID, 1, 1, TFLB_ACT_NONE));
    finish(g, &out, 1);
    for (i = 0; i < P * IC; i++) /* pixel 0 at the top of the range: the sum passes 2^31 */
        if (i < IC)
            g->in_vals[0][i] = 32767;
    for (c = 0; c < OC; c++)
        quantize_multiplier((double)sx * (double)ws[c] / (double)sy, &m[c], &sh[c]);
    y = expect(g, P * OC);
    for (p = 0; p < P; p++)
        for (c = 0; c < OC; c++) {
            int64_t acc = 0;
            for (i = 0; i < IC; i++)
                acc += (int64_t)g->in_vals[0][p * IC + i] * w[c * IC + i];
            y[p * OC + c] = sat16(mbqm64(acc, m[c], sh[c]));
        }
}

/* FULLY_CONNECTED int8 with weights of a non-zero zero point, TFLite
 * Micro's per-tensor FullyConnected: sum (w - zw) * (x - zx) + bias, the
 * multiplier of double(float(s_in * s_w)) / double(s_out).  Output 0:
 * the weights are the second input, an activation (an attention MatMul
 * converted to FULLY_CONNECTED), no bias; output 1: constant weights of
 * zero point -3 (a QAT layer), with a bias. */
static void k_fc_weights_zero_point(gen *g)
{
    enum { B = 3, D = 7, U = 4 };
    static float sx = 0.02f, sa = 0.015f, sw = 0.004f, sy0 = 0.3f, sy1 = 0.05f;
    static int64_t zx = 6, za = 5, zw = -3, zy0 = -2, zy1 = 9;
    int32_t si[2] = {B, D}, sws[2] = {U, D}, so[2] = {B, U}, sb = U, in[3], out[2];
    int32_t b, u, k, i0, a_id;
    int32_t bias[U] = {300, -200, 0, 77};
    int8_t w[U * D];
    tflb_quant qx = tflb_quant1(&sx, &zx), qa = tflb_quant1(&sa, &za), qw = tflb_quant1(&sw, &zw);
    tflb_quant qy0 = tflb_quant1(&sy0, &zy0), qy1 = tflb_quant1(&sy1, &zy1);
    int16_t *y;
    for (k = 0; k < U * D; k++)
        w[k] = (int8_t)((int32_t)(rng_next() % 256u) - 128);
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, si, 2, 0, &qx);
    in[1] = a_id = tflb_add_tensor(g->m, "a", TFLB_INT8, sws, 2, 0, &qa);
    out[0] = tflb_add_tensor(g->m, "y_activation_weights", TFLB_INT8, so, 2, 0, &qy0);
    op(g, TE_OP_FULLY_CONNECTED, in, 2, &out[0], 1, tflb_opt_fc(TFLB_ACT_NONE, 0));
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sws, 2, w, sizeof(w), &qw);
    in[2] = tflb_add_const(g->m, "bias", TFLB_INT32, &sb, 1, bias, sizeof(bias), NULL);
    out[1] = tflb_add_tensor(g->m, "y_qat", TFLB_INT8, so, 2, 0, &qy1);
    op(g, TE_OP_FULLY_CONNECTED, in, 3, &out[1], 1, tflb_opt_fc(TFLB_ACT_NONE, 0));
    for (k = 0; k < 2; k++) {
        int32_t n = k ? U * D : B * D, i;
        g->in_ids[g->n_in] = k ? a_id : in[0];
        g->in_elems[g->n_in] = n;
        g->in_vals[g->n_in] = input_values(g, n);
        for (i = 0; i < n; i++) /* the int8 values the file holds */
            g->in_vals[g->n_in][i] = (int8_t)g->in_vals[g->n_in][i];
        g->n_in++;
    }
    g->in_bits = 8;
    finish(g, out, 2);
    for (k = 0; k < 2; k++) {
        float ws = k ? sw : sa, ys = k ? sy1 : sy0;
        int32_t m, wz = (int32_t)(k ? zw : za), yz = (int32_t)(k ? zy1 : zy0);
        int sh;
        quantize_multiplier((double)(sx * ws) / (double)ys, &m, &sh);
        g->expect_bool[g->n_expect] = 1; /* int8 values, one byte each */
        y = expect(g, B * U);
        for (b = 0; b < B; b++)
            for (u = 0; u < U; u++) {
                int32_t acc = k ? bias[u] : 0, v;
                for (i0 = 0; i0 < D; i0++) {
                    int32_t wv = k ? w[u * D + i0] : g->in_vals[1][u * D + i0];
                    acc += (wv - wz) * (g->in_vals[0][b * D + i0] - (int32_t)zx);
                }
                v = mbqm(acc, m, sh) + yz;
                y[b * U + u] = (int16_t)(v > 127 ? 127 : v < -128 ? -128 : v);
            }
    }
}

/* RELU6 int16 with an input zero point of 100 (activations.cc Relu6Prepare:
 * zero = the input's zero point, six = FloatToQuantizedType<int16_t>(6,
 * scale, zero point); the output is the input clamped to [zero, six], raw,
 * whatever the output's quantization). */
static void k_relu6_s16_zero_point(gen *g)
{
    enum { N = 64 };
    static float si = 0.01f, so = 0.02f;
    static int64_t zi = 100, zo = 0;
    int32_t s[2] = {4, 16}, in, out, i;
    tflb_quant qi = tflb_quant1(&si, &zi), qo = tflb_quant1(&so, &zo);
    int16_t *y;
    in = tflb_add_tensor(g->m, "x", TFLB_INT16, s, 2, 0, &qi);
    out = tflb_add_tensor(g->m, "y", TFLB_INT16, s, 2, 0, &qo);
    op(g, TE_OP_RELU6, &in, 1, &out, 1, tflb_opt_none());
    g->in_ids[g->n_in] = in;
    g->in_elems[g->n_in] = N;
    g->in_vals[g->n_in] = input_values(g, N);
    for (i = 0; i < N; i++)
        g->in_vals[g->n_in][i] = (int16_t)(i * 23 - 400);
    g->n_in++;
    finish(g, &out, 1);
    y = expect(g, N);
    for (i = 0; i < N; i++) {
        int32_t x = g->in_vals[0][i], six = (int32_t)roundf(6.0f / si) + (int32_t)zi;
        y[i] = (int16_t)(x < zi ? zi : x > six ? six : x);
    }
}

/* REDUCE_ALL (TFLite Micro since December 2025: ReduceGeneric<bool> from
 * true with logical and) of a GREATER mask of int8 inputs: over the last
 * axis, and over axes {0, -1} with keep_dims. */
static void k_reduce_all(gen *g)
{
    enum { A = 2, B = 3, C = 4, N = A * B * C };
    static float scale = 0.05f;
    static int64_t zp = -3;
    int32_t s[3] = {A, B, C}, one = 1, so0[2] = {A, B}, so1[3] = {1, B, 1}, in[2], mask, out[2];
    int32_t ax0 = 2, ax1[2] = {0, -1}, two = 2, i, a, b, c, pair[2];
    tflb_quant q = tflb_quant1(&scale, &zp);
    int8_t t = -20;
    int16_t *y;
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, s, 3, 0, &q);
    in[1] = tflb_add_const(g->m, "threshold", TFLB_INT8, &one, 1, &t, 1, &q);
    mask = tflb_add_tensor(g->m, "mask", TFLB_BOOL, s, 3, 0, NULL);
    op(g, TE_OP_GREATER, in, 2, &mask, 1, tflb_opt_empty(TE_OPT_GREATER));
    out[0] = tflb_add_tensor(g->m, "all_last", TFLB_BOOL, so0, 2, 0, NULL);
    out[1] = tflb_add_tensor(g->m, "all_outer", TFLB_BOOL, so1, 3, 0, NULL);
    pair[0] = mask;
    pair[1] = const_i32(g, "axis_last", &ax0, 1, &one, 1);
    op(g, TE_OP_REDUCE_ALL, pair, 2, &out[0], 1, tflb_opt_reducer(0));
    pair[1] = const_i32(g, "axes_outer", ax1, 2, &two, 1);
    op(g, TE_OP_REDUCE_ALL, pair, 2, &out[1], 1, tflb_opt_reducer(1));
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = N;
    g->in_vals[g->n_in] = input_values(g, N);
    for (i = 0; i < N; i++) /* mostly above the threshold, a few below */
        g->in_vals[g->n_in][i] = (int16_t)(i % 7 == 3 || i == 22 ? -60 : 10 + i);
    g->n_in++;
    g->in_bits = 8;
    finish(g, out, 2);
    g->expect_bool[g->n_expect] = 1;
    y = expect(g, A * B);
    for (a = 0; a < A; a++)
        for (b = 0; b < B; b++) {
            y[a * B + b] = 1;
            for (c = 0; c < C; c++)
                y[a * B + b] &= g->in_vals[0][(a * B + b) * C + c] > t;
        }
    g->expect_bool[g->n_expect] = 1;
    y = expect(g, B);
    for (b = 0; b < B; b++) {
        y[b] = 1;
        for (a = 0; a < A; a++)
            for (c = 0; c < C; c++)
                y[b] &= g->in_vals[0][(a * B + b) * C + c] > t;
    }
}

/* QUANTIZE of a float32 constant, folded at compile time with the kernel's
 * arithmetic (AffineQuantize: roundf(x / scale) half away from zero, as an
 * int32 the x86-64 way, INT32_MIN out of range, + zero point wrapping as
 * the int32 addition does there, clamped),
 * concatenated after the int8 input x (same quantization: a raw copy). */
static void k_quantize_const_fold(gen *g)
{
    enum { N = 8, M = 10 };
    static float scale = 0.05f;
    static int64_t zp = -3;
    static const float c[M] = {0.0f, 0.025f, -0.025f, 0.075f, 1.0f, -6.4f, 6.5f, 0.124f,
                               1.0e10f, -1.0e10f};
    int32_t sx = N, sc = M, so = N + M, in[2], q, out, i;
    tflb_quant qq = tflb_quant1(&scale, &zp);
    int16_t *y;
    in[0] = tflb_add_tensor(g->m, "x", TFLB_INT8, &sx, 1, 0, &qq);
    in[1] = tflb_add_const(g->m, "c_float", TFLB_FLOAT32, &sc, 1, c, sizeof(c), NULL);
    q = tflb_add_tensor(g->m, "c", TFLB_INT8, &sc, 1, 0, &qq);
    op(g, TE_OP_QUANTIZE, &in[1], 1, &q, 1, tflb_opt_none());
    in[1] = q;
    out = tflb_add_tensor(g->m, "y", TFLB_INT8, &so, 1, 0, &qq);
    op(g, TE_OP_CONCATENATION, in, 2, &out, 1, tflb_opt_concat(0, TFLB_ACT_NONE));
    g->in_ids[g->n_in] = in[0];
    g->in_elems[g->n_in] = N;
    g->in_vals[g->n_in] = input_values(g, N);
    for (i = 0; i < N; i++)
        g->in_vals[g->n_in][i] = (int16_t)(i * 31 - 120);
    g->n_in++;
    g->in_bits = 8;
    finish(g, &out, 1);
    g->expect_bool[g->n_expect] = 1; /* int8 values, one byte each */
    y = expect(g, N + M);
    for (i = 0; i < N; i++)
        y[i] = g->in_vals[0][i];
    for (i = 0; i < M; i++) {
        float r = roundf(c[i] / scale);
        int32_t t = r > -2147483648.0f && r < 2147483648.0f ? (int32_t)r : INT32_MIN;
        int32_t v = (int32_t)((uint32_t)t + (uint32_t)zp); /* INT32_MIN - 3 wraps */
        y[N + i] = (int16_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
}

/* FULLY_CONNECTED 16x8 with an int32 bias (the converter's int32 bias type):
 * TFLite Micro's FullyConnected<int16_t, int8_t, int16_t, int32_t>, an int32
 * accumulator (wrapping) and the int32 MultiplyByQuantizedMultiplier of
 * float(s_in x s_w) / s_out. */
static void k_fc_s16_bias32(gen *g)
{
    enum { B = 2, D = 9, U = 3 };
    static float sw = 0.004f;
    static int64_t zw = 0;
    int32_t si[2] = {B, D}, sws[2] = {U, D}, so[2] = {B, U}, sb = U, in[3], out, b, u, k;
    int32_t bias[U] = {123456, -654321, 7};
    int8_t w[U * D];
    float sx = 0.0005f, sy = 0.002f;
    tflb_quant qw = tflb_quant1(&sw, &zw);
    int16_t *y;
    int32_t m;
    int sh;
    for (k = 0; k < U * D; k++)
        w[k] = (int8_t)((int32_t)(rng_next() % 255u) - 127);
    in[0] = input16(g, "x", si, 2, sx);
    in[1] = tflb_add_const(g->m, "weights", TFLB_INT8, sws, 2, w, sizeof(w), &qw);
    {
        static float sbias;
        static int64_t zb = 0;
        tflb_quant qb;
        sbias = sx * sw;
        qb = tflb_quant1(&sbias, &zb);
        in[2] = tflb_add_const(g->m, "bias", TFLB_INT32, &sb, 1, bias, sizeof(bias), &qb);
    }
    out = act16(g, "y", so, 2, sy);
    op(g, TE_OP_FULLY_CONNECTED, in, 3, &out, 1, tflb_opt_fc(TFLB_ACT_NONE, 0));
    finish(g, &out, 1);
    quantize_multiplier((double)(sx * sw) / (double)sy, &m, &sh);
    y = expect(g, B * U);
    for (b = 0; b < B; b++)
        for (u = 0; u < U; u++) {
            uint32_t acc = (uint32_t)bias[u];
            for (k = 0; k < D; k++)
                acc += (uint32_t)(g->in_vals[0][b * D + k] * w[u * D + k]);
            y[b * U + u] = sat16(mbqm((int32_t)acc, m, sh));
        }
}

/* AVERAGE_POOL_2D and MAX_POOL_2D (2x2, stride 2, fused RELU) whose output
 * quantization differs from the input's: TFLite Micro's pools average
 * (rounding half away from zero) or take the maximum of the raw values and
 * clamp to the output's activation range, nothing rescaled. */
static void k_pool_other_quant(gen *g)
{
    enum { H = 4, W = 6, C = 2, OH = 2, OW = 3 };
    static float si = 0.1f, so = 0.2f;
    static int64_t zi = 3, zo = -10;
    int32_t s[4] = {1, H, W, C}, s2[4] = {1, OH, OW, C}, in, out[2], k, y0, x0, c, dy, dx;
    tflb_quant qi = tflb_quant1(&si, &zi), qo = tflb_quant1(&so, &zo);
    int16_t *y;
    in = tflb_add_tensor(g->m, "x", TFLB_INT8, s, 4, 0, &qi);
    out[0] = tflb_add_tensor(g->m, "avg", TFLB_INT8, s2, 4, 0, &qo);
    out[1] = tflb_add_tensor(g->m, "max", TFLB_INT8, s2, 4, 0, &qo);
    op(g, TE_OP_AVERAGE_POOL_2D, &in, 1, &out[0], 1,
       tflb_opt_pool2d(TFLB_PAD_VALID, 2, 2, 2, 2, TFLB_ACT_RELU));
    op(g, TE_OP_MAX_POOL_2D, &in, 1, &out[1], 1,
       tflb_opt_pool2d(TFLB_PAD_VALID, 2, 2, 2, 2, TFLB_ACT_RELU));
    g->in_ids[g->n_in] = in;
    g->in_elems[g->n_in] = H * W * C;
    g->in_vals[g->n_in] = input_values(g, H * W * C);
    for (k = 0; k < H * W * C; k++)
        g->in_vals[g->n_in][k] = (int16_t)(int8_t)g->in_vals[g->n_in][k];
    g->n_in++;
    g->in_bits = 8;
    finish(g, out, 2);
    for (k = 0; k < 2; k++) {
        g->expect_bool[g->n_expect] = 1; /* int8 values, one byte each */
        y = expect(g, OH * OW * C);
        for (y0 = 0; y0 < OH; y0++)
            for (x0 = 0; x0 < OW; x0++)
                for (c = 0; c < C; c++) {
                    int32_t acc = 0, mx = -128, v;
                    for (dy = 0; dy < 2; dy++)
                        for (dx = 0; dx < 2; dx++) {
                            int32_t x = g->in_vals[0][((2 * y0 + dy) * W + 2 * x0 + dx) * C + c];
                            acc += x;
                            mx = x > mx ? x : mx;
                        }
                    v = k ? mx : acc > 0 ? (acc + 2) / 4 : (acc - 2) / 4;
                    v = v < (int32_t)zo ? (int32_t)zo : v > 127 ? 127 : v; /* RELU: [zo, 127] */
                    y[(y0 * OW + x0) * C + c] = (int16_t)v;
                }
    }
}

/* SLICE with begin or size computed at run time (graph inputs here), as
 * TFLite Micro reads them in Eval: int8 [2,6,5] from a run-time int32
 * begin {1,2,0} and a constant size {1,3,-1}; int16 [4,7] from a constant
 * int64 begin {1,3} and a run-time int64 size {2,-1} (its input file holds
 * the int64 values as pairs of little-endian int32 words). */
static void k_slice_dynamic(gen *g)
{
    int32_t sx[3] = {2, 6, 5}, sb = 3, so[3] = {1, 3, 5}, size[3] = {1, 3, -1};
    int32_t x, b, sz, y, in[3], i, j, k;
    int16_t *e = malloc(sizeof(int16_t) * 15);
    int32_t *bv = alloc_or_die(4 * 3);
    static float scale = 0.05f;
    static int64_t zp = -5;
    tflb_quant q = tflb_quant1(&scale, &zp);
    if (!e)
        exit(1);
    x = tflb_add_tensor(g->m, "x", TFLB_INT8, sx, 3, 0, &q);
    b = tflb_add_tensor(g->m, "begin", TFLB_INT32, &sb, 1, 0, NULL);
    sz = const_i32(g, "size", size, 3, &sb, 1);
    y = tflb_add_tensor(g->m, "y", TFLB_INT8, so, 3, 0, &q);
    in[0] = x;
    in[1] = b;
    in[2] = sz;
    op(g, TE_OP_SLICE, in, 3, &y, 1, tflb_opt_none());
    g->in_ids[0] = x;
    g->in_elems[0] = 60;
    g->in_vals[0] = input_values(g, 60);
    for (i = 0; i < 60; i++)
        g->in_vals[0][i] = (int16_t)((int32_t)(rng_next() % 256u) - 128);
    bv[0] = 1;
    bv[1] = 2;
    bv[2] = 0;
    g->in_ids[1] = b;
    g->in_elems[1] = 3;
    g->in_i32[1] = bv;
    g->n_in = 2;
    g->in_bits = 8;
    finish(g, &y, 1);
    for (j = 0; j < 3; j++)
        for (k = 0; k < 5; k++)
            e[j * 5 + k] = g->in_vals[0][(1 * 6 + 2 + j) * 5 + k];
    g->expect_elems[g->n_expect] = 15;
    g->expect_bool[g->n_expect] = 1; /* bytes */
    g->expect[g->n_expect++] = e;
}

static void k_slice_dynamic_i64(gen *g)
{
    int32_t sx[2] = {4, 7}, sb = 2, so[2] = {2, 4}, x, b, sz, y, in[3], i, j;
    int64_t begin[2] = {1, 3};
    int32_t *size = alloc_or_die(4 * 4); /* int64 {2, -1} as int32 word pairs */
    int16_t *e = malloc(sizeof(int16_t) * 8);
    static float scale = 0.01f;
    static int64_t zp = 0;
    tflb_quant q = tflb_quant1(&scale, &zp);
    if (!e)
        exit(1);
    x = tflb_add_tensor(g->m, "x", TFLB_INT16, sx, 2, 0, &q);
    b = tflb_add_const(g->m, "begin", TFLB_INT64, &sb, 1, begin, sizeof begin, NULL);
    sz = tflb_add_tensor(g->m, "size", TFLB_INT64, &sb, 1, 0, NULL);
    y = tflb_add_tensor(g->m, "y", TFLB_INT16, so, 2, 0, &q);
    in[0] = x;
    in[1] = b;
    in[2] = sz;
    op(g, TE_OP_SLICE, in, 3, &y, 1, tflb_opt_none());
    g->in_ids[0] = x;
    g->in_elems[0] = 28;
    g->in_vals[0] = input_values(g, 28);
    for (i = 0; i < 28; i++)
        g->in_vals[0][i] = (int16_t)((int32_t)(rng_next() % 65536u) - 32768);
    size[0] = 2;
    size[1] = 0;
    size[2] = -1;
    size[3] = -1;
    g->in_ids[1] = sz;
    g->in_elems[1] = 4;
    g->in_i32[1] = size;
    g->n_in = 2;
    finish(g, &y, 1);
    for (i = 0; i < 2; i++)
        for (j = 0; j < 4; j++)
            e[i * 4 + j] = g->in_vals[0][(1 + i) * 7 + 3 + j];
    g->expect_elems[g->n_expect] = 8;
    g->expect[g->n_expect++] = e;
}

/* TFLite_Detection_PostProcess (a CUSTOM operator, settings in a
 * FlexBuffers map), float32 as TFLite Micro's kernel: N boxes against a
 * grid of anchors, C classes after a background column, scores on a grid
 * of 1/16 so that ties decide orders.  The reference picks, each time,
 * the best remaining candidate (the earliest among equals): the order of
 * TFLite Micro's stable sort and of its partial sort's tie rule. */
enum { DP_N = 48, DP_C = 3, DP_MAX = 10, DP_PER_CLASS = 4 };
static const float dp_scale[4] = {10.0f, 10.0f, 5.0f, 5.0f};
/* regular: 0.3 and 0.25; fast: 0.95 and 0.15 (6 of 9 candidates kept: the
 * outputs' last slots stay zero) */
static float dp_score_threshold, dp_iou_threshold;

static void dp_decode(const float *b, const float *a, float *d)
{
    int i;
    for (i = 0; i < DP_N; i++, b += 4, a += 4, d += 4) {
        double py = (double)b[0] / (double)dp_scale[0] * (double)a[2];
        double px = (double)b[1] / (double)dp_scale[1] * (double)a[3];
        float yc = (float)(py + (double)a[0]), xc = (float)(px + (double)a[1]);
        float hh = (float)(0.5 * exp((double)b[2] / (double)dp_scale[2]) * (double)a[2]);
        float hw = (float)(0.5 * exp((double)b[3] / (double)dp_scale[3]) * (double)a[3]);
        d[0] = yc - hh;
        d[1] = xc - hw;
        d[2] = yc + hh;
        d[3] = xc + hw;
    }
}

static float dp_iou(const float *a, const float *b)
{
    float aa = (a[2] - a[0]) * (a[3] - a[1]), ab = (b[2] - b[0]) * (b[3] - b[1]);
    float h = fminf(a[2], b[2]) - fmaxf(a[0], b[0]), w = fminf(a[3], b[3]) - fmaxf(a[1], b[1]);
    float inter;
    if (aa <= 0 || ab <= 0)
        return 0.0f;
    inter = (h > 0 ? h : 0.0f) * (w > 0 ? w : 0.0f);
    return inter / (aa + ab - inter);
}

/* NMS of one score column (stride apart): kept boxes, best first. */
static int dp_nms(const float *d, const float *score, int stride, int limit, int *kept)
{
    int taken[DP_N] = {0}, n = 0, i, k;
    for (;;) {
        int best = -1;
        for (i = 0; i < DP_N; i++)
            if (!taken[i] && score[i * stride] >= dp_score_threshold &&
                (best < 0 || score[i * stride] > score[best * stride]))
                best = i;
        if (best < 0 || n == limit)
            return n;
        taken[best] = 1;
        for (k = 0; k < n && dp_iou(d + 4 * kept[k], d + 4 * best) <= dp_iou_threshold; k++)
            ;
        if (k == n)
            kept[n++] = best;
    }
}

/* Fast NMS: each box's best class (the first among equals), suppressed
 * once; the detections' boxes, classes and scores, and their number. */
static int dp_fast(const float *dec, const float *sc, int *box, int *cls, float *best)
{
    float top[DP_N];
    int arg[DP_N], kept[DP_N], i, k, n;
    for (i = 0; i < DP_N; i++) {
        arg[i] = 0;
        for (k = 1; k < DP_C; k++)
            if (sc[i * (DP_C + 1) + 1 + k] > sc[i * (DP_C + 1) + 1 + arg[i]])
                arg[i] = k;
        top[i] = sc[i * (DP_C + 1) + 1 + arg[i]];
    }
    n = dp_nms(dec, top, 1, DP_MAX, kept);
    for (i = 0; i < n; i++) {
        box[i] = kept[i];
        cls[i] = arg[kept[i]];
        best[i] = top[kept[i]];
    }
    return n;
}

/* Regular NMS: per class, then the best DP_MAX of the running list and
 * the class's new ones (the earlier first among equals). */
static int dp_regular(const float *dec, const float *sc, int *box, int *cls, float *best)
{
    int kept[DP_N], n = 0, i, k;
    for (k = 0; k < DP_C; k++) {
        int m = dp_nms(dec, sc + 1 + k, DP_C + 1, DP_PER_CLASS, kept), total = n, used[32] = {0};
        int nb[DP_MAX + DP_PER_CLASS], nc[DP_MAX + DP_PER_CLASS], j, r;
        float ns[DP_MAX + DP_PER_CLASS];
        for (i = 0; i < m; i++, total++) {
            box[total] = kept[i];
            cls[total] = k;
            best[total] = sc[kept[i] * (DP_C + 1) + 1 + k];
        }
        for (r = 0; r < total && r < DP_MAX; r++) {
            int pick = -1;
            for (j = 0; j < total; j++)
                if (!used[j] && (pick < 0 || best[j] > best[pick]))
                    pick = j;
            used[pick] = 1;
            nb[r] = box[pick];
            nc[r] = cls[pick];
            ns[r] = best[pick];
        }
        n = r;
        for (r = 0; r < n; r++) {
            box[r] = nb[r];
            cls[r] = nc[r];
            best[r] = ns[r];
        }
    }
    return n;
}

/* The four reference outputs of n detections, unused slots zero. */
static void dp_expect(gen *g, const float *dec, int n, const int *box, const int *cls,
                      const float *best)
{
    float *y[4];
    int i, k;
    y[0] = alloc_or_die(4 * DP_MAX * 4);
    y[1] = alloc_or_die(4 * DP_MAX);
    y[2] = alloc_or_die(4 * DP_MAX);
    y[3] = alloc_or_die(4);
    memset(y[0], 0, 4 * DP_MAX * 4);
    memset(y[1], 0, 4 * DP_MAX);
    memset(y[2], 0, 4 * DP_MAX);
    for (i = 0; i < n && i < DP_MAX; i++) {
        for (k = 0; k < 4; k++)
            y[0][4 * i + k] = dec[4 * box[i] + k];
        y[1][i] = (float)cls[i];
        y[2][i] = best[i];
    }
    y[3][0] = (float)n;
    for (k = 0; k < 4; k++) {
        g->expect_elems[g->n_expect] = k == 0 ? 4 * DP_MAX : k == 3 ? 1 : DP_MAX;
        g->expect_f32[g->n_expect++] = y[k];
    }
}

/* Int8 box and score heads, model inputs, each through a DEQUANTIZE into
 * the float32 tensors in[0], in[1]; b and sc get the floats the
 * DEQUANTIZEs make (scores on a 1/16 grid: ties). */
static void dp_int8_heads(gen *g, const int32_t *sb, const int32_t *ss, int32_t *in, float *b,
                          float *sc)
{
    static float bs = 0.01f, ss8 = 0.00390625f;
    static int64_t bz = 3, sz8 = -128;
    tflb_quant qb = tflb_quant1(&bs, &bz), qsc = tflb_quant1(&ss8, &sz8);
    int32_t q8[2], dq, i, k;
    q8[0] = tflb_add_tensor(g->m, "box_q", TFLB_INT8, sb, 3, 0, &qb);
    q8[1] = tflb_add_tensor(g->m, "score_q", TFLB_INT8, ss, 3, 0, &qsc);
    in[0] = tflb_add_tensor(g->m, "box_encodings", TFLB_FLOAT32, sb, 3, 0, NULL);
    in[1] = tflb_add_tensor(g->m, "class_predictions", TFLB_FLOAT32, ss, 3, 0, NULL);
    dq = tflb_add_opcode(g->m, TE_OP_DEQUANTIZE, 1);
    tflb_add_op(g->m, dq, &q8[0], 1, &in[0], 1, NULL);
    tflb_add_op(g->m, dq, &q8[1], 1, &in[1], 1, NULL);
    for (k = 0; k < 2; k++) {
        int32_t n = k ? DP_N * (DP_C + 1) : DP_N * 4;
        g->in_vals[k] = input_values(g, n);
        for (i = 0; i < n; i++) {
            int32_t v = k ? -128 + 16 * (int32_t)(rng_next() % 17u)
                          : (int32_t)(rng_next() % 256u) - 128;
            g->in_vals[k][i] = (int16_t)(v > 127 ? 127 : v);
            if (k)
                sc[i] = ss8 * (float)(g->in_vals[k][i] - (int32_t)sz8);
            else
                b[i] = bs * (float)(g->in_vals[k][i] - (int32_t)bz);
        }
        g->in_ids[k] = q8[k];
        g->in_elems[k] = n;
    }
    g->in_bits = 8;
}

/* quantized: 0 float32 inputs; 1 uint8 inputs (refused, as TFLite Micro
 * fails on them); 2 int8 heads through DEQUANTIZE (folded into the op). */
static void detection_kind(gen *g, int regular, int quantized)
{
    static const char *const names[4] = {"boxes", "classes", "scores", "count"};
    int32_t sb[3] = {1, DP_N, 4}, ss[3] = {1, DP_N, DP_C + 1}, sa[2] = {DP_N, 4};
    int32_t so[4][3] = {{1, DP_MAX, 4}, {1, DP_MAX}, {1, DP_MAX}, {1}}, ranks[4] = {3, 2, 2, 1};
    int32_t in[3], out[4], code, opi, i, k, n = 0;
    float *b = alloc_or_die(4 * DP_N * 4), *sc = alloc_or_die(4 * DP_N * (DP_C + 1));
    float anchors[DP_N * 4], dec[DP_N * 4], best[DP_MAX + DP_PER_CLASS];
    int cls[DP_MAX + DP_PER_CLASS], box[DP_MAX + DP_PER_CLASS];
    uint8_t flex[512];
    tflb_flex_entry opts[11] = {
        {"max_detections", TFLB_FLEX_INT, DP_MAX},
        {"max_classes_per_detection", TFLB_FLEX_INT, 1},
        {"detections_per_class", TFLB_FLEX_INT, DP_PER_CLASS},
        {"use_regular_nms", TFLB_FLEX_BOOL, 0},
        {"nms_score_threshold", TFLB_FLEX_FLOAT, 0},
        {"nms_iou_threshold", TFLB_FLEX_FLOAT, 0},
        {"num_classes", TFLB_FLEX_INT, DP_C},
        {"y_scale", TFLB_FLEX_FLOAT, 10.0},
        {"x_scale", TFLB_FLEX_FLOAT, 10.0},
        {"h_scale", TFLB_FLEX_FLOAT, 5.0},
        {"w_scale", TFLB_FLEX_FLOAT, 5.0}};
    size_t flex_bytes;
    dp_score_threshold = regular ? 0.3f : 0.95f;
    opts[3].value = regular;
    dp_iou_threshold = regular ? 0.25f : 0.15f;
    opts[4].value = dp_score_threshold;
    opts[5].value = dp_iou_threshold;
    for (i = 0; i < DP_N; i++) { /* anchors on a 8x6 grid, two sizes */
        anchors[4 * i] = (float)(i / 6) / 8.0f + 0.0625f;
        anchors[4 * i + 1] = (float)(i % 6) / 6.0f + 0.083f;
        anchors[4 * i + 2] = i % 2 ? 0.3f : 0.2f;
        anchors[4 * i + 3] = i % 2 ? 0.25f : 0.35f;
        for (k = 0; k < 4; k++)
            b[4 * i + k] = (float)((int32_t)(rng_next() % 401u) - 200) / (k < 2 ? 100.0f : 400.0f);
        for (k = 0; k <= DP_C; k++)
            sc[i * (DP_C + 1) + k] = (float)(rng_next() % 17u) / 16.0f;
    }
    if (quantized == 2) { /* int8 heads through DEQUANTIZE, as int8 detectors have */
        dp_int8_heads(g, sb, ss, in, b, sc);
    } else if (quantized) { /* uint8 inputs, as SSD models made for TFLite (not Micro) have */
        static float qs = 0.0078125f;
        static int64_t qz = 128;
        tflb_quant q = tflb_quant1(&qs, &qz);
        in[0] = tflb_add_tensor(g->m, "box_encodings", TFLB_UINT8, sb, 3, 0, &q);
        in[1] = tflb_add_tensor(g->m, "class_predictions", TFLB_UINT8, ss, 3, 0, &q);
        g->refuse = "takes float32 only";
    } else {
        in[0] = tflb_add_tensor(g->m, "box_encodings", TFLB_FLOAT32, sb, 3, 0, NULL);
        in[1] = tflb_add_tensor(g->m, "class_predictions", TFLB_FLOAT32, ss, 3, 0, NULL);
    }
    in[2] = tflb_add_const(g->m, "anchors", TFLB_FLOAT32, sa, 2, anchors, sizeof anchors, NULL);
    for (k = 0; k < 4; k++)
        out[k] = tflb_add_tensor(g->m, names[k], TFLB_FLOAT32, so[k], ranks[k], 0, NULL);
    code = tflb_add_custom_opcode(g->m, "TFLite_Detection_PostProcess", 1);
    opi = tflb_add_op(g->m, code, in, 3, out, 4, NULL);
    flex_bytes = tflb_flex_map(flex, sizeof flex, opts, 11);
    tflb_set_custom_options(g->m, opi, flex, flex_bytes);
    if (quantized != 2) {
        g->in_ids[0] = in[0];
        g->in_ids[1] = in[1];
        g->in_elems[0] = DP_N * 4;
        g->in_elems[1] = DP_N * (DP_C + 1);
        g->in_f32[0] = b;
        g->in_f32[1] = sc;
    }
    g->n_in = 2;
    finish(g, out, 4);
    if (quantized == 1)
        return;

    dp_decode(b, anchors, dec);
    n = regular ? dp_regular(dec, sc, box, cls, best) : dp_fast(dec, sc, box, cls, best);
    dp_expect(g, dec, n, box, cls, best);
    if (quantized == 2) { /* the inputs are the int8 values; these were only the reference's */
        free(b);
        free(sc);
    }
}

static void k_detection_fast(gen *g) { detection_kind(g, 0, 0); }
static void k_detection_regular(gen *g) { detection_kind(g, 1, 0); }
static void k_refuse_detection_uint8(gen *g) { detection_kind(g, 0, 1); }
static void k_detection_int8_fast(gen *g) { detection_kind(g, 0, 2); }
static void k_detection_int8_regular(gen *g) { detection_kind(g, 1, 2); }

/* one_form: a kind of one form, with reference outputs (no int8 twin). */
static const struct {
    const char *name;
    void (*build)(gen *g);
    int one_form;
} kinds[] = {
    {"pad", k_pad, 0},
    {"padv2", k_padv2, 0},
    {"transpose", k_transpose, 0},
    {"slice", k_slice, 0},
    {"strided_slice", k_strided_slice, 0},
    {"split", k_split, 0},
    {"split_axis64", k_split_axis64, 0},
    {"split_v", k_split_v, 0},
    {"pack", k_pack, 0},
    {"unpack", k_unpack, 0},
    {"expand_squeeze", k_expand_squeeze, 0},
    {"resize_nearest", k_resize_nearest, 0},
    {"reverse", k_reverse, 0},
    {"broadcast_to", k_broadcast_to, 0},
    {"select_v2", k_select_v2, 0},
    {"maximum", k_maximum, 0},
    {"minimum", k_minimum, 0},
    {"concat", k_concat, 0},
    {"reshape_scalar", k_reshape_scalar, 0},
    {"sub", k_sub, 1},
    {"leaky_relu", k_leaky_relu, 1},
    {"abs", k_abs, 1},
    {"abs_rescale", k_abs_rescale, 1},
    {"squared_difference", k_squared_difference, 1},
    {"prelu", k_prelu, 1},
    {"sum", k_sum, 1},
    {"batch_matmul", k_batch_matmul, 1},
    {"batch_matmul_const_adj_x", k_batch_matmul_const_adj_x, 1},
    {"transpose_conv", k_transpose_conv, 1},
    {"transpose_conv_bias16", k_transpose_conv_bias16, 1},
    {"refuse_fc_out_scale", k_refuse_fc_out_scale, 1},
    {"embedding_hybrid", k_embedding_hybrid, 1},
    {"greater", k_greater, 1},
    {"lstm16", k_lstm16, 1},
    {"fc_int8_min_multiplier", k_fc_int8_min_multiplier, 1},
    {"conv_int8_zp_wrap", k_conv_int8_zp_wrap, 1},
    {"refuse_fc_negative_scale", k_refuse_fc_negative_scale, 1},
    {"binary_i32", k_binary_i32, 1},
    {"binary_f32", k_binary_f32, 1},
    {"fc_per_channel_rank3", k_fc_per_channel_rank3, 1},
    {"dequantize_u8", k_dequantize_u8, 1},
    {"cast_bool", k_cast_bool, 1},
    {"zero_scale_shape", k_zero_scale_shape, 1},
    {"conv_s16_nobias", k_conv_s16_nobias, 1},
    {"fc_weights_zero_point", k_fc_weights_zero_point, 1},
    {"relu6_s16_zero_point", k_relu6_s16_zero_point, 1},
    {"reduce_all", k_reduce_all, 1},
    {"quantize_const_fold", k_quantize_const_fold, 1},
    {"fc_s16_bias32", k_fc_s16_bias32, 1},
    {"pool_other_quant", k_pool_other_quant, 1},
    {"slice_dynamic", k_slice_dynamic, 1},
    {"slice_dynamic_i64", k_slice_dynamic_i64, 1},
    {"detection_fast", k_detection_fast, 1},
    {"detection_regular", k_detection_regular, 1},
    {"refuse_detection_uint8", k_refuse_detection_uint8, 1},
    {"detection_int8_fast", k_detection_int8_fast, 1},
    {"detection_int8_regular", k_detection_int8_regular, 1},
};

#define N_KINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

/* ---------------------------------------------------------------------
 * Files. */


/* PREFIX_<i>.bin: n values, as int8 or int16 (little-endian host). */
static int write_values(const char *dir, const char *prefix, int i, const int16_t *v, int32_t n,
                        int bits)
{
    char path[1024];
    int8_t *v8 = malloc((size_t)(n > 0 ? n : 1));
    int32_t k;
    int rc;
    if (!v8)
        return -1;
    for (k = 0; k < n; k++)
        v8[k] = (int8_t)v[k];
    snprintf(path, sizeof(path), "%s/%s_%d.bin", dir, prefix, i);
    rc = bits == 8 ? tflb_write_bytes(path, v8, (size_t)n)
                   : tflb_write_bytes(path, v, (size_t)n * 2);
    free(v8);
    return rc;
}

static int build(const char *kind, int bits, const char *dir)
{
    tflb_model m;
    gen g;
    char path[1024];
    uint8_t *buf;
    size_t size;
    int i, k, rc = 0;

    for (k = 0; k < N_KINDS && strcmp(kinds[k].name, kind) != 0; k++)
        ;
    if (k == N_KINDS) {
        fprintf(stderr, "te_mkref: unknown kind '%s' (run without arguments for the list)\n", kind);
        return 1;
    }
    if (kinds[k].one_form && bits != 16) {
        fprintf(stderr, "te_mkref: %s has an int16 form only\n", kind);
        return 1;
    }
    memset(&g, 0, sizeof(g));
    tflb_init(&m);
    g.m = &m;
    g.bits = bits;
    kinds[k].build(&g);
    if (tflb_finish(&m, &buf, &size) != 0) {
        fprintf(stderr, "te_mkref: cannot serialize %s\n", kind);
        tflb_free(&m);
        return 1;
    }
    snprintf(path, sizeof(path), "%s/model.tflite", dir);
    rc |= tflb_write_bytes(path, buf, size);
    free(buf);
    for (i = 0; i < g.n_in; i++) {
        if (g.in_i32[i] || g.in_f32[i]) { /* 4-byte elements, little-endian host */
            snprintf(path, sizeof(path), "%s/input_%d.bin", dir, i);
            rc |= tflb_write_bytes(path, g.in_i32[i] ? (const void *)g.in_i32[i] : g.in_f32[i],
                                   4 * (size_t)g.in_elems[i]);
        } else {
            rc |= write_values(dir, "input", i, g.in_vals[i], g.in_elems[i],
                               g.in_bits ? g.in_bits : bits);
        }
        free(g.in_vals[i]);
        free(g.in_i32[i]);
        free(g.in_f32[i]);
    }
    if (g.refuse) {
        snprintf(path, sizeof(path), "%s/refuse.txt", dir);
        rc |= tflb_write_bytes(path, g.refuse, strlen(g.refuse));
    }
    for (i = 0; i < g.n_expect; i++) {
        if (g.expect_f32[i] || g.expect_i32[i]) {
            snprintf(path, sizeof(path), "%s/expect_%d.bin", dir, i);
            rc |= tflb_write_bytes(path, g.expect_f32[i] ? (const void *)g.expect_f32[i]
                                                         : g.expect_i32[i],
                                   4 * (size_t)g.expect_elems[i]);
        } else {
            rc |= write_values(dir, "expect", i, g.expect[i], g.expect_elems[i],
                               g.expect_bool[i] ? 8 : 16);
        }
        free(g.expect[i]);
        free(g.expect_f32[i]);
        free(g.expect_i32[i]);
    }
    tflb_free(&m);
    return rc ? 1 : 0;
}

/* OUT16 = IN8 - zp, element by element, as int16 (little-endian host). */
static int widen(int zp, const char *in8, const char *out16)
{
    FILE *f = fopen(in8, "rb"), *o = f ? fopen(out16, "wb") : NULL;
    int c, ok = f && o;
    while (ok && (c = getc(f)) != EOF) {
        int16_t v = (int16_t)((int8_t)c - zp);
        ok = fwrite(&v, sizeof(v), 1, o) == 1;
    }
    if (f)
        fclose(f);
    if (o && fclose(o) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "te_mkref: cannot widen %s into %s\n", in8, out16);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    int k;
    if (argc == 5 && strcmp(argv[1], "widen") == 0)
        return widen(atoi(argv[2]), argv[3], argv[4]);
    if (argc == 4 && (strcmp(argv[2], "8") == 0 || strcmp(argv[2], "16") == 0))
        return build(argv[1], atoi(argv[2]), argv[3]);
    if (argc != 1) {
        fprintf(stderr, "usage: te_mkref [KIND 8|16 DIR | widen ZP IN8.bin OUT16.bin]\n");
        return 2;
    }
    for (k = 0; k < N_KINDS; k++)
        printf("%s\n", kinds[k].name);
    return 0;
}
