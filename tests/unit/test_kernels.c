/* test_kernels.c - the kernel registry (runtime/te_kernels.def) agrees with
 * the runtime the compiler embeds: every kernel is defined in its family's
 * source and declared in its header (an always-inlined `_inl` entry: its
 * outlined twin) with its params type, its scratch-size
 * function exists beside it, names are unique and te_kernel_name /
 * te_kernel_by_name / te_kernel_of_family find them. */
#include <stdio.h>
#include <string.h>

#include "codegen/kernels.h"
#include "codegen/runtime_files.h"
#include "testlib.h"

static const te_runtime_file *file_named(const char *name)
{
    const te_runtime_file *f;
    for (f = te_runtime_files; f->name; f++) {
        const char *base = strrchr(f->name, '/');
        if (strcmp(base ? base + 1 : f->name, name) == 0)
            return f;
    }
    return NULL;
}

/* 1 when word occurs in f as a whole identifier */
static int has_word(const te_runtime_file *f, const char *word)
{
    size_t n = strlen(word);
    const char *p = f ? f->text : NULL;
    while (p && (p = strstr(p, word)) != NULL) {
        char before = p > f->text ? p[-1] : ' ', after = p[n];
        int id_before = before == '_' || (before >= 'a' && before <= 'z') ||
                        (before >= 'A' && before <= 'Z') || (before >= '0' && before <= '9');
        int id_after = after == '_' || (after >= 'a' && after <= 'z') ||
                       (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9');
        if (!id_before && !id_after)
            return 1;
        p += n;
    }
    return 0;
}

int main(void)
{
    int i, j;
    CHECK(te_kernel_get(TE_K_COUNT) == NULL);
    CHECK(strcmp(te_kernel_name(TE_K_CONV2D_GEMM_S8), "te_conv2d_gemm_s8") == 0);
    CHECK(te_kernel_by_name("te_pool_max_s8") == TE_K_POOL_MAX_S8);
    CHECK(te_kernel_by_name("te_no_such_kernel") == TE_K_COUNT);
    CHECK(te_kernel_of_family("mul") == TE_K_MUL_S8);
    CHECK(te_kernel_of_family("no_such_family") == TE_K_COUNT);
    for (i = 0; i < TE_K_COUNT; i++) {
        const te_kernel_info *k = te_kernel_get((te_kernel_id)i);
        char h[80], c[80];
        const te_runtime_file *fh, *fc;
        snprintf(h, sizeof h, "te_%s.h", k->family);
        snprintf(c, sizeof c, "te_%s.c", k->family);
        fh = file_named(h);
        fc = file_named(c);
        CHECK(fh != NULL);
        CHECK(fc != NULL);
        /* an always-inlined _inl entry: the header declares its outlined twin */
        {
            char stem[80];
            size_t n = strlen(k->name);
            snprintf(stem, sizeof stem, "%s", k->name);
            if (n > 4 && strcmp(k->name + n - 4, "_inl") == 0)
                stem[n - 4] = '\0';
            CHECK(has_word(fh, stem));
        }
        CHECK(has_word(fc, k->name));
        CHECK(te_kernel_by_name(k->name) == (te_kernel_id)i);
        if (k->params)
            CHECK(has_word(fh, k->params));
        if (k->buffer_size)
            CHECK(has_word(fh, k->buffer_size));
        for (j = 0; j < i; j++)
            CHECK(strcmp(te_kernel_get((te_kernel_id)j)->name, k->name) != 0);
        if (te_test_failed) {
            printf("kernel %s (family %s) does not match the runtime\n", k->name, k->family);
            break;
        }
    }
    return test_summary();
}
