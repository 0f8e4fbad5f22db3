/* fuzz_graph.c - libFuzzer target: structure-aware, the whole compiler on
 * models that are well-formed FlatBuffers by construction.
 *
 * Mutating .tflite bytes (fuzz_compile) mostly exercises the reader's
 * refusals; here the input bytes are a recipe that tools/tflite_builder
 * turns into a model, so the operators' checks, the passes, the planner,
 * the patch search and the code generator see mostly-consistent graphs:
 *   byte 0   compile options (fuzz_options.h)
 *   then     the input tensor (rank, dims, quantization), then operators
 *            one after the other: kind, which earlier tensor to read, and
 *            the kind's parameters (kernel, stride, padding, channels,
 *            axes, ...).  Output shapes are computed as TFLite would, and
 *            now and then deliberately perturbed so refusals are hit too.
 * An exhausted recipe reads as zeros.  No crash, UB or leak allowed.
 * With FUZZ_GRAPH_DUMP=FILE set, each input's options byte + model is also
 * written to FILE: that is how a finding becomes a compile-*.bin file of
 * tests/unit/fuzz_regressions/ (replayed like a fuzz_compile input). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "fuzz_options.h"
#include "op_models.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ACTS 24

typedef struct {
    const uint8_t *p;
    size_t n, i;
    tflb_model *m;
    int acts[MAX_ACTS]; /* tensor ids of int8 activations, in creation order */
    int n_acts;
    int32_t graph_in[8];
    int n_in;
} recipe;

static int next(recipe *r) { return r->i < r->n ? r->p[r->i++] : 0; }
static int pick(recipe *r, int n) { return n > 0 ? next(r) % n : 0; }

static const float scales[8] = {0.02f, 0.05f, 0.1f, 1.0f / 256, 0.5f, 0.0039f, 0.3f, 2e-5f};

/* Tensor id of the model being built.  The pointer dies when a tensor is
 * added (the array grows): copy what is needed first. */
static const tflb_tensor *T(recipe *r, int id) { return &r->m->tensors[id]; }

/* A new int8 activation with recipe-chosen quantization. */
static int new_act(recipe *r, const char *name, const int32_t *shape, int rank)
{
    int id = om_act(r->m, name, shape, rank, scales[pick(r, 8)], (int64_t)(int8_t)next(r));
    if (id >= 0 && r->n_acts < MAX_ACTS)
        r->acts[r->n_acts++] = id;
    return id;
}

/* Perturbs one dimension now and then, so shape checks get exercised. */
static void maybe_break(recipe *r, int32_t *shape, int rank)
{
    if (rank > 0 && pick(r, 16) == 0)
        shape[pick(r, rank)] += 1;
}

static int graph_input(recipe *r, const int32_t *shape, int rank)
{
    int id = new_act(r, "in", shape, rank);
    if (r->n_in < 8)
        r->graph_in[r->n_in++] = id;
    return id;
}

static void copy_shape(const tflb_tensor *t, int32_t *s) { memcpy(s, t->shape, sizeof t->shape); }

/* ------------------------------------------------------------- convolutions */

static int32_t conv_out(recipe *r, int32_t in, int k, int s, int dil, int *pad)
{
    int eff = (k - 1) * dil + 1;
    if (*pad == TFLB_PAD_VALID && in < eff)
        *pad = TFLB_PAD_SAME;
    (void)r;
    return *pad == TFLB_PAD_SAME ? (in + s - 1) / s : (in - eff) / s + 1;
}

static int add_conv(recipe *r, int x, int depthwise)
{
    const tflb_tensor *t = T(r, x);
    int32_t ws[4], os[TFLB_MAX_RANK], in[3];
    int kh = 1 + pick(r, 3), kw = 1 + pick(r, 3), s = 1 + pick(r, 2), d = 1 + (pick(r, 4) == 0);
    int pad = pick(r, 2), mult = depthwise ? 1 + pick(r, 2) : 1;
    int c = t->shape[3], oc = depthwise ? c * mult : 1 + pick(r, 8);
    float in_scale = t->scale ? t->scale[0] : 0.05f;
    tflb_options o = depthwise ? tflb_opt_dwconv2d(pad, s, s, mult, pick(r, 4))
                               : tflb_opt_conv2d(pad, s, s, pick(r, 4));
    if (t->rank != 4 || oc > 16)
        return -1;
    o.dilation_w = o.dilation_h = d;
    ws[0] = depthwise ? 1 : oc, ws[1] = kh, ws[2] = kw, ws[3] = depthwise ? oc : c;
    os[0] = t->shape[0];
    os[1] = conv_out(r, t->shape[1], kh, s, d, &pad);
    os[2] = conv_out(r, t->shape[2], kw, s, d, &pad);
    os[3] = oc;
    o.padding = pad;
    maybe_break(r, os, 4);
    in[0] = x;
    in[1] = om_weights(r->m, "w", ws, 4, depthwise ? 3 : 0);
    in[2] = om_bias(r->m, "b", oc, in_scale);
    return om_op(r->m, depthwise ? TE_OP_DEPTHWISE_CONV_2D : TE_OP_CONV_2D, in, 3,
                 new_act(r, "conv", os, 4), &o);
}

