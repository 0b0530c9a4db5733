/* check_pngfast.c - the reader's fast way (src/pngio-inflate.c) against
 * libpng's (RF_PNG_READER=libpng), and its SSE2 loops against its
 * portable ones (RF_PNG_SCALAR=1).
 *
 * Files are made here: random rows, each with a random filter type byte
 * (any byte string is a valid filtered row, so all five filters meet every
 * kind of neighbour), RGB and RGBA, widths of 1 to 40 pixels and the odd
 * ones, zlib at random levels, the stream cut into IDAT chunks of random
 * sizes, ancillary chunks before and after the data. Each is decoded all
 * three ways: the same status, message and pixels. Then damaged and odd
 * files, each of which the fast way must decline (libpng decides, so the
 * outcome is libpng's, compared the same way), and files it must take;
 * on_header called once whichever way decodes; and the one known
 * difference, streams libdeflate reads and zlib refuses.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>

#include "pngio.h"
#include "pngio-int.h"
#include "testutil.h"

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

typedef struct buf {
    uint8_t *d;
    size_t n, cap;
} buf_t;

static void add(buf_t *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->d = realloc(b->d, b->cap);
        ck_assert_ptr_nonnull(b->d);
    }
    if (n > 0)
        memcpy(b->d + b->n, p, n);
    b->n += n;
}

static void chunk(buf_t *b, const char *type, const uint8_t *data, uint32_t n)
{
    uint8_t h[8];
    put32(h, n);
    memcpy(h + 4, type, 4);
    add(b, h, 8);
    add(b, data, n);
    uint32_t crc = libdeflate_crc32(0, h + 4, 4);
    if (n > 0)   /* libdeflate_crc32(crc, NULL, 0) is 0, not crc */
        crc = libdeflate_crc32(crc, data, n);
    put32(h, crc);
    add(b, h, 4);
}

/* How a file is made. */
typedef struct spec {
    uint32_t w, h;
    int ct;                 /* 2 or 6 */
    int level;              /* libdeflate level */
    int window;             /* the window declared, log2 (8 .. 15) */
    uint32_t max_idat;      /* the largest IDAT chunk (0: one chunk) */
    int text_before, text_after;
} spec_t;

static uint8_t *filtered_rows(const spec_t *s, size_t *len)
{
    size_t rb = (size_t)s->w * (s->ct == 6 ? 4 : 3) + 1;
    *len = rb * s->h;
    uint8_t *raw = malloc(*len);
    ck_assert_ptr_nonnull(raw);
    for (size_t i = 0; i < *len; i++)
        raw[i] = (uint8_t)rnd();
    for (uint32_t y = 0; y < s->h; y++) {
        raw[(size_t)y * rb] = (uint8_t)(rnd() % 5);
        /* some rows of few values, where the filters' sums wrap often */
        if (rnd() % 4 == 0)
            for (size_t i = 1; i < rb; i++)
                raw[(size_t)y * rb + i] = (uint8_t)(rnd() % 3 == 0 ? 255 : rnd() % 2);
    }
    return raw;
}

/* A zlib stream of raw by libdeflate (levels 0 to 12), its header then
 * made to declare a window of 2^window_log bytes (8 .. 15) and the
 * preset-dictionary flag when fdict. */
static uint8_t *deflated(const uint8_t *raw, size_t len, int level, int window_log, int fdict,
                         size_t *zlen)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
    ck_assert_ptr_nonnull(c);
    size_t cap = libdeflate_zlib_compress_bound(c, len);
    uint8_t *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    *zlen = libdeflate_zlib_compress(c, raw, len, out, cap);
    ck_assert_uint_gt(*zlen, 0);
    libdeflate_free_compressor(c);
    out[0] = (uint8_t)(((window_log - 8) << 4) | 8);
    out[1] = (uint8_t)((out[1] & 0xc0) | (fdict ? 0x20 : 0));
    out[1] = (uint8_t)(out[1] + (31 - (out[0] * 256u + out[1]) % 31) % 31);
    return out;
}

