/* te_lut.c - int8 table lookup kernel (see te_lut.h). */
#include "te_common.h"
#include "te_lut.h"

/* te:section te_lut_s8 */
TE_KERNEL void te_lut_s8(const int8_t *in, int8_t *out, int n, const int8_t *table)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = table[(uint8_t)in[i]];
}
/* te:end */
