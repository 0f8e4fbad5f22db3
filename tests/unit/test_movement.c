/* test_movement.c - the data-movement and quantization operators: PAD,
 * RESHAPE, SQUEEZE, TRANSPOSE, CONCATENATION, STRIDED_SLICE,
 * RESIZE_NEAREST_NEIGHBOR, QUANTIZE and DEQUANTIZE.
 *
 * Each operator goes through its real check() and emit(); a small
 * interpreter runs the emitted kernel calls (reading the emitted constant
 * arrays back) on a test arena, and the result is compared with a plain
 * reference written here from TFLite Micro's reference kernels, over many
 * random shapes and parameters.  The kernels are also tested directly, and
 * check() on invalid graphs must fail with a message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_interp.h"
#include "ops/ops.h"
#include "quant/quant.h"
#include "te_common.h"
#include "te_copy.h"
#include "te_dequantize.h"
#include "te_pad.h"
#include "te_quantize.h"
#include "te_resize_nearest.h"
#include "testlib.h"

extern const te_op_def te_op_pad, te_op_reshape, te_op_squeeze, te_op_transpose,
    te_op_concatenation, te_op_strided_slice, te_op_resize_nearest_neighbor, te_op_quantize,
    te_op_dequantize;

#define IN_OFF 0
#define OUT_OFF 32768

/* ---- a one-operator graph ---------------------------------------------- */

/* A one-operator graph with one output. */
static void g_init(op_graph *m, int opcode)
{
    og_init(m, opcode);
    m->op.n_out = 1;
    m->op.opt.new_shape_count = -1;
}

static int g_const_vec(op_graph *m, const int32_t *v, int n)
{
    int id = og_tensor(m, TE_DT_INT32, 1, &n, -1);
    og_const_i32(m, id, v, n);
    return id;
}

static void g_io(op_graph *m, const int *ins, int n_in, int out)
{
    int i;
    for (i = 0; i < n_in; i++)
        m->in_ids[i] = ins[i];
    m->op.n_in = n_in;
    m->out_ids[0] = out;
}

/* ---- running emitted code ---------------------------------------------- */

#define I(k) ((int32_t)strtol(a[k], NULL, 10))
#define P(k) ei_ptr(a[k])

/* The kernels of this file's operators past ei_run_copy_call's. */
static int run_line(const char *f, int n, char a[12][200])
{
    if (strcmp(f, "te_resize_nearest_s8") == 0 && n == 11)
        te_resize_nearest_s8(P(0), P(1), I(2), I(3), I(4), I(5), I(6), I(7), P(8), P(9), I(10));
    else if (strcmp(f, "te_quantize_f32_s8") == 0 && n == 5)
        te_quantize_f32_s8(P(0), P(1), I(2), strtof(a[3], NULL), I(4));
    else if (strcmp(f, "te_quantize_s8_s8") == 0 && n == 7)
        te_quantize_s8_s8(P(0), P(1), I(2), I(3), I(4), I(5), I(6));
    else if (strcmp(f, "te_quantize_s16_s8") == 0 && n == 7)
        te_quantize_s16_s8(P(0), P(1), I(2), I(3), I(4), I(5), I(6));
    else if (strcmp(f, "te_dequantize_s8_f32") == 0 && n == 4)
        te_dequantize_s8_f32(P(0), P(1), I(2), P(3));
    else
        return -1;
    return 0;
}

/* check() then emit() then run: ei_run_op with this file's kernels. */
static int run_op(const te_op_def *def, op_graph *m) { return ei_run_op(def, m, run_line); }

static void fill_random(int8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = (int8_t)test_rand();
}

/* ---- kernels directly -------------------------------------------------- */

static void test_copy_kernels(void)
{
    int8_t a[300], b[300];
    int32_t counts[3] = {3, 4, 5}, steps[3] = {-20, 5, 1};
    int i, j, k, ok = 1;
    fill_random(a, sizeof a);
    memset(b, 0, sizeof b);
    te_copy_bytes(b, a, 300);
    CHECK(memcmp(a, b, 300) == 0);
    te_copy_bytes(b, b, 300); /* same buffer: nothing */
    CHECK(memcmp(a, b, 300) == 0);
    /* 3x4x5 gather starting at element 40 with a negative outer step */
    te_copy_gather_s8(a + 40, b, 3, counts, steps);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            for (k = 0; k < 5; k++)
                ok &= b[(i * 4 + j) * 5 + k] == a[40 - 20 * i + 5 * j + k];
    CHECK(ok);
}

static void test_pad_kernel(void)
{
    int32_t in_dims[5] = {1, 1, 2, 3, 2}, before[5] = {0, 0, 1, 0, 1}, after[5] = {0, 0, 0, 2, 0};
    int8_t in[12], out[3 * 5 * 3];
    int h, w, c, ok = 1;
    fill_random(in, sizeof in);
    te_pad_s8(in, out, in_dims, before, after, -7);
    for (h = 0; h < 3; h++)
        for (w = 0; w < 5; w++)
            for (c = 0; c < 3; c++) {
                int inside = h >= 1 && w < 3 && c >= 1;
                int8_t want = inside ? in[((h - 1) * 3 + w) * 2 + (c - 1)] : -7;
                ok &= out[(h * 5 + w) * 3 + c] == want;
            }
    CHECK(ok);
}

/* static_cast<int32_t>(TfLiteRound(x / scale)) with x86-64's conversion
 * (NaN / out of range -> INT32_MIN), + zp with wrap-around, clamped. */
