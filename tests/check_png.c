/* check_png.c - Check suite for png.c and atomic.c.
 *
 * Every expectation is independent of the code under test:
 *   - unpremultiplied values come from cairo's formula written out here,
 *     from hand-computed literals, and from cairo itself (its writer's PNG
 *     decoded by a plain libpng reader in this file, and its reader, whose
 *     re-premultiplication must give back the original pixels exactly);
 *   - reader inputs of every color type are written here with libpng and
 *     their expected RGBA is derived here by pngjs's rules (scaleDepth's
 *     floor(v * 255 / max + 0.5) in long double, color keys to 0,0,0,0);
 *   - hostile files are built byte by byte with a CRC-32 written here;
 *   - atomic writes are checked from outside: directory listings, a child
 *     killed with SIGKILL mid-write, RLIMIT_FSIZE, /dev/full, a read-only
 *     folder (as an unprivileged user when run as root), a full tmpfs where
 *     mounting is allowed.
 * Run once under valgrind: CK_FORK=no valgrind --leak-check=full
 * --error-exitcode=1 tests/check_png
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <cairo.h>
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "pngio.h"
#include "pngio-int.h"
#include "testutil.h"

#include <png.h>

/* ------------------------------------------------------------ helpers */

static char tmpdir[256];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/check_png.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    chmod(tmpdir, 0755);
}

static void setup(void)
{
    umask(022);
    make_tmpdir();
}

static void teardown(void)
{
    rf_test_rm_rf(tmpdir);
}

/* Names in dir (excluding . and ..), joined by '|' in sorted order. */
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_dir(const char *dir, char *out, size_t len)
{
    char *names[256];
    int n = 0;
    DIR *d = opendir(dir);
    out[0] = '\0';
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 256) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, name_cmp);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strncat(out, "|", len - strlen(out) - 1);
        strncat(out, names[i], len - strlen(out) - 1);
        free(names[i]);
    }
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    *len = fread(p, 1, (size_t)n, f);
    fclose(f);
    return p;
}

static void spit(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* CRC-32 of PNG (ISO 3309), bitwise: an implementation independent of
 * zlib's tables. */
static uint32_t crc32_png(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Appends one chunk (length, type, data, CRC) at out + *pos. */
static void put_chunk(uint8_t *out, size_t *pos, const char *type, const uint8_t *data,
                      uint32_t len)
{
    put32(out + *pos, len);
    memcpy(out + *pos + 4, type, 4);
    if (len > 0)
        memcpy(out + *pos + 8, data, len);
    put32(out + *pos + 8 + len, crc32_png(out + *pos + 4, len + 4));
    *pos += 12 + len;
}

/* Offset of the first chunk of the given type in a PNG, or 0. */
static size_t find_chunk(const uint8_t *png, size_t len, const char *type)
{
    size_t pos = 8;
    while (pos + 12 <= len) {
        uint32_t n = get32(png + pos);
        if (memcmp(png + pos + 4, type, 4) == 0)
            return pos;
        pos += 12 + n;
    }
    return 0;
}

static const uint8_t png_sig[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };

/* A hand-made PNG: signature and IHDR with the given fields, then (when
 * with_data) one IDAT of a tiny 1x1 gray zlib stream and IEND. */
static size_t hand_png(uint8_t *out, uint32_t w, uint32_t h, uint8_t depth, uint8_t ct,
                       int with_data)
{
    size_t pos = 0;
    memcpy(out, png_sig, 8);
    pos = 8;
    uint8_t ihdr[13];
    put32(ihdr, w);
    put32(ihdr + 4, h);
    ihdr[8] = depth;
    ihdr[9] = ct;
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    put_chunk(out, &pos, "IHDR", ihdr, 13);
    if (with_data) {
        /* zlib stored block of the row "\0\0" (filter 0, gray 0) */
        static const uint8_t z[] = { 0x78, 0x01, 0x01, 0x02, 0x00, 0xfd, 0xff, 0x00, 0x00,
                                     0x00, 0x02, 0x00, 0x01 };
        put_chunk(out, &pos, "IDAT", z, sizeof z);
        put_chunk(out, &pos, "IEND", NULL, 0);
    }
    return pos;
}

/* ------------------------------------------- libpng-written test inputs */

typedef struct membuf {
    uint8_t *data;
    size_t len, cap;
} membuf_t;

static void mem_write(png_structp png, png_bytep data, size_t len)
{
    membuf_t *m = png_get_io_ptr(png);
    if (m->len + len > m->cap) {
        m->cap = (m->len + len) * 2 + 1024;
        m->data = realloc(m->data, m->cap);
    }
    memcpy(m->data + m->len, data, len);
    m->len += len;
}

static void mem_flush(png_structp png)
{
    (void)png;
}

typedef struct gen {
    int ct, depth, interlace;
    uint32_t w, h;
    const uint16_t *samples;   /* w * h * channels, row-major */
    const png_color *palette;
    int npal;
    const uint8_t *trans_alpha;
    int ntrans;
    int key;                   /* a color key (gray/RGB tRNS) */
    uint16_t key_r, key_g, key_b;
    int extra_chunks;          /* 1: gAMA + zTXt, 2: sRGB + zTXt */
} gen_t;

static int channels_of(int ct)
{
    switch (ct) {
    case PNG_COLOR_TYPE_GRAY: return 1;
    case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
    case PNG_COLOR_TYPE_RGB: return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
    default: return 1;   /* palette */
    }
}

/* Writes the image described by g with libpng; returns the PNG bytes. */
static uint8_t *gen_png(const gen_t *g, size_t *len)
{
    membuf_t m = { 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    ck_assert_ptr_nonnull(info);
    int ch = channels_of(g->ct);
    size_t rowbytes = ((size_t)g->w * ch * g->depth + 7) / 8;
    uint8_t **rows = calloc(g->h, sizeof *rows);
    for (uint32_t y = 0; y < g->h; y++) {
        rows[y] = calloc(rowbytes + 1, 1);
        for (uint32_t x = 0; x < g->w; x++) {
            for (int c = 0; c < ch; c++) {
                uint32_t v = g->samples[((size_t)y * g->w + x) * ch + c];
                size_t k = (size_t)x * ch + c;   /* sample index in the row */
                if (g->depth == 16) {
                    rows[y][2 * k] = (uint8_t)(v >> 8);
                    rows[y][2 * k + 1] = (uint8_t)v;
                } else if (g->depth == 8) {
                    rows[y][k] = (uint8_t)v;
                } else {   /* packed, most significant bits first */
                    size_t bit = k * g->depth;
                    rows[y][bit / 8] |= (uint8_t)(v << (8 - g->depth - bit % 8));
                }
            }
        }
    }
    if (setjmp(png_jmpbuf(png)))
        ck_abort_msg("libpng failed writing a test image");
    png_set_write_fn(png, &m, mem_write, mem_flush);
    png_set_IHDR(png, info, g->w, g->h, g->depth, g->ct,
                 g->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (g->ct == PNG_COLOR_TYPE_PALETTE) {
        png_set_PLTE(png, info, g->palette, g->npal);
        png_set_check_for_invalid_index(png, 0);   /* tests write bad indices */
    }
    if (g->ntrans > 0)
        png_set_tRNS(png, info, g->trans_alpha, g->ntrans, NULL);
    if (g->key) {
        png_color_16 kc = { 0, g->key_r, g->key_g, g->key_b, g->key_r };
        png_set_tRNS(png, info, NULL, 1, &kc);
    }
    if (g->extra_chunks) {
        if (g->extra_chunks == 2)
            png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
        else
            png_set_gAMA(png, info, 0.3);   /* would darken a lot if applied */
        png_text t = { PNG_TEXT_COMPRESSION_zTXt, "Comment", "ignored text", 0, 0, 0, 0 };
        png_set_text(png, info, &t, 1);
    }
    png_write_info(png, info);
    if (g->interlace)
        png_set_interlace_handling(png);
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    for (uint32_t y = 0; y < g->h; y++)
        free(rows[y]);
    free(rows);
    *len = m.len;
    return m.data;
}

/* pngjs's scaleDepth: Math.floor(v * 255 / (2^d - 1) + 0.5). */
static uint8_t pngjs_scale(uint32_t v, int depth)
{
    long double max = (long double)((1u << depth) - 1u);
    return (uint8_t)floorl((long double)v * 255.0L / max + 0.5L);
}

/* The RGBA pngjs produces for the image of g, by its rules. */
static uint8_t *expected_rgba(const gen_t *g)
{
    int ch = channels_of(g->ct);
    uint8_t *out = malloc((size_t)g->w * g->h * 4);
    for (size_t i = 0; i < (size_t)g->w * g->h; i++) {
        const uint16_t *s = g->samples + i * ch;
        uint8_t *o = out + 4 * i;
        int d = g->depth;
        switch (g->ct) {
        case PNG_COLOR_TYPE_GRAY:
            o[0] = o[1] = o[2] = d == 8 ? (uint8_t)s[0] : pngjs_scale(s[0], d);
            o[3] = 255;
            if (g->key && s[0] == g->key_r)
                memset(o, 0, 4);
            break;
        case PNG_COLOR_TYPE_RGB:
            for (int c = 0; c < 3; c++)
                o[c] = d == 8 ? (uint8_t)s[c] : pngjs_scale(s[c], d);
            o[3] = 255;
            if (g->key && s[0] == g->key_r && s[1] == g->key_g && s[2] == g->key_b)
                memset(o, 0, 4);
            break;
        case PNG_COLOR_TYPE_PALETTE:
            o[0] = g->palette[s[0]].red;
            o[1] = g->palette[s[0]].green;
            o[2] = g->palette[s[0]].blue;
            o[3] = s[0] < g->ntrans ? g->trans_alpha[s[0]] : 255;
            break;
        case PNG_COLOR_TYPE_GRAY_ALPHA:
            o[0] = o[1] = o[2] = d == 8 ? (uint8_t)s[0] : pngjs_scale(s[0], d);
            o[3] = d == 8 ? (uint8_t)s[1] : pngjs_scale(s[1], d);
            break;
        default:
            for (int c = 0; c < 4; c++)
                o[c] = d == 8 ? (uint8_t)s[c] : pngjs_scale(s[c], d);
            break;
        }
    }
    return out;
}

/* Sample values covering 0 .. max in a pattern that varies along x, y and
 * channel. */
static uint16_t *pattern(uint32_t w, uint32_t h, int ch, uint32_t max)
{
    uint16_t *s = malloc((size_t)w * h * ch * sizeof *s);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (int c = 0; c < ch; c++) {
                uint64_t v = (uint64_t)x * 7919u + (uint64_t)y * 104729u +
                             (uint64_t)c * 15485863u + (uint64_t)x * y * 31u;
                s[((size_t)y * w + x) * ch + c] = (uint16_t)(v % (max + 1u));
            }
    return s;
}

/* Decodes png with our reader and asserts it equals want. */
static void assert_decodes_to(const uint8_t *png, size_t len, const uint8_t *want,
                              uint32_t w, uint32_t h)
{
    rf_png_rgba_t img;
    rf_png_error_t err;
    rf_png_status_t st = rf_png_read_mem(png, len, "test", &img, &err);
    ck_assert_msg(st == RF_PNG_SUCCESS, "decode failed: %s", err.message);
    ck_assert_uint_eq(img.width, w);
    ck_assert_uint_eq(img.height, h);
    for (size_t i = 0; i < (size_t)w * h * 4; i++) {
        if (img.pixels[i] != want[i])
            ck_abort_msg("pixel %zu (x %zu, y %zu) channel %zu: got %u, want %u", i / 4,
                         (i / 4) % w, (i / 4) / w, i % 4, img.pixels[i], want[i]);
    }
    rf_png_rgba_destroy(&img);
}

/* Generates g with libpng, decodes it with ours, compares with pngjs's
 * rules; also the same image interlaced, which must decode identically. */
static void check_gen(gen_t *g)
{
    uint8_t *want = expected_rgba(g);
    for (int il = 0; il <= 1; il++) {
        g->interlace = il;
        size_t len;
        uint8_t *png = gen_png(g, &len);
        assert_decodes_to(png, len, want, g->w, g->h);
        free(png);
    }
    g->interlace = 0;
    free(want);
}

/* ------------------------------------------------ a plain libpng reader */

/* Reads an 8-bit RGB or RGBA, non-interlaced PNG (what both writers make)
 * with no transformations; RGB gets alpha 255. Returns RGBA and the color
 * type. Independent of png.c's conversions. */
static uint8_t *plain_decode(const uint8_t *data, size_t len, uint32_t *w, uint32_t *h,
                             int *ct)
{
    FILE *f = fmemopen((void *)data, len, "rb");
    ck_assert_ptr_nonnull(f);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png)))
        ck_abort_msg("plain libpng decode failed");
    png_init_io(png, f);
    png_read_info(png, info);
    *w = png_get_image_width(png, info);
    *h = png_get_image_height(png, info);
    *ct = png_get_color_type(png, info);
    ck_assert_int_eq(png_get_bit_depth(png, info), 8);
    ck_assert_int_eq(png_get_interlace_type(png, info), PNG_INTERLACE_NONE);
    ck_assert(*ct == PNG_COLOR_TYPE_RGB || *ct == PNG_COLOR_TYPE_RGB_ALPHA);
    int ch = *ct == PNG_COLOR_TYPE_RGB ? 3 : 4;
    uint8_t *row = malloc((size_t)*w * ch);
    uint8_t *out = malloc((size_t)*w * *h * 4);
    for (uint32_t y = 0; y < *h; y++) {
        png_read_row(png, row, NULL);
        for (uint32_t x = 0; x < *w; x++) {
            uint8_t *o = out + ((size_t)y * *w + x) * 4;
            memcpy(o, row + (size_t)x * ch, (size_t)ch);
            if (ch == 3)
                o[3] = 255;
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    fclose(f);
    return out;
}

/* ------------------------------------------------------ frames, cairo */

/* cairo's unpremultiply, written out: (c * 255 + a / 2) / a stored in a
 * uint8_t (so taken mod 256 when c > a), 0 for alpha 0. */
static uint8_t cairo_unpremul(uint32_t c, uint32_t a)
{
    if (a == 0)
        return 0;
    return (uint8_t)((c * 255u + a / 2u) / a);
}

static uint32_t argb(uint32_t a, uint32_t r, uint32_t g, uint32_t b)
{
    return a << 24 | r << 16 | g << 8 | b;
}

/* A 256 x 256 frame: pixel (x, y) has alpha y and colors derived from x.
 * valid_only keeps every color <= alpha (what cairo draws); otherwise
 * colors take every value 0..255 regardless of alpha. */
static cairo_surface_t *grid_surface(int valid_only)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 256, 256);
    uint8_t *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    for (uint32_t a = 0; a < 256; a++) {
        uint32_t *row = (uint32_t *)(void *)(d + (size_t)a * stride);
        for (uint32_t x = 0; x < 256; x++) {
            uint32_t r = x, g = 255 - x, b = (x * 7) & 255;
            if (valid_only) {
                r = r * a / 255;
                g = g * a / 255;
                b = b * a / 255;
            }
            row[x] = argb(a, r, g, b);
        }
    }
    cairo_surface_mark_dirty(s);
    return s;
}

static rf_png_frame_t frame_of(cairo_surface_t *s)
{
    cairo_surface_flush(s);
    rf_png_frame_t f = {
        (const uint32_t *)(const void *)cairo_image_surface_get_data(s),
        (uint32_t)cairo_image_surface_get_width(s),
        (uint32_t)cairo_image_surface_get_height(s),
        (size_t)cairo_image_surface_get_stride(s), 0
    };
    return f;
}

static cairo_status_t cairo_sink(void *closure, const unsigned char *data, unsigned int len)
{
    membuf_t *m = closure;
    if (m->len + len > m->cap) {
        m->cap = (m->len + len) * 2 + 1024;
        m->data = realloc(m->data, m->cap);
    }
    memcpy(m->data + m->len, data, len);
    m->len += len;
    return CAIRO_STATUS_SUCCESS;
}

typedef struct memsrc {
    const uint8_t *data;
    size_t len, pos;
} memsrc_t;

static cairo_status_t cairo_source(void *closure, unsigned char *data, unsigned int len)
{
    memsrc_t *m = closure;
    if (m->len - m->pos < len)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, m->data + m->pos, len);
    m->pos += len;
    return CAIRO_STATUS_SUCCESS;
}

