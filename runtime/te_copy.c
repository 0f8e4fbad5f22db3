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

/* te:section te_slice_dynamic */
/* Entry k of an int32 or int64 index vector (read byte by byte: an arena
 * tensor need not be 8-byte aligned). */
static inline TE_UNUSED int64_t te_slice_index(const void *v, int index64, int k)
{
    const uint8_t *b = (const uint8_t *)v + (size_t)k * (index64 ? 8 : 4);
    uint64_t u = 0;
    int j;
    for (j = 0; j < (index64 ? 8 : 4); j++)
        u |= (uint64_t)b[j] << (8 * j);
    return index64 ? (int64_t)u : (int64_t)(int32_t)(uint32_t)u;
}

TE_KERNEL int te_slice_dynamic(const te_slice_dynamic_params *p, const void *in, void *out,
                               const void *begin, const void *size)
{
    int32_t counts[6], steps[6];
    int64_t total = 1, first = 0, stride = p->elem_bytes;
    int k, pad = 5 - p->rank;
    for (k = 4; k >= 0; k--) {
        int64_t dim = p->dims[k], b = 0, n = dim;
        if (k >= pad) {
            b = te_slice_index(begin, p->index64, k - pad);
            n = te_slice_index(size, p->index64, k - pad);
            if (b < 0 || b > dim)
                return -1;
            if (n == -1)
                n = dim - b;
            if (n < 0 || n > dim - b)
                return -1;
        }
        counts[k] = (int32_t)n;
        steps[k] = (int32_t)stride;
        first += b * stride;
        stride *= dim;
        total *= n;
    }
    if (total != p->out_elems)
        return -1;
    if (total == 0)
        return 0;
    counts[5] = p->elem_bytes;
    steps[5] = 1;
    te_copy_gather_s8((const int8_t *)in + first, (int8_t *)out, 6, counts, steps);
    return 0;
}
/* te:end */