static int add_fc(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t ws[2], os[2], in[3];
    int units = 1 + pick(r, 8), depth = t->rank ? t->shape[t->rank - 1] : 1, elems = 1, i;
    float in_scale = t->scale ? t->scale[0] : 0.05f;
    tflb_options o = tflb_opt_fc(pick(r, 4), 0);
    for (i = 0; i < t->rank; i++)
        elems *= t->shape[i];
    if (depth < 1 || depth * units > 4096)
        return -1;
    ws[0] = units, ws[1] = depth;
    os[0] = elems / depth, os[1] = units;
    maybe_break(r, os, 2);
    in[0] = x;
    in[1] = om_weights(r->m, "w", ws, 2, 0);
    in[2] = om_bias(r->m, "b", units, in_scale);
    return om_op(r->m, TE_OP_FULLY_CONNECTED, in, 3 - (pick(r, 4) == 0),
                 new_act(r, "fc", os, 2), &o);
}

static int add_pool(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t os[TFLB_MAX_RANK];
    int f = 1 + pick(r, 3), s = 1 + pick(r, 2), pad = pick(r, 2);
    int op = pick(r, 2) ? TE_OP_AVERAGE_POOL_2D : TE_OP_MAX_POOL_2D;
    tflb_options o;
    if (t->rank != 4)
        return -1;
    copy_shape(t, os);
    os[1] = conv_out(r, t->shape[1], f, s, 1, &pad);
    os[2] = conv_out(r, t->shape[2], f, s, 1, &pad);
    maybe_break(r, os, 4);
    o = tflb_opt_pool2d(pad, s, s, f, f, pick(r, 4));
    return om_op(r->m, op, &x, 1, new_act(r, "pool", os, 4), &o);
}

/* ------------------------------------------------------------- element-wise */

/* ADD / MUL with a second graph input of the same or a broadcast shape. */
static int add_binary(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t bs[TFLB_MAX_RANK], os[TFLB_MAX_RANK], in[2];
    int i, rank = t->rank, op = pick(r, 2) ? TE_OP_ADD : TE_OP_MUL;
    tflb_options o = op == TE_OP_ADD ? tflb_opt_add(pick(r, 4)) : tflb_opt_mul(pick(r, 4));
    copy_shape(t, bs);
    copy_shape(t, os);
    for (i = 0; i < rank; i++)
        if (pick(r, 3) == 0)
            bs[i] = 1;
    maybe_break(r, bs, rank);
    in[0] = x;
    in[1] = graph_input(r, bs, rank);
    if (pick(r, 2))
        in[0] = in[1], in[1] = x;
    return om_op(r->m, op, in, 2, new_act(r, "bin", os, rank), &o);
}

static int add_unary(recipe *r, int x)
{
    static const int ops[9] = {TE_OP_RELU, TE_OP_RELU6, TE_OP_LOGISTIC, TE_OP_TANH,
                               TE_OP_HARD_SWISH, TE_OP_SOFTMAX, TE_OP_LOG_SOFTMAX,
                               TE_OP_QUANTIZE, TE_OP_DEQUANTIZE};
    const tflb_tensor *t = T(r, x);
    int32_t os[TFLB_MAX_RANK];
    int op = ops[pick(r, 9)], y, rank = t->rank;
    tflb_options so = tflb_opt_softmax(pick(r, 2) ? 1.0f : 0.5f);
    copy_shape(t, os);
    maybe_break(r, os, rank);
    if (op == TE_OP_DEQUANTIZE) {
        int f = om_float(r->m, "deq", os, rank), q;
        om_op(r->m, op, &x, 1, f, NULL);
        q = new_act(r, "q", os, rank); /* back to int8 */
        return om_op(r->m, TE_OP_QUANTIZE, &f, 1, q, NULL);
    }
    if (pick(r, 2) && (op == TE_OP_LOGISTIC || op == TE_OP_SOFTMAX)) {
        y = om_act(r->m, "u", os, rank, 1.0f / 256, -128);
        if (r->n_acts < MAX_ACTS)
            r->acts[r->n_acts++] = y;
    } else if (pick(r, 2) && op == TE_OP_LOG_SOFTMAX) {
        y = om_act(r->m, "u", os, rank, 16.0f / 256, 127);
        if (r->n_acts < MAX_ACTS)
            r->acts[r->n_acts++] = y;
    } else {
        y = new_act(r, "u", os, rank);
    }
    return om_op(r->m, op, &x, 1, y, op == TE_OP_SOFTMAX ? &so : NULL);
}

