/* te_kernel_paste.c - writes the runtime code the compiler pastes into a
 * generated file that calls one kernel of the registry (runtime/te_kernels.def),
 * for one target ISA, followed by a reference that keeps the kernel out of
 * line: what tools/kernel_code.sh compiles to measure each kernel's code.
 *   te_kernel_paste generic|dsp|avx2 FUNCTION > kernel.c */
#include <stdio.h>
#include <string.h>

#include "codegen/cbuf.h"
#include "codegen/kernels.h"
#include "codegen/runtime_select.h"
#include "ir/diag.h"

int main(int argc, char **argv)
{
    te_runtime_isa isa = {0, 0};
    te_buf out = {0};
    te_diag d;
    const char *family;
    te_kernel_id id;
    if (argc != 3 || (strcmp(argv[1], "generic") && strcmp(argv[1], "dsp") &&
                      strcmp(argv[1], "avx2"))) {
        fprintf(stderr, "usage: te_kernel_paste generic|dsp|avx2 FUNCTION\n");
        return 2;
    }
    isa.dsp = !strcmp(argv[1], "dsp");
    isa.avx2 = !strcmp(argv[1], "avx2");
    id = te_kernel_by_name(argv[2]);
    if (id == TE_K_COUNT) {
        fprintf(stderr, "te_kernel_paste: no kernel %s in the registry\n", argv[2]);
        return 2;
    }
    family = te_kernel_get(id)->family;
    memset(&d, 0, sizeof d);
    if (te_runtime_paste(&out, argv[2], strlen(argv[2]), &family, 1, isa, &d) < 0) {
        fprintf(stderr, "te_kernel_paste: %s\n", d.msg);
        return 1;
    }
    fwrite(out.s, 1, out.len, stdout);
    printf("\nvoid (*const te_kernel_code_keep)(void) = (void (*)(void))%s;\n", argv[2]);
    te_buf_free(&out);
    return 0;
}
