/* test_conv_fast_dsp.c - test_conv_fast.c with TE_TARGET_DSP: the DSP
 * layout and SIMD arithmetic of te_conv2d_gemm_s8 on any host (through
 * te_common.h's exact portable versions of SMLAD and SXTB16). */
#define TE_TARGET_DSP 1
#include "test_conv_fast.c"