/* ------------------------------------------------------------- data movement */

static int add_pad(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t pads[2 * TFLB_MAX_RANK], ps[2], os[TFLB_MAX_RANK], in[2];
    int i, rank = t->rank;
    copy_shape(t, os);
    for (i = 0; i < rank; i++) {
        pads[2 * i] = pick(r, 3);
        pads[2 * i + 1] = pick(r, 3);
        os[i] += pads[2 * i] + pads[2 * i + 1];
    }
    ps[0] = rank, ps[1] = 2;
    maybe_break(r, os, rank);
    in[0] = x;
    in[1] = tflb_add_const(r->m, "pads", TFLB_INT32, ps, 2, pads, (size_t)rank * 8, NULL);
    return om_op(r->m, TE_OP_PAD, in, 2, new_act(r, "pad", os, rank), NULL);
}

static int add_reshape(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t os[2], in[2];
    int i, elems = 1, rank = 1 + pick(r, 2);
    tflb_options o;
    for (i = 0; i < t->rank; i++)
        elems *= t->shape[i];
    os[0] = rank == 1 ? elems : 1, os[1] = elems;
    maybe_break(r, os, rank);
    o = tflb_opt_reshape(os, rank);
    in[0] = x;
    in[1] = om_ints(r->m, "shape", os, rank);
    return om_op(r->m, TE_OP_RESHAPE, in, 1 + pick(r, 2), new_act(r, "rs", os, rank), &o);
}

static int add_transpose(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t perm[TFLB_MAX_RANK], os[TFLB_MAX_RANK], in[2];
    int i, rank = t->rank;
    for (i = 0; i < rank; i++)
        perm[i] = i;
    for (i = rank - 1; i > 0; i--) {
        int j = pick(r, i + 1);
        int32_t tmp = perm[i];
        perm[i] = perm[j], perm[j] = tmp;
    }
    for (i = 0; i < rank; i++)
        os[i] = t->shape[perm[i]];
    maybe_break(r, os, rank);
    in[0] = x;
    in[1] = om_ints(r->m, "perm", perm, rank);
    return om_op(r->m, TE_OP_TRANSPOSE, in, 2, new_act(r, "tr", os, rank), NULL);
}

static int add_concat(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t bs[TFLB_MAX_RANK], os[TFLB_MAX_RANK], in[2];
    int rank = t->rank, axis = pick(r, rank ? rank : 1);
    tflb_options o = tflb_opt_concat(pick(r, 2) ? axis : axis - rank, TFLB_ACT_NONE);
    if (rank < 1)
        return -1;
    copy_shape(t, bs);
    copy_shape(t, os);
    bs[axis] = 1 + pick(r, 4);
    os[axis] += bs[axis];
    maybe_break(r, os, rank);
    in[0] = x;
    in[1] = graph_input(r, bs, rank);
    return om_op(r->m, TE_OP_CONCATENATION, in, 2, new_act(r, "cat", os, rank), &o);
}

static int add_slice(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t b[TFLB_MAX_RANK], e[TFLB_MAX_RANK], s[TFLB_MAX_RANK], os[TFLB_MAX_RANK], in[4];
    int i, rank = t->rank;
    tflb_options o = tflb_opt_strided_slice(0, 0, 0);
    for (i = 0; i < rank; i++) {
        int n = t->shape[i];
        b[i] = pick(r, n);
        e[i] = b[i] + 1 + pick(r, n - b[i]);
        s[i] = 1 + pick(r, 2);
        os[i] = (e[i] - b[i] + s[i] - 1) / s[i];
    }
    maybe_break(r, os, rank);
    in[0] = x;
    in[1] = om_ints(r->m, "begin", b, rank);
    in[2] = om_ints(r->m, "end", e, rank);
    in[3] = om_ints(r->m, "strides", s, rank);
    return om_op(r->m, TE_OP_STRIDED_SLICE, in, 4, new_act(r, "sl", os, rank), &o);
}

