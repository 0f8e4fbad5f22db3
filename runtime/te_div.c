/* te_div.c - the DIV kernels (see te_div.h).  Output element i is written
 * after its inputs are read: the output may be an input of its shape. */
#include <math.h>

#include "te_common.h"
#include "te_div.h"

/* te:section te_div_s8 */
/* TFLite RoundingDivideByPOT as its reference DIV runs it on x86-64, where
 * its int8 kernel reaches exponents of 32 and more (outside gemmlowp's
 * contract): the mask (1ll << e) - 1 and the shift x >> e take their counts
 * mod 64 and mod 32.  From 32 to 63 the mask is all ones; from 64 (to 95)
 * both counts are e - 64, an ordinary rounding divide. */
static inline TE_UNUSED int32_t te_div_rdbp(int32_t x, int e)
{
    if (e <= 31)
        return te_rounding_divide_by_pot(x, e);
    if (e >= 64)
        return te_rounding_divide_by_pot(x, (e - 64) & 31);
    return (x >> (e & 31)) + (x >= 0 ? 1 : 0);
}

static inline TE_UNUSED int8_t te_div_s8_one(const te_div_params *p, int8_t x, int8_t y)
{
    int32_t a = p->in1_offset + x, b = p->in2_offset + y, inv, q, r;
    int hp1, recip_shift, headroom;
    uint32_t shifted;
    if (b < 0) {
        a = -a;
        b = -b;
    }
    hp1 = te_fp_clz((uint32_t)b); /* GetReciprocal(b, 31) */
    recip_shift = 31 - hp1;
    shifted = hp1 < 32 ? (uint32_t)b << hp1 : 0u;
    inv = te_fp_one_over_one_plus_x((int32_t)(shifted - 0x80000000u));
    headroom = te_fp_clz((uint32_t)(a >= 0 ? a : ~a)) - 1; /* CountLeadingSignBits */
    q = te_mul_by_quant_mult_greater_than_one(a, inv, headroom);
    r = te_div_rdbp(te_sat_round_doubling_high_mul(q, p->out_multiplier),
                    -(p->out_shift - recip_shift - headroom)) +
        p->out_offset;
    return (int8_t)te_clamp_i32(r, p->act_min, p->act_max);
}

static inline TE_UNUSED void te_div_s8_row(const te_div_params *p, const int8_t *a, int s1,
                                           const int8_t *b, int s2, int8_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_div_s8_one(p, a[i * s1], b[i * s2]);
}

TE_KERNEL void te_div_s8(const te_div_params *p, const int8_t *in1, const int8_t *in2,
                         int8_t *out)
{
    if (!p->broadcast) {
        te_div_s8_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_div_s8_row(p, in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                out + te_o, p->dims[5]));
}
/* te:end */

/* te:section te_div_i32 */
static inline TE_UNUSED void te_div_i32_row(const te_div_params *p, const int32_t *a, int s1,
                                            const int32_t *b, int s2, int32_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        int32_t v = a[i * s1] / b[i * s2];
        out[i] = te_clamp_i32(v, p->act_min, p->act_max);
    }
}

TE_KERNEL void te_div_i32(const te_div_params *p, const int32_t *in1, const int32_t *in2,
                          int32_t *out)
{
    if (!p->broadcast) {
        te_div_i32_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_div_i32_row(p, in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                 out + te_o, p->dims[5]));
}
/* te:end */

/* te:section te_div_f32 */
static inline TE_UNUSED void te_div_f32_row(const te_div_params *p, const float *a, int s1,
                                            const float *b, int s2, float *out, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        float v = a[i * s1] / b[i * s2];
        v = v < p->f_min ? p->f_min : v; /* std::max(v, lo), then std::min(v, hi) */
        out[i] = p->f_max < v ? p->f_max : v;
    }
}

TE_KERNEL void te_div_f32(const te_div_params *p, const float *in1, const float *in2, float *out)
{
    if (!p->broadcast) {
        te_div_f32_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_div_f32_row(p, in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                 out + te_o, p->dims[5]));
}
/* te:end */

/* te:section te_floor_div_f32 */
static inline TE_UNUSED void te_floor_div_f32_row(const float *a, int s1, const float *b, int s2,
                                                  float *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = (float)floor((double)a[i * s1] / (double)b[i * s2]);
}

TE_KERNEL int te_floor_div_f32(const te_div_params *p, const float *in1, const float *in2,
                               float *out)
{
    int i;
    for (i = 0; i < p->in2_size; i++)
        if (in2[i] == 0.0f)
            return -1;
    if (!p->broadcast) {
        te_floor_div_f32_row(in1, 1, in2, 1, out, p->size);
        return 0;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_floor_div_f32_row(in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                       out + te_o, p->dims[5]));
    return 0;
}
/* te:end */

/* te:section te_floor_mod_f32 */
static inline TE_UNUSED void te_floor_mod_f32_row(const float *a, int s1, const float *b, int s2,
                                                  float *out, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        float y = b[i * s2], m = fmodf(a[i * s1], y);
        out[i] = m != 0 && ((y < 0) != (m < 0)) ? m + y : m;
    }
}

TE_KERNEL void te_floor_mod_f32(const te_div_params *p, const float *in1, const float *in2,
                                float *out)
{
    if (!p->broadcast) {
        te_floor_mod_f32_row(in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_floor_mod_f32_row(in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                       out + te_o, p->dims[5]));
}
/* te:end */
