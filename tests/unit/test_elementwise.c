/* test_elementwise.c - ADD, MUL, AVERAGE_POOL_2D, MAX_POOL_2D and MEAN:
 * each runtime kernel, with the parameters the compiler derives for it,
 * against a plain reference written here from TFLite Micro's formulas, over
 * random shapes, broadcast patterns, quantization, activations, windows and
 * axes; plus the operators' check() on a few invalid graphs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"
#include "ops/pool.h" /* te_pool_make_params */
#include "qt_graph.h"
#include "qtensor.h"
#include "quant/quant.h"
#include "ref_bcast.h"
#include "ref_pool.h"
#include "ref_reduce.h"
#include "te_add.h"
#include "te_common.h"
#include "te_mean.h"
#include "te_mul.h"
#include "te_pool.h"
#include "testlib.h"

/* Compiler-side parameter builders (src/ops/op_*.c; pooling: ops/pool.h). */
void te_add_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_add_params *p);
int te_add_make_lut(const te_add_params *p, int shift, int32_t *u1, int32_t *u2);
void te_mul_make_params(te_activation act, const te_tensor *a, const te_tensor *b,
                        const te_tensor *o, te_mul_params *p);
void te_mean_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                         te_mean_params *p);

#define MAXN 4096

/* ---- test tensors ------------------------------------------------------ */

static void qt_init(qtensor *q, int id, int rank, const int *shape, float scale, int zp)
{
    qt_init_type(q, id, TE_DT_INT8, rank, shape, scale, zp);
}

static void act_bounds(te_activation act, float scale, int zp, int32_t *lo, int32_t *hi)
{
    *lo = -128;
    *hi = 127;
    te_activation_range(act, scale, zp, -128, 127, lo, hi);
}

/* ---- ADD / MUL reference -------------------------------------------------- */

static int8_t ref_add(int8_t x, int8_t y, float s1, int z1, float s2, int z2, float so, int zo,
                      int32_t lo, int32_t hi)
{
    double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
    int32_t m1, m2, mo, a, b, sum;
    int e1, e2, eo;
    te_quantize_multiplier((double)s1 / twice_max, &m1, &e1);
    te_quantize_multiplier((double)s2 / twice_max, &m2, &e2);
    te_quantize_multiplier(twice_max / (1048576.0 * (double)so), &mo, &eo);
    a = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul((x - z1) * 1048576, m1), -e1);
    b = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul((y - z2) * 1048576, m2), -e2);
    sum = te_rounding_divide_by_pot(te_sat_round_doubling_high_mul(a + b, mo), -eo) + zo;
    return (int8_t)(sum < lo ? lo : sum > hi ? hi : sum);
}

static int8_t ref_mul(int8_t x, int8_t y, float s1, int z1, float s2, int z2, float so, int zo,
                      int32_t lo, int32_t hi)
{
    int32_t m, v;
    int e;
    te_quantize_multiplier((double)s1 * (double)s2 / (double)so, &m, &e);
    v = te_mul_by_quant_mult((x - z1) * (y - z2), m, e) + zo;
    return (int8_t)(v < lo ? lo : v > hi ? hi : v);
}

