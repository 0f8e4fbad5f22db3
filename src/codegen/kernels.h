/* kernels.h - the compiler's view of the kernel registry
 * (runtime/te_kernels.def): one id per runtime entry point, with its C name,
 * the runtime family (file) that holds it, its params type and the
 * function that gives its scratch size.  Operator lowerings name kernels by
 * id (te_emit_kernel); anything that needs the C name asks te_kernel_name. */
#ifndef TE_KERNELS_H
#define TE_KERNELS_H

#include <stddef.h>

typedef enum {
#define TE_KERNEL_DEF(id, fn, family, params, bufsize) TE_K_##id,
#include "te_kernels.def"
#undef TE_KERNEL_DEF
    TE_K_COUNT,
    /* Not registry entries: what a lowering record (src/ops/lowering.h)
     * says when the op calls no kernel, and the cost tables' wildcard. */
    TE_K_VIEW,    /* no kernel runs: the op is a view of its input */
    TE_K_UNKNOWN, /* the op file did not say */
    TE_K_ANY      /* cost tables: any kernel */
} te_kernel_id;

typedef struct {
    const char *name;        /* C function, e.g. "te_conv2d_gemm_s8" */
    const char *family;      /* runtime/te_<family>.h and .c */
    const char *params;      /* params struct type, NULL when none */
    const char *buffer_size; /* scratch-size function beside it, NULL when none */
} te_kernel_info;

/* The entry of id; NULL when id is out of range. */
const te_kernel_info *te_kernel_get(te_kernel_id id);

/* C name of kernel id ("?" when out of range). */
const char *te_kernel_name(te_kernel_id id);

/* The name reports print for id (info/profile, the cost tables): the C
 * name, or "view", "unknown" or "*" for the pseudo ids.  (The DSP
 * depthwise kernels' always-inline forms are not registry entries: their
 * family names them <name>_inl, see op_depthwise_conv2d.c.) */
const char *te_kernel_report_name(te_kernel_id id);

/* Id of the kernel whose C name is the first len bytes of s, or -1. */
int te_kernel_find(const char *s, size_t len);

/* Id of the kernel called name, or TE_K_COUNT (te_emit_kernel ignores it). */
te_kernel_id te_kernel_by_name(const char *name);

/* Id of the first kernel of family ("add" -> TE_K_ADD_S8), or TE_K_COUNT. */
te_kernel_id te_kernel_of_family(const char *family);

#endif
