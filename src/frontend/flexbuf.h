/* flexbuf.h - reads the scalar entries of a FlexBuffers map: the
 * custom_options of a CUSTOM operator (TFLite_Detection_PostProcess
 * writes its settings that way).
 *
 * Only what a map of scalars needs: the root must be a map; a key's value
 * may be null, a (possibly indirect) int, uint or float, or a bool, and
 * is read with FlexBuffers' own conversions (AsInt32 of a float truncates,
 * AsFloat of an int converts, a missing key reads as null = 0).  Every
 * offset and width is checked against the buffer; a malformed buffer
 * gives -1, never a read outside it. */
#ifndef TE_FLEXBUF_H
#define TE_FLEXBUF_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    TE_FLEX_NULL = 0, /* absent, or stored as null */
    TE_FLEX_INT,
    TE_FLEX_UINT,
    TE_FLEX_FLOAT,
    TE_FLEX_BOOL,
    TE_FLEX_OTHER     /* a string, vector, map, ...: not a scalar */
} te_flex_kind;

typedef struct {
    te_flex_kind kind;
    int64_t i;        /* INT, BOOL (0/1) */
    uint64_t u;       /* UINT */
    double f;         /* FLOAT */
} te_flex_value;

/* Finds `key` in the map at the root of buf[0..n): 0 with *v set (kind
 * TE_FLEX_NULL when the key is absent), or -1 when buf is not a
 * well-formed FlexBuffers map. */
int te_flex_map_get(const uint8_t *buf, size_t n, const char *key, te_flex_value *v);

/* FlexBuffers' conversions of a scalar (0 for null and non-scalars). */
int32_t te_flex_as_int32(const te_flex_value *v);
float te_flex_as_float(const te_flex_value *v);
int te_flex_as_bool(const te_flex_value *v);

#endif
