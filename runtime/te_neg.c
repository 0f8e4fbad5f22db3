/* te_neg.c - NEG float32 kernel (see te_neg.h). */
#include "te_common.h"
#include "te_neg.h"

TE_KERNEL void te_neg_f32(const float *in, float *out, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        out[i] = -in[i];
}
