/* lut_act.c - Prepare parameters and 256-entry int8 tables of TFLite
 * Micro's elementwise int8 activations: LOGISTIC, TANH, HARD_SWISH, RELU,
 * RELU6 (see lut_nonlinear.h).  Each table entry runs the reference
 * kernel's integer arithmetic on one input value. */
#include "lut_nonlinear.h"

#include <math.h>

#include "fixedpoint.h"
#include "quant.h"

static int8_t clamp_i8(int32_t v) { return (int8_t)te_clamp_i32(v, -128, 127); }

/* ---- LOGISTIC / TANH ---------------------------------------------------- */

int te_lut_sigmoid_prepare(float input_scale, int32_t input_zero_point, te_lut_sigmoid_params *p)
{
    /* input rescaled to Q4.27: real multiplier input_scale * 2^27 */
    double q = frexp((double)input_scale * (double)(1 << 27), &p->input_left_shift);
    p->input_zero_point = input_zero_point;
    p->input_multiplier = (int32_t)te_round(q * 2147483648.0);
    /* TFLM shifts 1LL by the exponent: only 0..62 is defined */
    if (p->input_left_shift < 0 || p->input_left_shift > 62)
        return -1;
    /* CalculateInputRadius(4, shift, 31): largest |input| not saturating */
    p->input_range_radius =
        (int32_t)floor(15.0 * (double)(1LL << 27) / (double)(1LL << p->input_left_shift));
    return 0;
}

/* The input in Q4.27, or 0 with *sat = -1 / +1 outside the radius. */
static int32_t sigmoid_input(const te_lut_sigmoid_params *p, int v, int *sat)
{
    int32_t x = v - p->input_zero_point;
    *sat = x <= -p->input_range_radius ? -1 : (x >= p->input_range_radius ? 1 : 0);
    if (*sat)
        return 0;
    return te_mul_by_quant_mult(x, p->input_multiplier, p->input_left_shift);
}

void te_lut_logistic(const te_lut_sigmoid_params *p, int8_t table[256])
{
    int v, sat;
    for (v = -128; v <= 127; v++) {
        int32_t q4 = sigmoid_input(p, v, &sat);
        int8_t out = sat < 0 ? -128 : 127;
        if (!sat) /* Q0.31 -> 8 fractional bits, zero point -128 */
            out = clamp_i8(te_rounding_divide_by_pot(te_fp_logistic(q4, 4), 23) - 128);
        table[(uint8_t)v] = out;
    }
}

void te_lut_tanh(const te_lut_sigmoid_params *p, int8_t table[256])
{
    int v, sat;
    for (v = -128; v <= 127; v++) {
        int32_t q4 = sigmoid_input(p, v, &sat);
        int8_t out = sat < 0 ? -128 : 127;
        if (!sat) /* Q0.31 -> 7 fractional bits, zero point 0 */
            out = clamp_i8(te_rounding_divide_by_pot(te_fp_tanh(q4, 4), 24));
        table[(uint8_t)v] = out;
    }
}

/* ---- HARD_SWISH: int16 arithmetic with two's-complement wrap ------------- */

static int16_t wrap16(int32_t v)
{
    uint32_t u = (uint32_t)v & 0xFFFFu;
    return (int16_t)(u >= 0x8000u ? (int32_t)u - 0x10000 : (int32_t)u);
}

/* TFLite DownScaleInt32ToInt16Multiplier. */
static int16_t downscale_multiplier(int32_t m)
{
    if (m >= INT32_MAX - (1 << 15))
        return INT16_MAX;
    return (int16_t)((m + (1 << 15)) >> 16);
}

/* gemmlowp SaturatingRoundingDoublingHighMul on int16. */
static int16_t srdhm16(int16_t a, int16_t b)
{
    int32_t ab = (int32_t)a * b;
    if (a == INT16_MIN && b == INT16_MIN)
        return INT16_MAX;
    return (int16_t)((ab + (ab >= 0 ? (1 << 14) : 1 - (1 << 14))) / (1 << 15));
}

/* TFLite SaturatingDoublingHighMul: same but truncating. */
static int16_t sdhm16(int16_t a, int16_t b)
{
    if (a == INT16_MIN && b == INT16_MIN)
        return INT16_MAX;
    return (int16_t)(((int32_t)a * b) / (1 << 15));
}

