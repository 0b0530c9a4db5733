/* fuzz-text.c - the text path: a template's tokens and formats, shaping,
 * line layout and glyph outlines (template.h, text.h, font.h).
 *
 * Input: a parameter block of 16 bytes (mode, size, letter spacing, line
 * height, width, align, features, a number for the formats), then the
 * text. Mode picks the font: the built-in sans or mono (found through
 * RUNEFRAME_FONT_DIR, which tests/fuzz.test and run.sh set), or, when the
 * text holds a NUL, the bytes after it as a font file of its own (FreeType
 * must refuse it cleanly or HarfBuzz must shape with it; the font's
 * SHA-256 is then its bytes': a collection HarfBuzz checks on a copy of
 * its own must leave the font's bytes alone).
 *
 * Invariants: every formatted number fits RF_FMT_MAX_BYTES and is a
 * NUL-terminated string; a layout has at most one glyph per input byte
 * plus one per paragraph, every glyph's cluster rank is below the cluster
 * count, every position is finite, the box is [0, 0, w, h] with w, h >= 0
 * finite (or, for sizes near the doubles' end, no glyph and a NaN box); laying the same string out again (from the cache) gives the same
 * glyphs; every glyph's outline is commands M, L, C, Z with finite points;
 * its glyph mask (glyphmask.h) at the layout's scale and a phase from the
 * input is made or refused as too large (never a crash or an overrun:
 * every byte of it is read), and asked again is the same mask.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"
#include "sha256.h"
#include "glyphmask.h"
#include "layer.h"
#include "template.h"
#include "text.h"

#include "fuzz.h"

#define PARAMS 16

static rf_font_t *builtin(int which)
{
    static rf_font_t *fonts[2];
    static int tried[2];
    if (tried[which])
        return fonts[which];
    tried[which] = 1;
    char dir[4096], path[4200], err[200];
    const char *file;
    double w;
    if (rf_font_dir(dir, sizeof dir) != 0 ||
        !rf_font_builtin(which ? "mono" : "sans", &file, &w))
        return NULL;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    unsigned char *buf = malloc(RF_FONT_MAX_BYTES);
    size_t n = buf ? fread(buf, 1, RF_FONT_MAX_BYTES, f) : 0;
    fclose(f);
    fonts[which] = buf ? rf_font_create("b", file, buf, n, err, sizeof err) : NULL;
    return fonts[which];
}

/* The mask of one outline at k px per unit and phase (px, py), drawn by
 * FreeType where rf_raster_simple allows (one rasterizer kept across
 * inputs, as a renderer keeps it), else by cairo. */
static void check_mask(rf_glyph_masks_t *m, uint32_t gid, double k, int px, int py,
                       const uint8_t *cmd, uint32_t nc, const double *pt)
{
    static rf_raster_t *ras;
    if (ras == NULL)
        ras = rf_raster_create();
    const rf_glyph_mask_t *a, *b;
    int st = rf_glyph_masks_get(m, ras, 0, gid, k, px, py, cmd, nc, pt, &a);
    FUZZ_CHECK(st == 0 || st == 1, "glyph mask status %d", st);
    if (st != 0)
        return;
    FUZZ_CHECK(a->w >= 0 && a->h >= 0 && a->stride >= a->w, "mask %dx%d stride %d", a->w, a->h,
               a->stride);
    unsigned sum = 0;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++)
            sum += a->a[(size_t)y * (size_t)a->stride + (size_t)x];
    FUZZ_CHECK(!isfinite(k) ||
                   (rf_glyph_masks_get(m, ras, 0, gid, k, px, py, cmd, nc, pt, &b) == 0 && b == a),
               "the cached mask differs (coverage sum %u)", sum);
}

