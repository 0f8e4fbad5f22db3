/* te_cast.h - CAST between the numeric types TFLite Micro casts (int8,
 * uint8, int16, int32, float32; bool as a source): each element converted as C++'s
 * static_cast does, integers wrapping modulo 2^n when narrowed, floats
 * truncated toward zero (where the C++ cast is undefined, out of range: to
 * int32 saturated, then its low bits, as the hardware does it). */
#ifndef TE_CAST_H
#define TE_CAST_H

#include <stdint.h>

/* Type codes are TFLite's TensorType values: 0 float32, 2 int32, 3 uint8,
 * 6 bool (input only), 7 int16, 9 int8. */
TE_KERNEL void te_cast(const void *in, int in_type, void *out, int out_type, int32_t n);

#endif
