/* test_conv_w8.c - test_conv_fast.c's random convolutions (per-channel
 * quantization, padding, strides, dilations, channel slices) through the
 * generic target's CONV_2D kernel te_conv2d_w8_s8, which reads the model's
 * int8 weights with te_convfam_gemm_prepare's requantization table. */
#define TEST_CONV_W8 1
#include "test_conv_fast.c"
