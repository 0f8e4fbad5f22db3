/* te_minmax.c - MINIMUM / MAXIMUM int8 and int16 kernels (see te_minmax.h). */
#include "te_common.h"
#include "te_minmax.h"

/* Innermost broadcast dimension: n outputs, inputs advancing by s1 / s2. */
static inline TE_UNUSED void te_minmax_row(int is_max, const int8_t *a, int s1, const int8_t *b,
                                           int s2, int8_t *out, int n)
{
    int i;
    if (is_max) {
        for (i = 0; i < n; i++) {
            int8_t x = a[i * s1], y = b[i * s2];
            out[i] = x > y ? x : y;
        }
    } else {
        for (i = 0; i < n; i++) {
            int8_t x = a[i * s1], y = b[i * s2];
            out[i] = x < y ? x : y;
        }
    }
}

TE_KERNEL void te_minmax_s8(const te_minmax_params *p, const int8_t *in1, const int8_t *in2,
                            int8_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_minmax_row(p->is_max, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS(d, s1, s2, in1, in2, out,
                  te_minmax_row(p->is_max, te_a, s1[5], te_b, s2[5], out, d[5]));
}

/* Innermost broadcast dimension of int16 values, as te_minmax_row. */
static inline TE_UNUSED void te_minmax_row_s16(int is_max, const int16_t *a, int s1,
                                               const int16_t *b, int s2, int16_t *out, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        int16_t x = a[i * s1], y = b[i * s2];
        out[i] = (is_max ? x > y : x < y) ? x : y;
    }
}

TE_KERNEL void te_minmax_s16(const te_minmax_params *p, const int16_t *in1, const int16_t *in2,
                             int16_t *out)
{
    const int *d = p->dims, *s1 = p->stride1, *s2 = p->stride2;
    if (!p->broadcast) {
        te_minmax_row_s16(p->is_max, in1, 1, in2, 1, out, p->size);
        return;
    }
    TE_BCAST_ROWS_T(int16_t, d, s1, s2, in1, in2, out,
                    te_minmax_row_s16(p->is_max, te_a, s1[5], te_b, s2[5], out, d[5]));
}
