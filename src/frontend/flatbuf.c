/* flatbuf.c - bounds-checked FlatBuffer access (see flatbuf.h).
 *
 * Layout reminders: a uoffset is an unsigned 32-bit forward offset from its
 * own position; a table starts with a signed 32-bit offset back to its
 * vtable (vtable = table - soffset); a vtable is u16 vtable bytes, u16 table
 * bytes, then one u16 per field (0 = absent) relative to the table start; a
 * vector or string is a u32 element count followed by the elements. */
#include "flatbuf.h"

#include <stdlib.h>
#include <string.h>

uint16_t fb_rd_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t fb_rd_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

uint64_t fb_rd_u64(const uint8_t *p)
{
    return (uint64_t)fb_rd_u32(p) | ((uint64_t)fb_rd_u32(p + 4) << 32);
}

/* 1 when [pos, pos + n) lies inside the image. */
static int in_bounds(const fb_buf *b, size_t pos, uint64_t n)
{
    return pos <= b->size && n <= (uint64_t)(b->size - pos);
}

static int bad(const fb_buf *b, const char *what, size_t pos, const char *problem)
{
    return te_fail(b->d, "invalid model: %s at byte offset %lu: %s (file is %lu bytes)",
                   what, (unsigned long)pos, problem, (unsigned long)b->size);
}

/* Follows the uoffset stored at pos; *target is where it points. */
static int follow(const fb_buf *b, size_t pos, const char *what, size_t *target)
{
    uint32_t off;
    if (!in_bounds(b, pos, 4))
        return bad(b, what, pos, "offset field past the end of the file");
    off = fb_rd_u32(b->data + pos);
    if (!in_bounds(b, pos, (uint64_t)off + 1))
        return bad(b, what, pos, "offset points past the end of the file");
    *target = pos + off;
    return 0;
}

int fb_table_at(const fb_buf *b, size_t pos, const char *what, fb_table *t)
{
    int64_t vt;
    if (!in_bounds(b, pos, 4))
        return bad(b, what, pos, "table past the end of the file");
    vt = (int64_t)pos - (int64_t)(int32_t)fb_rd_u32(b->data + pos);
    if (vt < 0 || !in_bounds(b, (size_t)vt, 4))
        return bad(b, what, pos, "vtable offset out of range");
    t->b = b;
    t->depth = 1;
    t->pos = pos;
    t->vt = (size_t)vt;
    t->vt_size = fb_rd_u16(b->data + t->vt);
    t->tsize = fb_rd_u16(b->data + t->vt + 2);
    t->what = what;
    if (t->vt_size < 4 || (t->vt_size & 1) || !in_bounds(b, t->vt, t->vt_size))
        return bad(b, what, pos, "malformed vtable (bad size or past the end of the file)");
    if (t->tsize < 4 || !in_bounds(b, pos, t->tsize))
        return bad(b, what, pos, "table size runs past the end of the file");
    return 0;
}

int fb_root(const fb_buf *b, const char *what, fb_table *t)
{
    size_t pos = 0;
    if (b->size < 8)
        return bad(b, what, 0, "file too small to be a FlatBuffer");
    if (follow(b, 0, what, &pos))
        return -1;
    return fb_table_at(b, pos, what, t);
}

int fb_field(const fb_table *t, int id, size_t width, size_t *pos)
{
    size_t slot = 4 + 2 * (size_t)id;
    uint16_t off;
    *pos = 0;
    if (id < 0 || slot + 2 > t->vt_size)
        return 0;
    off = fb_rd_u16(t->b->data + t->vt + slot);
    if (off == 0)
        return 0;
    if (off < 4 || (size_t)off + width > t->tsize)
        return te_fail(t->b->d,
                       "invalid model: %s at byte offset %lu: field %d lies outside its %lu-byte table",
                       t->what, (unsigned long)t->pos, id, (unsigned long)t->tsize);
    *pos = t->pos + off;
    return 0;
}

/* Reads a little-endian scalar of width bytes into a u64, or reports absent. */
static int scalar(const fb_table *t, int id, size_t width, uint64_t *v, int *present)
{
    size_t pos = 0;
    *present = 0;
    if (fb_field(t, id, width, &pos))
        return -1;
    if (!pos)
        return 0;
    *present = 1;
    switch (width) {
    case 1: *v = t->b->data[pos]; break;
    case 2: *v = fb_rd_u16(t->b->data + pos); break;
    case 4: *v = fb_rd_u32(t->b->data + pos); break;
    default: *v = fb_rd_u64(t->b->data + pos); break;
    }
    return 0;
}

int fb_u8(const fb_table *t, int id, uint8_t def, uint8_t *out)
{
    uint64_t v = 0;
    int present;
    if (scalar(t, id, 1, &v, &present))
        return -1;
    *out = present ? (uint8_t)v : def;
    return 0;
}

int fb_i8(const fb_table *t, int id, int8_t def, int8_t *out)
{
    uint8_t v;
    if (fb_u8(t, id, (uint8_t)def, &v))
        return -1;
    *out = (int8_t)(v < 128 ? (int)v : (int)v - 256);
    return 0;
}

