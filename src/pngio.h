/* pngio.h - PNG files out of cairo frames, and any PNG into 8-bit RGBA.
 *
 * Owns: the PNG writer (our own encoder on libdeflate) and the PNG reader
 * (on libpng), and
 * rf_png_status_t, the one status every function here returns.
 *
 * Writer: a frame in cairo's ARGB32 layout (premultiplied alpha, one native-
 * endian uint32_t per pixel, rows stride bytes apart) becomes a PNG whose
 * pixels are exactly those cairo_surface_write_to_png() would store: colors
 * are unpremultiplied with cairo's rounding, (c * 255 + a / 2) / a, alpha 0
 * gives 0,0,0,0. The file is RGB (color type 2) when every pixel is opaque,
 * RGBA (6) otherwise. The compression level and the filter are options.
 * The encoder (pngio-enc.c) filters rows itself. Level 1 codes them with
 * our own deflate coder (pngio-huff.c: dynamic Huffman blocks whose
 * tables come from a sample of the image's rows, written row by row;
 * filtered rows as literals and runs, or, when the sample says that is
 * smaller, unfiltered rows with matches too); levels 0 and 2..9 compress
 * the whole filtered image with libdeflate in one call. Buffers are kept per thread between
 * calls (no page faults per frame). Output bytes depend only on the
 * pixels, the options and (levels 0, 2..9) libdeflate's version, never
 * on the CPU.
 * Output goes to a FILE*, to a memory buffer (encode a settled frame once,
 * copy the bytes), or to a path atomically (atomic.h).
 *
 * Reader: any PNG (palette, gray 1/2/4/8/16-bit, gray+alpha, RGB, RGBA,
 * 8/16-bit, tRNS, Adam7) becomes 8-bit straight-alpha RGBA exactly as
 * pngjs (the decoder of pixelmatch and its test suite) decodes it:
 *   - palette, gray and RGB are expanded to RGBA; alpha 255 where absent;
 *   - a tRNS color key makes matching pixels 0,0,0,0 (all four channels, as
 *     pngjs does; libpng would keep the color), compared at full depth;
 *   - samples of depth d != 8 are scaled by floor(v * 255 / (2^d - 1) + 0.5):
 *     16-bit values are ROUNDED, (v + 128) / 257, not truncated to the high
 *     byte (pngjs's format-normaliser.js scaleDepth; e.g. 0xFE00 -> 253);
 *   - gAMA, sRGB, iCCP, cHRM, sBIT are ignored (never applied);
 *   - a palette index beyond the palette is an error (pngjs throws);
 *   - APNG chunks (acTL, fcTL, fdAT) and other unknown ancillary chunks are
 *     skipped: only the default image is read;
 *   - every chunk's CRC is checked, ancillary ones too (pngjs checkCRC).
 * Limits: width, height <= 16384 and width * height <= 67,108,864 (the
 * contract's canvas limits, via png_set_user_limits and our own check of
 * IHDR before libpng allocates anything), ancillary chunks <= 8 MiB, files
 * <= 1 GiB. Paths are opened O_NONBLOCK (a FIFO cannot hang the reader) and
 * must be regular files. Rows arrive in order, one callback per row, as soon
 * as they are decoded (interlaced images: after the last pass).
 *
 * Errors never crash and never leak: libpng's longjmp lands in one place per
 * call, which frees everything. Every function is thread-safe.
 *
 * Files: pngio-write.c (the writer's API and row conversion), pngio-enc.c
 * (the encoder: filters, libdeflate, chunks), pngio-huff.c (level 1's
 * deflate coder), pngio-filter.h (the row
 * filters, a template pngio-enc.c instantiates vectorized and scalar),
 * pngio-read.c (the reader), pngio.c (status texts and what both share,
 * pngio-int.h).
 */
#ifndef RF_PNG_H
#define RF_PNG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RF_PNG_MAX_DIMENSION 16384u          /* canvas limit per side */
#define RF_PNG_MAX_PIXELS 67108864u          /* canvas limit width * height */
#define RF_PNG_MAX_FILE_SIZE (1ull << 30)    /* reader input limit, bytes */
#define RF_PNG_MAX_CHUNK (8u << 20)          /* ancillary chunk limit, bytes */

