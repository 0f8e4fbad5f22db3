/* te_copy.h - plain data movement shared by the reshaping operators:
 * a byte copy (RESHAPE / SQUEEZE when their output is not aliased) and a
 * strided N-d gather that serves TRANSPOSE (permuted input strides) and
 * STRIDED_SLICE (start offset, signed strides). */
#ifndef TE_COPY_H
#define TE_COPY_H

#include <stddef.h>
#include <stdint.h>

#define TE_COPY_MAX_RANK 8

/* te:section te_copy_bytes */
/* dst[0..n) = src[0..n); nothing when dst == src.  The buffers must not
 * overlap otherwise. */
TE_KERNEL void te_copy_bytes(void *dst, const void *src, size_t n);
/* te:end */

/* te:section te_copy_gather_s8 */
/* Writes the output in row-major order of counts[0..rank): element
 * (i0, .., ik) is in[i0*steps[0] + .. + ik*steps[k]].  `in` points at the
 * first gathered element; steps may be negative.  1 <= rank <= 8. */
TE_KERNEL void te_copy_gather_s8(const int8_t *in, int8_t *out, int rank, const int32_t *counts,
                                 const int32_t *steps);
/* te:end */

#endif
