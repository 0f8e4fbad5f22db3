/* te_squared_difference.c - SQUARED_DIFFERENCE int8 kernel (see
 * te_squared_difference.h). */
#include "te_common.h"
#include "te_squared_difference.h"

static inline TE_UNUSED int8_t te_sqdiff_one(const te_squared_difference_params *p, int8_t a,
                                             int8_t b)
{
    int32_t x = te_shl_i32(p->in1_offset + a, p->left_shift);
    int32_t y = te_shl_i32(p->in2_offset + b, p->left_shift);
    int32_t d, v;
    x = te_mul_by_quant_mult_smaller_than_one(x, p->in1_mult, p->in1_shift);
    y = te_mul_by_quant_mult_smaller_than_one(y, p->in2_mult, p->in2_shift);
    d = x - y; /* |d| < 2^15: the square fits in int32 */
    v = te_mul_by_quant_mult(d * d, p->out_mult, p->out_shift) + p->out_offset;
    return (int8_t)te_clamp_i32(v, -128, 127);
}

/* Innermost broadcast dimension: n outputs, inputs advancing by s1 / s2. */
static inline TE_UNUSED void te_sqdiff_row(const te_squared_difference_params *p,
                                           const int8_t *a, int s1, const int8_t *b, int s2,
                                           int8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_sqdiff_one(p, a[i * s1], b[i * s2]);
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
