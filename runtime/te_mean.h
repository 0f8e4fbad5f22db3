/* te_mean.h - MEAN int8 kernel over any set of axes, bit-exact with TFLite
 * Micro's reference QuantizedMeanOrSum (integer-only form): the sum of the
 * reduced elements minus count * input zero point is requantized with
 * input_scale / output_scale folded with 1 / count, plus the output zero
 * point, clamped to int8.
 *
 * The compiler describes the input as two nested index spaces: the kept
 * dimensions (one output element per position, in output order) and the
 * reduced dimensions, each with its sizes and input element strides.
 *
 * int16x8: te_mean_s16 is the same requantization clamped to int16 (also
 * with equal input and output quantization, where older TFLite Micro took
 * a truncating plain Mean: see src/ops/op_mean.c). */
#ifndef TE_MEAN_H
#define TE_MEAN_H

#include <stdint.h>

#define TE_MEAN_MAX_DIMS 6

typedef struct {
    int n_keep;                          /* kept dimensions (0: one output) */
    int keep_size[TE_MEAN_MAX_DIMS];
    int keep_stride[TE_MEAN_MAX_DIMS];   /* input element strides */
    int n_red;                           /* reduced dimensions */
    int red_size[TE_MEAN_MAX_DIMS];
    int red_stride[TE_MEAN_MAX_DIMS];
    int32_t count;                       /* elements averaged per output */
    int32_t in_zp;                       /* input zero point */
    int32_t mult;                        /* multiplier with 1/count folded in */
    int shift;                           /* TFLite form: > 0 is a left shift */
    int32_t out_zp;
} te_mean_params;

/* te:section te_mean_s8 */
TE_KERNEL void te_mean_s8(const te_mean_params *p, const int8_t *input, int8_t *output);
/* te:end */
/* te:section te_mean_s16 */
TE_KERNEL void te_mean_s16(const te_mean_params *p, const int16_t *input, int16_t *output);
/* te:end */

#endif
