/* kernels.c - the kernel registry table, built from runtime/te_kernels.def. */
#include <stddef.h>
#include <string.h>

#include "kernels.h"

/* "-" in the .def means none */
#define TE_KDEF_STR(x) #x
#define TE_KDEF_OPT(x) (TE_KDEF_STR(x)[0] == '-' ? NULL : TE_KDEF_STR(x))

static const te_kernel_info kernels[TE_K_COUNT] = {
#define TE_KERNEL_DEF(id, fn, family, params, bufsize) \
    {#fn, #family, TE_KDEF_OPT(params), TE_KDEF_OPT(bufsize)},
#include "te_kernels.def"
#undef TE_KERNEL_DEF
};

const te_kernel_info *te_kernel_get(te_kernel_id id)
{
    return (int)id >= 0 && id < TE_K_COUNT ? &kernels[id] : NULL;
}

const char *te_kernel_name(te_kernel_id id)
{
    const te_kernel_info *k = te_kernel_get(id);
    return k ? k->name : "?";
}

const char *te_kernel_report_name(te_kernel_id id)
{
    switch (id) {
    case TE_K_VIEW: return "view";
    case TE_K_UNKNOWN: return "unknown";
    case TE_K_ANY: return "*";
    default: return te_kernel_name(id);
    }
}

int te_kernel_find(const char *s, size_t len)
{
    int i;
    for (i = 0; i < TE_K_COUNT; i++)
        if (strlen(kernels[i].name) == len && memcmp(kernels[i].name, s, len) == 0)
            return i;
    return -1;
}

te_kernel_id te_kernel_by_name(const char *name)
{
    int k = te_kernel_find(name, strlen(name));
    return k < 0 ? TE_K_COUNT : (te_kernel_id)k;
}

te_kernel_id te_kernel_of_family(const char *family)
{
    int i;
    for (i = 0; i < TE_K_COUNT; i++)
        if (strcmp(kernels[i].family, family) == 0)
            return (te_kernel_id)i;
    return TE_K_COUNT;
}
