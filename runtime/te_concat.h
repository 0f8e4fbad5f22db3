/* te_concat.h - CONCATENATION as TFLite Micro computes it for every type:
 * a plain copy of each input's rows into the output (no requantization,
 * even for int8 inputs whose scale differs from the output's). */
#ifndef TE_CONCAT_H
#define TE_CONCAT_H

#include <stdint.h>

/* te:section te_concat_s8 */
/* Copies `outer` rows of in_row bytes from `in` (packed) into `out`, whose
 * rows are out_row bytes apart.  The caller points `out` at the input's
 * column offset inside the first output row. */
TE_KERNEL void te_concat_s8(const int8_t *in, int8_t *out, int32_t outer, int32_t in_row,
                            int32_t out_row);
/* te:end */

#endif