static uint8_t ihdr_color_type(const uint8_t *png)
{
    ck_assert(memcmp(png, png_sig, 8) == 0);
    ck_assert(memcmp(png + 12, "IHDR", 4) == 0);
    return png[25];
}

/* rf_png_row_to_rgba's conversion, way mode: 0 the public call (the
 * machine's vector path), 1 the portable blocks (no SIMD, as without
 * AVX2), 2 in place with SIMD (rf_png_rows_to_rgba_inplace), 3 in place
 * without. */
static void to_rgba(uint8_t *dst, const uint32_t *src, size_t n, int mode)
{
    if (mode == 0) {
        rf_png_row_to_rgba(dst, src, n);
        return;
    }
    if (mode == 1) {
        pngio_rows_to_rgba(dst, src, n, 0);
        return;
    }
    uint32_t *buf = malloc(n * 4 + 4);
    rf_check(buf != NULL);
    memcpy(buf, src, n * 4);
    pngio_rows_to_rgba((uint8_t *)(void *)buf, buf, n, mode == 2);
    memcpy(dst, buf, n * 4);
    free(buf);
}

/* One converted pixel o against r, g, b, a (check's asserts are slow
 * when there are millions: this one only asserts on a miss). */
static void expect_px(const uint8_t *o, uint32_t r, uint32_t g, uint32_t b, uint32_t a,
                      int mode, uint32_t pa, uint32_t pc)
{
    if (o[0] != r || o[1] != g || o[2] != b || o[3] != a)
        ck_abort_msg("mode %d alpha %u channel %u: got %u %u %u %u, want %u %u %u %u", mode, pa,
                     pc, o[0], o[1], o[2], o[3], r, g, b, a);
}

/* ================================================================ tests */

START_TEST(unpremultiply_matches_cairo_formula_exhaustively)
{
    /* every (alpha, channel) pair, valid or not, in each channel slot */
    uint32_t src[256];
    uint8_t dst[256 * 4];
    for (uint32_t a = 0; a < 256; a++) {
        for (uint32_t c = 0; c < 256; c++)
            src[c] = argb(a, c, 255 - c, (c * 37) & 255);
        to_rgba(dst, src, 256, _i);
        for (uint32_t c = 0; c < 256; c++) {
            uint8_t *o = dst + 4 * c;
            expect_px(o, cairo_unpremul(c, a), cairo_unpremul(255 - c, a),
                      cairo_unpremul((c * 37) & 255, a), a, _i, a, c);
        }
    }
}
END_TEST

START_TEST(unpremultiply_mixed_blocks_exhaustively)
{
    /* the other way round: every alpha in one row, so each 16-pixel block
     * mixes alphas (opaque, transparent and translucent side by side),
     * and whole blocks of alpha 0 with colors (invalid: 0, 0, 0, 0) */
    uint32_t src[256 + 5];
    uint8_t dst[(256 + 5) * 4];
    for (uint32_t c = 0; c < 256; c++) {
        for (uint32_t a = 0; a < 256; a++)
            src[a] = argb(a, c, (c * 91 + a) & 255, 255 - c);
        for (uint32_t k = 0; k < 5; k++)
            src[256 + k] = argb(0, c, c, c);
        to_rgba(dst, src, 256 + 5, _i);
        for (uint32_t a = 0; a < 256; a++) {
            uint8_t *o = dst + 4 * a;
            expect_px(o, cairo_unpremul(c, a), cairo_unpremul((c * 91 + a) & 255, a),
                      cairo_unpremul(255 - c, a), a, _i, a, c);
        }
        for (uint32_t k = 0; k < 5 * 4; k++)
            rf_check_msg(dst[4 * 256 + k] == 0, "byte %u past the row", k);
    }
}
END_TEST

START_TEST(unpremultiply_uniform_blocks_exhaustively)
{
    /* one color over whole blocks (a translucent fill: converted once and
     * repeated), every alpha and channel; the odd length ends in a tail */
    enum { N = 16 * 3 + 5 };
    uint32_t src[N];
    uint8_t dst[N * 4];
    for (uint32_t a = 0; a < 256; a++)
        for (uint32_t c = 0; c < 256; c++) {
            uint32_t g = (c * 7 + a) & 255, b = 255 - c;
            for (int k = 0; k < N; k++)
                src[k] = argb(a, c, g, b);
            to_rgba(dst, src, N, _i);
            for (int k = 0; k < N; k++)
                expect_px(dst + 4 * k, cairo_unpremul(c, a), cairo_unpremul(g, a),
                          cairo_unpremul(b, a), a, _i, a, c);
        }
}
END_TEST

START_TEST(unpremultiply_hand_values)
{
    /* worked by hand: (c * 255 + a / 2) / a */
    static const struct { uint8_t a, c, want; } v[] = {
        { 1, 1, 255 },     /* (255 + 0) / 1 */
        { 2, 1, 128 },     /* (255 + 1) / 2 */
        { 3, 1, 85 },      /* 256 / 3 = 85.3 */
        { 127, 63, 126 },  /* (16065 + 63) / 127 = 16128 / 127 = 126.99 */
        { 127, 64, 129 },  /* (16320 + 63) / 127 = 16383 / 127 = 129 */
        { 254, 127, 128 }, /* (32385 + 127) / 254 = 32512 / 254 = 128 */
        { 254, 254, 255 }, /* (64770 + 127) / 254 = 255.5 */
        { 255, 200, 200 },
        { 0, 0, 0 },
        { 0, 200, 0 },     /* invalid, alpha 0: cairo writes 0 */
        { 1, 2, 254 },     /* invalid c > a: 510 kept to 8 bits = 254 */
        { 100, 200, 254 }, /* invalid: (51000 + 50) / 100 = 510 -> 254 */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint32_t p = argb(v[i].a, v[i].c, v[i].c, v[i].c);
        uint8_t o[4];
        rf_png_row_to_rgba(o, &p, 1);
        ck_assert_msg(o[0] == v[i].want && o[1] == v[i].want && o[2] == v[i].want &&
                      o[3] == v[i].a, "a %u c %u: got %u, want %u", v[i].a, v[i].c, o[0],
                      v[i].want);
    }
}
END_TEST

