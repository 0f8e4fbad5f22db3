/* te_compare.c - the comparison kernels (see te_compare.h). */
#include "te_common.h"
#include "te_compare.h"

/* te:section TE_CMP_APPLY TE_CMP_KERNEL */
/* x OP y for a TE_CMP_* op, as 1 / 0. */
#define TE_CMP_APPLY(OP, X, Y)                                                                \
    (uint8_t)((OP) == TE_CMP_EQ   ? (X) == (Y)                                               \
              : (OP) == TE_CMP_NE ? (X) != (Y)                                               \
              : (OP) == TE_CMP_GT ? (X) > (Y)                                                \
              : (OP) == TE_CMP_GE ? (X) >= (Y)                                               \
              : (OP) == TE_CMP_LT ? (X) < (Y)                                                \
                                  : (X) <= (Y))
/* The kernel of one element type: a row function and the broadcast walk. */
#define TE_CMP_KERNEL(NAME, T)                                                                \
    static inline TE_UNUSED void NAME##_row(int op, const T *a, int s1, const T *b, int s2,   \
                                            uint8_t *out, int n)                              \
    {                                                                                         \
        int i;                                                                                \
        for (i = 0; i < n; i++)                                                               \
            out[i] = TE_CMP_APPLY(op, a[i * s1], b[i * s2]);                                  \
    }                                                                                         \
    TE_KERNEL void NAME(const te_compare_params *p, const T *in1, const T *in2, uint8_t *out) \
    {                                                                                         \
        if (!p->broadcast) {                                                                  \
            NAME##_row(p->op, in1, 1, in2, 1, out, p->size);                                  \
            return;                                                                           \
        }                                                                                     \
        TE_BCAST_WALK(p->dims, p->stride1, p->stride2,                                        \
                      NAME##_row(p->op, in1 + te_i1, p->stride1[5], in2 + te_i2,              \
                                 p->stride2[5], out + te_o, p->dims[5]));                     \
    }
/* te:end */

/* te:section te_compare_i32 */
TE_CMP_KERNEL(te_compare_i32, int32_t)
/* te:end */

/* te:section te_compare_i64 */
TE_CMP_KERNEL(te_compare_i64, int64_t)
/* te:end */

/* te:section te_compare_f32 */
TE_CMP_KERNEL(te_compare_f32, float)
/* te:end */

/* te:section te_compare_bool */
TE_CMP_KERNEL(te_compare_bool, uint8_t)
/* te:end */

/* te:section te_compare_scale */
/* One int8 or int16 value on the comparison's common scale. */
static inline TE_UNUSED int32_t te_compare_scale(int32_t x, int32_t offset, int left_shift,
                                                 int32_t multiplier, int32_t shift)
{
    return te_mul_by_quant_mult_smaller_than_one(te_shl_i32(offset + x, left_shift), multiplier,
                                                 (int)shift);
}
/* te:end */

/* te:section te_compare_s8 */
static inline TE_UNUSED void te_compare_s8_row(const te_compare_params *p, const int8_t *a, int s1,
                                               const int8_t *b, int s2, uint8_t *out, int n)
{
    int i, op = p->op, ls = p->left_shift;
    for (i = 0; i < n; i++) {
        int32_t x = te_compare_scale(a[i * s1], p->in1_offset, ls, p->in1_multiplier, p->in1_shift);
        int32_t y = te_compare_scale(b[i * s2], p->in2_offset, ls, p->in2_multiplier, p->in2_shift);
        out[i] = TE_CMP_APPLY(op, x, y);
    }
}

TE_KERNEL void te_compare_s8(const te_compare_params *p, const int8_t *in1, const int8_t *in2,
                             uint8_t *out)
{
    if (!p->broadcast) {
        te_compare_s8_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_compare_s8_row(p, in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                    out + te_o, p->dims[5]));
}
/* te:end */

/* te:section te_compare_s16 */
static inline TE_UNUSED void te_compare_s16_row(const te_compare_params *p, const int16_t *a,
                                                int s1, const int16_t *b, int s2, uint8_t *out,
                                                int n)
{
    int i, op = p->op, ls = p->left_shift;
    for (i = 0; i < n; i++) {
        int32_t x = te_compare_scale(a[i * s1], p->in1_offset, ls, p->in1_multiplier, p->in1_shift);
        int32_t y = te_compare_scale(b[i * s2], p->in2_offset, ls, p->in2_multiplier, p->in2_shift);
        out[i] = TE_CMP_APPLY(op, x, y);
    }
}

TE_KERNEL void te_compare_s16(const te_compare_params *p, const int16_t *in1,
                              const int16_t *in2, uint8_t *out)
{
    if (!p->broadcast) {
        te_compare_s16_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_compare_s16_row(p, in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                     out + te_o, p->dims[5]));
}
/* te:end */
