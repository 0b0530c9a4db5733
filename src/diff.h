/* diff.h - the differ: pixelmatch 7.2's measure, exactly, in C.
 *
 * Owns: rf_diff_options_t (pixelmatch's options), rf_diff_result_t (what a
 * comparison found) and rf_diff_t, a comparison in progress that can be fed
 * rows as they are decoded. Nothing here allocates or does I/O; images are
 * 8-bit straight-alpha RGBA, rows packed (width * 4 bytes), as pngio.h's
 * reader delivers them and as rf_png_row_to_rgba() turns a cairo frame.
 *
 * The measure, as pixelmatch 7.2.0 (mapbox/pixelmatch index.js) computes it,
 * in the same double-precision operations in the same order, so counts and
 * diff images are bit-identical to it (tests/check_diff.c runs pixelmatch's
 * own test suite, tests/vectors/pixelmatch/):
 *   - a pixel whose four bytes are equal in both images has delta 0;
 *   - otherwise delta = 0.5053 y^2 + 0.299 i^2 + 0.1957 q^2 of the YIQ
 *     difference, negative when the second image is darker there; pixels
 *     with alpha < 255 are blended (as premultiplied differences) over a
 *     background: white, or with checkerboard pixelmatch's pattern, which
 *     depends on the byte offset of the pixel;
 *   - a pixel differs when |delta| > 35215 * threshold * threshold;
 *   - a differing pixel that pixelmatch's anti-aliasing detector (after
 *     Vysniauskas 2009, on either image) classifies as anti-aliased is not
 *     counted when include_aa is 0;
 *   - the diff image: counted pixels in diff_color (diff_color_alt where
 *     the second image is darker), excluded anti-aliased pixels in aa_color,
 *     every other pixel the first image's luma faded towards white by alpha
 *     (pixelmatch's drawGrayPixel, stored as a JavaScript Uint8Array store
 *     does: truncated); with diff_mask only counted pixels are drawn and the
 *     rest stay as the caller initialized them (zero, for pixelmatch's
 *     transparent mask).
 *
 * Speed: rows whose bytes are equal in both images are skipped with one
 * memcmp (their diff-image rows are the faded copy); equal pixels inside a
 * differing row cost one 32-bit comparison.
 *
 * Thread-safety: no global state; any number of comparisons may run at
 * once. One rf_diff_t is not thread-safe: its caller serializes
 * rf_diff_feed() and rf_diff_end() (diffstream.c feeds one from two
 * decoding threads under a lock).
 */
#ifndef RF_DIFF_H
#define RF_DIFF_H

#include <stdint.h>

/* 35215 is the largest possible YIQ delta (pixelmatch's constant). */
#define RF_DIFF_MAX_DELTA 35215.0

typedef struct rf_diff_options {
    double threshold;          /* 0 .. 1, smaller is more sensitive (0.1) */
    int include_aa;            /* 1: anti-aliased pixels count as different
                                  (pixelmatch includeAA). runeframe's default
                                  is 1 (`--aa` sets 0); pixelmatch's is 0 */
    double alpha;              /* opacity of the faded copy, 0 .. 1 (0.1) */
    uint8_t aa_color[3];       /* excluded anti-aliased pixels (255, 255, 0) */
    uint8_t diff_color[3];     /* counted pixels (255, 0, 0) */
    uint8_t diff_color_alt[3]; /* counted pixels where image b is darker;
                                  pixelmatch's default is diff_color */
    int diff_mask;             /* 1: draw only the differences (a mask) */
    int checkerboard;          /* 1: blend translucent pixels over the
                                  checkerboard, 0: over white (1) */
} rf_diff_options_t;

/* runeframe's defaults (pixelmatch's, except include_aa = 1). Use:
 * rf_diff_options_t o = RF_DIFF_OPTIONS_DEFAULT; */