/* The result of every function of this module. */
typedef enum rf_png_status {
    RF_PNG_SUCCESS = 0,       /* no error */
    RF_PNG_NO_MEMORY,         /* an allocation failed */
    RF_PNG_INVALID_ARGUMENT,  /* NULL pointer, frame of zero size or stride
                                 below width * 4 or not a multiple of 4,
                                 level outside 0..9, unknown filter */
    RF_PNG_IO_ERROR,          /* a system call failed (open, read, write,
                                 fsync, rename); sys_errno says which error
                                 (ENOSPC for a full disk) */
    RF_PNG_NOT_FOUND,         /* the input path does not exist (ENOENT,
                                 ENOTDIR) */
    RF_PNG_NOT_REGULAR_FILE,  /* the input is a directory, device, FIFO or
                                 socket (also through a symbolic link) */
    RF_PNG_FILE_TOO_LARGE,    /* the input is larger than RF_PNG_MAX_FILE_SIZE */
    RF_PNG_EMPTY,             /* the input has no bytes at all */
    RF_PNG_NOT_PNG,           /* the input does not start with the PNG
                                 signature */
    RF_PNG_TRUNCATED,         /* the input ends before the IEND chunk */
    RF_PNG_BAD_CRC,           /* a chunk's CRC does not match its bytes */
    RF_PNG_BAD_DIMENSIONS,    /* IHDR declares a width or height of 0 (or
                                 above 2^31 - 1, which PNG forbids) */
    RF_PNG_TOO_BIG,           /* the image is larger than the canvas limits
                                 RF_PNG_MAX_DIMENSION, RF_PNG_MAX_PIXELS */
    RF_PNG_CORRUPT,           /* any other violation of the PNG format: bad
                                 IHDR fields, missing PLTE, palette index out
                                 of range, broken zlib data, chunk order */
    RF_PNG_STOPPED,           /* a caller's callback returned nonzero */
    RF_PNG_INTERNAL_ERROR,    /* libpng failed for a reason not above (a bug) */
    RF_PNG_LAST_STATUS        /* the number of statuses; not a status */
} rf_png_status_t;

/* A short constant description of status ("file is truncated"); never NULL
 * ("unknown status" for values out of range). */
const char *rf_png_status_to_string(rf_png_status_t status);

/* Details of a failure, filled by every function that takes one (it may be
 * NULL). On success status is RF_PNG_SUCCESS and message is empty. */
typedef struct rf_png_error {
    rf_png_status_t status;
    int sys_errno;          /* RF_PNG_IO_ERROR, RF_PNG_NOT_FOUND: errno */
    char message[512];      /* one line, "PATH: what happened[: detail]" */
} rf_png_error_t;

/* ------------------------------------------------------------------ writer */

typedef enum rf_png_filter {
    RF_PNG_FILTER_NONE = 0,   /* no filter: fastest to write and to read */
    RF_PNG_FILTER_SUB,
    RF_PNG_FILTER_UP,
    RF_PNG_FILTER_AVG,
    RF_PNG_FILTER_PAETH,
    RF_PNG_FILTER_ALL,        /* adaptive: per row the filter whose bytes
                                 have the lowest sum of absolute values
                                 (level 1: summed over 32 bytes of every
                                 128 of the row); or for the whole
                                 image NONE (level 1: when a sample of
                                 rows codes 3% smaller so, its matches
                                 counted; levels 2..9, 128 rows or more:
                                 NONE, SUB, UP or PAETH when a sample of
                                 rows compresses strictly smaller so than
                                 per row, the smallest) */
} rf_png_filter_t;

typedef struct rf_png_options {
    int level;                /* compression level 0..9: 1 our own fast
                                 coder (Huffman, runs; on unfiltered rows
                                 matches with the pixel above, the pixel
                                 before or one probe of a hash table);
                                 0 and 2..9 libdeflate's levels (0
                                 stores, 9 smallest) */
    rf_png_filter_t filter;
    int threads;              /* cores the encoder may use: 0 or 1 the
                                 calling thread only; 2 or more: level 1
                                 codes the second half of an image on a
                                 thread of its own when its rows' sample
                                 says the halves are worth it (about 3
                                 ms of coding: most 1080p frames, 720p
                                 ones with gradients or noise; 1.1x to
                                 1.5x faster on 2 idle cores). The bytes
                                 never depend on it: level 1 codes every
                                 image of 1 MiB or more as two halves,
                                 at once or one after the other */
} rf_png_options_t;

