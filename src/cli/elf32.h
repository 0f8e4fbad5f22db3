/* elf32.h - the little of a 32-bit little-endian ELF image `bench` reads
 * (its allocated sections and a symbol's address), without spawning
 * binutils for each image. */
#ifndef TE_CLI_ELF32_H
#define TE_CLI_ELF32_H

#include <stddef.h>

/* One section of the image that occupies memory (SHF_ALLOC). */
typedef struct {
    const char *name; /* into the image's section name table */
    unsigned long addr, size;
} cli_elf_section;

typedef struct {
    unsigned char *bytes;
    size_t n;
} cli_elf;

/* Reads PATH; 0, or -1 (reported) when it is not a 32-bit little-endian
 * ELF file with sane section headers. */
int cli_elf_open(cli_elf *e, const char *path);
void cli_elf_close(cli_elf *e);

/* Calls fn for each allocated section, in header order; 0, or -1 when the
 * headers are damaged. */
int cli_elf_sections(const cli_elf *e, void (*fn)(const cli_elf_section *, void *), void *ctx);

/* The address of symbol NAME (a Thumb function's without its mode bit, as
 * `nm` prints it) into *addr: 0, or -1 when the image has no such symbol. */
int cli_elf_symbol(const cli_elf *e, const char *name, unsigned long *addr);

#endif
