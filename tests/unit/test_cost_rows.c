/* test_cost_rows.c - the cost tables (src/api/cost_table.c) and the kernel
 * registry (runtime/te_kernels.def) agree: every row names a registry
 * kernel (or TE_K_ANY), every cost model has its (*, *) fallback, and a
 * kernel marked as never named by a lowering record (te_cost_not_lowered)
 * has no row.  A kernel with neither runs on its operator's generic
 * estimate (te_cost_row): listed, not a failure. */
#include <stdio.h>
#include <string.h>

#include "api/cost_model.h"
#include "codegen/kernels.h"
#include "testlib.h"

static int listed(const te_kernel_id *ids, int n, te_kernel_id k)
{
    int i, c = 0;
    for (i = 0; i < n; i++)
        c += ids[i] == k;
    return c;
}

static int has_row(te_kernel_id k)
{
    int i;
    for (i = 0; i < te_cost_table_size; i++)
        if (te_cost_table[i].kernel == k)
            return 1;
    return 0;
}

static void test_every_kernel_costed(void)
{
    int k, generic = 0;
    for (k = 0; k < TE_K_COUNT; k++) {
        int row = has_row((te_kernel_id)k);
        int not_lowered = listed(te_cost_not_lowered, te_cost_not_lowered_size, k);
        if (row + not_lowered > 1)
            printf("%s: has a cost row but is listed in te_cost_not_lowered\n",
                   te_kernel_name((te_kernel_id)k));
        CHECK(not_lowered <= 1 && row + not_lowered <= 1);
        if (!row && !not_lowered) {
            printf("%s%s", generic++ ? " " : "kernels on their operator's generic estimate "
                                            "(no calibrated row): ",
                   te_kernel_name((te_kernel_id)k));
        }
    }
    if (generic)
        printf(" (%d)\n", generic);
}

static void test_rows_name_kernels(void)
{
    static const char *const models[] = {"cortex-m4", "cortex-m7", "host", "x86-64-v3",
                                         "armv7m-portable"};
    te_cost_features none;
    int i;
    for (i = 0; i < te_cost_table_size; i++) {
        te_kernel_id k = te_cost_table[i].kernel;
        CHECK(k == TE_K_ANY || te_kernel_get(k) != NULL);
        CHECK(!te_cost_table[i].row || k != TE_K_ANY);
    }
    memset(&none, 0, sizeof none);
    for (i = 0; i < (int)(sizeof models / sizeof models[0]); i++)
        CHECK(te_cost_row(models[i], "NO_SUCH_OP", TE_K_UNKNOWN, &none) != NULL);
    CHECK(te_cost_estimate(te_cost_row("host", "RESHAPE", TE_K_VIEW, &none), TE_K_VIEW, &none) ==
          0);
}

static void test_report_names(void)
{
    CHECK(strcmp(te_kernel_report_name(TE_K_DEPTHWISE_DSP_S8_K3S1), "te_depthwise_dsp_s8_k3s1") ==
          0);
    CHECK(strcmp(te_kernel_report_name(TE_K_CONV2D_GEMM_S8), "te_conv2d_gemm_s8") == 0);
    CHECK(strcmp(te_kernel_report_name(TE_K_VIEW), "view") == 0);
    CHECK(strcmp(te_kernel_report_name(TE_K_UNKNOWN), "unknown") == 0);
    CHECK(te_cost_kernel_code("cortex-m4", TE_K_VIEW) == 0);
}

int main(void)
{
    test_every_kernel_costed();
    test_rows_name_kernels();
    test_report_names();
    return test_summary();
}