static int32_t ref_affine(float x, float scale, int32_t zp, int32_t lo, int32_t hi)
{
    float r = roundf(x / scale);
    int32_t i = (r >= -2147483648.0f && r < 2147483648.0f) ? (int32_t)r : INT32_MIN;
    int32_t u = (int32_t)((uint32_t)i + (uint32_t)zp);
    return u < lo ? lo : (u > hi ? hi : u);
}

static void test_quantize_float_kernel(void)
{
    static float in[4096];
    static int8_t out[4096];
    static int16_t out16[4096];
    int trial, i, ok = 1, ok16 = 1;
    for (trial = 0; trial < 60; trial++) {
        float scale = trial % 3 == 0 ? 0.25f : ldexpf((float)test_rand_range(1, 1 << 20),
                                                       test_rand_range(-40, -8));
        int32_t zp = test_rand_range(-128, 127);
        for (i = 0; i < 4096; i++) {
            int kind = test_rand_range(0, 9);
            if (kind == 0) /* exact halves */
                in[i] = ((float)test_rand_range(-400, 400) + 0.5f) * scale;
            else if (kind == 1) /* anything, often far out of range */
                in[i] = ldexpf((float)(int32_t)test_rand(), test_rand_range(-60, 20));
            else
                in[i] = scale * ((float)test_rand_range(-200000, 200000) / 997.0f);
        }
        in[0] = NAN;
        in[1] = INFINITY;
        in[2] = -INFINITY;
        in[3] = -0.0f;
        in[4] = 3e9f * scale;
        in[5] = -3e9f * scale;
        in[6] = 8388607.5f;
        in[7] = -8388607.5f;
        in[8] = 2147483520.0f * scale;
        te_quantize_f32_s8(in, out, 4096, scale, zp);
        te_quantize_f32_s16(in, out16, 4096, scale, zp * 100);
        for (i = 0; i < 4096; i++) {
            ok &= out[i] == ref_affine(in[i], scale, zp, -128, 127);
            ok16 &= out16[i] == ref_affine(in[i], scale, zp * 100, -32768, 32767);
        }
    }
    CHECK(ok);
    CHECK(ok16);
}

static void test_requantize_kernels(void)
{
    static int8_t in8[256], out8[256];
    static int16_t in16[2000];
    static int32_t in32[2000], out32[2000];
    static uint8_t u8[256];
    int trial, i, ok = 1;
    for (i = 0; i < 256; i++)
        in8[i] = (int8_t)(i - 128);
    for (trial = 0; trial < 200; trial++) {
        double m = ldexp((double)test_rand_range(1, 1 << 30), test_rand_range(-40, -20));
        int32_t mult, izp = test_rand_range(-128, 127), ozp = test_rand_range(-128, 127);
        int shift;
        te_quantize_multiplier(m, &mult, &shift);
        te_quantize_s8_s8(in8, out8, 256, izp, mult, shift, ozp);
        te_quantize_s8_u8(in8, u8, 256, izp, mult, shift, ozp + 128);
        te_quantize_s8_s32(in8, out32, 256, izp, mult, shift, ozp);
        for (i = 0; i < 256; i++) {
            int32_t v = te_mul_by_quant_mult(in8[i] - izp, mult, shift);
            ok &= out8[i] == te_clamp_i32(v + ozp, -128, 127);
            ok &= u8[i] == te_clamp_i32(v + ozp + 128, 0, 255);
            ok &= out32[i] == v + ozp;
        }
        for (i = 0; i < 2000; i++) {
            in16[i] = (int16_t)test_rand();
            in32[i] = (int32_t)(test_rand() >> test_rand_range(0, 31)) - 70000;
        }
        te_quantize_s16_s8((const int16_t *)in16, out8, 256, izp, mult, shift, ozp);
        for (i = 0; i < 256; i++)
            ok &= out8[i] == te_clamp_i32(te_mul_by_quant_mult(in16[i] - izp, mult, shift) + ozp,
                                          -128, 127);
        te_quantize_s32_s8(in32, out8, 256, izp, mult, shift, ozp);
        for (i = 0; i < 256; i++)
            ok &= out8[i] == te_clamp_i32(te_mul_by_quant_mult(in32[i] - izp, mult, shift) + ozp,
                                          -128, 127);
    }
    CHECK(ok);
}

static void test_dequantize_kernels(void)
{
    int8_t in[256];
    int16_t in16[1000];
    float lut[256], out[1000];
    int i, ok = 1;
    for (i = 0; i < 256; i++) {
        in[i] = (int8_t)(i - 128);
        lut[i] = 0.1f * (float)(i - 128 + 3);
    }
    te_dequantize_s8_f32(in, out, 256, lut);
    for (i = 0; i < 256; i++)
        ok &= memcmp(&out[i], &lut[i], 4) == 0;
    for (i = 0; i < 1000; i++)
        in16[i] = (int16_t)test_rand();
    te_dequantize_s16_f32(in16, out, 1000, 0.0003f, -7);
    for (i = 0; i < 1000; i++) {
        float want = 0.0003f * (float)(in16[i] + 7);
        ok &= memcmp(&out[i], &want, 4) == 0;
    }
    CHECK(ok);
}

/* ---- PAD ------------------------------------------------------------- */

