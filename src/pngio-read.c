/* pngio-read.c - the PNG reader: a file or memory decoded on libpng,
 * row by row into the caller's rows (or one whole RGBA image), with the
 * checks a hostile file needs before libpng sees it. (How errors and
 * libpng's longjmp are handled: pngio.c.)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* O_CLOEXEC, O_NOCTTY for a bare -std=c11 */
#endif

#include "pngio-int.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define RF_READ_BUFSIZE (64 * 1024)  /* reader's read(2) size */
#define RF_READ_WHOLE (64u << 20)    /* files up to this size are read whole */

typedef struct png_dec {
    rf_png_memflag_t mem;          /* first: libpng's mem_ptr */
    png_structp png;
    png_infop info;
    const char *name;           /* for messages */
    /* input: memory, or fd through buf */
    int fd;                     /* -1 for memory input */
    const uint8_t *in;          /* unread bytes are in[pos .. end) */
    size_t pos, end;
    uint8_t *buf;               /* fd input buffer */
    size_t cap;                 /* its size */
    uint64_t total;             /* bytes taken from the source so far */
    /* output */
    rf_png_header_fn on_header;
    rf_png_row_fn on_row;
    rf_png_dest_fn dest;        /* NULL: rows go to d->rgba */
    void *ctx;
    rf_png_info_t hdr;
    int header_sent;            /* the fast way called on_header already */
    uint8_t *raw;               /* one row as libpng gives it */
    uint8_t *rgba;              /* one converted row */
    uint8_t *image;             /* interlaced: the whole RGBA image */
    /* pixel format */
    uint8_t pal[256][4];        /* palette with tRNS alpha */
    int npal;
    int key;                    /* tRNS color key present (gray, RGB) */
    uint16_t key_r, key_g, key_b; /* gray in key_r */
    /* failure */
    rf_png_status_t status;
    int sys_errno;
    char detail[160];
} png_dec_t;

/* Refills d->buf so that at least want bytes are unread, or until the end
 * of the input. Returns 0, or -1 on a read error (status set). */
static int dec_fill(png_dec_t *d, size_t want)
{
    if (d->fd < 0)
        return 0;
    if (d->pos > 0) {
        memmove(d->buf, d->buf + d->pos, d->end - d->pos);
        d->end -= d->pos;
        d->pos = 0;
    }
    while (d->end < want) {
        ssize_t n = read(d->fd, d->buf + d->end, d->cap - d->end);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            d->status = RF_PNG_IO_ERROR;
            d->sys_errno = errno;
            return -1;
        }
        if (n == 0)
            break;
        d->end += (size_t)n;
        if (d->total + d->end > RF_PNG_MAX_FILE_SIZE) {
            d->status = RF_PNG_FILE_TOO_LARGE;   /* it grew after fstat */
            return -1;
        }
    }
    return 0;
}

static void dec_read(png_structp png, png_bytep out, size_t len)
{
    png_dec_t *d = png_get_io_ptr(png);
    while (len > 0) {
        if (d->pos == d->end) {
            if (dec_fill(d, 1) != 0)
                png_error(png, "read failed");
            if (d->pos == d->end) {
                d->status = RF_PNG_TRUNCATED;
                snprintf(d->detail, sizeof d->detail, "file ends after %llu bytes",
                         (unsigned long long)d->total);
                png_error(png, "unexpected end of file");
            }
        }
        size_t n = d->end - d->pos;
        if (n > len)
            n = len;
        memcpy(out, d->in + d->pos, n);
        d->pos += n;
        d->total += n;
        out += n;
        len -= n;
    }
}

static void dec_error(png_structp png, png_const_charp msg)
{
    png_dec_t *d = png_get_error_ptr(png);
    if (d->status == RF_PNG_SUCCESS) {
        if (d->mem.oom)
            d->status = RF_PNG_NO_MEMORY;
        else if (msg != NULL && strstr(msg, "CRC error") != NULL)
            d->status = RF_PNG_BAD_CRC;
        else
            d->status = RF_PNG_CORRUPT;
        snprintf(d->detail, sizeof d->detail, "%s", msg != NULL ? msg : "");
    }
    png_longjmp(png, 1);
}

