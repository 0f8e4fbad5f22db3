/* te_copy.c - byte copy and strided N-d gather (see te_copy.h). */
#include "te_common.h"
#include "te_copy.h"

/* te:section te_copy_bytes */
TE_KERNEL void te_copy_bytes(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    size_t i;
    if (d == s)
        return;
    for (i = 0; i < n; i++)
        d[i] = s[i];
}
/* te:end */

/* te:section te_copy_gather_row */
/* One run along the innermost axis. */
static inline TE_UNUSED void te_copy_gather_row(const int8_t *in, int8_t *out, int32_t n,
                                                int32_t step)
{
    int32_t i;
    if (step == 1) {
        for (i = 0; i < n; i++)
            out[i] = in[i];
    } else {
        for (i = 0; i < n; i++)
            out[i] = in[i * step];
    }
}
/* te:end */

/* te:section te_copy_gather_s8 */
TE_KERNEL void te_copy_gather_s8(const int8_t *in, int8_t *out, int rank, const int32_t *counts,
                                 const int32_t *steps)
{
    int32_t idx[TE_COPY_MAX_RANK];
    int32_t outer = 1, inner = counts[rank - 1], off = 0, o;
    int k;
    for (k = 0; k < rank - 1; k++) {
        idx[k] = 0;
        outer *= counts[k];
    }
    if (inner <= 0)
        return;
    for (o = 0; o < outer; o++) {
        te_copy_gather_row(in + off, out, inner, steps[rank - 1]);
        out += inner;
        /* odometer over the outer axes, last one fastest */
        for (k = rank - 2; k >= 0; k--) {
            off += steps[k];
            if (++idx[k] < counts[k])
                break;
            off -= steps[k] * counts[k];
            idx[k] = 0;
        }
    }
}
/* te:end */
