/* json_text.c - JSON string literals (see json_text.h). */
#include "json_text.h"

void te_json_str(te_buf *o, const char *s)
{
    te_buf_append(o, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            te_buf_printf(o, "\\%c", c);
        else if (c < 0x20)
            te_buf_printf(o, "\\u%04x", c);
        else
            te_buf_append(o, s, 1);
    }
    te_buf_append(o, "\"", 1);
}

void te_json_fputs(FILE *f, const char *s)
{
    te_buf b = {0};
    te_json_str(&b, s);
    if (b.s)
        fputs(b.s, f);
    te_buf_free(&b);
}
