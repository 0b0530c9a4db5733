/* diffstream.h - comparing PNG files while they decode.
 *
 * Owns: rf_diffstream_t (the outcome of one streamed comparison: what each
 * side was, the differ's result, the diff image) and the two ways of
 * feeding the differ (diff.h) from the PNG reader (pngio.h) row by row,
 * so that comparing costs almost no wall time of its own and reads rows
 * that are still in the cache:
 *
 *   rf_diffstream_files()  two PNG files (`runeframe diff`). Both decode at
 *       the same time, B on a second thread, each into a ring of rows
 *       (rf_diff_begin_ring, about 1 MiB), not a whole image: two whole
 *       1080p images are 4,000 page faults, a quarter of the CPU time of a
 *       diff. Whichever thread finishes a row feeds the differ every row
 *       both images now have; a thread that is a ring ahead of the other
 *       waits for it. On an idle machine the two threads are pinned to two
 *       CPUs until the join (the figures are in diffstream.c and
 *       BENCHMARKS.md).
 *   rf_diffstream_file_frame()  a PNG file (a golden) against a frame in
 *       memory (`runeframe check`), in the calling thread: as each row of
 *       the file arrives, the frame's row is turned into straight RGBA
 *       beside it and compared. Both images stay whole in the caller's
 *       buffers, so a diff image can be drawn afterwards (rf_diff_rgba)
 *       only for the frames that need one.
 *
 * The counts and diff images are those of rf_diff_rgba() on the two whole
 * images, byte for byte, whatever the ring size or thread timing.
 *
 * Thread-safety: no global state; any number of comparisons may run at
 * once (check runs one per worker). rf_diffstream_files() starts and joins
 * its own thread and restores the calling thread's CPU affinity before it
 * returns.
 */
#ifndef RF_DIFFSTREAM_H
#define RF_DIFFSTREAM_H

#include <stdint.h>

#include "diff.h"
#include "pngio.h"

typedef enum rf_diffstream_status {
    RF_DIFFSTREAM_COMPARED = 0, /* same size, both read: diff (and image) hold
                                   the comparison */
    RF_DIFFSTREAM_UNREADABLE,   /* a side could not be read: its st and err */
    RF_DIFFSTREAM_SIZE,         /* the sizes differ: each side's width, height */
    RF_DIFFSTREAM_NO_MEMORY,    /* both read, but no memory for the diff image
                                   (or nothing compared them) */
} rf_diffstream_status_t;

typedef struct rf_diffstream_side {
    const char *path;          /* the file (borrowed); NULL: an image in memory */
    rf_png_status_t st;        /* RF_PNG_SUCCESS, or why it was not read */
    rf_png_error_t err;        /* st != RF_PNG_SUCCESS: one line, with the path */
    int no_memory;             /* 1: it was not read for want of memory
                                  (st RF_PNG_STOPPED, "PATH: out of memory") */
    uint32_t width, height;    /* from its header (0 when none was read) */
    rf_png_info_t info;        /* its header */
} rf_diffstream_side_t;

typedef struct rf_diffstream {
    rf_diffstream_status_t status;
    rf_diffstream_side_t side[2];  /* a, b */
    rf_diff_result_t diff;     /* COMPARED: the result */
    uint8_t *image;            /* COMPARED with want_image: the diff image,
                                  width * height RGBA (owned; freed by
                                  rf_diffstream_destroy) */
} rf_diffstream_t;

typedef struct rf_diffstream_options {
    const rf_diff_options_t *diff; /* the measure (required) */
    int want_image;            /* 1: draw the diff image into image */
    int ring_rows;             /* rf_diffstream_files' rings: 0 for rows of
                                  about 1 MiB (the measured best), -1 for
                                  whole images, else the rows of a ring (a
                                  power of two >= RF_DIFF_RING_MIN). Tests
                                  use small rings on small images. */
} rf_diffstream_options_t;

/* Compares the PNG files a and b (pixelmatch's image1 and image2) while
 * they decode, into *ds. Returns ds->status. Release ds with
 * rf_diffstream_destroy() whatever the status. */
rf_diffstream_status_t rf_diffstream_files(rf_diffstream_t *ds, const char *a, const char *b,
                                           const rf_diffstream_options_t *o);

/* Compares the PNG file at path (image a: the golden) with frame (image b:
 * the render, cairo ARGB32), into *ds, in the calling thread. golden and
 * actual are the caller's buffers of frame->width * frame->height * 4
 * bytes; afterwards (COMPARED) they hold the two images as straight RGBA,
 * actual as its PNG would decode (rf_png_row_to_rgba). A file of another
 * size is not decoded past its header (SIZE; side[0] has its size); a
 * missing or unreadable file is UNREADABLE (side[0].st says which).
 * o->want_image and o->ring_rows are ignored. Nothing is allocated. */
rf_diffstream_status_t rf_diffstream_file_frame(rf_diffstream_t *ds, const char *path,
                                                const rf_png_frame_t *frame, uint8_t *golden,
                                                uint8_t *actual, const rf_diff_options_t *o);

/* Frees what ds holds (the diff image); ds may be NULL. */
void rf_diffstream_destroy(rf_diffstream_t *ds);

#endif