/* Checks the signature and IHDR's size before libpng sees them, so the
 * status names the problem and nothing is allocated for a hostile size. */
static int dec_precheck(png_dec_t *d)
{
    static const uint8_t sig[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };
    if (dec_fill(d, 24) != 0)
        return -1;
    size_t have = d->end - d->pos;
    if (have == 0) {
        d->status = RF_PNG_EMPTY;
        return -1;
    }
    const uint8_t *p = d->in + d->pos;
    size_t n = have < 8 ? have : 8;
    if (memcmp(p, sig, n) != 0) {
        d->status = RF_PNG_NOT_PNG;
        return -1;
    }
    if (have < 24)
        return 0;   /* libpng reports the truncation */
    if (pngio_get32(p + 8) == 13 && memcmp(p + 12, "IHDR", 4) == 0) {
        uint32_t w = pngio_get32(p + 16), h = pngio_get32(p + 20);
        if (w == 0 || h == 0 || w > PNG_UINT_31_MAX || h > PNG_UINT_31_MAX) {
            d->status = RF_PNG_BAD_DIMENSIONS;
            snprintf(d->detail, sizeof d->detail, "IHDR says %lux%lu",
                     (unsigned long)w, (unsigned long)h);
            return -1;
        }
        if (w > RF_PNG_MAX_DIMENSION || h > RF_PNG_MAX_DIMENSION ||
            (uint64_t)w * h > RF_PNG_MAX_PIXELS) {
            d->status = RF_PNG_TOO_BIG;
            snprintf(d->detail, sizeof d->detail,
                     "%lux%lu; at most %ux%u and %u pixels",
                     (unsigned long)w, (unsigned long)h, RF_PNG_MAX_DIMENSION,
                     RF_PNG_MAX_DIMENSION, RF_PNG_MAX_PIXELS);
            return -1;
        }
    }
    return 0;
}

static inline uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
/* pngjs's floor(v * 255 / 65535 + 0.5) for a 16-bit sample, exactly. */
static inline uint8_t s16(const uint8_t *p) { return (uint8_t)((be16(p) + 128u) / 257u); }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RF_HAVE_SSSE3_ROWS 1
#include <tmmintrin.h>
/* 8-bit RGB to RGBA, four pixels per shuffle: opaque frames are RGB, and
 * the byte loop was a tenth of diff's CPU. x86-64's baseline is SSE2, so
 * this is compiled for SSSE3 alone and chosen at run time. Returns the
 * pixels done; the caller does the rest (at least two, so that the 16-byte
 * load of the last block stays inside the row). */
__attribute__((target("ssse3")))
static uint32_t rgb_to_rgba_ssse3(const uint8_t *restrict in, uint8_t *restrict out, uint32_t n)
{
    const __m128i shuf = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i alpha = _mm_set1_epi32((int)0xff000000u);
    uint32_t i = 0;
    for (; i + 6 <= n; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(in + 3 * (size_t)i));
        v = _mm_or_si128(_mm_shuffle_epi8(v, shuf), alpha);
        _mm_storeu_si128((__m128i *)(void *)(out + 4 * (size_t)i), v);
    }
    return i;
}

#include <immintrin.h>
/* The same with AVX2, eight pixels per shuffle: the 32 bytes loaded from
 * pixel i spread by dword (R G B R | G B R G | B R G B, twice) so that
 * each 128-bit lane holds four pixels, then the SSSE3 shuffle in each.
 * The 32-byte load needs 11 pixels left in the row. */
