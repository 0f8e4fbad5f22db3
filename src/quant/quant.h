/* quant.h - quantization arithmetic the compiler does once, at compile
 * time, exactly as TFLite does it when it prepares a kernel: turning real
 * multipliers into fixed-point multiplier + shift, and fused activations
 * into int8 clamp bounds. */
#ifndef TE_QUANT_H
#define TE_QUANT_H

#include <stdint.h>

#include "../ir/ir.h"

/* TFLite QuantizeMultiplier: m ~= multiplier * 2^(shift - 31), multiplier in
 * [2^30, 2^31) (or 0).  shift > 0 means a left shift. */
void te_quantize_multiplier(double m, int32_t *multiplier, int *shift);

/* TFLite QuantizeMultiplierSmallerThanOneExp (m < 1): left_shift <= 0. */
void te_quantize_multiplier_smaller_than_one(double m, int32_t *multiplier, int *left_shift);

/* TFLite CalculateActivationRangeQuantized for an output with the given
 * scale and zero point and integer range [qmin, qmax]. Returns -1 for an
 * activation it does not support (TANH, SIGN_BIT). */
/* The 256 results TFLite Micro's DEQUANTIZE gives an int8 (entry 0 for
 * -128) or uint8 tensor of this scale and zero point: scale * (float)(x -
 * zero_point), in float. */
void te_dequantize_table(te_dtype type, float scale, int32_t zero_point, float lut[256]);

int te_activation_range(te_activation act, float scale, int32_t zero_point, int32_t qmin,
                        int32_t qmax, int32_t *act_min, int32_t *act_max);

/* TfLiteRound: round half away from zero. */
double te_round(double x);
float te_roundf(float x);

#endif
