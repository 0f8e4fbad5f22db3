/* elf32.c - section and symbol tables of a 32-bit little-endian ELF image
 * (the Cortex-M images `bench` links), read straight from the file: the
 * sizes `arm-none-eabi-size -A` and the addresses `arm-none-eabi-nm` would
 * print, without two processes per image. */
#include "elf32.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SHT_SYMTAB 2u
#define SHF_ALLOC 2u
#define STT_FUNC 2u
#define SHDR_BYTES 40u
#define SYM_BYTES 16u

static unsigned long u32(const unsigned char *p)
{
    return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
           (unsigned long)p[3] << 24;
}

static unsigned u16(const unsigned char *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

/* Section header i, or NULL when it lies outside the file. */
static const unsigned char *shdr(const cli_elf *e, unsigned i)
{
    unsigned long off = u32(e->bytes + 0x20), n = u16(e->bytes + 0x30);
    if (i >= n || off > e->n || (e->n - off) / SHDR_BYTES <= i)
        return NULL;
    return e->bytes + off + (size_t)i * SHDR_BYTES;
}

/* The bytes of the section whose header is h, or NULL when outside the file. */
static const unsigned char *body(const cli_elf *e, const unsigned char *h)
{
    unsigned long off = u32(h + 16), size = u32(h + 20);
    return off <= e->n && size <= e->n - off ? e->bytes + off : NULL;
}

/* The NUL-terminated string at offset `at` of string table h, or NULL. */
static const char *string_at(const cli_elf *e, const unsigned char *h, unsigned long at)
{
    const unsigned char *s = h ? body(e, h) : NULL;
    unsigned long size = h ? u32(h + 20) : 0;
    if (!s || at >= size || !memchr(s + at, 0, size - at))
        return NULL;
    return (const char *)s + at;
}

int cli_elf_open(cli_elf *e, const char *path)
{
    static const unsigned char magic[6] = {0x7f, 'E', 'L', 'F', 1, 1}; /* 32-bit, little-endian */
    e->bytes = cli_read_file(path, &e->n);
    if (!e->bytes)
        return -1;
    if (e->n < 0x34 || memcmp(e->bytes, magic, sizeof magic) != 0 ||
        u16(e->bytes + 0x2e) != SHDR_BYTES) {
        cli_elf_close(e);
        return cli_error("bench: %s is not a 32-bit little-endian ELF image", path), -1;
    }
    return 0;
}

void cli_elf_close(cli_elf *e)
{
    free(e->bytes);
    e->bytes = NULL;
    e->n = 0;
}

int cli_elf_sections(const cli_elf *e, void (*fn)(const cli_elf_section *, void *), void *ctx)
{
    const unsigned char *names = shdr(e, u16(e->bytes + 0x32)), *h;
    unsigned i;
    for (i = 1; (h = shdr(e, i)) != NULL; i++) {
        cli_elf_section s;
        if (!(u32(h + 8) & SHF_ALLOC))
            continue;
        if (!(s.name = string_at(e, names, u32(h))))
            return -1;
        s.addr = u32(h + 12);
        s.size = u32(h + 20);
        fn(&s, ctx);
    }
    return 0;
}

int cli_elf_symbol(const cli_elf *e, const char *name, unsigned long *addr)
{
    const unsigned char *h, *syms;
    unsigned i;
    unsigned long k, n;
    for (i = 1; (h = shdr(e, i)) != NULL; i++) {
        if (u32(h + 4) != SHT_SYMTAB || !(syms = body(e, h)))
            continue;
        n = u32(h + 20) / SYM_BYTES;
        for (k = 1; k < n; k++) {
            const unsigned char *sym = syms + k * SYM_BYTES;
            const char *s = string_at(e, shdr(e, (unsigned)u32(h + 24)), u32(sym));
            if (s && !strcmp(s, name)) {
                *addr = u32(sym + 4);
                if ((sym[12] & 15u) == STT_FUNC)
                    *addr &= ~1ul; /* a Thumb function's mode bit */
                return 0;
            }
        }
    }
    return -1;
}