static void head(buf_t *b, uint32_t w, uint32_t h, int depth, int ct, int il)
{
    static const uint8_t sig[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };
    add(b, sig, 8);
    uint8_t ihdr[13];
    put32(ihdr, w);
    put32(ihdr + 4, h);
    ihdr[8] = (uint8_t)depth;
    ihdr[9] = (uint8_t)ct;
    ihdr[10] = ihdr[11] = 0;
    ihdr[12] = (uint8_t)il;
    chunk(b, "IHDR", ihdr, 13);
}

static void idats(buf_t *b, const uint8_t *z, size_t zlen, uint32_t max)
{
    size_t at = 0;
    do {
        size_t n = zlen - at;
        if (max > 0 && n > 0)
            n = 1 + rnd() % (n < max ? n : max);
        chunk(b, "IDAT", z + at, (uint32_t)n);
        at += n;
    } while (at < zlen);
}

static buf_t make(const spec_t *s)
{
    buf_t b = { 0 };
    size_t len, zlen;
    uint8_t *raw = filtered_rows(s, &len);
    uint8_t *z = deflated(raw, len, s->level, s->window, 0, &zlen);
    head(&b, s->w, s->h, 8, s->ct, 0);
    static const uint8_t text[] = "Comment\0made by check_pngfast";
    if (s->text_before)
        chunk(&b, "tEXt", text, sizeof text - 1);
    idats(&b, z, zlen, s->max_idat);
    if (s->text_after)
        chunk(&b, "tEXt", text, sizeof text - 1);
    chunk(&b, "IEND", NULL, 0);
    free(raw);
    free(z);
    return b;
}

/* Decodes b one way: env RF_PNG_READER and RF_PNG_SCALAR as given. */
typedef struct way {
    rf_png_status_t st;
    char msg[512];
    rf_png_rgba_t img;
} way_t;

static void decode_way(const buf_t *b, const char *reader, const char *scalar, way_t *out)
{
    if (reader != NULL)
        setenv("RF_PNG_READER", reader, 1);
    else
        unsetenv("RF_PNG_READER");
    if (scalar != NULL)
        setenv("RF_PNG_SCALAR", scalar, 1);
    else
        unsetenv("RF_PNG_SCALAR");
    rf_png_error_t err;
    out->st = rf_png_read_mem(b->d, b->n, "test.png", &out->img, &err);
    snprintf(out->msg, sizeof out->msg, "%s", out->st == RF_PNG_SUCCESS ? "" : err.message);
    unsetenv("RF_PNG_READER");
    unsetenv("RF_PNG_SCALAR");
}

/* All three ways agree; returns whether the fast way takes the file. */
static int agree(const buf_t *b, const char *what)
{
    way_t lib, fast, scal;
    decode_way(b, "libpng", NULL, &lib);
    decode_way(b, NULL, NULL, &fast);
    decode_way(b, NULL, "1", &scal);
    rf_check_msg(lib.st == fast.st && lib.st == scal.st, "%s: status %d / %d / %d (%s / %s)",
                 what, lib.st, fast.st, scal.st, lib.msg, fast.msg);
    rf_check_msg(strcmp(lib.msg, fast.msg) == 0 && strcmp(lib.msg, scal.msg) == 0,
                 "%s: '%s' / '%s'", what, lib.msg, fast.msg);
    if (lib.st == RF_PNG_SUCCESS) {
        size_t n = (size_t)lib.img.width * lib.img.height * 4;
        rf_check_msg(fast.img.width == lib.img.width && fast.img.height == lib.img.height,
                     "%s: size", what);
        rf_check_msg(memcmp(fast.img.pixels, lib.img.pixels, n) == 0, "%s: SSE2 pixels", what);
        rf_check_msg(memcmp(scal.img.pixels, lib.img.pixels, n) == 0, "%s: scalar pixels",
                     what);
    }
    rf_png_rgba_destroy(&lib.img);
    rf_png_rgba_destroy(&fast.img);
    rf_png_rgba_destroy(&scal.img);
    pngio_fast_t f;
    int took = pngio_fast_scan(b->d, b->n, &f) == 0 && pngio_fast_inflate(b->d, &f) == 0;
    pngio_fast_free(&f);
    return took;
}

