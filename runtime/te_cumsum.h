/* te_cumsum.h - CUMSUM along one axis, as TFLite Micro's reference CumSum:
 * the tensor seen as [before, depth, after] with the sum running over depth,
 * forwards or (reverse) backwards, each output including its own element or
 * (exclusive) only those before it.  float32: a running float sum from 0.
 * int8: ADD's arithmetic (left shift 20, inputs halved by in_mult /
 * in_shift), the running sum starting at the scaled input offset as in
 * TFLM, each partial sum rescaled to the output and clamped; the int32 sum
 * wraps as two's complement.  Output must not overlap the input. */
#ifndef TE_CUMSUM_H
#define TE_CUMSUM_H

#include <stdint.h>

typedef struct {
    int before, depth, after; /* product of the dims before the axis, the axis, after it */
    int exclusive, reverse;
    int32_t in_offset;        /* int8: minus the input zero point */
    int left_shift;           /* int8: 20 */
    int32_t in_mult;
    int in_shift;             /* <= 0 */
    int32_t out_mult;
    int out_shift;            /* <= 0 */
    int32_t out_offset;       /* output zero point */
    int32_t act_min, act_max;
} te_cumsum_params;

/* te:section te_cumsum_s8 */
TE_KERNEL void te_cumsum_s8(const te_cumsum_params *p, const int8_t *in, int8_t *out);
/* te:end */
/* te:section te_cumsum_f32 */
TE_KERNEL void te_cumsum_f32(const te_cumsum_params *p, const float *in, float *out);
/* te:end */

#endif
