/* test_conv_s16_dsp.c - test_conv_s16.c with TE_TARGET_DSP: the int16x8
 * CONV_2D DSP kernel (runtime/armv7em/te_conv2d_s16_dsp.c) with the
 * compiler's weight packing, on any host through te_common.h's exact
 * portable SMLAD, against the same plain references. */
#define TE_TARGET_DSP 1
#include "test_conv_s16.c"
