/* te_math_f32.c - float32 element-wise math kernels (see te_math_f32.h). */
#include <math.h>

#include "te_common.h"
#include "te_math_f32.h"

/* te:section TE_MATH_F32_KERNEL */
#define TE_MATH_F32_KERNEL(NAME, EXPR)                                                         \
    TE_KERNEL void NAME(const float *in, float *out, int n)                                    \
    {                                                                                          \
        int i;                                                                                 \
        for (i = 0; i < n; i++) {                                                              \
            const float x = in[i];                                                             \
            out[i] = (EXPR);                                                                   \
        }                                                                                      \
    }
/* te:end */

/* te:section te_exp_f32 */
TE_MATH_F32_KERNEL(te_exp_f32, expf(x))
/* te:end */

/* te:section te_log_f32 */
TE_MATH_F32_KERNEL(te_log_f32, logf(x))
/* te:end */

/* te:section te_sqrt_f32 */
TE_MATH_F32_KERNEL(te_sqrt_f32, sqrtf(x))
/* te:end */

/* te:section te_rsqrt_f32 */
TE_MATH_F32_KERNEL(te_rsqrt_f32, 1.0f / sqrtf(x))
/* te:end */

/* te:section te_sin_f32 */
TE_MATH_F32_KERNEL(te_sin_f32, sinf(x))
/* te:end */

/* te:section te_cos_f32 */
TE_MATH_F32_KERNEL(te_cos_f32, cosf(x))
/* te:end */

/* te:section te_square_f32 */
TE_MATH_F32_KERNEL(te_square_f32, x * x)
/* te:end */

/* te:section te_floor_f32 */
TE_MATH_F32_KERNEL(te_floor_f32, floorf(x))
/* te:end */

/* te:section te_ceil_f32 */
TE_MATH_F32_KERNEL(te_ceil_f32, ceilf(x))
/* te:end */

/* te:section te_round_f32 */
static inline TE_UNUSED float te_round_half_even_f32(float x)
{
    float f = floorf(x), diff = x - f;
    if (diff < 0.5f || (diff == 0.5f && (int)f % 2 == 0))
        return f;
    return f + 1.0f;
}
TE_MATH_F32_KERNEL(te_round_f32, te_round_half_even_f32(x))
/* te:end */