START_TEST(random_files_decode_alike_every_way)
{
    static const uint32_t odd[] = { 1, 3, 17, 2, 5, 64, 333 };
    int taken = 0, total = 0;
    for (int i = 0; i < 400; i++) {
        spec_t s;
        memset(&s, 0, sizeof s);
        s.w = i < 7 * 8 ? odd[i % 7] : 1 + rnd() % 40;
        s.h = 1 + rnd() % 9;
        s.ct = rnd() % 2 ? 6 : 2;
        s.level = (int)(rnd() % 13);
        s.window = 15;
        s.max_idat = rnd() % 3 == 0 ? 0 : 1 + rnd() % 200;
        s.text_before = rnd() % 4 == 0;
        s.text_after = rnd() % 4 == 0;
        buf_t b = make(&s);
        char what[96];
        snprintf(what, sizeof what, "file %d (%ux%u, type %d)", i, s.w, s.h, s.ct);
        int took = agree(&b, what);
        /* every such file is one the fast way must take */
        rf_check_msg(took, "%s: the fast way declined a plain file", what);
        taken += took;
        total++;
        free(b.d);
    }
    ck_assert_int_eq(taken, total);
}
END_TEST

/* A plain file's bytes, to damage. */
static buf_t plain(uint32_t w, uint32_t h, int ct)
{
    spec_t s = { w, h, ct, 6, 15, 0, 0, 0 };
    return make(&s);
}

/* The offset of the first chunk of type t. */
static size_t find(const buf_t *b, const char *t)
{
    size_t pos = 8;
    while (pos + 12 <= b->n) {
        uint32_t n = (uint32_t)b->d[pos] << 24 | (uint32_t)b->d[pos + 1] << 16 |
                     (uint32_t)b->d[pos + 2] << 8 | b->d[pos + 3];
        if (memcmp(b->d + pos + 4, t, 4) == 0)
            return pos;
        pos += 12 + n;
    }
    ck_abort_msg("no %s chunk", t);
    return 0;
}

/* A file whose single IDAT holds the zlib stream z (CRC right). */
static buf_t with_stream(uint32_t w, uint32_t h, int ct, const uint8_t *z, size_t zlen)
{
    buf_t b = { 0 };
    head(&b, w, h, 8, ct, 0);
    chunk(&b, "IDAT", z, (uint32_t)zlen);
    chunk(&b, "IEND", NULL, 0);
    return b;
}

static void declined(buf_t *b, const char *what)
{
    ck_assert_msg(!agree(b, what), "%s: the fast way took it", what);
    free(b->d);
}

