/* fuzz-png.c - the PNG reader on any bytes, as `diff` and `check` read
 * goldens and candidates.
 *
 * Invariants (pngio.h): rf_png_read_mem() and rf_png_decode_mem() agree on
 * the status and, on success, on every pixel; rows arrive once each, in
 * order, after one header call that matches the image; a callback that
 * stops makes the decode RF_PNG_STOPPED; the image stays inside the canvas
 * limits; a failure leaves the image zeroed and a one-line message. A
 * decoded image, written again with rf_png_write_rgba_mem(), decodes to the
 * same bytes. libpng alone (RF_PNG_READER=libpng) and the portable loops
 * (RF_PNG_SCALAR=1) give what the default (the fast way where it takes
 * the file) gives, but for deflate streams libdeflate reads and zlib
 * refuses (lenient_deflate).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pngio.h"

#include "fuzz.h"

/* Pixels above this are not re-encoded (time, not correctness). */
#define REENCODE_MAX_PIXELS (1u << 20)

typedef struct decode_ctx {
    const rf_png_rgba_t *img;    /* the rf_png_read_mem result, or NULL */
    rf_png_info_t info;
    int headers;
    uint32_t next_row;
    uint32_t stop_at;            /* UINT32_MAX: never stop */
    uint64_t sum;
} decode_ctx_t;

static int on_header(void *ctx, const rf_png_info_t *info)
{
    decode_ctx_t *c = ctx;
    c->headers++;
    c->info = *info;
    FUZZ_CHECK(info->width >= 1 && info->height >= 1 && info->width <= RF_PNG_MAX_DIMENSION &&
                   info->height <= RF_PNG_MAX_DIMENSION &&
                   (uint64_t)info->width * info->height <= RF_PNG_MAX_PIXELS,
               "header %ux%u", info->width, info->height);
    FUZZ_CHECK(info->color_type == 0 || info->color_type == 2 || info->color_type == 3 ||
                   info->color_type == 4 || info->color_type == 6,
               "color type %u", info->color_type);
    FUZZ_CHECK(info->bit_depth == 1 || info->bit_depth == 2 || info->bit_depth == 4 ||
                   info->bit_depth == 8 || info->bit_depth == 16,
               "bit depth %u", info->bit_depth);
    FUZZ_CHECK(info->interlaced <= 1, "interlaced %u", info->interlaced);
    return c->stop_at == 0 ? 1 : 0;
}

static int on_row(void *ctx, uint32_t y, const uint8_t *rgba)
{
    decode_ctx_t *c = ctx;
    FUZZ_CHECK(c->headers == 1, "row before the header");
    FUZZ_CHECK(y == c->next_row && y < c->info.height, "row %u, expected %u of %u", y,
               c->next_row, c->info.height);
    c->next_row++;
    /* every byte of the row is readable (ASan checks) and defined */
    size_t n = (size_t)c->info.width * 4;
    for (size_t i = 0; i < n; i++)
        c->sum += rgba[i];
    if (c->img != NULL)
        FUZZ_CHECK(memcmp(rgba, c->img->pixels + (size_t)y * n, n) == 0,
                   "row %u differs from rf_png_read_mem", y);
    return y + 1 == c->stop_at ? 1 : 0;
}

static void check_failure(rf_png_status_t st, const rf_png_error_t *err)
{
    FUZZ_CHECK(st > RF_PNG_SUCCESS && st < RF_PNG_LAST_STATUS, "status %d", (int)st);
    FUZZ_CHECK(err->status == st, "err.status %d for %d", (int)err->status, (int)st);
    FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message) != NULL, "message");
    FUZZ_CHECK(err->message[0] != '\0' && strpbrk(err->message, "\r\n") == NULL,
               "message '%s'", err->message);
    FUZZ_CHECK(st != RF_PNG_INTERNAL_ERROR, "internal error: %s", err->message);
    FUZZ_CHECK(st != RF_PNG_IO_ERROR && st != RF_PNG_NOT_FOUND && st != RF_PNG_NOT_REGULAR_FILE,
               "a file status from memory: %s", err->message);
    FUZZ_CHECK(rf_png_status_to_string(st) != NULL, "no status text");
}

