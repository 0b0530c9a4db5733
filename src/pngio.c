/* pngio.c - PNG writer and reader on libpng.
 *
 * libpng reports errors by longjmp. Each entry point keeps its state in a
 * struct that lives in the caller's frame and runs libpng in a separate
 * noinline function that holds the setjmp, so nothing the cleanup reads is a
 * non-volatile local of the function that called setjmp (C11 7.13.2.1), and
 * the cleanup (png_destroy_*, free, close) happens in exactly one place.
 * Callbacks into libpng (read, write, error) record why they failed in that
 * struct before calling png_error(), so the status is never guessed from
 * libpng's text, except for CRC errors, whose text is libpng's fixed
 * "CRC error".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* O_CLOEXEC, O_NOCTTY for a bare -std=c11 */
#endif

#include "pngio.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <png.h>

#include "atomic.h"

#if defined(__GNUC__)
#define RF_NOINLINE __attribute__((noinline))
#else
#define RF_NOINLINE
#endif

#define RF_READ_BUFSIZE (64 * 1024)  /* reader's read(2) size */
#define RF_ZBUF_SIZE (64 * 1024)     /* writer's IDAT size: fewer write calls */
/* Hot loops run in blocks of RF_BLOCK pixels: gcc -O2 (the very-cheap
 * vectorizer cost model) vectorizes only loops with no scalar epilogue,
 * i.e. a constant trip count; the tail runs scalar. */
#define RF_BLOCK 16

static const char *const status_text[RF_PNG_LAST_STATUS] = {
    [RF_PNG_SUCCESS] = "success",
    [RF_PNG_NO_MEMORY] = "out of memory",
    [RF_PNG_INVALID_ARGUMENT] = "invalid argument",
    [RF_PNG_IO_ERROR] = "input/output error",
    [RF_PNG_NOT_FOUND] = "file not found",
    [RF_PNG_NOT_REGULAR_FILE] = "not a regular file",
    [RF_PNG_FILE_TOO_LARGE] = "file too large",
    [RF_PNG_EMPTY] = "empty file",
    [RF_PNG_NOT_PNG] = "not a PNG file",
    [RF_PNG_TRUNCATED] = "truncated PNG file",
    [RF_PNG_BAD_CRC] = "PNG chunk CRC mismatch",
    [RF_PNG_BAD_DIMENSIONS] = "invalid PNG dimensions",
    [RF_PNG_TOO_BIG] = "PNG image larger than the canvas limits",
    [RF_PNG_CORRUPT] = "corrupt PNG file",
    [RF_PNG_STOPPED] = "stopped by the caller",
    [RF_PNG_INTERNAL_ERROR] = "internal libpng error",
};

const char *rf_png_status_to_string(rf_png_status_t status)
{
    if ((unsigned)status >= RF_PNG_LAST_STATUS)
        return "unknown status";
    return status_text[status];
}

/* Stores a failure in err (when given) and returns status. detail may be
 * NULL; sys_errno is shown with strerror when nonzero. */
static rf_png_status_t png_fail(rf_png_error_t *err, rf_png_status_t status,
                                const char *name, const char *detail, int sys_errno)
{
    if (err == NULL)
        return status;
    err->status = status;
    err->sys_errno = sys_errno;
    const char *what = rf_png_status_to_string(status);
    if (status == RF_PNG_IO_ERROR || status == RF_PNG_NOT_FOUND) {
        /* strerror says it better than the status */
        snprintf(err->message, sizeof err->message, "%s: %s%s%s", name,
                 detail != NULL ? detail : "", detail != NULL ? ": " : "",
                 strerror(sys_errno));
    } else if (detail != NULL && detail[0] != '\0') {
        snprintf(err->message, sizeof err->message, "%s: %s (%s)", name, what, detail);
    } else {
        snprintf(err->message, sizeof err->message, "%s: %s", name, what);
    }
    return status;
}

