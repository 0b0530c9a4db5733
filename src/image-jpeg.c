/* image-jpeg.c - JPEG through libjpeg-turbo, turned upright by its Exif
 * orientation (image.h). */
#include <cairo.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jpeglib.h wants size_t and FILE declared first */
#include <jpeglib.h>

#include "image.h"
#include "pngio.h"

/* ---- Exif ---- */

static unsigned rd16(const unsigned char *p, int le)
{
    return le ? (unsigned)p[0] | (unsigned)p[1] << 8 : (unsigned)p[0] << 8 | (unsigned)p[1];
}

static unsigned long rd32(const unsigned char *p, int le)
{
    return le ? (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
                    (unsigned long)p[3] << 24
              : (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 |
                    (unsigned long)p[2] << 8 | (unsigned long)p[3];
}

int rf_image_exif_orientation(const unsigned char *app1, size_t len)
{
    if (len < 6 + 8 || memcmp(app1, "Exif\0\0", 6) != 0)
        return 1;
    const unsigned char *t = app1 + 6; /* the TIFF header */
    size_t n = len - 6;
    int le;
    if (t[0] == 'I' && t[1] == 'I')
        le = 1;
    else if (t[0] == 'M' && t[1] == 'M')
        le = 0;
    else
        return 1;
    if (rd16(t + 2, le) != 42)
        return 1;
    unsigned long ifd = rd32(t + 4, le);
    if (ifd < 8 || ifd > n || n - ifd < 2)
        return 1;
    unsigned count = rd16(t + ifd, le);
    if ((n - ifd - 2) / 12 < count)
        return 1;
    for (unsigned i = 0; i < count; i++) {
        const unsigned char *e = t + ifd + 2 + (size_t)i * 12;
        if (rd16(e, le) != 0x0112)
            continue;
        /* SHORT, count 1: the value in the first two bytes of the field */
        if (rd16(e + 2, le) != 3 || rd32(e + 4, le) != 1)
            return 1;
        unsigned v = rd16(e + 8, le);
        return v >= 1 && v <= 8 ? (int)v : 1;
    }
    return 1;
}

int rf_image_jpeg_orientation(const unsigned char *d, size_t len)
{
    /* markers from SOI to the first SOS; each segment's length checked */
    size_t i = 2;
    if (len < 4 || d[0] != 0xFF || d[1] != 0xD8)
        return 1;
    while (i + 4 <= len) {
        if (d[i] != 0xFF)
            return 1;
        unsigned m = d[i + 1];
        if (m == 0xFF) {
            i++; /* fill byte */
            continue;
        }
        if (m == 0xDA || m == 0xD9)
            return 1;
        size_t seg = (size_t)d[i + 2] << 8 | d[i + 3];
        if (seg < 2 || seg > len - i - 2)
            return 1;
        if (m == 0xE1 && seg - 2 >= 6 && memcmp(d + i + 4, "Exif\0\0", 6) == 0)
            return rf_image_exif_orientation(d + i + 4, seg - 2);
        i += 2 + seg;
    }
    return 1;
}

/* ---- decoding ---- */

typedef struct jerr {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char msg[JMSG_LENGTH_MAX];
    int warned;
} jerr_t;

static void on_error(j_common_ptr c)
{
    jerr_t *e = (jerr_t *)(void *)c->err;
    (*c->err->format_message)(c, e->msg);
    longjmp(e->jump, 1);
}

/* A warning (premature end of data, corrupt data: libjpeg goes on with
 * gray) is kept, and the decode fails at its end. */
static void on_message(j_common_ptr c, int level)
{
    jerr_t *e = (jerr_t *)(void *)c->err;
    if (level < 0 && !e->warned) {
        e->warned = 1;
        (*c->err->format_message)(c, e->msg);
    }
}

typedef struct prog {
    struct jpeg_progress_mgr pub;
    jerr_t *err;
} prog_t;

static void on_progress(j_common_ptr c)
{
    j_decompress_ptr d = (j_decompress_ptr)c;
    if (c->is_decompressor && d->input_scan_number > RF_IMAGE_MAX_SCANS) {
        jerr_t *e = (jerr_t *)(void *)c->err;
        snprintf(e->msg, sizeof e->msg, "more than %d progressive scans", RF_IMAGE_MAX_SCANS);
        longjmp(e->jump, 1);
    }
}

/* Where pixel (x, y) of the upright image comes from in the stored one
 * (w x h stored): EXIF orientations 1..8. */
static void source_of(int o, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t *sx,
                      uint32_t *sy)
{
    switch (o) {
    case 2: *sx = w - 1 - x; *sy = y; break;
    case 3: *sx = w - 1 - x; *sy = h - 1 - y; break;
    case 4: *sx = x; *sy = h - 1 - y; break;
    case 5: *sx = y; *sy = x; break;
    case 6: *sx = y; *sy = h - 1 - x; break;
    case 7: *sx = w - 1 - y; *sy = h - 1 - x; break;
    case 8: *sx = w - 1 - y; *sy = x; break;
    default: *sx = x; *sy = y; break;
    }
}

int rf_image_decode_jpeg(rf_image_t *img, const unsigned char *data, size_t len, char *err,
                         size_t errlen)
{
    struct jpeg_decompress_struct ci;
    jerr_t je;
    prog_t pg;
    /* volatile: live across longjmp */
    uint32_t *volatile stored = NULL;
    cairo_surface_t *volatile surf = NULL;
    memset(&ci, 0, sizeof ci);
    memset(&je, 0, sizeof je);
    ci.err = jpeg_std_error(&je.pub);
    je.pub.error_exit = on_error;
    je.pub.emit_message = on_message;
    if (setjmp(je.jump)) {
        jpeg_destroy_decompress(&ci);
        free(stored);
        if (surf != NULL)
            cairo_surface_destroy(surf);
        snprintf(err, errlen, "JPEG: %s", je.msg);
        return -1;
    }
    jpeg_create_decompress(&ci);
    pg.pub.progress_monitor = on_progress;
    pg.err = &je;
    ci.progress = &pg.pub;
    jpeg_mem_src(&ci, data, (unsigned long)len);
    jpeg_read_header(&ci, TRUE);
    uint32_t w = ci.image_width, h = ci.image_height;
    if (w == 0 || h == 0 || w > RF_PNG_MAX_DIMENSION || h > RF_PNG_MAX_DIMENSION ||
        (uint64_t)w * h > RF_PNG_MAX_PIXELS) {
        snprintf(je.msg, sizeof je.msg, "%lu x %lu pixels is larger than the limit (%u px a "
                 "side, %u px in all)", (unsigned long)w, (unsigned long)h,
                 RF_PNG_MAX_DIMENSION, RF_PNG_MAX_PIXELS);
        longjmp(je.jump, 1);
    }
    if (ci.jpeg_color_space == JCS_CMYK || ci.jpeg_color_space == JCS_YCCK) {
        snprintf(je.msg, sizeof je.msg, "CMYK JPEGs are not supported (save it as RGB)");
        longjmp(je.jump, 1);
    }
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    ci.out_color_space = JCS_EXT_BGRX;
#else
    ci.out_color_space = JCS_EXT_XRGB;
#endif
    int o = rf_image_jpeg_orientation(data, len);
    jpeg_start_decompress(&ci);
    stored = malloc((size_t)w * h * 4);
    if (stored == NULL) {
        snprintf(je.msg, sizeof je.msg, "out of memory");
        longjmp(je.jump, 1);
    }
    while (ci.output_scanline < h) {
        JSAMPROW row = (JSAMPROW)(stored + (size_t)ci.output_scanline * w);
        jpeg_read_scanlines(&ci, &row, 1);
    }
    jpeg_finish_decompress(&ci);
    if (je.warned)
        longjmp(je.jump, 1); /* msg holds the warning */
    uint32_t ow = o >= 5 ? h : w, oh = o >= 5 ? w : h;
    surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ow, (int)oh);
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
        snprintf(je.msg, sizeof je.msg, "out of memory");
        longjmp(je.jump, 1);
    }
    unsigned char *d = cairo_image_surface_get_data(surf);
    size_t stride = (size_t)cairo_image_surface_get_stride(surf);
    for (uint32_t y = 0; y < oh; y++) {
        uint32_t *out = (uint32_t *)(void *)(d + y * stride);
        for (uint32_t x = 0; x < ow; x++) {
            uint32_t sx, sy;
            source_of(o, x, y, w, h, &sx, &sy);
            out[x] = stored[(size_t)sy * w + sx] | 0xFF000000u;
        }
    }
    cairo_surface_mark_dirty(surf);
    jpeg_destroy_decompress(&ci);
    free(stored);
    img->surface = surf;
    img->width = ow;
    img->height = oh;
    img->orientation = (uint8_t)o;
    return 0;
}