START_TEST(odd_and_damaged_files_are_left_to_libpng)
{
    const uint32_t w = 9, h = 4;
    size_t rb = w * 4 + 1, len = rb * h, zlen;
    uint8_t raw[4 * 37 + 1];
    for (size_t i = 0; i < sizeof raw; i++)
        raw[i] = (uint8_t)rnd();
    for (uint32_t y = 0; y < h; y++)
        raw[y * rb] = (uint8_t)(y % 5);
    buf_t b;

    /* a filter type byte of 5: libpng's "bad adaptive filter value" */
    raw[2 * rb] = 5;
    uint8_t *z = deflated(raw, len, 6, 15, 0, &zlen);
    b = with_stream(w, h, 6, z, zlen);
    declined(&b, "filter type 5");
    free(z);
    raw[2 * rb] = 2;

    /* a wrong Adler-32: libpng is told to ignore it, and so is the fast
     * way (the CRCs cover every byte): taken, decoded alike */
    z = deflated(raw, len, 6, 15, 0, &zlen);
    z[zlen - 1] ^= 1;
    b = with_stream(w, h, 6, z, zlen);
    ck_assert_msg(agree(&b, "wrong Adler-32"), "a wrong Adler-32 declined");
    free(b.d);
    z[zlen - 1] ^= 1;
    /* ...but the 4 bytes must be there */
    b = with_stream(w, h, 6, z, zlen - 1);
    declined(&b, "Adler-32 cut short");

    /* bytes after the zlib stream, in the same IDAT */
    uint8_t *z2 = malloc(zlen + 3);
    memcpy(z2, z, zlen);
    memcpy(z2 + zlen, "xyz", 3);
    b = with_stream(w, h, 6, z2, zlen + 3);
    declined(&b, "data after the stream");
    free(z2);

    /* a stream one row short: libpng's "Not enough image data" */
    free(z);
    z = deflated(raw, len - rb, 6, 15, 0, &zlen);
    b = with_stream(w, h, 6, z, zlen);
    declined(&b, "a row short");
    free(z);

    /* a stream one byte long */
    z = deflated(raw, len + 1, 6, 15, 0, &zlen);
    b = with_stream(w, h, 6, z, zlen);
    declined(&b, "a byte long");
    free(z);

    /* a window of 512 bytes declared for a larger image, whose stream
     * reaches further back (zlib holds distances to the window declared;
     * libdeflate would not) */
    uint8_t big[(64 * 4 + 1) * 8];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i % 1400 < 700 ? rnd() : big[i - 700]);
    for (int y = 0; y < 8; y++)
        big[y * (64 * 4 + 1)] = 0;
    z = deflated(big, sizeof big, 9, 9, 0, &zlen);
    b = with_stream(64, 8, 6, z, zlen);
    declined(&b, "a 512-byte window");
    free(z);
    /* ...which is fine when the image fits in it */
    z = deflated(raw, len, 9, 9, 0, &zlen);
    b = with_stream(w, h, 6, z, zlen);
    ck_assert_msg(agree(&b, "a 512-byte window, a small image"), "small window declined");
    free(b.d);
    free(z);

    /* a preset dictionary flag */
    z = deflated(raw, len, 6, 15, 1, &zlen);
    b = with_stream(w, h, 6, z, zlen);
    declined(&b, "FDICT");
    free(z);

    /* damaged CRCs: IHDR, IDAT, an ancillary chunk, IEND */
    static const char *const crc_of[] = { "IHDR", "IDAT", "tEXt", "IEND" };
    for (int k = 0; k < 4; k++) {
        spec_t s = { w, h, 6, 6, 15, 0, 1, 0 };
        b = make(&s);
        size_t at = find(&b, crc_of[k]);
        uint32_t n = (uint32_t)b.d[at + 3] | (uint32_t)b.d[at + 2] << 8;
        b.d[at + 8 + n] ^= 0x40;
        char what[64];
        snprintf(what, sizeof what, "bad CRC of %s", crc_of[k]);
        declined(&b, what);
    }

    /* chunks that are libpng's: tRNS, PLTE, an unknown critical chunk, a
     * second run of IDAT, IEND with data, no IEND, a bad chunk name */
    {
        size_t zl;
        uint8_t *zz = deflated(raw, len, 6, 15, 0, &zl);
        static const uint8_t key[6] = { 0, 1, 0, 2, 0, 3 };
        b = (buf_t){ 0 };
        head(&b, w, h, 8, 2, 0);
        uint8_t rgb_raw[4 * 28];
        for (uint32_t y = 0; y < h; y++) {
            rgb_raw[y * 28] = 0;
            for (int i = 1; i < 28; i++)
                rgb_raw[y * 28 + i] = (uint8_t)(i % 4);
        }
        size_t zl2;
        uint8_t *zr = deflated(rgb_raw, sizeof rgb_raw, 6, 15, 0, &zl2);
        chunk(&b, "tRNS", key, 6);
        chunk(&b, "IDAT", zr, (uint32_t)zl2);
        chunk(&b, "IEND", NULL, 0);
        declined(&b, "tRNS");
        b = (buf_t){ 0 };
        head(&b, w, h, 8, 2, 0);
        chunk(&b, "PLTE", key, 6);
        chunk(&b, "IDAT", zr, (uint32_t)zl2);
        chunk(&b, "IEND", NULL, 0);
        declined(&b, "PLTE in RGB");
        free(zr);

        b = (buf_t){ 0 };
        head(&b, w, h, 8, 6, 0);
        chunk(&b, "ABCD", key, 6);
        chunk(&b, "IDAT", zz, (uint32_t)zl);
        chunk(&b, "IEND", NULL, 0);
        declined(&b, "critical ABCD");

        b = (buf_t){ 0 };
        head(&b, w, h, 8, 6, 0);
        chunk(&b, "IDAT", zz, (uint32_t)(zl / 2));
        chunk(&b, "tEXt", (const uint8_t *)"a\0b", 3);
        chunk(&b, "IDAT", zz + zl / 2, (uint32_t)(zl - zl / 2));
        chunk(&b, "IEND", NULL, 0);
        declined(&b, "IDAT, tEXt, IDAT");

        b = (buf_t){ 0 };
        head(&b, w, h, 8, 6, 0);
        chunk(&b, "IDAT", zz, (uint32_t)zl);
        chunk(&b, "IEND", key, 2);
        declined(&b, "IEND with data");

        b = (buf_t){ 0 };
        head(&b, w, h, 8, 6, 0);
        chunk(&b, "IDAT", zz, (uint32_t)zl);
        declined(&b, "no IEND");

        b = (buf_t){ 0 };
        head(&b, w, h, 8, 6, 0);
        chunk(&b, "t3Xt", key, 6);
        chunk(&b, "IDAT", zz, (uint32_t)zl);
        chunk(&b, "IEND", NULL, 0);
        declined(&b, "chunk name with a digit");

        /* the zlib header split over two IDAT chunks */
        b = (buf_t){ 0 };
        head(&b, w, h, 8, 6, 0);
        chunk(&b, "IDAT", zz, 1);
        chunk(&b, "IDAT", zz + 1, (uint32_t)(zl - 1));
        chunk(&b, "IEND", NULL, 0);
        ck_assert_msg(agree(&b, "zlib header split"), "a split zlib header declined");
        free(b.d);
        free(zz);
    }

    /* other formats: 16-bit, gray, palette, interlaced */
    b = (buf_t){ 0 };
    {
        uint8_t r16[2 * (1 + 6 * 2)];
        memset(r16, 0x5a, sizeof r16);
        r16[0] = r16[13] = 0;
        z = deflated(r16, sizeof r16, 6, 15, 0, &zlen);
        head(&b, 2, 2, 16, 2, 0);
        chunk(&b, "IDAT", z, (uint32_t)zlen);
        chunk(&b, "IEND", NULL, 0);
        declined(&b, "16-bit RGB");
        free(z);
    }
    {
        z = deflated(raw, len, 6, 15, 0, &zlen);
        b = (buf_t){ 0 };
        head(&b, w, h, 8, 6, 1);
        chunk(&b, "IDAT", z, (uint32_t)zlen);
        chunk(&b, "IEND", NULL, 0);
        declined(&b, "interlaced");
        free(z);
    }
    b = plain(w, h, 6);
    ck_assert_msg(agree(&b, "plain"), "plain file declined");
    /* truncated anywhere: declined, and libpng's message */
    for (size_t cut = 8; cut < b.n; cut += 7) {
        buf_t t = { malloc(cut), cut, cut };
        memcpy(t.d, b.d, cut);
        char what[48];
        snprintf(what, sizeof what, "cut at %zu", cut);
        declined(&t, what);
    }
    free(b.d);
}
END_TEST

