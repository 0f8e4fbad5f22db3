/* cost_code.c - the flash bytes of code a generated file holds, per cost
 * model: each kernel's measured code (runtime/te_kernel_code.def, written
 * by tools/kernel_code.sh from the runtime as the compiler pastes it), the
 * file's own functions and the bytes each kernel call adds to the invoke. */
#include <string.h>

#include "../codegen/kernels.h"
#include "cost_model.h"

/* The table's columns, in its order. */
static const char *const columns[TE_CODE_COLUMNS] = {"host", "x86-64-v3", "armv7m-portable",
                                                     "cortex-m4", "cortex-m7"};

static const int kernel_code[TE_K_COUNT][TE_CODE_COLUMNS] = {
#define TE_KERNEL_CODE(id, a, b, c, d, e) [TE_K_##id] = {a, b, c, d, e},
#define TE_CODE_BASE(a, b, c, d, e)
#define TE_CODE_CALL(a, b, c, d, e)
#include "te_kernel_code.def"
#undef TE_KERNEL_CODE
#undef TE_CODE_BASE
#undef TE_CODE_CALL
};

static const int base_code[2][TE_CODE_COLUMNS] = {
#define TE_KERNEL_CODE(id, a, b, c, d, e)
#define TE_CODE_BASE(a, b, c, d, e) {a, b, c, d, e},
#define TE_CODE_CALL(a, b, c, d, e) {a, b, c, d, e},
#include "te_kernel_code.def"
#undef TE_KERNEL_CODE
#undef TE_CODE_BASE
#undef TE_CODE_CALL
};

static int column(const char *model)
{
    int i;
    for (i = 0; i < TE_CODE_COLUMNS; i++)
        if (!strcmp(columns[i], model))
            return i;
    return -1;
}

int te_cost_kernel_code(const char *model, te_kernel_id kernel)
{
    const int c = column(model);
    return c >= 0 && (int)kernel >= 0 && kernel < TE_K_COUNT ? kernel_code[kernel][c] : 0;
}

int te_cost_base_code(const char *model)
{
    const int c = column(model);
    return c >= 0 ? base_code[0][c] : 0;
}

int te_cost_call_code(const char *model)
{
    const int c = column(model);
    return c >= 0 ? base_code[1][c] : 0;
}