static int add_resize(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t size[2], os[TFLB_MAX_RANK], in[2];
    tflb_options o = tflb_opt_resize_nearest(pick(r, 2), pick(r, 2));
    if (t->rank != 4)
        return -1;
    size[0] = t->shape[1] * (1 + pick(r, 3)) - pick(r, 2);
    size[1] = t->shape[2] * (1 + pick(r, 3));
    copy_shape(t, os);
    os[1] = size[0], os[2] = size[1];
    maybe_break(r, os, 4);
    in[0] = x;
    in[1] = om_ints(r->m, "size", size, 2);
    return om_op(r->m, TE_OP_RESIZE_NEAREST_NEIGHBOR, in, 2, new_act(r, "rz", os, 4), &o);
}

static int add_mean(recipe *r, int x)
{
    const tflb_tensor *t = T(r, x);
    int32_t axes[TFLB_MAX_RANK], os[TFLB_MAX_RANK], in[2];
    int i, n = 0, keep = pick(r, 2), rank = 0;
    tflb_options o = tflb_opt_reducer(keep);
    for (i = 0; i < t->rank; i++) {
        int reduce = pick(r, 2);
        if (reduce)
            axes[n++] = pick(r, 4) ? i : i - t->rank;
        if (!reduce || keep)
            os[rank++] = reduce ? 1 : t->shape[i];
    }
    if (n == 0)
        return -1;
    maybe_break(r, os, rank);
    in[0] = x;
    in[1] = om_ints(r->m, "axes", axes, n);
    return om_op(r->m, TE_OP_MEAN, in, 2, new_act(r, "mean", os, rank), &o);
}

/* ------------------------------------------------------------- the recipe */

static int add_op(recipe *r)
{
    int x = r->acts[pick(r, r->n_acts)];
    switch (pick(r, 13)) {
    case 0: return add_conv(r, x, 0);
    case 1: return add_conv(r, x, 1);
    case 2: return add_fc(r, x);
    case 3: return add_pool(r, x);
    case 4: return add_binary(r, x);
    case 5: return add_unary(r, x);
    case 6: return add_pad(r, x);
    case 7: return add_reshape(r, x);
    case 8: return add_transpose(r, x);
    case 9: return add_concat(r, x);
    case 10: return add_slice(r, x);
    case 11: return add_resize(r, x);
    default: return add_mean(r, x);
    }
}

static void build_model(recipe *r)
{
    int32_t shape[TFLB_MAX_RANK], outs[2];
    int rank = 1 + pick(r, 4), i, n_ops = 1 + pick(r, 8), n_out = 1;
    for (i = 0; i < rank; i++)
        shape[i] = 1 + pick(r, i == 0 ? 2 : 12);
    graph_input(r, shape, rank);
    for (i = 0; i < n_ops && r->n_acts < MAX_ACTS - 4 && !r->m->err; i++)
        add_op(r);
    outs[0] = r->acts[r->n_acts - 1];
    if (pick(r, 4) == 0 && r->n_acts > 1) {
        outs[1] = r->acts[pick(r, r->n_acts - 1)];
        n_out = outs[1] != outs[0] && outs[1] != r->graph_in[0] ? 2 : 1;
    }
    tflb_set_inputs(r->m, r->graph_in, r->n_in);
    tflb_set_outputs(r->m, outs, n_out);
}

static void compile(const uint8_t *img, size_t n, uint8_t opt)
{
    te_compile_opts o;
    te_diag d;
    te_model *m;
    te_buf h, c;
    te_fuzz_options(opt, &o);
    memset(&d, 0, sizeof d);
    m = te_model_load(img, n, &o, &d);
    if ((m != NULL) == (d.failed != 0) || (!m && d.msg[0] == '\0'))
        abort();
    if (!m)
        return;
    memset(&h, 0, sizeof h);
    memset(&c, 0, sizeof c);
    memset(&d, 0, sizeof d);
    if (te_model_generate(m, "fz", "fuzz graph", &h, &c, &d) < 0 && d.msg[0] == '\0')
        abort();
    te_buf_free(&h);
    te_buf_free(&c);
    te_model_free(m);
}

static void dump(const uint8_t *img, size_t n, uint8_t opt)
{
    const char *path = getenv("FUZZ_GRAPH_DUMP");
    FILE *f = path ? fopen(path, "wb") : NULL;
    if (!f)
        return;
    fputc(opt, f);
    fwrite(img, 1, n, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    recipe r;
    tflb_model m;
    uint8_t *img = NULL;
    size_t n = 0;
    if (size < 2 || size > 512)
        return 0;
    memset(&r, 0, sizeof r);
    r.p = data + 1;
    r.n = size - 1;
    r.m = &m;
    tflb_init(&m);
    build_model(&r);
    if (!m.err && tflb_finish(&m, &img, &n) == 0) {
        dump(img, n, data[0]);
        compile(img, n, data[0]);
    }
    free(img);
    tflb_free(&m);
    return 0;
}
