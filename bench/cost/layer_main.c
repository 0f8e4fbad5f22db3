/* layer_main.c - bare-metal harness of bench/calibrate_cost.sh: per-layer
 * instruction counts of a generated model on a Cortex-M under QEMU.
 *
 * Built with -DTE_MODEL=m -DTE_MODEL_HEADER="m.h" -DM_LAYER_HOOK=te_layer_mark
 * and targets/cortex-m/{startup,semihost}.c.  Reads input i from the host file
 * te_in<i>.bin (semihosting, QEMU's working folder), calls te_layer_mark once,
 * runs m_invoke (which calls te_layer_mark after every operator output) and
 * calls te_layer_mark once more, then writes output i to te_out<i>.bin (the
 * script compares them with the golden outputs).  te_layer_mark is two
 * instructions: `nop` at
 * te_layer_stop and `bx lr` at te_layer_start; with the te_icount plugin's
 * stop= and start= set to them, interval k is every instruction from the
 * return of mark k to the call of mark k+1: one operator plus the few
 * instructions of the hook call (subtracted by the calibration script). */
#include <stddef.h>
#include <stdint.h>

#include TE_MODEL_HEADER
#include "semihost.h"

#define TE_CAT2(a, b) a##_##b
#define TE_CAT(a, b) TE_CAT2(a, b)
#define API(x) TE_CAT(TE_MODEL, x)

void te_layer_mark(int op, int output, const void *data, size_t bytes);

__asm__(".text\n"
        ".syntax unified\n"
        ".thumb\n"
        ".balign 4\n"
        ".global te_layer_mark\n"
        ".type te_layer_mark, %function\n"
        ".thumb_func\n"
        "te_layer_mark:\n"
        ".global te_layer_stop\n"
        "te_layer_stop:\n"
        "    nop\n"
        ".global te_layer_start\n"
        "te_layer_start:\n"
        "    bx lr\n"
        ".size te_layer_mark, . - te_layer_mark\n");

static int load_input(int i)
{
    char path[] = "te_in0.bin";
    unsigned char *dst = API(input)(i);
    size_t n = API(input_bytes)(i);
    int fd;
    long rest;
    path[5] = (char)('0' + i);
    fd = te_sh_open(path, TE_SH_MODE_RB);
    if (fd < 0)
        return -1;
    rest = te_sh_read(fd, dst, n);
    te_sh_close(fd);
    return rest == 0 ? 0 : -1;
}

static void save_output(int i)
{
    char path[] = "te_out0.bin";
    int fd;
    path[6] = (char)('0' + i);
    fd = te_sh_open(path, TE_SH_MODE_WB);
    if (fd < 0)
        return;
    te_sh_write(fd, API(output)(i), API(output_bytes)(i));
    te_sh_close(fd);
}

int main(void)
{
    int i, rc;
    for (i = 0; i < API(num_inputs)() && i < 10; i++)
        if (load_input(i) < 0) {
            te_sh_puts("te-layers: cannot read te_in<i>.bin\n");
            return 2;
        }
    te_layer_mark(-1, 0, NULL, 0);
    rc = API(invoke)();
    te_layer_mark(-2, 0, NULL, 0);
    for (i = 0; i < API(num_outputs)() && i < 10; i++)
        save_output(i);
    te_sh_puts(rc == 0 ? "te-layers: DONE\n" : "te-layers: invoke failed\n");
    return rc == 0 ? 0 : 2;
}
