/* conv_family_s16.h - the int16x8 form of the convolution family (CONV_2D,
 * DEPTHWISE_CONV_2D, FULLY_CONNECTED): int16 activations with zero point 0,
 * int8 weights, int64 bias or none (or, for CONV_2D and FULLY_CONNECTED,
 * int32: TFLite Micro's int32 accumulator path, te_convfam_s16_acc32).  Checks and the emission the windowed kernels of
 * runtime/te_conv2d_s16.c share; each op file picks this form when its
 * input is int16. */
#ifndef TE_CONV_FAMILY_S16_H
#define TE_CONV_FAMILY_S16_H

#include "ops.h"

/* 1 when the op runs in the int16x8 form: its input t is int16. */
int te_convfam_s16(const te_tensor *t);

/* Input and output int16, quantized per tensor with zero point 0 (TFLite
 * Micro's int16 kernels apply no offsets). */
int te_convfam_s16_check_io(te_diag *d, const te_op *op, const te_tensor *in,
                            const te_tensor *out);

/* Optional bias of `channels` values: int64, or int32 where allow_int32
 * (CONV_2D, FULLY_CONNECTED), constant when constant. */
int te_convfam_s16_check_bias(te_diag *d, const te_op *op, const te_tensor *b, int channels,
                              int allow_int32);

/* 1 when TFLite Micro accumulates the int16x8 CONV_2D or FULLY_CONNECTED in
 * int32 (and requantizes with the int32 MultiplyByQuantizedMultiplier):
 * an int32 bias, or no bias and the options' quantized_bias_type INT32.
 * Otherwise int64: an int64 bias, or no bias without that hint (TFLite
 * Micro since its PR 3598 of June 2026; before, a bias-less layer took
 * int32 unless the hint said INT64). */
int te_convfam_s16_acc32(const te_graph *g, const te_op *op);

/* Every channel's multiplier within TFLite's int64 requantization (its
 * shift at most 7, which TFLite asserts), for the kernels that accumulate
 * in int64. */
int te_convfam_s16_check_requant(te_diag *d, const te_op *op, const te_tensor *in,
                                 const te_tensor *w, const te_tensor *out, int channels,
                                 int float_product);

/* The int16x8 CONV_2D (depthwise = 0) or DEPTHWISE_CONV_2D (1) call: the
 * per-channel multipliers, the te_conv2d_s16_params and the kernel the
 * bias type selects (te_convfam_s16_window_kernel). */
int te_convfam_s16_emit_window(te_emit *e, const te_op *op, int depthwise);
/* Its kernel, for reports and lowering: on DSP targets, CONV_2D
 * with constant weights whose sums fit an int32 (te_convfam_s16_dsp_fits)
 * runs te_conv2d_s16_dsp (runtime/armv7em/te_conv2d_s16_dsp.h). */
te_kernel_id te_convfam_s16_window_kernel(const te_graph *g, const te_op *op, int depthwise);

/* 1 when every output channel's sum of int16 x int8 products fits an int32
 * exactly: 32768 * sum |w| < 2^31, w [out_c][k]. */
int te_convfam_s16_dsp_fits(const int8_t *w, int out_c, int k);
/* te_conv2d_s16_dsp's packed weights from w [out_c][taps][c]: words of
 * (out_c + 3) / 4 * taps * (c + 1) / 2 * 4 (te_conv2d_s16_dsp.h). */
size_t te_convfam_s16_dsp_words(int out_c, int taps, int c);
void te_convfam_s16_dsp_pack(const int8_t *w, int out_c, int taps, int c, int32_t *out);

#endif