#define RF_DIFF_OPTIONS_DEFAULT                                                         \
    { 0.1, 1, 0.1, { 255, 255, 0 }, { 255, 0, 0 }, { 255, 0, 0 }, 0, 1 }

typedef struct rf_diff_result {
    uint64_t different;        /* counted pixels */
    uint64_t antialiased;      /* pixels over the threshold that were not
                                  counted as anti-aliasing (include_aa 0) */
    uint64_t pixels;           /* width * height */
    uint32_t x0, y0, x1, y1;   /* bounding box of the counted pixels,
                                  inclusive; all 0 when different is 0 */
} rf_diff_result_t;

/* A comparison in progress. Fill it with rf_diff_begin(); the fields are
 * the differ's, not the caller's. */
typedef struct rf_diff {
    const uint8_t *a, *b;      /* the two images (borrowed) */
    uint8_t *out;              /* the diff image, or NULL (borrowed) */
    uint32_t width, height;
    uint32_t ring;             /* rows a and b hold (a power of two), 0: all */
    uint32_t mask;             /* ring - 1, or all ones */
    uint32_t next;             /* first row not compared yet */
    double max_delta;          /* 35215 * threshold * threshold */
    rf_diff_options_t o;
    rf_diff_result_t r;
} rf_diff_t;

/* Starts comparing a with b (width * height RGBA pixels each; 1 <= width,
 * height and width * height * 4 fits in size_t), drawing the diff image
 * into out when it is not NULL (width * height * 4 bytes; with diff_mask
 * the caller zeroes it first). The buffers may still be filling: see
 * rf_diff_feed(). Borrowed until rf_diff_end(). */
void rf_diff_begin(rf_diff_t *d, const uint8_t *a, const uint8_t *b, uint8_t *out,
                   uint32_t width, uint32_t height, const rf_diff_options_t *o);

/* Like rf_diff_begin(), but a and b each hold only a ring of `ring` rows
 * (a power of two, at least RF_DIFF_RING_MIN; 0: whole images): row y in
 * row y % ring of the buffer, so two images can be compared while they
 * decode in a few hundred kilobytes instead of two whole images. The
 * caller writes row y only when y < rf_diff_writable(). out, when not
 * NULL, is still a whole image. */
#define RF_DIFF_RING_MIN 8
void rf_diff_begin_ring(rf_diff_t *d, const uint8_t *a, const uint8_t *b, uint8_t *out,
                        uint32_t width, uint32_t height, uint32_t ring,
                        const rf_diff_options_t *o);

/* With a ring: the rows below this one may be written now (their slot
 * holds a row that no comparison reads again); it grows as rows are
 * compared and is at least next + 6. UINT32_MAX without a ring. */
uint32_t rf_diff_writable(const rf_diff_t *d);

/* Tells the differ that rows 0 .. rows-1 of both images now hold their
 * pixels (rows only grows). It compares every row whose neighbourhood is
 * complete: the anti-aliasing test of a pixel reads two rows on each side,
 * so row y is compared once rows >= min(y + 3, height). */
void rf_diff_feed(rf_diff_t *d, uint32_t rows);

/* Finishes the comparison (feeding the remaining rows, which must hold
 * their pixels) and returns the number of counted pixels; *r (may be NULL)
 * gets the whole result. */
uint64_t rf_diff_end(rf_diff_t *d, rf_diff_result_t *r);

/* The whole comparison of two complete images in one call. */
uint64_t rf_diff_rgba(const uint8_t *a, const uint8_t *b, uint8_t *out, uint32_t width,
                      uint32_t height, const rf_diff_options_t *o, rf_diff_result_t *r);

/* The pixel count limits in check: a frame passes when different <=
 * max_pixels and different / pixels <= max_ratio. */
int rf_diff_within(const rf_diff_result_t *r, uint64_t max_pixels, double max_ratio);

/* "R,G,B" with each 0..255 -> rgb; 0 on success, -1 otherwise. */
int rf_diff_parse_color(const char *s, uint8_t rgb[3]);

#endif
