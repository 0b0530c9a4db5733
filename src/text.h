/* text.h - shaping, line layout and glyph outlines for text layers.
 *
 * Owns: rf_text_engine_t, the caches one text layer keeps in one renderer
 * (so in one thread): a HarfBuzz font over the layer's rf_font_t face
 * with the layer's variations, the shaped form of every string the layer
 * has shown (cached by the formatted string, so a counter shapes each
 * number once), the current frame's line layout, and each glyph's outline
 * in font units (cached per glyph; cleared when the variations change).
 * An engine allocates only when it meets a string or glyph it has not
 * seen; a frame whose strings are cached allocates nothing.
 *
 * Shaping is HarfBuzz's (kerning, ligatures, marks, the layer's features)
 * per paragraph (text split at '\n'), with the direction and script
 * HarfBuzz guesses from the paragraph. Clusters are graphemes (HarfBuzz's
 * monotone-graphemes level: a base and its marks are one cluster) and
 * carry their rank in logical order (reveal counts them). Lines break at
 * spaces to fit the width (greedy; a word wider than the width overflows);
 * a right-to-left paragraph is one run laid out as HarfBuzz orders it, and
 * breaks only at '\n' (no bidirectional reordering of mixed text).
 */
#ifndef RF_TEXT_H
#define RF_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "font.h"
#include "layer.h"

/* Limits: longer text is an error at load (template) or not drawn (a
 * formatted string past it, reported). */
#define RF_TEXT_MAX_BYTES 65536
#define RF_TEXT_MAX_GLYPHS 65536
/* Strings one engine keeps shaped; past it the cache starts over. */
#define RF_TEXT_CACHE_MAX 1024

typedef struct rf_text_engine rf_text_engine_t;

/* One glyph of this frame's layout, in the layer's own coordinates (px). */
typedef struct rf_glyph_pos {
    uint32_t gid;        /* glyph id in the font */
    uint32_t rank;       /* its cluster's rank in logical order */
    double x, y;         /* pen position: the glyph's origin on its baseline */
    double cx, cy;       /* the center of its cell (advance x line box):
                            what per_glyph turns and scales around */
} rf_glyph_pos_t;

typedef struct rf_text_params {
    double size, letter_spacing, line_height, width; /* width: INFINITY for none */
    int align;           /* rf_text_align_t */
} rf_text_params_t;

/* A new engine for font with features (copied). NULL when out of memory. */
rf_text_engine_t *rf_text_engine_create(const rf_font_t *font, const rf_text_feature_t *features,
                                        uint32_t nfeatures);
void rf_text_engine_destroy(rf_text_engine_t *e);

/* Sets the variation axes (tags[i] = values[i]) over the font's built-in
 * instance; when they differ from the last call the shaping and outline
 * caches start over. -1 when out of memory. */
int rf_text_engine_vary(rf_text_engine_t *e, const uint32_t *tags, const double *values,
                        uint32_t n);

/* Shapes s (len bytes of UTF-8, invalid bytes shaped as U+FFFD) unless
 * cached, and lays it out with p: afterwards rf_text_glyphs() lists the
 * glyphs in visual order, *nclusters is the string's cluster count and
 * box the layout box [0, 0, w, h]. Returns the glyph count, or -1 when
 * out of memory or past RF_TEXT_MAX_GLYPHS; 0 glyphs and a box of NaN
 * width and height when a position would not be finite (a size near
 * 1e308: the layer is not drawn). */
long rf_text_layout(rf_text_engine_t *e, const char *s, size_t len, const rf_text_params_t *p,
                    uint32_t *nclusters, double box[4]);
const rf_glyph_pos_t *rf_text_glyphs(const rf_text_engine_t *e);

/* The outline of glyph gid in font units (y up): ncmd commands, each 'M',
 * 'L', 'C' or 'Z', taking 1, 1, 3 and 0 points (x, y pairs) from pts in
 * order. 0, or -1 when out of memory. */
int rf_text_outline(rf_text_engine_t *e, uint32_t gid, const uint8_t **cmds, uint32_t *ncmd,
                    const double **pts);

/* Units per em of the engine's font (px = units * size / upem). */
unsigned rf_text_upem(const rf_text_engine_t *e);

/* Counts the times the outline cache started over (a new variation
 * instance): what is derived from the outlines is stale when it changed. */
uint32_t rf_text_outline_epoch(const rf_text_engine_t *e);

/* The variation settings the outlines are made with, as bytes: two
 * engines of one font whose settings are the same bytes give the same
 * outlines (glyphmask.h rf_glyph_masks_source). Valid until the next
 * rf_text_engine_vary. */
void rf_text_instance(const rf_text_engine_t *e, const void **settings, size_t *bytes);

/* How many strings are shaped in the cache (tests, bench). */
uint32_t rf_text_cached(const rf_text_engine_t *e);

#endif