int fb_u32(const fb_table *t, int id, uint32_t def, uint32_t *out)
{
    uint64_t v = 0;
    int present;
    if (scalar(t, id, 4, &v, &present))
        return -1;
    *out = present ? (uint32_t)v : def;
    return 0;
}

int fb_i32(const fb_table *t, int id, int32_t def, int32_t *out)
{
    uint32_t v;
    if (fb_u32(t, id, (uint32_t)def, &v))
        return -1;
    *out = v <= INT32_MAX ? (int32_t)v : (int32_t)(v - 2147483648u) - INT32_MAX - 1;
    return 0;
}

int fb_u64(const fb_table *t, int id, uint64_t def, uint64_t *out)
{
    uint64_t v = 0;
    int present;
    if (scalar(t, id, 8, &v, &present))
        return -1;
    *out = present ? v : def;
    return 0;
}

int fb_f32(const fb_table *t, int id, float def, float *out)
{
    uint64_t v = 0;
    uint32_t bits;
    int present;
    if (scalar(t, id, 4, &v, &present))
        return -1;
    if (!present) {
        *out = def;
        return 0;
    }
    bits = (uint32_t)v;
    memcpy(out, &bits, sizeof *out);
    return 0;
}

/* The table at pos, one level below a table or vector at depth `parent`. */
static int child_table(const fb_buf *b, size_t pos, int parent, const char *what, fb_table *out)
{
    if (parent >= FB_MAX_DEPTH)
        return bad(b, what, pos, "tables nested more than 64 deep");
    if (fb_table_at(b, pos, what, out))
        return -1;
    out->depth = parent + 1;
    return 0;
}

int fb_table_field(const fb_table *t, int id, const char *what, fb_table *out,
                   int *present)
{
    size_t pos = 0, target = 0;
    *present = 0;
    if (fb_field(t, id, 4, &pos))
        return -1;
    if (!pos)
        return 0;
    if (follow(t->b, pos, what, &target) || child_table(t->b, target, t->depth, what, out))
        return -1;
    *present = 1;
    return 0;
}

/* Validates the vector whose length word is at pos. */
static int vec_at(const fb_buf *b, size_t pos, size_t elem, const char *what, fb_vec *v)
{
    if (!in_bounds(b, pos, 4))
        return bad(b, what, pos, "vector length past the end of the file");
    v->len = fb_rd_u32(b->data + pos);
    if (v->len > INT32_MAX) /* FlatBuffers stay below 2 GiB; callers use int counts */
        return bad(b, what, pos, "vector length is more than 2^31-1");
    if (!in_bounds(b, pos + 4, (uint64_t)v->len * elem))
        return bad(b, what, pos, "vector runs past the end of the file");
    v->b = b;
    v->pos = pos + 4;
    v->elem = elem;
    v->present = 1;
    v->what = what;
    return 0;
}

int fb_vec_field(const fb_table *t, int id, size_t elem, const char *what, fb_vec *v)
{
    size_t pos = 0, target = 0;
    memset(v, 0, sizeof *v);
    v->b = t->b;
    v->depth = t->depth;
    v->elem = elem;
    v->what = what;
    if (fb_field(t, id, 4, &pos))
        return -1;
    if (!pos)
        return 0;
    if (follow(t->b, pos, what, &target))
        return -1;
    return vec_at(t->b, target, elem, what, v);
}

static char *copy_bytes(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    if (n)
        memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

int fb_str_field(const fb_table *t, int id, const char *what, char **out)
{
    fb_vec v;
    *out = NULL;
    if (fb_vec_field(t, id, 1, what, &v))
        return -1;
    *out = copy_bytes(v.len ? t->b->data + v.pos : NULL, v.len);
    if (!*out)
        return te_fail(t->b->d, "out of memory reading %s", what);
    return 0;
}

uint8_t fb_vec_u8(const fb_vec *v, uint32_t i)
{
    return v->b->data[v->pos + i];
}

int32_t fb_vec_i32(const fb_vec *v, uint32_t i)
{
    uint32_t u = fb_rd_u32(v->b->data + v->pos + (size_t)i * 4);
    return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) - INT32_MAX - 1;
}

int64_t fb_vec_i64(const fb_vec *v, uint32_t i)
{
    uint64_t u = fb_rd_u64(v->b->data + v->pos + (size_t)i * 8);
    return u <= INT64_MAX ? (int64_t)u : (int64_t)(u - 9223372036854775808u) - INT64_MAX - 1;
}

float fb_vec_f32(const fb_vec *v, uint32_t i)
{
    uint32_t u = fb_rd_u32(v->b->data + v->pos + (size_t)i * 4);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

int fb_vec_table(const fb_vec *v, uint32_t i, const char *what, fb_table *out)
{
    size_t target = 0;
    if (follow(v->b, v->pos + (size_t)i * 4, what, &target))
        return -1;
    return child_table(v->b, target, v->depth, what, out);
}
