/* te_quantize.h - QUANTIZE as TFLite Micro's reference kernels compute it:
 *  - float32 -> int8/int16 (AffineQuantize): q = round_half_away(x / scale)
 *    in float, converted to int32, + zero_point, clamped;
 *  - integer -> integer (Requantize): MultiplyByQuantizedMultiplier(x -
 *    in_zp, mult, shift) + out_zp, clamped to the output type, with
 *    (mult, shift) = QuantizeMultiplier(in_scale / out_scale). */
#ifndef TE_QUANTIZE_H
#define TE_QUANTIZE_H

#include <stdint.h>

/* The per-element arithmetic, here so that the compiler's constant folding
 * (op_quantize.c) computes exactly what the kernels compute. */
/* te:section te_quantize_add_wrap */
/* a + b with two's-complement wrap-around (what TFLite's int32 addition
 * does on its targets when it overflows). */
static inline TE_UNUSED int32_t te_quantize_add_wrap(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}
/* te:end */

/* te:section te_quantize_round_to_i32 */
/* static_cast<int32_t>(roundf(q)) as TFLite Micro's x86-64 reference build
 * computes it: round half away from zero; NaN and values outside the int32
 * range give INT32_MIN (cvttss2si's "integer indefinite"). */
static inline TE_UNUSED int32_t te_quantize_round_to_i32(float q)
{
    int32_t t;
    float frac;
    if (q > -8388608.0f && q < 8388608.0f) { /* |q| < 2^23: may have a fraction */
        t = (int32_t)q;                      /* truncates toward zero */
        frac = q - (float)t;                 /* exact */
        if (frac >= 0.5f)
            t++;
        else if (frac <= -0.5f)
            t--;
        return t;
    }
    if (q >= -2147483648.0f && q < 2147483648.0f)
        return (int32_t)q; /* already an integer */
    return INT32_MIN;
}
/* te:end */

/* te:section te_quantize_affine */
static inline TE_UNUSED int32_t te_quantize_affine(float x, float scale, int32_t zero_point)
{
    return te_quantize_add_wrap(te_quantize_round_to_i32(x / scale), zero_point);
}
/* te:end */

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
