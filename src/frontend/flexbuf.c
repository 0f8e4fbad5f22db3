/* flexbuf.c - scalar entries of a FlexBuffers map (see flexbuf.h).
 *
 * The format, as far as a map of scalars goes: the buffer ends with the
 * root's byte width and its packed type (type << 2 | log2 of the width of
 * what it points to).  A map is reached through an unsigned offset
 * backwards; before it lie, each `w` bytes wide, the offset to its key
 * vector, that vector's element width and the number of entries; after
 * its `size` values of `w` bytes come `size` packed type bytes.  Inline
 * scalars take the width of the vector or map holding them; indirect ones
 * are an offset to a scalar of their own packed width.  Keys are offsets
 * to NUL-terminated strings. */
#include "flexbuf.h"

#include <math.h>
#include <string.h>

enum {
    FLEX_NULL = 0,
    FLEX_INT = 1,
    FLEX_UINT = 2,
    FLEX_FLOAT = 3,
    FLEX_INDIRECT_INT = 6,
    FLEX_INDIRECT_UINT = 7,
    FLEX_INDIRECT_FLOAT = 8,
    FLEX_MAP = 9,
    FLEX_BOOL = 26
};

typedef struct {
    const uint8_t *p;
    size_t n;
} flex_buf;

/* Zero-extended little-endian read of w bytes at pos: 0, or -1 when it
 * does not fit in the buffer. */
static int read_u(const flex_buf *b, size_t pos, size_t w, uint64_t *out)
{
    size_t k;
    uint64_t v = 0;
    if (w == 0 || w > 8 || pos > b->n || b->n - pos < w)
        return -1;
    for (k = 0; k < w; k++)
        v |= (uint64_t)b->p[pos + k] << (8 * k);
    *out = v;
    return 0;
}

