/* cbuf.h - a growable text buffer the code emitter writes C source into. */
#ifndef TE_CBUF_H
#define TE_CBUF_H

#include <stddef.h>

typedef struct {
    char *s;      /* NUL-terminated; NULL while empty */
    size_t len;
    size_t cap;
    int oom;      /* set once an allocation failed; further writes are dropped */
} te_buf;

void te_buf_printf(te_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void te_buf_append(te_buf *b, const char *s, size_t n);
void te_buf_free(te_buf *b);

#endif