static void ref_pad(const int8_t *in, int8_t *out, int rank, const int *shape, const int32_t *pads,
                    int8_t value)
{
    int od[5], id[5], lo[5], idx[5], d;
    int64_t n, o;
    for (d = 0; d < 5; d++) {
        int r = d - (5 - rank);
        id[d] = r < 0 ? 1 : shape[r];
        lo[d] = r < 0 ? 0 : pads[2 * r];
        od[d] = r < 0 ? 1 : shape[r] + pads[2 * r] + pads[2 * r + 1];
    }
    n = og_elems(od, 5);
    for (o = 0; o < n; o++) {
        int64_t rem = o, src = 0;
        int inside = 1;
        for (d = 4; d >= 0; d--) {
            idx[d] = (int)(rem % od[d]);
            rem /= od[d];
        }
        for (d = 0; d < 5; d++) {
            int i = idx[d] - lo[d];
            inside &= i >= 0 && i < id[d];
            src = src * id[d] + i;
        }
        out[o] = inside ? in[src] : value;
    }
}

static void test_pad(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 300; trial++) {
        op_graph m;
        int rank = test_rand_range(1, 5), shape[5], oshape[5], k, in, out, pad, ins[3];
        int32_t pads[10];
        int8_t want[16384], value;
        g_init(&m, TE_OP_PAD);
        og_rand_shape(shape, rank, rank > 3 ? 2 : 6);
        for (k = 0; k < rank; k++) {
            pads[2 * k] = test_rand_range(0, rank > 3 ? 2 : 3);
            pads[2 * k + 1] = test_rand_range(0, rank > 3 ? 2 : 3);
            oshape[k] = shape[k] + pads[2 * k] + pads[2 * k + 1];
        }
        in = og_tensor(&m, TE_DT_INT8, rank, shape, IN_OFF);
        out = og_tensor(&m, TE_DT_INT8, rank, oshape, OUT_OFF);
        m.zp[out] = test_rand_range(-128, 127);
        {
            int pshape[2] = {rank, 2};
            pad = og_tensor(&m, TE_DT_INT32, 2, pshape, -1);
            og_const_i32(&m, pad, pads, 2 * rank);
        }
        ins[0] = in;
        ins[1] = pad;
        value = (int8_t)m.zp[out];
        if (trial % 4 == 0) { /* constant_values input */
            int one = 1;
            ins[2] = og_tensor(&m, TE_DT_INT8, 0, &one, -1);
            m.zp[ins[2]] = m.zp[out];
            value = (int8_t)test_rand();
            m.cdata[ins[2]][0] = (uint8_t)value;
            m.t[ins[2]].data = m.cdata[ins[2]];
            m.t[ins[2]].data_bytes = 1;
        }
        g_io(&m, ins, trial % 4 == 0 ? 3 : 2, out);
        fill_random(ei_arena, EI_ARENA);
        ref_pad(ei_arena + IN_OFF, want, rank, shape, pads, value);
        ok &= run_op(&te_op_pad, &m) == 0;
        ok &= memcmp(ei_arena + OUT_OFF, want, (size_t)og_elems(oshape, rank)) == 0;
    }
    CHECK(ok);
}

/* ---- RESHAPE / SQUEEZE -------------------------------------------------- */

static void test_reshape(void)
{
    op_graph m;
    int s_in[4] = {1, 4, 4, 8}, s_out[2] = {1, 128}, in, out, shp, ins[2];
    int32_t req[2] = {-1, 128}, bad[2] = {-1, 100}, two[2] = {-1, -1};
    g_init(&m, TE_OP_RESHAPE);
    in = og_tensor(&m, TE_DT_INT8, 4, s_in, IN_OFF);
    out = og_tensor(&m, TE_DT_INT8, 2, s_out, OUT_OFF);
    shp = g_const_vec(&m, req, 2);
    ins[0] = in;
    ins[1] = shp;
    g_io(&m, ins, 2, out);
    fill_random(ei_arena, EI_ARENA);
    CHECK(run_op(&te_op_reshape, &m) == 0);
    CHECK(ei_last_stmts == 1);
    CHECK(memcmp(ei_arena + IN_OFF, ei_arena + OUT_OFF, 128) == 0);
    /* aliased output: nothing emitted */
    m.t[out].alias_of = in;
    CHECK(run_op(&te_op_reshape, &m) == 0);
    CHECK(ei_last_stmts == 0);
    m.t[out].alias_of = -1;
    /* shape tensors and options disagreeing with the output: the output's
     * shape rules, as in TFLite Micro (ONNX-style 0 entries, stale options) */
    og_const_i32(&m, shp, bad, 2);
    CHECK(run_op(&te_op_reshape, &m) == 0);
    og_const_i32(&m, shp, two, 2);
    CHECK(run_op(&te_op_reshape, &m) == 0);
    m.op.n_in = 1;
    m.op.opt.new_shape_count = 2;
    m.op.opt.new_shape[0] = 1;
    m.op.opt.new_shape[1] = 64;
    CHECK(run_op(&te_op_reshape, &m) == 0);
    m.op.opt.new_shape_count = -1;
    /* element count mismatch, type mismatch */
    m.t[out].shape[1] = 127;
    CHECK(run_op(&te_op_reshape, &m) == -1 && strstr(ei_last_error, "elements"));
    m.t[out].shape[1] = 128;
    m.t[out].type = TE_DT_INT16;
    CHECK(run_op(&te_op_reshape, &m) == -1 && strstr(ei_last_error, "type"));
}

