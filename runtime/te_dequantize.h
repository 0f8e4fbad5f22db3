/* te_dequantize.h - DEQUANTIZE to float32 as TFLite Micro's reference
 * kernel computes it: out = scale * (float)(x - zero_point), one float
 * multiply.  For int8 and uint8 the compiler evaluates that expression for
 * all 256 inputs and the kernel only looks the results up. */
#ifndef TE_DEQUANTIZE_H
#define TE_DEQUANTIZE_H

#include <stdint.h>

/* te:section te_dequantize_s8_f32 */
/* out[i] = lut[in[i] + 128]. */
TE_KERNEL void te_dequantize_s8_f32(const int8_t *in, float *out, int32_t n, const float *lut);
/* te:end */

/* te:section te_dequantize_u8_f32 */
/* out[i] = lut[in[i]] (old uint8 models' float tails). */
TE_KERNEL void te_dequantize_u8_f32(const uint8_t *in, float *out, int32_t n, const float *lut);
/* te:end */

/* te:section te_dequantize_s16_f32 */
/* out[i] = scale * (float)(in[i] - zero_point). */
TE_KERNEL void te_dequantize_s16_f32(const int16_t *in, float *out, int32_t n, float scale,
                                     int32_t zero_point);
/* te:end */

#endif
