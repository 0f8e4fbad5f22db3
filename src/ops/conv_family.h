/* conv_family.h - checks and compile-time parameters shared by the
 * convolution-family lowerings (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV): activation/weight/bias checks,
 * per-channel requantization multipliers, activation bounds, padding
 * (including explicit padding folded in from a PAD). */
#ifndef TE_CONV_FAMILY_H
#define TE_CONV_FAMILY_H

#include "ops.h"

int te_convfam_check_act_type(te_diag *d, const te_op *op, const te_tensor *t, const char *which);
/* Weights of any zero point are accepted: TFLite Micro's per-channel
 * kernels (every CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV, per-channel
 * FULLY_CONNECTED) never read it, and its per-tensor FULLY_CONNECTED
 * subtracts it (op_fully_connected.c). */
int te_convfam_check_weights(te_diag *d, const te_op *op, const te_tensor *w, int rank,
                             int chan_dim);
int te_convfam_check_bias(te_diag *d, const te_op *op, const te_tensor *b, int channels);
int te_convfam_act_range(te_diag *d, const te_op *op, te_activation act, const te_tensor *out,
                         int32_t *lo, int32_t *hi);
int te_convfam_emit_requant(te_emit *e, const te_tensor *in, const te_tensor *w,
                            const te_tensor *out, int channels, int float_product,
                            te_name *mult, te_name *shift);
int64_t te_convfam_out_size(te_padding pad, int64_t in, int64_t k, int64_t stride, int64_t dil);
int64_t te_convfam_pad_before(int64_t in, int64_t k, int64_t stride, int64_t dil, int64_t out);
/* CONV_2D / DEPTHWISE_CONV_2D geometry along height (axis 0) or width
 * (axis 1) for an input of size `in` and a filter of k taps, honouring the
 * options' stride, dilation, padding and explicit (folded PAD) padding:
 * the output size, and the padding before the first input row/column. */
int64_t te_convfam_conv_out(const te_options *o, int axis, int64_t in, int64_t k);
int64_t te_convfam_conv_pad(const te_options *o, int axis, int64_t in, int64_t k, int64_t out);
/* Stride/dilation >= 1, SAME or VALID, explicit padding >= 0 and the
 * padded 4-D input's height and width within int range. */
int te_convfam_check_conv_options(te_diag *d, const te_op *op, const te_tensor *in);

/* ---- CONV_2D as a GEMM (runtime/te_conv2d_gemm.{h,c}) ----------------- */
/* Patch length K padded for te_conv2d_gemm: to a multiple of 4 (dsp) or 8. */
int te_convfam_gemm_k_pad(int k, int dsp);

typedef struct {
    int out_c, k, k_pad, dsp;        /* channels, patch length K, padded K, DSP layout */
    int32_t input_zp, output_zp;
    int32_t act_min, act_max;
} te_convfam_gemm_spec;

/* The constants of te_conv2d_gemm_s8 from weights w [out_c][k], optional
 * bias and the per-channel mult/shift: w_out (quads * 4 * k_pad int16, the
 * kernel's order) and qr_out (16 int32 per block of 4 channels: the biases
 * with the input offset folded in, then a requantization entry per
 * channel), quads = (out_c + 3) / 4.  Returns 1 when every channel gets the
 * fast requantization (te_convfam_fast_requant; weights and bias then
 * doubled) or, when its output cannot depend on the input, a constant
 * entry; else 0 and the exact {mult, shift, 0} entries. */
int te_convfam_gemm_prepare(const te_convfam_gemm_spec *s, const int8_t *w, const int32_t *bias,
                            const int32_t *mult, const int32_t *shift, int16_t *w_out,
                            int32_t *qr_out);

/* te_conv2d_dsp_s8's int8 weights (runtime/armv7em/te_conv2d_dsp.h) from
 * w [out_c][k]: words_out ((out_c + 1) / 2 * k_pad / 2 words): per pair of
 * channels and group of 4 patch elements, one word per channel, the
 * first element in the low byte; zero past out_c and k. */
void te_convfam_dsp_s8_layout(int out_c, int k, int k_pad, const int8_t *w, int32_t *words_out);
/* Its requantization records from te_convfam_gemm_prepare's qr (16 int32
 * per 4 channels): 8 int32 per pair of channels, (out_c + 1) / 2 pairs:
 * the 2 biases, then the 2 entries. */
void te_convfam_dsp_s8_requant(int out_c, const int32_t *qr16, int32_t *qr8_out);

/* A DEPTHWISE_CONV_2D filter [1, k_h, k_w, c] (taps = k_h * k_w) read as
 * c rows of taps, [c][taps]: with one input channel, the weights
 * [out_c][k] of the CONV_2D it is (the multiplier's outputs as output
 * channels, the taps as the patch). */
void te_convfam_dw_filter_rows(int taps, int c, const int8_t *w, int8_t *rows_out);

/* The constants of te_conv2d_avx2_s8 (target x86-64-v3) from those of a
 * te_convfam_gemm_prepare (w16: quads * 4 * k_pad, qr: 16 int32 per 4
 * channels; fast: its result, weights and biases doubled, which the layout
 * halves back): w_out (blocks * k_pad * 8 int8: per block of 8 channels
 * and pair of patch elements, the 8 channels' two weights) and qr_out (32
 * int32 per block: 8 biases, then the m, H and e rows), blocks =
 * (out_c + 7) / 8 (runtime/te_conv2d_avx2.h). */
void te_convfam_gemm_avx2_layout(int out_c, int k_pad, int fast, const int16_t *w16,
                                 const int32_t *qr, int8_t *w_out, int32_t *qr_out);

/* te_depthwise_avx2_s8's weights (target x86-64-v3) from a
 * te_convfam_gemm_prepare of the filter read as [c][taps] (w16: rows of
 * k_pad; fast: as above): w_out int8 [blocks16][taps * 16], the pairs of
 * taps as [16][2], an odd last tap alone as [16], zero past c
 * (runtime/te_depthwise_avx2.h). */
void te_convfam_dw_avx2_layout(int c, int taps, int k_pad, int fast, const int16_t *w16,
                               int8_t *w_out);

/* The fixed-point multiplier and shift of output channel c, as
 * te_convfam_emit_requant writes them: double(in_scale) * double(w_scale)
 * / double(out_scale) (TFLite PopulateConvolutionQuantizationParams), or
 * with float_product and per-tensor weights the scales multiplied in float
 * first (GetQuantizedConvolutionMultipler, per-tensor FULLY_CONNECTED). */
void te_convfam_channel_multiplier(const te_tensor *in, const te_tensor *w, const te_tensor *out,
                                   int c, int float_product, int32_t *mult, int *shift);
/* A cheaper exact form of TFLite's requantization
 * MultiplyByQuantizedMultiplier(acc, mult, shift) + zp, valid for every
 * accumulator |acc| <= acc_bound: with e = -shift >= 1, mult >= 0,
 * acc_bound <= 2^29 and H = 2^(e-1) + zp*2^e small enough (see the .c), it
 * equals
 *   ((2*acc*mult + 2^31 + (H - [acc < 0]) * 2^32) >> 32) >> e
 * (64-bit arithmetic, arithmetic shifts).  Writes entry = {mult, H, e} and
 * returns 1; otherwise writes {mult, shift, 0} and returns 0 (the kernel
 * then uses te_mul_by_quant_mult and adds zp itself). */
int te_convfam_fast_requant(int32_t mult, int shift, int32_t zp, int64_t acc_bound,
                            int32_t entry[3]);

#endif