static void test_squeeze(void)
{
    op_graph m;
    int s_in[4] = {1, 1, 1, 10}, s_out[2] = {1, 10}, in, out;
    g_init(&m, TE_OP_SQUEEZE);
    in = og_tensor(&m, TE_DT_INT8, 4, s_in, IN_OFF);
    out = og_tensor(&m, TE_DT_INT8, 2, s_out, OUT_OFF);
    g_io(&m, &in, 1, out);
    m.op.opt.squeeze_dims_count = 2;
    m.op.opt.squeeze_dims[0] = 1;
    m.op.opt.squeeze_dims[1] = -2;
    fill_random(ei_arena, EI_ARENA);
    CHECK(run_op(&te_op_squeeze, &m) == 0);
    CHECK(memcmp(ei_arena + IN_OFF, ei_arena + OUT_OFF, 10) == 0);
    m.op.opt.squeeze_dims[1] = 3; /* size 10 */
    CHECK(run_op(&te_op_squeeze, &m) == -1 && strstr(ei_last_error, "expected 1"));
    m.op.opt.squeeze_dims[1] = 4;
    CHECK(run_op(&te_op_squeeze, &m) == -1 && strstr(ei_last_error, "out of range"));
}

/* ---- TRANSPOSE ---------------------------------------------------------- */

static void test_transpose(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 300; trial++) {
        op_graph m;
        int rank = test_rand_range(1, 6), shape[6], oshape[6], k, in, out, ins[2];
        int esz = trial % 5 == 0 ? 4 : (trial % 5 == 1 ? 2 : 1);
        te_dtype type = esz == 4 ? TE_DT_FLOAT32 : (esz == 2 ? TE_DT_INT16 : TE_DT_INT8);
        int32_t perm[6];
        int64_t n, o, istride[6];
        static int8_t want[16384];
        g_init(&m, TE_OP_TRANSPOSE);
        og_rand_shape(shape, rank, rank > 4 ? 3 : 6);
        for (k = 0; k < rank; k++)
            perm[k] = k;
        for (k = rank - 1; k > 0; k--) {
            int j = test_rand_range(0, k), t = perm[k];
            perm[k] = perm[j];
            perm[j] = t;
        }
        for (k = 0; k < rank; k++)
            oshape[k] = shape[perm[k]];
        in = og_tensor(&m, type, rank, shape, IN_OFF);
        out = og_tensor(&m, type, rank, oshape, OUT_OFF);
        ins[0] = in;
        ins[1] = g_const_vec(&m, perm, rank);
        g_io(&m, ins, 2, out);
        fill_random(ei_arena, EI_ARENA);
        n = og_elems(shape, rank);
        istride[rank - 1] = 1;
        for (k = rank - 2; k >= 0; k--)
            istride[k] = istride[k + 1] * shape[k + 1];
        for (o = 0; o < n; o++) {
            int64_t rem = o, src = 0;
            for (k = rank - 1; k >= 0; k--) {
                src += (rem % oshape[k]) * istride[perm[k]];
                rem /= oshape[k];
            }
            memcpy(want + o * esz, ei_arena + IN_OFF + src * esz, (size_t)esz);
        }
        ok &= run_op(&te_op_transpose, &m) == 0;
        ok &= memcmp(ei_arena + OUT_OFF, want, (size_t)(n * esz)) == 0;
        if (!ok) {
            fprintf(stderr, "transpose trial %d failed: %s\n", trial, ei_last_error);
            break;
        }
    }
    CHECK(ok);
}

static void test_transpose_errors(void)
{
    op_graph m;
    int s[3] = {2, 3, 4}, so[3] = {4, 3, 2}, in, out, ins[2];
    int32_t perm[3] = {2, 1, 0}, dup[3] = {2, 2, 0};
    g_init(&m, TE_OP_TRANSPOSE);
    in = og_tensor(&m, TE_DT_INT8, 3, s, IN_OFF);
    out = og_tensor(&m, TE_DT_INT8, 3, so, OUT_OFF);
    ins[0] = in;
    ins[1] = g_const_vec(&m, perm, 3);
    g_io(&m, ins, 2, out);
    CHECK(run_op(&te_op_transpose, &m) == 0);
    og_const_i32(&m, ins[1], dup, 3);
    CHECK(run_op(&te_op_transpose, &m) == -1 && strstr(ei_last_error, "permutation"));
    og_const_i32(&m, ins[1], perm, 3);
    m.t[out].shape[0] = 3;
    CHECK(run_op(&te_op_transpose, &m) == -1 && strstr(ei_last_error, "shape"));
    m.t[ins[1]].data_bytes = 8; /* data does not match the shape */
    CHECK(run_op(&te_op_transpose, &m) == -1);
}

/* ---- CONCATENATION ------------------------------------------------------ */

static void test_concat(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 300; trial++) {
        op_graph m;
        int rank = test_rand_range(1, 5), n_in = test_rand_range(1, 5), axis, i, k;
        int shape[5], oshape[5], ins[6], out, sizes[6], total = 0;
        int64_t outer = 1, inner = 1, o, off = 0;
        static int8_t want[16384];
        long pos = IN_OFF;
        g_init(&m, TE_OP_CONCATENATION);
        og_rand_shape(shape, rank, 4);
        axis = test_rand_range(0, rank - 1);
        for (i = 0; i < n_in; i++) {
            sizes[i] = test_rand_range(trial % 7 == 0 ? 0 : 1, 4);
            shape[axis] = sizes[i];
            ins[i] = og_tensor(&m, TE_DT_INT8, rank, shape, pos);
            m.scale[ins[i]] = 0.01f * (float)(i + 1); /* copied unchanged anyway */
            pos += (long)og_elems(shape, rank);
            total += sizes[i];
        }
        memcpy(oshape, shape, sizeof shape);
        oshape[axis] = total;
        out = og_tensor(&m, TE_DT_INT8, rank, oshape, OUT_OFF);
        g_io(&m, ins, n_in, out);
        m.op.opt.axis = trial % 2 ? axis - rank : axis;
        for (k = 0; k < axis; k++)
            outer *= shape[k];
        for (k = axis + 1; k < rank; k++)
            inner *= shape[k];
        fill_random(ei_arena, EI_ARENA);
        for (o = 0; o < outer; o++)
            for (i = 0; i < n_in; i++) {
                int64_t row = sizes[i] * inner;
                memcpy(want + off, ei_arena + m.place[ins[i]].arena_offset + o * row, (size_t)row);
                off += row;
            }
        ok &= run_op(&te_op_concatenation, &m) == 0;
        ok &= memcmp(ei_arena + OUT_OFF, want, (size_t)off) == 0;
    }
    CHECK(ok);
}

