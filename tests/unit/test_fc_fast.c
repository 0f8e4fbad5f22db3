/* test_fc_fast.c - the fast FULLY_CONNECTED kernels and their compile-time
 * layout (src/ops/fc_layout.c) against a plain reference written the way
 * TFLite Micro's FullyConnected computes (int32 sums, MultiplyByQuantized-
 * Multiplier, offset, clamp).
 *
 * runtime/te_fully_connected.c is compiled twice into this program: as the
 * te_runtime_host library (portable build) and, included below with
 * TE_TARGET_DSP, under dsp_* names, where the SMLAD/SXTB16 kernel runs on
 * te_common.h's exact portable emulation of those instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/fc_layout.h"
#include "testlib.h"

/* ---- the DSP build, renamed ---- */
#undef TE_KERNEL
#define TE_TARGET_DSP 1
#define te_fully_connected_s8 dsp_fc_s8
#define te_fully_connected_s8_fast dsp_fc_fast
#define te_fully_connected_s8_rows4 dsp_fc_rows4
#define te_fully_connected_s8_lanes dsp_fc_lanes
#define te_fully_connected_s8_dsp dsp_fc_dsp
#include "../../runtime/te_fully_connected.c"
#undef te_fully_connected_s8
#undef te_fully_connected_s8_fast
#undef te_fully_connected_s8_rows4
#undef te_fully_connected_s8_lanes
#undef te_fully_connected_s8_dsp

/* ---- the library (portable) build ---- */
#define TE_FC_ARGS                                                                           \
    const te_fully_connected_params *p, const int8_t *input, const int8_t *weights,           \
        const int32_t *bias, const int32_t *mult, const int32_t *shift, int8_t *output
void te_fully_connected_s8(TE_FC_ARGS);
void te_fully_connected_s8_fast(TE_FC_ARGS);
void te_fully_connected_s8_rows4(TE_FC_ARGS);
void te_fully_connected_s8_lanes(TE_FC_ARGS);

typedef void (*fc_kernel)(TE_FC_ARGS);

/* One random layer with everything the kernels take. */
typedef struct {
    te_fully_connected_params p;
    int8_t *in, *w;
    int32_t *bias, *mult, *shift; /* bias: NULL or per unit */
} layer;

static int32_t rand_i32(void) { return (int32_t)test_rand(); }

/* A multiplier as QuantizeMultiplier gives ([2^30, 2^31) or 0) and a shift
 * that is mostly negative (FC scales are small), sometimes >= 0. */
static void rand_requant(int32_t *m, int32_t *s)
{
    *m = test_rand() % 16 == 0 ? 0 : (int32_t)(0x40000000u | (test_rand() & 0x3fffffffu));
    switch (test_rand() % 8) {
    case 0:
        *s = test_rand_range(0, 4);
        break;
    case 1:
        *s = test_rand_range(-31, -20);
        break;
    default:
        *s = test_rand_range(-12, -1);
    }
}

/* Weights: symmetric int8 mostly, all of int8 sometimes, or extremes. */
static void fill_weights(int8_t *w, size_t n, size_t depth, int kind)
{
    /* extremes: rows of one value; odd rows -128 beside non-negative even
     * rows, the largest odd-row sums the DSP layout has to carry */
    static const int row_sign[4] = {127, -128, -127, 127};
    size_t i;
    for (i = 0; i < n; i++) {
        if (kind == 0)
            w[i] = (int8_t)test_rand_range(-127, 127);
        else if (kind == 1)
            w[i] = (int8_t)test_rand_range(-128, 127);
        else if (kind == 2)
            w[i] = (int8_t)(row_sign[i / depth % 4]);
        else
            w[i] = (int8_t)test_rand_range(-3, 3);
    }
}

static void make_layer(layer *l, int batches, int depth, int units, int wkind)
{
    int per_channel = test_rand() % 2, u;
    size_t n_in = (size_t)batches * depth, i;
    memset(&l->p, 0, sizeof l->p);
    l->p.batches = batches;
    l->p.depth = depth;
    l->p.units = units;
    l->p.input_offset = test_rand_range(-127, 128);
    l->p.output_offset = test_rand_range(-128, 127);
    if (test_rand() % 2) {
        l->p.act_min = -128;
        l->p.act_max = 127;
    } else {
        l->p.act_min = test_rand_range(-128, 0);
        l->p.act_max = test_rand_range(l->p.act_min, 127);
    }
    l->p.per_channel = per_channel;
    l->in = malloc(n_in);
    l->w = malloc((size_t)units * depth);
    l->bias = test_rand() % 4 ? malloc(sizeof(int32_t) * (size_t)units) : NULL;
    l->mult = malloc(sizeof(int32_t) * (size_t)units);
    l->shift = malloc(sizeof(int32_t) * (size_t)units);
    for (i = 0; i < n_in; i++)
        l->in[i] = (int8_t)(wkind == 2 ? -128 : test_rand_range(-128, 127));
    fill_weights(l->w, (size_t)units * depth, (size_t)depth, wkind);
    for (u = 0; u < units; u++) {
        if (l->bias)
            l->bias[u] = test_rand() % 2 ? rand_i32() >> test_rand_range(8, 31) : rand_i32();
        if (u == 0 || per_channel)
            rand_requant(&l->mult[u], &l->shift[u]);
        else {
            l->mult[u] = l->mult[0];
            l->shift[u] = l->shift[0];
        }
    }
}

