/* te_fully_connected.h - FULLY_CONNECTED int8 kernel, bit-exact with
 * TFLite Micro's reference FullyConnected / FullyConnectedPerChannel
 * (the per-tensor case is the per-channel one with equal multipliers). */
#ifndef TE_FULLY_CONNECTED_H
#define TE_FULLY_CONNECTED_H

#include <stdint.h>

typedef struct {
    int batches;               /* input viewed as [batches, depth] */
    int depth;                 /* accumulation depth (weights' last dim) */
    int units;                 /* output [batches, units], weights [units, depth] */
    int32_t input_offset;      /* -input zero point */
    int32_t output_offset;     /* output zero point */
    int32_t act_min, act_max;  /* clamp bounds (fused activation) */
} te_fully_connected_params;

/* mult/shift/bias: one entry per unit; bias may be NULL. */
TE_KERNEL void te_fully_connected_s8(const te_fully_connected_params *p, const int8_t *input,
                                     const int8_t *weights, const int32_t *bias,
                                     const int32_t *mult, const int32_t *shift, int8_t *output);

#endif
