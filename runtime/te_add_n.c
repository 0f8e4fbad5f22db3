/* te_add_n.c - ADD_N kernels (see te_add_n.h). */
#include "te_add_n.h"
#include "te_common.h"

/* te:section te_add_n_s8 */
static inline TE_UNUSED int32_t te_add_n_scaled(const te_add_n_params *p, int32_t offset_value)
{
    return te_mul_by_quant_mult_smaller_than_one(te_shl_i32(offset_value, p->left_shift),
                                                 p->in_mult, p->in_shift);
}

TE_KERNEL void te_add_n_s8(const te_add_n_params *p, const int8_t *const *in, int8_t *out)
{
    int32_t start = te_add_n_scaled(p, p->in_offset);
    int i, j;
    for (i = 0; i < p->size; i++) {
        uint32_t sum = (uint32_t)start;
        int32_t o;
        for (j = 0; j < p->n_inputs; j++)
            sum += (uint32_t)te_add_n_scaled(p, p->in_offset + in[j][i]);
        o = te_mul_by_quant_mult_smaller_than_one((int32_t)sum, p->out_mult, p->out_shift) +
            p->out_offset;
        out[i] = (int8_t)te_clamp_i32(o, p->act_min, p->act_max);
    }
}
/* te:end */

/* te:section te_add_n_f32 */
TE_KERNEL void te_add_n_f32(const te_add_n_params *p, const float *const *in, float *out)
{
    int i, j;
    for (i = 0; i < p->size; i++) {
        float x = 0.0f;
        for (j = 0; j < p->n_inputs; j++)
            x += in[j][i];
        out[i] = x;
    }
}
/* te:end */
