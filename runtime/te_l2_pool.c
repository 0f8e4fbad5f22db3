/* te_l2_pool.c - L2_POOL_2D kernel (see te_l2_pool.h). */
#include <math.h>

#include "te_common.h"
#include "te_l2_pool.h"

/* te:section te_l2_pool_f32 */
/* One output: the root mean square of the clipped window at (y0, x0). */
static inline TE_UNUSED float te_l2_pool_window(const te_l2_pool_params *p, const float *in,
                                                int y0, int x0)
{
    int fy0 = y0 < 0 ? -y0 : 0, fx0 = x0 < 0 ? -x0 : 0;
    int fy1 = p->in_h - y0 < p->filter_h ? p->in_h - y0 : p->filter_h;
    int fx1 = p->in_w - x0 < p->filter_w ? p->in_w - x0 : p->filter_w;
    int fy, fx, count = 0;
    float sum = 0.0f;
    for (fy = fy0; fy < fy1; fy++) {
        for (fx = fx0; fx < fx1; fx++) {
            float v = in[((long)(y0 + fy) * p->in_w + (x0 + fx)) * p->depth];
            float sq = v * v;
            sum += sq;
            count++;
        }
    }
    return sqrtf(sum / (float)count);
}

TE_KERNEL void te_l2_pool_f32(const te_l2_pool_params *p, const float *input, float *output)
{
    int b, oy, ox, c;
    for (b = 0; b < p->batches; b++) {
        const float *in = input + (long)b * p->in_h * p->in_w * p->depth;
        for (oy = 0; oy < p->out_h; oy++) {
            for (ox = 0; ox < p->out_w; ox++) {
                for (c = 0; c < p->depth; c++) {
                    float r = te_l2_pool_window(p, in + c, oy * p->stride_h - p->pad_h,
                                                ox * p->stride_w - p->pad_w);
                    r = r < p->f_min ? p->f_min : r;
                    r = r > p->f_max ? p->f_max : r;
                    *output++ = r;
                }
            }
        }
    }
}
/* te:end */
