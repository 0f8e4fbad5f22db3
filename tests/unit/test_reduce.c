/* test_reduce.c - REDUCE_MAX, REDUCE_MIN and SUM int8: the compiler's
 * parameters (te_reduce_make_params, te_sum_make_params) with their kernels
 * (te_reduce_max_s8, te_reduce_min_s8, te_mean_s8), against a plain
 * reference written from TFLite Micro's ReduceGeneric and QuantizedMeanOrSum
 * (compute_sum), over random ranks 1-5, axes (negative and repeated ones
 * included), keep_dims and quantizations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "qtensor.h"
#include "quant/quant.h"
#include "ref_bcast.h"
#include "ref_reduce.h"
#include "te_common.h"
#include "te_mean.h"
#include "te_reduce.h"
#include "testlib.h"

void te_reduce_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                           te_reduce_params *r);
void te_sum_make_params(const te_tensor *in, const te_tensor *axis, const te_tensor *out,
                        te_mean_params *p);

#define MAXN 4096

/* kind: 0 max, 1 min, 2 sum */
static void run_case(int kind, int c)
{
    static int8_t in[MAXN], out[MAXN + 16], ref[MAXN];
    static int64_t acc[MAXN];
    int r = test_rand_range(1, 5), shape[6], axes[8], n_axes, red[6], i, k;
    int oshape[6], orank, idx[6] = {0}, n = 1, nout, same = 1,
        keep = (int)(test_rand() % 2);
    int zi = test_rand_range(-128, 127), zo = kind == 2 ? test_rand_range(-128, 127) : zi;
    float si = 0.01f + (float)test_rand_range(1, 1000) / 1000.0f;
    float so = kind == 2 ? si * (float)test_rand_range(1, 400) / 10.0f : si;
    int64_t count;
    qtensor ti, to;
    te_tensor tax;
    uint8_t axbytes[32];
    for (i = 0; i < r; i++) {
        shape[i] = test_rand_range(1, r > 3 ? 5 : 9);
        n *= shape[i];
    }
    n_axes = test_rand_range(0, 4);
    for (i = 0; i < n_axes; i++)
        axes[i] = test_rand_range(-r, r - 1);
    count = ref_reduce_shape(shape, r, axes, n_axes, keep, red, oshape, &orank);
    nout = ref_elems(oshape, orank);
    for (i = 0; i < n; i++)
        in[i] = (int8_t)test_rand_range(-128, 127);
    for (i = 0; i < nout; i++)
        acc[i] = kind == 0 ? -128 : kind == 1 ? 127 : 0;
    for (i = 0; i < n; i++) { /* plain reference: each element into its output */
        int o = ref_reduce_out_index(idx, shape, red, r);
        if (kind == 0)
            acc[o] = in[i] > acc[o] ? in[i] : acc[o];
        else if (kind == 1)
            acc[o] = in[i] < acc[o] ? in[i] : acc[o];
        else
            acc[o] += in[i];
        for (k = r - 1; k >= 0 && ++idx[k] == shape[k]; k--)
            idx[k] = 0;
    }
    for (i = 0; i < nout; i++) {
        if (kind < 2) {
            ref[i] = (int8_t)acc[i];
        } else {
            int32_t m, v;
            int e;
            te_quantize_multiplier((double)si / (double)so, &m, &e);
            v = te_mul_by_quant_mult((int32_t)(acc[i] - zi * count), m, e) + zo;
            ref[i] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
        }
    }
    qt_init_type(&ti, 0, TE_DT_INT8, r, shape, si, zi);
    qt_init_type(&to, 0, TE_DT_INT8, orank, oshape, so, zo);
    qt_axis_tensor(&tax, 0, axes, n_axes, axbytes);
    memset(out, 0x55, sizeof out);
    if (kind < 2) {
        te_reduce_params p;
        te_reduce_make_params(&ti.t, &tax, &to.t, &p);
        (kind == 0 ? te_reduce_max_s8 : te_reduce_min_s8)(&p, in, out);
    } else {
        te_mean_params p;
        te_sum_make_params(&ti.t, &tax, &to.t, &p);
        te_mean_s8(&p, in, out);
    }
    for (i = 0; i < nout; i++)
        same &= out[i] == ref[i];
    for (; i < nout + 16; i++)
        same &= out[i] == 0x55;
    if (!same)
        fprintf(stderr, "reduce kind %d case %d: rank %d, %d axes, keep %d mismatch\n", kind, c,
                r, n_axes, keep);
    CHECK(same);
}

/* SUM saturates; MAX of an all -128 row stays -128 (the initial value). */
static void test_hand_values(void)
{
    static const int8_t in[6] = {100, 100, 100, -128, -128, -128};
    te_mean_params p;
    te_reduce_params q;
    int8_t out[2];
    memset(&p, 0, sizeof p);
    p.n_keep = 1;
    p.keep_size[0] = 2;
    p.keep_stride[0] = 3;
    p.n_red = 1;
    p.red_size[0] = 3;
    p.red_stride[0] = 1;
    p.count = 3;
    te_quantize_multiplier(1.0, &p.mult, &p.shift);
    te_mean_s8(&p, in, out);
    CHECK(out[0] == 127 && out[1] == -128);
    memset(&q, 0, sizeof q);
    q.n_keep = 1;
    q.keep_size[0] = 2;
    q.keep_stride[0] = 3;
    q.n_red = 1;
    q.red_size[0] = 3;
    q.red_stride[0] = 1;
    q.count = 3;
    te_reduce_max_s8(&q, in, out);
    CHECK(out[0] == 100 && out[1] == -128);
    te_reduce_min_s8(&q, in, out);
    CHECK(out[0] == 100 && out[1] == -128);
}

int main(void)
{
    int c, kind;
    test_seed(20261127u);
    for (kind = 0; kind < 3; kind++)
        for (c = 0; c < 400; c++)
            run_case(kind, c);
    test_hand_values();
    return test_summary();
}