/* on_header once, also when the fast way called it and then declined
 * the stream (libpng goes on without calling it again); and a caller
 * that stops at the header stops there. */
typedef struct counts {
    int headers, rows, stop;
} counts_t;

static int count_header(void *ctx, const rf_png_info_t *info)
{
    counts_t *c = ctx;
    (void)info;
    c->headers++;
    return c->stop;
}

static int count_row(void *ctx, uint32_t y, const uint8_t *rgba)
{
    counts_t *c = ctx;
    (void)y;
    (void)rgba;
    c->rows++;
    return 0;
}

START_TEST(header_once_when_the_stream_is_declined)
{
    const uint32_t w = 5, h = 3;
    uint8_t raw[3 * 21];
    for (size_t i = 0; i < sizeof raw; i++)
        raw[i] = (uint8_t)(i * 7);
    raw[0] = raw[21] = raw[42] = 1;
    size_t zlen;
    uint8_t *z = deflated(raw, sizeof raw, 6, 15, 0, &zlen);
    for (int bad = 0; bad < 2; bad++) {
        raw[21] = bad ? 5 : 1;   /* a filter type of 5: libpng's error, after the header */
        free(z);
        z = deflated(raw, sizeof raw, 6, 15, 0, &zlen);
        buf_t b = with_stream(w, h, 6, z, zlen);
        for (int stop = 0; stop < 2; stop++) {
            counts_t c = { 0, 0, stop };
            rf_png_error_t err;
            rf_png_status_t st = rf_png_decode_mem(b.d, b.n, "t.png", count_header, count_row,
                                                   &c, &err);
            ck_assert_int_eq(c.headers, 1);
            if (stop) {
                ck_assert_int_eq(st, RF_PNG_STOPPED);
                ck_assert_int_eq(c.rows, 0);
            } else if (bad) {
                ck_assert_int_eq(st, RF_PNG_CORRUPT);
                ck_assert_msg(strstr(err.message, "bad adaptive filter value") != NULL, "%s",
                              err.message);
            } else {
                ck_assert_int_eq(st, RF_PNG_SUCCESS);
                ck_assert_int_eq(c.rows, (int)h);
            }
        }
        free(b.d);
    }
    free(z);
}
END_TEST