static void test_binary(int is_mul, int cases)
{
    static int8_t a[MAXN], b[MAXN], out[MAXN], ref[MAXN];
    int c;
    for (c = 0; c < cases; c++) {
        int r, ra, rb, so[6], sa[6], sb[6], idx[6] = {0}, n, i, z1, z2, zo, same = 1;
        float s1 = rand_scale_s8(), s2 = rand_scale_s8(), sout = rand_scale_s8();
        te_activation act = rand_act();
        qtensor ta, tb, to;
        int32_t lo, hi;
        ref_rand_bcast_dims(6, 6, &r, so, &ra, sa, &rb, sb);
        n = ref_elems(so, r);
        z1 = test_rand_range(-128, 127);
        z2 = test_rand_range(-128, 127);
        zo = test_rand_range(-128, 127);
        if (c % 5 == 0)
            s2 = s1; /* equal input scales */
        qt_init(&ta, 0, ra, sa, s1, z1);
        qt_init(&tb, 1, rb, sb, s2, z2);
        qt_init(&to, 2, r, so, sout, zo);
        fill_rand_s8(a, ref_elems(sa, ra));
        fill_rand_s8(b, ref_elems(sb, rb));
        act_bounds(act, sout, zo, &lo, &hi);
        for (i = 0; i < n; i++) {
            int ia = ref_bcast_index(idx, r, sa, ra), ib = ref_bcast_index(idx, r, sb, rb);
            ref[i] = is_mul ? ref_mul(a[ia], b[ib], s1, z1, s2, z2, sout, zo, lo, hi)
                            : ref_add(a[ia], b[ib], s1, z1, s2, z2, sout, zo, lo, hi);
            ref_next_index(idx, so, r);
        }
        memset(out, 0x55, (size_t)n + 16);
        if (is_mul) {
            te_mul_params p;
            te_mul_make_params(act, &ta.t, &tb.t, &to.t, &p);
            te_mul_s8(&p, a, b, out);
        } else {
            te_add_params p;
            te_add_make_params(act, &ta.t, &tb.t, &to.t, &p);
            te_add_s8(&p, a, b, out);
        }
        for (i = 0; i < n; i++)
            if (out[i] != ref[i])
                same = 0;
        for (i = n; i < n + 16; i++)
            if (out[i] != 0x55)
                same = 0;
        if (!same)
            fprintf(stderr, "%s case %d: rank %d (%d, %d) mismatch\n", is_mul ? "mul" : "add", c,
                    r, ra, rb);
        CHECK(same);
    }
}

/* ---- ADD table kernel ----------------------------------------------------
 * te_add_s8_lut with the tables the compiler finds, against ref_add, out of
 * place and in place over either same-shape input.  Every scale pair is
 * also drawn from "nice" ratios (1, 2, 1/2, 3...) where TFLite's roundings
 * hit exact ties.  Returns the number of cases that had tables. */

static float nice_scale(float base)
{
    static const float ratio[] = {1.0f, 2.0f, 0.5f, 3.0f, 0.25f, 1.5f, 4.0f, 0.75f};
    return base * ratio[test_rand() % 8];
}

/* Runs the lut kernel with output buffer `out` (may hold a copy of a or b
 * for in-place runs: then pass that copy as the same input). */
static int add_lut_run(const te_add_lut_params *lp, const int8_t *a, const int8_t *b, int8_t *out,
                       const int8_t *ref, int n)
{
    int i;
    te_add_s8_lut(lp, a, b, out);
    for (i = 0; i < n; i++)
        if (out[i] != ref[i])
            return 0;
    return 1;
}

static int test_add_lut(int cases)
{
    static int8_t a[MAXN], b[MAXN], out[MAXN + 16], ref[MAXN];
    int c, found = 0;
    for (c = 0; c < cases; c++) {
        int r, ra, rb, so[6], sa[6], sb[6], idx[6] = {0}, n, i, z1, z2, zo, ok = 1;
        float s1 = rand_scale_s8(), s2 = rand_scale_s8(), sout = rand_scale_s8();
        te_activation act = rand_act();
        qtensor ta, tb, to;
        int32_t lo, hi, u1[256], u2[256];
        te_add_params p;
        te_add_lut_params lp;
        ref_rand_bcast_dims(6, 6, &r, so, &ra, sa, &rb, sb);
        n = ref_elems(so, r);
        z1 = test_rand_range(-128, 127);
        z2 = test_rand_range(-128, 127);
        zo = test_rand_range(-128, 127);
        if (c % 3 == 0) { /* ties */
            s2 = nice_scale(s1);
            sout = nice_scale(s1);
        }
        if (c % 7 == 0)
            zo = -128;
        qt_init(&ta, 0, ra, sa, s1, z1);
        qt_init(&tb, 1, rb, sb, s2, z2);
        qt_init(&to, 2, r, so, sout, zo);
        fill_rand_s8(a, ref_elems(sa, ra));
        fill_rand_s8(b, ref_elems(sb, rb));
        act_bounds(act, sout, zo, &lo, &hi);
        for (i = 0; i < n; i++) {
            ref[i] = ref_add(a[ref_bcast_index(idx, r, sa, ra)], b[ref_bcast_index(idx, r, sb, rb)], s1,
                             z1, s2, z2, sout, zo, lo, hi);
            ref_next_index(idx, so, r);
        }
        te_add_make_params(act, &ta.t, &tb.t, &to.t, &p);
        if (!te_add_make_lut(&p, TE_ADD_LUT_SHIFT, u1, u2))
            continue;
        found++;
        lp.broadcast = p.broadcast;
        lp.size = p.size;
        memcpy(lp.dims, p.dims, sizeof lp.dims);
        memcpy(lp.stride1, p.stride1, sizeof lp.stride1);
        memcpy(lp.stride2, p.stride2, sizeof lp.stride2);
        lp.u1 = u1;
        lp.u2 = u2;
        lp.act_min = p.act_min;
        lp.act_max = p.act_max;
        memset(out, 0x55, sizeof out);
        ok = add_lut_run(&lp, a, b, out, ref, n);
        for (i = n; i < n + 16; i++)
            ok = ok && out[i] == 0x55;
        if (ref_elems(sa, ra) == n) { /* in place over input 1 */
            memcpy(out, a, (size_t)n);
            ok = ok && add_lut_run(&lp, out, b, out, ref, n);
        }
        if (ref_elems(sb, rb) == n) { /* in place over input 2 */
            memcpy(out, b, (size_t)n);
            ok = ok && add_lut_run(&lp, a, out, out, ref, n);
        }
        if (!ok)
            fprintf(stderr, "add lut case %d: rank %d (%d, %d) mismatch\n", c, r, ra, rb);
        CHECK(ok);
    }
    return found;
}

