/* te_add.c - ADD int8 and int16 kernels (see te_add.h). */
#include "te_common.h"
#include "te_add.h"

/* te:section te_add_sum */
/* TFLite's quantized sum of two values, clamped to the activation range
 * (int8 and int16 alike: the params' left shift is 20 or 15). */
static inline TE_UNUSED int32_t te_add_sum(const te_add_params *p, int32_t a, int32_t b)
{
    int32_t x = te_shl_i32(p->in1_offset + a, p->left_shift);
    int32_t y = te_shl_i32(p->in2_offset + b, p->left_shift);
    int32_t sum;
    x = te_mul_by_quant_mult_smaller_than_one(x, p->in1_mult, p->in1_shift);
    y = te_mul_by_quant_mult_smaller_than_one(y, p->in2_mult, p->in2_shift);
    sum = te_mul_by_quant_mult_smaller_than_one(x + y, p->out_mult, p->out_shift) + p->out_offset;
    return te_clamp_i32(sum, p->act_min, p->act_max);
}
/* te:end */

/* te:section te_add_one */
static inline TE_UNUSED int8_t te_add_one(const te_add_params *p, int8_t a, int8_t b)
{
    return (int8_t)te_add_sum(p, a, b);
}
/* te:end */

/* te:section te_add_row */
/* Innermost broadcast dimension: n outputs, inputs advancing by s1 / s2. */
static inline TE_UNUSED void te_add_row(const te_add_params *p, const int8_t *a, int s1,
                                        const int8_t *b, int s2, int8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_add_one(p, a[i * s1], b[i * s2]);
}
/* te:end */

/* te:section te_add_s8 */
TE_KERNEL void te_add_s8(const te_add_params *p, const int8_t *in1, const int8_t *in2,
                         int8_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_add_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS(d, s1, s2, in1, in2, out,
                  te_add_row(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}
/* te:end */

/* ---- table kernel ------------------------------------------------------ */

#define TE_ADD_LUT_STR2(x) #x
#define TE_ADD_LUT_STR(x) TE_ADD_LUT_STR2(x)

/* te:section te_add_lut_sat8 */
/* sum >> TE_ADD_LUT_SHIFT saturated to int8 (one SSAT where available). */
static inline TE_UNUSED int32_t te_add_lut_sat8(int32_t sum)
{
#if defined(__ARM_FEATURE_SAT) && defined(__GNUC__)
    int32_t r;
    __asm__("ssat %0, #8, %1, asr #" TE_ADD_LUT_STR(TE_ADD_LUT_SHIFT) : "=r"(r) : "r"(sum));
    return r;
#else
    return te_clamp_i32(sum >> TE_ADD_LUT_SHIFT, -128, 127);
#endif
}
/* te:end */

/* te:section te_add_lut_flat8 */
/* Contiguous inputs, no activation beyond int8.  Element i is read before
 * it is written and nothing later is read from it (in place: out == a or
 * out == b); each store follows its own loads, which also keeps gcc from
 * merging the byte stores into a word (more instructions, not fewer). */
static inline TE_UNUSED void te_add_lut_flat8(const int32_t *u1, const int32_t *u2,
                                              const int8_t *a, const int8_t *b, int8_t *out,
                                              int n)
{
    for (; n >= 4; n -= 4) {
        out[0] = (int8_t)te_add_lut_sat8(u1[a[0]] + u2[b[0]]);
        out[1] = (int8_t)te_add_lut_sat8(u1[a[1]] + u2[b[1]]);
        out[2] = (int8_t)te_add_lut_sat8(u1[a[2]] + u2[b[2]]);
        out[3] = (int8_t)te_add_lut_sat8(u1[a[3]] + u2[b[3]]);
        a += 4;
        b += 4;
        out += 4;
    }
    for (; n > 0; n--)
        *out++ = (int8_t)te_add_lut_sat8(u1[*a++] + u2[*b++]);
}
/* te:end */

/* te:section te_add_lut_flat */
/* Contiguous inputs, activation range [lo, hi]. */
static inline TE_UNUSED void te_add_lut_flat(const int32_t *u1, const int32_t *u2,
                                             const int8_t *a, const int8_t *b, int8_t *out,
                                             int n, int32_t lo, int32_t hi)
{
    for (; n > 0; n--)
        *out++ = (int8_t)te_clamp_i32(te_add_lut_sat8(u1[*a++] + u2[*b++]), lo, hi);
}
/* te:end */

/* te:section te_add_lut_row */
/* Innermost broadcast dimension (or everything), any activation range. */
static inline TE_UNUSED void te_add_lut_row(const te_add_lut_params *p, const int8_t *a, int s1,
                                            const int8_t *b, int s2, int8_t *out, int n)
{
    const int32_t *u1 = p->u1 + 128, *u2 = p->u2 + 128;
    int32_t lo = p->act_min, hi = p->act_max;
    int i;
    if (s1 == 1 && s2 == 1) {
        if (lo == -128 && hi == 127)
            te_add_lut_flat8(u1, u2, a, b, out, n);
        else
            te_add_lut_flat(u1, u2, a, b, out, n, lo, hi);
        return;
    }
    for (i = 0; i < n; i++)
        out[i] = (int8_t)te_clamp_i32(te_add_lut_sat8(u1[a[i * s1]] + u2[b[i * s2]]), lo, hi);
}
/* te:end */

/* te:section te_add_s8_lut */
TE_KERNEL void te_add_s8_lut(const te_add_lut_params *p, const int8_t *in1, const int8_t *in2,
                             int8_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_add_lut_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS(d, s1, s2, in1, in2, out,
                  te_add_lut_row(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}
/* te:end */

/* ---- int16 ---------------------------------------------------------------- */

/* te:section te_add_one_s16 */
/* The int8 arithmetic on int16 values (left shift 15 in the params). */
static inline TE_UNUSED int16_t te_add_one_s16(const te_add_params *p, int16_t a, int16_t b)
{
    return (int16_t)te_add_sum(p, a, b);
}
/* te:end */

/* te:section te_add_row_s16 */
static inline TE_UNUSED void te_add_row_s16(const te_add_params *p, const int16_t *a, int s1,
                                            const int16_t *b, int s2, int16_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_add_one_s16(p, a[i * s1], b[i * s2]);
}
/* te:end */

/* te:section te_add_s16 */
TE_KERNEL void te_add_s16(const te_add_params *p, const int16_t *in1, const int16_t *in2,
                          int16_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_add_row_s16(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS_T(int16_t, d, s1, s2, in1, in2, out,
                    te_add_row_s16(p, te_a, s1[5], te_b, s2[5], out, d[5]));
}
/* te:end */