__attribute__((target("avx2")))
static uint32_t rgb_to_rgba_avx2(const uint8_t *restrict in, uint8_t *restrict out, uint32_t n)
{
    const __m256i shuf = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                          0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m256i spread = _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
    const __m256i alpha = _mm256_set1_epi32((int)0xff000000u);
    uint32_t i = 0;
    for (; i + 11 <= n; i += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(in + 3 * (size_t)i));
        v = _mm256_permutevar8x32_epi32(v, spread);
        v = _mm256_or_si256(_mm256_shuffle_epi8(v, shuf), alpha);
        _mm256_storeu_si256((__m256i *)(void *)(out + 4 * (size_t)i), v);
    }
    return i + rgb_to_rgba_ssse3(in + 3 * (size_t)i, out + 4 * (size_t)i, n - i);
}
#else
#define RF_HAVE_SSSE3_ROWS 0
#endif

/* Converts n pixels of one row as libpng gives it (in) to RGBA in out.
 * 0, or -1 (status set). */
static int dec_convert(png_dec_t *d, const uint8_t *restrict in, uint8_t *restrict out,
                       uint32_t n)
{
    int depth = d->hdr.bit_depth;
    switch (d->hdr.color_type) {
    case PNG_COLOR_TYPE_GRAY:
        if (depth == 16) {
            for (uint32_t i = 0; i < n; i++, in += 2, out += 4) {
                uint8_t g = s16(in);
                int t = d->key && be16(in) == d->key_r;
                out[0] = out[1] = out[2] = t ? 0 : g;
                out[3] = t ? 0 : 255;
            }
        } else {
            /* after png_set_packing: one sample 0 .. 2^depth - 1 per byte;
             * 255 / (2^d - 1) is an integer for d = 1, 2, 4, 8 */
            unsigned mul = 255u / ((1u << depth) - 1u);
            for (uint32_t i = 0; i < n; i++, out += 4) {
                uint8_t g = (uint8_t)(in[i] * mul);
                int t = d->key && in[i] == d->key_r;
                out[0] = out[1] = out[2] = t ? 0 : g;
                out[3] = t ? 0 : 255;
            }
        }
        return 0;
    case PNG_COLOR_TYPE_RGB:
        if (depth == 16) {
            for (uint32_t i = 0; i < n; i++, in += 6, out += 4) {
                int t = d->key && be16(in) == d->key_r && be16(in + 2) == d->key_g &&
                        be16(in + 4) == d->key_b;
                out[0] = t ? 0 : s16(in);
                out[1] = t ? 0 : s16(in + 2);
                out[2] = t ? 0 : s16(in + 4);
                out[3] = t ? 0 : 255;
            }
        } else if (d->key) {
            for (uint32_t i = 0; i < n; i++, in += 3, out += 4) {
                int t = in[0] == d->key_r && in[1] == d->key_g && in[2] == d->key_b;
                out[0] = t ? 0 : in[0];
                out[1] = t ? 0 : in[1];
                out[2] = t ? 0 : in[2];
                out[3] = t ? 0 : 255;
            }
        } else {
            uint32_t i = 0;
#if RF_HAVE_SSSE3_ROWS
            if (__builtin_cpu_supports("avx2"))
                i = rgb_to_rgba_avx2(in, out, n);
            else if (__builtin_cpu_supports("ssse3"))
                i = rgb_to_rgba_ssse3(in, out, n);
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* one 4-byte load per pixel (R G B and the next pixel's R, which
             * the alpha replaces): a third of the byte loop's work; the last
             * pixel is done bytewise so nothing past the row is read */
            for (; i + 1 < n; i++) {
                uint32_t v;
                memcpy(&v, in + 3 * (size_t)i, 4);
                v |= 0xff000000u;
                memcpy(out + 4 * (size_t)i, &v, 4);
            }
#endif
            for (; i < n; i++) {
                out[4 * i] = in[3 * i];
                out[4 * i + 1] = in[3 * i + 1];
                out[4 * i + 2] = in[3 * i + 2];
                out[4 * i + 3] = 255;
            }
        }
        return 0;
    case PNG_COLOR_TYPE_PALETTE:
        for (uint32_t i = 0; i < n; i++, out += 4) {
            if (in[i] >= d->npal) {
                d->status = RF_PNG_CORRUPT;
                snprintf(d->detail, sizeof d->detail,
                         "palette index %u out of range (palette has %d entries)",
                         in[i], d->npal);
                return -1;
            }
            memcpy(out, d->pal[in[i]], 4);
        }
        return 0;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        if (depth == 16) {
            for (uint32_t i = 0; i < n; i++, in += 4, out += 4) {
                out[0] = out[1] = out[2] = s16(in);
                out[3] = s16(in + 2);
            }
        } else {
            for (uint32_t i = 0; i < n; i++, in += 2, out += 4) {
                out[0] = out[1] = out[2] = in[0];
                out[3] = in[1];
            }
        }
        return 0;
    case PNG_COLOR_TYPE_RGB_ALPHA:
        if (depth == 16) {
            for (uint32_t i = 0; i < 4 * n; i++)
                out[i] = s16(in + 2 * i);
        } else {
            memcpy(out, in, (size_t)n * 4);
        }
        return 0;
    default:
        d->status = RF_PNG_CORRUPT;
        snprintf(d->detail, sizeof d->detail, "color type %d", d->hdr.color_type);
        return -1;
    }
}

