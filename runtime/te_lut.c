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
/* te:section te_lut_s8_min */
TE_KERNEL int te_lut_s8_min(const int8_t *in, int8_t *out, int n, const int8_t *table, int lo)
{
    int i;
    for (i = 0; i < n; i++) {
        if (in[i] < lo)
            return -1;
        out[i] = table[(uint8_t)in[i]];
    }
    return 0;
}
/* te:end */