static void test_concat_errors(void)
{
    op_graph m;
    int a[4] = {1, 2, 2, 3}, b[4] = {1, 2, 3, 2}, o[4] = {1, 2, 2, 5}, ins[2], out;
    g_init(&m, TE_OP_CONCATENATION);
    ins[0] = og_tensor(&m, TE_DT_INT8, 4, a, 0);
    ins[1] = og_tensor(&m, TE_DT_INT8, 4, b, 100);
    out = og_tensor(&m, TE_DT_INT8, 4, o, OUT_OFF);
    g_io(&m, ins, 2, out);
    m.op.opt.axis = 3;
    CHECK(run_op(&te_op_concatenation, &m) == -1 && strstr(ei_last_error, "dimension 2"));
    m.t[ins[1]].shape[2] = 2;
    CHECK(run_op(&te_op_concatenation, &m) == 0);
    m.op.opt.axis = 4;
    CHECK(run_op(&te_op_concatenation, &m) == -1 && strstr(ei_last_error, "axis"));
    m.op.opt.axis = -1;
    m.op.opt.activation = TE_ACT_RELU;
    CHECK(run_op(&te_op_concatenation, &m) == -1 && strstr(ei_last_error, "activation"));
}

/* ---- STRIDED_SLICE ------------------------------------------------------ */

typedef struct {
    int32_t begin[5], end[5], strides[5];
    int begin_mask, end_mask, shrink;
} slice_params;


/* TFLite's StartForAxis / StopForAxis and the Prepare-time output size. */
static long long clampll(long long v, long long lo, long long hi)
{
    return v > hi ? hi : (v < lo ? lo : v);
}

static int ref_slice_shape(const slice_params *p, int rank, const int *shape, int *oshape)
{
    int k, n = 0;
    for (k = 0; k < rank; k++) {
        int size = shape[k], stride = p->strides[k], dim;
        long long s = p->begin[k], e = p->end[k], start, stop;
        if (p->begin_mask & (1 << k))
            s = stride > 0 ? INT32_MIN : INT32_MAX;
        if (s < 0)
            s += size;
        start = stride > 0 ? clampll(s, 0, size) : clampll(s, -1, size - 1);
        if (p->end_mask & (1 << k))
            e = stride > 0 ? INT32_MAX : INT32_MIN;
        if (e < 0)
            e += size;
        stop = stride > 0 ? clampll(e, 0, size) : clampll(e, -1, size - 1);
        if (p->shrink & (1 << k))
            stop = start + 1;
        dim = (int)ceilf((float)(stop - start) / (float)stride);
        if (!(p->shrink & (1 << k)))
            oshape[n++] = dim < 0 ? 0 : dim;
    }
    return n;
}

/* TFLite's reference StridedSlice (5D, StridedSliceStartForAxis /
 * EndForAxis, loop conditions); returns the number of elements written. */
static int ref_slice_eval(const slice_params *p0, int rank, const int *shape, const int8_t *in,
                          int8_t *out)
{
    int dims[5], start[5], stop[5], stride[5], bm, em, sm, k, pad = 5 - rank, n = 0;
    int i0, i1, i2, i3, i4;
    bm = (p0->begin_mask << pad) | ((1 << pad) - 1);
    em = (p0->end_mask << pad) | ((1 << pad) - 1);
    sm = p0->shrink << pad;
    for (k = 0; k < 5; k++) {
        int r = k - pad, size;
        long long s, e;
        dims[k] = r < 0 ? 1 : shape[r];
        stride[k] = r < 0 ? 1 : p0->strides[r];
        s = r < 0 ? 0 : p0->begin[r];
        e = r < 0 ? 1 : p0->end[r];
        size = dims[k];
        if (s < 0)
            s += size;
        s = stride[k] > 0 ? clampll(s, 0, size) : clampll(s, -1, size - 1);
        if (bm & (1 << k))
            s = stride[k] > 0 ? 0 : size - 1;
        start[k] = (int)s;
        if (sm & (1 << k)) {
            stop[k] = start[k] >= size ? start[k] : start[k] + 1;
            continue;
        }
        if (e < 0)
            e += size;
        e = stride[k] > 0 ? clampll(e, 0, size) : clampll(e, -1, size - 1);
        if (em & (1 << k))
            e = stride[k] > 0 ? size : -1;
        stop[k] = (int)e;
    }
#define LC(k, i) (stride[k] > 0 ? (i) < stop[k] : (i) > stop[k])
    for (i0 = start[0]; LC(0, i0); i0 += stride[0])
        for (i1 = start[1]; LC(1, i1); i1 += stride[1])
            for (i2 = start[2]; LC(2, i2); i2 += stride[2])
                for (i3 = start[3]; LC(3, i3); i3 += stride[3])
                    for (i4 = start[4]; LC(4, i4); i4 += stride[4])
                        out[n++] = in[(((i0 * dims[1] + i1) * dims[2] + i2) * dims[3] + i3) *
                                          dims[4] + i4];
#undef LC
    return n;
}

