/* cost_code.c - the flash bytes of code a generated file holds, per cost
 * model: each kernel's measured code (runtime/te_kernel_code.def, written
 * by tools/kernel_code.sh from the runtime as the compiler pastes it), the
 * file's own functions and the bytes each kernel call adds to the invoke;
 * for the patch stages, the bytes of a patch's call and of each kernel's
 * params record. */
#include <string.h>

#include "../codegen/kernels.h"
#include "cost_model.h"

/* The table's columns, in its order. */
static const char *const columns[TE_CODE_COLUMNS] = {"host", "x86-64-v3", "armv7m-portable",
                                                     "cortex-m4", "cortex-m7"};

/* Each table below reads one or two row kinds of te_kernel_code.def: every
 * kind expands to nothing but those it redefines (then back to nothing). */
#define TE_KERNEL_CODE(id, a, b, c, d, e)
#define TE_KERNEL_PARAMS(id, a, b, c, d, e)
#define TE_CODE_BASE(a, b, c, d, e)
#define TE_CODE_CALL(a, b, c, d, e)
#define TE_CODE_PATCH_CALL(a, b, c, d, e)
#define TE_KERNEL_CALL(id, a, b, c, d, e)

static const int kernel_code[TE_K_COUNT][TE_CODE_COLUMNS] = {
#undef TE_KERNEL_CODE
#define TE_KERNEL_CODE(id, a, b, c, d, e) [TE_K_##id] = {a, b, c, d, e},
#include "te_kernel_code.def"
#undef TE_KERNEL_CODE
#define TE_KERNEL_CODE(id, a, b, c, d, e)
};

/* sizeof each kernel's params struct + 2 (0: no row; 1: plain arguments;
 * 2: a target that does not build the kernel) */
static const int kernel_params[TE_K_COUNT][TE_CODE_COLUMNS] = {
#undef TE_KERNEL_PARAMS
#define TE_KERNEL_PARAMS(id, a, b, c, d, e) [TE_K_##id] = {a + 2, b + 2, c + 2, d + 2, e + 2},
#include "te_kernel_code.def"
#undef TE_KERNEL_PARAMS
#define TE_KERNEL_PARAMS(id, a, b, c, d, e)
};

static const int kernel_call[TE_K_COUNT][TE_CODE_COLUMNS] = {
#undef TE_KERNEL_CALL
#define TE_KERNEL_CALL(id, a, b, c, d, e) [TE_K_##id] = {a, b, c, d, e},
#include "te_kernel_code.def"
#undef TE_KERNEL_CALL
#define TE_KERNEL_CALL(id, a, b, c, d, e)
};

/* TE_CODE_BASE, TE_CODE_CALL, TE_CODE_PATCH_CALL */
static const int base_code[3][TE_CODE_COLUMNS] = {
#undef TE_CODE_BASE
#undef TE_CODE_CALL
#undef TE_CODE_PATCH_CALL
#define TE_CODE_BASE(a, b, c, d, e) [0] = {a, b, c, d, e},
#define TE_CODE_CALL(a, b, c, d, e) [1] = {a, b, c, d, e},
#define TE_CODE_PATCH_CALL(a, b, c, d, e) [2] = {a, b, c, d, e},
#include "te_kernel_code.def"
};
#undef TE_KERNEL_CODE
#undef TE_KERNEL_PARAMS
#undef TE_CODE_BASE
#undef TE_CODE_CALL
#undef TE_CODE_PATCH_CALL
#undef TE_KERNEL_CALL

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

int te_cost_patch_call_code(const char *model)
{
    const int c = column(model);
    return c >= 0 ? base_code[2][c] : 0;
}

int te_cost_kernel_params(const char *model, te_kernel_id kernel)
{
    const int c = column(model);
    return c >= 0 && (int)kernel >= 0 && kernel < TE_K_COUNT && kernel_params[kernel][c] > 2
               ? kernel_params[kernel][c] - 2
               : -1;
}

int te_cost_kernel_call(const char *model, te_kernel_id kernel)
{
    const int c = column(model);
    return c >= 0 && (int)kernel >= 0 && kernel < TE_K_COUNT ? kernel_call[kernel][c] : 0;
}
