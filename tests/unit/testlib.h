/* testlib.h - the few macros the unit tests share: CHECK records a
 * failure with its location and goes on; test_summary() prints the plain
 * "N passed, N failed" line and gives main's exit status. */
#ifndef TE_TESTLIB_H
#define TE_TESTLIB_H

#include <stdint.h>

extern int te_test_passed, te_test_failed;

void te_test_report(int ok, const char *file, int line, const char *what);

#define CHECK(cond) te_test_report((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* Prints "N passed, N failed"; returns 0 when nothing failed. */
int test_summary(void);

/* Deterministic pseudo-random numbers (xorshift32) for test data. */
uint32_t test_rand(void);
void test_seed(uint32_t seed);
int32_t test_rand_range(int32_t lo, int32_t hi); /* inclusive */

/* One random axis of a convolution with k taps, dilation dil and stride s:
 * the input size (1..max_in), the padding before it (half the time none)
 * and the output size TFLite's arithmetic gives for the padding after it
 * (random too, at least what one output needs). */
void test_conv_axis(int k, int dil, int s, int max_in, int *in, int *pad_before, int *out);

#endif