/* Streams that break RFC 1951 in ways libdeflate reads and zlib refuses
 * (tests/fuzz/corpus/png/lenient-*.png, made by a review's generator):
 * the one known way the fast way and libpng differ (pngio-inflate.c,
 * runeframe(1) RF_PNG_READER). Held here so that a change shows. */
START_TEST(lenient_streams_are_read)
{
    static const char *const names[] = {
        "A-litlen-286", "B-dist-sym-30", "C-hdist-32", "C-hlit-288", "D-repeat-overrun",
        "E-incomplete-dist-code-bit1",
    };
    const char *top = getenv("top_srcdir");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/fuzz/corpus/png/lenient-%s.png",
                 top != NULL ? top : ".", names[i]);
        rf_png_rgba_t a, c;
        rf_png_error_t err;
        ck_assert_msg(rf_png_read_path(path, &a, &err) == RF_PNG_SUCCESS, "%s: %s", path,
                      err.message);
        setenv("RF_PNG_READER", "libpng", 1);
        rf_png_status_t st = rf_png_read_path(path, &c, &err);
        unsetenv("RF_PNG_READER");
        ck_assert_msg(st == RF_PNG_CORRUPT && strstr(err.message, "IDAT: ") != NULL,
                      "%s: libpng gave %d (%s)", names[i], st, err.message);
        rf_png_rgba_destroy(&a);
    }
}
END_TEST

/* Through a file path too (the reader reads it whole first). */
START_TEST(path_reads_agree)
{
    spec_t s = { 333, 7, 2, 1, 15, 100, 1, 1 };
    buf_t b = make(&s);
    char path[] = "/tmp/rf-pngfast-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, b.d, b.n), (ssize_t)b.n);
    close(fd);
    rf_png_rgba_t a, c;
    rf_png_error_t err;
    setenv("RF_PNG_READER", "libpng", 1);
    ck_assert_int_eq(rf_png_read_path(path, &a, &err), RF_PNG_SUCCESS);
    unsetenv("RF_PNG_READER");
    ck_assert_int_eq(rf_png_read_path(path, &c, &err), RF_PNG_SUCCESS);
    ck_assert_int_eq(memcmp(a.pixels, c.pixels, (size_t)333 * 7 * 4), 0);
    rf_png_rgba_destroy(&a);
    rf_png_rgba_destroy(&c);
    unlink(path);
    free(b.d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pngfast");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_files_decode_alike_every_way);
    tcase_add_test(tc, odd_and_damaged_files_are_left_to_libpng);
    tcase_add_test(tc, path_reads_agree);
    tcase_add_test(tc, header_once_when_the_stream_is_declined);
    tcase_add_test(tc, lenient_streams_are_read);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