/* Palette and color key, read from the info struct once. */
static void dec_prepare(png_dec_t *d)
{
    png_bytep trans_alpha = NULL;
    int num_trans = 0;
    png_color_16p trans_color = NULL;
    int has_trns = png_get_valid(d->png, d->info, PNG_INFO_tRNS) != 0 &&
                   png_get_tRNS(d->png, d->info, &trans_alpha, &num_trans, &trans_color) != 0;
    if (d->hdr.color_type == PNG_COLOR_TYPE_PALETTE) {
        png_colorp pal = NULL;
        int npal = 0;
        if (png_get_PLTE(d->png, d->info, &pal, &npal) == 0)
            npal = 0;
        d->npal = npal;
        for (int i = 0; i < npal && i < 256; i++) {
            d->pal[i][0] = pal[i].red;
            d->pal[i][1] = pal[i].green;
            d->pal[i][2] = pal[i].blue;
            d->pal[i][3] = has_trns && trans_alpha != NULL && i < num_trans ? trans_alpha[i] : 255;
        }
    } else if (has_trns && trans_color != NULL &&
               (d->hdr.color_type == PNG_COLOR_TYPE_GRAY ||
                d->hdr.color_type == PNG_COLOR_TYPE_RGB)) {
        d->key = 1;
        if (d->hdr.color_type == PNG_COLOR_TYPE_GRAY) {
            d->key_r = trans_color->gray;
        } else {
            d->key_r = trans_color->red;
            d->key_g = trans_color->green;
            d->key_b = trans_color->blue;
        }
    }
}

