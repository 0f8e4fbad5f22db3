/* cli.h - what the subcommands of the tinyengine tool share. */
#ifndef TE_CLI_H
#define TE_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "../compiler.h"

int cmd_compile(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_profile(int argc, char **argv);

/* Prints "tinyengine: error: <msg>" to stderr; returns 1 (the exit status). */
int cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Writes a whole file; returns 0 or reports the error and returns -1. */
int cli_write_file(const char *path, const void *data, size_t n);
/* Reads a whole file into a malloc'd buffer; NULL on error (reported). */
void *cli_read_file(const char *path, size_t *n);
/* Creates a directory (and missing parents); 0 on success. */
int cli_mkdirs(const char *path);
/* Default model name: the file's base name without extension, as a C identifier. */
void cli_default_name(const char *model_path, char *out, size_t n);
/* Loads a model and reports errors; NULL on failure. */
te_model *cli_load(const char *path);
te_model *cli_load_opts(const char *path, const te_compile_opts *o);

/* The options every model-reading command takes (--int8-io,
 * --sram-limit BYTES).  Returns 1 if argv[*i] was one (its value consumed),
 * 0 if not, -1 after reporting a bad value. */
int cli_compile_option(int argc, char **argv, int *i, te_compile_opts *o);
/* 1 (reported) for options that contradict each other (--max-recompute
 * without --patch auto), else 0.  cli_load_opts checks it. */
int cli_check_options(const te_compile_opts *o);
/* "524288", "512K", "4M" -> bytes; 0, or -1 (not reported) when not one. */
int cli_parse_bytes(const char *s, size_t *out);
/* Their help text, for each command's --help. */
extern const char cli_compile_options_help[];
/* The same without --target (for bench, whose targets differ). */
extern const char cli_model_options_help[];
/* Seconds on a monotonic clock (for "in 0.12 s"). */
double cli_now(void);
/* The summary on success: "<what> in S s", RAM, flash split, MACs and the
 * slowest layers by estimate (cli_summary.c). */
void cli_summary(FILE *f, const char *what, const te_model *m, double started);
/* One line (with `indent` and `label` before it) stating what the patch
 * stage costs against layer by layer: recomputed MACs, the estimated
 * instructions of the target's cost model and the bytes of code the
 * patches add (and how far over the flash budget, when an explicit plan
 * is); nothing without patches. */
void cli_print_patch_cost(FILE *f, const te_model *m, const char *label);
/* The lines "stack bytes: ..." and "RAM bytes: arena + state + stack". */
void cli_print_ram(FILE *f, const te_model *m);
/* With --memory-region: one line per region, "<lead>NAME used of limit bytes". */
void cli_print_regions(FILE *f, const te_model *m, const char *lead);
/* model_json.c: the JSON document of `info --json` (and `compile
 * --report`) for m, loaded from path; an op removed because its outputs
 * became constants (1) or not; a tensor list of that document. */
void cli_model_json(FILE *f, const char *path, const te_model *m);
int cli_op_folded(const te_graph *g, const te_op *op);
void cli_json_tensor_list(FILE *f, const te_graph *g, const int *ids, int n);
/* Writes NAME.h and NAME.c into dir; 0 on success. */
int cli_generate(te_model *m, const char *model_path, const char *name, const char *dir);

/* Compiles n models into one library in dir (cli_library.c): each model's
 * NAME.h/NAME.c, and LIB.h/LIB.c (the shared kernels and arena); prints
 * the summaries unless quiet.  Returns the exit status. */
int cli_compile_library(const char *const *models, char names[][128], int n, const char *lib,
                        const char *dir, const te_compile_opts *opts, int quiet, double started);

/* Runs argv[0] (looked up in PATH) with argv and waits for it.  With log,
 * its stdout and stderr go to that file (exit status 126 if it cannot be
 * opened).  Returns the exit status, 128 + signal, 127 when the program
 * could not be started, or -1 when fork or wait failed. */
int cli_spawn(char **argv, const char *log);

/* Creates the temporary build folder $TMPDIR/tinyengine-<cmd>-XXXXXX
 * (default /tmp) into bdir; 0, or -1 after reporting the error. */
int cli_build_dir_create(const char *cmd, char *bdir, size_t n);
/* Keeps the build folder (saying where) when keep; else removes NAME.c,
 * NAME.h, the NULL-terminated list of other files made there and the
 * folder itself. */
void cli_build_dir_finish(const char *bdir, const char *name, const char *const *files, int keep);

#endif
