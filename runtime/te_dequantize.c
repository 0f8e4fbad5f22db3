/* te_dequantize.c - int8 / uint8 / int16 -> float32 (see te_dequantize.h). */
#include "te_common.h"
#include "te_dequantize.h"

/* te:section te_dequantize_s8_f32 */
TE_KERNEL void te_dequantize_s8_f32(const int8_t *in, float *out, int32_t n, const float *lut)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = lut[in[i] + 128];
}
/* te:end */

/* te:section te_dequantize_u8_f32 */
TE_KERNEL void te_dequantize_u8_f32(const uint8_t *in, float *out, int32_t n, const float *lut)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = lut[in[i]];
}
/* te:end */

/* te:section te_dequantize_s16_f32 */
TE_KERNEL void te_dequantize_s16_f32(const int16_t *in, float *out, int32_t n, float scale,
                                     int32_t zero_point)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = scale * (float)(in[i] - zero_point);
}
/* te:end */