START_TEST(row_converters_every_length)
{
    /* lengths around the 16-pixel blocks; a guard byte after the output */
    uint32_t src[70] = { 0 };
    uint8_t rgb[70 * 3 + 8], rgba[70 * 4 + 8];
    for (size_t n = 0; n <= 70; n++) {
        for (size_t i = 0; i < n; i++)
            src[i] = argb(i % 5 == 3 && n > 40 ? 128 : 255, (uint32_t)(i * 3) & 127,
                          (uint32_t)(i * 5 + 1) & 127, (uint32_t)(i * 11 + 2) & 127);
        memset(rgb, 0xAA, sizeof rgb);
        memset(rgba, 0xAA, sizeof rgba);
        rf_png_row_to_rgb(rgb, src, n);
        rf_png_row_to_rgba(rgba, src, n);
        for (size_t i = 0; i < n; i++) {
            uint32_t p = src[i], a = p >> 24;
            ck_assert_uint_eq(rgb[3 * i], (p >> 16) & 255);
            ck_assert_uint_eq(rgb[3 * i + 1], (p >> 8) & 255);
            ck_assert_uint_eq(rgb[3 * i + 2], p & 255);
            ck_assert_uint_eq(rgba[4 * i], cairo_unpremul((p >> 16) & 255, a));
            ck_assert_uint_eq(rgba[4 * i + 1], cairo_unpremul((p >> 8) & 255, a));
            ck_assert_uint_eq(rgba[4 * i + 2], cairo_unpremul(p & 255, a));
            ck_assert_uint_eq(rgba[4 * i + 3], a);
        }
        ck_assert_uint_eq(rgb[3 * n], 0xAA);
        ck_assert_uint_eq(rgba[4 * n], 0xAA);
    }
}
END_TEST

START_TEST(opaque_scan_finds_any_pixel)
{
    /* widths with and without a block tail; one translucent pixel anywhere */
    static const uint32_t widths[] = { 1, 15, 16, 17, 33, 100 };
    for (size_t wi = 0; wi < 6; wi++) {
        uint32_t w = widths[wi], h = 3;
        size_t stride = (size_t)w * 4 + 12;   /* padding must be ignored */
        uint32_t *px = malloc(stride * h);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < stride / 4; x++)
                px[y * stride / 4 + x] = x < w ? argb(255, x & 255, y, 7) : 0;
        rf_png_frame_t f = { px, w, h, stride, 0 };
        ck_assert_int_eq(rf_png_frame_is_opaque(&f), 1);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint32_t *p = &px[y * stride / 4 + x];
                uint32_t saved = *p;
                *p = (*p & 0x00ffffffu) | 0xfe000000u;
                ck_assert_int_eq(rf_png_frame_is_opaque(&f), 0);
                *p = saved;
            }
        free(px);
    }
}
END_TEST

START_TEST(roundtrip_through_cairo_reader_is_exact)
{
    /* valid premultiplied pixels: unpremultiply (ours) then premultiply
     * (cairo's reader) gives every original pixel back */
    cairo_surface_t *s = grid_surface(1);
    rf_png_frame_t f = frame_of(s);
    rf_png_options_t opts[2] = { RF_PNG_OPTIONS_RENDER, RF_PNG_OPTIONS_GOLDEN };
    for (int k = 0; k < 2; k++) {
        rf_png_buffer_t out = { 0 };
        rf_png_error_t err;
        ck_assert_int_eq(rf_png_write_mem(&f, &opts[k], &out, &err), RF_PNG_SUCCESS);
        ck_assert_uint_eq(ihdr_color_type(out.data), PNG_COLOR_TYPE_RGB_ALPHA);
        memsrc_t src = { out.data, out.len, 0 };
        cairo_surface_t *back = cairo_image_surface_create_from_png_stream(cairo_source, &src);
        ck_assert_int_eq(cairo_surface_status(back), CAIRO_STATUS_SUCCESS);
        ck_assert_int_eq(cairo_image_surface_get_format(back), CAIRO_FORMAT_ARGB32);
        const uint8_t *a = cairo_image_surface_get_data(s), *b = cairo_image_surface_get_data(back);
        int sa = cairo_image_surface_get_stride(s), sb = cairo_image_surface_get_stride(back);
        for (int y = 0; y < 256; y++)
            ck_assert_msg(memcmp(a + y * sa, b + y * sb, 256 * 4) == 0, "row %d differs", y);
        cairo_surface_destroy(back);
        rf_png_buffer_destroy(&out);
    }
    cairo_surface_destroy(s);
}
END_TEST

START_TEST(our_png_decodes_to_hand_unpremultiplied_values)
{
    cairo_surface_t *s = grid_surface(0);
    rf_png_frame_t f = frame_of(s);
    rf_png_buffer_t out = { 0 };
    ck_assert_int_eq(rf_png_write_mem(&f, NULL, &out, NULL), RF_PNG_SUCCESS);
    uint8_t *want = malloc(256 * 256 * 4);
    for (uint32_t a = 0; a < 256; a++)
        for (uint32_t x = 0; x < 256; x++) {
            uint8_t *o = want + (a * 256 + x) * 4;
            o[0] = cairo_unpremul(x, a);
            o[1] = cairo_unpremul(255 - x, a);
            o[2] = cairo_unpremul((x * 7) & 255, a);
            o[3] = (uint8_t)a;
        }
    /* by our reader and by the plain libpng reader */
    assert_decodes_to(out.data, out.len, want, 256, 256);
    uint32_t w, h;
    int ct;
    uint8_t *plain = plain_decode(out.data, out.len, &w, &h, &ct);
    ck_assert(memcmp(plain, want, 256 * 256 * 4) == 0);
    free(plain);
    free(want);
    rf_png_buffer_destroy(&out);
    cairo_surface_destroy(s);
}
END_TEST

/* Our PNG and cairo's decode (plain libpng) to identical pixels and color
 * types, for the given surface. */
static void compare_with_cairo_writer(cairo_surface_t *s, int want_ct)
{
    rf_png_frame_t f = frame_of(s);
    membuf_t cm = { 0 };
    ck_assert_int_eq(cairo_surface_write_to_png_stream(s, cairo_sink, &cm), CAIRO_STATUS_SUCCESS);
    for (int level = 0; level <= 9; level += 3) {
        rf_png_options_t o = { level, (rf_png_filter_t)(level % 6), 0 };
        rf_png_buffer_t out = { 0 };
        ck_assert_int_eq(rf_png_write_mem(&f, &o, &out, NULL), RF_PNG_SUCCESS);
        ck_assert_uint_eq(ihdr_color_type(out.data), want_ct);
        ck_assert_uint_eq(ihdr_color_type(cm.data), want_ct);
        uint32_t w1, h1, w2, h2;
        int ct1, ct2;
        uint8_t *ours = plain_decode(out.data, out.len, &w1, &h1, &ct1);
        uint8_t *theirs = plain_decode(cm.data, cm.len, &w2, &h2, &ct2);
        ck_assert_uint_eq(w1, w2);
        ck_assert_uint_eq(h1, h2);
        ck_assert_int_eq(ct1, ct2);
        ck_assert(memcmp(ours, theirs, (size_t)w1 * h1 * 4) == 0);
        free(ours);
        free(theirs);
        rf_png_buffer_destroy(&out);
    }
    free(cm.data);
}

START_TEST(pixels_identical_to_cairo_writer_translucent)
{
    cairo_surface_t *s = grid_surface(0);   /* includes c > a pixels */
    compare_with_cairo_writer(s, PNG_COLOR_TYPE_RGB_ALPHA);
    cairo_surface_destroy(s);
    s = grid_surface(1);
    compare_with_cairo_writer(s, PNG_COLOR_TYPE_RGB_ALPHA);
    cairo_surface_destroy(s);
}
END_TEST

START_TEST(pixels_identical_to_cairo_writer_drawn_frames)
{
    /* frames drawn by cairo: opaque (RGB) and over no background (RGBA) */
    for (int opaque = 0; opaque <= 1; opaque++) {
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 123, 77);
        cairo_t *cr = cairo_create(s);
        if (opaque) {
            cairo_set_source_rgb(cr, 0.1, 0.2, 0.3);
            cairo_paint(cr);
        }
        cairo_pattern_t *g = cairo_pattern_create_radial(40, 30, 5, 50, 40, 45);
        cairo_pattern_add_color_stop_rgba(g, 0, 1, 0.5, 0.2, 0.9);
        cairo_pattern_add_color_stop_rgba(g, 1, 0.1, 0.3, 1, 0.1);
        cairo_set_source(cr, g);
        cairo_arc(cr, 50, 40, 45, 0, 6.283185307179586);
        cairo_fill(cr);
        cairo_pattern_destroy(g);
        cairo_set_source_rgba(cr, 0.9, 0.9, 0.2, 0.5);
        cairo_set_line_width(cr, 3.3);
        cairo_move_to(cr, 3, 70);
        cairo_curve_to(cr, 40, -20, 80, 120, 120, 5);
        cairo_stroke(cr);
        cairo_destroy(cr);
        compare_with_cairo_writer(s, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA);
        cairo_surface_destroy(s);
    }
}
END_TEST

