/* te_prelu.c - PRELU int8 and int16 kernels (see te_prelu.h). */
#include "te_common.h"
#include "te_prelu.h"

/* One output before the clamp. */
static inline TE_UNUSED int32_t te_prelu_raw(const te_prelu_params *p, int32_t x, int32_t a)
{
    int32_t v = p->input_offset + x, r;
    if (v >= 0)
        r = te_mul_by_quant_mult(v, p->mult_pos, p->shift_pos);
    else
        r = te_mul_by_quant_mult(v * (p->alpha_offset + a), p->mult_neg, p->shift_neg);
    return r + p->output_offset;
}

/* Innermost broadcast dimension: n outputs, inputs advancing by s1 / s2. */
static inline TE_UNUSED void te_prelu_row(const te_prelu_params *p, const int8_t *x, int s1,
                                          const int8_t *a, int s2, int8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = (int8_t)te_clamp_i32(te_prelu_raw(p, x[i * s1], a[i * s2]), -128, 127);
}

TE_KERNEL void te_prelu_s8(const te_prelu_params *p, const int8_t *input, const int8_t *alpha,
                           int8_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_prelu_row(p, input, 1, alpha, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS(d, s1, s2, input, alpha, out,
                  te_prelu_row(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}

/* Innermost broadcast dimension of int16 inputs (int8 alpha). */
static inline TE_UNUSED void te_prelu_row_s16(const te_prelu_params *p, const int16_t *x, int s1,
                                              const int8_t *a, int s2, int16_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = (int16_t)te_clamp_i32(te_prelu_raw(p, x[i * s1], a[i * s2]), -32768, 32767);
}

TE_KERNEL void te_prelu_s16(const te_prelu_params *p, const int16_t *input, const int8_t *alpha,
                            int16_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_prelu_row_s16(p, input, 1, alpha, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS_AB(int16_t, int8_t, d, s1, s2, input, alpha, out,
                     te_prelu_row_s16(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}
