/* te_copy_table.h - an N-d gather whose source position along each axis
 * comes from a table computed at compile time: MIRROR_PAD (reflected
 * indices at the borders) and any copy whose per-axis index map is not an
 * arithmetic progression. */
#ifndef TE_COPY_TABLE_H
#define TE_COPY_TABLE_H

#include <stdint.h>

#define TE_COPY_TABLE_MAX_RANK 8

/* Writes the output in row-major order of counts[0..rank), `run` bytes per
 * element: element (i0, .., ik) is the run at in + t0[i0] + .. + tk[ik],
 * where table tj has counts[j] byte offsets and the tables follow each
 * other in `tables`.  1 <= rank <= 8, run >= 1. */
TE_KERNEL void te_copy_table_s8(const int8_t *in, int8_t *out, int rank, const int32_t *counts,
                                const int32_t *tables, int32_t run);

#endif
