/* json_text.h - JSON string literals for the reports (plan --json,
 * info --json): quotes, backslash escapes and \u00XX control characters. */
#ifndef TE_JSON_TEXT_H
#define TE_JSON_TEXT_H

#include <stdio.h>

#include "../codegen/cbuf.h"

/* Appends s as a quoted JSON string. */
void te_json_str(te_buf *o, const char *s);

/* Writes s as a quoted JSON string to f. */
void te_json_fputs(FILE *f, const char *s);

#endif
