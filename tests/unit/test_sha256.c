/* test_sha256.c - src/frontend/sha256.c against the FIPS 180-2 example
 * vectors: "", "abc", the two-block message, one million 'a',
 * and the padding edges (values from sha256sum). */
#include <stdlib.h>
#include <string.h>

#include "frontend/sha256.h"
#include "testlib.h"

static int hash_is(const char *msg, size_t n, const char *want)
{
    char hex[65];
    te_sha256_hex((const uint8_t *)msg, n, hex);
    return strcmp(hex, want) == 0;
}

int main(void)
{
    static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char *million = malloc(1000000);
    CHECK(hash_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    CHECK(hash_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    CHECK(hash_is(two_blocks, strlen(two_blocks),
                  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    CHECK(million != NULL);
    if (million) {
        memset(million, 'a', 1000000);
        CHECK(hash_is(million, 1000000,
                      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        /* the padding edges: 55 bytes (one final block), 56 (two), 64 */
        CHECK(hash_is(million, 55,
                      "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"));
        CHECK(hash_is(million, 56,
                      "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"));
        CHECK(hash_is(million, 64,
                      "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
    }
    free(million);
    return test_summary();
}