/* Every pair of int8 inputs through the table kernel, for one scale set. */
static int test_add_lut_exhaustive(float s1, int z1, float s2, int z2, float so, int zo,
                                   te_activation act)
{
    static int8_t a[65536], b[65536], out[65536];
    int shape[1] = {65536}, i, same = 1;
    qtensor ta, tb, to;
    int32_t lo, hi, u1[256], u2[256];
    te_add_params p;
    te_add_lut_params lp;
    qt_init(&ta, 0, 1, shape, s1, z1);
    qt_init(&tb, 1, 1, shape, s2, z2);
    qt_init(&to, 2, 1, shape, so, zo);
    for (i = 0; i < 65536; i++) {
        a[i] = (int8_t)((i >> 8) - 128);
        b[i] = (int8_t)((i & 255) - 128);
    }
    te_add_make_params(act, &ta.t, &tb.t, &to.t, &p);
    if (!te_add_make_lut(&p, TE_ADD_LUT_SHIFT, u1, u2))
        return 0;
    act_bounds(act, so, zo, &lo, &hi);
    memset(&lp, 0, sizeof lp);
    lp.size = 65536;
    lp.u1 = u1;
    lp.u2 = u2;
    lp.act_min = p.act_min;
    lp.act_max = p.act_max;
    te_add_s8_lut(&lp, a, b, out);
    for (i = 0; i < 65536; i++)
        if (out[i] != ref_add(a[i], b[i], s1, z1, s2, z2, so, zo, lo, hi))
            same = 0;
    CHECK(same);
    return 1;
}

static void test_add_lut_all(void)
{
    int found = test_add_lut(1500), exh = 0;
    /* nearly every scale set has tables (else te_add_s8 runs: still exact) */
    if (found < 1350)
        fprintf(stderr, "add lut: tables for only %d of 1500 cases\n", found);
    CHECK(found >= 1350);
    exh += test_add_lut_exhaustive(0.1f, 0, 0.1f, 0, 0.2f, 0, TE_ACT_NONE);
    exh += test_add_lut_exhaustive(0.1f, 3, 0.2f, -5, 0.1f, -128, TE_ACT_RELU);
    exh += test_add_lut_exhaustive(0.05f, -128, 0.05f, 127, 0.05f, 0, TE_ACT_NONE);
    exh += test_add_lut_exhaustive(0.03939f, -128, 0.1042f, 4, 0.05095f, -128, TE_ACT_RELU);
    exh += test_add_lut_exhaustive(0.01f, 7, 0.03f, -9, 0.02f, 11, TE_ACT_RELU6);
    fprintf(stderr, "add lut: tables for %d of 1500 random cases, %d of 5 exhaustive\n", found,
            exh);
}

