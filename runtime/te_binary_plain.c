/* te_binary_plain.c - unquantized int32 / float32 binary element-wise
 * kernels (see te_binary_plain.h). */
#include "te_common.h"
#include "te_binary_plain.h"

/* te:section te_binary_i32 needs te_binary_op */
/* One int32 result before the clamp; sums and products wrap, as the
 * two's complement arithmetic TFLite's kernels compile to. */
static inline TE_UNUSED int32_t te_binary_i32_one(int op, int32_t x, int32_t y)
{
    uint32_t d;
    switch (op) {
    case TE_BINARY_ADD:
        return (int32_t)((uint32_t)x + (uint32_t)y);
    case TE_BINARY_SUB:
        return (int32_t)((uint32_t)x - (uint32_t)y);
    case TE_BINARY_MUL:
        return (int32_t)((uint32_t)x * (uint32_t)y);
    case TE_BINARY_MIN:
        return x < y ? x : y;
    case TE_BINARY_MAX:
        return x > y ? x : y;
    default:
        d = (uint32_t)x - (uint32_t)y;
        return (int32_t)(d * d);
    }
}

/* Innermost broadcast dimension: n outputs, inputs advancing by s1 / s2. */
static inline TE_UNUSED void te_binary_i32_row(const te_binary_plain_params *p, const int32_t *a,
                                               int s1, const int32_t *b, int s2, int32_t *out,
                                               int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_clamp_i32(te_binary_i32_one(p->op, a[i * s1], b[i * s2]), p->act_min,
                              p->act_max);
}

TE_KERNEL void te_binary_i32(const te_binary_plain_params *p, const int32_t *in1,
                             const int32_t *in2, int32_t *out)
{
    if (!p->broadcast) {
        te_binary_i32_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_binary_i32_row(p, in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                    out + te_o, p->dims[5]));
}
/* te:end */

/* te:section te_binary_f32 needs te_binary_op */
/* One float32 result: ADD, SUB and MUL clamp to [f_min, f_max] as
 * std::min(std::max(v, f_min), f_max) (so an infinity becomes the float
 * range's end, and NaN stays NaN); MINIMUM, MAXIMUM and SQUARED_DIFFERENCE
 * are not clamped. */
static inline TE_UNUSED float te_binary_f32_one(const te_binary_plain_params *p, float x,
                                                float y)
{
    float v;
    switch (p->op) {
    case TE_BINARY_ADD:
        v = x + y;
        break;
    case TE_BINARY_SUB:
        v = x - y;
        break;
    case TE_BINARY_MUL:
        v = x * y;
        break;
    case TE_BINARY_MIN:
        return x < y ? x : y;
    case TE_BINARY_MAX:
        return x > y ? x : y;
    default:
        v = x - y;
        return v * v;
    }
    v = v < p->f_min ? p->f_min : v;
    return p->f_max < v ? p->f_max : v;
}

static inline TE_UNUSED void te_binary_f32_row(const te_binary_plain_params *p, const float *a,
                                               int s1, const float *b, int s2, float *out, int n)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = te_binary_f32_one(p, a[i * s1], b[i * s2]);
}

TE_KERNEL void te_binary_f32(const te_binary_plain_params *p, const float *in1, const float *in2,
                             float *out)
{
    if (!p->broadcast) {
        te_binary_f32_row(p, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_WALK(p->dims, p->stride1, p->stride2,
                  te_binary_f32_row(p, in1 + te_i1, p->stride1[5], in2 + te_i2, p->stride2[5],
                                    out + te_o, p->dims[5]));
}
/* te:end */