static void png_ok(rf_png_error_t *err)
{
    if (err != NULL) {
        err->status = RF_PNG_SUCCESS;
        err->sys_errno = 0;
        err->message[0] = '\0';
    }
}

/* libpng memory through malloc, remembering failures: libpng's own message
 * for them is generic. */
typedef struct png_memflag {
    int oom;
} png_memflag_t;

static png_voidp png_mem_alloc(png_structp png, png_alloc_size_t size)
{
    void *p = malloc(size);
    if (p == NULL) {
        png_memflag_t *m = png_get_mem_ptr(png);
        if (m != NULL)
            m->oom = 1;
    }
    return p;
}

static void png_mem_free(png_structp png, png_voidp p)
{
    (void)png;
    free(p);
}

static void png_warning_quiet(png_structp png, png_const_charp msg)
{
    /* warnings (benign problems libpng recovered from) are not ours to print */
    (void)png;
    (void)msg;
}

/* ================================================================ writer */

static inline uint32_t px_alpha(uint32_t p) { return p >> 24; }

/* M(a) = ceil(2^24 / a), the per-alpha reciprocal of unpremul() below, as
 * a constant table (no initialization, nothing to race on). M(0) = 0 makes
 * alpha 0 give 0, 0, 0, 0 like cairo. */
#define RECIP(a) ((a) == 0 ? 0u : (uint32_t)(((1u << 24) + (a) - 1u) / ((a) + ((a) == 0))))
#define RECIP4(a) RECIP(a), RECIP((a) + 1u), RECIP((a) + 2u), RECIP((a) + 3u)
#define RECIP16(a) RECIP4(a), RECIP4((a) + 4u), RECIP4((a) + 8u), RECIP4((a) + 12u)
#define RECIP64(a) RECIP16(a), RECIP16((a) + 16u), RECIP16((a) + 32u), RECIP16((a) + 48u)
static const uint32_t unpremul_recip[256] = {
    RECIP64(0u), RECIP64(64u), RECIP64(128u), RECIP64(192u)
};

/* cairo's unpremultiply of one channel: (c * 255 + a / 2) / a, kept to 8
 * bits as cairo's uint8_t store does (only matters when c > a, which cairo
 * never produces). Exact: with M = ceil(2^24 / a) = (2^24 + e) / a, e < a,
 * n * M / 2^24 = n / a + n * e / (a 2^24), and n * e < 65152 * 254 < 2^24,
 * so the error stays below 1/a and cannot reach the next integer. */
static inline uint32_t unpremul(uint32_t c, uint32_t a, uint64_t m)
{
    return (uint32_t)(((uint64_t)(c * 255u + a / 2u) * m) >> 24) & 0xffu;
}

/* A pixel as if opaque: A R G B (a uint32) -> bytes R G B A, i.e. on a
 * little-endian machine one 32-bit word with R and B swapped. */
static inline uint32_t px_swap_rb(uint32_t p)
{
    return (p & 0xff00ff00u) | ((p >> 16) & 0xffu) | ((p & 0xffu) << 16);
}

void rf_png_row_to_rgba(uint8_t *restrict dst, const uint32_t *restrict src, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Pass 1, vectorized: every pixel as if opaque, noting whether any alpha
     * is below 255. Pass 2 fixes only those pixels. */
    uint32_t all = 0xffffffffu;
    size_t i = 0;
    for (; i + RF_BLOCK <= n; i += RF_BLOCK) {
        uint32_t v[RF_BLOCK];
        for (int k = 0; k < RF_BLOCK; k++) {
            v[k] = px_swap_rb(src[i + k]);
            all &= src[i + k];
        }
        memcpy(dst + 4 * i, v, sizeof v);
    }
    for (; i < n; i++) {
        uint32_t v = px_swap_rb(src[i]);
        memcpy(dst + 4 * i, &v, 4);
        all &= src[i];
    }
    if (px_alpha(all) == 0xffu)
        return;
#endif
    for (size_t j = 0; j < n; j++) {
        uint32_t p = src[j];
        uint32_t a = px_alpha(p);
        uint8_t *o = dst + 4 * j;
        if (a == 0xffu) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            continue;   /* pass 1 already wrote it */
#else
            o[0] = (uint8_t)(p >> 16);
            o[1] = (uint8_t)(p >> 8);
            o[2] = (uint8_t)p;
            o[3] = 0xff;
            continue;
#endif
        }
        uint64_t m = unpremul_recip[a];
        o[0] = (uint8_t)unpremul((p >> 16) & 0xffu, a, m);
        o[1] = (uint8_t)unpremul((p >> 8) & 0xffu, a, m);
        o[2] = (uint8_t)unpremul(p & 0xffu, a, m);
        o[3] = (uint8_t)a;
    }
}