/* ---- pooling ---------------------------------------------------------------- */

/* The kernel run with its output over its input (te_pool_inplace_safe
 * said it may) gives ref's bytes. */
static int pool_inplace_matches(int is_max, const te_pool_params *p, const int8_t *in,
                                const int8_t *ref, int in_elems, int out_elems)
{
    static int8_t buf[MAXN];
    memcpy(buf, in, (size_t)in_elems);
    if (is_max)
        te_pool_max_s8(p, buf, buf);
    else
        te_pool_avg_s8(p, buf, buf);
    return memcmp(buf, ref, (size_t)out_elems) == 0;
}

static void test_pool(int is_max, int cases)
{
    static int8_t in[MAXN], out[MAXN], ref[MAXN];
    int c, in_place = 0;
    for (c = 0; c < cases; c++) {
        int n = test_rand_range(1, 2), h = test_rand_range(1, 12), w = test_rand_range(1, 12);
        int ch = test_rand_range(1, 6), fh = test_rand_range(1, 5), fw = test_rand_range(1, 5);
        int sh = test_rand_range(1, 3), sw = test_rand_range(1, 3), oh, ow, i, same = 1;
        int ishape[4], oshape[4], zp = test_rand_range(-128, 127);
        float s = rand_scale_s8();
        te_padding pad = test_rand() % 2 ? TE_PAD_SAME : TE_PAD_VALID;
        te_options opt;
        te_pool_params p;
        qtensor ti, to;
        int32_t lo, hi;
        if (c % 7 == 0) { /* global pooling */
            fh = h;
            fw = w;
            pad = TE_PAD_VALID;
        }
        if (pad == TE_PAD_VALID && (fh > h || fw > w)) {
            fh = fh > h ? h : fh;
            fw = fw > w ? w : fw;
        }
        ref_pool_geometry(pad, n, h, w, ch, fh, fw, sh, sw, &opt, ishape, oshape);
        oh = oshape[1];
        ow = oshape[2];
        opt.activation = rand_act();
        qt_init(&ti, 0, 4, ishape, s, zp);
        qt_init(&to, 1, 4, oshape, s, zp);
        fill_rand_s8(in, n * h * w * ch);
        act_bounds(opt.activation, s, zp, &lo, &hi);
        ref_pool(is_max, in, (int)sizeof in[0], n, h, w, ch, fh, fw, sh, sw, pad, oh, ow, lo, hi,
                 ref);
        te_pool_make_params(&opt, &ti.t, &to.t, &p);
        memset(out, 0x55, (size_t)(n * oh * ow * ch) + 16);
        if (is_max)
            te_pool_max_s8(&p, in, out);
        else
            te_pool_avg_s8(&p, in, out);
        for (i = 0; i < n * oh * ow * ch; i++)
            if (out[i] != ref[i])
                same = 0;
        for (; i < n * oh * ow * ch + 16; i++)
            if (out[i] != 0x55)
                same = 0;
        if (te_pool_inplace_safe(&p)) {
            in_place++;
            if (!pool_inplace_matches(is_max, &p, in, ref, n * h * w * ch, n * oh * ow * ch))
                same = 0;
        }
        if (!same)
            fprintf(stderr, "%s pool case %d: %dx%dx%dx%d f%dx%d s%dx%d pad %d mismatch\n",
                    is_max ? "max" : "avg", c, n, h, w, ch, fh, fw, sh, sw, (int)pad);
        CHECK(same);
    }
    CHECK(in_place > cases / 10); /* the in-place geometry is exercised */
}

/* ---- MEAN reference ------------------------------------------------------ */

