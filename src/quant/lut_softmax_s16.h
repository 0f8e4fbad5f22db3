/* lut_softmax_s16.h - compile-time half of TFLite Micro's int16 SOFTMAX
 * (int16 in, int16 out): the input rescaling its Prepare computes and the
 * two 513-entry interpolation tables it builds there with float math
 * (gen_lut: exp on [-10, 0] and 1 / (1 + x) on [0, 1], outputs in [-1, 1]
 * as Q0.15), reproduced operation by operation in single precision. */
#ifndef TE_LUT_SOFTMAX_S16_H
#define TE_LUT_SOFTMAX_S16_H

#include <stdint.h>

#define TE_LUT_S16_ENTRIES 513

/* TFLite's gen_lut<float, int16_t, int16_t>: 512 samples of f over
 * [in_min, in_max] (each biased by half the midpoint interpolation error)
 * plus f(in_max), scaled from [out_min, out_max] to int16. */
void te_lut_gen_s16(float (*f)(float), float in_min, float in_max, float out_min, float out_max,
                    int16_t lut[TE_LUT_S16_ENTRIES]);

/* The exp table (on [-10, 0]) and the 1 / (1 + x) table (on [0, 1]). */
void te_lut_softmax_s16_tables(int16_t exp_lut[TE_LUT_S16_ENTRIES],
                               int16_t recip_lut[TE_LUT_S16_ENTRIES]);

/* input_scale * beta / (10 / 65535) as QuantizeMultiplier's (multiplier,
 * shift): differences x - max rescaled so that [-65535, 0] spans [-10, 0].
 * -1 when the product is not a positive finite number. */
int te_lut_softmax_s16_prepare(double beta, float input_scale, int32_t *mult, int *shift);

#endif
