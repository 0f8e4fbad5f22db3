/* te_depthwise_conv2d.h - DEPTHWISE_CONV_2D int8 kernels (per-channel
 * requantization, depth multiplier, stride, dilation, implicit zero-point
 * padding), bit-exact with TFLite Micro's reference DepthwiseConvPerChannel:
 * one with separate input and output, one that overwrites its input. */
#ifndef TE_DEPTHWISE_CONV2D_H
#define TE_DEPTHWISE_CONV2D_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w;          /* output [batches, out_h, out_w, in_c * depth_mult] */
    int depth_mult;            /* output channel = in channel * depth_mult + m */
    int k_h, k_w;              /* filter [1, k_h, k_w, in_c * depth_mult] */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int32_t input_offset;      /* -input zero point */
    int32_t output_offset;     /* output zero point */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
} te_depthwise_conv2d_params;

/* mult/shift/bias: one entry per output channel; bias may be NULL. */
TE_KERNEL void te_depthwise_conv2d_s8(const te_depthwise_conv2d_params *p, const int8_t *input,
                                      const int8_t *filter, const int32_t *bias,
                                      const int32_t *mult, const int32_t *shift, int8_t *output);

/* The same result written over the input (depth_mult must be 1 and
 * out_h * out_w <= in_h * in_w): `data` holds the input on entry and the
 * output on return.  plane: scratch of in_h * in_w bytes. */
TE_KERNEL void te_depthwise_conv2d_s8_inplace(const te_depthwise_conv2d_params *p, int8_t *data,
                                              const int8_t *filter, const int32_t *bias,
                                              const int32_t *mult, const int32_t *shift,
                                              int8_t *plane);

#endif