static RF_NOINLINE int dec_run(png_dec_t *d)
{
    if (setjmp(png_jmpbuf(d->png)))
        return -1;
    /* every libpng call after the setjmp: any of them may png_error() */
    png_set_read_fn(d->png, d, dec_read);
    png_set_user_limits(d->png, RF_PNG_MAX_DIMENSION, RF_PNG_MAX_DIMENSION);
    png_set_chunk_malloc_max(d->png, RF_PNG_MAX_CHUNK);
    /* pngjs fails on any bad CRC; libpng's default only warns for ancillary */
    png_set_crc_action(d->png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    /* ...but not on zlib's Adler-32: every IDAT byte is already covered by
     * its chunk's CRC-32, so a wrong Adler-32 under a right CRC is only an
     * encoder's bookkeeping slip, and pngjs (pixelmatch's reader) and odiff
     * decode such a file. Computing it was a fifth of diff's CPU time. */
#ifdef PNG_IGNORE_ADLER32
    png_set_option(d->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    /* skip every chunk but IHDR PLTE tRNS IDAT IEND: nothing else changes
     * pngjs's pixels, and unparsed chunks (iCCP, zTXt) cost no time */
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_read_info(d->png, d->info);
    png_uint_32 w, h;
    int depth, ct, il, comp, filt;
    png_get_IHDR(d->png, d->info, &w, &h, &depth, &ct, &il, &comp, &filt);
    if (w == 0 || h == 0 || w > RF_PNG_MAX_DIMENSION || h > RF_PNG_MAX_DIMENSION ||
        (uint64_t)w * h > RF_PNG_MAX_PIXELS) {
        /* the precheck saw a different IHDR only if it was not first */
        d->status = RF_PNG_TOO_BIG;
        snprintf(d->detail, sizeof d->detail, "%lux%lu", (unsigned long)w, (unsigned long)h);
        return -1;
    }
    d->hdr.width = w;
    d->hdr.height = h;
    d->hdr.bit_depth = (uint8_t)depth;
    d->hdr.color_type = (uint8_t)ct;
    d->hdr.interlaced = il == PNG_INTERLACE_ADAM7;
    dec_prepare(d);
    if (depth < 8)
        png_set_packing(d->png);
    png_read_update_info(d->png, d->info);
    size_t rowbytes = png_get_rowbytes(d->png, d->info);
    d->raw = malloc(rowbytes > 0 ? rowbytes : 1);
    d->rgba = malloc((size_t)w * 4);
    if (d->raw == NULL || d->rgba == NULL) {
        d->status = RF_PNG_NO_MEMORY;
        return -1;
    }
    if (!d->header_sent && d->on_header != NULL && d->on_header(d->ctx, &d->hdr) != 0) {
        d->status = RF_PNG_STOPPED;
        return -1;
    }
    if (!d->hdr.interlaced) {
        /* 8-bit RGBA needs no conversion: libpng writes it in place */
        int direct = ct == PNG_COLOR_TYPE_RGB_ALPHA && depth == 8;
        for (uint32_t y = 0; y < h; y++) {
            uint8_t *row = d->dest != NULL ? d->dest(d->ctx, y) : NULL;
            if (row == NULL)
                row = d->rgba;
            if (direct) {
                png_read_row(d->png, row, NULL);
            } else {
                png_read_row(d->png, d->raw, NULL);
                if (dec_convert(d, d->raw, row, w) != 0)
                    return -1;
            }
            if (d->on_row != NULL && d->on_row(d->ctx, y, row) != 0) {
                d->status = RF_PNG_STOPPED;
                return -1;
            }
        }
    } else {
        /* Without png_set_interlace_handling libpng returns each pass's
         * reduced rows; they are converted and scattered into the image, as
         * pngjs does. Empty passes have no rows in the file. */
        d->image = malloc((size_t)w * h * 4);
        if (d->image == NULL) {
            d->status = RF_PNG_NO_MEMORY;
            return -1;
        }
        for (int pass = 0; pass < 7; pass++) {
            uint32_t pw = PNG_PASS_COLS(w, pass), ph = PNG_PASS_ROWS(h, pass);
            if (pw == 0 || ph == 0)
                continue;
            for (uint32_t r = 0; r < ph; r++) {
                png_read_row(d->png, d->raw, NULL);
                if (dec_convert(d, d->raw, d->rgba, pw) != 0)
                    return -1;
                uint8_t *dst = d->image + (size_t)PNG_ROW_FROM_PASS_ROW(r, pass) * w * 4;
                for (uint32_t c = 0; c < pw; c++)
                    memcpy(dst + (size_t)PNG_COL_FROM_PASS_COL(c, pass) * 4, d->rgba + 4 * c, 4);
            }
        }
        for (uint32_t y = 0; y < h; y++) {
            if (d->on_row != NULL && d->on_row(d->ctx, y, d->image + (size_t)y * w * 4) != 0) {
                d->status = RF_PNG_STOPPED;
                return -1;
            }
        }
    }
    png_read_end(d->png, NULL);   /* the last CRCs, IEND: truncation shows here */
    return 0;
}

/* 1 when RF_PNG_READER is "libpng": every file through libpng (tests
 * compare the two ways). */
static int fast_off(void)
{
    const char *s = getenv("RF_PNG_READER");
    return s != NULL && strcmp(s, "libpng") == 0;
}

/* The fast way (pngio-inflate.c) for a file wholly in memory: 0 when it
 * decoded it (callbacks called as dec_run calls them), -1 when it failed
 * after taking it (status set: no memory, or a callback stopped), 1 when
 * it did not take it (libpng's turn; on_header may have been called:
 * header_sent). */
static int dec_fast(png_dec_t *d)
{
    if (d->fd >= 0 || fast_off())
        return 1;
    pngio_fast_t f;
    const uint8_t *file = d->in + d->pos;
    if (pngio_fast_scan(file, d->end - d->pos, &f) != 0)
        return 1;
    int rc = -1, scalar = pngio_scalar_forced();
    uint32_t w = f.width;
    d->hdr.width = w;
    d->hdr.height = f.height;
    d->hdr.bit_depth = 8;
    d->hdr.color_type = (uint8_t)f.color_type;
    d->hdr.interlaced = 0;
    /* The header before the inflate: a caller that stops there (a golden
     * of another size) costs no inflate. Should the inflate decline,
     * libpng goes on without calling it again: its png_read_info passes
     * where the scan did and reads the same IHDR. */
    if (d->on_header != NULL && d->on_header(d->ctx, &d->hdr) != 0) {
        d->status = RF_PNG_STOPPED;
        return -1;
    }
    d->header_sent = 1;
    if (pngio_fast_inflate(file, &f) != 0)
        return 1;
    d->rgba = malloc((size_t)w * 4);
    if (d->rgba == NULL) {
        d->status = RF_PNG_NO_MEMORY;
        goto out;
    }
    for (uint32_t y = 0; y < f.height; y++) {
        uint8_t *row = d->dest != NULL ? d->dest(d->ctx, y) : NULL;
        if (row == NULL)
            row = d->rgba;
        const uint8_t *raw = pngio_fast_row(&f, y, scalar);
        if (f.color_type == PNG_COLOR_TYPE_RGB_ALPHA) {
            memcpy(row, raw, (size_t)w * 4);
        } else if (dec_convert(d, raw, row, w) != 0) {
            goto out;
        }
        if (d->on_row != NULL && d->on_row(d->ctx, y, row) != 0) {
            d->status = RF_PNG_STOPPED;
            goto out;
        }
    }
    rc = 0;
out:
    free(d->rgba);
    d->rgba = NULL;
    pngio_fast_free(&f);
    return rc;
}

static rf_png_status_t dec_main(png_dec_t *d, rf_png_error_t *err)
{
    if (dec_precheck(d) != 0)
        return pngio_fail(err, d->status, d->name, d->detail, d->sys_errno);
    int fast = dec_fast(d);
    if (fast == 0) {
        pngio_ok(err);
        return RF_PNG_SUCCESS;
    }
    if (fast < 0)
        return pngio_fail(err, d->status, d->name, d->detail, d->sys_errno);
    d->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, d, dec_error,
                                      pngio_warning_quiet, &d->mem, pngio_mem_alloc,
                                      pngio_mem_free);
    if (d->png != NULL)
        d->info = png_create_info_struct(d->png);
    if (d->png == NULL || d->info == NULL) {
        png_destroy_read_struct(&d->png, &d->info, NULL);
        return pngio_fail(err, RF_PNG_NO_MEMORY, d->name, NULL, 0);
    }
    int rc = dec_run(d);
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d->raw);
    free(d->rgba);
    free(d->image);
    d->raw = d->rgba = d->image = NULL;
    if (rc != 0) {
        if (d->status == RF_PNG_SUCCESS)
            d->status = RF_PNG_INTERNAL_ERROR;
        return pngio_fail(err, d->status, d->name, d->detail, d->sys_errno);
    }
    pngio_ok(err);
    return RF_PNG_SUCCESS;
}

