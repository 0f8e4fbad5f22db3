/* te_conv2d_avx2.h - CONV_2D int8 kernel for x86-64 with AVX2 (target
 * x86-64-v3), bit-exact with TFLite Micro's reference ConvPerChannel
 * (groups == 1).  The convolution is a GEMM of output pixels (their
 * patches) by output channels with the channels in the vector lanes: for
 * each pair of patch elements, one VPMADDWD multiplies the pair (broadcast)
 * by the pair's weights of 8 channels (int8 in flash, widened as they are
 * loaded: VPMOVSXBW instead of a plain load, no more instructions) and
 * leaves 8 int32 sums, so no horizontal reduction is ever needed.  4 pixels
 * and 16 channels at a time (8 accumulators in registers), then the fast
 * requantization of 8 lanes in a few vector instructions (on the doubled
 * sums: te_avx2_rq).
 *
 * What the compiler does once (src/ops/conv_family.c,
 * te_convfam_gemm_avx2_layout): the input offset folded into the bias
 * (padding taps read the input zero point, which then contributes
 * nothing); the kernel reads
 *  - w: int8 [blocks][k_pad / 2][8][2], blocks = (out_c + 7) / 8: for each
 *    block of 8 channels and each pair of patch elements (2j, 2j + 1) the
 *    8 channels' two weights (zero past out_c and past K);
 *  - qr: int32 [blocks][4][8]: per block the 8 biases, then the 8 fast
 *    entries {m, H, e} (te_convfam_fast_requant) as 3 rows of 8 (without
 *    fast_rq: entries {mult, shift, 0}).
 * Patch element k of an output pixel is input element (ky, kx, c),
 * k = (ky * k_w + kx) * in_c + c; K = k_h * k_w * in_c <= k_pad <=
 * TE_CONV2D_AVX2_KMAX, k_pad a multiple of 8.  The patches of 4 pixels are
 * built on the stack (4 * k_pad int16).  input and output must not
 * overlap. */
#ifndef TE_CONV2D_AVX2_H
#define TE_CONV2D_AVX2_H

#include <stdint.h>

#define TE_CONV2D_AVX2_KMAX 2048

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* filter taps */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int k_pad;                 /* patch length with padding (see above) */
    int32_t input_zp;          /* value of padding taps (input zero point) */
    int32_t output_offset;     /* output zero point (exact requantization only) */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
    int fast_rq;               /* qr holds fast entries (applied to the doubled
                                * sums); else rows {bias, mult, shift} (exact form) */
    int out_stride;            /* bytes from one output pixel to the next: 0 or
                                * out_c, more for a channel slice of a wider
                                * tensor */
} te_conv2d_avx2_params;

/* te:section te_conv2d_avx2_s8 */
TE_KERNEL void te_conv2d_avx2_s8(const te_conv2d_avx2_params *p, const int8_t *input,
                                 const int8_t *w, const int32_t *qr, int8_t *output);
/* te:end */

#endif
