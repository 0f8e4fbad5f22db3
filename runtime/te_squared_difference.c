/* te_squared_difference.c - SQUARED_DIFFERENCE int8 and int16 kernels (see
 * te_squared_difference.h). */
#include "te_common.h"
#include "te_squared_difference.h"

/* One output before the clamp. */
static inline TE_UNUSED int32_t te_sqdiff_raw(const te_squared_difference_params *p, int32_t a,
                                              int32_t b)
{
    int32_t x = te_shl_i32(p->in1_offset + a, p->left_shift);
    int32_t y = te_shl_i32(p->in2_offset + b, p->left_shift);
    int32_t d;
    x = te_mul_by_quant_mult_smaller_than_one(x, p->in1_mult, p->in1_shift);
    y = te_mul_by_quant_mult_smaller_than_one(y, p->in2_mult, p->in2_shift);
    d = x - y; /* |d| <= 2^15: the square fits in int32 */
    return te_mul_by_quant_mult(d * d, p->out_mult, p->out_shift) + p->out_offset;
}

/* Innermost broadcast dimension: n outputs, inputs advancing by s1 / s2. */
static inline TE_UNUSED void te_sqdiff_row(const te_squared_difference_params *p,
                                           const int8_t *a, int s1, const int8_t *b, int s2,
                                           int8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = (int8_t)te_clamp_i32(te_sqdiff_raw(p, a[i * s1], b[i * s2]), -128, 127);
}

TE_KERNEL void te_squared_difference_s8(const te_squared_difference_params *p,
                                        const int8_t *in1, const int8_t *in2, int8_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_sqdiff_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS(d, s1, s2, in1, in2, out,
                  te_sqdiff_row(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}

/* Innermost broadcast dimension of int16 values, as te_sqdiff_row. */
static inline TE_UNUSED void te_sqdiff_row_s16(const te_squared_difference_params *p,
                                               const int16_t *a, int s1, const int16_t *b, int s2,
                                               int16_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = (int16_t)te_clamp_i32(te_sqdiff_raw(p, a[i * s1], b[i * s2]), -32768, 32767);
}

TE_KERNEL void te_squared_difference_s16(const te_squared_difference_params *p,
                                         const int16_t *in1, const int16_t *in2, int16_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_sqdiff_row_s16(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS_T(int16_t, d, s1, s2, in1, in2, out,
                    te_sqdiff_row_s16(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}
