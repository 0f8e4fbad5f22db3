/* lut_softmax_s16.c - TFLite Micro's int16 SOFTMAX tables and input
 * rescaling, computed at compile time (see lut_softmax_s16.h).  Every step
 * is a float operation in TFLite's order (no contraction into fused
 * multiply-adds: each product is stored to a float first). */
#include "lut_softmax_s16.h"

#include <math.h>

#include "quant.h"

/* Clamped to int16's range, then converted (TFLite's min/max in float). */
static int16_t to_s16(float v)
{
    const float lo = -32768.0f, hi = 32767.0f;
    v = v > lo ? v : lo;
    v = v < hi ? v : hi;
    return (int16_t)v;
}

void te_lut_gen_s16(float (*f)(float), float in_min, float in_max, float out_min, float out_max,
                    int16_t lut[TE_LUT_S16_ENTRIES])
{
    const int steps = TE_LUT_S16_ENTRIES - 1;
    const float step = (in_max - in_min) / (float)steps;
    const float half_step = step / 2.0f;
    const float scale_inv = 65536.0f / (out_max - out_min);
    int i;
    for (i = 0; i < steps; i++) {
        volatile float x0 = (float)i * step, x1 = (float)(i + 1) * step;
        float val = f(in_min + x0);
        float val_mid = f(in_min + x0 + half_step);
        float val_next = f(in_min + x1);
        volatile float scaled = val * scale_inv, scaled_next = val_next * scale_inv,
                       scaled_mid = val_mid * scale_inv;
        float sample = roundf(scaled);
        float interp = roundf((scaled_next + roundf(scaled)) / 2.0f);
        float mid = roundf(scaled_mid);
        float bias = roundf((interp - mid) / 2.0f);
        lut[i] = to_s16(sample - bias);
    }
    {
        volatile float last = f(in_max) * scale_inv;
        lut[steps] = to_s16(roundf(last));
    }
}

static float exp_f(float x) { return expf(x); }

static float one_over_one_plus_x(float x) { return 1.0f / (1.0f + x); }

void te_lut_softmax_s16_tables(int16_t exp_lut[TE_LUT_S16_ENTRIES],
                               int16_t recip_lut[TE_LUT_S16_ENTRIES])
{
    te_lut_gen_s16(exp_f, -10.0f, 0.0f, -1.0f, 1.0f, exp_lut);
    te_lut_gen_s16(one_over_one_plus_x, 0.0f, 1.0f, -1.0f, 1.0f, recip_lut);
}

int te_lut_softmax_s16_prepare(double beta, float input_scale, int32_t *mult, int *shift)
{
    double m = (double)input_scale * beta / (10.0 / 65535.0);
    if (!(m > 0.0) || !isfinite(m))
        return -1;
    te_quantize_multiplier(m, mult, shift);
    return 0;
}