/* gemmlowp RoundingDivideByPOT on int16 (mask truncated to 16 bits). */
static int16_t rdbpot16(int16_t x, int exponent)
{
    int16_t mask = wrap16((int32_t)(((int64_t)1 << exponent) - 1));
    int16_t remainder = (int16_t)(x & mask);
    int16_t threshold = wrap16((mask >> 1) + (x < 0 ? 1 : 0));
    return wrap16((x >> exponent) + (remainder > threshold ? 1 : 0));
}

static int16_t sat_shl16(int16_t v, int amount)
{
    int64_t r = (int64_t)v * ((int64_t)1 << amount);
    return (int16_t)(r > INT16_MAX ? INT16_MAX : (r < INT16_MIN ? INT16_MIN : r));
}

int te_lut_hard_swish_prepare(float input_scale, int32_t input_zero_point, float output_scale,
                              int32_t output_zero_point, te_lut_hard_swish_params *p)
{
    /* float arithmetic as in TFLM's Prepare */
    float hires_input_scale = (1.0f / 128.0f) * input_scale;
    float reluish_scale = 3.0f / 32768.0f;
    float out_ratio = hires_input_scale / output_scale;
    float reluish_ratio = hires_input_scale / reluish_scale;
    int32_t m;
    p->input_zero_point = input_zero_point;
    p->output_zero_point = output_zero_point;
    te_quantize_multiplier((double)out_ratio, &m, &p->output_multiplier_exponent);
    p->output_multiplier_fixedpoint_int16 = downscale_multiplier(m);
    te_quantize_multiplier((double)reluish_ratio, &m, &p->reluish_multiplier_exponent);
    p->reluish_multiplier_fixedpoint_int16 = downscale_multiplier(m);
    if (p->output_multiplier_exponent > 0 || p->reluish_multiplier_exponent > 31)
        return -1;
    return 0;
}

static int8_t hard_swish_one(const te_lut_hard_swish_params *p, int v)
{
    const int re = p->reluish_multiplier_exponent;
    int16_t in_hires = wrap16((v - p->input_zero_point) * 128);
    int16_t in_out_scale = srdhm16(in_hires, p->output_multiplier_fixedpoint_int16);
    int16_t reluish = in_hires, out;
    if (re > 0)
        reluish = sat_shl16(reluish, re - 1);
    reluish = srdhm16(reluish, p->reluish_multiplier_fixedpoint_int16);
    if (re > 0)
        reluish = sat_shl16(reluish, 1);
    if (re < 0)
        reluish = rdbpot16(reluish, -re);
    reluish = (int16_t)((reluish + (1 << 15)) >> 1); /* [-1, 1] -> [0, 1] */
    out = rdbpot16(sdhm16(reluish, in_out_scale), -p->output_multiplier_exponent);
    out = wrap16(out + p->output_zero_point);
    return (int8_t)(out > 127 ? 127 : (out < -128 ? -128 : out));
}

void te_lut_hard_swish(const te_lut_hard_swish_params *p, int8_t table[256])
{
    int v;
    for (v = -128; v <= 127; v++)
        table[(uint8_t)v] = hard_swish_one(p, v);
}

/* ---- RELU / RELU6 --------------------------------------------------------- */

int te_lut_relu(float input_scale, int32_t input_zero_point, float output_scale,
                int32_t output_zero_point, int8_t table[256])
{
    int32_t mult, lo = output_zero_point > -128 ? output_zero_point : -128;
    int shift, v;
    te_quantize_multiplier((double)input_scale / (double)output_scale, &mult, &shift);
    if (shift > 31)
        return -1;
    for (v = -128; v <= 127; v++) {
        int32_t r = te_fp_add(output_zero_point,
                              te_mul_by_quant_mult(v - input_zero_point, mult, shift));
        table[(uint8_t)v] = (int8_t)te_clamp_i32(r, lo, 127);
    }
    return 0;
}

/* float -> int32 as x86-64 converts it (out of range: INT32_MIN). */
static int32_t float_to_i32(double x)
{
    if (!(x >= -2147483648.0 && x < 2147483648.0))
        return INT32_MIN;
    return (int32_t)x;
}

void te_lut_relu6(float input_scale, int32_t input_zero_point, int8_t table[256])
{
    float six_real = 6.0f / input_scale;
    int32_t six = float_to_i32((double)roundf(six_real) + (double)input_zero_point);
    int v;
    six = te_clamp_i32(six, -128, 127);
    for (v = -128; v <= 127; v++)
        table[(uint8_t)v] = (int8_t)(v > six ? six : (v < input_zero_point ? input_zero_point : v));
}
