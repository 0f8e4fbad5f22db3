/* te_reduce.c - REDUCE_MAX / REDUCE_MIN int8 kernels (see te_reduce.h). */
#include "te_common.h"
#include "te_reduce.h"

/* Advances a row-major multi-index over `size`; returns 0 after the last. */
static inline TE_UNUSED int te_reduce_next(int *idx, const int *size, int n)
{
    int i;
    for (i = n - 1; i >= 0; i--) {
        if (++idx[i] < size[i])
            return 1;
        idx[i] = 0;
    }
    return 0;
}

static inline TE_UNUSED long te_reduce_offset(const int *idx, const int *stride, int n)
{
    long off = 0;
    int i;
    for (i = 0; i < n; i++)
        off += (long)idx[i] * stride[i];
    return off;
}

/* sign = 1: maximum, -1: minimum (compared as sign * value). */
static inline TE_UNUSED void te_reduce_extreme_s8(const te_reduce_params *p, const int8_t *input,
                                                  int8_t *output, int sign)
{
    int idx[TE_REDUCE_MAX_DIMS] = {0};
    int i;
    for (i = 0; i < p->n_keep; i++)
        if (p->keep_size[i] <= 0)
            return;
    do {
        const int8_t *in = input + te_reduce_offset(idx, p->keep_stride, p->n_keep);
        int32_t best = sign > 0 ? -128 : 127;
        if (p->count > 0) {
            int red[TE_REDUCE_MAX_DIMS] = {0};
            if (p->n_red == 1 && sign > 0) {
                int32_t k, n = p->red_size[0], s = p->red_stride[0];
                for (k = 0; k < n; k++)
                    best = in[k * s] > best ? in[k * s] : best;
            } else if (p->n_red == 1) {
                int32_t k, n = p->red_size[0], s = p->red_stride[0];
                for (k = 0; k < n; k++)
                    best = in[k * s] < best ? in[k * s] : best;
            } else {
                do {
                    int32_t v = in[te_reduce_offset(red, p->red_stride, p->n_red)];
                    if (sign * v > sign * best)
                        best = v;
                } while (te_reduce_next(red, p->red_size, p->n_red));
            }
        }
        *output++ = (int8_t)best;
    } while (te_reduce_next(idx, p->keep_size, p->n_keep));
}

TE_KERNEL void te_reduce_max_s8(const te_reduce_params *p, const int8_t *input, int8_t *output)
{
    te_reduce_extreme_s8(p, input, output, 1);
}

TE_KERNEL void te_reduce_min_s8(const te_reduce_params *p, const int8_t *input, int8_t *output)
{
    te_reduce_extreme_s8(p, input, output, -1);
}
