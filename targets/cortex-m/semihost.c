/* semihost.c - the semihosting calls of semihost.h (bkpt 0xab, Thumb). */
#include "semihost.h"

int te_sh_call(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void te_sh_puts(const char *s)
{
    te_sh_call(TE_SH_SYS_WRITE0, s);
}

void te_sh_put_uint(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    te_sh_puts(buf + i);
}

void te_sh_exit(int status)
{
    /* ADP_Stopped_ApplicationExit with the status: QEMU exits with it. */
    const uint32_t block[2] = {0x20026u, (uint32_t)status};
    for (;;)
        te_sh_call(TE_SH_SYS_EXIT_EXTENDED, block);
}

static size_t te_sh_strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int te_sh_open(const char *path, int mode)
{
    const uint32_t block[3] = {(uint32_t)(uintptr_t)path, (uint32_t)mode,
                               (uint32_t)te_sh_strlen(path)};
    return te_sh_call(TE_SH_SYS_OPEN, block);
}

int te_sh_close(int fd)
{
    const uint32_t block[1] = {(uint32_t)fd};
    return te_sh_call(TE_SH_SYS_CLOSE, block);
}

long te_sh_read(int fd, void *buf, size_t n)
{
    const uint32_t block[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf, (uint32_t)n};
    return te_sh_call(TE_SH_SYS_READ, block);
}

long te_sh_write(int fd, const void *buf, size_t n)
{
    const uint32_t block[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf, (uint32_t)n};
    return te_sh_call(TE_SH_SYS_WRITE, block);
}

long te_sh_flen(int fd)
{
    const uint32_t block[1] = {(uint32_t)fd};
    return te_sh_call(TE_SH_SYS_FLEN, block);
}
