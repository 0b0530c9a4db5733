/* font.h - font files: opened once, read by any number of threads.
 *
 * Owns: rf_font_t, one font file of a scene (an entry of `fonts`, or a
 * built-in: `sans`, `sans-bold`, `mono`), and where the built-in fonts
 * live. FreeType opens the file (FT_New_Memory_Face: the one judge of
 * whether it is a font we can draw, with its error named when it is not);
 * HarfBuzz then keeps an immutable face over the same bytes, from which
 * text.c shapes and takes glyph outlines. No fontconfig, no system font
 * lookup: what a scene names is the file that draws it, so the same scene
 * draws the same glyphs on every machine.
 *
 * A font is created by the scene loader and destroyed with the scene. It
 * is immutable once created: hb_face_t is thread-safe, and every renderer
 * makes its own hb_font_t over it (text.c).
 */
#ifndef RF_FONT_H
#define RF_FONT_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

struct hb_face_t;
struct hb_blob_t;

/* The largest font file we read: larger is an error, not a crash. */
#define RF_FONT_MAX_BYTES (32u << 20)
/* Variation axes of one font we keep (more are ignored: none known has). */
#define RF_FONT_MAX_AXES 16

typedef struct rf_font_axis {
    uint32_t tag;                /* 'wght' as HB_TAG('w','g','h','t') */
    double min, def, max;
} rf_font_axis_t;

typedef struct rf_font {
    char *name;                  /* the name scenes use: "sans", or a `fonts` key */
    char *file;                  /* the file as the scene names it, or the
                                    built-in's file name */
    int builtin;                 /* 1: ships with runeframe */
    unsigned char *bytes;        /* the whole file (owned by blob) */
    struct hb_blob_t *blob;      /* over bytes, shared by the fonts of one
                                    file (rf_font_share) */
    size_t len;
    int hashed;                  /* sha256 holds the file's digest (set by
                                    rf_font_sha256_hex, under its lock) */
    uint8_t sha256[RF_SHA256_BYTES];
    struct hb_face_t *face;      /* over bytes */
    unsigned upem;               /* units per em */
    double ascender, descender;  /* font units at the default instance
                                    (descender below the baseline: < 0) */
    uint32_t naxes;
    rf_font_axis_t axes[RF_FONT_MAX_AXES];
    uint32_t nglyphs;
    double def_wght;             /* a built-in instance's weight (sans-bold:
                                    700), NaN when the axes' defaults hold */
} rf_font_t;

/* Opens a font from bytes (malloc'd; the font takes them, also on failure).
 * name and file are copied. Returns NULL with a one-line reason in err
 * ("FreeType: unknown file format", "out of memory", ...). */
rf_font_t *rf_font_create(const char *name, const char *file, unsigned char *bytes, size_t len,
                          char *err, size_t errlen);

/* A font of another name over the same file as of (its bytes and face
 * shared, not read or checked again: sans-bold is sans at weight 700);
 * the caller sets what differs (def_wght). Either may be destroyed first.
 * NULL when out of memory. */
rf_font_t *rf_font_share(const rf_font_t *of, const char *name);

/* Frees the font (the file's bytes with the last font sharing them). NULL
 * is a no-op. */
void rf_font_destroy(rf_font_t *f);

/* The SHA-256 of the font's file in hex into hex (what `info` prints and a
 * golden trace records). Computed on the first call, not at load: hashing
 * a 600 KB built-in cost a cold `seek` of a text scene about 2 ms, and only
 * `info` and `check` ask; later calls (info names the font of every text
 * layer) reuse it. Thread-safe: the digest is kept under one lock. */
void rf_font_sha256_hex(const rf_font_t *f, char hex[RF_SHA256_HEX]);

/* The axis tagged tag, or NULL. */
const rf_font_axis_t *rf_font_axis(const rf_font_t *f, uint32_t tag);

/* ---- built-in fonts ---- */

/* The built-in named name ("sans", "sans-bold", "mono"): its file name in
 * the font folder and its weight (NaN: the file's default). 0 when name is
 * not a built-in. */
int rf_font_builtin(const char *name, const char **file, double *wght);

/* The names of the built-ins, NULL-terminated (for did-you-mean). */
extern const char *const rf_font_builtin_names[];

/* The folder holding the built-in fonts, into buf: $RUNEFRAME_FONT_DIR
 * when set (the test suite points it at the source tree), else `fonts`
 * next to the running binary or one folder up (the build tree), else
 * share/runeframe/fonts beside the binary's bin/ (an installed tree, also
 * when moved or under a DESTDIR), else the configured
 * $(datadir)/runeframe/fonts. 0 on success, -1 when none holds the
 * built-ins. */
int rf_font_dir(char *buf, size_t cap);

#endif