START_TEST(color_type_rgb_only_when_every_pixel_opaque)
{
    uint32_t px[6 * 5];
    rf_png_frame_t f = { px, 6, 5, 6 * 4, 0 };
    rf_png_buffer_t out = { 0 };
    for (int i = 0; i < 30; i++)
        px[i] = argb(255, (uint32_t)i, 2, 3);
    ck_assert_int_eq(rf_png_write_mem(&f, NULL, &out, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_eq(ihdr_color_type(out.data), 2);
    /* and the RGB decodes to the colors with alpha 255 */
    rf_png_rgba_t img;
    ck_assert_int_eq(rf_png_read_mem(out.data, out.len, NULL, &img, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_eq(img.pixels[4 * 29], 29);
    ck_assert_uint_eq(img.pixels[4 * 29 + 3], 255);
    ck_assert_uint_eq(img.info.color_type, 2);
    rf_png_rgba_destroy(&img);
    /* one pixel at 254, the last one */
    px[29] = argb(254, 29, 2, 3);
    ck_assert_int_eq(rf_png_write_mem(&f, NULL, &out, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_eq(ihdr_color_type(out.data), 6);
    /* fully transparent frame */
    memset(px, 0, sizeof px);
    ck_assert_int_eq(rf_png_write_mem(&f, NULL, &out, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_eq(ihdr_color_type(out.data), 6);
    ck_assert_int_eq(rf_png_read_mem(out.data, out.len, NULL, &img, NULL), RF_PNG_SUCCESS);
    for (int i = 0; i < 30 * 4; i++)
        ck_assert_uint_eq(img.pixels[i], 0);
    rf_png_rgba_destroy(&img);
    rf_png_buffer_destroy(&out);
}
END_TEST

START_TEST(every_level_and_filter_round_trips)
{
    /* odd size, padded stride with garbage in the padding */
    uint32_t w = 37, h = 11;
    size_t stride = w * 4 + 20;
    uint32_t *px = malloc(stride * h);
    for (size_t i = 0; i < stride * h / 4; i++)
        px[i] = 0xdeadbeef;
    uint8_t *want = malloc((size_t)w * h * 4);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t a = (x * 29 + y * 3) & 255, c = a * ((x + y) & 7) / 7;
            px[y * stride / 4 + x] = argb(a, c, a - c, c / 2);
            uint8_t *o = want + ((size_t)y * w + x) * 4;
            o[0] = cairo_unpremul(c, a);
            o[1] = cairo_unpremul(a - c, a);
            o[2] = cairo_unpremul(c / 2, a);
            o[3] = (uint8_t)a;
        }
    rf_png_frame_t f = { px, w, h, stride, 0 };
    size_t size0 = 0, size9 = 0;
    for (int level = 0; level <= 9; level++)
        for (int filt = RF_PNG_FILTER_NONE; filt <= RF_PNG_FILTER_ALL; filt++) {
            rf_png_options_t o = { level, (rf_png_filter_t)filt, 0 };
            rf_png_buffer_t out = { 0 };
            rf_png_error_t err;
            ck_assert_int_eq(rf_png_write_mem(&f, &o, &out, &err), RF_PNG_SUCCESS);
            assert_decodes_to(out.data, out.len, want, w, h);
            if (level == 0 && filt == 0)
                size0 = out.len;
            if (level == 9 && filt == 0)
                size9 = out.len;
            rf_png_buffer_destroy(&out);
        }
    /* level 0 stores: at least the raw rows (1 + 4w bytes each) */
    ck_assert_uint_ge(size0, (size_t)h * (1 + 4 * w));
    ck_assert_uint_lt(size9, size0);
    free(px);
    free(want);
}
END_TEST

START_TEST(invalid_arguments)
{
    uint32_t px[4] = { 0 };
    rf_png_buffer_t out = { 0 };
    rf_png_error_t err;
    rf_png_frame_t f = { px, 2, 2, 8, 0 };
    rf_png_options_t bad_level = { 10, RF_PNG_FILTER_NONE, 0 }, neg = { -1, RF_PNG_FILTER_NONE, 0 };
    rf_png_options_t bad_filter = { 1, (rf_png_filter_t)6, 0 };
    ck_assert_int_eq(rf_png_write_mem(&f, &bad_level, &out, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(err.message, "level"));
    ck_assert_int_eq(rf_png_write_mem(&f, &neg, &out, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_int_eq(rf_png_write_mem(&f, &bad_filter, &out, &err), RF_PNG_INVALID_ARGUMENT);
    rf_png_frame_t narrow = { px, 2, 2, 7, 0 }, unaligned = { px, 1, 2, 6, 0 },
                   zero = { px, 0, 2, 8, 0 };
    ck_assert_int_eq(rf_png_write_mem(&narrow, NULL, &out, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_int_eq(rf_png_write_mem(&unaligned, NULL, &out, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_int_eq(rf_png_write_mem(&zero, NULL, &out, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_int_eq(rf_png_write_mem(NULL, NULL, &out, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_int_eq(rf_png_write_mem(&f, NULL, NULL, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_int_eq(rf_png_write_stream(&f, NULL, NULL, &err), RF_PNG_INVALID_ARGUMENT);
    ck_assert_int_eq(out.len, 0);
    ck_assert_ptr_null(out.data);
}
END_TEST

START_TEST(filter_names)
{
    static const char *const names[] = { "none", "sub", "up", "avg", "paeth", "all" };
    for (int i = 0; i < 6; i++) {
        rf_png_filter_t f = (rf_png_filter_t)99;
        ck_assert_int_eq(rf_png_filter_parse(names[i], &f), 0);
        ck_assert_int_eq(f, i);
    }
    rf_png_filter_t f;
    ck_assert_int_eq(rf_png_filter_parse("NONE", &f), -1);
    ck_assert_int_eq(rf_png_filter_parse("", &f), -1);
    ck_assert_int_eq(rf_png_filter_parse(NULL, &f), -1);
}
END_TEST

START_TEST(buffer_is_reused_and_len_exact)
{
    cairo_surface_t *s = grid_surface(1);
    rf_png_frame_t f = frame_of(s);
    rf_png_buffer_t out = { 0 };
    rf_png_options_t gold = RF_PNG_OPTIONS_GOLDEN;
    ck_assert_int_eq(rf_png_write_mem(&f, &gold, &out, NULL), RF_PNG_SUCCESS);
    size_t first = out.len, cap = out.cap;
    uint8_t *copy = malloc(first);
    memcpy(copy, out.data, first);
    /* a second, smaller frame into the same buffer, then the first again */
    uint32_t one = argb(255, 1, 2, 3);
    rf_png_frame_t tiny = { &one, 1, 1, 4, 0 };
    ck_assert_int_eq(rf_png_write_mem(&tiny, &gold, &out, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_lt(out.len, first);
    ck_assert_uint_eq(out.cap, cap);
    ck_assert(memcmp(out.data + out.len - 8, "IEND", 4) == 0);
    ck_assert_int_eq(rf_png_write_mem(&f, &gold, &out, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_eq(out.len, first);
    ck_assert(memcmp(out.data, copy, first) == 0);   /* deterministic bytes */
    free(copy);
    rf_png_buffer_destroy(&out);
    ck_assert_ptr_null(out.data);
    cairo_surface_destroy(s);
}
END_TEST

START_TEST(stream_and_path_writers_agree_with_memory)
{
    cairo_surface_t *s = grid_surface(0);
    rf_png_frame_t f = frame_of(s);
    rf_png_buffer_t mem = { 0 };
    ck_assert_int_eq(rf_png_write_mem(&f, NULL, &mem, NULL), RF_PNG_SUCCESS);
    char path[512];
    snprintf(path, sizeof path, "%s/stream.png", tmpdir);
    FILE *fp = fopen(path, "wb");
    ck_assert_int_eq(rf_png_write_stream(&f, NULL, fp, NULL), RF_PNG_SUCCESS);
    fclose(fp);
    size_t len;
    uint8_t *data = slurp(path, &len);
    ck_assert_uint_eq(len, mem.len);
    ck_assert(memcmp(data, mem.data, len) == 0);
    free(data);
    snprintf(path, sizeof path, "%s/atomic.png", tmpdir);
    rf_png_error_t err;
    ck_assert_int_eq(rf_png_write_path(&f, NULL, path, RF_ATOMIC_FSYNC, &err), RF_PNG_SUCCESS);
    data = slurp(path, &len);
    ck_assert_uint_eq(len, mem.len);
    ck_assert(memcmp(data, mem.data, len) == 0);
    free(data);
    /* and the path reader */
    rf_png_rgba_t img;
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_SUCCESS);
    ck_assert_uint_eq(img.width, 256);
    ck_assert_uint_eq(img.pixels[4 * (256 * 200 + 100)], cairo_unpremul(100, 200));
    rf_png_rgba_destroy(&img);
    rf_png_buffer_destroy(&mem);
    cairo_surface_destroy(s);
}
END_TEST

START_TEST(stream_to_dev_full_is_enospc)
{
    uint32_t px[64 * 64];
    for (int i = 0; i < 64 * 64; i++)
        px[i] = argb(255, (uint32_t)(i * 7) & 255, (uint32_t)i & 255, (uint32_t)(i >> 4) & 255);
    rf_png_frame_t f = { px, 64, 64, 256, 0 };
    FILE *fp = fopen("/dev/full", "wb");
    ck_assert_ptr_nonnull(fp);
    rf_png_error_t err;
    ck_assert_int_eq(rf_png_write_stream(&f, NULL, fp, &err), RF_PNG_IO_ERROR);
    ck_assert_int_eq(err.sys_errno, ENOSPC);
    ck_assert_ptr_nonnull(strstr(err.message, strerror(ENOSPC)));
    fclose(fp);
}
END_TEST

/* ----------------------------------------------------- reader: formats */

START_TEST(read_gray_every_depth)
{
    for (int depth = 1; depth <= 16; depth *= 2) {
        uint32_t max = (1u << depth) - 1u;
        gen_t g = { .ct = PNG_COLOR_TYPE_GRAY, .depth = depth, .w = 19, .h = 13 };
        uint16_t *s = pattern(g.w, g.h, 1, max);
        g.samples = s;
        check_gen(&g);
        /* with a color key (a value that occurs): its pixels become 0,0,0,0 */
        g.key = 1;
        g.key_r = s[3];
        uint8_t *want = expected_rgba(&g);
        ck_assert_uint_eq(want[4 * 3 + 3], 0);
        ck_assert_uint_eq(want[4 * 4 + 3], s[4] == s[3] ? 0 : 255);
        free(want);
        check_gen(&g);
        free(s);
    }
}
END_TEST

START_TEST(read_gray16_rounds_like_pngjs)
{
    /* every 16-bit value once: 256 x 256 */
    gen_t g = { .ct = PNG_COLOR_TYPE_GRAY, .depth = 16, .w = 256, .h = 256 };
    uint16_t *s = malloc(65536 * sizeof *s);
    for (uint32_t v = 0; v < 65536; v++)
        s[v] = (uint16_t)v;
    g.samples = s;
    check_gen(&g);
    /* hand values where rounding and the high byte disagree */
    size_t len;
    uint8_t *png = gen_png(&g, &len);
    rf_png_rgba_t img;
    ck_assert_int_eq(rf_png_read_mem(png, len, NULL, &img, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_eq(img.pixels[4 * 0xFE00], 253);   /* 65024 / 257 = 253.01; high byte 254 */
    ck_assert_uint_eq(img.pixels[4 * 0x01FF], 2);     /* 511 / 257 = 1.99; high byte 1 */
    ck_assert_uint_eq(img.pixels[4 * 0x8080], 128);   /* 32896 / 257 = 128 */
    ck_assert_uint_eq(img.pixels[4 * 0xFFFF], 255);
    ck_assert_uint_eq(img.pixels[4 * 0x0080], 0);     /* 128 / 257 = 0.498 */
    ck_assert_uint_eq(img.pixels[4 * 0x0081], 1);     /* 129 / 257 = 0.502 */
    ck_assert_uint_eq(img.info.bit_depth, 16);
    rf_png_rgba_destroy(&img);
    free(png);
    free(s);
}
END_TEST

START_TEST(read_gray_alpha_8_16)
{
    for (int depth = 8; depth <= 16; depth += 8) {
        gen_t g = { .ct = PNG_COLOR_TYPE_GRAY_ALPHA, .depth = depth, .w = 23, .h = 9 };
        uint16_t *s = pattern(g.w, g.h, 2, (1u << depth) - 1u);
        g.samples = s;
        check_gen(&g);
        free(s);
    }
}
END_TEST

START_TEST(read_rgb_8_16_with_and_without_key)
{
    for (int depth = 8; depth <= 16; depth += 8) {
        uint32_t max = (1u << depth) - 1u;
        gen_t g = { .ct = PNG_COLOR_TYPE_RGB, .depth = depth, .w = 31, .h = 17 };
        uint16_t *s = pattern(g.w, g.h, 3, max);
        /* make sure the key occurs: copy pixel 5's color to 40 and 41 */
        for (int c = 0; c < 3; c++)
            s[40 * 3 + c] = s[41 * 3 + c] = s[5 * 3 + c];
        g.samples = s;
        check_gen(&g);
        g.key = 1;
        g.key_r = s[15];
        g.key_g = s[16];
        g.key_b = s[17];
        uint8_t *want = expected_rgba(&g);
        ck_assert_uint_eq(want[4 * 41 + 3], 0);   /* the key matched */
        free(want);
        check_gen(&g);
        free(s);
    }
}
END_TEST

START_TEST(read_rgb8_every_width)
{
    /* the converter works in blocks of four pixels and finishes by hand:
     * every width up to a few blocks, and past one 64-byte line */
    for (uint32_t w = 1; w <= 70; w++) {
        gen_t g = { .ct = PNG_COLOR_TYPE_RGB, .depth = 8, .w = w, .h = 3 };
        uint16_t *s = pattern(g.w, g.h, 3, 255);
        g.samples = s;
        check_gen(&g);
        free(s);
    }
}
END_TEST

START_TEST(read_rgba_8_16)
{
    for (int depth = 8; depth <= 16; depth += 8) {
        gen_t g = { .ct = PNG_COLOR_TYPE_RGB_ALPHA, .depth = depth, .w = 29, .h = 21 };
        uint16_t *s = pattern(g.w, g.h, 4, (1u << depth) - 1u);
        g.samples = s;
        check_gen(&g);
        free(s);
    }
}
END_TEST

START_TEST(read_palette_every_depth_with_trns)
{
    png_color pal[256];
    uint8_t trans[256];
    for (int i = 0; i < 256; i++) {
        pal[i].red = (uint8_t)(i * 3);
        pal[i].green = (uint8_t)(255 - i);
        pal[i].blue = (uint8_t)(i * 91);
        trans[i] = (uint8_t)(i * 50 + 7);
    }
    for (int depth = 1; depth <= 8; depth *= 2) {
        int npal = 1 << depth;
        gen_t g = { .ct = PNG_COLOR_TYPE_PALETTE, .depth = depth, .w = 27, .h = 11,
                    .palette = pal, .npal = npal };
        uint16_t *s = pattern(g.w, g.h, 1, (uint32_t)npal - 1u);
        g.samples = s;
        check_gen(&g);                  /* no tRNS: alpha 255 */
        g.trans_alpha = trans;
        g.ntrans = npal > 2 ? npal / 2 + 1 : 1;   /* partial tRNS */
        check_gen(&g);
        free(s);
    }
}
END_TEST

START_TEST(read_palette_index_out_of_range_is_corrupt)
{
    png_color pal[3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } };
    uint16_t s[8] = { 0, 1, 2, 3, 0, 1, 2, 0 };   /* index 3 with 3 entries */
    gen_t g = { .ct = PNG_COLOR_TYPE_PALETTE, .depth = 2, .w = 4, .h = 2,
                .palette = pal, .npal = 3, .samples = s };
    size_t len;
    uint8_t *png = gen_png(&g, &len);
    rf_png_rgba_t img;
    rf_png_error_t err;
    ck_assert_int_eq(rf_png_read_mem(png, len, "pal.png", &img, &err), RF_PNG_CORRUPT);
    ck_assert_ptr_nonnull(strstr(err.message, "palette index 3"));
    ck_assert_ptr_null(img.pixels);
    free(png);
}
END_TEST

START_TEST(read_adam7_small_sizes)
{
    /* sizes with empty passes (1x1 has only pass 1) */
    static const uint32_t sz[][2] = { { 1, 1 }, { 2, 1 }, { 1, 5 }, { 3, 2 }, { 7, 9 }, { 33, 17 } };
    for (size_t i = 0; i < 6; i++) {
        gen_t g = { .ct = PNG_COLOR_TYPE_RGB, .depth = 8, .w = sz[i][0], .h = sz[i][1] };
        uint16_t *s = pattern(g.w, g.h, 3, 255);
        g.samples = s;
        check_gen(&g);   /* interlaced and not, same pixels */
        free(s);
        gen_t g2 = { .ct = PNG_COLOR_TYPE_GRAY, .depth = 2, .w = sz[i][0], .h = sz[i][1] };
        s = pattern(g2.w, g2.h, 1, 3);
        g2.samples = s;
        check_gen(&g2);
        free(s);
    }
}
END_TEST

START_TEST(read_ignores_gamma_srgb_text)
{
    for (int extra = 1; extra <= 2; extra++) {
        gen_t g = { .ct = PNG_COLOR_TYPE_RGB, .depth = 8, .w = 16, .h = 16, .extra_chunks = extra };
        uint16_t *s = pattern(g.w, g.h, 3, 255);
        g.samples = s;
        size_t len;
        uint8_t *png = gen_png(&g, &len);
        ck_assert_uint_ne(find_chunk(png, len, extra == 1 ? "gAMA" : "sRGB"), 0);
        ck_assert_uint_ne(find_chunk(png, len, "zTXt"), 0);
        uint8_t *want = expected_rgba(&g);
        assert_decodes_to(png, len, want, g.w, g.h);
        free(want);
        free(png);
        free(s);
    }
}
END_TEST

START_TEST(read_apng_chunks_ignored)
{
    gen_t g = { .ct = PNG_COLOR_TYPE_RGB_ALPHA, .depth = 8, .w = 8, .h = 4 };
    uint16_t *s = pattern(g.w, g.h, 4, 255);
    g.samples = s;
    size_t len;
    uint8_t *png = gen_png(&g, &len);
    size_t idat = find_chunk(png, len, "IDAT");
    size_t iend = find_chunk(png, len, "IEND");
    ck_assert_uint_ne(idat, 0);
    /* IHDR, acTL, fcTL, IDAT..., fcTL, fdAT (garbage frame), IEND */
    uint8_t *apng = malloc(len + 200);
    size_t pos = idat;
    memcpy(apng, png, idat);
    uint8_t actl[8] = { 0, 0, 0, 2, 0, 0, 0, 0 };
    uint8_t fctl[26] = { 0 };
    put32(fctl + 4, 8);
    put32(fctl + 8, 4);
    put_chunk(apng, &pos, "acTL", actl, 8);
    put_chunk(apng, &pos, "fcTL", fctl, 26);
    memcpy(apng + pos, png + idat, iend - idat);
    pos += iend - idat;
    fctl[3] = 1;
    put_chunk(apng, &pos, "fcTL", fctl, 26);
    uint8_t fdat[12] = { 0, 0, 0, 2, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
    put_chunk(apng, &pos, "fdAT", fdat, 12);
    memcpy(apng + pos, png + iend, len - iend);
    pos += len - iend;
    uint8_t *want = expected_rgba(&g);
    assert_decodes_to(apng, pos, want, g.w, g.h);
    free(want);
    free(apng);
    free(png);
    free(s);
}
END_TEST

/* ----------------------------------------------------- reader: row API */

typedef struct rowlog {
    int headers;
    uint32_t rows;
    uint32_t next_y;
    int in_order;
    int stop_header;
    int stop_at;          /* row index to stop at, or -1 */
    rf_png_info_t info;
    uint8_t first[16];
} rowlog_t;

static int log_header(void *ctx, const rf_png_info_t *info)
{
    rowlog_t *l = ctx;
    l->headers++;
    l->info = *info;
    return l->stop_header;
}

static int log_row(void *ctx, uint32_t y, const uint8_t *rgba)
{
    rowlog_t *l = ctx;
    if (y != l->next_y)
        l->in_order = 0;
    if (y == 0)
        memcpy(l->first, rgba, 16);
    l->next_y = y + 1;
    l->rows++;
    return (int)y == l->stop_at;
}

START_TEST(row_api_delivers_rows_in_order)
{
    for (int il = 0; il <= 1; il++) {
        gen_t g = { .ct = PNG_COLOR_TYPE_GRAY_ALPHA, .depth = 16, .w = 5, .h = 13, .interlace = il };
        uint16_t *s = pattern(g.w, g.h, 2, 65535);
        g.samples = s;
        size_t len;
        uint8_t *png = gen_png(&g, &len);
        uint8_t *want = expected_rgba(&g);
        rowlog_t l = { .in_order = 1, .stop_at = -1 };
        rf_png_error_t err;
        ck_assert_int_eq(rf_png_decode_mem(png, len, NULL, log_header, log_row, &l, &err),
                         RF_PNG_SUCCESS);
        ck_assert_int_eq(l.headers, 1);
        ck_assert_uint_eq(l.rows, 13);
        ck_assert_int_eq(l.in_order, 1);
        ck_assert_uint_eq(l.info.width, 5);
        ck_assert_uint_eq(l.info.height, 13);
        ck_assert_uint_eq(l.info.bit_depth, 16);
        ck_assert_uint_eq(l.info.color_type, 4);
        ck_assert_uint_eq(l.info.interlaced, il);
        ck_assert(memcmp(l.first, want, 16) == 0);
        /* stopping from the header and from row 3 */
        rowlog_t h = { .in_order = 1, .stop_at = -1, .stop_header = 1 };
        ck_assert_int_eq(rf_png_decode_mem(png, len, NULL, log_header, log_row, &h, &err),
                         RF_PNG_STOPPED);
        ck_assert_uint_eq(h.rows, 0);
        rowlog_t r = { .in_order = 1, .stop_at = 3 };
        ck_assert_int_eq(rf_png_decode_mem(png, len, NULL, log_header, log_row, &r, &err),
                         RF_PNG_STOPPED);
        ck_assert_uint_eq(r.rows, 4);
        ck_assert_int_eq(err.status, RF_PNG_STOPPED);
        free(want);
        free(png);
        free(s);
    }
}
END_TEST

/* ---------------------------------------------------- reader: hostile */

static int in_child(int (*fn)(void *), void *arg);

/* A small valid PNG (RGBA 8-bit with a tEXt chunk) for the hostile cases. */
static uint8_t *small_png(size_t *len)
{
    gen_t g = { .ct = PNG_COLOR_TYPE_RGB_ALPHA, .depth = 8, .w = 9, .h = 7, .extra_chunks = 1 };
    uint16_t *s = pattern(g.w, g.h, 4, 255);
    g.samples = s;
    uint8_t *png = gen_png(&g, len);
    free(s);
    return png;
}

static rf_png_status_t read_status(const uint8_t *data, size_t len, rf_png_error_t *err)
{
    rf_png_rgba_t img;
    rf_png_status_t st = rf_png_read_mem(data, len, "hostile.png", &img, err);
    if (st == RF_PNG_SUCCESS)
        rf_png_rgba_destroy(&img);
    else
        ck_assert_ptr_null(img.pixels);
    return st;
}

START_TEST(truncated_at_every_length)
{
    size_t len;
    uint8_t *png = small_png(&len);
    rf_png_error_t err;
    ck_assert_int_eq(read_status(png, len, &err), RF_PNG_SUCCESS);
    ck_assert_int_eq(read_status(png, 0, &err), RF_PNG_EMPTY);
    for (size_t n = 1; n < len; n++) {
        rf_png_status_t st = read_status(png, n, &err);
        ck_assert_msg(st == RF_PNG_TRUNCATED, "prefix of %zu bytes: %s", n, err.message);
    }
    ck_assert_ptr_nonnull(strstr(err.message, "hostile.png: truncated"));
    free(png);
}
END_TEST

START_TEST(flipped_crc_in_every_chunk)
{
    size_t len;
    uint8_t *png = small_png(&len);
    static const char *const types[] = { "IHDR", "gAMA", "zTXt", "IDAT", "IEND" };
    for (int t = 0; t < 5; t++) {
        size_t at = find_chunk(png, len, types[t]);
        ck_assert_uint_ne(at, 0);
        size_t crc_at = at + 8 + get32(png + at);
        png[crc_at + 2] ^= 0x10;
        rf_png_error_t err;
        ck_assert_msg(read_status(png, len, &err) == RF_PNG_BAD_CRC, "%s: %s", types[t],
                      err.message);
        png[crc_at + 2] ^= 0x10;
    }
    free(png);
}
END_TEST

START_TEST(corrupt_zlib_data_with_good_crc)
{
    size_t len;
    uint8_t *png = small_png(&len);
    size_t at = find_chunk(png, len, "IDAT");
    uint32_t n = get32(png + at);
    png[at + 8 + n / 2] ^= 0xff;   /* inside the deflate stream */
    put32(png + at + 8 + n, crc32_png(png + at + 4, n + 4));
    rf_png_error_t err;
    ck_assert_int_eq(read_status(png, len, &err), RF_PNG_CORRUPT);
    /* the zlib header itself */
    png[at + 8 + n / 2] ^= 0xff;
    png[at + 8] = 0x00;
    put32(png + at + 8 + n, crc32_png(png + at + 4, n + 4));
    ck_assert_int_eq(read_status(png, len, &err), RF_PNG_CORRUPT);
    free(png);
}
END_TEST

START_TEST(huge_and_zero_dimensions)
{
    uint8_t buf[256];
    rf_png_error_t err;
    size_t n = hand_png(buf, 100000, 100000, 8, 6, 1);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_TOO_BIG);
    ck_assert_ptr_nonnull(strstr(err.message, "100000x100000"));
    n = hand_png(buf, 16385, 1, 8, 0, 1);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_TOO_BIG);
    n = hand_png(buf, 1, 16385, 8, 0, 1);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_TOO_BIG);
    n = hand_png(buf, 16384, 4097, 8, 0, 1);   /* 67,125,248 pixels */
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_TOO_BIG);
    /* at the limits the header is accepted; this file then lacks data */
    n = hand_png(buf, 16384, 4096, 8, 0, 1);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_CORRUPT);
    n = hand_png(buf, 0, 10, 8, 0, 1);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_BAD_DIMENSIONS);
    n = hand_png(buf, 10, 0, 8, 0, 1);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_BAD_DIMENSIONS);
    n = hand_png(buf, 0x80000000u, 1, 8, 0, 1);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_BAD_DIMENSIONS);
    /* the hand-made 1x1 itself is valid: gray 0 */
    n = hand_png(buf, 1, 1, 8, 0, 1);
    rf_png_rgba_t img;
    ck_assert_int_eq(rf_png_read_mem(buf, n, NULL, &img, &err), RF_PNG_SUCCESS);
    ck_assert_uint_eq(img.pixels[0], 0);
    ck_assert_uint_eq(img.pixels[3], 255);
    rf_png_rgba_destroy(&img);
}
END_TEST

START_TEST(bad_ihdr_fields_and_chunk_order)
{
    uint8_t buf[512];
    rf_png_error_t err;
    size_t n = hand_png(buf, 1, 1, 3, 0, 1);    /* bit depth 3 */
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_CORRUPT);
    n = hand_png(buf, 1, 1, 8, 5, 1);           /* color type 5 */
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_CORRUPT);
    n = hand_png(buf, 1, 1, 8, 3, 1);           /* palette without PLTE */
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_CORRUPT);
    /* an unknown critical chunk before IDAT */
    n = hand_png(buf, 1, 1, 8, 0, 0);
    put_chunk(buf, &n, "ZZZZ", (const uint8_t *)"x", 1);
    size_t m = hand_png(buf + 200, 1, 1, 8, 0, 1);   /* borrow IDAT+IEND */
    memcpy(buf + n, buf + 200 + 33, m - 33);
    n += m - 33;
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_CORRUPT);
    /* IDAT first: no IHDR */
    memcpy(buf, png_sig, 8);
    n = 8;
    put_chunk(buf, &n, "IEND", NULL, 0);
    ck_assert_int_eq(read_status(buf, n, &err), RF_PNG_CORRUPT);
}
END_TEST

START_TEST(not_png_and_empty)
{
    rf_png_error_t err;
    ck_assert_int_eq(read_status((const uint8_t *)"GIF89a....", 10, &err), RF_PNG_NOT_PNG);
    ck_assert_int_eq(read_status((const uint8_t *)"\xff\xd8\xff\xe0", 4, &err), RF_PNG_NOT_PNG);
    ck_assert_int_eq(read_status((const uint8_t *)"\x89PNG\r\n\x1a\r", 8, &err), RF_PNG_NOT_PNG);
    ck_assert_int_eq(read_status((const uint8_t *)"\x89PN", 3, &err), RF_PNG_TRUNCATED);
    ck_assert_int_eq(read_status((const uint8_t *)"", 0, &err), RF_PNG_EMPTY);
    ck_assert_int_eq(read_status(NULL, 0, &err), RF_PNG_EMPTY);
    ck_assert_str_eq(err.message, "hostile.png: empty file");
}
END_TEST

START_TEST(paths_that_are_not_png_files)
{
    rf_png_rgba_t img;
    rf_png_error_t err;
    char path[600];
    /* a directory */
    ck_assert_int_eq(rf_png_read_path(tmpdir, &img, &err), RF_PNG_NOT_REGULAR_FILE);
    ck_assert_ptr_nonnull(strstr(err.message, "a directory"));
    ck_assert_ptr_nonnull(strstr(err.message, tmpdir));
    /* /dev/zero, directly and through a symbolic link */
    ck_assert_int_eq(rf_png_read_path("/dev/zero", &img, &err), RF_PNG_NOT_REGULAR_FILE);
    ck_assert_ptr_nonnull(strstr(err.message, "character device"));
    snprintf(path, sizeof path, "%s/zero.png", tmpdir);
    ck_assert_int_eq(symlink("/dev/zero", path), 0);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_NOT_REGULAR_FILE);
    /* a FIFO with no writer: must not block */
    snprintf(path, sizeof path, "%s/fifo.png", tmpdir);
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_NOT_REGULAR_FILE);
    ck_assert_ptr_nonnull(strstr(err.message, "FIFO"));
    /* an empty file */
    snprintf(path, sizeof path, "%s/empty.png", tmpdir);
    spit(path, "", 0);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_EMPTY);
    /* missing, and a missing folder */
    snprintf(path, sizeof path, "%s/missing.png", tmpdir);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_NOT_FOUND);
    ck_assert_int_eq(err.sys_errno, ENOENT);
    ck_assert_ptr_nonnull(strstr(err.message, strerror(ENOENT)));
    snprintf(path, sizeof path, "%s/empty.png/x.png", tmpdir);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_NOT_FOUND);
    /* a text file */
    snprintf(path, sizeof path, "%s/text.png", tmpdir);
    spit(path, "hello, world\n", 13);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_NOT_PNG);
    /* larger than 1 GiB (sparse: no disk used) */
    snprintf(path, sizeof path, "%s/huge.png", tmpdir);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)RF_PNG_MAX_FILE_SIZE + 1), 0);
    close(fd);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_FILE_TOO_LARGE);
    unlink(path);
    ck_assert_ptr_null(img.pixels);
    /* a truncated file on disk */
    size_t len;
    uint8_t *png = small_png(&len);
    snprintf(path, sizeof path, "%s/cut.png", tmpdir);
    spit(path, png, len - 5);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_TRUNCATED);
    spit(path, png, len);
    ck_assert_int_eq(rf_png_read_path(path, &img, &err), RF_PNG_SUCCESS);
    rf_png_rgba_destroy(&img);
    free(png);
}
END_TEST

/* A 16384 x 4096 gray 1-bit Adam7 PNG of zeros: tiny file, largest image. */
static uint8_t *largest_interlaced_png(size_t *len)
{
    membuf_t m = { 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    static uint8_t zero_row[16384 / 8];
    png_bytep *rows = malloc(4096 * sizeof *rows);
    for (int y = 0; y < 4096; y++)
        rows[y] = zero_row;
    if (setjmp(png_jmpbuf(png)))
        ck_abort_msg("libpng failed writing the large image");
    png_set_write_fn(png, &m, mem_write, mem_flush);
    png_set_IHDR(png, info, 16384, 4096, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_ADAM7,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_set_interlace_handling(png);
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(rows);
    *len = m.len;
    return m.data;
}

typedef struct oom_case {
    const uint8_t *png;
    size_t len;
    int whole;
} oom_case_t;

static int count_row(void *ctx, uint32_t y, const uint8_t *rgba)
{
    (void)y;
    (void)rgba;
    (*(uint32_t *)ctx)++;
    return 0;
}

/* In the child: 64 MiB of address space beyond what is mapped now, so the
 * 256 MiB image cannot be allocated; exit with the status. */
static int oom_decode(void *arg)
{
    oom_case_t *c = arg;
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL || fscanf(f, "%ld", &pages) != 1)
        return 200;
    fclose(f);
    rlim_t lim = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (64u << 20);
    struct rlimit rl = { lim, lim };
    if (setrlimit(RLIMIT_AS, &rl) != 0)
        return 201;
    rf_png_error_t err;
    if (c->whole) {
        rf_png_rgba_t img;
        rf_png_status_t st = rf_png_read_mem(c->png, c->len, "big.png", &img, &err);
        return st == RF_PNG_NO_MEMORY && img.pixels == NULL && strstr(err.message, "out of memory")
                   ? 0 : 100 + (int)st;
    }
    uint32_t rows = 0;
    rf_png_status_t st = rf_png_decode_mem(c->png, c->len, "big.png", NULL, count_row, &rows, &err);
    return st == RF_PNG_NO_MEMORY && rows == 0 ? 0 : 100 + (int)st;
}

#if defined(__SANITIZE_ADDRESS__)
#define RF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RF_ASAN 1
#endif
#endif

START_TEST(out_of_memory_is_a_status)
{
#ifdef RF_ASAN
    /* ASan's shadow memory cannot live under RLIMIT_AS */
    fprintf(stderr, "check_png: out-of-memory case skipped under ASan\n");
    return;
#endif
    const char *pre = getenv("LD_PRELOAD");
    if (pre != NULL && strstr(pre, "vgpreload") != NULL) {
        /* valgrind's allocator ignores RLIMIT_AS */
        fprintf(stderr, "check_png: out-of-memory case skipped under valgrind\n");
        return;
    }
    size_t len;
    uint8_t *png = largest_interlaced_png(&len);
    ck_assert_uint_lt(len, 1u << 20);
    for (int whole = 0; whole <= 1; whole++) {
        oom_case_t c = { png, len, whole };
        int rc = in_child(oom_decode, &c);
        ck_assert_msg(rc == 0, "child exit %d (100 + status)", rc);
    }
    /* with memory, the same file decodes: all 67,108,864 pixels black */
    rf_png_rgba_t img;
    ck_assert_int_eq(rf_png_read_mem(png, len, NULL, &img, NULL), RF_PNG_SUCCESS);
    ck_assert_uint_eq(img.pixels[(size_t)4 * 16384 * 4096 - 4], 0);
    ck_assert_uint_eq(img.pixels[(size_t)4 * 16384 * 4096 - 1], 255);
    rf_png_rgba_destroy(&img);
    free(png);
}
END_TEST

START_TEST(status_strings)
{
    for (int i = 0; i < RF_PNG_LAST_STATUS; i++) {
        const char *a = rf_png_status_to_string((rf_png_status_t)i);
        ck_assert_ptr_nonnull(a);
        ck_assert_uint_gt(strlen(a), 3);
        ck_assert_str_ne(a, "unknown status");
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(a, rf_png_status_to_string((rf_png_status_t)j));
    }
    ck_assert_str_eq(rf_png_status_to_string(RF_PNG_LAST_STATUS), "unknown status");
    ck_assert_str_eq(rf_png_status_to_string((rf_png_status_t)-1), "unknown status");
}
END_TEST

/* ================================================================ atomic */

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", tmpdir, name);
}

START_TEST(atomic_write_creates_and_replaces)
{
    static const int modes[] = { 0, RF_ATOMIC_NAMED_TEMP, RF_ATOMIC_FSYNC,
                                 RF_ATOMIC_FSYNC | RF_ATOMIC_NAMED_TEMP };
    for (int m = 0; m < 4; m++) {
        char path[512], names[1024], err[512];
        path_in(path, sizeof path, "frame-00001.png");
        ck_assert_int_eq(rf_atomic_file_write(path, "first", 5, modes[m], err, sizeof err), 0);
        size_t len;
        uint8_t *d = slurp(path, &len);
        ck_assert_uint_eq(len, 5);
        ck_assert(memcmp(d, "first", 5) == 0);
        free(d);
        struct stat st;
        ck_assert_int_eq(stat(path, &st), 0);
        ck_assert_int_eq(st.st_mode & 0777, 0644);   /* 0666 minus umask 022 */
        ck_assert_int_eq(rf_atomic_file_write(path, "second!", 7, modes[m], err, sizeof err), 0);
        d = slurp(path, &len);
        ck_assert_uint_eq(len, 7);
        ck_assert(memcmp(d, "second!", 7) == 0);
        free(d);
        list_dir(tmpdir, names, sizeof names);
        ck_assert_str_eq(names, "frame-00001.png");
        /* an empty file is a file too */
        ck_assert_int_eq(rf_atomic_file_write(path, NULL, 0, modes[m], err, sizeof err), 0);
        ck_assert_int_eq(stat(path, &st), 0);
        ck_assert_int_eq(st.st_size, 0);
        unlink(path);
    }
}
END_TEST

START_TEST(atomic_target_untouched_until_commit)
{
    for (int named = 0; named <= 1; named++) {
        char path[512], names[1024], err[512];
        path_in(path, sizeof path, "golden.png");
        spit(path, "old", 3);
        rf_atomic_file_t af;
        ck_assert_int_eq(rf_atomic_file_open(&af, path, named ? RF_ATOMIC_NAMED_TEMP : 0,
                                             err, sizeof err), 0);
        ck_assert_int_eq(af.kind, named ? RF_ATOMIC_KIND_NAMED : RF_ATOMIC_KIND_UNNAMED);
        for (int i = 0; i < 100000; i++)
            fputs("new contents ", af.fp);
        fflush(af.fp);   /* data is on disk, yet the target is the old file */
        size_t len;
        uint8_t *d = slurp(path, &len);
        ck_assert_uint_eq(len, 3);
        free(d);
        list_dir(tmpdir, names, sizeof names);
        if (named) {   /* exactly one hidden temporary beside the target */
            ck_assert_int_eq(strncmp(names, ".golden.png.", 12), 0);
            ck_assert_uint_eq(strlen(names), strlen(".golden.png.XXXXXX|golden.png"));
        } else {
            ck_assert_str_eq(names, "golden.png");   /* no name at all */
        }
        rf_atomic_file_abort(&af);
        d = slurp(path, &len);
        ck_assert_uint_eq(len, 3);
        ck_assert(memcmp(d, "old", 3) == 0);
        free(d);
        list_dir(tmpdir, names, sizeof names);
        ck_assert_str_eq(names, "golden.png");
        /* and a commit publishes all of it */
        ck_assert_int_eq(rf_atomic_file_open(&af, path, named ? RF_ATOMIC_NAMED_TEMP : 0,
                                             err, sizeof err), 0);
        for (int i = 0; i < 100000; i++)
            fputs("new contents ", af.fp);
        ck_assert_int_eq(rf_atomic_file_commit(&af, err, sizeof err), 0);
        d = slurp(path, &len);
        ck_assert_uint_eq(len, 1300000);
        free(d);
        list_dir(tmpdir, names, sizeof names);
        ck_assert_str_eq(names, "golden.png");
        unlink(path);
    }
}
END_TEST

/* Runs fn in a child process; returns its exit status (or 128 + signal). */
static int in_child(int (*fn)(void *), void *arg)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(fn(arg));
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int drop_privileges(void)
{
    if (geteuid() != 0)
        return 0;
    if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
        return -1;
    return 0;
}

typedef struct ro_case {
    char path[700];
    int png;
} ro_case_t;

/* In the child: write into the read-only folder; exit with the errno. */
static int ro_write(void *arg)
{
    ro_case_t *c = arg;
    if (drop_privileges() != 0)
        return 200;
    char err[512];
    if (c->png) {
        uint32_t px = 0xff102030u;
        rf_png_frame_t f = { &px, 1, 1, 4, 0 };
        rf_png_error_t e;
        if (rf_png_write_path(&f, NULL, c->path, 0, &e) == RF_PNG_SUCCESS)
            return 0;
        if (strstr(e.message, c->path) == NULL || strstr(e.message, strerror(e.sys_errno)) == NULL)
            return 201;
        return e.sys_errno;
    }
    if (rf_atomic_file_write(c->path, "data", 4, 0, err, sizeof err) == 0)
        return 0;
    int e = errno;
    if (strstr(err, c->path) == NULL || strstr(err, strerror(e)) == NULL)
        return 201;
    return e;
}

START_TEST(atomic_read_only_folder_fails_cleanly)
{
    char dir[512], names[1024];
    path_in(dir, sizeof dir, "ro");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    ck_assert_int_eq(chmod(dir, 0555), 0);
    for (int png = 0; png <= 1; png++) {
        ro_case_t c = { .png = png };
        snprintf(c.path, sizeof c.path, "%s/frame-00000.png", dir);
        int rc = in_child(ro_write, &c);
        ck_assert_msg(rc == EACCES, "child exit %d (want EACCES %d)", rc, EACCES);
        list_dir(dir, names, sizeof names);
        ck_assert_str_eq(names, "");
    }
}
END_TEST

START_TEST(atomic_dev_full_is_enospc_and_leaves_nothing)
{
    char err[512], before[8192], after[8192];
    list_dir("/dev", before, sizeof before);
    static char big[200000];
    ck_assert_int_eq(rf_atomic_file_write("/dev/full", big, sizeof big, 0, err, sizeof err), -1);
    ck_assert_int_eq(errno, ENOSPC);
    ck_assert_ptr_nonnull(strstr(err, "/dev/full"));
    ck_assert_ptr_nonnull(strstr(err, strerror(ENOSPC)));
    uint32_t px[32 * 32];
    memset(px, 0x7f, sizeof px);
    rf_png_frame_t f = { px, 32, 32, 128, 0 };
    rf_png_error_t e;
    rf_png_options_t stored = { 0, RF_PNG_FILTER_NONE, 0 };
    ck_assert_int_eq(rf_png_write_path(&f, &stored, "/dev/full", 0, &e), RF_PNG_IO_ERROR);
    ck_assert_int_eq(e.sys_errno, ENOSPC);
    list_dir("/dev", after, sizeof after);
    ck_assert_str_eq(before, after);
    /* /dev/null works in place */
    ck_assert_int_eq(rf_png_write_path(&f, NULL, "/dev/null", RF_ATOMIC_FSYNC, &e), RF_PNG_SUCCESS);
}
END_TEST

typedef struct fsize_case {
    char path[512];
    int flags;
} fsize_case_t;

static int fsize_write(void *arg)
{
    fsize_case_t *c = arg;
    struct rlimit rl = { 10000, 10000 };
    signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
        return 200;
    static char big[100000];
    char err[512];
    if (rf_atomic_file_write(c->path, big, sizeof big, c->flags, err, sizeof err) == 0)
        return 0;
    return errno;
}

START_TEST(atomic_write_error_midway_leaves_nothing)
{
    for (int named = 0; named <= 1; named++) {
        char names[1024];
        fsize_case_t c = { .flags = named ? RF_ATOMIC_NAMED_TEMP : 0 };
        path_in(c.path, sizeof c.path, "big.png");
        ck_assert_int_eq(in_child(fsize_write, &c), EFBIG);
        list_dir(tmpdir, names, sizeof names);
        ck_assert_str_eq(names, "");
        /* with an old file: still the old file */
        spit(c.path, "old", 3);
        ck_assert_int_eq(in_child(fsize_write, &c), EFBIG);
        list_dir(tmpdir, names, sizeof names);
        ck_assert_str_eq(names, "big.png");
        size_t len;
        uint8_t *d = slurp(c.path, &len);
        ck_assert_uint_eq(len, 3);
        free(d);
        unlink(c.path);
    }
}
END_TEST

/* In a private mount namespace: a 64 KiB tmpfs, a 256 KiB PNG. Exit 77 when
 * mounting is not permitted here. */
static int tmpfs_write(void *arg)
{
    const char *dir = arg;
    if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0)
        return 77;
    char path[600];
    snprintf(path, sizeof path, "%s/frame-00000.png", dir);
    uint32_t *px = malloc(256 * 256 * 4);
    uint32_t x = 2463534242u;   /* xorshift32: incompressible, whatever the filter */
    for (int i = 0; i < 256 * 256; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        px[i] = 0xff000000u | x;
    }
    rf_png_frame_t f = { px, 256, 256, 1024, 0 };
    rf_png_error_t e;
    int rc = 0;
    for (int named = 0; named <= 1 && rc == 0; named++) {
        rf_png_status_t st = rf_png_write_path(&f, NULL, path, named ? RF_ATOMIC_NAMED_TEMP : 0, &e);
        if (st != RF_PNG_IO_ERROR || e.sys_errno != ENOSPC)
            rc = 10 + named;
        char names[1024];
        list_dir(dir, names, sizeof names);
        if (rc == 0 && names[0] != '\0')
            rc = 20 + named;
    }
    free(px);
    return rc;
}

START_TEST(atomic_full_tmpfs_is_enospc_and_leaves_nothing)
{
    char dir[512];
    path_in(dir, sizeof dir, "mnt");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    int rc = in_child(tmpfs_write, dir);
    if (rc == 77) {
        fprintf(stderr, "check_png: tmpfs ENOSPC case skipped (cannot mount here)\n");
        return;
    }
    ck_assert_msg(rc == 0, "tmpfs child failed with %d", rc);
}
END_TEST

/* The SIGKILL case: a child writes a 2 MB file slowly; the parent kills it
 * at a random moment. Whatever the moment, the target is absent or holds
 * the complete old or new contents. */
typedef struct kill_case {
    char path[512];
    int flags;
    int fd;   /* pipe: the child says it started */
} kill_case_t;

static int slow_write(void *arg)
{
    kill_case_t *c = arg;
    rf_atomic_file_t af;
    char err[512];
    if (rf_atomic_file_open(&af, c->path, c->flags, err, sizeof err) != 0)
        return 1;
    static char chunk[20000];
    memset(chunk, 'N', sizeof chunk);
    for (int i = 0; i < 100; i++) {
        fwrite(chunk, 1, sizeof chunk, af.fp);
        fflush(af.fp);
        if (i == 0 && write(c->fd, "s", 1) != 1)
            return 2;
        usleep(50);
    }
    return rf_atomic_file_commit(&af, err, sizeof err) == 0 ? 0 : 3;
}

START_TEST(atomic_sigkill_never_leaves_a_partial_file)
{
    srand((unsigned)time(NULL));
    for (int iter = 0; iter < 24; iter++) {
        int named = iter % 2, old = (iter / 2) % 2;
        kill_case_t c = { .flags = named ? RF_ATOMIC_NAMED_TEMP : 0 };
        path_in(c.path, sizeof c.path, "frame-00007.png");
        if (old)
            spit(c.path, "old", 3);
        int p[2];
        ck_assert_int_eq(pipe(p), 0);
        c.fd = p[1];
        fflush(NULL);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0)
            _exit(slow_write(&c));
        char ch;
        ck_assert_int_eq(read(p[0], &ch, 1), 1);
        /* half the runs die mid-write, half most likely after the commit */
        usleep((useconds_t)((iter / 4) % 2 ? 40000 + rand() % 20000 : rand() % 5000));
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        close(p[0]);
        close(p[1]);
        struct stat st;
        if (stat(c.path, &st) == 0) {
            ck_assert_msg(st.st_size == 2000000 || (old && st.st_size == 3),
                          "iteration %d: a %lld-byte file", iter, (long long)st.st_size);
        } else {
            ck_assert_int_eq(old, 0);
        }
        /* nothing else but hidden temporaries of the named fallback (or of
         * the instant between link and rename when replacing) */
        DIR *d = opendir(tmpdir);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
                strcmp(e->d_name, "frame-00007.png") == 0)
                continue;
            ck_assert_msg(strncmp(e->d_name, ".frame-00007.png.", 17) == 0 &&
                          strlen(e->d_name) == 23 && (named || old),
                          "iteration %d: stray file %s", iter, e->d_name);
        }
        closedir(d);
        rf_test_rm_rf(tmpdir);
        ck_assert_int_eq(mkdir(tmpdir, 0755), 0);
    }
}
END_TEST

