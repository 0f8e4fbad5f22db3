/* te_patch_copy.h - the box copy of patch-based execution: crops a region
 * out of a tensor into a compact buffer, or writes a patch's result into
 * its place in the full stage output. */
#ifndef TE_PATCH_COPY_H
#define TE_PATCH_COPY_H

#include <stdint.h>

/* te:section te_patch_copy_s8 */
/* Copies a counts[0] x .. x counts[3] box: element (i,j,k,l) goes from
 * src[i*ss[0] + j*ss[1] + k*ss[2] + l*ss[3]] to the same index with ds. */
TE_KERNEL void te_patch_copy_s8(const int8_t *src, int8_t *dst, const int32_t *counts,
                                const int32_t *ss, const int32_t *ds);
/* te:end */

#endif
