/* test_lstm_dsp.c - test_lstm.c with TE_TARGET_DSP: te_lstm_s8's widened
 * inputs and SMLAD products on any host (through te_common.h's exact
 * portable SMLAD and SXTB16). */
#define TE_TARGET_DSP 1
#include "test_lstm.c"
