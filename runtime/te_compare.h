/* te_compare.h - EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and
 * LESS_EQUAL with numpy-style broadcasting, bool (one byte, 0 / 1) output,
 * as TFLite Micro's comparisons: int8 inputs are first brought to a common
 * scale (offset, << left_shift, MultiplyByQuantizedMultiplierSmallerThanOneExp
 * per input), float / int32 / int64 / bool compare raw values. */
#ifndef TE_COMPARE_H
#define TE_COMPARE_H

#include <stdint.h>

#include "te_common.h"

#define TE_COMPARE_MAX_DIMS 6

/* The comparison, in te_compare_params.op. */
enum { TE_CMP_EQ = 0, TE_CMP_NE, TE_CMP_GT, TE_CMP_GE, TE_CMP_LT, TE_CMP_LE };

typedef struct {
    int broadcast;                    /* 0: same shapes, one flat loop of `size` */
    int size;                         /* output elements */
    int dims[TE_COMPARE_MAX_DIMS];    /* output shape, extended to 6D */
    int stride1[TE_COMPARE_MAX_DIMS]; /* element stride of input 1 per output dim (0: broadcast) */
    int stride2[TE_COMPARE_MAX_DIMS]; /* same for input 2 */
    int op;                           /* TE_CMP_* */
    /* int8 and int16 only: value_k = MBQMSmallerThanOneExp((x + offset_k) <<
     * left_shift, multiplier_k, shift_k) */
    int left_shift;
    int32_t in1_offset, in1_multiplier, in1_shift;
    int32_t in2_offset, in2_multiplier, in2_shift;
} te_compare_params;

/* out[i] = in1[i] OP in2[i] (broadcast), 1 or 0. */
/* te:section te_compare_s8 */
TE_KERNEL void te_compare_s8(const te_compare_params *p, const int8_t *in1, const int8_t *in2,
                             uint8_t *out);
/* te:end */
/* te:section te_compare_s16 */
/* int16 (TFLite Micro: GREATER only) */
TE_KERNEL void te_compare_s16(const te_compare_params *p, const int16_t *in1,
                              const int16_t *in2, uint8_t *out);
/* te:end */
/* te:section te_compare_i32 */
TE_KERNEL void te_compare_i32(const te_compare_params *p, const int32_t *in1,
                              const int32_t *in2, uint8_t *out);
/* te:end */
/* te:section te_compare_i64 */
TE_KERNEL void te_compare_i64(const te_compare_params *p, const int64_t *in1,
                              const int64_t *in2, uint8_t *out);
/* te:end */
/* te:section te_compare_f32 */
TE_KERNEL void te_compare_f32(const te_compare_params *p, const float *in1, const float *in2,
                              uint8_t *out);
/* te:end */
/* te:section te_compare_bool */
/* bool inputs (EQUAL, NOT_EQUAL only) */
TE_KERNEL void te_compare_bool(const te_compare_params *p, const uint8_t *in1, const uint8_t *in2,
                               uint8_t *out);
/* te:end */

#endif
