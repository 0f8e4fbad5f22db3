/* test_arg_min_max.c - ARG_MAX / ARG_MIN kernels against a plain reference
 * written from TFLite Micro's ArgMinMax: random [outer, axis, inner]
 * shapes, values drawn from a small range so that ties are common (the
 * first index must win), int8 and float32 inputs, int32 and int64 outputs. */
#include <stdlib.h>
#include <string.h>

#include "te_arg_min_max.h"
#include "te_common.h"
#include "testlib.h"

#define MAXN 4096

/* Reference: index of the first largest (is_max) or smallest value. */
static int64_t ref_index(const float *v, int n, int step, int is_max)
{
    int k, best = 0;
    for (k = 1; k < n; k++) {
        float a = v[k * step], b = v[best * step];
        if (is_max ? a > b : a < b)
            best = k;
    }
    return best;
}

static void run_case(int is_float, int is_max, int out64)
{
    static int8_t in8[MAXN];
    static float inf[MAXN], asf[MAXN];
    static int64_t want[MAXN], got64[MAXN + 4];
    static int32_t got32[MAXN + 4];
    int outer = test_rand_range(1, 6), axis = test_rand_range(1, 40), inner = test_rand_range(1, 9);
    int n = outer * axis * inner, spread = test_rand_range(1, 255), i, o, j, ok = 1;
    for (i = 0; i < n; i++) {
        int v = test_rand_range(-128, -128 + spread);
        in8[i] = (int8_t)v;
        inf[i] = (float)v * 0.25f;
        asf[i] = is_float ? inf[i] : (float)v;
    }
    for (o = 0; o < outer; o++)
        for (j = 0; j < inner; j++)
            want[o * inner + j] = ref_index(asf + (long)o * axis * inner + j, axis, inner, is_max);
    memset(got32, 0x55, sizeof got32);
    memset(got64, 0x55, sizeof got64);
    {
        void *out = out64 ? (void *)got64 : (void *)got32;
        if (is_float)
            (is_max ? te_arg_max_f32 : te_arg_min_f32)(inf, out, outer, axis, inner, out64);
        else
            (is_max ? te_arg_max_s8 : te_arg_min_s8)(in8, out, outer, axis, inner, out64);
    }
    for (i = 0; i < outer * inner; i++)
        ok &= out64 ? got64[i] == want[i] : got32[i] == want[i];
    ok &= out64 ? got64[outer * inner] == 0x5555555555555555LL
                : got32[outer * inner] == 0x55555555;
    CHECK(ok);
}

static void test_ties(void)
{
    static const int8_t v[6] = {3, 7, 7, -2, -2, 7};
    int32_t out[1];
    te_arg_max_s8(v, out, 1, 6, 1, 0);
    CHECK(out[0] == 1);
    te_arg_min_s8(v, out, 1, 6, 1, 0);
    CHECK(out[0] == 3);
}

int main(void)
{
    int t;
    test_seed(20261128u);
    for (t = 0; t < 800; t++)
        run_case(t % 2, (t / 2) % 2, (t / 4) % 2);
    test_ties();
    return test_summary();
}
