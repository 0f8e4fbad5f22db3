/* te_pad.c - int8 and int16 PAD (see te_pad.h). */
#include "te_common.h"
#include "te_pad.h"

/* te:section te_pad_fill */
static inline TE_UNUSED int8_t *te_pad_fill(int8_t *out, int32_t n, int8_t value)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = value;
    return out + n;
}
/* te:end */

/* te:section te_pad_axis */
/* Writes the output block of axis d (and everything below it); blk[d] is
 * the number of output elements per index of axis d. */
static inline TE_UNUSED void te_pad_axis(const int8_t **in, int8_t **out, int d,
                                         const int32_t *in_dims, const int32_t *before,
                                         const int32_t *after, const int32_t *blk, int8_t value)
{
    int32_t i;
    *out = te_pad_fill(*out, before[d] * blk[d], value);
    if (d == 4) {
        for (i = 0; i < in_dims[4]; i++)
            (*out)[i] = (*in)[i];
        *out += in_dims[4];
        *in += in_dims[4];
    } else {
        for (i = 0; i < in_dims[d]; i++)
            te_pad_axis(in, out, d + 1, in_dims, before, after, blk, value);
    }
    *out = te_pad_fill(*out, after[d] * blk[d], value);
}
/* te:end */

/* te:section te_pad_blocks */
/* blk[d]: output elements per index of axis d. */
static inline TE_UNUSED void te_pad_blocks(const int32_t *in_dims, const int32_t *before,
                                           const int32_t *after, int32_t *blk)
{
    int d;
    blk[4] = 1;
    for (d = 3; d >= 0; d--)
        blk[d] = blk[d + 1] * (before[d + 1] + in_dims[d + 1] + after[d + 1]);
}
/* te:end */

/* te:section te_pad_s8 */
TE_KERNEL void te_pad_s8(const int8_t *in, int8_t *out, const int32_t *in_dims,
                         const int32_t *before, const int32_t *after, int8_t value)
{
    int32_t blk[5];
    te_pad_blocks(in_dims, before, after, blk);
    te_pad_axis(&in, &out, 0, in_dims, before, after, blk, value);
}
/* te:end */

/* te:section te_pad_fill_s16 */
static inline TE_UNUSED int16_t *te_pad_fill_s16(int16_t *out, int32_t n, int16_t value)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = value;
    return out + n;
}
/* te:end */

/* te:section te_pad_axis_s16 */
/* te_pad_axis on int16 elements. */
static inline TE_UNUSED void te_pad_axis_s16(const int16_t **in, int16_t **out, int d,
                                             const int32_t *in_dims, const int32_t *before,
                                             const int32_t *after, const int32_t *blk,
                                             int16_t value)
{
    int32_t i;
    *out = te_pad_fill_s16(*out, before[d] * blk[d], value);
    if (d == 4) {
        for (i = 0; i < in_dims[4]; i++)
            (*out)[i] = (*in)[i];
        *out += in_dims[4];
        *in += in_dims[4];
    } else {
        for (i = 0; i < in_dims[d]; i++)
            te_pad_axis_s16(in, out, d + 1, in_dims, before, after, blk, value);
    }
    *out = te_pad_fill_s16(*out, after[d] * blk[d], value);
}
/* te:end */

/* te:section te_pad_s16 */
TE_KERNEL void te_pad_s16(const int16_t *in, int16_t *out, const int32_t *in_dims,
                          const int32_t *before, const int32_t *after, int16_t value)
{
    int32_t blk[5];
    te_pad_blocks(in_dims, before, after, blk);
    te_pad_axis_s16(&in, &out, 0, in_dims, before, after, blk, value);
}
/* te:end */
