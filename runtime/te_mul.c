/* te_mul.c - MUL int8 and int16 kernels (see te_mul.h). */
#include "te_common.h"
#include "te_mul.h"

/* te:section te_mul_one */
static inline TE_UNUSED int8_t te_mul_one(const te_mul_params *p, int8_t a, int8_t b)
{
    int32_t prod = (p->in1_offset + a) * (p->in2_offset + b);
    int32_t v = te_mul_by_quant_mult(prod, p->out_mult, p->out_shift) + p->out_offset;
    return (int8_t)te_clamp_i32(v, p->act_min, p->act_max);
}
/* te:end */

/* te:section te_mul_row */
/* Innermost broadcast dimension: n outputs, inputs advancing by s1 / s2. */
static inline TE_UNUSED void te_mul_row(const te_mul_params *p, const int8_t *a, int s1,
                                        const int8_t *b, int s2, int8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_mul_one(p, a[i * s1], b[i * s2]);
}
/* te:end */

/* te:section te_mul_s8 */
TE_KERNEL void te_mul_s8(const te_mul_params *p, const int8_t *in1, const int8_t *in2,
                         int8_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_mul_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS(d, s1, s2, in1, in2, out,
                  te_mul_row(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}
/* te:end */

/* ---- int16 (zero points 0, as TFLite Micro requires) ---------------------- */

/* te:section te_mul_one_s16 */
/* |a * b| <= 2^30: the int32 product never overflows. */
static inline TE_UNUSED int16_t te_mul_one_s16(const te_mul_params *p, int16_t a, int16_t b)
{
    int32_t prod = (p->in1_offset + a) * (p->in2_offset + b);
    int32_t v = te_mul_by_quant_mult(prod, p->out_mult, p->out_shift) + p->out_offset;
    return (int16_t)te_clamp_i32(v, p->act_min, p->act_max);
}
/* te:end */

/* te:section te_mul_row_s16 */
static inline TE_UNUSED void te_mul_row_s16(const te_mul_params *p, const int16_t *a, int s1,
                                            const int16_t *b, int s2, int16_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_mul_one_s16(p, a[i * s1], b[i * s2]);
}
/* te:end */

/* te:section te_mul_s16 */
TE_KERNEL void te_mul_s16(const te_mul_params *p, const int16_t *in1, const int16_t *in2,
                          int16_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_mul_row_s16(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS_T(int16_t, d, s1, s2, in1, in2, out,
                    te_mul_row_s16(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}
/* te:end */
