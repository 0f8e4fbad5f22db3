/* te_gather.h - GATHER as TFLite Micro computes it: rows of the input
 * picked by an index tensor (constant or computed), each index checked
 * against the axis size at run time. */
#ifndef TE_GATHER_H
#define TE_GATHER_H

#include <stdint.h>

/* dims = {batch, outer, axis, coords, row_bytes}.  For each batch b, outer
 * o and coordinate c, copies the row_bytes-byte row number
 * (b * outer + o) * axis + idx[b * coords + c] of `in` to the next row of
 * `out`.  Returns 0, or -1 at the first index outside [0, axis) (like
 * TFLite Micro, the rows before it are written). */
TE_KERNEL int te_gather_s8(const int8_t *in, int8_t *out, const int32_t *dims,
                           const int32_t *idx);
/* The same with int64 indices. */
TE_KERNEL int te_gather_idx64_s8(const int8_t *in, int8_t *out, const int32_t *dims,
                                 const int64_t *idx);

/* EMBEDDING_LOOKUP's hybrid path (TFLite Micro EvalHybrid): for each of
 * the `lookups` ids, row idx[i] of the int8 table value [rows, cols],
 * dequantized as (float)v * scale (zero point 0).  Returns 0, or -1 at the
 * first id outside [0, rows) (the rows before it are written). */
TE_KERNEL int te_embedding_lookup_s8_f32(const int8_t *value, float *out, int32_t rows,
                                         int32_t cols, int32_t lookups, const int32_t *idx,
                                         float scale);

#endif
