/* image.h - image files (PNG, JPEG, SVG): decoded once, read by any number
 * of threads.
 *
 * Owns: rf_image_t, one image file of a scene (the `src` of an image
 * layer, scene-v1.md "Images"), its decoding under limits and the EXIF
 * orientation of JPEGs. The kind is told by the file's first bytes, never
 * by its name:
 *   - PNG through pngio's reader (its rules and limits), then premultiplied
 *     with cairo's rounding into a CAIRO_FORMAT_ARGB32 surface;
 *   - JPEG through libjpeg-turbo (image-jpeg.c): its pixels as djpeg
 *     decodes them (the library's defaults: islow DCT, fancy upsampling),
 *     turned upright by the APP1 Exif IFD0 Orientation tag (1..8, read
 *     here, bounds-checked; anything else is 1), into a CAIRO_FORMAT_RGB24
 *     surface. Warnings (a truncated or corrupt stream, which libjpeg
 *     would fill with gray) are errors; CMYK/YCCK is refused; more than
 *     RF_IMAGE_MAX_SCANS progressive scans is refused (a JPEG bomb);
 *   - SVG through librsvg (image-svg.c), kept as the file's bytes: every
 *     renderer parses its own RsvgHandle from them (rf_image_svg_open), as
 *     a handle of librsvg 2.54 must not be used by two threads at once,
 *     and draws it as vectors at any transform. Before librsvg sees the
 *     file a scan refuses a DOCTYPE with entities (no entity expansion at
 *     all), more than RF_IMAGE_SVG_MAX_ELEMENTS elements and nesting
 *     deeper than RF_IMAGE_SVG_MAX_DEPTH; librsvg's own limits stay on
 *     (no RSVG_HANDLE_FLAG_UNLIMITED), and the handle has no base file, so
 *     it reads no other file and no URL (only data: URLs).
 * A raster image's surface is made once and never written again: cairo
 * only reads a surface used as a source, so every render worker may paint
 * from it at once (tests/image-tsan.test under -fsanitize=thread).
 *
 * Limits (errors, never crashes): RF_IMAGE_MAX_BYTES per file (asset.h
 * reads it), sides <= RF_PNG_MAX_DIMENSION and pixels <=
 * RF_PNG_MAX_PIXELS (checked on the header, before any pixel is
 * allocated), for SVG the intrinsic size too.
 */
#ifndef RF_IMAGE_H
#define RF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

struct _cairo_surface;
struct _RsvgHandle;

#define RF_IMAGE_MAX_BYTES (64u << 20)
#define RF_IMAGE_MAX_SCANS 256
#define RF_IMAGE_SVG_MAX_ELEMENTS 100000
#define RF_IMAGE_SVG_MAX_DEPTH 64

typedef enum rf_image_kind { RF_IMAGE_PNG = 0, RF_IMAGE_JPEG, RF_IMAGE_SVG } rf_image_kind_t;

/* "png", "jpeg", "svg". */
extern const char *const rf_image_kind_names[3];

typedef struct rf_image {
    char *file;                  /* as the scene names it */
    uint8_t kind;                /* rf_image_kind_t */
    uint8_t orientation;         /* JPEG: the Exif orientation applied (1..8) */
    size_t len;                  /* bytes of the file */
    uint8_t sha256[RF_SHA256_BYTES];
    double width, height;        /* its own size in px (upright; SVG: intrinsic) */
    struct _cairo_surface *surface; /* PNG, JPEG: the pixels, read-only */
    unsigned char *bytes;        /* SVG: the file (NULL for the others) */
} rf_image_t;

/* Decodes an image from bytes (malloc'd; the image takes them, also on
 * failure). file is copied. Returns NULL with a one-line reason in err
 * ("not a PNG, JPEG or SVG file", "JPEG: the file is truncated", ...). */
rf_image_t *rf_image_create(const char *file, unsigned char *bytes, size_t len, char *err,
                            size_t errlen);

/* Frees the image. NULL is a no-op. */
void rf_image_destroy(rf_image_t *img);

/* SVG: a new handle of its own over img's bytes (the caller's thread owns
 * it; g_object_unref it). NULL when out of memory or not an SVG. */
struct _RsvgHandle *rf_image_svg_open(const rf_image_t *img);

/* ---- the pieces, for the decoders' tests and fuzzing ---- */

/* The Exif Orientation (1..8) of the JPEG in data, from the first APP1
 * "Exif" segment's IFD0; 1 when there is none or it is malformed. */
int rf_image_jpeg_orientation(const unsigned char *data, size_t len);

/* The Orientation tag (1..8) of an APP1 payload (starting "Exif\0\0");
 * 1 when absent, out of range or malformed. */
int rf_image_exif_orientation(const unsigned char *app1, size_t len);

/* Decodes a JPEG (image-jpeg.c) into img->surface, width, height and
 * orientation; 0, or -1 with err. */
int rf_image_decode_jpeg(rf_image_t *img, const unsigned char *data, size_t len, char *err,
                         size_t errlen);

/* Checks an SVG (image-svg.c) and sets img->width, height; 0, or -1 with
 * err. */
int rf_image_check_svg(rf_image_t *img, const unsigned char *data, size_t len, char *err,
                       size_t errlen);

#endif