/* A decoder of len bytes at in (fd -1: memory input) for the callbacks. */
static void dec_init(png_dec_t *d, const char *name, const uint8_t *in, size_t len,
                     rf_png_header_fn on_header, rf_png_dest_fn dest, rf_png_row_fn on_row,
                     void *ctx)
{
    memset(d, 0, sizeof *d);
    d->name = name;
    d->fd = -1;
    d->in = in;
    d->end = len;
    d->on_header = on_header;
    d->dest = dest;
    d->on_row = on_row;
    d->ctx = ctx;
}

rf_png_status_t rf_png_decode_mem(const void *data, size_t len, const char *name,
                                  rf_png_header_fn on_header, rf_png_row_fn on_row,
                                  void *ctx, rf_png_error_t *err)
{
    if (name == NULL)
        name = "PNG data";
    if (data == NULL && len > 0)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "no data", 0);
    if (len > RF_PNG_MAX_FILE_SIZE)
        return pngio_fail(err, RF_PNG_FILE_TOO_LARGE, name, NULL, 0);
    png_dec_t d;
    dec_init(&d, name, data, len, on_header, NULL, on_row, ctx);
    return dec_main(&d, err);
}

rf_png_status_t rf_png_decode_path(const char *path, rf_png_header_fn on_header,
                                   rf_png_row_fn on_row, void *ctx,
                                   rf_png_error_t *err)
{
    return rf_png_decode_path_into(path, on_header, NULL, on_row, ctx, err);
}

