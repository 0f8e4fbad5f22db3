/* te_arg_min_max.h - ARG_MAX and ARG_MIN over one axis (TFLite Micro's
 * reference ArgMinMax): the input is [outer, axis_size, inner]; for each
 * (outer, inner) the index along the axis of the largest (smallest) value,
 * the first one on ties (a later value must be strictly greater or
 * smaller to win).  Output [outer, inner] as int32, or int64 when out64. */
#ifndef TE_ARG_MIN_MAX_H
#define TE_ARG_MIN_MAX_H

#include <stdint.h>

TE_KERNEL void te_arg_max_s8(const int8_t *in, void *out, int32_t outer, int32_t axis_size,
                             int32_t inner, int out64);
TE_KERNEL void te_arg_min_s8(const int8_t *in, void *out, int32_t outer, int32_t axis_size,
                             int32_t inner, int out64);
TE_KERNEL void te_arg_max_f32(const float *in, void *out, int32_t outer, int32_t axis_size,
                              int32_t inner, int out64);
TE_KERNEL void te_arg_min_f32(const float *in, void *out, int32_t outer, int32_t axis_size,
                              int32_t inner, int out64);

#endif
