/* te_depthwise_avx2.h - DEPTHWISE_CONV_2D int8 kernel for x86-64 with AVX2
 * (target x86-64-v3), depth multiplier 1, bit-exact with TFLite Micro's
 * reference DepthwiseConvPerChannel.
 *
 * Channels in the vector lanes, 16 at a time: the input rows a block of
 * output rows reads are copied into a ring on the stack (16 bytes a pixel,
 * padding columns and rows holding the input zero point), so every output
 * pixel reads its taps at fixed offsets with no bounds checks.  Two taps go
 * into one VPMADDWD (their bytes interleaved and widened, the int8 weights
 * widened as they are loaded: 8 channels' two products summed in int32);
 * then the fast requantization of 8 lanes (on the doubled sums, te_avx2_rq).
 *
 * What the compiler does once (src/ops/op_depthwise_conv2d.c): the input
 * offset folded into the bias (padding taps read the zero point, which then
 * contributes nothing), the fast requantization entries
 * (te_convfam_fast_requant), and
 *  - w: int8 [blocks16][taps * 16]: per block of 16 channels each pair of
 *    taps (2j, 2j + 1), taps numbered ky * k_w + kx, as [16][2] (the 16
 *    channels' two weights), then an odd last tap alone as [16] (zero past
 *    in_c);
 *  - qr: int32 [blocks8][4][8]: per block of 8 channels the 8 biases and
 *    the rows m, H, e of the fast entries (without fast_rq: bias, mult,
 *    shift).
 * The ring takes TE_DEPTHWISE_AVX2_RING_BYTES(p) <= TE_DEPTHWISE_AVX2_RING
 * bytes of stack.  input and output may be the same tensor (in place) when
 * every output row is written only over input rows already copied (rows up
 * to oy * stride_h - pad_top + span - 1 when output row oy is written). */
#ifndef TE_DEPTHWISE_AVX2_H
#define TE_DEPTHWISE_AVX2_H

#include <stdint.h>

#define TE_DEPTHWISE_AVX2_RING 49152

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w;          /* output [batches, out_h, out_w, in_c] */
    int k_h, k_w;              /* filter taps */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int cols;                  /* ring columns: at least pad_left + in_w and
                                * (out_w - 1) * stride_w + (k_w - 1) * dil_w + 1 */
    int32_t input_zp;
    int32_t output_offset;     /* output zero point (exact requantization only) */
    int32_t act_min, act_max;
    int fast_rq;
} te_depthwise_avx2_params;

/* Ring rows (span) plus one row of zero points, 16 bytes a column. */
#define TE_DEPTHWISE_AVX2_RING_BYTES(span, cols) (((span) + 1) * (cols) * 16)

/* te:section te_depthwise_avx2_s8 */
TE_KERNEL void te_depthwise_avx2_s8(const te_depthwise_avx2_params *p, const int8_t *input,
                                    const int8_t *w, const int32_t *qr, int8_t *output);
/* te:end */

/* te:section te_depthwise_avx2_s8_3x3 */
/* The same for a 3x3 filter with dil_w 1 (only its loop pasted). */
TE_KERNEL void te_depthwise_avx2_s8_3x3(const te_depthwise_avx2_params *p, const int8_t *input,
                                        const int8_t *w, const int32_t *qr, int8_t *output);
/* te:end */

/* te:section te_depthwise_avx2_s8_5x5 */
/* The same for a 5x5 filter with dil_w 1 (only its loop pasted). */
TE_KERNEL void te_depthwise_avx2_s8_5x5(const te_depthwise_avx2_params *p, const int8_t *input,
                                        const int8_t *w, const int32_t *qr, int8_t *output);
/* te:end */

/* te:section te_depthwise_avx2_s8_7x7 */
/* The same for a 7x7 filter with dil_w 1 (only its loop pasted). */
TE_KERNEL void te_depthwise_avx2_s8_7x7(const te_depthwise_avx2_params *p, const int8_t *input,
                                        const int8_t *w, const int32_t *qr, int8_t *output);
/* te:end */

#endif
