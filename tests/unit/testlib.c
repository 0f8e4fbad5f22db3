/* test_util.c - failure recording, summary line and test-data RNG. */
#include "testlib.h"

#include <stdio.h>

int te_test_passed, te_test_failed;
static uint32_t rng_state = 0x12345678u;

void te_test_report(int ok, const char *file, int line, const char *what)
{
    if (ok) {
        te_test_passed++;
        return;
    }
    te_test_failed++;
    if (te_test_failed <= 20)
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

int test_summary(void)
{
    printf("%d passed, %d failed\n", te_test_passed, te_test_failed);
    return te_test_failed ? 1 : 0;
}

void test_seed(uint32_t seed) { rng_state = seed ? seed : 1u; }

uint32_t test_rand(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

int32_t test_rand_range(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(test_rand() % (uint32_t)(hi - lo + 1));
}

void test_conv_axis(int k, int dil, int s, int max_in, int *in, int *pad_before, int *out)
{
    const int eff = (k - 1) * dil + 1;
    int after;
    *in = test_rand_range(1, max_in);
    *pad_before = test_rand() % 2 ? test_rand_range(0, eff - 1) : 0;
    after = test_rand() % 2 ? test_rand_range(0, eff - 1) : 0;
    if (*in + *pad_before + after < eff)
        after = eff - *in - *pad_before;
    *out = (*in + *pad_before + after - eff) / s + 1;
}
