/* diag.h - the one-line error every stage reports.
 *
 * Each stage takes a te_diag*, records the first failure with te_fail() and
 * returns -1.  The CLI prints "tinyengine: error: <msg>" and exits 1.  A
 * message names what is wrong precisely: the operator (name and index), the
 * tensor (index and name) or the byte offset in the file. */
#ifndef TE_DIAG_H
#define TE_DIAG_H

typedef struct {
    char msg[512];
    int failed;
} te_diag;

/* Records the message (the first one wins) and returns -1. */
int te_fail(te_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
