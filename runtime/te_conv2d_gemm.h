/* te_conv2d_gemm.h - fast CONV_2D int8 kernel: the convolution as a GEMM
 * of output pixels (their patches) by output channels, four channels of
 * one pixel at a time, bit-exact with TFLite Micro's reference
 * ConvPerChannel (groups == 1).  It needs no scratch memory: a pixel's
 * patch, widened to int16, is built in the part of the output tensor not
 * written yet; the last pixels, where that part is too small, read the
 * input directly.
 *
 * Everything the compiler can do once is done once (src/ops/conv_family.c,
 * te_convfam_gemm_*): the weights come re-laid out as int16 in the order
 * the kernel reads them, the input offset is folded into the bias
 * (sum((x + off) * w) = sum(x * w) + off * sum(w); padding taps read the
 * input zero point, which then contributes nothing), and the
 * requantization comes as a per-channel table.
 *
 * Patch element k of an output pixel is input element (ky, kx, c),
 * k = (ky * k_w + kx) * in_c + c, K = k_h * k_w * in_c, padded with zero
 * weights to k_pad.  Channels are padded to a multiple of 4 with zero
 * weights (bias and table too).  The weight layout (te_conv2d_gemm_w) is
 * the target's. */
#ifndef TE_CONV2D_GEMM_H
#define TE_CONV2D_GEMM_H

#include <stdint.h>

#if defined(TE_TARGET_DSP)
/* Weights for SMLAD (Armv7E-M): k_pad is a multiple of 4; words of two
 * int16; for each group of 4 channels and each group of 4 patch elements
 * w0..w3, the words (w0,w2) (w1,w3) of each of the 4 channels (what SXTB16
 * and SXTB16 ROR 8 make of the input bytes x0..x3). */
typedef int32_t te_conv2d_gemm_w;
#else
/* Weights: k_pad is a multiple of 8, int16 [channel][k_pad]. */
typedef int16_t te_conv2d_gemm_w;
#endif

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* filter taps */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int k_pad;                 /* patch length with padding (see above) */
    int pointwise;             /* 1x1 filter without padding: a patch is one pixel */
    int32_t input_zp;          /* value of padding taps (input zero point) */
    int32_t output_offset;     /* output zero point (exact requantization only) */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
    int fast_rq;               /* rq holds fast entries, weights and bias doubled */
    int out_stride;            /* bytes from one output pixel to the next: 0 for
                                * a tensor of its own, more than out_c for a
                                * channel slice of a wider one, out_c for a 1x1
                                * filter at stride 1 without padding writing its
                                * output over its input (out_c <= in_c; in
                                * place); with one (then the part not written
                                * yet is not free for patches) */
    int8_t *work;              /* with out_stride: NULL, or TE_CONV2D_GEMM_WORK()
                                * bytes, 4-aligned, where patches are built (in
                                * place: each pixel's input read whole into it
                                * before any of its outputs is stored) */
} te_conv2d_gemm_params;

/* Bytes of `work` a strided output wants (k_pad: te_conv2d_gemm_params). */
#define TE_CONV2D_GEMM_WORK(k_pad) (2 * (k_pad) + 16)

/* te:section te_conv2d_gemm_s8_get_buffer_size */
/* Scratch bytes te_conv2d_gemm_s8 takes in `work` (with out_stride). */
static inline TE_UNUSED long te_conv2d_gemm_s8_get_buffer_size(int k_pad)
{
    return TE_CONV2D_GEMM_WORK(k_pad);
}
/* te:end */

/* te:section te_conv2d_gemm_s8 */
/* qr: for each block of 4 (padded) channels 16 int32: the 4 biases (input
 * offset folded in), then per channel fast_rq ? {m, H, e}
 * (te_convfam_fast_requant; weights and bias then come doubled) :
 * {mult, shift, 0}.  zp_row: k_w * in_c bytes equal to the input zero
 * point (NULL when pointwise).  input and output must not overlap. */
TE_KERNEL void te_conv2d_gemm_s8(const te_conv2d_gemm_params *p, const int8_t *input,
                                 const te_conv2d_gemm_w *w, const int32_t *qr,
                                 const int8_t *zp_row, int8_t *output);
/* te:end */

#endif
