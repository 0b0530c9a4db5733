/* glyphmask.h - a bounded cache of glyph coverage masks (scene-v1.md
 * "Text": text drawn through the cache sits on a 1/16 px grid).
 *
 * Owns: rf_glyph_masks_t, the A8 masks of every text layer of one
 * renderer (used by one thread). A mask is the coverage of one glyph
 * outline of one source (a font instance: rf_glyph_masks_source) at one
 * scale (device px per font unit) and one of RF_GLYPH_PHASES^2 sub-pixel
 * phases (x and y in 1/RF_GLYPH_PHASES of a pixel): layers that show the
 * same glyphs of the same font at the same size share their masks.
 * Rasterized once, nonzero winding:
 * - by FreeType (raster.h), its exact area, when rf_raster_simple shows
 *   that no two contours of the outline cross or touch and the winding
 *   stays 0 or one sign (most glyphs: holes wind the other way). The
 *   outline is cut into lines within RF_GLYPH_TOL, rounded to 1/64 px
 *   at phase 0 and moved by whole 1/64 px to each phase, so one
 *   certificate per glyph and scale serves all 256 phases (the cache
 *   keeps the last answers, CERTS of them, direct-mapped);
 * - else by cairo's own fill (default antialiasing), which counts an
 *   overlap once: the overlapping contours variable fonts keep (Inter's
 *   't', 'e', 'k', 'A').
 * Within 16 of 255 of the exact coverage either way on the first (9
 * measured), 21 measured with cairo (tests/check_text). What
 * a mask holds is a pure function of its key (source, glyph, scale,
 * phase): the cache never changes what a frame looks like, only what it
 * costs, whatever was drawn before (--jobs, --shard and seek draw the
 * same bytes).
 *
 * Thread-safety: one thread uses a cache; while rf_glyph_masks_paint
 * runs, the cache's own helper thread paints part of the batch (below).
 *
 * Bounded: masks live in one arena that grows by doubling from 64 KiB to
 * RF_GLYPH_MASKS_BYTES; when it or the table (RF_GLYPH_MASKS_SLOTS keys)
 * is full the cache starts over. Once the masks a frame uses are cached,
 * looking them up allocates nothing.
 */
#ifndef RF_GLYPHMASK_H
#define RF_GLYPHMASK_H

#include <stddef.h>
#include <stdint.h>

#include "helper.h"

#include "raster.h"

/* Sub-pixel positions per pixel on each axis: a glyph's pen is rounded
 * to the nearest 1/RF_GLYPH_PHASES px. 16: a mask is off its outline's
 * exact place by at most 1/32 px, finer than cairo's 15 sampled sub-rows
 * in y; a power of two, so the phase is the low bits. */
#define RF_GLYPH_PHASES 16
/* The most bytes of masks one cache (one renderer) holds, the most
 * masks, and the most sources it tells apart before it starts over. */
#define RF_GLYPH_MASKS_BYTES (16u << 20)
#define RF_GLYPH_MASKS_SLOTS 16384
#define RF_GLYPH_MASK_SOURCES 64
/* The most bytes of a source's settings rf_glyph_masks_source compares. */
#define RF_GLYPH_SOURCE_BYTES 256
/* Glyphs larger than this many device px per em are not cached (their
 * masks would crowd the arena; their fill costs more in area than in
 * edges anyway): the caller draws their outlines. */
#define RF_GLYPH_MASK_MAX_EM 160.0
/* How far (device px) the lines a glyph's curves are cut into may stray
 * from them in a mask FreeType draws. */
#define RF_GLYPH_TOL (1.0 / 32)

/* One mask: w x h coverage bytes, rows stride apart; its top-left pixel
 * is (x0, y0) from the whole pixel the glyph origin was rounded down to. */
typedef struct rf_glyph_mask {
    const uint8_t *a;
    int32_t x0, y0;
    int32_t w, h, stride;
} rf_glyph_mask_t;

typedef struct rf_glyph_masks rf_glyph_masks_t;

/* A new, empty cache (allocates nothing more until used); NULL when out
 * of memory. */
rf_glyph_masks_t *rf_glyph_masks_create(void);
void rf_glyph_masks_destroy(rf_glyph_masks_t *c);
/* Forgets every mask and source. */
void rf_glyph_masks_clear(rf_glyph_masks_t *c);

