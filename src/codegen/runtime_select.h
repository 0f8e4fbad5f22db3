/* runtime_select.h - picks, from the embedded runtime/ sources, exactly the
 * code a generated file needs: the kernel families its invoke function calls,
 * with every preprocessor conditional the target decides resolved, and only
 * the sections (functions, macros) reachable from the kernels it calls.
 *
 * Conditionals: a `#if`, `#ifdef`, `#ifndef`, `#elif` is decided at paste
 * time when its value follows from what the target fixes (TE_TARGET_DSP,
 * TE_TARGET_AVX2, __SSE2__ (x86-64-v3 only), TE_KERNEL, header guards and the
 * macros only defined inside branches already decided); the branch taken
 * stays without its directives, the others go.  Conditions the target does
 * not decide (__ARM_FEATURE_DSP: M4 code also runs on the host through the
 * exact DSP emulation; __GNUC__) stay, simplified to the unknown terms.
 *
 * Sections: a runtime file may cut itself into sections with comment lines
 *     / * te:section NAME [NAME...] [needs DEP...] * /     (written without
 *     / * te:end * /                                        the spaces)
 * A section is pasted when one of its NAMEs is a kernel the code calls or an
 * identifier used by pasted code (its text outside comments and strings, or
 * another pasted section): needs are found by scanning, `needs` adds the
 * ones a scan cannot see (e.g. a macro that expands to a name).  Text of a
 * pasted file outside sections is always pasted.  A section holds whole
 * conditional groups or lies inside one. */
#ifndef TE_RUNTIME_SELECT_H
#define TE_RUNTIME_SELECT_H

#include <stddef.h>

#include "../ir/diag.h"
#include "cbuf.h"

typedef struct {
    int dsp;   /* Armv7E-M DSP kernels (TE_TARGET_DSP) */
    int avx2;  /* x86-64-v3: AVX2 kernels (TE_TARGET_AVX2), and the SSE2 ones (__SSE2__) */
} te_runtime_isa;

/* Appends to out the runtime code that `body` (the statements of the
 * generated invoke function, and any other generated code) calls: te_common.h,
 * then for each family in `families` (registry family names, in order, n of
 * them) and each further family body calls, its header and source. */
int te_runtime_paste(te_buf *out, const char *body, size_t body_len, const char *const *families,
                     int n, te_runtime_isa isa, te_diag *d);

/* The same cut in two for a library of several models: the declarations
 * (te_common.h and the families' headers) into decls, for a header every
 * model's file includes, and the definitions (the families' sources) into
 * defs, compiled once.  TE_KERNEL is left to the code before decls to
 * define (empty: the kernels get external linkage). */
int te_runtime_paste_shared(te_buf *decls, te_buf *defs, const char *body, size_t body_len,
                            const char *const *families, int n, te_runtime_isa isa, te_diag *d);

#endif
