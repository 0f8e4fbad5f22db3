/* te_reduce.h - REDUCE_MAX and REDUCE_MIN int8 kernels over any set of
 * axes, as TFLite Micro's ReduceGeneric: every output starts at the type's
 * lowest (max) or highest (min) value and takes the larger (smaller) of it
 * and each reduced element; no requantization (TFLite Micro requires the
 * input's scale and zero point on the output).  SUM uses te_mean_s8.
 *
 * The compiler describes the input as two nested index spaces, as for
 * MEAN: the kept dimensions (one output element per position, in output
 * order) and the reduced dimensions, each with sizes and element strides. */
#ifndef TE_REDUCE_H
#define TE_REDUCE_H

#include <stdint.h>

#define TE_REDUCE_MAX_DIMS 6

typedef struct {
    int n_keep;                          /* kept dimensions (0: one output) */
    int keep_size[TE_REDUCE_MAX_DIMS];
    int keep_stride[TE_REDUCE_MAX_DIMS]; /* input element strides */
    int n_red;                           /* reduced dimensions */
    int red_size[TE_REDUCE_MAX_DIMS];
    int red_stride[TE_REDUCE_MAX_DIMS];
    int32_t count;                       /* elements reduced per output */
} te_reduce_params;

TE_KERNEL void te_reduce_max_s8(const te_reduce_params *p, const int8_t *input, int8_t *output);
TE_KERNEL void te_reduce_min_s8(const te_reduce_params *p, const int8_t *input, int8_t *output);

#endif
