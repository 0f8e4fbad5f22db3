/* lut_nonlinear.h - compile-time evaluation of TFLite Micro's int8 nonlinear kernels:
 * the parameters each kernel's Prepare computes, and the 256-entry tables
 * (one entry per int8 input, or per softmax difference row_max - x) that
 * the generated code looks values up in.
 *
 * Every table is produced by running TFLM's own integer algorithm on each
 * possible input, so the lookup is bit-exact by construction.  int8 tables
 * are indexed by (uint8_t)x; softmax tables by d = row_max - x in 0..255.
 * The *_prepare functions return -1 where TFLM's Prepare would fail (or
 * where its arithmetic is undefined); the op's check() reports that. */
#ifndef TE_LUT_NL_H
#define TE_LUT_NL_H

#include <stdint.h>

/* LOGISTIC and TANH (int8): the input rescaled to Q4.27. */
typedef struct {
    int32_t input_zero_point;
    int32_t input_range_radius;
    int32_t input_multiplier;
    int input_left_shift;
} te_lut_sigmoid_params;

int te_lut_sigmoid_prepare(float input_scale, int32_t input_zero_point, te_lut_sigmoid_params *p);
/* Output scale 1/256, zero point -128 (TFLM's kernel assumes it). */
void te_lut_logistic(const te_lut_sigmoid_params *p, int8_t table[256]);
/* Output scale 1/128, zero point 0 (TFLM's kernel assumes it). */
void te_lut_tanh(const te_lut_sigmoid_params *p, int8_t table[256]);

/* HARD_SWISH (int8): 16-bit fixed-point multipliers. */
typedef struct {
    int32_t input_zero_point, output_zero_point;
    int16_t output_multiplier_fixedpoint_int16, reluish_multiplier_fixedpoint_int16;
    int output_multiplier_exponent, reluish_multiplier_exponent;
} te_lut_hard_swish_params;

int te_lut_hard_swish_prepare(float input_scale, int32_t input_zero_point, float output_scale,
                              int32_t output_zero_point, te_lut_hard_swish_params *p);
void te_lut_hard_swish(const te_lut_hard_swish_params *p, int8_t table[256]);

/* RELU (int8): requantize to the output, clamp below at its zero point. */
int te_lut_relu(float input_scale, int32_t input_zero_point, float output_scale,
                int32_t output_zero_point, int8_t table[256]);
/* RELU6 (int8): clamp to [input zero point, quantized 6.0]; TFLM ignores the
 * output's quantization. */
void te_lut_relu6(float input_scale, int32_t input_zero_point, int8_t table[256]);

/* SOFTMAX / LOG_SOFTMAX (int8): the input difference rescaled to Q5.26. */
typedef struct {
    int32_t input_multiplier;
    int input_left_shift;
    int32_t diff_min;                    /* differences below it are ignored */
    int32_t reverse_scaling_divisor;     /* LOG_SOFTMAX only */
    int reverse_scaling_right_shift;     /* LOG_SOFTMAX only */
} te_lut_softmax_params;

int te_lut_softmax_prepare(double beta, float input_scale, te_lut_softmax_params *p);
/* LOG_SOFTMAX: beta 1. */
int te_lut_log_softmax_prepare(float input_scale, te_lut_softmax_params *p);
/* table[d] = exp_on_negative_values(-d rescaled) in Q0.31, -1 where -d < diff_min. */
void te_lut_softmax_exp(const te_lut_softmax_params *p, int32_t table[256]);
/* table[d] = -d rescaled to Q5.26 (0 where -d < diff_min). */
void te_lut_softmax_q5(const te_lut_softmax_params *p, int32_t table[256]);

#endif