static void test_strided_slice(void)
{
    int trial, ok = 1, passed = 0, rejected = 0;
    for (trial = 0; trial < 6000; trial++) {
        op_graph m;
        slice_params p;
        int rank = test_rand_range(1, 5), shape[5], oshape[5], orank, k, in, out, ins[4], rc;
        static int8_t want[16384];
        int64_t n;
        int written;
        memset(&p, 0, sizeof p);
        g_init(&m, TE_OP_STRIDED_SLICE);
        og_rand_shape(shape, rank, rank > 3 ? 5 : 8);
        for (k = 0; k < rank; k++) {
            int sz = shape[k];
            p.strides[k] = test_rand_range(1, 3) * (test_rand() % 3 == 0 ? -1 : 1);
            if (test_rand() % 4 == 0) { /* anything, often out of range */
                p.begin[k] = test_rand_range(-sz - 2, sz + 2);
                p.end[k] = test_rand_range(-sz - 2, sz + 2);
            } else { /* a non-empty range, sometimes written with negative indices */
                int a = test_rand_range(0, sz - 1), b = test_rand_range(0, sz - 1);
                int lo = a < b ? a : b, hi = a < b ? b : a;
                p.begin[k] = p.strides[k] > 0 ? lo : hi;
                p.end[k] = p.strides[k] > 0 ? hi + 1 : lo - 1;
                if (test_rand() % 3 == 0 && p.begin[k] > 0)
                    p.begin[k] -= sz;
                if (test_rand() % 3 == 0 && p.end[k] > 0 && p.end[k] < sz)
                    p.end[k] -= sz;
            }
            if (test_rand() % 20 == 0)
                p.begin[k] = test_rand() % 2 ? INT32_MIN : INT32_MAX;
            if (test_rand() % 20 == 0)
                p.end[k] = test_rand() % 2 ? INT32_MIN : INT32_MAX;
        }
        p.begin_mask = (int)(test_rand() & test_rand() & 31);
        p.end_mask = (int)(test_rand() & test_rand() & 31);
        p.shrink = (int)(test_rand() & test_rand() & test_rand() & 31);
        orank = ref_slice_shape(&p, rank, shape, oshape);
        in = og_tensor(&m, TE_DT_INT8, rank, shape, IN_OFF);
        out = og_tensor(&m, TE_DT_INT8, orank, oshape, OUT_OFF);
        ins[0] = in;
        ins[1] = g_const_vec(&m, p.begin, rank);
        ins[2] = g_const_vec(&m, p.end, rank);
        ins[3] = g_const_vec(&m, p.strides, rank);
        g_io(&m, ins, 4, out);
        m.op.opt.begin_mask = p.begin_mask;
        m.op.opt.end_mask = p.end_mask;
        m.op.opt.shrink_axis_mask = p.shrink;
        fill_random(ei_arena, EI_ARENA);
        n = og_elems(oshape, orank);
        written = ref_slice_eval(&p, rank, shape, ei_arena + IN_OFF, want);
        rc = run_op(&te_op_strided_slice, &m);
        if (n == 0) { /* empty output: rejecting or emitting nothing are both fine */
            ok &= rc == 0 || rc == -1;
            continue;
        }
        if (written != n) { /* TFLite Micro would leave part of the output unwritten */
            ok &= rc == -1;
            rejected++;
            continue;
        }
        passed++;
        ok &= rc == 0 && memcmp(ei_arena + OUT_OFF, want, (size_t)n) == 0;
        if (!ok) {
            fprintf(stderr, "strided slice trial %d failed (rc %d): %s\n", trial, rc,
                    ei_last_error);
            break;
        }
    }
    CHECK(ok);
    printf("strided slice: %d run, %d rejected\n", passed, rejected);
    CHECK(passed > 2000 && rejected > 10);
}

static void test_strided_slice_errors(void)
{
    op_graph m;
    int s[4] = {1, 12, 10, 8}, so[4] = {1, 5, 9, 8}, in, out, ins[4];
    int32_t b[4] = {0, 1, 0, 0}, e[4] = {1, 11, 9, 8}, st[4] = {1, 2, 1, 1}, zero[4] = {1, 0, 1, 1};
    g_init(&m, TE_OP_STRIDED_SLICE);
    in = og_tensor(&m, TE_DT_INT8, 4, s, IN_OFF);
    out = og_tensor(&m, TE_DT_INT8, 4, so, OUT_OFF);
    ins[0] = in;
    ins[1] = g_const_vec(&m, b, 4);
    ins[2] = g_const_vec(&m, e, 4);
    ins[3] = g_const_vec(&m, st, 4);
    g_io(&m, ins, 4, out);
    CHECK(run_op(&te_op_strided_slice, &m) == 0);
    m.t[out].shape[1] = 6;
    CHECK(run_op(&te_op_strided_slice, &m) == -1 && strstr(ei_last_error, "shape"));
    m.t[out].shape[1] = 5;
    og_const_i32(&m, ins[3], zero, 4);
    CHECK(run_op(&te_op_strided_slice, &m) == -1 && strstr(ei_last_error, "stride"));
    og_const_i32(&m, ins[3], st, 4);
    m.op.opt.new_axis_mask = 1;
    CHECK(run_op(&te_op_strided_slice, &m) == -1 && strstr(ei_last_error, "new_axis"));
    m.op.opt.new_axis_mask = 0;
    m.t[ins[1]].shape[0] = 3;
    m.t[ins[1]].data_bytes = 12;
    CHECK(run_op(&te_op_strided_slice, &m) == -1 && strstr(ei_last_error, "entries"));
}

