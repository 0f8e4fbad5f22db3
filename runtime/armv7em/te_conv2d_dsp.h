/* te_conv2d_dsp.h - CONV_2D int8 kernel for cores with the Armv7E-M DSP
 * extension that reads the weights as int8 (no int16 copy in flash),
 * bit-exact with TFLite Micro's reference ConvPerChannel (groups == 1).
 * Compiled when the generated file defines TE_TARGET_DSP; te_common.h's
 * exact portable primitives elsewhere (host tests).
 *
 * The convolution is a GEMM of output pixels (their patches) by output
 * channels, two pixels by two channels at a time: the two patches are
 * widened to int16 into scratch (im2col columns, interleaved per group of
 * 4 patch elements: (a0,a2) (a1,a3) (b0,b2) (b1,b3)), the weights of two
 * channels are read as one word each per group and unpacked by SXTB16 /
 * SXTB16 ROR 8 into the same (w0,w2) (w1,w3) order, so 4 SXTB16 feed 8
 * SMLADs (16 multiply-accumulates) without any shuffle.
 *
 * Compile-time work (src/ops/op_conv2d.c, te_convfam_gemm_prepare): patch
 * element k = (ky * k_w + kx) * in_c + c, K = k_h * k_w * in_c padded with
 * zero weights to k_pad (a multiple of 4); channels padded to a multiple
 * of 2 with zero weights.  Weights w: per pair of channels, per group of 4
 * patch elements, one word (4 int8, the first in the low byte) for each
 * of the two channels.  The input offset is folded into the bias
 * (padding taps read the input zero point, which then contributes
 * nothing); qr: 16 int32 per block of 4 (padded) channels, the 4 biases
 * then a requantization entry per channel: fast_rq ? {m, H, e}
 * (te_convfam_fast_requant, applied to the doubled accumulator) :
 * {mult, shift, 0}. */
#ifndef TE_CONV2D_DSP_H
#define TE_CONV2D_DSP_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w, in_c;      /* input [batches, in_h, in_w, in_c] */
    int out_h, out_w, out_c;   /* output [batches, out_h, out_w, out_c] */
    int k_h, k_w;              /* filter taps */
    int stride_h, stride_w;
    int dil_h, dil_w;
    int pad_top, pad_left;     /* padding before the first row / column */
    int k_pad;                 /* patch length padded to a multiple of 4 */
    int32_t input_zp;          /* value of padding taps (input zero point) */
    int32_t output_offset;     /* output zero point (exact requantization only) */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
    int fast_rq;               /* qr holds fast entries (doubled accumulator) */
    int out_stride;            /* bytes from one output pixel to the next: 0 for
                                * out_c, more for a channel slice of a wider tensor */
} te_conv2d_dsp_params;

/* Bytes of stack the kernel may use for patches (k_pad <= 300; above, the
 * compiler gives arena scratch, or the kernel takes a slice of K at a
 * time).  1504 at most, so that the invoke's stack
 * stays within 2 KiB; the generated code defines it to what its
 * convolutions need (te_lowering.stack_buffer), so the stack stays small. */
#ifndef TE_CONV2D_DSP_STACK
#define TE_CONV2D_DSP_STACK 1504
#endif

/* te:section te_conv2d_dsp_s8_get_buffer_size */
/* Scratch bytes te_conv2d_dsp_s8 takes when given scratch (wanted when
 * they exceed TE_CONV2D_DSP_STACK or for a strided output): two widened
 * patches and the bytes of one, plus alignment. */
static inline TE_UNUSED long te_conv2d_dsp_s8_get_buffer_size(int k_pad)
{
    return 5L * k_pad + 4;
}
/* te:end */

/* te:section te_conv2d_dsp_s8 */
/* w: the packed int8 weights (above) as words; scratch: NULL or
 * te_conv2d_dsp_s8_get_buffer_size(k_pad) bytes.  Without scratch the
 * patches are built in the part of the output not written yet (not for a
 * strided output, which has other tensors' bytes there), else on the
 * stack if they fit TE_CONV2D_DSP_STACK, else on the stack a slice of
 * the patch length at a time (every output channel's sums kept there
 * meanwhile: a little slower).  input and output do not overlap (with
 * scratch they may for a 1x1 filter at stride 1 without padding,
 * out_c <= in_c: each pair of pixels' patches is built whole in it before
 * their outputs are stored; the compiler does not use that). */
TE_KERNEL void te_conv2d_dsp_s8(const te_conv2d_dsp_params *p, const int8_t *input,
                                const int32_t *w, const int32_t *qr, int8_t *output,
                                void *scratch);
/* te:end */

#endif
