/* semihost.h - Arm semihosting for bare-metal Cortex-M images run under QEMU
 * (-semihosting-config enable=on,target=native) or a debugger: console
 * output, exit with a status, and host file access. */
#ifndef TE_SEMIHOST_H
#define TE_SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

/* Operation numbers of the Arm semihosting specification. */
#define TE_SH_SYS_OPEN 0x01
#define TE_SH_SYS_CLOSE 0x02
#define TE_SH_SYS_WRITE0 0x04
#define TE_SH_SYS_WRITE 0x05
#define TE_SH_SYS_READ 0x06
#define TE_SH_SYS_FLEN 0x0C
#define TE_SH_SYS_EXIT_EXTENDED 0x20

/* SYS_OPEN modes (fopen's "rb" and "wb"). */
#define TE_SH_MODE_RB 1
#define TE_SH_MODE_WB 5

/* One semihosting call: op in r0, argument block address in r1; returns r0. */
int te_sh_call(int op, const void *arg);

/* Prints a NUL-terminated string on the host's console. */
void te_sh_puts(const char *s);
/* Prints an unsigned number in decimal. */
void te_sh_put_uint(uint32_t v);
/* Ends the program; the QEMU process exits with this status. */
void te_sh_exit(int status) __attribute__((noreturn));

/* Host files: te_sh_open returns a handle or -1. te_sh_read/te_sh_write
 * return the number of bytes NOT transferred (0 = all), -1 on error. */
int te_sh_open(const char *path, int mode);
int te_sh_close(int fd);
long te_sh_read(int fd, void *buf, size_t n);
long te_sh_write(int fd, const void *buf, size_t n);
long te_sh_flen(int fd);

#endif
