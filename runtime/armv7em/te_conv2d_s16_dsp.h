/* te_conv2d_s16_dsp.h - int16x8 CONV_2D for cores with the Armv7E-M DSP
 * extension (compiled when the generated file defines TE_TARGET_DSP; exact
 * portable primitives elsewhere), bit-exact with TFLite Micro's reference
 * ConvPerChannel for int16 inputs (see runtime/te_conv2d_s16.h).
 *
 * One SMLAD multiplies two input channels of a tap (one 32-bit load of the
 * int16 input) by their two weights, for four output channels at a time.
 * The weights are prepared at compile time as int16 pairs, laid out
 *   [out_c / 4][k_h][k_w][pairs][4 channels], pairs = (filter_c + 1) / 2,
 * one word per pair: w[2j] in the low half, w[2j + 1] (0 past filter_c) in
 * the high one; out_c is padded to a multiple of 4 with zero weights.
 * The sums are exact in int32: the compiler uses the kernel only when
 * 32768 * sum |w| < 2^31 for every output channel, so they equal TFLite's
 * int64 sums, and TFLite's wrapping int32 sums on the int32 path.  No
 * groups (filter_c = in_c). */
#ifndef TE_CONV2D_S16_DSP_H
#define TE_CONV2D_S16_DSP_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* filter taps */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int acc32;                 /* 1: TFLite's int32 path (int32 bias or none):
                                * requantize the low 32 bits of sum + bias with
                                * the int32 MultiplyByQuantizedMultiplier */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
} te_conv2d_s16_dsp_params;

#if defined(TE_TARGET_DSP)
/* te:section te_conv2d_s16_dsp */
/* weights: the packed pairs above (words); the bias: out_c int64 values in
 * bias64 or int32 ones in bias32 (the other NULL), or neither; mult/shift:
 * out_c entries. */
TE_KERNEL void te_conv2d_s16_dsp(const te_conv2d_s16_dsp_params *p, const int16_t *input,
                                 const int32_t *weights, const int64_t *bias64,
                                 const int32_t *bias32, const int32_t *mult,
                                 const int32_t *shift, int16_t *output);
/* te:end */
#endif

#endif
