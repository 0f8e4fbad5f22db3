/* te_relu_s16.h - RELU and RELU6 on int16 tensors, bit-exact with TFLite
 * Micro's ReluQuantized<int16_t> (x rescaled to the output scale by the
 * int32 MultiplyByQuantizedMultiplier, then clamped) and
 * Relu6Quantized<int16_t> (a clamp in the input's quantization). */
#ifndef TE_RELU_S16_H
#define TE_RELU_S16_H

#include <stdint.h>

typedef struct {
    int rescale;               /* 1: multiply by mult/shift first (RELU) */
    int32_t mult;              /* QuantizeMultiplier form */
    int shift;                 /* > 0: left */
    int32_t act_min, act_max;  /* clamp bounds */
} te_relu_s16_params;

/* te:section te_relu_s16 */
/* size elements; output may be input (element i is read before written). */
TE_KERNEL void te_relu_s16(const te_relu_s16_params *p, const int16_t *input, int16_t *output,
                           int size);
/* te:end */

#endif