/* Defaults, measured by bench/png.c on the corpus of bench/scenes/corpus
 * (BENCHMARKS.md has the table): render frames level 1 + ALL (the fast
 * setting: our coder, the filter per row chosen on a sample of each row
 * or none with matches; 8x to 24x faster than cairo_surface_write_to_png
 * at 0.90x to 1.41x its size), goldens level 7 + ALL (the small setting,
 * libdeflate: 0.69x to 0.99x cairo's size on the corpus, still faster
 * than cairo). A NULL
 * options pointer means RF_PNG_OPTIONS_RENDER. Use:
 * rf_png_options_t o = RF_PNG_OPTIONS_GOLDEN; */
#define RF_PNG_OPTIONS_RENDER { 1, RF_PNG_FILTER_ALL, 0 }
#define RF_PNG_OPTIONS_GOLDEN { 7, RF_PNG_FILTER_ALL, 0 }

/* "none", "sub", "up", "avg", "paeth", "all" -> *filter; 0, or -1 when the
 * name is none of them. */
int rf_png_filter_parse(const char *name, rf_png_filter_t *filter);

/* A frame in cairo's CAIRO_FORMAT_ARGB32 layout, borrowed (call
 * cairo_surface_flush() before handing cairo_image_surface_get_data()). */
typedef struct rf_png_frame {
    const uint32_t *pixels;   /* premultiplied ARGB32, native endian */
    uint32_t width;           /* 1 .. 2^31 - 1 */
    uint32_t height;          /* 1 .. 2^31 - 1 */
    size_t stride;            /* bytes from one row to the next */
    int opaque;               /* 1: the caller knows every alpha is 255
                                 (a renderer's frame over an opaque
                                 background: rf_renderer_opaque), and
                                 the writer stores RGB without looking
                                 (a wrong 1 loses the alpha); 0 (what an
                                 initializer leaving it out gives): the
                                 writer looks (rf_png_frame_is_opaque) */
} rf_png_frame_t;

/* Growable output for rf_png_write_mem(); start it zeroed. */
typedef struct rf_png_buffer {
    uint8_t *data;
    size_t len;               /* bytes of the last PNG written */
    size_t cap;               /* bytes allocated */
} rf_png_buffer_t;

/* Frees b's storage and zeroes it. */
void rf_png_buffer_destroy(rf_png_buffer_t *b);

/* Writes the PNG to fp (flushed at the end; fp stays open). IO_ERROR with
 * sys_errno on a write or flush failure (ENOSPC on /dev/full). */
rf_png_status_t rf_png_write_stream(const rf_png_frame_t *frame,
                                    const rf_png_options_t *options, FILE *fp,
                                    rf_png_error_t *err);

/* Writes the PNG into out, replacing its contents (out->len bytes) and
 * reusing its storage. On failure out->len is 0. */
rf_png_status_t rf_png_write_mem(const rf_png_frame_t *frame,
                                 const rf_png_options_t *options,
                                 rf_png_buffer_t *out, rf_png_error_t *err);

/* Writes the PNG to path atomically (rf_atomic_file_open with
 * atomic_flags, e.g. RF_ATOMIC_FSYNC for goldens): path is either left as it
 * was or holds the complete new PNG. */
rf_png_status_t rf_png_write_path(const rf_png_frame_t *frame,
                                  const rf_png_options_t *options,
                                  const char *path, int atomic_flags,
                                  rf_png_error_t *err);

/* 1 when every pixel's alpha is 255 (the writer then stores RGB), else 0. */
int rf_png_frame_is_opaque(const rf_png_frame_t *frame);

/* One row of n ARGB32 pixels to n straight-alpha RGBA pixels (4n bytes),
 * byte-identical to cairo's unpremultiply: what the written PNG decodes to,
 * and what the differ compares a rendered frame as. dst and src must not
 * overlap. */
void rf_png_row_to_rgba(uint8_t *dst, const uint32_t *src, size_t n);
/* The same conversion in place: n ARGB32 words (any number of packed rows)
 * become the bytes rf_png_row_to_rgba would write for them. About half
 * the time of converting into a second buffer (one pass over one buffer). */
