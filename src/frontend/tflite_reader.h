/* tflite_reader.h - turns a .tflite FlatBuffer into a te_graph.
 *
 * Every offset, length and index in the file is bounds-checked before it is
 * used; on any problem the loader returns NULL and d holds one line naming
 * it (with the byte offset in the file, or the tensor / operator index). */
#ifndef TE_TFLITE_READER_H
#define TE_TFLITE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "../ir/diag.h"
#include "../ir/ir.h"

/* Parses a model image; the graph keeps its own copy of the bytes. */
te_graph *te_load_tflite(const uint8_t *data, size_t size, te_diag *d);

/* Reads and parses a file ("cannot open", "empty file" and read errors are
 * reported through d like parse errors). */
te_graph *te_load_tflite_file(const char *path, te_diag *d);

#endif
