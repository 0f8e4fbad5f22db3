/* lut_unary.c - tables of TFLite Micro's int8 LEAKY_RELU, ELU, ABS and
 * MINIMUM / MAXIMUM with a scalar (see lut_unary.h). */
#include "lut_unary.h"

#include <math.h>
#include <string.h>

#include "fixedpoint.h"
#include "quant.h"

static int8_t clamp_i8(int32_t v) { return (int8_t)te_clamp_i32(v, -128, 127); }

/* MultiplyByQuantizedMultiplier's left shift `x * (1 << shift)` is defined
 * up to 31 bits; larger ones (absurd scale ratios) are refused. */
static int shift_ok(int shift) { return shift <= 31; }

static int leaky_relu_uncached(float input_scale, int32_t input_zero_point, float output_scale,
                               int32_t output_zero_point, float alpha, int8_t table[256]);

#if defined(__GNUC__)
#define LUT_MEMO_STORAGE static __thread
#else
#define LUT_MEMO_STORAGE static /* compilers without thread-local storage: one thread */
#endif

/* The table of the last arguments asked, per thread: every patch clone of
 * a LEAKY_RELU is checked with its operator's quantization. */
int te_lut_leaky_relu(float input_scale, int32_t input_zero_point, float output_scale,
                      int32_t output_zero_point, float alpha, int8_t table[256])
{
    LUT_MEMO_STORAGE struct {
        int have, rc;
        float args[3];
        int32_t zero_points[2];
        int8_t table[256];
    } memo;
    const float args[3] = {input_scale, output_scale, alpha};
    const int32_t zero_points[2] = {input_zero_point, output_zero_point};
    if (!memo.have || memcmp(args, memo.args, sizeof args) ||
        memcmp(zero_points, memo.zero_points, sizeof zero_points)) {
        memo.rc = leaky_relu_uncached(input_scale, input_zero_point, output_scale,
                                      output_zero_point, alpha, memo.table);
        memcpy(memo.args, args, sizeof args);
        memcpy(memo.zero_points, zero_points, sizeof zero_points);
        memo.have = 1;
    }
    if (memo.rc == 0)
        memcpy(table, memo.table, 256);
    return memo.rc;
}

static int leaky_relu_uncached(float input_scale, int32_t input_zero_point, float output_scale,
                               int32_t output_zero_point, float alpha, int8_t table[256])
{
    /* float products and quotients, widened to double afterwards (TFLM) */
    float alpha_ratio = input_scale * alpha / output_scale;
    float identity_ratio = input_scale / output_scale;
    int32_t m_alpha, m_identity;
    int s_alpha, s_identity, v;
    te_quantize_multiplier((double)alpha_ratio, &m_alpha, &s_alpha);
    te_quantize_multiplier((double)identity_ratio, &m_identity, &s_identity);
    if (!shift_ok(s_alpha) || !shift_ok(s_identity))
        return -1;
    for (v = -128; v <= 127; v++) {
        int32_t x = v - input_zero_point;
        int32_t r = x >= 0 ? te_mul_by_quant_mult(x, m_identity, s_identity)
                           : te_mul_by_quant_mult(x, m_alpha, s_alpha);
        table[(uint8_t)v] = clamp_i8(output_zero_point + r);
    }
    return 0;
}

/* float -> int32 as x86-64 converts it (out of range: INT32_MIN). */
static int32_t float_to_i32(float x)
{
    if (!(x >= -2147483648.0f && x < 2147483648.0f))
        return INT32_MIN;
    return (int32_t)x;
}

void te_lut_elu(float input_scale, int32_t input_zero_point, float output_scale,
                int32_t output_zero_point, int8_t table[256])
{
    const float inverse_scale = 1.0f / output_scale;
    int v;
    for (v = -128; v <= 127; v++) {
        float x = input_scale * (float)(v - input_zero_point);
        float y = x < 0.0f ? expf(x) - 1.0f : x;
        float rescaled = roundf(y * inverse_scale);
        int32_t q = float_to_i32(rescaled + (float)output_zero_point);
        table[(uint8_t)v] = clamp_i8(q);
    }
}

int te_lut_abs(float input_scale, int32_t input_zero_point, float output_scale,
               int32_t output_zero_point, int8_t table[256])
{
    int rescale = input_scale != output_scale;
    int32_t mult = 0;
    int shift = 0, v;
    if (rescale)
        te_quantize_multiplier((double)input_scale / (double)output_scale, &mult, &shift);
    if (!shift_ok(shift))
        return -1;
    for (v = -128; v <= 127; v++) {
        int32_t x = v - input_zero_point;
        int32_t a = x < 0 ? -x : x;
        if (rescale)
            a = te_mul_by_quant_mult(a, mult, shift);
        table[(uint8_t)v] = clamp_i8(a + output_zero_point);
    }
    return 0;
}

void te_lut_min_max_scalar(int is_max, int8_t c, int8_t table[256])
{
    int v;
    for (v = -128; v <= 127; v++)
        table[(uint8_t)v] = (int8_t)(is_max ? (v > c ? v : c) : (v < c ? v : c));
}

int te_lut_rsqrt(float input_scale, int32_t input_zero_point, float output_scale,
                 int32_t output_zero_point, int8_t table[256])
{
    const int k_shift = 20; /* TFLM's kShift: keeps 1/sqrt(x) an integer */
    int32_t mult, inv_mult;
    int shift, inv_shift, v;
    te_quantize_multiplier(1.0 / (sqrt((double)input_scale) * (double)output_scale), &mult,
                           &shift);
    if (!shift_ok(shift) || shift - k_shift < -31)
        return -1;
    for (v = -128; v <= 127; v++) {
        int32_t x = v - input_zero_point, data;
        if (x <= 0) { /* 0: the largest output; below 0 TFLM fails (see header) */
            table[(uint8_t)v] = 127;
            continue;
        }
        te_inv_sqrt_multiplier_exp(x, &inv_mult, &inv_shift);
        data = te_mul_by_quant_mult(1, inv_mult, inv_shift + k_shift);
        table[(uint8_t)v] =
            clamp_i8(te_mul_by_quant_mult(data, mult, shift - k_shift) + output_zero_point);
    }
    return 0;
}
