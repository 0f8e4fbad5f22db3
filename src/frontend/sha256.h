/* sha256.h - SHA-256 (FIPS 180-4) of a byte string, for the model hash the
 * generated files name. */
#ifndef TE_SHA256_H
#define TE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* The 32-byte digest of data[0..size). */
void te_sha256(const uint8_t *data, size_t size, uint8_t digest[32]);

/* The same as 64 lowercase hex digits and a NUL. */
void te_sha256_hex(const uint8_t *data, size_t size, char hex[65]);

#endif
