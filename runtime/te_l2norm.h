/* te_l2norm.h - L2_NORMALIZATION along the last axis, as TFLite Micro's
 * reference kernels: int8 (sum of squares of x - zp, its inverse square
 * root by TFLite's fixed-point Newton-Raphson, output in 1/128 units, zero
 * point 0) and float32 (x / max(sqrt(sum x^2), 1e-6)). */
#ifndef TE_L2NORM_H
#define TE_L2NORM_H

#include <stdint.h>

#include "te_common.h"

/* te:section te_l2norm_s8 */
TE_KERNEL void te_l2norm_s8(const int8_t *in, int8_t *out, int outer, int depth,
                            int32_t input_zero_point);
/* te:end */
/* te:section te_l2norm_f32 */
TE_KERNEL void te_l2norm_f32(const float *in, float *out, int outer, int depth);
/* te:end */

#endif
