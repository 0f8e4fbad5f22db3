/* tflm_arena.c - te_tflm_arena: estimates the arena TensorFlow Lite Micro
 * would use for a .tflite model (interpreter.arena_used_bytes() after
 * AllocateTensors), to compare our arena with TFLM's on models nobody ran
 * TFLM on.
 *
 * usage: te_tflm_arena MODEL.tflite [--json] [--features]
 *
 * The head (TFLM's planned, non-persistent section) follows TFLM's rules:
 * every tensor without constant data that is not a variable and has bytes
 * is one buffer, rounded up to 16 bytes, alive from the allocation scope of
 * the operator that first writes it (model inputs and outputs: scope 0) to
 * the last operator that reads it (outputs: the last scope); kernels'
 * scratch buffers (tflm_scratch.c) live during their operator; the greedy
 * planner (tflm_greedy.c) places them.  The tail (persistent bookkeeping,
 * tflm_tail.c) is an estimate.  Models with subgraphs (IF, WHILE,
 * CALL_ONCE) or resource variables are "not estimated". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/tflite_reader.h"
#include "ir/ir.h"
#include "report/json_text.h"
#include "tflm_estimate.h"

static void usage(FILE *f)
{
    fputs("usage: te_tflm_arena MODEL.tflite [--json] [--features]\n"
          "Estimates TensorFlow Lite Micro's arena_used_bytes (x86-64 host build,\n"
          "reference kernels): planned head + estimated persistent tail.\n",
          f);
}

static void print_json(const char *path, const te_graph *g, const tflm_estimate *e, int features)
{
    printf("{\n  \"model\": ");
    te_json_fputs(stdout, path);
    printf(",\n");
    if (!e->estimated) {
        printf("  \"estimated\": false,\n  \"reason\": \"%s\"\n}\n", e->reason);
        return;
    }
    printf("  \"estimated\": true,\n  \"arena_bytes\": %zu,\n  \"head_bytes\": %zu,\n"
           "  \"tail_bytes\": %zu,\n  \"planned_buffers\": %d,\n  \"scratch_bytes\": %zu",
           e->head + e->tail, e->head, e->tail, e->n_buffers, e->scratch_bytes);
    if (features)
        printf(",\n  \"features\": { \"tensors\": %d, \"ops\": %d, \"io\": %d, "
               "\"channels\": %ld, \"channel_bytes\": %zu, \"quant_tensors\": %d, \"variable_bytes\": %zu }",
               e->f.tensors, e->f.ops, e->f.io, e->f.channels, e->f.channel_bytes, e->f.quant_tensors,
               e->f.variable_bytes);
    if (features) {
        printf(",\n  \"op_list\": [");
        for (int i = 0; i < g->n_ops; i++)
            printf("%s\"%s\"", i ? ", " : "", te_opcode_name(g->ops[i].opcode));
        printf("],\n  \"io_list\": [");
        for (int i = 0; i < g->n_inputs + g->n_outputs; i++) {
            int t = i < g->n_inputs ? g->inputs[i] : g->outputs[i - g->n_inputs];
            printf("%s[%d, %d, %d]", i ? ", " : "", g->tensors[t].q.count, g->tensors[t].rank, (int)g->tensors[t].type);
        }
        printf("]");
    }
    printf("\n}\n");
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, features = 0;
    te_diag d = {{0}, 0};
    te_graph *g;
    tflm_estimate e;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--features")) {
            features = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' || path) {
            usage(stderr);
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    g = te_load_tflite_file(path, &d);
    if (!g) {
        fprintf(stderr, "te_tflm_arena: %s: %s\n", path, d.failed ? d.msg : "cannot load model");
        return 1;
    }
    if (tflm_estimate_arena(g, &e) < 0) {
        fprintf(stderr, "te_tflm_arena: out of memory\n");
        te_graph_free(g);
        return 1;
    }
    if (json)
        print_json(path, g, &e, features);
    else if (!e.estimated)
        printf("%s: not estimated (%s)\n", path, e.reason);
    else
        printf("%s: TFLM arena estimate %zu bytes (head %zu planned, tail %zu estimated)\n",
               path, e.head + e.tail, e.head, e.tail);
    te_graph_free(g);
    return 0;
}
