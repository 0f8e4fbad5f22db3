/* te_transpose_conv.h - TRANSPOSE_CONV int8 and int16x8 kernels, bit-exact
 * with TFLite Micro's reference integer TransposeConv (int16: int16 input,
 * int8 filter, int64 bias and accumulator, zero points 0, TFLite's int64
 * MultiplyByQuantizedMultiplier). */
#ifndef TE_TRANSPOSE_CONV_H
#define TE_TRANSPOSE_CONV_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* filter [out_c, k_h, k_w, in_c] */
    int stride_h, stride_w;
    int pad_top, pad_left;     /* input pixel (y,x) lands on output (y*s - pad, x*s - pad) */
    int32_t input_offset;      /* -input zero point */
    int32_t output_offset;     /* output zero point */
    int32_t act_min, act_max;  /* clamp bounds */
} te_transpose_conv_params;

/* te:section te_transpose_conv_s8 */
/* mult/shift/bias: one entry per output channel; bias may be NULL.  Needs
 * no scratch: each output element gathers the input pixels that TFLite
 * scatters onto it (integer sums, so the order does not matter). */
TE_KERNEL void te_transpose_conv_s8(const te_transpose_conv_params *p, const int8_t *input,
                                    const int8_t *filter, const int32_t *bias,
                                    const int32_t *mult, const int32_t *shift, int8_t *output);
/* te:end */

/* te:section te_transpose_conv_s16 */
/* The int16x8 form: input_offset and output_offset unused (0). */
TE_KERNEL void te_transpose_conv_s16(const te_transpose_conv_params *p, const int16_t *input,
                                     const int8_t *filter, const int64_t *bias,
                                     const int32_t *mult, const int32_t *shift, int16_t *output);
/* te:end */

#endif
