/* te_mean.c - MEAN int8 and int16 kernels (see te_mean.h). */
#include "te_common.h"
#include "te_mean.h"

/* te:section te_mean_next */
/* Advances a row-major multi-index over `size`; returns 0 after the last. */
static inline TE_UNUSED int te_mean_next(int *idx, const int *size, int n)
{
    int i;
    for (i = n - 1; i >= 0; i--) {
        if (++idx[i] < size[i])
            return 1;
        idx[i] = 0;
    }
    return 0;
}
/* te:end */

/* te:section te_mean_offset */
static inline TE_UNUSED long te_mean_offset(const int *idx, const int *stride, int n)
{
    long off = 0;
    int i;
    for (i = 0; i < n; i++)
        off += (long)idx[i] * stride[i];
    return off;
}
/* te:end */

/* te:section te_mean_wrap32 */
/* Two's-complement wrap of v to 32 bits, as TFLite's int32 accumulator. */
static inline TE_UNUSED int32_t te_mean_wrap32(int64_t v)
{
    uint32_t u = (uint32_t)(uint64_t)v;
    return u > (uint32_t)INT32_MAX ? (int32_t)((int64_t)u - 4294967296LL) : (int32_t)u;
}
/* te:end */

/* te:section te_mean_sum */
static inline TE_UNUSED int64_t te_mean_sum(const te_mean_params *p, const int8_t *in)
{
    int idx[TE_MEAN_MAX_DIMS] = {0};
    int64_t sum = 0;
    do
        sum += in[te_mean_offset(idx, p->red_stride, p->n_red)];
    while (te_mean_next(idx, p->red_size, p->n_red));
    return sum;
}
/* te:end */

/* te:section te_mean_s8 */
TE_KERNEL void te_mean_s8(const te_mean_params *p, const int8_t *input, int8_t *output)
{
    int idx[TE_MEAN_MAX_DIMS] = {0};
    int i;
    for (i = 0; i < p->n_keep; i++)
        if (p->keep_size[i] <= 0)
            return;
    do {
        const int8_t *in = input + te_mean_offset(idx, p->keep_stride, p->n_keep);
        int32_t v = 0;
        if (p->count > 0) {
            int64_t s = te_mean_sum(p, in) - (int64_t)p->in_zp * p->count;
            v = te_mul_by_quant_mult(te_mean_wrap32(s), p->mult, p->shift) + p->out_zp;
            v = te_clamp_i32(v, -128, 127);
        }
        *output++ = (int8_t)v;
    } while (te_mean_next(idx, p->keep_size, p->n_keep));
}
/* te:end */

/* ---- int16 ---------------------------------------------------------------- */

/* te:section te_mean_sum_s16 */
static inline TE_UNUSED int64_t te_mean_sum_s16(const te_mean_params *p, const int16_t *in)
{
    int idx[TE_MEAN_MAX_DIMS] = {0};
    int64_t sum = 0;
    do
        sum += in[te_mean_offset(idx, p->red_stride, p->n_red)];
    while (te_mean_next(idx, p->red_size, p->n_red));
    return sum;
}
/* te:end */

/* te:section te_mean_s16 */
TE_KERNEL void te_mean_s16(const te_mean_params *p, const int16_t *input, int16_t *output)
{
    int idx[TE_MEAN_MAX_DIMS] = {0};
    int i;
    for (i = 0; i < p->n_keep; i++)
        if (p->keep_size[i] <= 0)
            return;
    do {
        const int16_t *in = input + te_mean_offset(idx, p->keep_stride, p->n_keep);
        int32_t v = 0;
        if (p->count > 0) {
            int64_t s = te_mean_sum_s16(p, in) - (int64_t)p->in_zp * p->count;
            v = te_mul_by_quant_mult(te_mean_wrap32(s), p->mult, p->shift) + p->out_zp;
            v = te_clamp_i32(v, -32768, 32767);
        }
        *output++ = (int16_t)v;
    } while (te_mean_next(idx, p->keep_size, p->n_keep));
}
/* te:end */
