/* quant.c - compile-time quantization arithmetic (see quant.h). */
#include "quant.h"

#include <float.h>
#include <math.h>

static int32_t te_maxi(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t te_mini(int32_t a, int32_t b) { return a < b ? a : b; }

/* float -> int32 without UB for out-of-range values (tiny scales). */
static int32_t clamped_int(float q)
{
    if (!(q < 2e9f))
        return 2000000000;
    if (!(q > -2e9f))
        return -2000000000;
    return (int32_t)q;
}

double te_round(double x) { return round(x); }
float te_roundf(float x) { return roundf(x); }

void te_quantize_multiplier(double m, int32_t *multiplier, int *shift)
{
    double q;
    int64_t q_fixed;
    if (m == 0.0 || m != m) { /* zero, or NaN from a degenerate ratio */
        *multiplier = 0;
        *shift = 0;
        return;
    }
    if (m > DBL_MAX || m < -DBL_MAX) { /* infinite: no UB, an out-of-range shift */
        *multiplier = m > 0 ? INT32_MAX : -INT32_MAX;
        *shift = 1000; /* callers refuse shifts their kernels cannot apply */
        return;
    }
    q = frexp(m, shift);
    q_fixed = (int64_t)te_round(q * (double)(1LL << 31));
    if (q_fixed == (1LL << 31)) {
        q_fixed /= 2;
        ++*shift;
    }
    if (*shift < -31) {
        *shift = 0;
        q_fixed = 0;
    }
    /* (TFLite caps shift at 30 only in single-rounding builds; the reference
     * kernels use double rounding, so no cap here.) */
    *multiplier = (int32_t)q_fixed;
}

void te_quantize_multiplier_smaller_than_one(double m, int32_t *multiplier, int *left_shift)
{
    te_quantize_multiplier(m, multiplier, left_shift);
}

void te_dequantize_table(te_dtype type, float scale, int32_t zero_point, float lut[256])
{
    int i, lowest = type == TE_DT_INT8 ? -128 : 0; /* the value of entry 0 */
    for (i = 0; i < 256; i++) {
        float centered = (float)(i + lowest - zero_point);
        lut[i] = scale * centered;
    }
}

int te_activation_range(te_activation act, float scale, int32_t zero_point, int32_t qmin,
                        int32_t qmax, int32_t *act_min, int32_t *act_max)
{
#define TE_Q(f) (zero_point + clamped_int(te_roundf((f) / scale)))
    int32_t lo = qmin, hi = qmax;
    switch (act) {
    case TE_ACT_NONE:
        break;
    case TE_ACT_RELU:
        lo = te_maxi(qmin, TE_Q(0.0f));
        break;
    case TE_ACT_RELU6:
        lo = te_maxi(qmin, TE_Q(0.0f));
        hi = te_mini(qmax, TE_Q(6.0f));
        break;
    case TE_ACT_RELU_N1_TO_1:
        lo = te_maxi(qmin, TE_Q(-1.0f));
        hi = te_mini(qmax, TE_Q(1.0f));
        break;
    default:
        return -1;
    }
    *act_min = lo;
    *act_max = hi;
    return 0;
#undef TE_Q
}