START_TEST(atomic_refuses_directories_and_special_files)
{
    char err[512], path[512];
    ck_assert_int_eq(rf_atomic_file_write(tmpdir, "x", 1, 0, err, sizeof err), -1);
    ck_assert_int_eq(errno, EISDIR);
    snprintf(path, sizeof path, "%s/sub/", tmpdir);
    ck_assert_int_eq(rf_atomic_file_write(path, "x", 1, 0, err, sizeof err), -1);
    ck_assert_int_eq(errno, EISDIR);
    path_in(path, sizeof path, "no/such/dir/f.png");
    ck_assert_int_eq(rf_atomic_file_write(path, "x", 1, 0, err, sizeof err), -1);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_ptr_nonnull(strstr(err, path));
    ck_assert_int_eq(rf_atomic_file_write("", "x", 1, 0, err, sizeof err), -1);
    ck_assert_int_eq(errno, ENOENT);
    /* commit of a closed handle */
    rf_atomic_file_t af;
    memset(&af, 0, sizeof af);
    ck_assert_int_eq(rf_atomic_file_commit(&af, err, sizeof err), -1);
    rf_atomic_file_abort(&af);
}
END_TEST

START_TEST(atomic_symlink_to_file_is_replaced_by_a_file)
{
    char target[512], link[512], err[512];
    path_in(target, sizeof target, "real.png");
    path_in(link, sizeof link, "link.png");
    spit(target, "real", 4);
    ck_assert_int_eq(symlink(target, link), 0);
    ck_assert_int_eq(rf_atomic_file_write(link, "new", 3, 0, err, sizeof err), 0);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    size_t len;
    uint8_t *d = slurp(target, &len);
    ck_assert_uint_eq(len, 4);   /* the file it pointed to is untouched */
    free(d);
}
END_TEST

