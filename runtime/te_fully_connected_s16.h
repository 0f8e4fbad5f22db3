/* te_fully_connected_s16.h - FULLY_CONNECTED with int16x8 quantization
 * (int16 activations with zero point 0, int8 weights quantized per tensor),
 * bit-exact with TFLite Micro's reference FullyConnected for int16 inputs:
 * te_fully_connected_s16 with an int64 bias or none, an int64 accumulator
 * and the int64 MultiplyByQuantizedMultiplier (te_mul_by_quant_mult_i64);
 * te_fully_connected_s16_b32 with an int32 bias (or none, where the
 * converter asked for int32 accumulation), an int32 accumulator wrapping
 * as TFLite's does and the int32 MultiplyByQuantizedMultiplier. */
#ifndef TE_FULLY_CONNECTED_S16_H
#define TE_FULLY_CONNECTED_S16_H

#include <stdint.h>

typedef struct {
    int batches;               /* input viewed as [batches, depth] */
    int depth;                 /* accumulation depth (weights' last dim) */
    int units;                 /* output [batches, units], weights [units, depth] */
    int32_t mult;              /* the one multiplier (QuantizeMultiplier form) */
    int shift;                 /* and its shift (> 0: left) */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
} te_fully_connected_s16_params;

/* te:section te_fully_connected_s16 */
/* bias: units int64 values or NULL. */
TE_KERNEL void te_fully_connected_s16(const te_fully_connected_s16_params *p,
                                      const int16_t *input, const int8_t *weights,
                                      const int64_t *bias, int16_t *output);
/* te:end */

/* te:section te_fully_connected_s16_b32 */
/* bias: units int32 values or NULL. */
TE_KERNEL void te_fully_connected_s16_b32(const te_fully_connected_s16_params *p,
                                          const int16_t *input, const int8_t *weights,
                                          const int32_t *bias, int16_t *output);
/* te:end */

#endif
