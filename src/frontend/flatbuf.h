/* flatbuf.h - a small, bounds-checked reader for FlatBuffer images.
 *
 * Owns the low-level FlatBuffer format only (root offset, tables and their
 * vtables, scalars with defaults, offsets to sub-tables, vectors, strings);
 * it knows nothing about TFLite.  Every offset, vtable, length and index is
 * checked against the image size before it is used; reads go byte by byte
 * (alignment-safe, little-endian on any host).  On a problem the functions
 * record one line through te_fail naming the byte offset and return -1. */
#ifndef TE_FLATBUF_H
#define TE_FLATBUF_H

#include <stddef.h>
#include <stdint.h>

#include "../ir/diag.h"

typedef struct {
    const uint8_t *data;
    size_t size;
    te_diag *d;
} fb_buf;

/* Tables nested deeper than this (root = depth 1) are refused, as the
 * FlatBuffers verifier does by default: a reader that follows offsets
 * recursively must not be driven into unbounded recursion by the file. */
#define FB_MAX_DEPTH 64

/* A validated table: its vtable and inline part lie inside the image. */
typedef struct {
    const fb_buf *b;
    int depth;           /* 1 for the root, parent + 1 for a sub-table */
    size_t pos;          /* byte offset of the table (its soffset word) */
    size_t vt;           /* byte offset of its vtable */
    size_t vt_size;      /* vtable bytes (>= 4) */
    size_t tsize;        /* inline table bytes (>= 4) */
    const char *what;    /* table type name, for messages */
} fb_table;

/* A validated vector: len * elem bytes from pos lie inside the image. */
typedef struct {
    const fb_buf *b;
    int depth;           /* depth of the table holding the vector */
    size_t pos;          /* byte offset of element 0 */
    uint32_t len;        /* 0 when the field is absent */
    size_t elem;         /* element size in bytes */
    int present;         /* 0 when the field is absent */
    const char *what;    /* "Tensor.shape", for messages */
} fb_vec;

/* Raw little-endian reads; the caller has bounds-checked pos. */
uint16_t fb_rd_u16(const uint8_t *p);
uint32_t fb_rd_u32(const uint8_t *p);
uint64_t fb_rd_u64(const uint8_t *p);

/* The root table: uoffset at byte 0. */
int fb_root(const fb_buf *b, const char *what, fb_table *t);

/* Validates the table whose soffset word is at pos (depth 1). */
int fb_table_at(const fb_buf *b, size_t pos, const char *what, fb_table *t);

/* Byte offset of field id (width bytes) or 0 when absent; -1 on error. */
int fb_field(const fb_table *t, int id, size_t width, size_t *pos);

/* Scalar fields: *out = def when absent. */
int fb_u8(const fb_table *t, int id, uint8_t def, uint8_t *out);
int fb_i8(const fb_table *t, int id, int8_t def, int8_t *out);
int fb_i32(const fb_table *t, int id, int32_t def, int32_t *out);
int fb_u32(const fb_table *t, int id, uint32_t def, uint32_t *out);
int fb_u64(const fb_table *t, int id, uint64_t def, uint64_t *out);
int fb_f32(const fb_table *t, int id, float def, float *out);

/* Sub-table through an offset field; *present = 0 when absent.  Fails
 * when the sub-table would be deeper than FB_MAX_DEPTH. */
int fb_table_field(const fb_table *t, int id, const char *what, fb_table *out,
                   int *present);

/* Vector through an offset field (absent: len 0, present 0). */
int fb_vec_field(const fb_table *t, int id, size_t elem, const char *what,
                 fb_vec *v);

/* String field copied into malloc'd, NUL-terminated memory ("" when
 * absent).  The caller frees *out. */
int fb_str_field(const fb_table *t, int id, const char *what, char **out);

/* Elements of a validated vector (i < v->len; no failure possible). */
uint8_t fb_vec_u8(const fb_vec *v, uint32_t i);
int32_t fb_vec_i32(const fb_vec *v, uint32_t i);
int64_t fb_vec_i64(const fb_vec *v, uint32_t i);
float fb_vec_f32(const fb_vec *v, uint32_t i);

/* Element i of a vector of tables (validated here). */
int fb_vec_table(const fb_vec *v, uint32_t i, const char *what, fb_table *out);

#endif