static void check_layout(rf_text_engine_t *e, const char *s, size_t len,
                         const rf_text_params_t *p, rf_glyph_masks_t *masks, double k, int phase)
{
    uint32_t ncl, ncl2;
    double box[4], box2[4];
    long n = rf_text_layout(e, s, len, p, &ncl, box);
    if (n < 0)
        return;                /* past the glyph limit */
    size_t paras = 1;
    for (size_t i = 0; i < len; i++)
        paras += s[i] == '\n';
    FUZZ_CHECK((size_t)n <= len + paras, "%ld glyphs from %zu bytes", n, len);
    if (n == 0 && isnan(box[2]) && isnan(box[3]))
        return;                /* positions past the doubles: nothing to draw */
    FUZZ_CHECK(box[0] == 0 && box[1] == 0 && box[2] >= 0 && box[3] >= 0 && isfinite(box[2]) &&
               isfinite(box[3]), "box [%g %g %g %g]", box[0], box[1], box[2], box[3]);
    const rf_glyph_pos_t *g = rf_text_glyphs(e);
    rf_glyph_pos_t *copy = malloc((size_t)(n ? n : 1) * sizeof *copy);
    FUZZ_CHECK(copy != NULL, "out of memory");
    memcpy(copy, g, (size_t)n * sizeof *copy);
    for (long i = 0; i < n; i++) {
        FUZZ_CHECK(g[i].rank < ncl, "rank %u of %u clusters", g[i].rank, ncl);
        FUZZ_CHECK(isfinite(g[i].x) && isfinite(g[i].y) && isfinite(g[i].cx) &&
                   isfinite(g[i].cy), "glyph %ld at (%g, %g)", i, g[i].x, g[i].y);
        const uint8_t *cmd;
        const double *pt;
        uint32_t nc;
        if (rf_text_outline(e, g[i].gid, &cmd, &nc, &pt) != 0)
            continue;
        const double *pt0 = pt;
        for (uint32_t c = 0; c < nc; c++) {
            int np = cmd[c] == 'C' ? 3 : cmd[c] == 'Z' ? 0 : 1;
            FUZZ_CHECK(cmd[c] == 'M' || cmd[c] == 'L' || cmd[c] == 'C' || cmd[c] == 'Z',
                       "command %d", cmd[c]);
            for (int q = 0; q < 2 * np; q++)
                FUZZ_CHECK(isfinite(pt[q]), "outline point %g", pt[q]);
            pt += 2 * np;
        }
        if (masks != NULL && i < 64)
            check_mask(masks, g[i].gid, k, (phase + (int)i) & 15, (phase >> 4) & 15, cmd, nc,
                       pt0);
    }
    long n2 = rf_text_layout(e, s, len, p, &ncl2, box2);
    FUZZ_CHECK(n2 == n && ncl2 == ncl && memcmp(box, box2, sizeof box) == 0 &&
               memcmp(copy, rf_text_glyphs(e), (size_t)n * sizeof *copy) == 0,
               "the cached layout differs");
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_rng_t r;
    size_t np = size < PARAMS ? size : PARAMS;
    fuzz_rng_init(&r, data, np, fuzz_hash(data, size));
    const char *text = (const char *)data + np;
    size_t len = size - np;
    uint8_t mode = fuzz_byte(&r);
    rf_text_params_t p;
    p.size = fuzz_unit(&r) * 200;
    p.letter_spacing = (fuzz_unit(&r) - 0.5) * 40;
    p.line_height = fuzz_unit(&r) * 3;
    p.width = fuzz_byte(&r) < 64 ? INFINITY : fuzz_unit(&r) * 800;
    p.align = fuzz_byte(&r) % 3;
    uint8_t fb = fuzz_byte(&r);
    if (fuzz_byte(&r) < 16) {    /* the ends of the double range */
        p.size = fuzz_special[fuzz_byte(&r) % (sizeof fuzz_special / sizeof fuzz_special[0])];
        if (!isfinite(p.size) || p.size < 0)
            p.size = 0;
    }
    /* formats: every token of the text, and a number through each format */
    double v = fuzz_special[fuzz_byte(&r) % (sizeof fuzz_special / sizeof fuzz_special[0])];
    char *z = malloc(len + 1), err[200], out[RF_FMT_MAX_BYTES];
    FUZZ_CHECK(z != NULL, "out of memory");
    memcpy(z, text, len);
    z[len] = '\0';
    size_t pos = 0;
    rf_tpl_token_t tok;
    while (rf_template_next(z, &pos, &tok, err, sizeof err) == 1) {
        FUZZ_CHECK(pos <= len, "token past the end");
        rf_fmt_t f;
        if (tok.is_value && tok.fmt != NULL &&
            rf_fmt_parse(tok.fmt, tok.fmtlen, &f, err, sizeof err) == 0) {
            size_t n = rf_fmt_number(&f, v, out);
            FUZZ_CHECK(n < RF_FMT_MAX_BYTES && strlen(out) == n, "format wrote %zu", n);
        }
    }
    /* the font */
    rf_font_t *own = NULL, *font;
    size_t tl = strlen(z);
    if (tl < len && (mode & 1)) {
        size_t fl = len - tl - 1;
        unsigned char *fb2 = malloc(fl ? fl : 1);
        FUZZ_CHECK(fb2 != NULL, "out of memory");
        memcpy(fb2, text + tl + 1, fl);
        own = rf_font_create("f", "f", fb2, fl, err, sizeof err);
        font = own;
        if (own != NULL) { /* its bytes are the file's, whatever HarfBuzz did with its copy */
            uint8_t want[RF_SHA256_BYTES];
            char a[RF_SHA256_HEX], b[RF_SHA256_HEX];
            rf_sha256((const unsigned char *)text + tl + 1, fl, want);
            rf_sha256_hex(want, a);
            rf_font_sha256_hex(own, b);
            FUZZ_CHECK(strcmp(a, b) == 0, "the font's SHA-256 %s is not its file's %s", b, a);
        }
    } else {
        font = builtin((mode >> 1) & 1);
    }
    if (font != NULL && tl <= RF_TEXT_MAX_BYTES) {
        rf_text_feature_t feats[2] = { { 0x746e756du /* tnum */, 1 }, { 0x6c696761u, 0 } };
        rf_text_engine_t *e = rf_text_engine_create(font, feats, fb % 3);
        FUZZ_CHECK(e != NULL, "engine: out of memory");
        uint32_t wt = 0x77676874u;       /* wght */
        double wv = fuzz_unit(&r) * 1200;
        FUZZ_CHECK(rf_text_engine_vary(e, &wt, &wv, fb & 4 ? 1 : 0) == 0, "vary");
        /* masks at up to 0.1 px per unit (200 px per em of 2,048), or at
         * the ends of the double range */
        double k = fuzz_unit(&r) * 0.1;
        int phase = fuzz_byte(&r);
        if (fuzz_byte(&r) < 8)
            k = fuzz_special[fuzz_byte(&r) % (sizeof fuzz_special / sizeof fuzz_special[0])];
        rf_glyph_masks_t *masks = rf_glyph_masks_create();
        FUZZ_CHECK(masks != NULL, "masks: out of memory");
        check_layout(e, z, tl, &p, masks, k, phase);
        rf_glyph_masks_destroy(masks);
        rf_text_engine_destroy(e);
    }
    rf_font_destroy(own);
    free(z);
    return 0;
}
