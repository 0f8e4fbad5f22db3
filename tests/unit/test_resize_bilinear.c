/* test_resize_bilinear.c - RESIZE_BILINEAR int8: the compiler's position
 * tables (te_resize_bilinear_table) with the kernel te_resize_bilinear_s8,
 * against a plain reference written from TFLite Micro's
 * ResizeBilinearInteger, over random shapes, ratios (up, down, non-integer)
 * and both align_corners and half_pixel_centers, plus a channel-slice
 * output pitch. */
#include <stdlib.h>
#include <string.h>

#include "te_common.h"
#include "te_resize_bilinear.h"
#include "testlib.h"

int te_resize_bilinear_table(int32_t in_size, int32_t out_size, int align_corners,
                             int half_pixel_centers, int32_t step, int32_t *tab);

/* TFLite's position, lower and upper source index for output index v. */
static void ref_pos(int v, int in_size, int out_size, int ac, int hp, int64_t *pos, int *lo,
                    int *hi)
{
    int64_t s = (ac && out_size > 1) ? (1024LL * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1)
                                     : (1024LL * in_size + out_size / 2) / out_size;
    int64_t p = hp ? v * s + s / 2 - 512 : v * s;
    int64_t l = p / 1024, h = (p + 1023) / 1024;
    *pos = p;
    *lo = l > 0 ? (int)l : 0;
    *hi = h < in_size - 1 ? (int)h : in_size - 1;
}

static void ref_resize(const int8_t *in, int8_t *out, int n, int ih, int iw, int c, int oh, int ow,
                       int ac, int hp)
{
    int b, y, x, k;
    for (b = 0; b < n; b++)
        for (y = 0; y < oh; y++) {
            int64_t py;
            int y0, y1;
            ref_pos(y, ih, oh, ac, hp, &py, &y0, &y1);
            for (x = 0; x < ow; x++) {
                int64_t px;
                int x0, x1;
                ref_pos(x, iw, ow, ac, hp, &px, &x0, &x1);
                for (k = 0; k < c; k++) {
#define IN(yy, xx) ((int64_t)in[(((long)b * ih + (yy)) * iw + (xx)) * c + k])
                    int64_t fy = py - 1024 * y0, fx = px - 1024 * x0;
                    int64_t v = IN(y0, x0) * (1024 - fy) * (1024 - fx) +
                                IN(y1, x0) * fy * (1024 - fx) + IN(y0, x1) * (1024 - fy) * fx +
                                IN(y1, x1) * fy * fx;
#undef IN
                    int64_t r = v > 0 ? (1 << 19) : -(1 << 19);
                    out[(((long)b * oh + y) * ow + x) * c + k] = (int8_t)((v + r) / (1 << 20));
                }
            }
        }
}

static void run_case(int n, int ih, int iw, int c, int oh, int ow, int ac, int hp, int pitch)
{
    size_t in_n = (size_t)n * ih * iw * c, out_n = (size_t)n * oh * ow * c;
    int8_t *in = malloc(in_n), *want = malloc(out_n), *got = malloc((size_t)n * oh * ow * pitch);
    int32_t *yt = malloc(sizeof *yt * 3 * (size_t)oh), *xt = malloc(sizeof *xt * 3 * (size_t)ow);
    size_t i;
    int p, k, ok = 1;
    for (i = 0; i < in_n; i++)
        in[i] = (int8_t)test_rand_range(-128, 127);
    memset(got, 0x55, (size_t)n * oh * ow * pitch);
    ref_resize(in, want, n, ih, iw, c, oh, ow, ac, hp);
    CHECK(te_resize_bilinear_table(ih, oh, ac, hp, iw * c, yt) == 0);
    CHECK(te_resize_bilinear_table(iw, ow, ac, hp, c, xt) == 0);
    te_resize_bilinear_s8(in, got, n, ih * iw * c, c, oh, ow, yt, xt, pitch);
    for (p = 0; p < n * oh * ow; p++) {
        for (k = 0; k < c; k++)
            ok &= got[(size_t)p * pitch + k] == want[(size_t)p * c + k];
        for (k = c; k < pitch; k++)
            ok &= got[(size_t)p * pitch + k] == 0x55; /* slice gaps untouched */
    }
    CHECK(ok);
    free(in), free(want), free(got), free(yt), free(xt);
}

static void test_fixed_cases(void)
{
    run_case(1, 8, 8, 8, 16, 16, 0, 0, 8);   /* 2x */
    run_case(1, 6, 7, 5, 12, 14, 1, 0, 5);   /* 2x align_corners */
    run_case(1, 8, 8, 8, 16, 16, 0, 1, 8);   /* 2x half-pixel */
    run_case(1, 12, 12, 6, 5, 7, 0, 0, 6);   /* down */
    run_case(1, 7, 5, 4, 10, 12, 1, 0, 4);   /* non-integer, align_corners */
    run_case(1, 10, 10, 3, 15, 13, 0, 1, 3); /* non-integer, half-pixel */
    run_case(2, 1, 1, 3, 4, 5, 0, 1, 3);     /* from one pixel */
    run_case(1, 5, 4, 2, 1, 1, 1, 0, 2);     /* to one pixel, align_corners */
    run_case(1, 3, 3, 16, 40, 37, 0, 1, 16); /* large up, half-pixel extrapolates */
    run_case(1, 4, 4, 3, 8, 8, 0, 0, 7);     /* concatenation slice */
}

static void test_random_cases(void)
{
    int t;
    for (t = 0; t < 300; t++) {
        int ac = test_rand_range(0, 2), hp = ac == 2;
        int c = test_rand_range(1, 9);
        run_case(test_rand_range(1, 2), test_rand_range(1, 13), test_rand_range(1, 13), c,
                 test_rand_range(1, 29), test_rand_range(1, 29), ac == 1, hp,
                 c + (test_rand_range(0, 3) == 0 ? test_rand_range(1, 5) : 0));
    }
}

static void test_table_limits(void)
{
    int32_t tab[3 * 4];
    /* positions that overflow TFLite's int32 arithmetic are refused */
    CHECK(te_resize_bilinear_table(3 << 21, 4, 0, 0, 1, tab) < 0);
    /* an ordinary table: 4 -> 2 samples rows 0 and 2 */
    CHECK(te_resize_bilinear_table(4, 2, 0, 0, 10, tab) == 0);
    CHECK(tab[0] == 0 && tab[1] == 0 && tab[2] == 0);
    CHECK(tab[3] == 20 && tab[4] == 20 && tab[5] == 0);
}

int main(void)
{
    test_seed(20261126u);
    test_fixed_cases();
    test_random_cases();
    test_table_limits();
    return test_summary();
}