START_TEST(dir_create_nested_and_errors)
{
    char path[512], err[512];
    path_in(path, sizeof path, "a/b//c/d/");
    ck_assert_int_eq(rf_atomic_dir_create(path, err, sizeof err), 0);
    struct stat st;
    path_in(path, sizeof path, "a/b/c/d");
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    ck_assert_int_eq(st.st_mode & 0777, 0755);
    ck_assert_int_eq(rf_atomic_dir_create(path, err, sizeof err), 0);   /* exists: fine */
    path_in(path, sizeof path, "a/file");
    spit(path, "x", 1);
    path_in(path, sizeof path, "a/file/sub");
    ck_assert_int_eq(rf_atomic_dir_create(path, err, sizeof err), -1);
    ck_assert_int_eq(errno, ENOTDIR);
    char comp[512];
    path_in(comp, sizeof comp, "a/file");
    ck_assert_ptr_nonnull(strstr(err, comp));
    ck_assert_ptr_null(strstr(err, "sub"));   /* names the component */
    ck_assert_int_eq(rf_atomic_dir_create("", err, sizeof err), -1);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_int_eq(rf_atomic_dir_create("/", err, sizeof err), 0);
    /* relative paths */
    char cwd[512];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(tmpdir), 0);
    ck_assert_int_eq(rf_atomic_dir_create("rel/x", err, sizeof err), 0);
    ck_assert_int_eq(stat("rel/x", &st), 0);
    ck_assert_int_eq(rf_atomic_file_write("plain.png", "p", 1, 0, err, sizeof err), 0);
    ck_assert_int_eq(stat("plain.png", &st), 0);
    ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

