/* te_conv2d_w8.h - CONV_2D int8 kernel in portable C reading the model's
 * int8 weights as they are (TFLite's [out_c][k_h][k_w][in_c]), bit-exact
 * with TFLite Micro's reference ConvPerChannel (groups == 1): a GEMM of
 * output pixels by output channels, each pixel's patch built once (read in
 * place for a 1x1 filter without padding), then four channels' dot products
 * per pass over it, int32 sums wrapping like TFLite's accumulator.  The
 * default kernel of the generic target: flash is the weights plus 16 bytes
 * a channel.
 *
 * qr (16 int32 per block of 4 output channels, te_convfam_gemm_prepare of
 * src/ops/conv_family.c): the 4 biases with the input offset folded in
 * (padding taps then read the input zero point), then each channel's entry
 * {m, H, e} of the fast requantization (fast_rq: biases doubled, the sums
 * doubled before it) or {mult, shift, 0} (TFLite's exact arithmetic).
 * K = k_h * k_w * in_c <= TE_CONV2D_W8_KMAX (the patch lives on the
 * stack) unless a 1x1 filter reads each output pixel's input pixel in
 * place (no padding: no patch is gathered).  input and output do not
 * overlap, but for an output written over its input (in place: a 1x1
 * filter at stride 1 without padding, out_c <= in_c <= TE_CONV2D_W8_KMAX,
 * out_stride == out_c), whose pixels' inputs are then copied to the patch
 * before their outputs are stored. */
#ifndef TE_CONV2D_W8_H
#define TE_CONV2D_W8_H

#include <stdint.h>

#define TE_CONV2D_W8_KMAX 1152 /* a 3x3 filter over 128 channels */

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* filter taps */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int32_t input_zp;          /* value of padding taps (input zero point) */
    int32_t output_offset;     /* output zero point (exact requantization only) */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
    int fast_rq;               /* qr entries {m, H, e}, biases doubled */
    int out_stride;            /* bytes from one output pixel to the next: 0,
                                * more than out_c for a channel slice of a
                                * wider tensor, out_c in place (above) */
} te_conv2d_w8_params;

/* te:section te_conv2d_w8_s8 */
TE_KERNEL void te_conv2d_w8_s8(const te_conv2d_w8_params *p, const int8_t *input,
                               const int8_t *w, const int32_t *qr, int8_t *output);
/* te:end */

#endif