/* ---- RESIZE_NEAREST_NEIGHBOR -------------------------------------------- */

/* TFLite's GetNearestNeighbor. */
static int ref_nearest(int v, int in_size, int out_size, int ac, int hpc)
{
    float scale = (ac && out_size > 1) ? (float)(in_size - 1) / (float)(out_size - 1)
                                       : (float)in_size / (float)out_size;
    float pos = ((float)v + (hpc ? 0.5f : 0.0f)) * scale;
    int r = ac ? (int)roundf(pos) : (int)floorf(pos);
    r = r < in_size - 1 ? r : in_size - 1;
    return hpc && r < 0 ? 0 : r;
}

static void test_resize(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 400; trial++) {
        op_graph m;
        int s[4], so[4], in, out, ins[2], b, y, x, c, esz = trial % 4 == 0 ? 4 : 1;
        te_dtype type = esz == 4 ? TE_DT_FLOAT32 : TE_DT_INT8;
        int32_t size[2];
        static int8_t want[32768];
        int64_t o = 0;
        g_init(&m, TE_OP_RESIZE_NEAREST_NEIGHBOR);
        s[0] = test_rand_range(1, 2);
        s[1] = test_rand_range(1, 9);
        s[2] = test_rand_range(1, 9);
        s[3] = test_rand_range(1, 5);
        so[0] = s[0];
        so[1] = test_rand_range(1, 20);
        so[2] = test_rand_range(1, 20);
        so[3] = s[3];
        size[0] = so[1];
        size[1] = so[2];
        in = og_tensor(&m, type, 4, s, IN_OFF);
        out = og_tensor(&m, type, 4, so, OUT_OFF);
        ins[0] = in;
        ins[1] = g_const_vec(&m, size, 2);
        g_io(&m, ins, 2, out);
        m.op.opt.align_corners = trial % 3 == 1;
        m.op.opt.half_pixel_centers = trial % 3 == 2 || trial % 7 == 1;
        fill_random(ei_arena, EI_ARENA);
        for (b = 0; b < so[0]; b++)
            for (y = 0; y < so[1]; y++)
                for (x = 0; x < so[2]; x++)
                    for (c = 0; c < so[3] * esz; c++) {
                        int iy = ref_nearest(y, s[1], so[1], m.op.opt.align_corners,
                                             m.op.opt.half_pixel_centers);
                        int ix = ref_nearest(x, s[2], so[2], m.op.opt.align_corners,
                                             m.op.opt.half_pixel_centers);
                        want[o++] = ei_arena[IN_OFF + ((b * s[1] + iy) * s[2] + ix) * s[3] * esz + c];
                    }
        ok &= run_op(&te_op_resize_nearest_neighbor, &m) == 0;
        ok &= memcmp(ei_arena + OUT_OFF, want, (size_t)o) == 0;
    }
    CHECK(ok);
    /* the classic cases */
    CHECK(ref_nearest(3, 6, 12, 0, 1) == 1 && ref_nearest(0, 6, 12, 0, 1) == 0);
    CHECK(ref_nearest(11, 6, 12, 0, 1) == 5 && ref_nearest(5, 8, 16, 0, 0) == 2);
}

static void test_resize_errors(void)
{
    op_graph m;
    int s[4] = {1, 4, 4, 3}, so[4] = {1, 8, 8, 3}, in, out, ins[2];
    int32_t size[2] = {8, 7};
    g_init(&m, TE_OP_RESIZE_NEAREST_NEIGHBOR);
    in = og_tensor(&m, TE_DT_INT8, 4, s, IN_OFF);
    out = og_tensor(&m, TE_DT_INT8, 4, so, OUT_OFF);
    ins[0] = in;
    ins[1] = g_const_vec(&m, size, 2);
    g_io(&m, ins, 2, out);
    CHECK(run_op(&te_op_resize_nearest_neighbor, &m) == -1 && strstr(ei_last_error, "size"));
    size[1] = 8;
    og_const_i32(&m, ins[1], size, 2);
    CHECK(run_op(&te_op_resize_nearest_neighbor, &m) == 0);
    m.t[out].shape[3] = 4;
    CHECK(run_op(&te_op_resize_nearest_neighbor, &m) == -1 && strstr(ei_last_error, "channel"));
}

/* ---- QUANTIZE / DEQUANTIZE lowerings ------------------------------------ */

