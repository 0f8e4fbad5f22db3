/* bench_main.c - one inference of a generated model on the target, measured.
 * Built with -DTE_MODEL=<name> -DTE_MODEL_HEADER="<name>.h" and a generated
 * te_bench_data.h that defines, as const arrays:
 *   TE_BENCH_N_INPUTS, te_bench_inputs[]  (input tensors, raw bytes)
 *   TE_BENCH_N_EXPECT, te_bench_expect[]  (expected outputs; 0 = no check)
 * with te_bench_blob entries {data, size}. Copies the inputs, runs
 * NAME_invoke through te_measure_call, compares every output byte and prints
 * "te-bench: PASS", "te-bench: FAIL ..." or "te-bench: DONE" (no expected
 * output). Returns 0 on PASS/DONE, 1 on FAIL, 2 on a setup error.
 * It also prints "te-bench: stack <bytes>", the stack NAME_invoke used: the
 * free RAM below the stack pointer is painted before the call and scanned
 * after it. */
#include <stddef.h>
#include <stdint.h>

#include TE_MODEL_HEADER
#include "measure.h"
#include "semihost.h"

typedef struct {
    const unsigned char *data;
    size_t size;
} te_bench_blob;

#include "te_bench_data.h"

#define TE_CAT2(a, b) a##_##b
#define TE_CAT(a, b) TE_CAT2(a, b)
#define API(x) TE_CAT(TE_MODEL, x)

/* Prints "te-bench: <what> <a> <b>" (a, b as unsigned numbers). */
static void say(const char *what, uint32_t a, uint32_t b)
{
    te_sh_puts("te-bench: ");
    te_sh_puts(what);
    te_sh_puts(" ");
    te_sh_put_uint(a);
    te_sh_puts(" ");
    te_sh_put_uint(b);
    te_sh_puts("\n");
}

/* 0, or 2 (setup error) when the data does not fit the model's inputs. */
static int load_inputs(void)
{
    int i;
    if (TE_BENCH_N_INPUTS != API(num_inputs)()) {
        say("SETUP input count (data, model)", TE_BENCH_N_INPUTS, (uint32_t)API(num_inputs)());
        return 2;
    }
    for (i = 0; i < TE_BENCH_N_INPUTS; i++) {
        unsigned char *dst = API(input)(i);
        size_t k, n = API(input_bytes)(i);
        if (te_bench_inputs[i].size != n) {
            say("SETUP input bytes (index, model)", (uint32_t)i, (uint32_t)n);
            return 2;
        }
        for (k = 0; k < n; k++)
            dst[k] = te_bench_inputs[i].data[k];
    }
    return 0;
}

/* 0 when every output byte equals the expected one, else 1. */
static int check_outputs(void)
{
    int i;
    if (TE_BENCH_N_EXPECT != API(num_outputs)()) {
        say("FAIL output count (expected, model)", TE_BENCH_N_EXPECT, (uint32_t)API(num_outputs)());
        return 1;
    }
    for (i = 0; i < TE_BENCH_N_EXPECT; i++) {
        const unsigned char *got = API(output)(i);
        size_t k, n = API(output_bytes)(i);
        if (te_bench_expect[i].size != n) {
            say("FAIL output bytes (index, model)", (uint32_t)i, (uint32_t)n);
            return 1;
        }
        for (k = 0; k < n; k++)
            if (got[k] != te_bench_expect[i].data[k]) {
                say("FAIL first differing output, byte", (uint32_t)i, (uint32_t)k);
                say("FAIL got, expected (unsigned)", got[k], te_bench_expect[i].data[k]);
                return 1;
            }
    }
    return 0;
}

#define TE_PAINT 0xA5C3A5C3u
extern uint32_t _ebss[]; /* end of .bss: the lowest address the stack may reach */

/* Fills [_ebss, sp) with TE_PAINT; returns sp. Inline so that no frame of
 * its own lies below the painted area. */
static inline __attribute__((always_inline)) uint32_t *paint_stack(void)
{
    uint32_t *sp;
    volatile uint32_t *p;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (p = _ebss; p < (volatile uint32_t *)sp; p++)
        *p = TE_PAINT;
    return sp;
}

static uint32_t stack_used(const uint32_t *sp)
{
    const volatile uint32_t *p = _ebss;
    while (p < (const volatile uint32_t *)sp && *p == TE_PAINT)
        p++;
    return (uint32_t)((const uint32_t *)sp - (const uint32_t *)p) * 4u;
}

int main(void)
{
    uint32_t *sp;
    int rc = load_inputs();
    if (rc != 0)
        return rc;
    sp = paint_stack();
    rc = te_measure_call(API(invoke));
    te_sh_puts("te-bench: stack ");
    te_sh_put_uint(stack_used(sp));
    te_sh_puts("\n");
    if (rc != 0) {
        say("SETUP invoke returned (status, 0)", (uint32_t)rc, 0);
        return 2;
    }
    if (TE_BENCH_N_EXPECT == 0) {
        te_sh_puts("te-bench: DONE\n");
        return 0;
    }
    if (check_outputs() != 0)
        return 1;
    te_sh_puts("te-bench: PASS\n");
    return 0;
}
