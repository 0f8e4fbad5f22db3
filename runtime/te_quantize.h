/* te_quantize.h - QUANTIZE as TFLite Micro's reference kernels compute it:
 *  - float32 -> int8/int16 (AffineQuantize): q = round_half_away(x / scale)
 *    in float, converted to int32, + zero_point, clamped;
 *  - integer -> integer (Requantize): MultiplyByQuantizedMultiplier(x -
 *    in_zp, mult, shift) + out_zp, clamped to the output type, with
 *    (mult, shift) = QuantizeMultiplier(in_scale / out_scale). */
#ifndef TE_QUANTIZE_H
#define TE_QUANTIZE_H

#include <stdint.h>

/* te:section te_quantize_f32_s8 */
/* `scale` is the output scale as a float (TFLite divides by it in float). */
TE_KERNEL void te_quantize_f32_s8(const float *in, int8_t *out, int32_t n, float scale,
                                  int32_t zero_point);
/* te:end */
/* te:section te_quantize_f32_s16 */
TE_KERNEL void te_quantize_f32_s16(const float *in, int16_t *out, int32_t n, float scale,
                                   int32_t zero_point);
/* te:end */

/* Requantization between integer types: te_quantize_<in>_<out>. */
#define TE_QUANTIZE_REQUANT_ARGS int32_t n, int32_t in_zp, int32_t mult, int shift, int32_t out_zp
/* te:section te_quantize_s8_s8 */
TE_KERNEL void te_quantize_s8_s8(const int8_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s8_u8 */
TE_KERNEL void te_quantize_s8_u8(const int8_t *in, uint8_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s8_s16 */
TE_KERNEL void te_quantize_s8_s16(const int8_t *in, int16_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s8_s32 */
TE_KERNEL void te_quantize_s8_s32(const int8_t *in, int32_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_u8_s8 */
TE_KERNEL void te_quantize_u8_s8(const uint8_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s16_s8 */
TE_KERNEL void te_quantize_s16_s8(const int16_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s16_s16 */
TE_KERNEL void te_quantize_s16_s16(const int16_t *in, int16_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s16_s32 */
TE_KERNEL void te_quantize_s16_s32(const int16_t *in, int32_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s32_s8 */
TE_KERNEL void te_quantize_s32_s8(const int32_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */
/* te:section te_quantize_s32_s16 */
TE_KERNEL void te_quantize_s32_s16(const int32_t *in, int16_t *out, TE_QUANTIZE_REQUANT_ARGS);
/* te:end */

#endif