static void test_quantize_ops(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 200; trial++) {
        op_graph m;
        int shape[2] = {1, 300}, in, out, i;
        int from_float = trial % 2 == 0;
        g_init(&m, TE_OP_QUANTIZE);
        in = og_tensor(&m, from_float ? TE_DT_FLOAT32 : TE_DT_INT8, 2, shape, IN_OFF);
        out = og_tensor(&m, TE_DT_INT8, 2, shape, OUT_OFF);
        m.scale[in] = ldexpf((float)test_rand_range(1, 1 << 22), test_rand_range(-30, -14));
        m.zp[in] = test_rand_range(-128, 127);
        m.scale[out] = ldexpf((float)test_rand_range(1, 1 << 22), test_rand_range(-30, -14));
        m.zp[out] = test_rand_range(-128, 127);
        g_io(&m, &in, 1, out);
        fill_random(ei_arena, EI_ARENA);
        if (from_float)
            for (i = 0; i < 300; i++)
                ((float *)(void *)(ei_arena + IN_OFF))[i] =
                    m.scale[out] * (float)test_rand_range(-150000, 150000) / 1000.0f;
        ok &= run_op(&te_op_quantize, &m) == 0;
        for (i = 0; i < 300; i++) {
            int32_t want;
            if (from_float) {
                want = ref_affine(((float *)(void *)(ei_arena + IN_OFF))[i], m.scale[out],
                                  (int32_t)m.zp[out], -128, 127);
            } else {
                int32_t mult;
                int shift;
                te_quantize_multiplier((double)m.scale[in] / (double)m.scale[out], &mult, &shift);
                want = te_clamp_i32(te_mul_by_quant_mult(ei_arena[IN_OFF + i] - (int32_t)m.zp[in],
                                                         mult, shift) + (int32_t)m.zp[out],
                                    -128, 127);
            }
            ok &= ei_arena[OUT_OFF + i] == want;
        }
    }
    CHECK(ok);
}

static void test_quantize_errors(void)
{
    op_graph m;
    int shape[2] = {1, 10}, in, out;
    g_init(&m, TE_OP_QUANTIZE);
    in = og_tensor(&m, TE_DT_FLOAT32, 2, shape, IN_OFF);
    out = og_tensor(&m, TE_DT_UINT8, 2, shape, OUT_OFF);
    g_io(&m, &in, 1, out);
    CHECK(run_op(&te_op_quantize, &m) == -1 && strstr(ei_last_error, "not supported"));
    m.t[out].type = TE_DT_INT8;
    m.scale[out] = 0.0f;
    CHECK(run_op(&te_op_quantize, &m) == -1 && strstr(ei_last_error, "scale"));
    m.scale[out] = 0.5f;
    m.t[out].shape[1] = 11;
    CHECK(run_op(&te_op_quantize, &m) == -1 && strstr(ei_last_error, "elements"));
}

static void test_dequantize_op(void)
{
    int trial, ok = 1;
    for (trial = 0; trial < 100; trial++) {
        op_graph m;
        int shape[1] = {256}, in, out, i;
        g_init(&m, TE_OP_DEQUANTIZE);
        in = og_tensor(&m, TE_DT_INT8, 1, shape, IN_OFF);
        out = og_tensor(&m, TE_DT_FLOAT32, 1, shape, OUT_OFF);
        m.scale[in] = ldexpf((float)test_rand_range(1, 1 << 24), test_rand_range(-40, -10));
        m.zp[in] = test_rand_range(-128, 127);
        g_io(&m, &in, 1, out);
        for (i = 0; i < 256; i++)
            ei_arena[IN_OFF + i] = (int8_t)(i - 128);
        ok &= run_op(&te_op_dequantize, &m) == 0;
        for (i = 0; i < 256; i++) {
            float want = m.scale[in] * (float)(i - 128 - (int32_t)m.zp[in]), got;
            memcpy(&got, ei_arena + OUT_OFF + 4 * i, 4);
            ok &= memcmp(&got, &want, 4) == 0;
        }
    }
    CHECK(ok);
}

/* te_resize_nearest_s8 into a channel slice of a wider tensor (out_pitch >
 * depth) writes what the contiguous call writes, and nothing in between. */
static void test_resize_pitch(void)
{
    int k;
    for (k = 0; k < 50; k++) {
        const int32_t ih = test_rand_range(1, 5), iw = test_rand_range(1, 5);
        const int32_t oh = test_rand_range(1, 9), ow = test_rand_range(1, 9);
        const int32_t depth = test_rand_range(1, 9), pitch = depth + test_rand_range(1, 6);
        int8_t in[5 * 5 * 9], flat[9 * 9 * 9], wide[9 * 9 * 15];
        int32_t ym[9], xm[9], i, c, bad = 0;
        for (i = 0; i < ih * iw * depth; i++)
            in[i] = (int8_t)test_rand_range(-128, 127);
        for (i = 0; i < oh; i++)
            ym[i] = test_rand_range(0, ih - 1);
        for (i = 0; i < ow; i++)
            xm[i] = test_rand_range(0, iw - 1);
        memset(wide, 0x55, sizeof wide);
        te_resize_nearest_s8(in, flat, 1, ih, iw, depth, oh, ow, ym, xm, depth);
        te_resize_nearest_s8(in, wide, 1, ih, iw, depth, oh, ow, ym, xm, pitch);
        for (i = 0; i < oh * ow; i++)
            for (c = 0; c < pitch; c++)
                bad += wide[i * pitch + c] != (c < depth ? flat[i * depth + c] : 0x55);
        CHECK(bad == 0);
    }
}

int main(void)
{
    test_seed(20261121u);
    test_resize_pitch();
    test_copy_kernels();
    test_pad_kernel();
    test_quantize_float_kernel();
    test_requantize_kernels();
    test_dequantize_kernels();
    test_pad();
    test_reshape();
    test_squeeze();
    test_transpose();
    test_transpose_errors();
    test_concat();
    test_concat_errors();
    test_strided_slice();
    test_strided_slice_errors();
    test_resize();
    test_resize_errors();
    test_quantize_ops();
    test_quantize_errors();
    test_dequantize_op();
    return test_summary();
}
