/* test_svdf.c - SVDF: the compiler's parameters (te_svdf_make_params) with
 * te_svdf_s8_s16 / te_svdf_s8_s8, against a plain reference written from
 * TFLite Micro's EvalIntegerSvdfReference (state shift, feature matmul
 * into the newest slot, time dots into a filter scratch, bias, rank
 * reduction into a unit scratch, rescale), over random sizes, ranks,
 * batches, zero points and scales, with and without bias, for several
 * invokes in a row (the state carries over).  Every case also runs the
 * DSP kernel of its type, with the compiler's folded biases, through
 * te_common.h's exact portable SMLAD / SXTB16. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "quant/quant.h"
#include "testlib.h"
/* the kernels, DSP one included (external: not the runtime library's) */
#define TE_TARGET_DSP 1
#include "../../runtime/te_svdf.c"

void te_svdf_make_params(const te_tensor *in, const te_tensor *wf, const te_tensor *wt,
                         const te_tensor *st, const te_tensor *out, int rank, te_svdf_params *p);
void te_svdf_dsp_biases(const te_svdf_params *p, const int8_t *wf, const void *wt, int wt16,
                        const int32_t *bias, int32_t *feature_bias, int32_t *unit_bias);

#define MAXS 4096

typedef struct {
    te_tensor t;
    float scale;
    int64_t zp;
} qtensor;

static void qt_init(qtensor *q, te_dtype type, int d0, int d1, float scale, int zp)
{
    memset(q, 0, sizeof *q);
    q->t.name = "t";
    q->t.type = type;
    q->t.rank = 2;
    q->t.shape[0] = d0;
    q->t.shape[1] = d1;
    q->scale = scale;
    q->zp = zp;
    q->t.q.count = 1;
    q->t.q.scale = &q->scale;
    q->t.q.zero_point = &q->zp;
}

/* TFLite's MultiplyByQuantizedMultiplier, written plainly with int64. */
static int32_t ref_mbqm(int32_t x, int32_t m, int shift)
{
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    int64_t a = (int64_t)(int32_t)((uint32_t)x << left), ab;
    int32_t hi, mask, rem, thr;
    if (a == INT32_MIN && m == INT32_MIN)
        hi = INT32_MAX;
    else {
        ab = a * m;
        hi = (int32_t)((ab + (ab >= 0 ? (1LL << 30) : 1 - (1LL << 30))) / (1LL << 31));
    }
    mask = (int32_t)((1LL << right) - 1);
    rem = hi & mask;
    thr = (mask >> 1) + (hi < 0 ? 1 : 0);
    return (hi >> right) + (rem > thr ? 1 : 0);
}