/* CRC-32 of PNG (ISO 3309), bitwise: inputs are small. */
static uint32_t crc32_png(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return c ^ 0xFFFFFFFFu;
}

/* A copy of data with every complete chunk's CRC made right, or NULL when
 * no CRC changed: a mutation almost always breaks a CRC, and the reader
 * checks them all, so without this the fuzzer would rarely get past the
 * first chunk. The input itself is decoded too, so bad CRCs stay tested. */
static uint8_t *fix_crcs(const uint8_t *data, size_t size)
{
    uint8_t *copy = NULL;
    size_t off = 8;
    while (size >= 12 && off <= size - 12) {
        uint32_t len = (uint32_t)data[off] << 24 | (uint32_t)data[off + 1] << 16 |
                       (uint32_t)data[off + 2] << 8 | data[off + 3];
        if (len > size - off - 12)
            break;
        uint32_t crc = crc32_png(data + off + 4, (size_t)len + 4);
        const uint8_t *at = data + off + 8 + len;
        uint8_t want[4] = { (uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8),
                            (uint8_t)crc };
        if (memcmp(at, want, 4) != 0) {
            if (copy == NULL) {
                copy = malloc(size);
                FUZZ_CHECK(copy != NULL, "out of memory");
                memcpy(copy, data, size);
            }
            memcpy(copy + off + 8 + len, want, 4);
        }
        off += (size_t)len + 12;
    }
    return copy;
}

static void check_png(const uint8_t *data, size_t size);

/* 1 when libpng's message is one of zlib's about a Huffman code that
 * libdeflate reads anyway (RFC 1951's reserved symbols 286, 287, 30, 31,
 * up to 288 and 32 codes declared, a run of code lengths past the end, an
 * incomplete code used): the one way the fast way and libpng may differ. */
static int lenient_deflate(const char *msg)
{
    static const char *const zlib_says[] = {
        "invalid literal/length code", "invalid distance code",
        "too many length or distance symbols", "invalid bit length repeat",
        "invalid code lengths set", "invalid literal/lengths set", "invalid distances set",
        "invalid code -- missing end-of-block",
    };
    for (size_t i = 0; i < sizeof zlib_says / sizeof zlib_says[0]; i++)
        if (strstr(msg, zlib_says[i]) != NULL)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_png(data, size);
    uint8_t *fixed = fix_crcs(data, size);
    if (fixed != NULL) {
        check_png(fixed, size);
        free(fixed);
    }
    return 0;
}

