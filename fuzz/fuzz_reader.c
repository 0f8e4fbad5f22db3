/* fuzz_reader.c - libFuzzer target: the .tflite reader alone.
 *
 * Feeds the input bytes to te_load_tflite (src/frontend): every input must
 * either give a graph or fail with one line in the diagnostic, without a
 * crash, an out-of-bounds access, undefined behaviour or a leak (built
 * with -fsanitize=fuzzer,address,undefined by fuzz/build.sh). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/tflite_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    te_diag d;
    te_graph *g;
    memset(&d, 0, sizeof d);
    g = te_load_tflite(data, size, &d);
    /* exactly one of: a graph, or a failure with a message */
    if ((g != NULL) == (d.failed != 0) || (!g && d.msg[0] == '\0'))
        abort();
    te_graph_free(g);
    return 0;
}
