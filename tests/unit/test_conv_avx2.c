/* test_conv_avx2.c - test_conv_fast.c's random convolutions through the
 * CONV_2D kernel of target x86-64-v3, te_conv2d_avx2_s8, with the layouts
 * te_convfam_gemm_avx2_layout makes (skipped, exit 77, on a CPU without
 * AVX2; not built off x86-64). */
#define TE_TARGET_AVX2 1
#define TEST_CONV_AVX2 1
#include "test_conv_fast.c"
