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
#include "render.h"
#include "scene.h"
#include "sha256.h"
#include "template.h"

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
