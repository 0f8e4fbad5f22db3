/* te_unary_s16.h - element-wise int16 kernels that rescale each value by a
 * multiplier of its sign, bit-exact with TFLite Micro's int16 paths:
 * LEAKY_RELU (QuantizeLeakyRelu<int16_t>: the identity ratio at or above
 * the input zero point, alpha times it below) and ABS (AbsEvalQuantized
 * <int16_t>: |x|, rescaled when the scales differ; zero points 0). */
#ifndef TE_UNARY_S16_H
#define TE_UNARY_S16_H

#include <stdint.h>

typedef struct {
    int32_t in_offset;            /* minus the input zero point */
    int32_t out_offset;           /* output zero point */
    int32_t identity_mult;        /* QuantizeMultiplier(in scale / out scale) */
    int identity_shift;           /* > 0: left */
    int32_t alpha_mult;           /* QuantizeMultiplier(in scale x alpha / out scale) */
    int alpha_shift;
} te_leaky_relu_s16_params;

typedef struct {
    int rescale;                  /* 1: the scales differ, multiply by mult/shift */
    int32_t mult;                 /* QuantizeMultiplier(in scale / out scale) */
    int shift;                    /* > 0: left */
} te_abs_s16_params;

/* size elements; output may be input (element i is read before written). */
TE_KERNEL void te_leaky_relu_s16(const te_leaky_relu_s16_params *p, const int16_t *input,
                                 int16_t *output, int size);
TE_KERNEL void te_abs_s16(const te_abs_s16_params *p, const int16_t *input, int16_t *output,
                          int size);

#endif