void rf_png_row_to_rgb(uint8_t *restrict dst, const uint32_t *restrict src, size_t n)
{
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* One 4-byte store per pixel, R G B and a byte the next pixel
     * overwrites: fewer operations than packing (the last pixel is exact). */
    for (; i + 1 < n; i++) {
        uint32_t v = px_swap_rb(src[i]);
        memcpy(dst + 3 * i, &v, 4);
    }
#endif
    for (; i < n; i++) {
        uint32_t p = src[i];
        dst[3 * i] = (uint8_t)(p >> 16);
        dst[3 * i + 1] = (uint8_t)(p >> 8);
        dst[3 * i + 2] = (uint8_t)p;
    }
}

#if defined(__GNUC__)
/* GCC/clang generic vectors: SIMD at -O2 on any target (SSE2, NEON), no
 * intrinsics. */
typedef uint32_t rf_v4u __attribute__((vector_size(16)));
#endif

int rf_png_frame_is_opaque(const rf_png_frame_t *frame)
{
    const unsigned char *row = (const unsigned char *)frame->pixels;
    for (uint32_t y = 0; y < frame->height; y++, row += frame->stride) {
        const uint32_t *px = (const uint32_t *)(const void *)row;
        uint32_t all = 0xffffffffu, x = 0;
#if defined(__GNUC__)
        /* an AND reduction, four 16-byte accumulators */
        rf_v4u a0 = { all, all, all, all }, a1 = a0, a2 = a0, a3 = a0;
        for (; x + 16 <= frame->width; x += 16) {
            rf_v4u v0, v1, v2, v3;
            memcpy(&v0, px + x, 16);
            memcpy(&v1, px + x + 4, 16);
            memcpy(&v2, px + x + 8, 16);
            memcpy(&v3, px + x + 12, 16);
            a0 &= v0;
            a1 &= v1;
            a2 &= v2;
            a3 &= v3;
        }
        a0 &= a1 & a2 & a3;
        all = a0[0] & a0[1] & a0[2] & a0[3];
#endif
        for (; x < frame->width; x++)
            all &= px[x];
        if (px_alpha(all) != 0xffu)
            return 0;
    }
    return 1;
}

int rf_png_filter_parse(const char *name, rf_png_filter_t *filter)
{
    static const char *const names[] = { "none", "sub", "up", "avg", "paeth", "all" };
    for (int i = 0; i < 6; i++) {
        if (name != NULL && strcmp(name, names[i]) == 0) {
            *filter = (rf_png_filter_t)i;
            return 0;
        }
    }
    return -1;
}