/* In the child: mkdir -p below the read-only folder; exit with the errno
 * (201: the message does not name the component that failed). */
static int ro_mkdir(void *arg)
{
    ro_case_t *c = arg;
    if (drop_privileges() != 0)
        return 200;
    char err[512], comp[720];
    snprintf(comp, sizeof comp, "%s/sub", c->path);
    strcat(c->path, "/sub/deeper");
    if (rf_atomic_dir_create(c->path, err, sizeof err) == 0)
        return 0;
    int e = errno;
    if (strstr(err, comp) == NULL || strstr(err, "deeper") != NULL ||
        strstr(err, strerror(e)) == NULL)
        return 201;
    return e;
}

START_TEST(dir_create_in_read_only_folder)
{
    ro_case_t c = { .png = 0 };
    path_in(c.path, sizeof c.path, "locked");
    ck_assert_int_eq(mkdir(c.path, 0755), 0);
    ck_assert_int_eq(chmod(c.path, 0555), 0);
    int rc = in_child(ro_mkdir, &c);
    ck_assert_msg(rc == EACCES, "child exit %d (want EACCES %d)", rc, EACCES);
    char names[1024];
    list_dir(c.path, names, sizeof names);
    ck_assert_str_eq(names, "");
}
END_TEST

/* ============================================================== suite */

