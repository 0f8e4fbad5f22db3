/* te_quantize.c - float -> int and int -> int quantization (see
 * te_quantize.h).  No libm: rounding is done by hand, exactly. */
#include "te_common.h"
#include "te_quantize.h"

/* te:section te_quantize_f32_s8 */
TE_KERNEL void te_quantize_f32_s8(const float *in, int8_t *out, int32_t n, float scale,
                                  int32_t zero_point)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = (int8_t)te_clamp_i32(te_quantize_affine(in[i], scale, zero_point), -128, 127);
}
/* te:end */

/* te:section te_quantize_f32_s16 */
TE_KERNEL void te_quantize_f32_s16(const float *in, int16_t *out, int32_t n, float scale,
                                   int32_t zero_point)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = (int16_t)te_clamp_i32(te_quantize_affine(in[i], scale, zero_point), -32768,
                                       32767);
}
/* te:end */

/* te:section te_quantize_requant */
/* Unclamped requantized value of one input element. */
static inline TE_UNUSED int32_t te_quantize_requant(int32_t x, int32_t in_zp, int32_t mult,
                                                    int shift, int32_t out_zp)
{
    int32_t centered = te_quantize_add_wrap(x, (int32_t)(0u - (uint32_t)in_zp));
    return te_quantize_add_wrap(te_mul_by_quant_mult(centered, mult, shift), out_zp);
}
/* te:end */

/* te:section TE_QUANTIZE_LOOP */
#define TE_QUANTIZE_LOOP(lo, hi, out_t)                                                     \
    do {                                                                                    \
        int32_t i;                                                                          \
        for (i = 0; i < n; i++)                                                             \
            out[i] = (out_t)te_clamp_i32(te_quantize_requant(in[i], in_zp, mult, shift, out_zp), \
                                         (lo), (hi));                                       \
    } while (0)
/* te:end */

/* te:section te_quantize_s8_s8 */
TE_KERNEL void te_quantize_s8_s8(const int8_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(-128, 127, int8_t);
}
/* te:end */
/* te:section te_quantize_s8_u8 */
TE_KERNEL void te_quantize_s8_u8(const int8_t *in, uint8_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(0, 255, uint8_t);
}
/* te:end */
/* te:section te_quantize_s8_s16 */
TE_KERNEL void te_quantize_s8_s16(const int8_t *in, int16_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(-32768, 32767, int16_t);
}
/* te:end */
/* te:section te_quantize_s8_s32 */
TE_KERNEL void te_quantize_s8_s32(const int8_t *in, int32_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(INT32_MIN, INT32_MAX, int32_t);
}
/* te:end */
/* te:section te_quantize_u8_s8 */
TE_KERNEL void te_quantize_u8_s8(const uint8_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(-128, 127, int8_t);
}
/* te:end */
/* te:section te_quantize_s16_s8 */
TE_KERNEL void te_quantize_s16_s8(const int16_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(-128, 127, int8_t);
}
/* te:end */
/* te:section te_quantize_s16_s16 */
TE_KERNEL void te_quantize_s16_s16(const int16_t *in, int16_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(-32768, 32767, int16_t);
}
/* te:end */
/* te:section te_quantize_s16_s32 */
TE_KERNEL void te_quantize_s16_s32(const int16_t *in, int32_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(INT32_MIN, INT32_MAX, int32_t);
}
/* te:end */
/* te:section te_quantize_s32_s8 */
TE_KERNEL void te_quantize_s32_s8(const int32_t *in, int8_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(-128, 127, int8_t);
}
/* te:end */
/* te:section te_quantize_s32_s16 */
TE_KERNEL void te_quantize_s32_s16(const int32_t *in, int16_t *out, TE_QUANTIZE_REQUANT_ARGS)
{
    TE_QUANTIZE_LOOP(-32768, 32767, int16_t);
}
/* te:end */

#undef TE_QUANTIZE_LOOP
