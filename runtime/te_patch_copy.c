/* te_patch_copy.c - strided 4-D box copy (see te_patch_copy.h). */
#include "te_common.h"
#include "te_patch_copy.h"

/* te:section te_patch_copy_s8 */
TE_KERNEL void te_patch_copy_s8(const int8_t *src, int8_t *dst, const int32_t *counts,
                                const int32_t *ss, const int32_t *ds)
{
    int32_t i, j, k, l;
    for (i = 0; i < counts[0]; i++)
        for (j = 0; j < counts[1]; j++)
            for (k = 0; k < counts[2]; k++) {
                const int8_t *s = src + i * ss[0] + j * ss[1] + k * ss[2];
                int8_t *d = dst + i * ds[0] + j * ds[1] + k * ds[2];
                for (l = 0; l < counts[3]; l++)
                    d[l * ds[3]] = s[l * ss[3]];
            }
}
/* te:end */
