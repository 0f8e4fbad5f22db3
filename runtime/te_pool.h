/* te_pool.h - AVERAGE_POOL_2D and MAX_POOL_2D int8 kernels (NHWC), bit-exact
 * with TFLite Micro's reference integer AveragePool / MaxPool: the window is
 * clipped to the input (padding cells are not counted), the average is
 * rounded half away from zero, and the result is clamped to the fused
 * activation range.  Input and output share scale and zero point.  The
 * _s16 kernels are the int16x8 forms (same arithmetic, int16 range). */
#ifndef TE_POOL_H
#define TE_POOL_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w;
    int depth;                 /* channels, same for input and output */
    int out_h, out_w;
    int stride_h, stride_w;
    int filter_h, filter_w;
    int pad_h, pad_w;          /* padding before the first row / column */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
} te_pool_params;

/* te:section te_pool_avg_s8 */
TE_KERNEL void te_pool_avg_s8(const te_pool_params *p, const int8_t *input, int8_t *output);
/* te:end */
/* te:section te_pool_max_s8 */
TE_KERNEL void te_pool_max_s8(const te_pool_params *p, const int8_t *input, int8_t *output);
/* te:end */
/* te:section te_pool_avg_s16 */
TE_KERNEL void te_pool_avg_s16(const te_pool_params *p, const int16_t *input, int16_t *output);
/* te:end */
/* te:section te_pool_max_s16 */
TE_KERNEL void te_pool_max_s16(const te_pool_params *p, const int16_t *input, int16_t *output);
/* te:end */

#endif