/* The id of one source of outlines: font (compared as a pointer) with
 * the bytes settings (its variations) as they are, bytes at most
 * RF_GLYPH_SOURCE_BYTES (more: a new id every call). The same instance
 * has the same id until the cache starts over its sources (past
 * RF_GLYPH_MASK_SOURCES of them); an id is never given to another
 * instance, so a layer holding an old one stays right (its masks are
 * made again). */
uint32_t rf_glyph_masks_source(rf_glyph_masks_t *c, const void *font, const void *settings,
                               size_t bytes);

/* The mask of glyph gid of source src, whose outline in font units (y
 * up) is ncmd commands 'M', 'L', 'C', 'Z' over pts (text.h
 * rf_text_outline), ras the caller's scratch rasterizer (NULL: cairo
 * draws every mask), drawn at
 * k device px per font unit with its origin at (px, py) / RF_GLYPH_PHASES
 * px from a whole pixel (px, py in 0 .. RF_GLYPH_PHASES - 1), into *out; rasterized on first use.
 * Returns 0, -1 when out of memory, 1 when the mask would be too large
 * (w * h past a quarter of RF_GLYPH_MASKS_BYTES: an outline reaching far
 * outside its em; the caller draws the outline). A mask of w == 0 is an
 * empty glyph. The mask stays valid until the next call. */
int rf_glyph_masks_get(rf_glyph_masks_t *c, rf_raster_t *ras, uint32_t src, uint32_t gid,
                       double k, int px, int py, const uint8_t *cmds, uint32_t ncmd,
                       const double *pts, const rf_glyph_mask_t **out);

/* ---- batches: the masks of a layer made on two threads ----
 * A cold frame of text spends most of its drawing making masks (a 1080p
 * page of text: about 1,500 of them, 9 ms); they are independent of each
 * other, so a caller that may use a second core (a single frame: `seek`,
 * a one-frame `render`) reserves the masks a layer needs, then paints
 * them at once: its own share on the calling thread and the rest on a
 * helper thread (helper.h): one lent by the caller, or else one the cache
 * starts on first use and joins in rf_glyph_masks_destroy. What a mask holds stays a pure function of its
 * key: the same bytes on one thread or two. */

/* How many threads batches may use: 1 (the default: the caller's alone)
 * or 2. */
void rf_glyph_masks_set_threads(rf_glyph_masks_t *c, int n);
int rf_glyph_masks_threads(const rf_glyph_masks_t *c);

/* Lends h (helper.h; borrowed: it must outlive c or be taken back with
 * NULL) as the second thread of batches, instead of one the cache would
 * start itself (its own, if it had started one, is stopped): the
 * renderer's, which its large gradient fills use too. NULL: the cache
 * starts its own again when a batch needs it. */
void rf_glyph_masks_set_helper(rf_glyph_masks_t *c, rf_helper_t *h);

/* Reserves the mask rf_glyph_masks_get would make for these arguments
 * (the outline borrowed until rf_glyph_masks_paint: unchanged, not
 * moved): its place is taken, its bytes are painted by the next
 * rf_glyph_masks_paint. 0 when it is cached or now reserved, 1 when it
 * would be too large (rf_glyph_masks_get says so again), -1 when out of
 * memory, 2 when the cache is full (paint the batch, then go on with
 * rf_glyph_masks_get, which starts the cache over). Call nothing but
 * this and rf_glyph_masks_paint until the batch is painted. */
int rf_glyph_masks_reserve(rf_glyph_masks_t *c, uint32_t src, uint32_t gid, double k, int px,
                           int py, const uint8_t *cmds, uint32_t ncmd, const double *pts);

/* Paints every reserved mask, with ras (the caller's) and on the helper
 * thread when the cache may use two and the batch has 8 masks or more.
 * 0, or -1 when memory ran out (the cache then starts over: no mask is
 * left unpainted). */
int rf_glyph_masks_paint(rf_glyph_masks_t *c, rf_raster_t *ras);

/* Adds mask m, its top-left pixel at (x, y) of an A8 buffer dst (w x h,
 * rows stride apart), scaled by a8 / 255 (255: as is), saturating at 255;
 * what falls outside the buffer is left out. */
void rf_glyph_mask_add(uint8_t *dst, int w, int h, int stride, const rf_glyph_mask_t *m, int x,
                       int y, unsigned a8);

#endif
