/* te_pool.c - average and max pooling int8 and int16 kernels (see te_pool.h). */
#include "te_common.h"
#include "te_pool.h"

/* te:section te_pool_clip */
/* The part [*lo, *hi) of a window of `size` taps starting at `origin` that
 * lies inside [0, extent). */
static inline TE_UNUSED void te_pool_clip(int origin, int size, int extent, int *lo, int *hi)
{
    *lo = TE_MAX(0, -origin);
    *hi = TE_MIN(size, extent - origin);
}
/* te:end */

/* te:section te_pool_round_div */
/* Integer division of a sum by a positive count, rounding half away from zero. */
static inline TE_UNUSED int32_t te_pool_round_div(int32_t sum, int32_t count)
{
    return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}
/* te:end */

/* te:section te_pool_window */
static inline TE_UNUSED int32_t te_pool_window(const te_pool_params *p, const int8_t *in,
                                               int oy, int ox, int c, int is_max)
{
    int y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    int fy_lo, fy_hi, fx_lo, fx_hi, fy, fx;
    int32_t acc = is_max ? -128 : 0, count = 0;
    te_pool_clip(y0, p->filter_h, p->in_h, &fy_lo, &fy_hi);
    te_pool_clip(x0, p->filter_w, p->in_w, &fx_lo, &fx_hi);
    for (fy = fy_lo; fy < fy_hi; fy++)
        for (fx = fx_lo; fx < fx_hi; fx++) {
            int32_t v = in[((y0 + fy) * p->in_w + (x0 + fx)) * p->depth + c];
            if (is_max)
                acc = TE_MAX(acc, v);
            else
                acc += v;
            count++;
        }
    if (!is_max && count > 0)
        acc = te_pool_round_div(acc, count);
    return te_clamp_i32(acc, p->act_min, p->act_max);
}
/* te:end */

/* te:section te_pool_run */
static inline TE_UNUSED void te_pool_run(const te_pool_params *p, const int8_t *input,
                                         int8_t *output, int is_max)
{
    int b, oy, ox, c;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in = input + (long)b * p->in_h * p->in_w * p->depth;
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++)
                for (c = 0; c < p->depth; c++)
                    *output++ = (int8_t)te_pool_window(p, in, oy, ox, c, is_max);
    }
}
/* te:end */

/* te:section te_pool_avg_s8 */
TE_KERNEL void te_pool_avg_s8(const te_pool_params *p, const int8_t *input, int8_t *output)
{
    te_pool_run(p, input, output, 0);
}
/* te:end */

/* te:section te_pool_max_s8 */
TE_KERNEL void te_pool_max_s8(const te_pool_params *p, const int8_t *input, int8_t *output)
{
    te_pool_run(p, input, output, 1);
}
/* te:end */

/* te:section te_pool_window_s16 */
/* ---- int16 ---------------------------------------------------------------- */

/* te_pool_window on int16: the max starts at -32768, sums fit int32. */
static inline TE_UNUSED int32_t te_pool_window_s16(const te_pool_params *p, const int16_t *in,
                                                   int oy, int ox, int c, int is_max)
{
    int y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    int fy_lo, fy_hi, fx_lo, fx_hi, fy, fx;
    int32_t acc = is_max ? -32768 : 0, count = 0;
    te_pool_clip(y0, p->filter_h, p->in_h, &fy_lo, &fy_hi);
    te_pool_clip(x0, p->filter_w, p->in_w, &fx_lo, &fx_hi);
    for (fy = fy_lo; fy < fy_hi; fy++)
        for (fx = fx_lo; fx < fx_hi; fx++) {
            int32_t v = in[((y0 + fy) * p->in_w + (x0 + fx)) * p->depth + c];
            if (is_max)
                acc = TE_MAX(acc, v);
            else
                acc += v;
            count++;
        }
    if (!is_max && count > 0)
        acc = te_pool_round_div(acc, count);
    return te_clamp_i32(acc, p->act_min, p->act_max);
}
/* te:end */

/* te:section te_pool_run_s16 */
static inline TE_UNUSED void te_pool_run_s16(const te_pool_params *p, const int16_t *input,
                                             int16_t *output, int is_max)
{
    int b, oy, ox, c;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in = input + (long)b * p->in_h * p->in_w * p->depth;
        for (oy = 0; oy < p->out_h; oy++)
            for (ox = 0; ox < p->out_w; ox++)
                for (c = 0; c < p->depth; c++)
                    *output++ = (int16_t)te_pool_window_s16(p, in, oy, ox, c, is_max);
    }
}
/* te:end */

/* te:section te_pool_avg_s16 */
TE_KERNEL void te_pool_avg_s16(const te_pool_params *p, const int16_t *input, int16_t *output)
{
    te_pool_run_s16(p, input, output, 0);
}
/* te:end */

/* te:section te_pool_max_s16 */
TE_KERNEL void te_pool_max_s16(const te_pool_params *p, const int16_t *input, int16_t *output)
{
    te_pool_run_s16(p, input, output, 1);
}
/* te:end */
