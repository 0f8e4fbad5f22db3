/* te_gather.c - GATHER and EMBEDDING_LOOKUP's row copies (see te_gather.h). */
#include "te_common.h"
#include "te_gather.h"

static inline TE_UNUSED void te_gather_row(const int8_t *src, int8_t *dst, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        dst[i] = src[i];
}

TE_KERNEL int te_gather_s8(const int8_t *in, int8_t *out, const int32_t *dims,
                           const int32_t *idx)
{
    int32_t b, o, c, axis = dims[2], coords = dims[3], row = dims[4];
    for (b = 0; b < dims[0]; b++)
        for (o = 0; o < dims[1]; o++) {
            const int8_t *base = in + (b * dims[1] + o) * axis * row;
            for (c = 0; c < coords; c++) {
                int32_t v = idx[b * coords + c];
                if (v < 0 || v >= axis)
                    return -1;
                te_gather_row(base + (int32_t)v * row, out, row);
                out += row;
            }
        }
    return 0;
}

TE_KERNEL int te_gather_idx64_s8(const int8_t *in, int8_t *out, const int32_t *dims,
                                 const int64_t *idx)
{
    int32_t b, o, c, axis = dims[2], coords = dims[3], row = dims[4];
    for (b = 0; b < dims[0]; b++)
        for (o = 0; o < dims[1]; o++) {
            const int8_t *base = in + (b * dims[1] + o) * axis * row;
            for (c = 0; c < coords; c++) {
                int64_t v = idx[b * coords + c];
                if (v < 0 || v >= axis)
                    return -1;
                te_gather_row(base + (int32_t)v * row, out, row);
                out += row;
            }
        }
    return 0;
}

TE_KERNEL int te_embedding_lookup_s8_f32(const int8_t *value, float *out, int32_t rows,
                                         int32_t cols, int32_t lookups, const int32_t *idx,
                                         float scale)
{
    int32_t i, j;
    for (i = 0; i < lookups; i++, out += cols) {
        const int8_t *row;
        if (idx[i] < 0 || idx[i] >= rows)
            return -1;
        row = value + idx[i] * cols;
        for (j = 0; j < cols; j++)
            out[j] = (float)row[j] * scale;
    }
    return 0;
}
