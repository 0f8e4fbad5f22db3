/* te_depthwise_dsp.h - DEPTHWISE_CONV_2D int8 kernels for cores with the
 * Armv7E-M DSP extension (compiled when the generated file defines
 * TE_TARGET_DSP; exact portable primitives elsewhere), bit-exact with
 * TFLite Micro's reference DepthwiseConvPerChannel:
 *  - te_depthwise_dsp_s8_k<K>s<S>: depth multiplier 1, square 3x3 / 5x5 /
 *    7x7 filters, stride 1 or 2.  Four channels at a time, the input rows a
 *    band of output rows needs are copied into a ring of rows per channel
 *    as int16 values x - zero_point (zero for the padding), two columns per
 *    32-bit word, so one SMLAD multiplies two taps of one channel;
 *  - te_depthwise_dsp_nhwc_s8: any multiplier, filters up to 7 rows, taps
 *    outside the image skipped (small images), 4 channels a word.
 * No dilation.  Accumulators must stay below 2^29 (the sums are doubled for
 * the requantization).  Output may overwrite input (in place, multiplier
 * 1) when every output row lands on input rows already copied: (oy + 1) *
 * out_w <= min(in_h, oy * stride - pad_top + k_h) * in_w for every oy (and
 * out_h * out_w <= in_h * in_w). */
#ifndef TE_DEPTHWISE_DSP_H
#define TE_DEPTHWISE_DSP_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w, c;         /* input [batches, in_h, in_w, c] */
    int out_h, out_w;          /* output [batches, out_h, out_w, c] */
    int pad_top, pad_left;     /* padding before the first row / column */
    int ring_h, ring_w;        /* ring rows (>= (band - 1) * stride + k), words per row */
    int band;                  /* output rows per band */
    int blocks;                /* constants blocks in scratch: 4 (always for K = 3) or 1 */
    int mode;                  /* TE_DEPTHWISE_DSP_SLOW/SAT/CLAMP (below) */
    int cols;                  /* column mode (below) */
    int32_t input_offset;      /* -input zero point */
    int32_t output_offset;     /* output zero point */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
} te_depthwise_dsp_params;

/* How accumulators become outputs: SAT and CLAMP when every channel's rq
 * entry is of the fast form (e >= 1), SAT when moreover the bounds are
 * [-128, 127]; SLOW handles any entry (te_mul_by_quant_mult when e = 0). */
#define TE_DEPTHWISE_DSP_SLOW 0
#define TE_DEPTHWISE_DSP_SAT 1
#define TE_DEPTHWISE_DSP_CLAMP 2

/* The ring kernels' rq: two int32 per channel, the entry {mult, H, e} or
 * {mult, shift, 0} of te_convfam_fast_requant packed (flash): {mult, e}
 * for the fast form (e >= 1; H = (2 output_offset + 1) 2^(e - 1) is
 * recomputed), {mult, shift - TE_DEPTHWISE_DSP_RQ_EXACT} for the exact
 * one. */
#define TE_DEPTHWISE_DSP_RQ_EXACT (1 << 24)

/* te:section TE_DEPTHWISE_DSP_DECLARE */
/* te_depthwise_dsp_s8_k<K>s<S>: filter K x K, stride S.  weights: the
 * model's [1, K, K, c]; bias: c values or NULL; rq: two int32 per channel
 * (TE_DEPTHWISE_DSP_RQ_EXACT above).  ring: scratch of 4 * ring_h * ring_w +
 * 2 * band * K + blocks * (K * (K + 1) + 15) words (the ring; the row
 * pointer table; per-channel constants, one block per channel of the group
 * made once per group, or a single one remade per channel and band).
 * ring_w covers the input columns with their padding and every word the
 * groups of 4 output pixels read.  input == output is allowed under the
 * condition above.  Column mode (cols = 1, for narrow images: long lines
 * of pixels amortise the per-line work) runs the same kernel on the
 * transposed image: ring rows hold input columns, and ring_h, ring_w,
 * band, the wording above (rows, columns) and the in-place condition are
 * those of the transposed image; with a single band (band >= out_w) the
 * whole plane of each group is saved first, so in place is always fine.
 * The generated code calls the always-inlined
 * te_depthwise_dsp_s8_k<K>s<S>_inl with the same arguments. */
#define TE_DEPTHWISE_DSP_DECLARE(name)                                                         \
    TE_KERNEL void name(const te_depthwise_dsp_params *p, const int8_t *input, int8_t *output,   \
                        const int8_t *weights, const int32_t *bias, const int32_t *rq,           \
                        uint32_t *ring)
/* te:end */
/* te:section te_depthwise_dsp_s8_k3s1_inl te_depthwise_dsp_s8_k3s1 */
TE_DEPTHWISE_DSP_DECLARE(te_depthwise_dsp_s8_k3s1);
/* te:end */
/* te:section te_depthwise_dsp_s8_k3s2_inl te_depthwise_dsp_s8_k3s2 */
TE_DEPTHWISE_DSP_DECLARE(te_depthwise_dsp_s8_k3s2);
/* te:end */
/* te:section te_depthwise_dsp_s8_k5s1_inl te_depthwise_dsp_s8_k5s1 */
TE_DEPTHWISE_DSP_DECLARE(te_depthwise_dsp_s8_k5s1);
/* te:end */
/* te:section te_depthwise_dsp_s8_k5s2_inl te_depthwise_dsp_s8_k5s2 */
TE_DEPTHWISE_DSP_DECLARE(te_depthwise_dsp_s8_k5s2);
/* te:end */
/* te:section te_depthwise_dsp_s8_k7s1_inl te_depthwise_dsp_s8_k7s1 */
TE_DEPTHWISE_DSP_DECLARE(te_depthwise_dsp_s8_k7s1);
/* te:end */
/* te:section te_depthwise_dsp_s8_k7s2_inl te_depthwise_dsp_s8_k7s2 */
TE_DEPTHWISE_DSP_DECLARE(te_depthwise_dsp_s8_k7s2);
/* te:end */

/* The channels-last kernel: any filter up to 7 rows (any width and
 * stride, no dilation), any depth multiplier (output channel oc reads input
 * channel oc / depth_mult), taps outside the image skipped.  weights:
 * [1, k_h, k_w, c * depth_mult]; rq and bias per output channel.  scratch:
 * 2 * k_h * in_w + 2 * k_h * k_w words.  In place (multiplier 1) when every
 * output row lands on input rows already saved, as for the others. */
typedef struct {
    int batches;
    int in_h, in_w, c;         /* input [batches, in_h, in_w, c] */
    int out_h, out_w;          /* output [batches, out_h, out_w, c * depth_mult] */
    int depth_mult;
    int k_h, k_w, stride_h, stride_w;
    int pad_top, pad_left;
    int mode;                  /* TE_DEPTHWISE_DSP_SLOW/SAT/CLAMP */
    int32_t input_offset, output_offset, act_min, act_max;
} te_depthwise_dsp_nhwc_params;

/* te:section te_depthwise_dsp_nhwc_s8 */
TE_KERNEL void te_depthwise_dsp_nhwc_s8(const te_depthwise_dsp_nhwc_params *p,
                                        const int8_t *input, int8_t *output,
                                        const int8_t *weights, const int32_t *bias,
                                        const int32_t *rq, uint32_t *scratch);
/* te:end */

#endif
