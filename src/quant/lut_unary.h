/* lut_unary.h - 256-entry int8 tables of TFLite Micro's int8 unary
 * operators that rescale their input piecewise or through a float function:
 * LEAKY_RELU, ELU and ABS (MINIMUM / MAXIMUM against a scalar constant are
 * tables too).  Each entry runs the reference kernel's arithmetic (or, for
 * ELU, its Prepare-time float table) on one input value; tables are indexed
 * by (uint8_t)x like every te_lut_s8 table. */
#ifndef TE_LUT_UNARY_H
#define TE_LUT_UNARY_H

#include <stdint.h>

/* LEAKY_RELU: x - zp_in >= 0 rescaled by s_in / s_out, below by
 * s_in * alpha / s_out (both ratios in float, as TFLM's Prepare).  Returns
 * -1 when a multiplier needs a left shift TFLite cannot apply (> 31). */
int te_lut_leaky_relu(float input_scale, int32_t input_zero_point, float output_scale,
                      int32_t output_zero_point, float alpha, int8_t table[256]);

/* ELU: dequantize, exp(x) - 1 below zero (float), requantize. */
void te_lut_elu(float input_scale, int32_t input_zero_point, float output_scale,
                int32_t output_zero_point, int8_t table[256]);

/* ABS: |x - zp_in| + zp_out, rescaled by s_in / s_out when the scales
 * differ.  Returns -1 for a shift TFLite cannot apply. */
int te_lut_abs(float input_scale, int32_t input_zero_point, float output_scale,
               int32_t output_zero_point, int8_t table[256]);

/* RSQRT (TFLM's RsqrtEvalQuantized): x - zp_in == 0 gives 127; otherwise
 * 1/sqrt(x - zp_in) by TFLite's fixed-point GetInvSqrtQuantizedMultiplierExp,
 * rescaled by 1 / (sqrt(s_in) * s_out).  Inputs below zp_in make TFLM's
 * invoke fail; their entries hold 127 and the kernel (te_lut_s8_min) fails
 * the invoke too.  Returns -1 for a multiplier TFLite cannot apply. */
int te_lut_rsqrt(float input_scale, int32_t input_zero_point, float output_scale,
                 int32_t output_zero_point, int8_t table[256]);

/* MINIMUM (is_max 0) or MAXIMUM (is_max 1) of x and the raw int8 value c. */
void te_lut_min_max_scalar(int is_max, int8_t c, int8_t table[256]);

#endif