void rf_png_buffer_free(rf_png_buffer_t *b)
{
    if (b == NULL)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

typedef struct png_enc {
    png_memflag_t mem;          /* first: libpng's mem_ptr */
    png_structp png;
    png_infop info;
    const rf_png_frame_t *frame;  /* source: a cairo frame, or */
    const rf_png_rgba_t *rgba;    /* source: straight RGBA */
    int level;
    int filter_mask;
    uint8_t *row;               /* one converted row */
    FILE *fp;                   /* sink: a stream, or */
    rf_png_buffer_t *buf;       /* sink: memory */
    rf_png_status_t status;     /* set by callbacks before png_error */
    int sys_errno;
    char detail[160];
} png_enc_t;

static void enc_error(png_structp png, png_const_charp msg)
{
    png_enc_t *e = png_get_error_ptr(png);
    if (e->status == RF_PNG_SUCCESS) {
        e->status = e->mem.oom ? RF_PNG_NO_MEMORY : RF_PNG_INTERNAL_ERROR;
        snprintf(e->detail, sizeof e->detail, "libpng: %s", msg != NULL ? msg : "");
    }
    png_longjmp(png, 1);
}

static void enc_write_stream(png_structp png, png_bytep data, size_t len)
{
    png_enc_t *e = png_get_io_ptr(png);
    errno = 0;
    if (fwrite(data, 1, len, e->fp) != len) {
        e->status = RF_PNG_IO_ERROR;
        e->sys_errno = errno != 0 ? errno : EIO;
        png_error(png, "write failed");
    }
}

static void enc_write_mem(png_structp png, png_bytep data, size_t len)
{
    png_enc_t *e = png_get_io_ptr(png);
    rf_png_buffer_t *b = e->buf;
    if (len > b->cap - b->len) {
        size_t cap = b->cap > 0 ? b->cap : 64 * 1024;
        while (cap - b->len < len) {
            if (cap > SIZE_MAX / 2) {
                cap = 0;
                break;
            }
            cap *= 2;
        }
        uint8_t *p = cap != 0 ? realloc(b->data, cap) : NULL;
        if (p == NULL) {
            e->status = RF_PNG_NO_MEMORY;
            png_error(png, "out of memory");
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

static void enc_flush(png_structp png)
{
    (void)png;   /* the caller flushes once, at the end */
}

static int rgba_is_opaque(const rf_png_rgba_t *img)
{
    size_t n = (size_t)img->width * img->height;
    uint8_t all = 0xff;
    for (size_t i = 0; i < n; i++)
        all &= img->pixels[4 * i + 3];
    return all == 0xff;
}

static RF_NOINLINE int enc_run(png_enc_t *e)
{
    if (setjmp(png_jmpbuf(e->png)))
        return -1;
    const rf_png_frame_t *f = e->frame;
    const rf_png_rgba_t *img = e->rgba;
    uint32_t width = f != NULL ? f->width : img->width;
    uint32_t height = f != NULL ? f->height : img->height;
    int opaque = f != NULL ? rf_png_frame_is_opaque(f) : rgba_is_opaque(img);
    if (e->fp != NULL)
        png_set_write_fn(e->png, e, enc_write_stream, enc_flush);
    else
        png_set_write_fn(e->png, e, enc_write_mem, enc_flush);
    png_set_IHDR(e->png, e->info, width, height, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(e->png, e->level);
    png_set_filter(e->png, PNG_FILTER_TYPE_BASE, e->filter_mask);
    png_set_compression_buffer_size(e->png, RF_ZBUF_SIZE);
    png_write_info(e->png, e->info);
    if (img != NULL) {
        const uint8_t *src = img->pixels;
        for (uint32_t y = 0; y < height; y++, src += (size_t)width * 4) {
            if (opaque) {
                for (uint32_t x = 0; x < width; x++)
                    memcpy(e->row + 3 * (size_t)x, src + 4 * (size_t)x, 3);
                png_write_row(e->png, e->row);
            } else {
                png_write_row(e->png, src);
            }
        }
        png_write_end(e->png, NULL);
        return 0;
    }
    const unsigned char *src = (const unsigned char *)f->pixels;
    for (uint32_t y = 0; y < f->height; y++, src += f->stride) {
        const uint32_t *px = (const uint32_t *)(const void *)src;
        if (opaque)
            rf_png_row_to_rgb(e->row, px, f->width);
        else
            rf_png_row_to_rgba(e->row, px, f->width);
        png_write_row(e->png, e->row);
    }
    png_write_end(e->png, NULL);
    return 0;
}

static const int filter_masks[] = {
    [RF_PNG_FILTER_NONE] = PNG_FILTER_NONE,
    [RF_PNG_FILTER_SUB] = PNG_FILTER_SUB,
    [RF_PNG_FILTER_UP] = PNG_FILTER_UP,
    [RF_PNG_FILTER_AVG] = PNG_FILTER_AVG,
    [RF_PNG_FILTER_PAETH] = PNG_FILTER_PAETH,
    [RF_PNG_FILTER_ALL] = PNG_ALL_FILTERS,
};

/* The common body of the writers: validates, encodes into fp or buf. */
static rf_png_status_t png_encode(const rf_png_frame_t *frame, const rf_png_rgba_t *rgba,
                                  const rf_png_options_t *options, FILE *fp,
                                  rf_png_buffer_t *buf, const char *name,
                                  rf_png_error_t *err)
{
    static const rf_png_options_t render = RF_PNG_OPTIONS_RENDER;
    if (options == NULL)
        options = &render;
    uint32_t width = frame != NULL ? frame->width : rgba != NULL ? rgba->width : 0;
    uint32_t height = frame != NULL ? frame->height : rgba != NULL ? rgba->height : 0;
    if ((frame == NULL || frame->pixels == NULL) && (rgba == NULL || rgba->pixels == NULL))
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, name, "no frame", 0);
    if (width == 0 || height == 0 || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, name, "frame width and height must be 1 .. 2^31-1", 0);
    if ((uint64_t)width * 4 > SIZE_MAX ||
        (frame != NULL && (frame->stride < (size_t)width * 4 || frame->stride % 4 != 0)))
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, name, "frame stride must be >= width * 4 and a multiple of 4", 0);
    if (options->level < 0 || options->level > 9)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, name, "zlib level must be 0 .. 9", 0);
    if ((unsigned)options->filter > RF_PNG_FILTER_ALL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, name, "unknown PNG filter", 0);

    png_enc_t e;
    memset(&e, 0, sizeof e);
    e.frame = frame;
    e.rgba = frame != NULL ? NULL : rgba;
    e.level = options->level;
    e.filter_mask = filter_masks[options->filter];
    e.fp = fp;
    e.buf = buf;
    e.row = malloc((size_t)width * 4);
    if (e.row == NULL)
        return png_fail(err, RF_PNG_NO_MEMORY, name, NULL, 0);
    e.png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &e, enc_error,
                                      png_warning_quiet, &e.mem, png_mem_alloc,
                                      png_mem_free);
    if (e.png != NULL)
        e.info = png_create_info_struct(e.png);
    if (e.png == NULL || e.info == NULL) {
        png_destroy_write_struct(&e.png, &e.info);
        free(e.row);
        return png_fail(err, RF_PNG_NO_MEMORY, name, NULL, 0);
    }
    int rc = enc_run(&e);
    png_destroy_write_struct(&e.png, &e.info);
    free(e.row);
    if (rc == 0 && fp != NULL) {
        errno = 0;
        if (fflush(fp) != 0 || ferror(fp)) {
            e.status = RF_PNG_IO_ERROR;
            e.sys_errno = errno != 0 ? errno : EIO;
            rc = -1;
        }
    }
    if (rc != 0) {
        if (e.status == RF_PNG_SUCCESS)
            e.status = RF_PNG_INTERNAL_ERROR;
        if (buf != NULL)
            buf->len = 0;
        return png_fail(err, e.status, name,
                        e.status == RF_PNG_IO_ERROR ? "write failed" : e.detail,
                        e.sys_errno);
    }
    png_ok(err);
    return RF_PNG_SUCCESS;
}

rf_png_status_t rf_png_write_stream(const rf_png_frame_t *frame,
                                    const rf_png_options_t *options, FILE *fp,
                                    rf_png_error_t *err)
{
    if (fp == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, "(stream)", "no stream", 0);
    return png_encode(frame, NULL, options, fp, NULL, "(stream)", err);
}

rf_png_status_t rf_png_write_mem(const rf_png_frame_t *frame,
                                 const rf_png_options_t *options,
                                 rf_png_buffer_t *out, rf_png_error_t *err)
{
    if (out == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no buffer", 0);
    out->len = 0;
    return png_encode(frame, NULL, options, NULL, out, "(memory)", err);
}

static rf_png_status_t png_write_path(const rf_png_frame_t *frame, const rf_png_rgba_t *rgba,
                                      const rf_png_options_t *options,
                                      const char *path, int atomic_flags,
                                      rf_png_error_t *err)
{
    if (path == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, "(null path)", "no path", 0);
    rf_atomic_file_t af;
    char msg[sizeof err->message];
    if (rf_atomic_file_open(&af, path, atomic_flags, msg, sizeof msg) != 0) {
        int e = errno;
        png_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
        if (err != NULL)
            snprintf(err->message, sizeof err->message, "%s", msg);
        return RF_PNG_IO_ERROR;
    }
    rf_png_status_t st = png_encode(frame, rgba, options, af.fp, NULL, path, err);
    if (st != RF_PNG_SUCCESS) {
        rf_atomic_file_abort(&af);
        return st;
    }
    if (rf_atomic_file_commit(&af, msg, sizeof msg) != 0) {
        int e = errno;
        png_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
        if (err != NULL)
            snprintf(err->message, sizeof err->message, "%s", msg);
        return RF_PNG_IO_ERROR;
    }
    return RF_PNG_SUCCESS;
}

rf_png_status_t rf_png_write_path(const rf_png_frame_t *frame,
                                  const rf_png_options_t *options,
                                  const char *path, int atomic_flags,
                                  rf_png_error_t *err)
{
    if (frame == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, path != NULL ? path : "(null path)", "no frame", 0);
    return png_write_path(frame, NULL, options, path, atomic_flags, err);
}

rf_png_status_t rf_png_write_rgba_path(const rf_png_rgba_t *img,
                                       const rf_png_options_t *options,
                                       const char *path, int atomic_flags,
                                       rf_png_error_t *err)
{
    if (img == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, path != NULL ? path : "(null path)", "no image", 0);
    return png_write_path(NULL, img, options, path, atomic_flags, err);
}

rf_png_status_t rf_png_write_rgba_mem(const rf_png_rgba_t *img,
                                      const rf_png_options_t *options,
                                      rf_png_buffer_t *out, rf_png_error_t *err)
{
    if (out == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no buffer", 0);
    out->len = 0;
    if (img == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no image", 0);
    return png_encode(NULL, img, options, NULL, out, "(memory)", err);
}

/* ================================================================ reader */

typedef struct png_dec {
    png_memflag_t mem;          /* first: libpng's mem_ptr */
    png_structp png;
    png_infop info;
    const char *name;           /* for messages */
    /* input: memory, or fd through buf */
    int fd;                     /* -1 for memory input */
    const uint8_t *in;          /* unread bytes are in[pos .. end) */
    size_t pos, end;
    uint8_t *buf;               /* fd input buffer */
    uint64_t total;             /* bytes taken from the source so far */
    /* output */
    rf_png_header_fn on_header;
    rf_png_row_fn on_row;
    rf_png_dest_fn dest;        /* NULL: rows go to d->rgba */
    void *ctx;
    rf_png_info_t hdr;
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
        ssize_t n = read(d->fd, d->buf + d->end, RF_READ_BUFSIZE - d->end);
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

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
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
    if (be32(p + 8) == 13 && memcmp(p + 12, "IHDR", 4) == 0) {
        uint32_t w = be32(p + 16), h = be32(p + 20);
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
#else
#define RF_HAVE_SSSE3_ROWS 0
#endif

/* Converts n pixels of d->raw to RGBA in out. 0, or -1 (status set). */
static int dec_convert(png_dec_t *d, uint8_t *restrict out, uint32_t n)
{
    const uint8_t *restrict in = d->raw;
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
            if (__builtin_cpu_supports("ssse3"))
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
    if (d->on_header != NULL && d->on_header(d->ctx, &d->hdr) != 0) {
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
                if (dec_convert(d, row, w) != 0)
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
                if (dec_convert(d, d->rgba, pw) != 0)
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

static rf_png_status_t dec_main(png_dec_t *d, rf_png_error_t *err)
{
    if (dec_precheck(d) != 0)
        return png_fail(err, d->status, d->name, d->detail, d->sys_errno);
    d->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, d, dec_error,
                                      png_warning_quiet, &d->mem, png_mem_alloc,
                                      png_mem_free);
    if (d->png != NULL)
        d->info = png_create_info_struct(d->png);
    if (d->png == NULL || d->info == NULL) {
        png_destroy_read_struct(&d->png, &d->info, NULL);
        return png_fail(err, RF_PNG_NO_MEMORY, d->name, NULL, 0);
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
        return png_fail(err, d->status, d->name, d->detail, d->sys_errno);
    }
    png_ok(err);
    return RF_PNG_SUCCESS;
}

rf_png_status_t rf_png_decode_mem(const void *data, size_t len, const char *name,
                                  rf_png_header_fn on_header, rf_png_row_fn on_row,
                                  void *ctx, rf_png_error_t *err)
{
    if (name == NULL)
        name = "PNG data";
    if (data == NULL && len > 0)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, name, "no data", 0);
    if (len > RF_PNG_MAX_FILE_SIZE)
        return png_fail(err, RF_PNG_FILE_TOO_LARGE, name, NULL, 0);
    png_dec_t d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.fd = -1;
    d.in = data;
    d.end = len;
    d.on_header = on_header;
    d.on_row = on_row;
    d.ctx = ctx;
    return dec_main(&d, err);
}

rf_png_status_t rf_png_decode_path(const char *path, rf_png_header_fn on_header,
                                   rf_png_row_fn on_row, void *ctx,
                                   rf_png_error_t *err)
{
    return rf_png_decode_path_into(path, on_header, NULL, on_row, ctx, err);
}

rf_png_status_t rf_png_decode_path_into(const char *path, rf_png_header_fn on_header,
                                        rf_png_dest_fn dest, rf_png_row_fn on_row,
                                        void *ctx, rf_png_error_t *err)
{
    if (path == NULL)
        return png_fail(err, RF_PNG_INVALID_ARGUMENT, "(null path)", "no path", 0);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        return png_fail(err, e == ENOENT || e == ENOTDIR ? RF_PNG_NOT_FOUND : RF_PNG_IO_ERROR,
                        path, NULL, e);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return png_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        const char *kind = S_ISDIR(st.st_mode) ? "a directory"
                         : S_ISCHR(st.st_mode) ? "a character device"
                         : S_ISBLK(st.st_mode) ? "a block device"
                         : S_ISFIFO(st.st_mode) ? "a FIFO"
                         : S_ISSOCK(st.st_mode) ? "a socket" : "a special file";
        return png_fail(err, RF_PNG_NOT_REGULAR_FILE, path, kind, 0);
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
        return png_fail(err, RF_PNG_FILE_TOO_LARGE, path, detail, 0);
    }
    png_dec_t d;
    memset(&d, 0, sizeof d);
    d.buf = malloc(RF_READ_BUFSIZE);
    if (d.buf == NULL) {
        close(fd);
        return png_fail(err, RF_PNG_NO_MEMORY, path, NULL, 0);
    }
    d.name = path;
    d.fd = fd;
    d.in = d.buf;
    d.on_header = on_header;
    d.dest = dest;
    d.on_row = on_row;
    d.ctx = ctx;
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
        st = png_fail(err, RF_PNG_NO_MEMORY, name, NULL, 0);
    }
    if (st != RF_PNG_SUCCESS)
        rf_png_rgba_free(img);
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

void rf_png_rgba_free(rf_png_rgba_t *img)
{
    if (img == NULL)
        return;
    free(img->pixels);
    memset(img, 0, sizeof *img);
}
