/* te_l2_pool.h - L2_POOL_2D float32 kernel (NHWC), as TFLite Micro's
 * reference L2Pool: over the window clipped to the input, the float sum of
 * squares in row order, divided by the number of cells counted, sqrtf, then
 * clamped to the fused activation's float range. */
#ifndef TE_L2_POOL_H
#define TE_L2_POOL_H

#include <stdint.h>

typedef struct {
    int batches;
    int in_h, in_w;
    int depth;              /* channels, same for input and output */
    int out_h, out_w;
    int stride_h, stride_w;
    int filter_h, filter_w;
    int pad_h, pad_w;       /* padding before the first row / column */
    float f_min, f_max;     /* the activation's range */
} te_l2_pool_params;

/* te:section te_l2_pool_f32 */
TE_KERNEL void te_l2_pool_f32(const te_l2_pool_params *p, const float *input, float *output);
/* te:end */

#endif
