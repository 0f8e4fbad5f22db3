/* te_cumsum.c - CUMSUM kernels (see te_cumsum.h). */
#include "te_common.h"
#include "te_cumsum.h"

/* te:section te_cumsum_s8 */
static inline TE_UNUSED int32_t te_cumsum_scaled(const te_cumsum_params *p, int32_t offset_value)
{
    return te_mul_by_quant_mult_smaller_than_one(te_shl_i32(offset_value, p->left_shift),
                                                 p->in_mult, p->in_shift);
}

TE_KERNEL void te_cumsum_s8(const te_cumsum_params *p, const int8_t *in, int8_t *out)
{
    int32_t start = te_cumsum_scaled(p, p->in_offset);
    int b, a, k;
    for (b = 0; b < p->before; b++) {
        for (a = 0; a < p->after; a++) {
            uint32_t acc = (uint32_t)start;
            for (k = 0; k < p->depth; k++) {
                int d = p->reverse ? p->depth - 1 - k : k;
                long idx = ((long)b * p->depth + d) * p->after + a;
                uint32_t y = (uint32_t)te_cumsum_scaled(p, p->in_offset + in[idx]);
                int32_t part, o;
                if (p->exclusive) {
                    part = (int32_t)acc;
                    acc += y;
                } else {
                    acc += y;
                    part = (int32_t)acc;
                }
                o = te_mul_by_quant_mult_smaller_than_one(part, p->out_mult, p->out_shift) +
                    p->out_offset;
                out[idx] = (int8_t)te_clamp_i32(o, p->act_min, p->act_max);
            }
        }
    }
}
/* te:end */

/* te:section te_cumsum_f32 */
TE_KERNEL void te_cumsum_f32(const te_cumsum_params *p, const float *in, float *out)
{
    int b, a, k;
    for (b = 0; b < p->before; b++) {
        for (a = 0; a < p->after; a++) {
            float acc = 0.0f;
            for (k = 0; k < p->depth; k++) {
                int d = p->reverse ? p->depth - 1 - k : k;
                long idx = ((long)b * p->depth + d) * p->after + a;
                float x = in[idx];
                if (p->exclusive) {
                    out[idx] = acc;
                    acc += x;
                } else {
                    acc += x;
                    out[idx] = acc;
                }
            }
        }
    }
}
/* te:end */
