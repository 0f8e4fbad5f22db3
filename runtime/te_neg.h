/* te_neg.h - NEG on float32, as TFLite Micro runs it (its NEG kernel is
 * float-only; the converter leaves NEG in float between DEQUANTIZE and
 * QUANTIZE). */
#ifndef TE_NEG_H
#define TE_NEG_H

#include <stdint.h>

/* out[i] = -in[i] for i < n; in and out may be the same buffer. */
TE_KERNEL void te_neg_f32(const float *in, float *out, int32_t n);

#endif
