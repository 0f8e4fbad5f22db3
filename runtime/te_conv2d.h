/* te_conv2d.h - CONV_2D int8 kernel (per-channel requantization, optional
 * groups, stride, dilation, implicit zero-point padding), bit-exact with
 * TFLite Micro's reference ConvPerChannel. */
#ifndef TE_CONV2D_H
#define TE_CONV2D_H

#include <stdint.h>

#include "te_common.h"

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* filter [out_c, k_h, k_w, filter_c] */
    int filter_c;              /* in_c / groups */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int32_t input_offset;      /* -input zero point */
    int32_t output_offset;     /* output zero point */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
    int out_stride;            /* bytes from one output pixel to the next: 0 or
                                * out_c, more for a channel slice of a wider
                                * tensor */
} te_conv2d_params;

/* te:section te_conv2d_s8 */
/* mult/shift: out_c entries (TFLite QuantizeMultiplier form, shift > 0 is a
 * left shift).  bias: out_c int32 values or NULL. */
TE_KERNEL void te_conv2d_s8(const te_conv2d_params *p, const int8_t *input, const int8_t *filter,
                            const int32_t *bias, const int32_t *mult, const int32_t *shift,
                            int8_t *output);
/* te:end */

/* te:section te_conv2d_s8_inplace */
/* The same for a 1x1 filter at stride 1 without padding nor groups,
 * out_c <= in_c, written over its input: `data` holds the input on entry
 * (pixel p's channels at p * in_c) and the output on return (at p *
 * out_c).  Pixel p's outputs end before pixel p + 1's input; a pixel whose
 * outputs reach its own input bytes is computed into `pixel` (scratch of
 * out_c bytes) and copied out once all its channels are computed. */
TE_KERNEL void te_conv2d_s8_inplace(const te_conv2d_params *p, int8_t *data,
                                    const int8_t *filter, const int32_t *bias,
                                    const int32_t *mult, const int32_t *shift, int8_t *pixel);
/* te:end */

/* te:section te_conv2d_s8_inplace_get_buffer_size */
static inline TE_UNUSED long te_conv2d_s8_inplace_get_buffer_size(const te_conv2d_params *p)
{
    return p->out_c;
}
/* te:end */

#endif
