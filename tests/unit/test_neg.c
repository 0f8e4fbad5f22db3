/* test_neg.c - the float32 NEG kernel against plain negation: every value
 * class (zeros, denormals, infinities, NaN sign), out of place and in
 * place. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "te_common.h"
#include "te_neg.h"
#include "testlib.h"

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

int main(void)
{
    float in[12] = {0.0f, -0.0f, 1.5f, -2.25f, FLT_MIN / 4, -FLT_MAX, INFINITY, -INFINITY,
                    NAN, 3e-38f, 123456.75f, -1e-7f};
    float out[13], buf[12];
    int i, ok = 1;
    out[12] = 42.0f;
    te_neg_f32(in, out, 12);
    for (i = 0; i < 12; i++) {
        float want = -in[i];
        ok &= same_bits(out[i], want);
    }
    CHECK(ok);
    CHECK(out[12] == 42.0f); /* nothing written past n */
    memcpy(buf, in, sizeof buf);
    te_neg_f32(buf, buf, 12);
    ok = 1;
    for (i = 0; i < 12; i++)
        ok &= same_bits(buf[i], out[i]);
    CHECK(ok);
    te_neg_f32(in, out, 0); /* empty */
    CHECK(same_bits(out[0], -in[0]));
    return test_summary();
}
