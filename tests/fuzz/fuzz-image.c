/* fuzz-image.c - the image decoders on any bytes, as an image layer's
 * `src` is read (image.h): PNG, JPEG with its Exif orientation, SVG.
 *
 * Invariants: rf_image_create() returns an image or NULL with a one-line
 * message; an image is within the limits (sides <= RF_PNG_MAX_DIMENSION,
 * raster pixels <= RF_PNG_MAX_PIXELS), a raster image's surface is its
 * size (orientations 5..8 swap the stored sides), an SVG's handle opens
 * again and draws into a small surface; the orientation parsers return
 * 1..8 on any bytes, the Exif payload's parser on every suffix too.
 */
#include <cairo.h>
#include <librsvg/rsvg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "pngio.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int o = rf_image_jpeg_orientation(data, size);
    FUZZ_CHECK(o >= 1 && o <= 8, "jpeg orientation %d", o);
    for (size_t k = 0; k < size && k < 64; k++) {
        o = rf_image_exif_orientation(data + k, size - k);
        FUZZ_CHECK(o >= 1 && o <= 8, "exif orientation %d", o);
    }
    unsigned char *copy = malloc(size ? size : 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, data, size);
    char err[200];
    err[0] = '\0';
    rf_image_t *img = rf_image_create("fuzz", copy, size, err, sizeof err);
    if (img == NULL) {
        FUZZ_CHECK(err[0] != '\0' && strchr(err, '\n') == NULL, "message '%s'", err);
        return 0;
    }
    FUZZ_CHECK(img->width > 0 && img->height > 0 && img->width <= RF_PNG_MAX_DIMENSION &&
                   img->height <= RF_PNG_MAX_DIMENSION,
               "size %gx%g", img->width, img->height);
    FUZZ_CHECK(img->len == size, "len %zu of %zu", img->len, size);
    if (img->kind == RF_IMAGE_SVG) {
        FUZZ_CHECK(img->surface == NULL && img->bytes != NULL, "svg holds its bytes");
        RsvgHandle *h = rf_image_svg_open(img);
        FUZZ_CHECK(h != NULL, "svg opens again");
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 16, 16);
        cairo_t *cr = cairo_create(s);
        cairo_scale(cr, 16 / img->width, 16 / img->height);
        RsvgRectangle vp = { 0, 0, img->width, img->height };
        rsvg_handle_render_document(h, cr, &vp, NULL);
        cairo_destroy(cr);
        cairo_surface_destroy(s);
        g_object_unref(h);
    } else {
        FUZZ_CHECK(img->surface != NULL && img->bytes == NULL, "raster holds a surface");
        FUZZ_CHECK(cairo_image_surface_get_width(img->surface) == (int)img->width &&
                       cairo_image_surface_get_height(img->surface) == (int)img->height,
                   "surface size");
        FUZZ_CHECK(img->width * img->height <= RF_PNG_MAX_PIXELS, "pixels");
        FUZZ_CHECK(img->orientation >= 1 && img->orientation <= 8, "orientation");
    }
    rf_image_destroy(img);
    return 0;
}