static int read_i(const flex_buf *b, size_t pos, size_t w, int64_t *out)
{
    uint64_t u;
    if (read_u(b, pos, w, &u) < 0)
        return -1;
    if (w < 8 && (u >> (8 * w - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * w); /* sign-extend */
    *out = (int64_t)u;
    return 0;
}

/* FlexBuffers' ReadDouble: 4 and 8 bytes are IEEE floats; 1 and 2 bytes
 * are read as signed integers, as its sized-scalar read does. */
static int read_f(const flex_buf *b, size_t pos, size_t w, double *out)
{
    uint64_t u;
    if (w < 4) {
        int64_t i;
        if (read_i(b, pos, w, &i) < 0)
            return -1;
        *out = (double)i;
        return 0;
    }
    if (read_u(b, pos, w, &u) < 0)
        return -1;
    if (w == 4) {
        uint32_t u32 = (uint32_t)u;
        float f;
        memcpy(&f, &u32, 4);
        *out = (double)f;
    } else {
        memcpy(out, &u, 8);
    }
    return 0;
}

/* The position an offset of width w at pos points back to. */
static int indirect(const flex_buf *b, size_t pos, size_t w, size_t *to)
{
    uint64_t off;
    if (read_u(b, pos, w, &off) < 0 || off > pos)
        return -1;
    *to = pos - (size_t)off;
    return 0;
}

static int valid_width(uint64_t w) { return w == 1 || w == 2 || w == 4 || w == 8; }

/* The scalar at pos: parent_w is the width of the vector/map slot holding
 * it, packed its packed type byte. */
static int read_scalar(const flex_buf *b, size_t pos, size_t parent_w, uint8_t packed,
                       te_flex_value *v)
{
    size_t own_w = (size_t)1 << (packed & 3), at;
    int type = packed >> 2;
    memset(v, 0, sizeof *v);
    switch (type) {
    case FLEX_NULL: v->kind = TE_FLEX_NULL; return 0;
    case FLEX_INT: v->kind = TE_FLEX_INT; return read_i(b, pos, parent_w, &v->i);
    case FLEX_UINT: v->kind = TE_FLEX_UINT; return read_u(b, pos, parent_w, &v->u);
    case FLEX_FLOAT: v->kind = TE_FLEX_FLOAT; return read_f(b, pos, parent_w, &v->f);
    case FLEX_BOOL:
        v->kind = TE_FLEX_BOOL;
        if (read_u(b, pos, parent_w, &v->u) < 0)
            return -1;
        v->i = v->u != 0;
        return 0;
    case FLEX_INDIRECT_INT:
    case FLEX_INDIRECT_UINT:
    case FLEX_INDIRECT_FLOAT:
        if (indirect(b, pos, parent_w, &at) < 0)
            return -1;
        if (type == FLEX_INDIRECT_INT) {
            v->kind = TE_FLEX_INT;
            return read_i(b, at, own_w, &v->i);
        }
        if (type == FLEX_INDIRECT_UINT) {
            v->kind = TE_FLEX_UINT;
            return read_u(b, at, own_w, &v->u);
        }
        v->kind = TE_FLEX_FLOAT;
        return read_f(b, at, own_w, &v->f);
    default: v->kind = TE_FLEX_OTHER; return 0;
    }
}

/* Key i of the key vector at keys (element width kw) equals key. */
static int key_matches(const flex_buf *b, size_t keys, size_t kw, uint64_t i, const char *key)
{
    size_t at, len = strlen(key);
    if (indirect(b, keys + (size_t)i * kw, kw, &at) < 0)
        return -1;
    if (at > b->n || b->n - at < len + 1)
        return -1;
    if (!memchr(b->p + at, '\0', b->n - at))
        return -1;
    return memcmp(b->p + at, key, len + 1) == 0;
}

int te_flex_map_get(const uint8_t *buf, size_t n, const char *key, te_flex_value *v)
{
    flex_buf b;
    uint64_t root_w, size, kw, i;
    uint8_t packed;
    size_t map, keys, w;
    b.p = buf;
    b.n = n;
    memset(v, 0, sizeof *v);
    if (!buf || n < 3)
        return -1;
    root_w = buf[n - 1];
    packed = buf[n - 2];
    if (!valid_width(root_w) || n - 2 < root_w || (packed >> 2) != FLEX_MAP)
        return -1;
    w = (size_t)1 << (packed & 3);
    if (indirect(&b, n - 2 - (size_t)root_w, (size_t)root_w, &map) < 0 || map < 3 * w ||
        read_u(&b, map - w, w, &size) < 0 || read_u(&b, map - 2 * w, w, &kw) < 0 ||
        !valid_width(kw) || indirect(&b, map - 3 * w, w, &keys) < 0)
        return -1;
    /* the values, their type bytes and the keys all inside the buffer */
    if (size > (uint64_t)(n / (w + 1)) || map > n || n - map < (size_t)size * (w + 1) ||
        keys > n || (n - keys) / kw < size)
        return -1;
    for (i = 0; i < size; i++) {
        int m = key_matches(&b, keys, (size_t)kw, i, key);
        if (m < 0)
            return -1;
        if (m)
            return read_scalar(&b, map + (size_t)i * w, w, buf[map + (size_t)size * w + i], v);
    }
    return 0; /* absent: null */
}

/* A double's value as int64 the way a cast does, 0 past int64's range. */
static int64_t double_to_i64(double f)
{
    if (!(f > -9223372036854775808.0 && f < 9223372036854775808.0))
        return 0;
    return (int64_t)f;
}

int32_t te_flex_as_int32(const te_flex_value *v)
{
    switch (v->kind) {
    case TE_FLEX_INT:
    case TE_FLEX_BOOL: return (int32_t)(uint32_t)(uint64_t)v->i;
    case TE_FLEX_UINT: return (int32_t)(uint32_t)v->u;
    case TE_FLEX_FLOAT: return (int32_t)(uint32_t)(uint64_t)double_to_i64(v->f);
    default: return 0;
    }
}

float te_flex_as_float(const te_flex_value *v)
{
    switch (v->kind) {
    case TE_FLEX_INT:
    case TE_FLEX_BOOL: return (float)(double)v->i;
    case TE_FLEX_UINT: return (float)(double)v->u;
    case TE_FLEX_FLOAT: return (float)v->f;
    default: return 0.0f;
    }
}

int te_flex_as_bool(const te_flex_value *v)
{
    switch (v->kind) {
    case TE_FLEX_INT:
    case TE_FLEX_BOOL: return v->i != 0;
    case TE_FLEX_UINT: return v->u != 0;
    case TE_FLEX_FLOAT: return double_to_i64(v->f) != 0;
    default: return 0;
    }
}
