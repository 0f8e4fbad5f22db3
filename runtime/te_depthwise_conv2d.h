/* te_depthwise_conv2d.h - DEPTHWISE_CONV_2D int8 kernels (per-channel
 * requantization, depth multiplier, stride, dilation, implicit zero-point
 * padding), bit-exact with TFLite Micro's reference DepthwiseConvPerChannel:
 * the plain ones (any multiplier; separate output or written over the
 * input) and the fast portable ones for multiplier 1 (channels innermost in
 * blocks the C compiler vectorises, cheaper exact requantization). */
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

/* te:section te_depthwise_conv2d_s8 */
/* mult/shift/bias: one entry per output channel; bias may be NULL. */
TE_KERNEL void te_depthwise_conv2d_s8(const te_depthwise_conv2d_params *p, const int8_t *input,
                                      const int8_t *filter, const int32_t *bias,
                                      const int32_t *mult, const int32_t *shift, int8_t *output);
/* te:end */

/* te:section te_depthwise_conv2d_s8_inplace */
/* The same result written over the input (depth_mult must be 1 and
 * out_h * out_w <= in_h * in_w): `data` holds the input on entry and the
 * output on return.  plane: scratch of in_h * in_w bytes. */
TE_KERNEL void te_depthwise_conv2d_s8_inplace(const te_depthwise_conv2d_params *p, int8_t *data,
                                              const int8_t *filter, const int32_t *bias,
                                              const int32_t *mult, const int32_t *shift,
                                              int8_t *plane);
/* te:end */

/* te:section te_depthwise_conv2d_s8_inplace_get_buffer_size */
static inline TE_UNUSED long
te_depthwise_conv2d_s8_inplace_get_buffer_size(const te_depthwise_conv2d_params *p)
{
    return (long)p->in_h * p->in_w;
}
/* te:end */

/* Fast kernels, k_h <= TE_DEPTHWISE_CONV2D_MAX_KH; te_depthwise_conv2d_s8_fast
 * takes any depth multiplier, the others 1.  bias: one entry per output
 * channel (zeros when the model has none).  rq: three int32 per output
 * channel from te_convfam_fast_requant, {mult, H, e} (e >= 1) or {mult,
 * shift, 0}. */
#define TE_DEPTHWISE_CONV2D_MAX_KH 16
/* te:section te_depthwise_conv2d_s8_fast */
TE_KERNEL void te_depthwise_conv2d_s8_fast(const te_depthwise_conv2d_params *p,
                                           const int8_t *input, const int8_t *filter,
                                           const int32_t *bias, const int32_t *rq,
                                           int8_t *output);
/* te:end */

/* te:section te_depthwise_conv2d_s8_fast_inplace */
/* The same written over the input, by blocks of up to 16 channels: each
 * input row of a block is copied into `rows` (scratch of ((k_h - 1) *
 * dil_h + 1) * in_w * min(in_c, 16) bytes) when first needed.  Valid when
 * every output row is written only over input rows already copied:
 * (oy + 1) * out_w <= min(in_h, oy * stride_h - pad_top + (k_h - 1) *
 * dil_h + 1) * in_w for every oy (and out_h * out_w <= in_h * in_w). */
TE_KERNEL void te_depthwise_conv2d_s8_fast_inplace(const te_depthwise_conv2d_params *p,
                                                   int8_t *data, const int8_t *filter,
                                                   const int32_t *bias, const int32_t *rq,
                                                   int8_t *rows);
/* te:end */

/* te:section te_depthwise_conv2d_s8_fast_inplace_get_buffer_size */
static inline TE_UNUSED long
te_depthwise_conv2d_s8_fast_inplace_get_buffer_size(const te_depthwise_conv2d_params *p)
{
    long rows = (long)(p->k_h - 1) * p->dil_h + 1;
    return rows * p->in_w * (p->in_c < 16 ? p->in_c : 16);
}
/* te:end */

/* te:section te_depthwise_conv2d_s8_ring */
/* The same (stride_w 1 or 2, k_w <= 16) from rows saved in scratch, by
 * groups of 8 channels: each input
 * row of a group is saved per channel, as int16 x - zero_point with zero
 * padding columns around, when first needed, so the output may overwrite
 * the input (data == output) when every output row lands on input rows
 * already saved: (oy + 1) * out_w <= min(in_h, oy * stride_h - pad_top +
 * (k_h - 1) * dil_h + 1) * in_w for every oy (and out_h * out_w <= in_h *
 * in_w).  scratch: te_depthwise_conv2d_ring_bytes(p) bytes. */
TE_KERNEL void te_depthwise_conv2d_s8_ring(const te_depthwise_conv2d_params *p,
                                           const int8_t *input, const int8_t *filter,
                                           const int32_t *bias, const int32_t *rq,
                                           int8_t *output, int16_t *scratch);
/* te:end */

/* te:section te_depthwise_conv2d_ring_cols */
/* Columns of a saved row (even count): the input, the padding the kernel
 * reads, and the pixels of the last block of 8 past the row end. */
static inline TE_UNUSED int te_depthwise_conv2d_ring_cols(const te_depthwise_conv2d_params *p)
{
    int blocks = (p->out_w + 7) / 8 * 8;
    int right = (blocks - 1) * p->stride_w + (p->k_w - 1) * p->dil_w + 1;
    int cols = p->pad_left + p->in_w > right ? p->pad_left + p->in_w : right;
    return cols + (cols & 1);
}
/* te:end */

/* te:section te_depthwise_conv2d_ring_bytes */
static inline TE_UNUSED long te_depthwise_conv2d_ring_bytes(const te_depthwise_conv2d_params *p)
{
    long rows = (long)(p->k_h - 1) * p->dil_h + 1;
    return 2L * 8 * (rows * te_depthwise_conv2d_ring_cols(p) + (long)p->k_h * p->k_w);
}
/* te:end */

#endif