/* TFLite QuantizedMeanOrSum, written out. */
static int8_t ref_mean_value(int64_t sum, int64_t count, float si, int zi, float so, int zo)
{
    int32_t m, v;
    int e, k = 0;
    if (count == 0)
        return 0;
    te_quantize_multiplier((double)si / (double)so, &m, &e);
    while (((int64_t)2 << k) <= count)
        k++;
    if (k > 32)
        k = 32;
    if (k > 31 + e)
        k = 31 + e;
    m = (int32_t)(((int64_t)m << k) / count);
    e -= k;
    v = te_mul_by_quant_mult((int32_t)(sum - zi * count), m, e) + zo;
    return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

static void test_mean(int cases)
{
    static int8_t in[MAXN], out[MAXN], ref[MAXN];
    static int64_t sums[MAXN];
    int c;
    for (c = 0; c < cases; c++) {
        int r = test_rand_range(1, 5), shape[6], axes[8], n_axes, red[6], i;
        int oshape[6], orank, idx[6] = {0}, n, nout, same = 1, keep = (int)(test_rand() % 2);
        int zi = test_rand_range(-128, 127), zo = test_rand_range(-128, 127);
        float si = rand_scale_s8(), so = c % 6 == 0 ? si : rand_scale_s8();
        int64_t count;
        qtensor ti, to;
        te_tensor tax;
        te_mean_params p;
        uint8_t axbytes[32];
        if (c % 6 == 0)
            zo = zi; /* same quantization in and out */
        for (i = 0; i < r; i++)
            shape[i] = test_rand_range(1, r > 3 ? 5 : 9);
        n_axes = test_rand_range(0, 4);
        if (c % 4 == 0 && r == 4) { /* the usual global average pool */
            n_axes = 2;
            axes[0] = 1;
            axes[1] = test_rand() % 2 ? 2 : -2;
        } else {
            for (i = 0; i < n_axes; i++)
                axes[i] = test_rand_range(-r, r - 1); /* negatives and duplicates */
        }
        count = ref_reduce_shape(shape, r, axes, n_axes, keep, red, oshape, &orank);
        n = ref_elems(shape, r);
        nout = ref_elems(oshape, orank);
        fill_rand_s8(in, n);
        /* plain reference: accumulate each input element into its output */
        memset(sums, 0, sizeof sums);
        for (i = 0; i < n; i++) {
            sums[ref_reduce_out_index(idx, shape, red, r)] += in[i];
            ref_next_index(idx, shape, r);
        }
        for (i = 0; i < nout; i++)
            ref[i] = ref_mean_value(sums[i], count, si, zi, so, zo);
        /* kernel with the compiler's parameters */
        qt_init(&ti, 0, r, shape, si, zi);
        qt_init(&to, 2, orank, oshape, so, zo);
        qt_axis_tensor(&tax, 1, axes, n_axes, axbytes);
        te_mean_make_params(&ti.t, &tax, &to.t, &p);
        memset(out, 0x55, (size_t)nout + 16);
        te_mean_s8(&p, in, out);
        for (i = 0; i < nout; i++)
            if (out[i] != ref[i])
                same = 0;
        for (; i < nout + 16; i++)
            if (out[i] != 0x55)
                same = 0;
        if (!same)
            fprintf(stderr, "mean case %d: rank %d, %d axes, keep %d mismatch\n", c, r, n_axes,
                    keep);
        CHECK(same);
    }
}

/* Hand-computed QuantizedMeanOrSum values: equal scales give multiplier 2^30,
 * shift 1; with count 3 the fold makes it 715827882, shift 0, so the mean is
 * rounded to nearest (half away from zero), not truncated. */
static void test_mean_rounding(void)
{
    static const int8_t in[6] = {-2, -2, -1, 1, 2, 2};
    te_mean_params p;
    int8_t out[2];
    CHECK(ref_mean_value(-5, 3, 0.5f, 0, 0.5f, 0) == -2);
    CHECK(ref_mean_value(4, 3, 0.5f, 0, 0.5f, 0) == 1);
    CHECK(ref_mean_value(5, 3, 0.5f, 0, 0.5f, 0) == 2);
    memset(&p, 0, sizeof p);
    p.n_keep = 1;
    p.keep_size[0] = 2;
    p.keep_stride[0] = 3;
    p.n_red = 1;
    p.red_size[0] = 3;
    p.red_stride[0] = 1;
    p.count = 3;
    p.mult = 715827882;
    p.shift = 0;
    te_mean_s8(&p, in, out);
    CHECK(out[0] == -2 && out[1] == 2);
}

/* ---- check(): invalid graphs ---------------------------------------------- */

static void mini_set(qt_graph *m, int id, int rank, const int *shape, float scale, int zp)
{
    qg_set(m, id, TE_DT_INT8, rank, shape, scale, zp);
}

static const int s8x4[] = {1, 8, 8, 4}, s1x4[] = {1, 1, 1, 4}, s1x3[] = {1, 1, 1, 3};
static const int s4x4[] = {1, 4, 4, 4}, s3x3[] = {1, 3, 3, 4};

/* ADD / MUL: inputs of scale 0.1, output of scale 0.2, zero points 0. */
static void mini_binary(qt_graph *m, int opcode, const int *a, const int *b, const int *out)
{
    qg_init(m, opcode, 2);
    mini_set(m, 0, 4, a, 0.1f, 0);
    mini_set(m, 1, 4, b, 0.1f, 0);
    mini_set(m, 3, 4, out, 0.2f, 0);
}

/* Stride-2 pooling of a 1x8x8x4 input (scale 0.1, zero point 3) into an
 * output of shape out, scale out_scale, zero point 3. */
static void mini_pool(qt_graph *m, int opcode, te_padding pad, int filter, const int *out,
                      float out_scale)
{
    qg_init(m, opcode, 1);
    m->op.opt.padding = pad;
    m->op.opt.stride_h = m->op.opt.stride_w = 2;
    m->op.opt.filter_h = m->op.opt.filter_w = filter;
    mini_set(m, 0, 4, s8x4, 0.1f, 3);
    mini_set(m, 3, 4, out, out_scale, 3);
}

/* MEAN of a 1x8x8x4 input into 1x1x1x4 over an int32 axis tensor of
 * n_axes entries (axes: its little-endian data, NULL: not constant). */
static void mini_mean(qt_graph *m, int n_axes, const uint8_t *axes)
{
    qg_init(m, TE_OP_MEAN, 2);
    mini_set(m, 0, 4, s8x4, 0.1f, 3);
    mini_set(m, 3, 4, s1x4, 0.05f, -3);
    m->g.tensors[1].type = TE_DT_INT32;
    m->g.tensors[1].rank = 1;
    m->g.tensors[1].shape[0] = n_axes;
    if (axes) {
        m->g.tensors[1].data = axes;
        m->g.tensors[1].data_bytes = (size_t)(4 * n_axes);
    }
}

static void test_checks(void)
{
    static const uint8_t ax12[] = {1, 0, 0, 0, 2, 0, 0, 0}, ax5[] = {5, 0, 0, 0};
    qt_graph m;

    mini_binary(&m, TE_OP_ADD, s8x4, s1x4, s8x4);
    CHECK(qg_check(&m, NULL));
    mini_binary(&m, TE_OP_ADD, s8x4, s1x3, s8x4);
    CHECK(qg_check(&m, "do not broadcast"));
    mini_binary(&m, TE_OP_MUL, s8x4, s1x4, s4x4);
    CHECK(qg_check(&m, "broadcast shape"));
    mini_binary(&m, TE_OP_MUL, s8x4, s8x4, s8x4);
    m.g.tensors[1].type = TE_DT_FLOAT32;
    CHECK(qg_check(&m, "has type float32, expected int8"));

    mini_pool(&m, TE_OP_AVERAGE_POOL_2D, TE_PAD_VALID, 2, s4x4, 0.1f);
    CHECK(qg_check(&m, NULL));
    mini_pool(&m, TE_OP_MAX_POOL_2D, TE_PAD_VALID, 2, s3x3, 0.1f);
    CHECK(qg_check(&m, "expected [1,4,4,4]"));
    mini_pool(&m, TE_OP_MAX_POOL_2D, TE_PAD_SAME, 3, s4x4, 0.2f);
    CHECK(qg_check(&m, NULL)); /* another output scale: raw values, as TFLite Micro */

    mini_mean(&m, 2, ax12);
    CHECK(qg_check(&m, NULL));
    mini_mean(&m, 1, ax5);
    CHECK(qg_check(&m, "axis outside"));
    mini_mean(&m, 2, NULL);
    CHECK(qg_check(&m, "must be a constant"));
}

int main(void)
{
    test_seed(20240611u);
    test_binary(0, 1500);
    test_binary(1, 1500);
    test_add_lut_all();
    test_pool(0, 1500);
    test_pool(1, 1500);
    test_mean(2000);
    test_mean_rounding();
    test_checks();
    return test_summary();
}
