/* diag.c - records the first error message of a compilation. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

int te_fail(te_diag *d, const char *fmt, ...)
{
    va_list ap;
    if (!d || d->failed)
        return -1;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    d->failed = 1;
    return -1;
}
