/* main.c - the tinyengine command: dispatches to compile, info, run and bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "version.h"

static void usage(FILE *f)
{
    fputs("usage: tinyengine <command> [options]\n"
          "\n"
          "Compiles an int8 TensorFlow Lite model into standalone C99.\n"
          "\n"
          "commands:\n"
          "  compile MODEL.tflite -o DIR [--name NAME] [--target T]\n"
          "      write DIR/NAME.h and DIR/NAME.c (NAME defaults to the model's file name)\n"
          "  info MODEL.tflite [--json]\n"
          "      operators in execution order with shapes, quantization and MACs;\n"
          "      totals: MACs, weights bytes, arena bytes\n"
          "  run MODEL.tflite --input FILE [--input FILE ...] -o DIR [--dump-layers LDIR]\n"
          "      [--expect FILE ...]\n"
          "      compile, build with the host C compiler ($CC, default cc), run once and\n"
          "      write DIR/output_<i>.bin; with --dump-layers also LDIR/op<NNN>_<j>.bin;\n"
          "      --expect: compare the outputs (first differing byte and layer)\n"
          "  plan MODEL.tflite [--svg FILE] [--json]\n"
          "      the static memory plan: arena, bounds, peak; --svg draws it\n"
          "  profile MODEL.tflite|DIR ... [--target T] [--mhz N] [--json]\n"
          "      per layer MACs, live SRAM, kernel and estimated instructions; peak SRAM,\n"
          "      flash and latency estimates (several models in one run)\n"
          "  bench MODEL.tflite [--target cortex-m4|cortex-m7] [--opt -O2|-Os] [--input F --expect F]\n"
          "      run one inference on a Cortex-M under QEMU: instructions, flash, RAM, match\n"
          "\n"
          "  compile, run and plan print a summary on success (RAM = arena + state +\n"
          "  stack, flash, MACs, slowest layers, time); --quiet silences it.\n"
          "  Options take --option value or --option=value.\n"
          "\n"
          "  tinyengine <command> --help   help for one command\n"
          "  tinyengine --version\n",
          f);
}

/* argv with every "--option=value" split into "--option" "value" (the
 * commands parse the two-word form); NULL when out of memory. */
static char **split_equals(int argc, char **argv, int *out_argc)
{
    char **out = malloc(sizeof(char *) * (2 * (size_t)argc + 1));
    int i, n = 0;
    if (!out)
        return NULL;
    for (i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (i > 1 && argv[i][0] == '-' && argv[i][1] == '-' && eq && eq > argv[i] + 2) {
            *eq = '\0';
            out[n++] = argv[i];
            out[n++] = eq + 1;
        } else {
            out[n++] = argv[i];
        }
    }
    out[n] = NULL;
    *out_argc = n;
    return out;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("tinyengine %s\n", TE_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "compile"))
        return cmd_compile(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info"))
        return cmd_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(argv[1], "plan"))
        return cmd_plan(argc - 1, argv + 1);
    if (!strcmp(argv[1], "bench"))
        return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(argv[1], "profile"))
        return cmd_profile(argc - 1, argv + 1);
    cli_error("unknown command '%s' (try 'tinyengine --help')", argv[1]);
    return 2;
}

/* The split argv (static: still reachable when a command calls exit()). */
static char **split_argv;

int main(int argc, char **argv)
{
    int rc;
    if (argc > 2 && (split_argv = split_equals(argc, argv, &argc)) == NULL) {
        fputs("tinyengine: error: out of memory\n", stderr);
        return 1;
    }
    rc = dispatch(argc, split_argv ? split_argv : argv);
    free(split_argv);
    return rc;
}
