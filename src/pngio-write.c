/* pngio-write.c - the PNG writer: cairo's premultiplied pixels to RGBA or
 * RGB rows, and the encoder on libpng to a stream, memory or a file
 * written atomically. (How errors and libpng's longjmp are handled: pngio.c.)
 */
#include "pngio-int.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"

#define RF_ZBUF_SIZE (64 * 1024)     /* writer's IDAT size: fewer write calls */
/* Hot loops run in blocks of RF_BLOCK pixels: gcc -O2 (the very-cheap
 * vectorizer cost model) vectorizes only loops with no scalar epilogue,
 * i.e. a constant trip count; the tail runs scalar. */
#define RF_BLOCK 16

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

void rf_png_buffer_destroy(rf_png_buffer_t *b)
{
    if (b == NULL)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

typedef struct png_enc {
    rf_png_memflag_t mem;          /* first: libpng's mem_ptr */
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
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "no frame", 0);
    if (width == 0 || height == 0 || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "frame width and height must be 1 .. 2^31-1", 0);
    if ((uint64_t)width * 4 > SIZE_MAX ||
        (frame != NULL && (frame->stride < (size_t)width * 4 || frame->stride % 4 != 0)))
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "frame stride must be >= width * 4 and a multiple of 4", 0);
    if (options->level < 0 || options->level > 9)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "zlib level must be 0 .. 9", 0);
    if ((unsigned)options->filter > RF_PNG_FILTER_ALL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, name, "unknown PNG filter", 0);

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
        return pngio_fail(err, RF_PNG_NO_MEMORY, name, NULL, 0);
    e.png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &e, enc_error,
                                      pngio_warning_quiet, &e.mem, pngio_mem_alloc,
                                      pngio_mem_free);
    if (e.png != NULL)
        e.info = png_create_info_struct(e.png);
    if (e.png == NULL || e.info == NULL) {
        png_destroy_write_struct(&e.png, &e.info);
        free(e.row);
        return pngio_fail(err, RF_PNG_NO_MEMORY, name, NULL, 0);
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
        return pngio_fail(err, e.status, name,
                        e.status == RF_PNG_IO_ERROR ? "write failed" : e.detail,
                        e.sys_errno);
    }
    pngio_ok(err);
    return RF_PNG_SUCCESS;
}

rf_png_status_t rf_png_write_stream(const rf_png_frame_t *frame,
                                    const rf_png_options_t *options, FILE *fp,
                                    rf_png_error_t *err)
{
    if (fp == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(stream)", "no stream", 0);
    return png_encode(frame, NULL, options, fp, NULL, "(stream)", err);
}

rf_png_status_t rf_png_write_mem(const rf_png_frame_t *frame,
                                 const rf_png_options_t *options,
                                 rf_png_buffer_t *out, rf_png_error_t *err)
{
    if (out == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no buffer", 0);
    out->len = 0;
    return png_encode(frame, NULL, options, NULL, out, "(memory)", err);
}

static rf_png_status_t png_write_path(const rf_png_frame_t *frame, const rf_png_rgba_t *rgba,
                                      const rf_png_options_t *options,
                                      const char *path, int atomic_flags,
                                      rf_png_error_t *err)
{
    if (path == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(null path)", "no path", 0);
    rf_atomic_file_t af;
    char msg[sizeof err->message];
    if (rf_atomic_file_open(&af, path, atomic_flags, msg, sizeof msg) != 0) {
        int e = errno;
        pngio_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
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
        pngio_fail(err, RF_PNG_IO_ERROR, path, NULL, e);
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
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, path != NULL ? path : "(null path)", "no frame", 0);
    return png_write_path(frame, NULL, options, path, atomic_flags, err);
}

rf_png_status_t rf_png_write_rgba_path(const rf_png_rgba_t *img,
                                       const rf_png_options_t *options,
                                       const char *path, int atomic_flags,
                                       rf_png_error_t *err)
{
    if (img == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, path != NULL ? path : "(null path)", "no image", 0);
    return png_write_path(NULL, img, options, path, atomic_flags, err);
}

rf_png_status_t rf_png_write_rgba_mem(const rf_png_rgba_t *img,
                                      const rf_png_options_t *options,
                                      rf_png_buffer_t *out, rf_png_error_t *err)
{
    if (out == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no buffer", 0);
    out->len = 0;
    if (img == NULL)
        return pngio_fail(err, RF_PNG_INVALID_ARGUMENT, "(memory)", "no image", 0);
    return png_encode(NULL, img, options, NULL, out, "(memory)", err);
}
