/* te_math_f32.h - the float32 element-wise math TFLite Micro runs in float
 * only (EXP, LOG, SQRT, RSQRT, SIN, COS, SQUARE, FLOOR, CEIL, ROUND): each
 * kernel calls the C library function TFLite's kernel calls (expf, logf,
 * sqrtf, sinf, cosf, floorf, ceilf), so the results are those of TFLite on
 * the same C library.  in and out may be the same buffer. */
#ifndef TE_MATH_F32_H
#define TE_MATH_F32_H

#include <stdint.h>

#include "te_common.h"

/* te:section te_exp_f32 */
TE_KERNEL void te_exp_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_log_f32 */
TE_KERNEL void te_log_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_sqrt_f32 */
TE_KERNEL void te_sqrt_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_rsqrt_f32 */
/* 1.f / sqrtf(x) */
TE_KERNEL void te_rsqrt_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_sin_f32 */
TE_KERNEL void te_sin_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_cos_f32 */
TE_KERNEL void te_cos_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_square_f32 */
TE_KERNEL void te_square_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_floor_f32 */
TE_KERNEL void te_floor_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_ceil_f32 */
TE_KERNEL void te_ceil_f32(const float *in, float *out, int n);
/* te:end */
/* te:section te_round_f32 */
/* Round half to even, as TFLite's RoundToNearest. */
TE_KERNEL void te_round_f32(const float *in, float *out, int n);
/* te:end */

#endif
