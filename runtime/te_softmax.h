/* te_softmax.h - int8 SOFTMAX and LOG_SOFTMAX over the last dimension,
 * bit-exact with TFLite Micro's reference kernels.  Everything that depends only on d = row_max - x (0..255) is computed by
 * the compiler into tables indexed by d:
 *   exp_table[d]  exp(-d * input_scale * beta) in Q0.31 as TFLite computes
 *                 it, or -1 where -d < diff_min (element ignored);
 *   q5_table[d]   -d rescaled to Q5.26 (LOG_SOFTMAX only).
 * At run time: the row max, the sum of exps, its reciprocal (SOFTMAX) or
 * log (LOG_SOFTMAX), and the output scaling.
 *
 * te_softmax_s16 is TFLite Micro's int16 SOFTMAX (int16 in, int16 out,
 * output scale 1/32768, zero point 0): x - max rescaled so that [-65535, 0]
 * spans [-10, 0], exp by table interpolation, 1 / sum by a second table,
 * both tables built by the compiler as TFLite's Prepare builds them.
 *
 * LOG_SOFTMAX also exists on float32 (models that dequantize first): TFLM
 * computes it in float with expf/logf, so that kernel carries its own
 * expf/logf that return exactly what glibc's (x86-64 FMA build) return. */
#ifndef TE_SOFTMAX_H
#define TE_SOFTMAX_H

#include "te_common.h"

/* te:section te_softmax_s8 */
/* rows x depth input, output scale 1/256, zero point -128. */
TE_KERNEL void te_softmax_s8(const int8_t *in, int8_t *out, int rows, int depth,
                             const int32_t *exp_table);
/* te:end */

/* te:section te_softmax_s8_s16 */
/* Same with int16 output: scale 1/65536, zero point -32768. */
TE_KERNEL void te_softmax_s8_s16(const int8_t *in, int16_t *out, int rows, int depth,
                                 const int32_t *exp_table);
/* te:end */

/* te:section te_softmax_s16_params */
typedef struct {
    int rows, depth;               /* rows x depth, softmax over depth */
    int32_t input_mult;            /* QuantizeMultiplier of scale * beta / (10 / 65535) */
    int input_shift;               /* > 0 is a left shift */
    const int16_t *exp_lut;        /* 513 entries: exp on [-10, 0] */
    const int16_t *recip_lut;      /* 513 entries: 1 / (1 + x) on [0, 1] */
} te_softmax_s16_params;
/* te:end */

/* te:section te_softmax_s16 */
/* in may be out (each element is read before it is written). */
TE_KERNEL void te_softmax_s16(const te_softmax_s16_params *p, const int16_t *in, int16_t *out);
/* te:end */

/* te:section te_log_softmax_s8 */
/* rows x depth input, output scale 16/256, zero point 127.  diff_min and
 * the reverse scaling (divisor, right shift) are TFLite's Prepare values. */
TE_KERNEL void te_log_softmax_s8(const int8_t *in, int8_t *out, int rows, int depth,
                                 const int32_t *exp_table, const int32_t *q5_table,
                                 int32_t diff_min, int32_t reverse_divisor,
                                 int reverse_right_shift);
/* te:end */

/* te:section te_log_softmax_f32 */
/* float32 rows x depth: out = x - max - log(sum(exp(x - max))), in float. */
TE_KERNEL void te_log_softmax_f32(const float *in, float *out, int rows, int depth);
/* te:end */

#endif
