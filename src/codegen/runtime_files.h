/* runtime_files.h - the runtime/ sources embedded into the tinyengine
 * binary at build time (cmake/embed_runtime.cmake writes the table). */
#ifndef TE_RUNTIME_FILES_H
#define TE_RUNTIME_FILES_H

#include <stddef.h>

typedef struct {
    const char *name;  /* file name inside runtime/, e.g. "te_conv2d.c" */
    const char *text;
    size_t len;
} te_runtime_file;

/* Terminated by an entry whose name is NULL. */
extern const te_runtime_file te_runtime_files[];

#endif
