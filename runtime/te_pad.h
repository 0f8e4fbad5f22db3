/* te_pad.h - PAD for int8 and int16 tensors of up to 5 dimensions (TFLite Micro
 * reference Pad): every output element outside the copied input block
 * takes the pad value. */
#ifndef TE_PAD_H
#define TE_PAD_H

#include <stdint.h>

/* te:section te_pad_s8 */
/* Shapes are given as 5 dimensions (leading 1s for lower ranks):
 * in_dims, before[d] and after[d] elements of padding on each side, so the
 * output has before[d] + in_dims[d] + after[d] along d.  All values >= 0. */
TE_KERNEL void te_pad_s8(const int8_t *in, int8_t *out, const int32_t *in_dims,
                         const int32_t *before, const int32_t *after, int8_t value);
/* te:end */

/* te:section te_pad_s16 */
/* The same for int16 tensors (int16x8 models). */
TE_KERNEL void te_pad_s16(const int16_t *in, int16_t *out, const int32_t *in_dims,
                          const int32_t *before, const int32_t *after, int16_t value);
/* te:end */

#endif
