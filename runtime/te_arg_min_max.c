/* te_arg_min_max.c - ARG_MAX / ARG_MIN kernels (see te_arg_min_max.h). */
#include "te_common.h"
#include "te_arg_min_max.h"

static inline TE_UNUSED void te_arg_store(void *out, long i, int32_t index, int out64)
{
    if (out64)
        ((int64_t *)out)[i] = index;
    else
        ((int32_t *)out)[i] = index;
}

/* One loop body per element type; `better(a, b)`: a replaces b. */
#define TE_ARG_LOOP(T, better)                                                        \
    do {                                                                              \
        int32_t o, j, k;                                                              \
        for (o = 0; o < outer; o++)                                                   \
            for (j = 0; j < inner; j++) {                                             \
                const T *p = in + (long)o * axis_size * inner + j;                    \
                T best = p[0];                                                        \
                int32_t index = 0;                                                    \
                for (k = 1; k < axis_size; k++) {                                     \
                    T v = p[(long)k * inner];                                         \
                    if (better(v, best)) {                                            \
                        best = v;                                                     \
                        index = k;                                                    \
                    }                                                                 \
                }                                                                     \
                te_arg_store(out, (long)o * inner + j, index, out64);                 \
            }                                                                         \
    } while (0)

#define TE_ARG_GREATER(a, b) ((a) > (b))
#define TE_ARG_LESS(a, b) ((a) < (b))

TE_KERNEL void te_arg_max_s8(const int8_t *in, void *out, int32_t outer, int32_t axis_size,
                             int32_t inner, int out64)
{
    TE_ARG_LOOP(int8_t, TE_ARG_GREATER);
}

TE_KERNEL void te_arg_min_s8(const int8_t *in, void *out, int32_t outer, int32_t axis_size,
                             int32_t inner, int out64)
{
    TE_ARG_LOOP(int8_t, TE_ARG_LESS);
}

TE_KERNEL void te_arg_max_f32(const float *in, void *out, int32_t outer, int32_t axis_size,
                              int32_t inner, int out64)
{
    TE_ARG_LOOP(float, TE_ARG_GREATER);
}

TE_KERNEL void te_arg_min_f32(const float *in, void *out, int32_t outer, int32_t axis_size,
                              int32_t inner, int out64)
{
    TE_ARG_LOOP(float, TE_ARG_LESS);
}
