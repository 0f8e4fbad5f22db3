/* startup.c - vector table and reset handler for Cortex-M4/M7 images on the
 * MPS2 boards (mps2-an386, mps2-an500): enable the FPU, copy .data, zero
 * .bss, call main, exit through semihosting with main's return value.
 * Faults and unexpected interrupts print a message and exit with status 3. */
#include <stdint.h>

#include "semihost.h"

/* From the linker script. */
extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];

int main(void);
void te_reset_handler(void) __attribute__((noreturn));
void te_fault_handler(void) __attribute__((noreturn));

#define TE_SCB_CPACR ((volatile uint32_t *)0xE000ED88u)

/* Word loops through volatile pointers: GCC must not turn them into memcpy
 * or memset calls, nor use FP registers before the FPU is on. */
void te_reset_handler(void)
{
#if defined(__ARM_FP)
    *TE_SCB_CPACR |= 0xFu << 20; /* full access to CP10 and CP11 */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    {
        volatile uint32_t *dst = _sdata;
        const volatile uint32_t *src = _sidata;
        while (dst < _edata)
            *dst++ = *src++;
        for (dst = _sbss; dst < _ebss;)
            *dst++ = 0;
    }
    te_sh_exit(main());
}

void te_fault_handler(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    te_sh_puts("cortex-m: fault or unexpected exception ");
    te_sh_put_uint(ipsr & 0x1FFu);
    te_sh_puts("\n");
    te_sh_exit(3);
}

/* Entry 0 is the initial stack pointer, then the handlers. */
typedef union {
    void (*handler)(void);
    uint32_t *sp;
} te_vector;

#define TE_N_VECTORS (16 + 32) /* system exceptions + the first 32 IRQs */

__attribute__((section(".isr_vector"), used)) const te_vector te_vectors[TE_N_VECTORS] = {
    {.sp = _estack},
    {.handler = te_reset_handler},
#define F {.handler = te_fault_handler}
    F, F, F, F, F, F, F, F, F, F, F, F, F, F,                 /* NMI .. SysTick */
    F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F,           /* IRQ 0-15 */
    F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F,           /* IRQ 16-31 */
#undef F
};