/* Reads the file whole (size bytes, as fstat said, through dec_fill) and
 * decodes it from memory: *done 1 and the status; *done 0 when the file
 * turned out longer than size (it grew), back at its start for the
 * streaming reader. */
static rf_png_status_t dec_whole_file(int fd, size_t size, const char *path,
                                      rf_png_header_fn on_header, rf_png_dest_fn dest,
                                      rf_png_row_fn on_row, void *ctx, rf_png_error_t *err,
                                      int *done)
{
    png_dec_t d;
    dec_init(&d, path, NULL, 0, on_header, dest, on_row, ctx);
    *done = 1;
    d.cap = size + 1;
    d.buf = malloc(d.cap);
    if (d.buf == NULL)
        return pngio_fail(err, RF_PNG_NO_MEMORY, path, NULL, 0);
    d.fd = fd;
    d.in = d.buf;
    rf_png_status_t st;
    if (dec_fill(&d, d.cap) != 0) {
        st = pngio_fail(err, d.status, path, d.detail, d.sys_errno);
    } else if (d.end > size) {
        *done = lseek(fd, 0, SEEK_SET) != 0;
        st = *done ? pngio_fail(err, RF_PNG_IO_ERROR, path, NULL, errno) : RF_PNG_SUCCESS;
    } else {
        d.fd = -1;   /* all of it in memory */
        st = dec_main(&d, err);
    }
    free(d.buf);
    return st;
}