static Suite *png_suite(void)
{
    Suite *s = suite_create("png");
    TCase *w = tcase_create("writer");
    tcase_add_checked_fixture(w, setup, teardown);
    tcase_set_timeout(w, 120);
    tcase_add_loop_test(w, unpremultiply_matches_cairo_formula_exhaustively, 0, 4);
    tcase_add_loop_test(w, unpremultiply_mixed_blocks_exhaustively, 0, 4);
    tcase_add_loop_test(w, unpremultiply_uniform_blocks_exhaustively, 0, 4);
    tcase_add_test(w, unpremultiply_hand_values);
    tcase_add_test(w, row_converters_every_length);
    tcase_add_test(w, opaque_scan_finds_any_pixel);
    tcase_add_test(w, roundtrip_through_cairo_reader_is_exact);
    tcase_add_test(w, our_png_decodes_to_hand_unpremultiplied_values);
    tcase_add_test(w, pixels_identical_to_cairo_writer_translucent);
    tcase_add_test(w, pixels_identical_to_cairo_writer_drawn_frames);
    tcase_add_test(w, color_type_rgb_only_when_every_pixel_opaque);
    tcase_add_test(w, every_level_and_filter_round_trips);
    tcase_add_test(w, invalid_arguments);
    tcase_add_test(w, filter_names);
    tcase_add_test(w, buffer_is_reused_and_len_exact);
    tcase_add_test(w, stream_and_path_writers_agree_with_memory);
    tcase_add_test(w, stream_to_dev_full_is_enospc);
    suite_add_tcase(s, w);

    TCase *r = tcase_create("reader");
    tcase_add_checked_fixture(r, setup, teardown);
    tcase_set_timeout(r, 120);
    tcase_add_test(r, read_gray_every_depth);
    tcase_add_test(r, read_gray16_rounds_like_pngjs);
    tcase_add_test(r, read_gray_alpha_8_16);
    tcase_add_test(r, read_rgb_8_16_with_and_without_key);
    tcase_add_test(r, read_rgb8_every_width);
    tcase_add_test(r, read_rgba_8_16);
    tcase_add_test(r, read_palette_every_depth_with_trns);
    tcase_add_test(r, read_palette_index_out_of_range_is_corrupt);
    tcase_add_test(r, read_adam7_small_sizes);
    tcase_add_test(r, read_ignores_gamma_srgb_text);
    tcase_add_test(r, read_apng_chunks_ignored);
    tcase_add_test(r, row_api_delivers_rows_in_order);
    suite_add_tcase(s, r);

    TCase *h = tcase_create("hostile");
    tcase_add_checked_fixture(h, setup, teardown);
    tcase_set_timeout(h, 120);
    tcase_add_test(h, truncated_at_every_length);
    tcase_add_test(h, flipped_crc_in_every_chunk);
    tcase_add_test(h, corrupt_zlib_data_with_good_crc);
    tcase_add_test(h, huge_and_zero_dimensions);
    tcase_add_test(h, bad_ihdr_fields_and_chunk_order);
    tcase_add_test(h, not_png_and_empty);
    tcase_add_test(h, paths_that_are_not_png_files);
    tcase_add_test(h, out_of_memory_is_a_status);
    tcase_add_test(h, status_strings);
    suite_add_tcase(s, h);

    TCase *a = tcase_create("atomic");
    tcase_add_checked_fixture(a, setup, teardown);
    tcase_set_timeout(a, 120);
    tcase_add_test(a, atomic_write_creates_and_replaces);
    tcase_add_test(a, atomic_target_untouched_until_commit);
    tcase_add_test(a, atomic_read_only_folder_fails_cleanly);
    tcase_add_test(a, atomic_dev_full_is_enospc_and_leaves_nothing);
    tcase_add_test(a, atomic_write_error_midway_leaves_nothing);
    tcase_add_test(a, atomic_full_tmpfs_is_enospc_and_leaves_nothing);
    tcase_add_test(a, atomic_sigkill_never_leaves_a_partial_file);
    tcase_add_test(a, atomic_refuses_directories_and_special_files);
    tcase_add_test(a, atomic_symlink_to_file_is_replaced_by_a_file);
    tcase_add_test(a, dir_create_nested_and_errors);
    tcase_add_test(a, dir_create_in_read_only_folder);
    suite_add_tcase(s, a);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(png_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
