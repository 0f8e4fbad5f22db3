/* diag.c - records the first error message of a compilation, as one
 * printable line. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

int te_fail(te_diag *d, const char *fmt, ...)
{
    va_list ap;
    char *p;
    if (!d || d->failed)
        return -1;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    /* names come from the model file: keep the message one printable line */
    for (p = d->msg; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            *p = '?';
    d->failed = 1;
    return -1;
}
