/* conv_band.h - a convolution taller than one row written over its own
 * input, row by row: before output row r is computed, the input rows it
 * reads are copied into a band in scratch (te_conv2d_band_s8), so the row
 * may overwrite input rows no later band still has to load. */
#ifndef TE_CONV_BAND_H
#define TE_CONV_BAND_H

#include "te_conv2d_band.h"

/* 1 when output rows of out_row_bytes each, written in turn at the input's
 * base address right after the band of their own row was loaded (b: the
 * band of an input of b->in_h rows of b->row_bytes; out_h output rows), never
 * reach an input row before a band loads it. */
int te_conv2d_band_safe(const te_conv2d_band_params *b, int out_h, long out_row_bytes);

#endif
