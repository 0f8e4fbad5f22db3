/* lstm_weights.c - te_lstm_s8's weight layouts (see lstm_weights.h). */
#include "lstm_weights.h"

#include <string.h>

#define PAD4(n) (((n) + 3) & ~3)

size_t te_lstm_dsp_weights_len(int rows, int cols)
{
    return (size_t)((rows + 1) / 2) * (size_t)PAD4(cols);
}

void te_lstm_pad_weights(const int8_t *w, int rows, int cols, int8_t *out)
{
    int r;
    memset(out, 0, (size_t)rows * (size_t)PAD4(cols));
    for (r = 0; r < rows; r++)
        memcpy(out + (size_t)r * PAD4(cols), w + (size_t)r * cols, (size_t)cols);
}

/* w[r][j], 0 past the matrix */
static int32_t at(const int8_t *w, int rows, int cols, int r, int j)
{
    return r < rows && j < cols ? w[(size_t)r * cols + j] : 0;
}

void te_lstm_dsp_weights(const int8_t *w, int rows, int cols, int16_t *out)
{
    static const int order[4] = {0, 2, 1, 3};
    int r, j, k;
    size_t n = 0;
    for (r = 0; r < rows; r += 2)
        for (j = 0; j < PAD4(cols); j += 4)
            for (k = 0; k < 4; k++)
                out[n++] = (int16_t)(at(w, rows, cols, r, j + order[k]) +
                                     256 * at(w, rows, cols, r + 1, j + order[k]));
}