static void check_png(const uint8_t *data, size_t size)
{
    rf_png_rgba_t img;
    rf_png_error_t err;
    decode_ctx_t c;

    memset(&img, 0xA5, sizeof img);
    rf_png_status_t st = rf_png_read_mem(data, size, "fuzz.png", &img, &err);
    if (st != RF_PNG_SUCCESS) {
        check_failure(st, &err);
        FUZZ_CHECK(img.pixels == NULL && img.width == 0 && img.height == 0,
                   "failed read left an image");
        FUZZ_CHECK(st != RF_PNG_STOPPED, "stopped without a callback");
    } else {
        FUZZ_CHECK(err.status == RF_PNG_SUCCESS && err.message[0] == '\0', "success message");
        FUZZ_CHECK(img.pixels != NULL && img.width == img.info.width &&
                       img.height == img.info.height,
                   "image %ux%u, header %ux%u", img.width, img.height, img.info.width,
                   img.info.height);
        FUZZ_CHECK(img.width >= 1 && img.height >= 1 && img.width <= RF_PNG_MAX_DIMENSION &&
                       img.height <= RF_PNG_MAX_DIMENSION &&
                       (uint64_t)img.width * img.height <= RF_PNG_MAX_PIXELS,
                   "image %ux%u", img.width, img.height);
    }

    /* libpng alone (RF_PNG_READER=libpng) agrees with the fast way
     * (src/pngio-inflate.c): the same status, message and pixels, the
     * portable loops (RF_PNG_SCALAR) too */
    for (int way = 0; way < 2; way++) {
        rf_png_rgba_t other;
        rf_png_error_t err3;
        setenv(way == 0 ? "RF_PNG_READER" : "RF_PNG_SCALAR", way == 0 ? "libpng" : "1", 1);
        rf_png_status_t st3 = rf_png_read_mem(data, size, "fuzz.png", &other, &err3);
        unsetenv(way == 0 ? "RF_PNG_READER" : "RF_PNG_SCALAR");
        if (way == 0 && st == RF_PNG_SUCCESS && st3 == RF_PNG_CORRUPT &&
            lenient_deflate(err3.message)) {
            rf_png_rgba_destroy(&other);
            continue;   /* a stream libdeflate reads and zlib refuses (pngio-inflate.c) */
        }
        FUZZ_CHECK(st3 == st, "way %d: %d, the default %d (%s)", way, (int)st3, (int)st,
                   err3.message);
        if (st3 == RF_PNG_SUCCESS)
            FUZZ_CHECK(other.width == img.width && other.height == img.height &&
                           memcmp(other.pixels, img.pixels,
                                  (size_t)img.width * img.height * 4) == 0,
                       "way %d: other pixels", way);
        else
            FUZZ_CHECK(strcmp(err3.message, err.message) == 0, "way %d: '%s', the default '%s'",
                       way, err3.message, err.message);
        rf_png_rgba_destroy(&other);
    }

    /* the streaming decoder agrees */
    memset(&c, 0, sizeof c);
    c.img = st == RF_PNG_SUCCESS ? &img : NULL;
    c.stop_at = UINT32_MAX;
    rf_png_error_t err2;
    rf_png_status_t st2 = rf_png_decode_mem(data, size, NULL, on_header, on_row, &c, &err2);
    FUZZ_CHECK(st2 == st, "decode_mem %d, read_mem %d (%s)", (int)st2, (int)st, err2.message);
    if (st2 == RF_PNG_SUCCESS) {
        FUZZ_CHECK(c.headers == 1 && c.next_row == img.height, "%d headers, %u rows of %u",
                   c.headers, c.next_row, img.height);
        FUZZ_CHECK(memcmp(&c.info, &img.info, sizeof c.info) == 0, "header differs");
    } else {
        check_failure(st2, &err2);
        FUZZ_CHECK(c.headers <= 1, "%d headers", c.headers);
    }

    /* stopping: at the header, or after the middle row */
    if (st == RF_PNG_SUCCESS) {
        uint32_t stops[2] = { 0, img.height / 2 + 1 };
        for (int k = 0; k < 2; k++) {
            memset(&c, 0, sizeof c);
            c.img = &img;
            c.stop_at = stops[k];
            st2 = rf_png_decode_mem(data, size, "fuzz.png", on_header, on_row, &c, &err2);
            FUZZ_CHECK(st2 == RF_PNG_STOPPED, "stop at %u gave %d", stops[k], (int)st2);
            FUZZ_CHECK(c.next_row == stops[k], "stopped after %u rows, asked %u", c.next_row,
                       stops[k]);
            check_failure(st2, &err2);
        }
    }

    /* written again, it decodes to the same bytes */
    if (st == RF_PNG_SUCCESS && (uint64_t)img.width * img.height <= REENCODE_MAX_PIXELS) {
        rf_png_buffer_t out = { 0 };
        rf_png_options_t opt = { (int)(size % 10), (rf_png_filter_t)(size % 6), (int)(size % 3) };
        rf_png_rgba_t back;
        FUZZ_CHECK(rf_png_write_rgba_mem(&img, &opt, &out, &err2) == RF_PNG_SUCCESS,
                   "re-encode: %s", err2.message);
        FUZZ_CHECK(rf_png_read_mem(out.data, out.len, "again.png", &back, &err2) ==
                       RF_PNG_SUCCESS,
                   "re-read: %s", err2.message);
        FUZZ_CHECK(back.width == img.width && back.height == img.height &&
                       memcmp(back.pixels, img.pixels, (size_t)img.width * img.height * 4) == 0,
                   "re-encoded image differs");
        rf_png_rgba_destroy(&back);
        rf_png_buffer_destroy(&out);
    }
    rf_png_rgba_destroy(&img);
    FUZZ_CHECK(img.pixels == NULL, "free did not zero");
    rf_png_rgba_destroy(NULL);
}
