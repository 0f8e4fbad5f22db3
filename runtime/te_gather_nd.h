/* te_gather_nd.h - GATHER_ND as TFLite Micro computes it: for each of the
 * index tuples (int32, the last index dimension nd <= 5), the slice of
 * params they address is copied; a slice outside params (checked on the
 * flat position, as TFLM) fails the call. */
#ifndef TE_GATHER_ND_H
#define TE_GATHER_ND_H

#include <stdint.h>

#include "te_common.h"

/* dims = {n_slices, nd, slice_elems, params_elems, elem_bytes, count[0..nd-1]}
 * with count[j] the elements one step of index j moves.  Returns 0, or -1 at
 * the first slice out of bounds (the slices before it are written). */
TE_KERNEL int te_gather_nd(const int8_t *params, int8_t *out, const int32_t *dims,
                           const int32_t *idx);

#endif
