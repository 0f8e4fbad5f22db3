/* te_gather_nd.c - the GATHER_ND kernel (see te_gather_nd.h). */
#include "te_common.h"
#include "te_gather_nd.h"

TE_KERNEL int te_gather_nd(const int8_t *params, int8_t *out, const int32_t *dims,
                           const int32_t *idx)
{
    int32_t n_slices = dims[0], nd = dims[1], slice = dims[2], total = dims[3], esz = dims[4];
    int32_t i, j, b;
    for (i = 0; i < n_slices; i++, idx += nd) {
        int64_t from = 0;
        const int8_t *src;
        for (j = 0; j < nd; j++)
            from += (int64_t)idx[j] * dims[5 + j];
        if (from < 0 || from + slice > total)
            return -1;
        src = params + from * esz;
        for (b = 0; b < slice * esz; b++)
            out[b] = src[b];
        out += slice * esz;
    }
    return 0;
}
