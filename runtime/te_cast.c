/* te_cast.c - CAST (see te_cast.h). */
#include "te_common.h"
#include "te_cast.h"

static inline TE_UNUSED int32_t te_cast_read_int(const void *in, int type, int32_t i)
{
    switch (type) {
    case 2: return ((const int32_t *)in)[i];
    case 3: return ((const uint8_t *)in)[i];
    case 7: return ((const int16_t *)in)[i];
    case 6: return ((const uint8_t *)in)[i] != 0; /* bool: one byte, false or true */
    default: return ((const int8_t *)in)[i];
    }
}

/* Low bits of v as the target integer type (two's complement wrap). */
static inline TE_UNUSED void te_cast_write_int(void *out, int type, int32_t i, int32_t v)
{
    uint32_t u = (uint32_t)v;
    switch (type) {
    case 2: ((int32_t *)out)[i] = v; break;
    case 3: ((uint8_t *)out)[i] = (uint8_t)u; break;
    case 7:
        ((int16_t *)out)[i] = (int16_t)((int32_t)(u & 0xffffu) - (int32_t)(u & 0x8000u) * 2);
        break;
    default:
        ((int8_t *)out)[i] = (int8_t)((int32_t)(u & 0xffu) - (int32_t)(u & 0x80u) * 2);
        break;
    }
}

/* float -> int32 truncated toward zero, saturated (NaN gives 0). */
static inline TE_UNUSED int32_t te_cast_f32_to_i32(float f)
{
    if (!(f == f))
        return 0;
    if (f >= 2147483647.0f)
        return INT32_MAX;
    if (f <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)f;
}

TE_KERNEL void te_cast(const void *in, int in_type, void *out, int out_type, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        if (in_type == 0 && out_type == 0) {
            ((float *)out)[i] = ((const float *)in)[i];
        } else if (in_type == 0) {
            /* as the hardware converts: to int32, then the low bits */
            te_cast_write_int(out, out_type, i, te_cast_f32_to_i32(((const float *)in)[i]));
        } else if (out_type == 0) {
            ((float *)out)[i] = (float)te_cast_read_int(in, in_type, i);
        } else {
            te_cast_write_int(out, out_type, i, te_cast_read_int(in, in_type, i));
        }
    }
}
