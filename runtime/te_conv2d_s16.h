/* te_conv2d_s16.h - CONV_2D and DEPTHWISE_CONV_2D with int16x8
 * quantization (int16 activations with zero point 0, int8 weights quantized
 * per channel or per tensor), bit-exact with TFLite Micro's reference
 * ConvPerChannel / DepthwiseConvPerChannel for int16 inputs:
 *  - int64 bias: an int64 accumulator and the int64
 *    MultiplyByQuantizedMultiplier (te_mul_by_quant_mult_i64);
 *  - CONV_2D with an int32 bias or none: TFLite Micro accumulates in int32
 *    (wrapping) and requantizes with the int32 MultiplyByQuantizedMultiplier.
 * Taps outside the input are skipped (zero padding; the zero point is 0). */
#ifndef TE_CONV2D_S16_H
#define TE_CONV2D_S16_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* CONV_2D filter [out_c, k_h, k_w, filter_c],
                                * DEPTHWISE_CONV_2D [1, k_h, k_w, out_c] */
    int filter_c;              /* CONV_2D: in_c / groups */
    int depth_mult;            /* DEPTHWISE_CONV_2D: out_c / in_c */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
} te_conv2d_s16_params;

/* te:section te_conv2d_s16 */
/* mult/shift: out_c entries (QuantizeMultiplier form); bias: out_c int64
 * values or NULL (then the int64 path without bias). */
TE_KERNEL void te_conv2d_s16(const te_conv2d_s16_params *p, const int16_t *input,
                             const int8_t *filter, const int64_t *bias, const int32_t *mult,
                             const int32_t *shift, int16_t *output);
/* te:end */

/* te:section te_conv2d_s16_b32 */
/* The int32 path: bias out_c int32 values or NULL. */
TE_KERNEL void te_conv2d_s16_b32(const te_conv2d_s16_params *p, const int16_t *input,
                                 const int8_t *filter, const int32_t *bias, const int32_t *mult,
                                 const int32_t *shift, int16_t *output);
/* te:end */

/* te:section te_depthwise_conv2d_s16 */
/* bias: out_c int64 values or NULL. */
TE_KERNEL void te_depthwise_conv2d_s16(const te_conv2d_s16_params *p, const int16_t *input,
                                       const int8_t *filter, const int64_t *bias,
                                       const int32_t *mult, const int32_t *shift,
                                       int16_t *output);
/* te:end */

#endif
