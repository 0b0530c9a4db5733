/* image.c - image files: the kind, PNG, and what every kind shares
 * (image.h). JPEG is in image-jpeg.c, SVG in image-svg.c. */
#include "image.h"

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pngio.h"

const char *const rf_image_kind_names[3] = { "png", "jpeg", "svg" };

/* cairo's premultiplication (cairo-png.c multiply_alpha): c * a / 255
 * rounded. */
static inline uint32_t premul(uint32_t a, uint32_t c)
{
    uint32_t t = a * c + 0x80;
    return ((t >> 8) + t) >> 8;
}

static int decode_png(rf_image_t *img, const unsigned char *data, size_t len, char *err,
                      size_t errlen)
{
    rf_png_rgba_t px;
    rf_png_error_t e;
    if (rf_png_read_mem(data, len, "PNG", &px, &e) != RF_PNG_SUCCESS) {
        /* "PNG: what happened" */
        snprintf(err, errlen, "%s", e.message);
        return -1;
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)px.width,
                                                    (int)px.height);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        rf_png_rgba_destroy(&px);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    for (uint32_t y = 0; y < px.height; y++) {
        const uint8_t *p = px.pixels + (size_t)y * px.width * 4;
        uint32_t *row = (uint32_t *)(void *)(d + (size_t)y * (size_t)stride);
        for (uint32_t x = 0; x < px.width; x++, p += 4) {
            uint32_t a = p[3];
            row[x] = a << 24 | premul(a, p[0]) << 16 | premul(a, p[1]) << 8 | premul(a, p[2]);
        }
    }
    cairo_surface_mark_dirty(s);
    img->surface = s;
    img->width = px.width;
    img->height = px.height;
    rf_png_rgba_destroy(&px);
    return 0;
}

/* The kind by the first bytes: the PNG signature, a JPEG SOI marker, or
 * text that holds "<svg" in its first 4 KiB (after an XML declaration,
 * comments, a DOCTYPE). -1: none. */
static int sniff(const unsigned char *b, size_t len)
{
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    if (len >= 8 && memcmp(b, png, 8) == 0)
        return RF_IMAGE_PNG;
    if (len >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return RF_IMAGE_JPEG;
    size_t n = len < 4096 ? len : 4096;
    size_t i = 0;
    if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)
        i = 3; /* UTF-8 byte order mark */
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    if (i >= n || b[i] != '<')
        return -1;
    for (; i + 4 <= n; i++)
        if (memcmp(b + i, "<svg", 4) == 0)
            return RF_IMAGE_SVG;
    return -1;
}

rf_image_t *rf_image_create(const char *file, unsigned char *bytes, size_t len, char *err,
                            size_t errlen)
{
    rf_image_t *img = calloc(1, sizeof *img);
    size_t fl = strlen(file) + 1;
    if (img != NULL && (img->file = malloc(fl)) != NULL)
        memcpy(img->file, file, fl);
    if (img == NULL || img->file == NULL) {
        free(img);
        free(bytes);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    img->len = len;
    img->orientation = 1;
    rf_sha256(bytes, len, img->sha256);
    int kind = sniff(bytes, len);
    int r = -1;
    if (len == 0)
        snprintf(err, errlen, "the file is empty");
    else if (kind < 0)
        snprintf(err, errlen, "not a PNG, JPEG or SVG file");
    else if (kind == RF_IMAGE_PNG)
        r = decode_png(img, bytes, len, err, errlen);
    else if (kind == RF_IMAGE_JPEG)
        r = rf_image_decode_jpeg(img, bytes, len, err, errlen);
    else
        r = rf_image_check_svg(img, bytes, len, err, errlen);
    img->kind = (uint8_t)(kind < 0 ? 0 : kind);
    if (kind == RF_IMAGE_SVG && r == 0) {
        img->bytes = bytes;
        bytes = NULL;
    }
    free(bytes);
    if (r != 0) {
        rf_image_destroy(img);
        return NULL;
    }
    return img;
}

void rf_image_destroy(rf_image_t *img)
{
    if (img == NULL)
        return;
    if (img->surface != NULL)
        cairo_surface_destroy(img->surface);
    free(img->bytes);
    free(img->file);
    free(img);
}