rf_png_status_t rf_png_decode_path_into(const char *path, rf_png_header_fn on_header,
                                        rf_png_dest_fn dest, rf_png_row_fn on_row,
                                        void *ctx, rf_png_error_t *err)
{
    if (path == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(null path)", "no path", 0);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        return pngio_fail(err, e == ENOENT || e == ENOTDIR ? RF_PNG_NOT_FOUND : RF_PNG_IO_ERROR,
                        path, NULL, e);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return pngio_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        const char *kind = S_ISDIR(st.st_mode) ? "a directory"
                         : S_ISCHR(st.st_mode) ? "a character device"
                         : S_ISBLK(st.st_mode) ? "a block device"
                         : S_ISFIFO(st.st_mode) ? "a FIFO"
                         : S_ISSOCK(st.st_mode) ? "a socket" : "a special file";
        return pngio_fail(err, RF_PNG_NOT_REGULAR_FILE, path, kind, 0);
    }
    /* a regular file: blocking reads from here on (O_NONBLOCK only guarded
     * the open; some network file systems honor it for reads too) */
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    if ((uint64_t)st.st_size > RF_PNG_MAX_FILE_SIZE) {
        close(fd);
        char detail[64];
        snprintf(detail, sizeof detail, "%lld bytes; at most %llu",
                 (long long)st.st_size, (unsigned long long)RF_PNG_MAX_FILE_SIZE);
        return pngio_fail(err, RF_PNG_FILE_TOO_LARGE, path, detail, 0);
    }
    /* A file of up to RF_READ_WHOLE bytes is read whole, for the fast
     * way (which needs all of it); it stays libpng's input when that way
     * declines. */
    if ((uint64_t)st.st_size <= RF_READ_WHOLE) {
        int stop = 0;
        rf_png_status_t st1 = dec_whole_file(fd, (size_t)st.st_size, path, on_header, dest,
                                             on_row, ctx, err, &stop);
        if (stop) {
            close(fd);
            return st1;
        }
    }
    png_dec_t d;
    dec_init(&d, path, NULL, 0, on_header, dest, on_row, ctx);
    d.cap = RF_READ_BUFSIZE;
    d.buf = malloc(d.cap);
    if (d.buf == NULL) {
        close(fd);
        return pngio_fail(err, RF_PNG_NO_MEMORY, path, NULL, 0);
    }
    d.fd = fd;
    d.in = d.buf;
    rf_png_status_t st2 = dec_main(&d, err);
    free(d.buf);
    close(fd);
    return st2;
}

/* Whole-image decoding on top of the row callbacks. */
typedef struct png_whole {
    rf_png_rgba_t *img;
} png_whole_t;

static int whole_header(void *ctx, const rf_png_info_t *info)
{
    png_whole_t *w = ctx;
    w->img->info = *info;
    w->img->width = info->width;
    w->img->height = info->height;
    w->img->pixels = malloc((size_t)info->width * info->height * 4);
    return w->img->pixels == NULL ? -1 : 0;
}

/* Rows are decoded straight into the image (no copy), except interlaced
 * ones, which arrive assembled and are copied. */
static uint8_t *whole_dest(void *ctx, uint32_t y)
{
    png_whole_t *w = ctx;
    return w->img->pixels + (size_t)y * w->img->width * 4;
}

static int whole_row(void *ctx, uint32_t y, const uint8_t *rgba)
{
    png_whole_t *w = ctx;
    size_t n = (size_t)w->img->width * 4;
    uint8_t *to = w->img->pixels + (size_t)y * n;
    if (to != rgba)
        memcpy(to, rgba, n);
    return 0;
}

static rf_png_status_t whole_finish(rf_png_status_t st, rf_png_rgba_t *img,
                                    const char *name, rf_png_error_t *err)
{
    if (st == RF_PNG_STOPPED) {   /* only whole_header stops: no memory */
        st = pngio_fail(err, RF_PNG_NO_MEMORY, name, NULL, 0);
    }
    if (st != RF_PNG_SUCCESS)
        rf_png_rgba_destroy(img);
    return st;
}

rf_png_status_t rf_png_read_path(const char *path, rf_png_rgba_t *img,
                                 rf_png_error_t *err)
{
    memset(img, 0, sizeof *img);
    png_whole_t w = { img };
    rf_png_status_t st = rf_png_decode_path_into(path, whole_header, whole_dest, whole_row, &w,
                                                 err);
    return whole_finish(st, img, path, err);
}

rf_png_status_t rf_png_read_mem(const void *data, size_t len, const char *name,
                                rf_png_rgba_t *img, rf_png_error_t *err)
{
    memset(img, 0, sizeof *img);
    png_whole_t w = { img };
    rf_png_status_t st = rf_png_decode_mem(data, len, name, whole_header, whole_row, &w, err);
    return whole_finish(st, img, name != NULL ? name : "PNG data", err);
}

void rf_png_rgba_destroy(rf_png_rgba_t *img)
{
    if (img == NULL)
        return;
    free(img->pixels);
    memset(img, 0, sizeof *img);
}