static int32_t clampi(int64_t v, int32_t lo, int32_t hi)
{
    return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* One invoke of the reference; state is int32 holding the state type. */
static void ref_svdf(const te_svdf_params *p, int smin, int smax, const int8_t *in,
                     const int8_t *wf, const int32_t *wt, const int32_t *bias, int32_t *state,
                     int8_t *out)
{
    static int32_t scratch[MAXS], scratch_out[MAXS];
    int nb = p->batches, nf = p->filters, nm = p->memory, nu = p->filters / p->rank;
    int b, f, j, u, r, c;
    memmove(state, state + 1, (size_t)(nb * nf * nm - 1) * sizeof *state);
    for (b = 0; b < nb; b++)
        for (f = 0; f < nf; f++) {
            int64_t dot = 0;
            for (c = 0; c < p->input_size; c++)
                dot += wf[f * p->input_size + c] * (in[b * p->input_size + c] + p->input_offset);
            state[(b * nf + f) * nm + nm - 1] =
                clampi((int64_t)ref_mbqm((int32_t)dot, p->feature_mult, p->feature_shift) +
                           p->state_zp, smin, smax);
        }
    for (b = 0; b < nb; b++)
        for (f = 0; f < nf; f++) {
            int64_t dot = 0;
            for (j = 0; j < nm; j++)
                dot += (int64_t)wt[f * nm + j] * (state[(b * nf + f) * nm + j] - p->state_zp);
            scratch[b * nf + f] = (int32_t)(uint32_t)dot;
        }
    for (b = 0; b < nb; b++)
        for (u = 0; u < nu; u++) {
            uint32_t acc = bias ? (uint32_t)bias[u] : 0;
            for (r = 0; r < p->rank; r++)
                acc += (uint32_t)scratch[b * nf + u * p->rank + r];
            scratch_out[b * nu + u] = (int32_t)acc;
        }
    for (u = 0; u < nb * nu; u++)
        out[u] = (int8_t)clampi(
            (int64_t)ref_mbqm(scratch_out[u], p->output_mult, p->output_shift) + p->output_zp,
            -128, 127);
}

static int isqrt(int n)
{
    int r = 1;
    while ((r + 1) * (r + 1) <= n)
        r++;
    return r;
}

static void run_case(int c)
{
    static int8_t in[MAXS], wf[MAXS], wt8[MAXS], st8[MAXS], want[MAXS], got[MAXS + 4];
    static int16_t wt16[MAXS], st16[MAXS];
    static int32_t wt32[MAXS], st32[MAXS], bias[MAXS];
    static int32_t fbias[MAXS], ubias[MAXS];
    static int8_t st8d[MAXS], gotd[MAXS + 4];
    static int16_t st16d[MAXS];
    int s16 = c % 2, rank = test_rand_range(1, 3), units = test_rand_range(1, 12);
    int nb = test_rand_range(1, 3), ni = test_rand_range(1, 40), nm = test_rand_range(1, 12);
    int nf = units * rank, has_bias = c % 5 != 0, smin = s16 ? -32768 : -128,
        smax = s16 ? 32767 : 127, i, step, ok = 1;
    int zi = test_rand_range(-128, 127), zo = test_rand_range(-128, 127),
        zs = s16 ? (c % 3 == 0 ? test_rand_range(-300, 300) : 0) : test_rand_range(-128, 127);
    /* scales that keep most states and outputs off their clamps: the
     * feature dot (~sqrt(n) * 127 * 74) lands near a quarter of the state
     * range, the time dot near +-50 output steps */
    float si = 0.001f * (float)test_rand_range(1, 100), swf = 0.0005f * (float)test_rand_range(1, 40),
          swt = 0.001f * (float)test_rand_range(1, 100), k1 = 0.25f * (float)test_rand_range(1, 12),
          k2 = 0.25f * (float)test_rand_range(1, 12);
    float s1 = k1 * (float)(smax / 4) / (9400.0f * (float)isqrt(ni)),
          ss = si * swf / s1,
          s2 = k2 * 50.0f / ((float)isqrt(nm * rank) * (float)(smax / 2) * (float)(smax / 4)),
          so = ss * swt / s2;
    int32_t bias_range = s16 ? 100000000 : 5000;
    qtensor tin, twf, twt, tst, tout;
    te_svdf_params p;
    if (nb * nf * nm > MAXS || nf * ni > MAXS)
        return;
    qt_init(&tin, TE_DT_INT8, nb, ni, si, zi);
    qt_init(&twf, TE_DT_INT8, nf, ni, swf, 0);
    qt_init(&twt, s16 ? TE_DT_INT16 : TE_DT_INT8, nf, nm, swt, 0);
    qt_init(&tst, s16 ? TE_DT_INT16 : TE_DT_INT8, nb, nf * nm, ss, zs);
    qt_init(&tout, TE_DT_INT8, nb, units, so, zo);
    te_svdf_make_params(&tin.t, &twf.t, &twt.t, &tst.t, &tout.t, rank, &p);
    for (i = 0; i < nf * ni; i++)
        wf[i] = (int8_t)test_rand_range(-127, 127);
    for (i = 0; i < nf * nm; i++) {
        wt32[i] = test_rand_range(s16 ? -32767 : -127, s16 ? 32767 : 127);
        wt16[i] = (int16_t)wt32[i];
        wt8[i] = (int8_t)wt32[i];
    }
    for (i = 0; i < units; i++)
        bias[i] = test_rand_range(-bias_range, bias_range);
    for (i = 0; i < nb * nf * nm; i++) { /* zeroed state, as after reset */
        st32[i] = 0;
        st16[i] = 0;
        st8[i] = 0;
        st8d[i] = 0;
        st16d[i] = 0;
    }
    if (s16)
        te_svdf_dsp_biases(&p, wf, wt16, 1, has_bias ? bias : NULL, fbias, ubias);
    else
        te_svdf_dsp_biases(&p, wf, wt8, 0, has_bias ? bias : NULL, fbias, ubias);
    for (step = 0; step < 4; step++) {
        for (i = 0; i < nb * ni; i++)
            in[i] = (int8_t)test_rand_range(-128, 127);
        ref_svdf(&p, smin, smax, in, wf, wt32, has_bias ? bias : NULL, st32, want);
        memset(got, 0x55, sizeof got);
        memset(gotd, 0x55, sizeof gotd);
        if (s16) {
            te_svdf_s8_s16(&p, in, wf, wt16, has_bias ? bias : NULL, st16, got);
            te_svdf_s8_s16_dsp(&p, in, wf, fbias, wt16, ubias, st16d, gotd);
        } else {
            te_svdf_s8_s8(&p, in, wf, wt8, has_bias ? bias : NULL, st8, got);
            te_svdf_s8_s8_dsp(&p, in, wf, fbias, wt8, ubias, st8d, gotd);
        }
        for (i = 0; i < nb * units; i++)
            ok &= gotd[i] == want[i];
        ok &= (uint8_t)gotd[nb * units] == 0x55;
        for (i = 0; i < nb * nf * nm; i++)
            ok &= (s16 ? st16d[i] : st8d[i]) == st32[i];
        for (i = 0; i < nb * units; i++)
            ok &= got[i] == want[i];
        ok &= (uint8_t)got[nb * units] == 0x55;
        for (i = 0; i < nb * nf * nm; i++)
            ok &= (s16 ? st16[i] : st8[i]) == st32[i];
    }
    if (!ok)
        fprintf(stderr, "svdf case %d: %s batches %d input %d filters %d rank %d memory %d "
                "mismatch\n", c, s16 ? "s16" : "s8", nb, ni, nf, rank, nm);
    CHECK(ok);
}

int main(void)
{
    int c;
    test_seed(20261126u);
    for (c = 0; c < 400; c++)
        run_case(c);
    return test_summary();
}
