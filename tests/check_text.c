/* check_text.c - text: SHA-256 against FIPS 180-4's examples, template
 * formatting against hand-written strings, and text drawn through the
 * whole loader and renderer held to pixel facts: sub-pixel motion, a
 * one-pixel move is a one-pixel shift, reveal 0 and 1, per_glyph's time
 * shift (glyph k at t is glyph 0 at t - k * stagger), jobs-independent
 * state. Shaping against hb-shape is tests/text.test. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exact-cover.h"
#include "font.h"
#include "glyphmask.h"
#include "raster.h"
#include "render.h"
#include "scene.h"
#include "sha256.h"
#include "template.h"
#include "testutil.h"
#include "text.h"

/* ---- SHA-256 (FIPS 180-4 / NIST CSRC example values) ---- */

static const char *hex_of(const char *msg, size_t len)
{
    static char hex[RF_SHA256_HEX];
    uint8_t d[RF_SHA256_BYTES];
    rf_sha256(msg, len, d);
    rf_sha256_hex(d, hex);
    return hex;
}

START_TEST(test_sha256_vectors)
{
    ck_assert_str_eq(hex_of("abc", 3),
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ck_assert_str_eq(hex_of("", 0),
                     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ck_assert_str_eq(hex_of(m, strlen(m)),
                     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a': blocks, and a length past 32 bits of bits */
    char *a = malloc(1000000);
    ck_assert_ptr_nonnull(a);
    memset(a, 'a', 1000000);
    ck_assert_str_eq(hex_of(a, 1000000),
                     "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
    /* 55 and 56 bytes: the padding's two cases around one block */
    char b[64];
    memset(b, 'a', sizeof b);
    ck_assert_str_eq(hex_of(b, 55),
                     "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    ck_assert_str_eq(hex_of(b, 56),
                     "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}
END_TEST

/* ---- formats ---- */

static const char *fmt(const char *spec, double v)
{
    static char out[RF_FMT_MAX_BYTES];
    rf_fmt_t f;
    char err[200];
    if (spec == NULL)
        memset(&f, 0, sizeof f);
    else
        ck_assert_int_eq(rf_fmt_parse(spec, strlen(spec), &f, err, sizeof err), 0);
    rf_fmt_number(&f, v, out);
    return out;
}

START_TEST(test_formats)
{
    ck_assert_str_eq(fmt(".0f", 41.6), "42");
    ck_assert_str_eq(fmt(".2f", 3.14159), "3.14");
    ck_assert_str_eq(fmt(",.1f", 1234567.89), "1,234,567.9");
    ck_assert_str_eq(fmt(",.0f", 999), "999");
    ck_assert_str_eq(fmt(",.0f", -1000), "-1,000");
    ck_assert_str_eq(fmt("d", 2.5), "3");      /* half away from zero */
    ck_assert_str_eq(fmt("d", -2.5), "-3");
    ck_assert_str_eq(fmt("d", -0.4), "0");     /* no "-0" */
    ck_assert_str_eq(fmt(".1f", -0.04), "0.0");
    ck_assert_str_eq(fmt(",d", 12345678), "12,345,678");
    ck_assert_str_eq(fmt(".0%", 0.42), "42%");
    ck_assert_str_eq(fmt(".1%", 0.1234), "12.3%");
    ck_assert_str_eq(fmt(",.0%", 123.45), "12,345%");
    ck_assert_str_eq(fmt(NULL, 0.5), "0.5");
    ck_assert_str_eq(fmt(NULL, 12), "12");
    ck_assert_str_eq(fmt(NULL, 1.0 / 3), "0.333333");
    ck_assert_str_eq(fmt(NULL, NAN), "NaN");
    ck_assert_str_eq(fmt(".2f", INFINITY), "inf");
    ck_assert_str_eq(fmt("d", -INFINITY), "-inf");
    ck_assert_str_eq(fmt(",.12f", 1e300), "1e+300");
    ck_assert_str_eq(fmt(",.12f", -9.99e20), "-999,000,000,000,000,000,000.000000000000");
    rf_fmt_t f;
    char err[200];
    static const char *const bad[] = { "x", ".f", ".13f", "%", "5d", ".2", ",", "d%", ".-1f" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_int_eq(rf_fmt_parse(bad[i], strlen(bad[i]), &f, err, sizeof err), -1);
}
END_TEST

START_TEST(test_template_tokens)
{
    const char *t = "a{{b}}c{n:.1f}{ p.x }";
    size_t pos = 0;
    rf_tpl_token_t tok;
    char err[200];
    const char *want[] = { "a", "{", "b", "}", "c", "n", "p.x" };
    int isv[] = { 0, 0, 0, 0, 0, 1, 1 };
    for (int i = 0; i < 7; i++) {
        ck_assert_int_eq(rf_template_next(t, &pos, &tok, err, sizeof err), 1);
        ck_assert_int_eq(tok.is_value, isv[i]);
        ck_assert_int_eq((int)tok.len, (int)strlen(want[i]));
        ck_assert(memcmp(tok.s, want[i], tok.len) == 0);
    }
    ck_assert_int_eq(rf_template_next(t, &pos, &tok, err, sizeof err), 0);
    static const char *const bad[] = { "{", "}", "a{b", "{}", "{ }", "x}y" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int r;
        pos = 0;
        while ((r = rf_template_next(bad[i], &pos, &tok, err, sizeof err)) == 1)
            ;
        ck_assert_int_eq(r, -1);
    }
}
END_TEST

/* ---- glyph masks (glyphmask.h) ---- */

/* A 4 x 4 font-unit square, at k = 0.5 a 2 x 2 px square from the origin
 * up (y up in font units: device y -2 .. 0). */
static const uint8_t sq_cmd[] = { 'M', 'L', 'L', 'L', 'Z' };
static const double sq_pts[] = { 0, 0, 4, 0, 4, 4, 0, 4 };

/* Coverage of the mask at device pixel (x, y) from the whole pixel the
 * origin was rounded down to; 0 outside the mask. */
static int cov_at(const rf_glyph_mask_t *m, int x, int y)
{
    x -= m->x0;
    y -= m->y0;
    return x < 0 || y < 0 || x >= m->w || y >= m->h ? 0 : m->a[y * m->stride + x];
}

/* Hand-derived coverage: the square at phase x 4/16 spans x 0.25 .. 2.25,
 * so columns 0, 1, 2 are covered 3/4, 1, 1/4 (191, 255, 64 of 255), rows
 * -2 and -1 fully, nothing else. */
START_TEST(test_glyph_mask_square)
{
    rf_glyph_masks_t *c = rf_glyph_masks_create();
    ck_assert_ptr_nonnull(c);
    const rf_glyph_mask_t *m;
    ck_assert_int_eq(
        rf_glyph_masks_get(c, NULL, 0, 7, 0.5, RF_GLYPH_PHASES / 4, 0, sq_cmd, 5, sq_pts, &m), 0);
    const int want[3] = { 191, 255, 64 };
    for (int y = -4; y <= 2; y++)
        for (int x = -2; x <= 4; x++) {
            int w = (y == -2 || y == -1) && x >= 0 && x <= 2 ? want[x] : 0;
            ck_assert_msg(abs(cov_at(m, x, y) - w) <= 1, "pixel %d,%d: %d, want %d", x, y,
                          cov_at(m, x, y), w);
        }
    rf_glyph_masks_destroy(c);
}
END_TEST

/* Asks c for the squares of glyphs gid0 .. gid0 + n - 1 at scale k, then
 * again: the second time each is the same mask, not rasterized again (a
 * new rasterization would take fresh arena bytes). */
static void masks_kept(rf_glyph_masks_t *c, uint32_t gid0, uint32_t n, double k)
{
    const rf_glyph_mask_t *m;
    const uint8_t **a = malloc(n * sizeof *a);
    ck_assert_ptr_nonnull(a);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            ck_assert_int_eq(
                rf_glyph_masks_get(c, NULL, 0, gid0 + i, k, 0, 0, sq_cmd, 5, sq_pts, &m), 0);
            if (pass == 0)
                a[i] = m->a;
            else
                ck_assert_msg(m->a == a[i], "mask %u drawn again", i);
        }
    free(a);
}

/* The table grows from a few slots (glyphmask.c): every key put in before
 * a growth is still found after it, the same mask. */
START_TEST(test_glyph_mask_table_grows)
{
    rf_glyph_masks_t *c = rf_glyph_masks_create();
    ck_assert_ptr_nonnull(c);
    masks_kept(c, 10, 300, 0.01);
    rf_glyph_masks_destroy(c);
}
END_TEST

/* A mask is a pure function of its key: after the cache has started over
 * many times (more keys than it holds), the same key gives the same
 * bytes; another phase gives other bytes. */
START_TEST(test_glyph_mask_pure)
{
    rf_glyph_masks_t *c = rf_glyph_masks_create();
    ck_assert_ptr_nonnull(c);
    const rf_glyph_mask_t *m;
    uint8_t first[64 * 64];
    ck_assert_int_eq(rf_glyph_masks_get(c, NULL, 0, 3, 2.5, 2, 3, sq_cmd, 5, sq_pts, &m), 0);
    rf_glyph_mask_t m0 = *m;
    ck_assert_int_le(m0.stride * m0.h, (int)sizeof first);
    memcpy(first, m0.a, (size_t)(m0.stride * m0.h));
    for (uint32_t i = 0; i < 3 * RF_GLYPH_MASKS_SLOTS; i++)
        ck_assert_int_eq(rf_glyph_masks_get(c, NULL, 0, 100 + i, 0.5 + i * 1e-3, (int)(i & 3),
                                            (int)(i >> 2 & 3), sq_cmd, 5, sq_pts, &m), 0);
    ck_assert_int_eq(rf_glyph_masks_get(c, NULL, 0, 3, 2.5, 2, 3, sq_cmd, 5, sq_pts, &m), 0);
    ck_assert_int_eq(m->w, m0.w);
    ck_assert_int_eq(m->h, m0.h);
    ck_assert_int_eq(m->x0, m0.x0);
    ck_assert_int_eq(m->y0, m0.y0);
    for (int y = 0; y < m->h; y++)
        ck_assert(memcmp(m->a + y * m->stride, first + y * m0.stride, (size_t)m->w) == 0);
    ck_assert_int_eq(rf_glyph_masks_get(c, NULL, 0, 3, 2.5, 1, 3, sq_cmd, 5, sq_pts, &m), 0);
    int same = 1;
    for (int y = 0; y < m->h && y < m0.h; y++)
        same &= memcmp(m->a + y * m->stride, first + y * m0.stride, (size_t)m->w) == 0;
    ck_assert(!same);
    /* an outline reaching 40,000 px: too large for a mask (the caller
     * draws the outline) */
    static const double far_pts[] = { 0, 0, 20000, 0, 20000, 20000, 0, 20000 };
    ck_assert_int_eq(rf_glyph_masks_get(c, NULL, 0, 5, 2, 0, 0, sq_cmd, 5, far_pts, &m), 1);
    rf_glyph_masks_destroy(c);
}
END_TEST

/* Adding rows of every width from 1 to 40 (the vector path takes 16 and
 * 8 bytes at a time, the rest one by one), at offsets that cut them on
 * either side, saturating: each byte min(255, dst + src), by hand. */
START_TEST(test_glyph_mask_add_widths)
{
    static uint8_t src[40 * 3], dst[48 * 5], want[48 * 5];
    uint32_t seed = 12345;
    for (int w = 1; w <= 40; w++)
        for (int x = -3; x <= 10; x += 13) {
            for (size_t i = 0; i < sizeof src; i++)
                src[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 24);
            for (size_t i = 0; i < sizeof dst; i++)
                dst[i] = want[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 24);
            rf_glyph_mask_t m = { src, 0, 0, w, 3, 40 };
            for (int r = 0; r < 3; r++)
                for (int q = 0; q < w; q++) {
                    int dx = x + q;
                    if (dx < 0 || dx >= 48)
                        continue;
                    unsigned v = want[(1 + r) * 48 + dx] + src[r * 40 + q];
                    want[(1 + r) * 48 + dx] = (uint8_t)(v > 255 ? 255 : v);
                }
            rf_glyph_mask_add(dst, 48, 5, 48, &m, x, 1, 255);
            ck_assert_msg(memcmp(dst, want, sizeof dst) == 0, "width %d at x %d", w, x);
        }
}
END_TEST

/* Adding saturates at 255 and scales by a8 / 255, rounded; what falls
 * off the buffer is left out. */
START_TEST(test_glyph_mask_add)
{
    uint8_t src[4] = { 200, 100, 0, 255 }, dst[3 * 4];
    rf_glyph_mask_t m = { src, 0, 0, 4, 1, 4 };
    memset(dst, 0, sizeof dst);
    rf_glyph_mask_add(dst, 4, 3, 4, &m, 0, 1, 255);
    rf_glyph_mask_add(dst, 4, 3, 4, &m, 0, 1, 255);
    ck_assert_uint_eq(dst[4], 255); /* 400 */
    ck_assert_uint_eq(dst[5], 200);
    ck_assert_uint_eq(dst[6], 0);
    ck_assert_uint_eq(dst[7], 255);
    rf_glyph_mask_add(dst, 4, 3, 4, &m, 2, 2, 128); /* columns 2, 3 only */
    ck_assert_uint_eq(dst[8], 0);
    ck_assert_uint_eq(dst[9], 0);
    ck_assert_uint_eq(dst[10], 100); /* 200 * 128 / 255 = 100.4 */
    ck_assert_uint_eq(dst[11], 50);  /* 100 * 128 / 255 = 50.2 */
    rf_glyph_mask_add(dst, 4, 3, 4, &m, -3, 0, 255); /* only src[3] lands, at 0 */
    ck_assert_uint_eq(dst[0], 255);
    ck_assert_uint_eq(dst[1], 0);
    rf_glyph_mask_add(dst, 4, 3, 4, &m, 0, 3, 255); /* below the buffer */
    rf_glyph_mask_add(dst, 4, 3, 4, &m, 4, 0, 255); /* right of it */
    ck_assert_uint_eq(dst[2] + dst[3], 0);
}
END_TEST

/* ---- pixels through the loader and the renderer ---- */

static rf_scene_t *load(const char *json)
{
    rf_diag_t *d = malloc(sizeof *d);
    ck_assert_ptr_nonnull(d);
    rf_diag_init(d, "text.json");
    rf_scene_t *sc = rf_scene_load_buffer("text.json", json, strlen(json), d);
    if (sc == NULL)
        rf_diag_print(d, stderr);
    free(d);
    ck_assert_ptr_nonnull(sc);
    return sc;
}

/* The frame at t as packed ARGB32 rows (malloc'd), w x h. */
static uint32_t *frame(const rf_scene_t *sc, double t)
{
    char err[256];
    rf_renderer_t *r = rf_renderer_create(sc, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    ck_assert_int_eq(rf_renderer_draw(r, t), 0);
    int stride;
    const unsigned char *p = rf_renderer_pixels(r, &stride);
    uint32_t *out = malloc((size_t)sc->width * sc->height * 4);
    ck_assert_ptr_nonnull(out);
    for (int y = 0; y < sc->height; y++)
        memcpy(out + (size_t)y * sc->width, p + (size_t)y * stride, (size_t)sc->width * 4);
    rf_renderer_destroy(r);
    return out;
}

static char scene_buf[4096];

static const char *scene(int w, int h, const char *values, const char *layer)
{
    snprintf(scene_buf, sizeof scene_buf,
             "{\"runeframe\": 1, \"canvas\": {\"width\": %d, \"height\": %d, \"background\": "
             "\"#ffffff\"}, \"timeline\": {\"fps\": 10, \"duration\": 2}, \"values\": {%s}, "
             "\"layers\": [%s]}", w, h, values, layer);
    return scene_buf;
}

static long differing(const uint32_t *a, const uint32_t *b, size_t n)
{
    long d = 0;
    for (size_t i = 0; i < n; i++)
        d += a[i] != b[i];
    return d;
}

START_TEST(test_subpixel_motion)
{
    const char *L = "{\"type\": \"text\", \"text\": \"Rune\", \"size\": 24, \"x\": %s, \"y\": 16, "
                    "\"anchor\": [0, 0]}";
    char l0[256], l1[256], l2[256];
    snprintf(l0, sizeof l0, L, "10");
    snprintf(l1, sizeof l1, L, "10.25");
    snprintf(l2, sizeof l2, L, "11");
    rf_scene_t *s0 = load(scene(96, 64, "", l0));
    rf_scene_t *s1 = load(scene(96, 64, "", l1));
    rf_scene_t *s2 = load(scene(96, 64, "", l2));
    uint32_t *a = frame(s0, 0), *b = frame(s1, 0), *c = frame(s2, 0);
    /* a quarter pixel changes the antialiased edges */
    ck_assert_int_gt(differing(a, b, 96 * 64), 20);
    /* a whole pixel is the same image one column to the right */
    long ink = 0;
    for (int y = 0; y < 64; y++) {
        ck_assert_uint_eq(c[y * 96], 0xffffffffu);
        for (int x = 1; x < 96; x++) {
            ck_assert_uint_eq(c[y * 96 + x], a[y * 96 + x - 1]);
            ink += a[y * 96 + x - 1] != 0xffffffffu;
        }
    }
    ck_assert_int_gt(ink, 100);
    free(a);
    free(b);
    free(c);
    rf_scene_destroy(s0);
    rf_scene_destroy(s1);
    rf_scene_destroy(s2);
}
END_TEST

/* The largest difference of any channel between two frames. */
static int max_channel_diff(const uint32_t *a, const uint32_t *b, size_t n)
{
    int m = 0;
    for (size_t i = 0; i < n; i++)
        for (int sh = 0; sh < 32; sh += 8) {
            int d = abs((int)((a[i] >> sh) & 255) - (int)((b[i] >> sh) & 255));
            m = d > m ? d : m;
        }
    return m;
}

/* The frame of one text layer at (x, y), with more layer keys in extra:
 * JetBrains Mono at size 20, whose pens are 12 px apart and whose
 * baseline is 19.7 px below y (tests/textdump), so every glyph has the
 * fraction of x, and of y + 0.7. */
static uint32_t *text_at(const char *x, const char *y, const char *extra)
{
    char l[512];
    snprintf(l, sizeof l, "{\"type\": \"text\", \"text\": \"Rune frame, glyph masks: AVo%%\", "
             "\"font\": \"mono\", \"size\": 20, \"x\": %s, \"y\": %s, \"anchor\": [0, 0]%s}", x, y, extra);
    rf_scene_t *sc = load(scene(400, 48, "", l));
    uint32_t *f = frame(sc, 0);
    rf_scene_destroy(sc);
    return f;
}

/* Text under a translation and a uniform scale is drawn through glyph
 * masks at pen positions rounded to the nearest 1/16 px, halves up
 * (runeframe-scene(5) "Text"; the mono font's pens are whole pixels from
 * x): x + 0.031 draws as x, x + 0.0315 as x + 0.0625; in y (baseline 28
 * at y = 8.3) the same, 8.3315 as 8.3625. */
START_TEST(test_sixteenth_pixel_rounding)
{
    const size_t n = 400 * 48;
    ck_assert_int_eq(RF_GLYPH_PHASES, 16);
    uint32_t *a = text_at("10", "8.3", ""), *b = text_at("10.031", "8.3", "");
    uint32_t *c = text_at("10.0315", "8.3", ""), *d = text_at("10.0625", "8.3", "");
    uint32_t *e = text_at("10", "8.331", ""), *f = text_at("10", "8.3315", "");
    uint32_t *g = text_at("10", "8.3625", "");
    ck_assert_int_eq(differing(a, b, n), 0);
    ck_assert_int_eq(differing(c, d, n), 0);
    ck_assert_int_gt(differing(a, d, n), 20); /* a sixteenth of a pixel is not rounded away */
    ck_assert_int_eq(differing(a, e, n), 0);
    ck_assert_int_eq(differing(f, g, n), 0);
    ck_assert_int_gt(differing(a, g, n), 20);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    free(f);
    free(g);
}
END_TEST

/* Masks against outlines: a rotation of 1e-9 degree (moving no point by
 * more than 1e-8 px, far below cairo's 1/256 px grid) is not a
 * translation, so that layer draws its outlines through cairo's fill.
 * The two are different rasterizers: masks are FreeType's exact area
 * (within 16 of exact coverage, measured 9: test_masks_exact), cairo's
 * fill samples 15 sub-rows where an edge starts or ends in a row and
 * cuts curves within 0.1 px (measured up to 21 off exact on the same
 * glyphs). So on the 1/16 px grid they differ by up to 16 + 21 = 37 at
 * worst, measured 16; the test allows 24, well under what a misplaced
 * mask makes (an eighth of a pixel moves a straight edge's pixels by 32
 * levels, a quarter by 64). Off the grid by 0.031 px in x, every edge
 * a mask draws is displaced by at most 1/32 px more, sqrt(2) / 32 of
 * full across a pixel (11.3 levels): measured 20, allowed 32. (Where
 * glyphs overlap, masks add where outlines unite: this string has no
 * overlapping glyphs.) */
START_TEST(test_masks_against_outlines)
{
    const size_t n = 400 * 48;
    const char *exact = ", \"rotate\": 1e-9";
    uint32_t *a = text_at("10.25", "8.3", ""), *b = text_at("10.25", "8.3", exact);
    uint32_t *c = text_at("10.031", "8.3", ""), *d = text_at("10.031", "8.3", exact);
    ck_assert_int_gt(differing(a, c, n), 50); /* the frames are not blank */
    int on = max_channel_diff(a, b, n), off = max_channel_diff(c, d, n);
    fprintf(stderr, "masks against outlines: max channel difference %d on the grid, %d off\n",
            on, off);
    ck_assert_int_le(on, 24);
    ck_assert_int_le(off, 32);
    free(a);
    free(b);
    free(c);
    free(d);
}
END_TEST

/* ---- glyph masks by FreeType (raster.h rf_raster_simple) ---- */

/* An outline of closed polygons for rf_raster_simple: n points each,
 * contours one after another (device px). */
static int simple_of(const double *xy, const int *n, int nc)
{
    rf_raster_t *r = rf_raster_create();
    ck_assert_ptr_nonnull(r);
    for (int c = 0, k = 0; c < nc; c++)
        for (int i = 0; i < n[c]; i++, k++)
            (i == 0 ? rf_raster_move : rf_raster_line)(r, xy[2 * k], xy[2 * k + 1]);
    int s = rf_raster_simple(r);
    rf_raster_destroy(r);
    return s;
}

/* Hand-made outlines whose answer is known: a square, a ring (a hole
 * wound the other way), an island in the ring's hole, a crossing of two
 * bars, a square nested in one wound the same way, a figure eight, two
 * squares touching at a corner, a hole touching its outline, a spike
 * folding back over its own edge. */
START_TEST(test_raster_simple_cases)
{
    static const double sq[] = { 0, 0, 10, 0, 10, 10, 0, 10 };
    ck_assert_int_eq(simple_of(sq, (int[]){ 4 }, 1), 1);
    static const double ring[] = { 0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 3, 7, 7, 7, 7, 3 };
    ck_assert_int_eq(simple_of(ring, (int[]){ 4, 4 }, 2), 1);
    static const double island[] = { 0, 0, 10, 0, 10, 10, 0, 10, 2, 2, 2, 8, 8, 8, 8, 2,
                                      4, 4, 6, 4, 6, 6, 4, 6 };
    ck_assert_int_eq(simple_of(island, (int[]){ 4, 4, 4 }, 3), 1);
    static const double cross[] = { 0, 4, 10, 4, 10, 6, 0, 6, 4, 0, 6, 0, 6, 10, 4, 10 };
    ck_assert_int_eq(simple_of(cross, (int[]){ 4, 4 }, 2), 0);
    static const double nested[] = { 0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 7, 3, 7, 7, 3, 7 };
    ck_assert_int_eq(simple_of(nested, (int[]){ 4, 4 }, 2), 0);
    static const double eight[] = { 0, 0, 10, 10, 10, 0, 0, 10 };
    ck_assert_int_eq(simple_of(eight, (int[]){ 4 }, 1), 0);
    static const double corner[] = { 0, 0, 5, 0, 5, 5, 0, 5, 5, 5, 10, 5, 10, 10, 5, 10 };
    ck_assert_int_eq(simple_of(corner, (int[]){ 4, 4 }, 2), 0);
    static const double kiss[] = { 0, 0, 10, 0, 10, 10, 0, 10, 0, 5, 3, 7, 3, 3 };
    ck_assert_int_eq(simple_of(kiss, (int[]){ 4, 3 }, 2), 0);
    static const double spike[] = { 0, 0, 10, 0, 10, 10, 5, 10, 5, 4, 5, 12, 0, 10 };
    ck_assert_int_eq(simple_of(spike, (int[]){ 7 }, 1), 0);
}
END_TEST

static rf_font_t *font_file(const char *name)
{
    const char *dir = getenv("RUNEFRAME_FONT_DIR");
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : "fonts", name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    unsigned char *buf = malloc(RF_FONT_MAX_BYTES);
    ck_assert_ptr_nonnull(buf);
    size_t n = fread(buf, 1, RF_FONT_MAX_BYTES, f);
    fclose(f);
    rf_font_t *font = rf_font_create("t", name, buf, n, err, sizeof err);
    ck_assert_msg(font != NULL, "%s: %s", path, err);
    return font;
}

/* The glyph ids of s (one glyph a character) in engine e. */
static long glyphs_of(rf_text_engine_t *e, const char *s, uint32_t *gid)
{
    rf_text_params_t p = { 16, 0, 1.2, INFINITY, 0 };
    uint32_t ncl;
    double box[4];
    long n = rf_text_layout(e, s, strlen(s), &p, &ncl, box);
    ck_assert_int_eq(n, (long)strlen(s));
    for (long i = 0; i < n; i++)
        gid[i] = rf_text_glyphs(e)[i].gid;
    return n;
}

/* A font's engine, a rasterizer, and two mask caches: masks by FreeType
 * where allowed (ft), and by cairo alone (ca). */
typedef struct rig {
    rf_font_t *font;
    rf_text_engine_t *e;
    rf_raster_t *ras;
    rf_glyph_masks_t *ft, *ca;
} rig_t;

static rig_t rig_open(const char *font_name)
{
    rig_t g;
    g.font = font_file(font_name);
    g.e = rf_text_engine_create(g.font, NULL, 0);
    g.ras = rf_raster_create();
    g.ft = rf_glyph_masks_create();
    g.ca = rf_glyph_masks_create();
    ck_assert(g.e != NULL && g.ras != NULL && g.ft != NULL && g.ca != NULL);
    return g;
}

static void rig_close(rig_t *g)
{
    rf_glyph_masks_destroy(g->ft);
    rf_glyph_masks_destroy(g->ca);
    rf_raster_destroy(g->ras);
    rf_text_engine_destroy(g->e);
    rf_font_destroy(g->font);
}

/* The largest difference between mask m and the exact coverage of the
 * outline (cmd, pts) at k px per unit, its origin at (fx, fy) from the
 * whole pixel the mask is placed from: each contour's curves cut into 64
 * chords (off by under 1e-3 px at these sizes), the contours' signed
 * areas in a pixel summed (a hole subtracts), over every pixel of the
 * mask and a pixel around it. */
static int mask_vs_exact(const rf_glyph_mask_t *m, const uint8_t *cmd, uint32_t nc,
                         const double *pts, double k, double fx, double fy)
{
    static xy_t poly[64][2048];
    int npoly[64], np = -1;
    const double *p = pts;
    double cx = 0, cy = 0;
    for (uint32_t i = 0; i < nc; i++) {
        if (cmd[i] == 'M') {
            ck_assert_int_lt(++np, 64);
            npoly[np] = 0;
        }
        if (cmd[i] == 'M' || cmd[i] == 'L') {
            cx = fx + p[0] * k;
            cy = fy - p[1] * k;
            ck_assert_int_lt(npoly[np], 2048);
            poly[np][npoly[np]++] = (xy_t){ cx, cy };
            p += 2;
        } else if (cmd[i] == 'C') {
            double x1 = fx + p[0] * k, y1 = fy - p[1] * k, x2 = fx + p[2] * k,
                   y2 = fy - p[3] * k, x3 = fx + p[4] * k, y3 = fy - p[5] * k;
            for (int j = 1; j <= 64; j++) {
                double t = j / 64.0, u = 1 - t;
                ck_assert_int_lt(npoly[np], 2048);
                poly[np][npoly[np]++] = (xy_t){
                    u * u * u * cx + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
                    u * u * u * cy + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3 };
            }
            cx = x3;
            cy = y3;
            p += 6;
        }
    }
    int worst = 0;
    for (int y = m->y0 - 1; y <= m->y0 + m->h; y++)
        for (int x = m->x0 - 1; x <= m->x0 + m->w; x++) {
            double a = 0;
            for (int c = 0; c <= np; c++)
                a += exact_cover(poly[c], npoly[c], x, y);
            int want = (int)lround(fmin(fabs(a), 1.0) * 255);
            int d = abs(cov_at(m, x, y) - want);
            worst = d > worst ? d : worst;
        }
    return worst;
}

/* Masks drawn by FreeType against exact coverage: JetBrains Mono's
 * glyphs (no two contours of them cross: rf_raster_simple takes them),
 * holes included, at 13 and 48 px per em and two phases. A mask's
 * outline is off its curves by at most RF_GLYPH_TOL (1/32 px) and its
 * points by the 1/64 px rounding (1/128 each way); an edge crosses a
 * pixel over at most sqrt(2) px, so a pixel is off by at most
 * (1/32 + sqrt(2) / 128) sqrt(2) of full, 16 of 255 (measured: 9).
 * cairo's fill, what masks were before, is off by more (its 15
 * sampled sub-rows and its 0.1 px curve tolerance): the test measures
 * that too and asks FreeType to be closer. */
START_TEST(test_masks_exact)
{
    rig_t g = rig_open("JetBrainsMono-Regular.ttf");
    uint32_t gid[16];
    long n = glyphs_of(g.e, "o8@&ge%B", gid);
    static const double em[] = { 13, 48 };
    static const int phase[][2] = { { 0, 0 }, { 7, 12 } };
    int worst_ft = 0, worst_ca = 0;
    for (long i = 0; i < n; i++)
        for (int s = 0; s < 2; s++)
            for (int ph = 0; ph < 2; ph++) {
                const uint8_t *cmd;
                const double *pts;
                uint32_t nc;
                ck_assert_int_eq(rf_text_outline(g.e, gid[i], &cmd, &nc, &pts), 0);
                double k = em[s] / rf_text_upem(g.e);
                int px = phase[ph][0], py = phase[ph][1];
                double fx = px / (double)RF_GLYPH_PHASES, fy = py / (double)RF_GLYPH_PHASES;
                const rf_glyph_mask_t *m;
                ck_assert_int_eq(
                    rf_glyph_masks_get(g.ft, g.ras, 0, gid[i], k, px, py, cmd, nc, pts, &m), 0);
                int d = mask_vs_exact(m, cmd, nc, pts, k, fx, fy);
                worst_ft = d > worst_ft ? d : worst_ft;
                ck_assert_int_eq(
                    rf_glyph_masks_get(g.ca, NULL, 0, gid[i], k, px, py, cmd, nc, pts, &m), 0);
                d = mask_vs_exact(m, cmd, nc, pts, k, fx, fy);
                worst_ca = d > worst_ca ? d : worst_ca;
            }
    fprintf(stderr, "glyph masks against exact coverage: FreeType %d levels (bound 16), "
                    "cairo %d\n", worst_ft, worst_ca);
    ck_assert_int_le(worst_ft, 16);
    ck_assert_int_lt(worst_ft, worst_ca);
    rig_close(&g);
}
END_TEST

/* Inter's variable font keeps overlapping contours ('t': the bar over the
 * stem; 'e', 'k', 'A' alike): rf_raster_simple refuses them, and their
 * masks are cairo's fill, byte for byte, which counts an overlap once. */
START_TEST(test_masks_overlap_cairo)
{
    rig_t g = rig_open("Inter-roman.var.ttf");
    uint32_t gid[16];
    long n = glyphs_of(g.e, "tekA", gid);
    for (long i = 0; i < n; i++) {
        const uint8_t *cmd;
        const double *pts;
        uint32_t nc;
        ck_assert_int_eq(rf_text_outline(g.e, gid[i], &cmd, &nc, &pts), 0);
        double k = 40.0 / rf_text_upem(g.e);
        const rf_glyph_mask_t *a, *b;
        ck_assert_int_eq(rf_glyph_masks_get(g.ft, g.ras, 0, gid[i], k, 3, 5, cmd, nc, pts, &a), 0);
        ck_assert_int_eq(rf_glyph_masks_get(g.ca, NULL, 0, gid[i], k, 3, 5, cmd, nc, pts, &b), 0);
        ck_assert_int_eq(a->w, b->w);
        ck_assert_int_eq(a->h, b->h);
        for (int y = 0; y < a->h; y++)
            ck_assert_msg(memcmp(a->a + y * a->stride, b->a + y * b->stride, (size_t)a->w) == 0,
                          "glyph %u row %d: not cairo's fill", gid[i], y);
    }
    rig_close(&g);
}
END_TEST

/* A font collection whose second face's offset is far past its end:
 * FreeType opens face 0, and HarfBuzz, checking the header, lets go of
 * the bytes it was given (it works on a copy with the offset cleared).
 * The font's own bytes must stay readable: its SHA-256 (what `info` and
 * golden traces print) is the file's. Under the sanitizer build and
 * valgrind a freed read fails here. */
START_TEST(test_font_collection_bad_offset)
{
    const char *dir = getenv("RUNEFRAME_FONT_DIR");
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/JetBrainsMono-Regular.ttf", dir != NULL ? dir : "fonts");
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static unsigned char ttf[1 << 20];
    size_t n = fread(ttf, 1, sizeof ttf, f);
    fclose(f);
    ck_assert(n > 12 && n < sizeof ttf);
    /* 'ttcf' 1.0, two faces at 20 and 0x7fffff00, then the font with its
     * table offsets moved by the 20 bytes before it */
    size_t len = 20 + n;
    unsigned char *ttc = malloc(len);
    ck_assert_ptr_nonnull(ttc);
    static const unsigned char head[20] = { 't', 't', 'c', 'f', 0, 1, 0, 0, 0, 0, 0, 2,
                                            0, 0, 0, 20, 0x7f, 0xff, 0xff, 0 };
    memcpy(ttc, head, 20);
    memcpy(ttc + 20, ttf, n);
    unsigned ntables = (unsigned)ttf[4] << 8 | ttf[5];
    for (unsigned t = 0; t < ntables; t++) {
        unsigned char *o = ttc + 20 + 12 + 16 * t + 8;
        uint32_t off = (uint32_t)o[0] << 24 | (uint32_t)o[1] << 16 | (uint32_t)o[2] << 8 | o[3];
        off += 20;
        o[0] = (unsigned char)(off >> 24);
        o[1] = (unsigned char)(off >> 16);
        o[2] = (unsigned char)(off >> 8);
        o[3] = (unsigned char)off;
    }
    uint8_t want[RF_SHA256_BYTES];
    char want_hex[RF_SHA256_HEX], got_hex[RF_SHA256_HEX];
    rf_sha256(ttc, len, want);
    rf_sha256_hex(want, want_hex);
    rf_font_t *font = rf_font_create("brand", "bad.ttc", ttc, len, err, sizeof err);
    ck_assert_msg(font != NULL, "%s", err);
    ck_assert_uint_gt(font->nglyphs, 0);
    rf_font_t *other = rf_font_share(font, "brand2");
    ck_assert_ptr_nonnull(other);
    rf_font_destroy(font); /* the shared one keeps the bytes */
    rf_font_sha256_hex(other, got_hex);
    ck_assert_str_eq(got_hex, want_hex);
    rf_font_destroy(other);
}
END_TEST

/* sans-bold is sans's file at weight 700: a scene with both reads the
 * file once (rf_font_share: one face, one copy of the bytes), each font
 * with its own name and weight; mono is its own file. Either font may be
 * the first one loaded. */
START_TEST(test_builtin_fonts_share_file)
{
    static const char *order[2][2] = { { "sans", "sans-bold" }, { "sans-bold", "sans" } };
    for (int o = 0; o < 2; o++) {
        char json[600];
        snprintf(json, sizeof json,
                 "{\"runeframe\": 1, \"canvas\": {\"width\": 64, \"height\": 32}, "
                 "\"timeline\": {\"fps\": 10, \"duration\": 1}, \"layers\": ["
                 "{\"type\": \"text\", \"text\": \"a\", \"font\": \"%s\"},"
                 "{\"type\": \"text\", \"text\": \"b\", \"font\": \"%s\"},"
                 "{\"type\": \"text\", \"text\": \"c\", \"font\": \"mono\"}]}",
                 order[o][0], order[o][1]);
        rf_scene_t *sc = load(json);
        ck_assert_uint_eq(sc->nfonts, 3);
        const rf_font_t *sans = NULL, *bold = NULL, *mono = NULL;
        for (uint32_t i = 0; i < sc->nfonts; i++) {
            const rf_font_t *f = sc->fonts[i];
            ck_assert(f->builtin);
            if (strcmp(f->name, "sans") == 0)
                sans = f;
            else if (strcmp(f->name, "sans-bold") == 0)
                bold = f;
            else if (strcmp(f->name, "mono") == 0)
                mono = f;
        }
        ck_assert(sans != NULL && bold != NULL && mono != NULL);
        ck_assert_ptr_eq(sans->face, bold->face);
        ck_assert_ptr_eq(sans->bytes, bold->bytes);
        ck_assert_ptr_ne(sans->face, mono->face);
        ck_assert_str_eq(sans->file, bold->file);
        ck_assert(isnan(sans->def_wght));
        ck_assert(bold->def_wght == 700);
        char a[RF_SHA256_HEX], b[RF_SHA256_HEX];
        rf_font_sha256_hex(sans, a);
        rf_font_sha256_hex(bold, b);
        ck_assert_str_eq(a, b);
        rf_scene_destroy(sc);
    }
}
END_TEST

/* Masks made in batches on two threads (rf_glyph_masks_reserve, then
 * rf_glyph_masks_paint) are the masks made one by one: Inter's glyphs,
 * overlapping ones ('t', 'e', 'k', 'A': cairo's fill) among them, at all
 * 256 phases and five sizes, more than the table holds (12,288 masks:
 * the batch stops at "full", is painted, and the cache starts over in the
 * gets that follow). The cache starts its own helper thread for the first
 * sizes; from the third on it is lent one (the renderer's way: helper.h),
 * which must take a share. */
START_TEST(test_masks_batched)
{
    rig_t g = rig_open("Inter-roman.var.ttf");
    rf_glyph_masks_t *two = rf_glyph_masks_create();
    ck_assert(two != NULL);
    rf_glyph_masks_set_threads(two, 2);
    ck_assert_int_eq(rf_glyph_masks_threads(two), 2);
    ck_assert_int_eq(rf_glyph_masks_threads(g.ft), 1);
    uint32_t gid[16];
    long n = glyphs_of(g.e, "tekAaon8gRWx", gid);
    static const double em[] = { 9, 11, 13, 15, 17 };
    int fulls = 0;
    long compared = 0;
    rf_helper_t *lent = rf_helper_create();
    ck_assert_ptr_nonnull(lent);
    for (int s = 0; s < 5; s++) {
        double k = em[s] / rf_text_upem(g.e);
        if (s == 2)
            rf_glyph_masks_set_helper(two, lent);
        const uint8_t *cmd;
        const double *pts;
        uint32_t nc;
        for (long i = 0; i < n; i++)
            ck_assert_int_eq(rf_text_outline(g.e, gid[i], &cmd, &nc, &pts), 0);
        int full = 0;
        for (long i = 0; i < n && !full; i++)
            for (int ph = 0; ph < RF_GLYPH_PHASES * RF_GLYPH_PHASES && !full; ph++) {
                rf_text_outline(g.e, gid[i], &cmd, &nc, &pts);
                int st = rf_glyph_masks_reserve(two, 0, gid[i], k, ph % RF_GLYPH_PHASES,
                                                ph / RF_GLYPH_PHASES, cmd, nc, pts);
                ck_assert_int_ge(st, 0);
                ck_assert_int_ne(st, 1);
                full = st == 2;
            }
        fulls += full;
        ck_assert_int_eq(rf_glyph_masks_paint(two, g.ras), 0);
        for (long i = 0; i < n; i++)
            for (int ph = 0; ph < RF_GLYPH_PHASES * RF_GLYPH_PHASES; ph++) {
                int px = ph % RF_GLYPH_PHASES, py = ph / RF_GLYPH_PHASES;
                const rf_glyph_mask_t *a, *b;
                rf_text_outline(g.e, gid[i], &cmd, &nc, &pts);
                ck_assert_int_eq(rf_glyph_masks_get(g.ft, g.ras, 0, gid[i], k, px, py, cmd, nc,
                                                    pts, &b), 0);
                ck_assert_int_eq(rf_glyph_masks_get(two, g.ras, 0, gid[i], k, px, py, cmd, nc,
                                                    pts, &a), 0);
                ck_assert(a->w == b->w && a->h == b->h && a->x0 == b->x0 && a->y0 == b->y0);
                for (int y = 0; y < a->h; y++)
                    ck_assert_msg(memcmp(a->a + y * a->stride, b->a + y * b->stride,
                                         (size_t)a->w) == 0,
                                  "glyph %u at %g px, phase %d: row %d differs", gid[i], em[s],
                                  ph, y);
                compared++;
            }
    }
    ck_assert_int_ge(fulls, 1);
    ck_assert_int_eq(compared, 5 * n * 256);
    ck_assert_uint_gt(rf_helper_jobs(lent), 0);
    rf_glyph_masks_destroy(two);
    rf_helper_destroy(lent);   /* after the cache that borrowed it */
    rig_close(&g);
}
END_TEST

/* The renderer's glyph masks are shared by its text layers, keyed by the
 * layers' font and variations: the same word in sans, sans-bold (the same
 * font file at another weight), sans at weight 650 by `variations`, and
 * mono, one above the other in one scene, each drawn where it would be
 * drawn alone, pixel for pixel. */
START_TEST(test_masks_shared_by_source)
{
    static const char *font[4] = { "\"font\": \"sans\"", "\"font\": \"sans-bold\"",
                                   "\"font\": \"sans\", \"variations\": {\"wght\": 650}",
                                   "\"font\": \"mono\"" };
    char one[4][256], all[1200] = "";
    for (int i = 0; i < 4; i++) {
        snprintf(one[i], sizeof one[i],
                 "{\"type\": \"text\", \"text\": \"Hamburg\", %s, \"size\": 20, \"x\": 4.3, "
                 "\"y\": %d, \"anchor\": [0, 0], \"fill\": \"#000000\"}", font[i], 2 + 40 * i);
        if (i > 0)
            strcat(all, ", ");
        strcat(all, one[i]);
    }
    rf_scene_t *together = load(scene(120, 160, "", all));
    uint32_t *t = frame(together, 0);
    for (int i = 0; i < 4; i++) {
        rf_scene_t *alone = load(scene(120, 160, "", one[i]));
        uint32_t *a = frame(alone, 0);
        long ink = 0;
        for (int y = 40 * i; y < 40 * i + 40; y++)
            for (int x = 0; x < 120; x++) {
                rf_check_msg(a[y * 120 + x] == t[y * 120 + x], "layer %d, pixel %d,%d", i, x, y);
                ink += a[y * 120 + x] != 0xffffffffu;
            }
        ck_assert_int_gt(ink, 50);
        free(a);
        rf_scene_destroy(alone);
    }
    /* the four differ from each other: four sources, not one */
    for (int i = 1; i < 4; i++)
        ck_assert(memcmp(t + 40 * 120 * i, t, 40 * 120 * sizeof *t) != 0);
    free(t);
    rf_scene_destroy(together);
}
END_TEST

/* After the cache has started over, it holds as much as before: its
 * arena's chunks are kept and filled again (after a start over, a working
 * set of 9.6 MiB stays cached: asked twice, the same masks, not drawn
 * again; an arena cut down to its largest chunk, 8 MiB, fails it). */
START_TEST(test_glyph_mask_arena_refills)
{
    rf_glyph_masks_t *c = rf_glyph_masks_create();
    ck_assert_ptr_nonnull(c);
    const rf_glyph_mask_t *m;
    /* 400 squares of 252 x 252 px (about 64 KiB each): more than the
     * bound, so the cache starts over */
    for (uint32_t i = 0; i < 400; i++)
        ck_assert_int_eq(rf_glyph_masks_get(c, NULL, 0, 1000 + i, 62.5, 0, 0, sq_cmd, 5, sq_pts,
                                            &m), 0);
    rf_glyph_masks_clear(c);
    masks_kept(c, 5000, 150, 62.5);
    rf_glyph_masks_destroy(c);
}
END_TEST

/* Sources: the same font and settings, the same id; other settings or
 * another font, another id; past the table's size the oldest are
 * forgotten, and an id is never given to another instance. */
START_TEST(test_glyph_mask_sources)
{
    rf_glyph_masks_t *c = rf_glyph_masks_create();
    ck_assert_ptr_nonnull(c);
    static const int font_a = 0, font_b = 0;
    uint32_t set[2] = { 1, 2 };
    uint32_t a = rf_glyph_masks_source(c, &font_a, set, sizeof set);
    ck_assert_uint_eq(rf_glyph_masks_source(c, &font_a, set, sizeof set), a);
    ck_assert_uint_ne(rf_glyph_masks_source(c, &font_b, set, sizeof set), a);
    set[1] = 3;
    ck_assert_uint_ne(rf_glyph_masks_source(c, &font_a, set, sizeof set), a);
    ck_assert_uint_ne(rf_glyph_masks_source(c, &font_a, set, 4), a);
    static uint32_t ids[3 * RF_GLYPH_MASK_SOURCES];
    for (uint32_t i = 0; i < 3 * RF_GLYPH_MASK_SOURCES; i++) {
        uint32_t v = 100 + i;
        ids[i] = rf_glyph_masks_source(c, &font_a, &v, sizeof v);
        ck_assert_uint_ne(ids[i], a);
        for (uint32_t j = 0; j < i; j++)
            ck_assert_uint_ne(ids[i], ids[j]);
    }
    /* the last ones are remembered */
    uint32_t v = 100 + 3 * RF_GLYPH_MASK_SOURCES - 1;
    ck_assert_uint_eq(rf_glyph_masks_source(c, &font_a, &v, sizeof v),
                      ids[3 * RF_GLYPH_MASK_SOURCES - 1]);
    rf_glyph_masks_destroy(c);
}
END_TEST

START_TEST(test_reveal)
{
    const char *L = "{\"type\": \"text\", \"text\": \"Typewriter\", \"size\": 20, \"x\": 4, "
                    "\"y\": 4, \"anchor\": [0, 0]%s}";
    char l0[256], l1[256], ln[256], lh[256];
    snprintf(l0, sizeof l0, L, ", \"reveal\": 0");
    snprintf(l1, sizeof l1, L, ", \"reveal\": 1");
    snprintf(ln, sizeof ln, L, "");
    snprintf(lh, sizeof lh, L, ", \"reveal\": 0.5");
    rf_scene_t *s0 = load(scene(128, 32, "", l0)), *s1 = load(scene(128, 32, "", l1));
    rf_scene_t *sn = load(scene(128, 32, "", ln)), *sh = load(scene(128, 32, "", lh));
    uint32_t *a = frame(s0, 0), *b = frame(s1, 0), *c = frame(sn, 0), *d = frame(sh, 0);
    for (int i = 0; i < 128 * 32; i++)
        ck_assert_uint_eq(a[i], 0xffffffffu); /* reveal 0: nothing */
    ck_assert_int_eq(differing(b, c, 128 * 32), 0); /* reveal 1: all of it */
    /* half: "Typew" (5 of 10 clusters): ink on the left only, and less */
    long left = 0, right = 0;
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 128; x++) {
            int inkd = d[y * 128 + x] != 0xffffffffu;
            if (inkd)
                ck_assert_uint_eq(d[y * 128 + x], c[y * 128 + x]);
            if (x < 64)
                left += inkd;
            else
                right += inkd;
        }
    ck_assert_int_gt(left, 50);
    ck_assert_int_lt(right, left);
    ck_assert_int_gt(differing(c, d, 128 * 32), 50);
    free(a);
    free(b);
    free(c);
    free(d);
    rf_scene_destroy(s0);
    rf_scene_destroy(s1);
    rf_scene_destroy(sn);
    rf_scene_destroy(sh);
}
END_TEST

/* JetBrains Mono: every advance is 600 of 1000 units, 12 px at size 20, so
 * glyph k's cell is exactly 12 k px right of glyph 0's. */
START_TEST(test_per_glyph_time_shift)
{
    const char *vals = "\"rise\": {\"tween\": {\"from\": 24, \"to\": 0, \"duration\": 0.6, "
                       "\"easing\": \"ease-out\"}}, \"fade\": {\"tween\": {\"from\": 0.2, \"to\": 1, "
                       "\"duration\": 0.6}}";
    const char *layer = "{\"type\": \"text\", \"text\": \"ooo\", \"font\": \"mono\", \"size\": 20, "
                        "\"x\": 10, \"y\": 8, \"anchor\": [0, 0], \"per_glyph\": {\"stagger\": 0.1, "
                        "\"y\": \"rise\", \"opacity\": \"fade\", \"rotate\": \"rise\"}}";
    rf_scene_t *sc = load(scene(64, 64, vals, layer));
    double s = 0.1, t = 0.35;
    uint32_t *now = frame(sc, t), *before = frame(sc, t - s), *before2 = frame(sc, t - 2 * s);
    long ink = 0;
    /* glyph 1 (x 22..34) at t equals glyph 0 (x 10..22) at t - s; glyph 2 at t equals
     * glyph 0 at t - 2s */
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 12; x++) {
            ck_assert_uint_eq(now[y * 64 + 22 + x], before[y * 64 + 10 + x]);
            ck_assert_uint_eq(now[y * 64 + 34 + x], before2[y * 64 + 10 + x]);
            ink += now[y * 64 + 22 + x] != 0xffffffffu;
        }
    ck_assert_int_gt(ink, 30);
    /* and the glyphs do move: glyph 0 differs between the two times */
    long moved = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 12; x++)
            moved += now[y * 64 + 10 + x] != before[y * 64 + 10 + x];
    ck_assert_int_gt(moved, 10);
    free(now);
    free(before);
    free(before2);
    rf_scene_destroy(sc);
}
END_TEST

/* A counter: each frame formats a new string; every renderer of the same
 * scene draws the same bytes whatever it drew before (caches are state,
 * not input). */
START_TEST(test_counter_state_free)
{
    const char *vals = "\"nf\": {\"tween\": {\"from\": 0, \"to\": 1000, \"duration\": 2}}";
    const char *layer = "{\"type\": \"text\", \"text\": \"{nf:,d} files\", \"features\": "
                        "[\"tnum\"], \"size\": 18, \"x\": 4, \"y\": 4, \"anchor\": [0, 0]}";
    rf_scene_t *sc = load(scene(128, 32, vals, layer));
    char err[256];
    rf_renderer_t *r = rf_renderer_create(sc, err, sizeof err);
    ck_assert_ptr_nonnull(r);
    for (int i = 0; i <= 20; i++)
        ck_assert_int_eq(rf_renderer_draw(r, i * 0.1), 0);
    ck_assert_int_eq(rf_renderer_draw(r, 1.3), 0);
    int stride;
    const unsigned char *p = rf_renderer_pixels(r, &stride);
    uint32_t *fresh = frame(sc, 1.3);
    for (int y = 0; y < 32; y++)
        ck_assert(memcmp(p + (size_t)y * stride, fresh + y * 128, 128 * 4) == 0);
    free(fresh);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}
END_TEST

static Suite *text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, test_sha256_vectors);
    tcase_add_test(tc, test_formats);
    tcase_add_test(tc, test_template_tokens);
    tcase_add_test(tc, test_subpixel_motion);
    tcase_add_test(tc, test_glyph_mask_square);
    tcase_add_test(tc, test_glyph_mask_pure);
    tcase_add_test(tc, test_glyph_mask_table_grows);
    tcase_add_test(tc, test_glyph_mask_add);
    tcase_add_test(tc, test_glyph_mask_add_widths);
    tcase_add_test(tc, test_sixteenth_pixel_rounding);
    tcase_add_test(tc, test_masks_against_outlines);
    tcase_add_test(tc, test_raster_simple_cases);
    tcase_add_test(tc, test_masks_exact);
    tcase_add_test(tc, test_masks_overlap_cairo);
    tcase_add_test(tc, test_masks_batched);
    tcase_add_test(tc, test_builtin_fonts_share_file);
    tcase_add_test(tc, test_font_collection_bad_offset);
    tcase_add_test(tc, test_masks_shared_by_source);
    tcase_add_test(tc, test_glyph_mask_arena_refills);
    tcase_add_test(tc, test_glyph_mask_sources);
    tcase_add_test(tc, test_reveal);
    tcase_add_test(tc, test_per_glyph_time_shift);
    tcase_add_test(tc, test_counter_state_free);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(text_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
