/* main.c - the plain Makefile example: reads one raw input tensor from a
 * file, runs the generated model (gen/net.h) and prints each output
 * score, as int8 and dequantized with the header's scale and zero point,
 * and the best class.
 *
 *   make run          (or: ./classify INPUT.bin) */
#include <stdio.h>

#include "net.h"

int main(int argc, char **argv)
{
    FILE *f;
    size_t got;
    const int8_t *scores;
    int i, best = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: %s INPUT.bin (%d raw bytes)\n", argv[0], (int)NET_INPUT0_BYTES);
        return 2;
    }
    f = fopen(argv[1], "rb");
    got = f ? fread(net_input(0), 1, net_input_bytes(0), f) : 0;
    if (f)
        fclose(f);
    if (got != net_input_bytes(0)) {
        fprintf(stderr, "%s: need %d bytes\n", argv[1], (int)NET_INPUT0_BYTES);
        return 2;
    }
    if (net_invoke() != 0) {
        fprintf(stderr, "net_invoke failed\n");
        return 1;
    }
    scores = (const int8_t *)net_output(0);
    for (i = 0; i < (int)NET_OUTPUT0_BYTES; i++) {
        printf("score %d: %4d = %.4f\n", i, scores[i],
               (double)NET_OUTPUT0_SCALE * (scores[i] - NET_OUTPUT0_ZERO_POINT));
        if (scores[i] > scores[best])
            best = i;
    }
    printf("best class: %d (arena %d bytes)\n", best, (int)NET_ARENA_BYTES);
    return 0;
}
