/* ref_reduce.h - the plain reference's view of a reduction (MEAN, SUM,
 * REDUCE_MAX/MIN) for the kernel tests: which dimensions the axes reduce
 * (negative and repeated axes included), the output shape with or without
 * keep_dims, and the output element an input index falls into.  Header
 * only (static functions). */
#ifndef TE_REF_REDUCE_H
#define TE_REF_REDUCE_H

#include <stdint.h>

#if defined(__GNUC__)
#define RR_UNUSED __attribute__((unused))
#else
#define RR_UNUSED
#endif

/* red[i] = 1 for each dimension of shape (rank r) an axis names; the
 * output shape (reduced dimensions kept as 1 when keep) in oshape/orank.
 * Returns how many input elements each output element reduces. */
static RR_UNUSED int64_t ref_reduce_shape(const int *shape, int r, const int *axes, int n_axes,
                                          int keep, int *red, int *oshape, int *orank)
{
    int64_t count = 1;
    int i;
    for (i = 0; i < r; i++)
        red[i] = 0;
    for (i = 0; i < n_axes; i++)
        red[axes[i] < 0 ? axes[i] + r : axes[i]] = 1;
    *orank = 0;
    for (i = 0; i < r; i++) {
        if (red[i])
            count *= shape[i];
        if (!red[i] || keep)
            oshape[(*orank)++] = red[i] ? 1 : shape[i];
    }
    return count;
}

/* Flat output element of input index idx (rank r). */
static RR_UNUSED int ref_reduce_out_index(const int *idx, const int *shape, const int *red, int r)
{
    int o = 0, k;
    for (k = 0; k < r; k++)
        o = o * (red[k] ? 1 : shape[k]) + (red[k] ? 0 : idx[k]);
    return o;
}

#endif