void rf_png_rows_to_rgba_inplace(uint32_t *px, size_t n);
/* One row of n opaque ARGB32 pixels to n RGB pixels (3n bytes); alpha is
 * not looked at. */
void rf_png_row_to_rgb(uint8_t *dst, const uint32_t *src, size_t n);

/* ------------------------------------------------------------------ reader */

/* What IHDR says, before any pixel. */
typedef struct rf_png_info {
    uint32_t width;
    uint32_t height;
    uint8_t bit_depth;        /* 1, 2, 4, 8 or 16 */
    uint8_t color_type;       /* 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
    uint8_t interlaced;       /* 1 for Adam7 */
} rf_png_info_t;

/* Called once after IHDR (and PLTE/tRNS) were read; nonzero stops the
 * decode with RF_PNG_STOPPED (e.g. a size mismatch the caller reports). */
typedef int (*rf_png_header_fn)(void *ctx, const rf_png_info_t *info);
/* Called for y = 0 .. height-1 in order with width * 4 bytes of RGBA, valid
 * during the call only; nonzero stops with RF_PNG_STOPPED. Rows are
 * delivered before the end of the file is checked: a later failure (e.g.
 * truncation after the last row) still makes the whole decode fail. */
typedef int (*rf_png_row_fn)(void *ctx, uint32_t y, const uint8_t *rgba);

/* Where row y's RGBA (width * 4 bytes) is to be decoded, or NULL for the
 * decoder's own row buffer; on_row then gets that pointer. Decoding into
 * the caller's image saves a copy per row (interlaced images ignore it:
 * their rows are assembled first). */
typedef uint8_t *(*rf_png_dest_fn)(void *ctx, uint32_t y);

/* Decodes the file at path, calling on_header (may be NULL), then on_row for
 * each row. */
rf_png_status_t rf_png_decode_path(const char *path, rf_png_header_fn on_header,
                                   rf_png_row_fn on_row, void *ctx,
                                   rf_png_error_t *err);
/* The same, each row decoded where dest (may be NULL) says. */
rf_png_status_t rf_png_decode_path_into(const char *path, rf_png_header_fn on_header,
                                        rf_png_dest_fn dest, rf_png_row_fn on_row,
                                        void *ctx, rf_png_error_t *err);
/* The same from len bytes at data; name is used in messages (NULL: "PNG
 * data"). */
rf_png_status_t rf_png_decode_mem(const void *data, size_t len, const char *name,
                                  rf_png_header_fn on_header, rf_png_row_fn on_row,
                                  void *ctx, rf_png_error_t *err);

/* A whole decoded image: width * height * 4 bytes of RGBA, rows packed. */
typedef struct rf_png_rgba {
    uint8_t *pixels;
    uint32_t width;
    uint32_t height;
    rf_png_info_t info;       /* the file's IHDR */
} rf_png_rgba_t;

/* Decodes the whole image into img (zeroed on failure). */
rf_png_status_t rf_png_read_path(const char *path, rf_png_rgba_t *img,
                                 rf_png_error_t *err);
rf_png_status_t rf_png_read_mem(const void *data, size_t len, const char *name,
                                rf_png_rgba_t *img, rf_png_error_t *err);
/* Frees img's pixels and zeroes it. NULL is a no-op. */
void rf_png_rgba_destroy(rf_png_rgba_t *img);

/* Writes a straight-alpha RGBA image (img->pixels, img->width,
 * img->height; info is not looked at) as a PNG whose pixels decode to
 * exactly those bytes: RGB when every alpha is 255, else RGBA with the
 * colors of alpha-0 pixels kept as given. For images that are not cairo
 * frames, e.g. the differ's diff image. */
rf_png_status_t rf_png_write_rgba_path(const rf_png_rgba_t *img,
                                       const rf_png_options_t *options,
                                       const char *path, int atomic_flags,
                                       rf_png_error_t *err);
rf_png_status_t rf_png_write_rgba_mem(const rf_png_rgba_t *img,
                                      const rf_png_options_t *options,
                                      rf_png_buffer_t *out, rf_png_error_t *err);

#endif
