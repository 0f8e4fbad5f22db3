/* te_lut.h - int8 -> int8 table lookup: the runtime half of every
 * elementwise int8 nonlinearity (LOGISTIC, TANH, HARD_SWISH, RELU, RELU6),
 * whose 256-entry table the compiler computes with TFLite Micro's exact
 * integer algorithm. */
#ifndef TE_LUT_H
#define TE_LUT_H

#include "te_common.h"

/* te:section te_lut_s8 */
/* out[i] = table[(uint8_t)in[i]] for i < n; table holds f(v) at index
 * (uint8_t)v.  in and out may be the same buffer. */
TE_KERNEL void te_lut_s8(const int8_t *in, int8_t *out, int n, const int8_t *table);
/* te:end */
/* te:section te_lut_s8_min */
/* te_lut_s8, failing (-1) at the first input below lo (an input TFLite
 * refuses at run time, as RSQRT's below the zero point); 0 otherwise. */
TE_KERNEL int te_lut_s8_min(const int8_t *in, int8_t *out, int n, const int8_t *table, int lo);
/* te:end */

#endif
