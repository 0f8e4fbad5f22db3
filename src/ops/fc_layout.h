/* fc_layout.h - compile-time preparation of FULLY_CONNECTED constants for
 * the fast kernels of runtime/te_fully_connected.c: the input offset folded
 * into the bias, and the weights packed for the DSP kernel's access order. */
#ifndef TE_FC_LAYOUT_H
#define TE_FC_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* out[u] = bias[u] + input_offset * sum_k w[u][k] modulo 2^32 (bias may
 * be NULL: zero).  w is [units, depth]. */
void te_fc_fold_bias(const int8_t *w, int units, int depth, const int32_t *bias,
                     int32_t input_offset, int32_t *out);

/* Units rounded up to the DSP kernel's blocks of rows (its bias has that
 * many entries, zero past the units). */
size_t te_fc_dsp_rows(int units);

/* Words te_fully_connected_s8_dsp's packed weights take. */
size_t te_fc_dsp_words(int units, int depth);

/* Packs w [units, depth] into out (te_fc_dsp_words words) in the layout
 * te_fully_connected.h describes.  Returns -1 (out unspecified) when some
 * lane w[2p][k] + 256 * w[2p+1][k] does not fit an int16 (only possible
 * with a weight of -128). */
int te_fc_dsp_pack(const int8_t *w, int units, int depth, int32_t *out);

#endif
