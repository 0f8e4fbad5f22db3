/* te_copy_table.c - table-driven N-d gather (see te_copy_table.h). */
#include "te_common.h"
#include "te_copy_table.h"

TE_KERNEL void te_copy_table_s8(const int8_t *in, int8_t *out, int rank, const int32_t *counts,
                                const int32_t *tables, int32_t run)
{
    const int32_t *tab[TE_COPY_TABLE_MAX_RANK];
    int32_t idx[TE_COPY_TABLE_MAX_RANK];
    int32_t last = counts[rank - 1], i, b;
    int k;
    tab[0] = tables;
    for (k = 0; k < rank; k++) {
        idx[k] = 0;
        if (counts[k] <= 0)
            return;
        if (k + 1 < rank)
            tab[k + 1] = tab[k] + counts[k];
    }
    for (;;) {
        int32_t base = 0;
        for (k = 0; k < rank - 1; k++)
            base += tab[k][idx[k]];
        for (i = 0; i < last; i++) {
            const int8_t *src = in + base + tab[rank - 1][i];
            for (b = 0; b < run; b++)
                out[b] = src[b];
            out += run;
        }
        /* odometer over the outer axes, last one fastest */
        for (k = rank - 2; k >= 0; k--) {
            if (++idx[k] < counts[k])
                break;
            idx[k] = 0;
        }
        if (k < 0)
            return;
    }
}
