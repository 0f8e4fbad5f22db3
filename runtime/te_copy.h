/* te_copy.h - plain data movement shared by the reshaping operators:
 * a byte copy (RESHAPE / SQUEEZE when their output is not aliased), a
 * strided N-d gather that serves TRANSPOSE (permuted input strides) and
 * STRIDED_SLICE (start offset, signed strides), and SLICE with begin and
 * size known only at run time. */
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

/* SLICE of an input of rank <= 5 (dims padded in front with 1s to 5) by
 * begin and size vectors read at run time (int32, or int64 when index64),
 * each element elem_bytes wide; out_elems: the output's element count. */
typedef struct {
    int32_t dims[5];
    int32_t rank;
    int32_t elem_bytes;
    int32_t out_elems;
    int32_t index64;
} te_slice_dynamic_params;

/* te:section te_slice_dynamic */
/* TFLite Micro's checks, at run time: 0 <= begin <= dim, size -1 (to the
 * end) or 0 <= size <= dim - begin, and the slice holding out_elems
 * elements; else -1 and nothing written.  Writes the slice in row-major
 * order; 0. */
TE_KERNEL int te_slice_dynamic(const te_slice_dynamic_params *p, const void *in, void *out,
                               const void *begin, const void *size);
/* te:end */

#endif