static void free_layer(layer *l)
{
    free(l->in);
    free(l->w);
    free(l->bias);
    free(l->mult);
    free(l->shift);
}

/* TFLite's computation: int32 sums of (x + input_offset) * w (wrapping),
 * plus bias, MultiplyByQuantizedMultiplier, output offset, clamp. */
static void reference(const layer *l, int8_t *out)
{
    const te_fully_connected_params *p = &l->p;
    int b, u, k;
    for (b = 0; b < p->batches; b++)
        for (u = 0; u < p->units; u++) {
            uint32_t acc = l->bias ? (uint32_t)l->bias[u] : 0u;
            int32_t v;
            for (k = 0; k < p->depth; k++)
                acc += (uint32_t)((l->in[b * p->depth + k] + p->input_offset) *
                                  l->w[u * p->depth + k]);
            v = te_mul_by_quant_mult((int32_t)acc, l->mult[u], (int)l->shift[u]);
            v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
            out[b * p->units + u] = (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
        }
}

static int diffs(const int8_t *a, const int8_t *b, size_t n)
{
    size_t i;
    int d = 0;
    for (i = 0; i < n; i++)
        d += a[i] != b[i];
    return d;
}

/* 1 when some pair of rows has a lane that cannot be packed. */
static int unpackable(const layer *l)
{
    int u, k, d = l->p.depth;
    for (u = 0; u + 1 < l->p.units; u += 2)
        for (k = 0; k < d; k++)
            if (l->w[(u + 1) * d + k] == -128 && l->w[u * d + k] < 0)
                return 1;
    return 0;
}

static void check_layer(const layer *l, const char *what)
{
    const te_fully_connected_params *p = &l->p;
    size_t n_out = (size_t)p->batches * p->units;
    size_t rows = te_fc_dsp_rows(p->units), words = te_fc_dsp_words(p->units, p->depth);
    int8_t *ref = malloc(n_out), *out = malloc(n_out);
    int32_t *folded = calloc(rows, sizeof(int32_t)), *packed = malloc(sizeof(int32_t) * words);
    te_fully_connected_params fp = *p;
    static const fc_kernel fast[] = {te_fully_connected_s8_fast, te_fully_connected_s8_rows4,
                                     te_fully_connected_s8_lanes, dsp_fc_fast,
                                     dsp_fc_rows4,              dsp_fc_lanes};
    size_t i;
    int bad = 0, rc;
    reference(l, ref);
    te_fully_connected_s8(p, l->in, l->w, l->bias, l->mult, l->shift, out);
    bad += diffs(out, ref, n_out);
    dsp_fc_s8(p, l->in, l->w, l->bias, l->mult, l->shift, out);
    bad += diffs(out, ref, n_out);
    te_fc_fold_bias(l->w, p->units, p->depth, l->bias, p->input_offset, folded);
    fp.input_offset = 12345; /* folded: the fast kernels must not use it */
    for (i = 0; i < sizeof fast / sizeof fast[0]; i++) {
        memset(out, 0x55, n_out);
        fast[i](&fp, l->in, l->w, folded, l->mult, l->shift, out);
        bad += diffs(out, ref, n_out);
    }
    rc = te_fc_dsp_pack(l->w, p->units, p->depth, packed);
    CHECK(rc == (unpackable(l) ? -1 : 0));
    if (rc == 0) {
        memset(out, 0x55, n_out);
        dsp_fc_dsp(&fp, l->in, packed, folded, l->mult, l->shift, out);
        bad += diffs(out, ref, n_out);
    }
    CHECK(bad == 0);
    if (bad)
        printf("%s: b%d depth %d units %d per_channel %d: %d diffs\n", what, p->batches,
               p->depth, p->units, p->per_channel, bad);
    free(ref);
    free(out);
    free(folded);
    free(packed);
}

/* Random shapes around the kernels' edges: depth % 4, units % 8, the
 * DSP kernel's 508-input chunks. */
static void test_random(void)
{
    static const int depths[] = {1,   2,   3,   4,   5,   7,   8,    9,    16,  31,  64,
                                 127, 128, 129, 300, 507, 508, 509,  510,  511, 512, 640,
                                 1016, 1017, 1019, 1020, 1500};
    static const int units[] = {1, 2, 3, 7, 8, 9, 10, 15, 16, 17, 33, 64, 100};
    int i;
    for (i = 0; i < 600; i++) {
        layer l;
        int d = depths[test_rand() % (sizeof depths / sizeof depths[0])];
        int u = units[test_rand() % (sizeof units / sizeof units[0])];
        int kind = test_rand() % 8 == 0 ? 1 : (test_rand() % 8 == 0 ? 3 : 0);
        make_layer(&l, test_rand() % 4 == 0 ? test_rand_range(2, 3) : 1, d, u, kind);
        check_layer(&l, "random");
        free_layer(&l);
    }
}

/* Largest sums the layout allows: input all -128, whole rows of 127, -128,
 * -127 (odd rows' sums reach 508 * 16384 per chunk), over several chunks. */
static void test_extremes(void)
{
    static const int depths[] = {508, 511, 512, 1016, 1523, 2100};
    size_t i;
    for (i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        layer l;
        make_layer(&l, 1, depths[i], 16, 2);
        check_layer(&l, "extreme");
        free_layer(&l);
    }
}

/* -128 in an odd row next to a negative even-row weight cannot be packed;
 * next to a non-negative one it can. */
static void test_pack_limits(void)
{
    int8_t w[2 * 4] = {5, -1, 0, 0, -128, -128, 0, 0};
    int32_t out[8 * 1];
    CHECK(te_fc_dsp_pack(w, 2, 4, out) == -1);
    w[1] = 0;
    CHECK(te_fc_dsp_pack(w, 2, 4, out) == 0);
    /* lanes: row 0 in the low byte, row 1 * 256 on top; k = 0 and 2 first */
    CHECK(out[0] == (int32_t)(((uint32_t)(5 - 128 * 256) & 0xffffu) | 0u << 16));
    CHECK(out[4] == (int32_t)((uint32_t)(0 - 128 * 256) & 0xffffu));
}

/* The folded bias: bias + input_offset * sum(w), wrapping. */
static void test_fold(void)
{
    int8_t w[3] = {127, 127, 127};
    int32_t b = INT32_MAX, out;
    te_fc_fold_bias(w, 1, 3, &b, 128, &out);
    CHECK(out == (int32_t)((uint32_t)INT32_MAX + 381u * 128u));
    te_fc_fold_bias(w, 1, 3, NULL, -1, &out);
    CHECK(out == -381);
}

/* Accumulators of every size, and the int32 extremes. */
static int32_t rand_acc(void)
{
    switch (test_rand() % 4) {
    case 0:
        return rand_i32();
    case 1:
        return rand_i32() >> test_rand_range(0, 31);
    case 2:
        return test_rand_range(-1000, 1000);
    default:
        return test_rand() % 2 ? INT32_MIN + test_rand_range(0, 3)
                               : INT32_MAX - test_rand_range(0, 3);
    }
}

/* The one-multiplier store of x (shift < 0) against want, TFLite's
 * MultiplyByQuantizedMultiplier: saturated to int8, then with an output
 * offset that brings it near 0 and a narrower clamp.  1 when both agree. */
static int store_matches(int32_t x, int32_t m, int32_t s, int32_t want)
{
    uint32_t acc = (uint32_t)x;
    int8_t o1, o2;
    te_fully_connected_params p;
    te_fully_connected_outq q;
    memset(&p, 0, sizeof p);
    p.act_min = -128;
    p.act_max = 127;
    te_fully_connected_outq_init(&q, &p, &m, &s);
    te_fully_connected_store(&q, &acc, 0, &o1, 1);
    p.output_offset = (int32_t)(0u - (uint32_t)want - (uint32_t)test_rand_range(-100, 100));
    p.act_min = -100;
    te_fully_connected_outq_init(&q, &p, &m, &s);
    te_fully_connected_store(&q, &acc, 0, &o2, 1);
    return o1 == (int8_t)te_clamp_i32(want, -128, 127) &&
           o2 == (int8_t)te_clamp_i32((int32_t)((uint32_t)want + (uint32_t)p.output_offset), -100,
                                      127);
}

/* The requantization shortcuts against TFLite's MultiplyByQuantizedMultiplier. */
static void test_requant(void)
{
    int i, bad = 0, bad_store = 0;
    for (i = 0; i < 2000000; i++) {
        int32_t x = rand_acc(), m, s, want;
        int left;
        rand_requant(&m, &s);
        want = te_mul_by_quant_mult(x, m, (int)s);
        left = s > 0 ? (int)s : 0;
        bad += te_fully_connected_requant(x, m, left, left - (int)s) != want;
        if (s < 0)
            bad_store += !store_matches(x, m, s, want);
    }
    CHECK(bad == 0);
    CHECK(bad_store == 0);
}

int main(void)
{
    test_fold();
    test_pack_limits();
    test_requant();
    test_extremes();
    test_random();
    return test_summary();
}
