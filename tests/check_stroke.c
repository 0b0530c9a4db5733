/* check_stroke.c - the stroke style (scene-v1.md "Strokes"): line_cap,
 * line_join, miter_limit, dash and dash_offset, from scene files. The
 * references are pixel facts derived by hand from the geometry: white
 * strokes on black, placed on whole pixels so that every pixel is either
 * fully covered (0xffffffff) or not at all (0xff000000), except where a
 * round shape or a slanted edge is said to be partial. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "scene.h"
#include "scenetest.h"

#define W 96
#define H 64
#define ON 0xffffffffu
#define OFF 0xff000000u
#define HEAD                                                                               \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 96, \"height\": 64, \"background\": "        \
    "\"#000000\"}, \"timeline\": {\"fps\": 10, \"duration\": 2}, \"values\": {"            \
    "\"march\": {\"expr\": \"10*t\"}, \"bad\": {\"expr\": \"sqrt(0-t-1)\"}, "               \
    "\"big\": {\"expr\": \"1e308*(t+2)\"}}, \"layers\": "

static rf_scene_t *load(const char *json)
{
    return rf_test_scene("s.json", json);
}

/* The frame of HEAD + layers at t, W x H ARGB32, malloc'd. */
static uint32_t *frame(const char *layers, double t)
{
    char json[4096];
    snprintf(json, sizeof json, "%s%s}", HEAD, layers);
    rf_scene_t *sc = load(json);
    uint32_t *out = rf_test_frame(sc, t, W, H);
    rf_scene_destroy(sc);
    return out;
}

static uint32_t px(const uint32_t *f, int x, int y)
{
    return f[(size_t)y * W + (size_t)x];
}

/* The red channel, 0..255. */
static int red(const uint32_t *f, int x, int y)
{
    return (int)(px(f, x, y) >> 16 & 0xffu);
}

/* The pixels of exactly ON, and the coverage of the whole frame in
 * pixels (the red channel summed / 255). */
static int count_on(const uint32_t *f)
{
    int n = 0;
    for (int i = 0; i < W * H; i++)
        n += f[i] == ON;
    return n;
}

static double coverage(const uint32_t *f)
{
    double s = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            s += red(f, x, y) / 255.0;
    return s;
}

/* A horizontal line from x = 20 to 60 on y = 20, 10 wide: rows 15..24. */
#define CAP_LINE(cap)                                                                      \
    "[{\"type\": \"line\", \"x1\": 20, \"y1\": 20, \"x2\": 60, \"y2\": 20, \"stroke\": "       \
    "\"#ffffff\", \"stroke_width\": 10" cap "}]"

/* butt covers x 20..60 exactly; square reaches half the width (5) past
 * each end, 15..65, square-cornered; round reaches 15..65 too, by half
 * discs of radius 5: 400 + 25 pi pixels of coverage. */
START_TEST(test_caps)
{
    uint32_t *butt = frame(CAP_LINE(""), 0);
    uint32_t *butt2 = frame(CAP_LINE(", \"line_cap\": \"butt\""), 0);
    uint32_t *sq = frame(CAP_LINE(", \"line_cap\": \"square\""), 0);
    uint32_t *rd = frame(CAP_LINE(", \"line_cap\": \"round\""), 0);
    ck_assert_mem_eq(butt, butt2, (size_t)W * H * 4);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int in_rows = y >= 15 && y <= 24;
            ck_assert_uint_eq(px(butt, x, y), in_rows && x >= 20 && x < 60 ? ON : OFF);
            ck_assert_uint_eq(px(sq, x, y), in_rows && x >= 15 && x < 65 ? ON : OFF);
        }
    ck_assert_int_eq(count_on(butt), 400);
    ck_assert_int_eq(count_on(sq), 500);
    /* round: the middle rows reach 15..65 (pixels 15 and 64 partly: the
     * disc's edge at y 20.5 is 0.025 px short of the square's), the
     * corners of the square cap are empty, the body is the butt line */
    ck_assert_int_gt(red(rd, 15, 19), 200);
    ck_assert_int_gt(red(rd, 64, 20), 200);
    ck_assert_uint_eq(px(rd, 14, 19), OFF);
    ck_assert_uint_eq(px(rd, 65, 20), OFF);
    ck_assert_uint_eq(px(rd, 15, 15), OFF);
    ck_assert_uint_eq(px(rd, 64, 24), OFF);
    for (int y = 15; y <= 24; y++)
        for (int x = 20; x < 60; x++)
            ck_assert_uint_eq(px(rd, x, y), ON);
    ck_assert_double_eq_tol(coverage(rd), 400 + 25 * M_PI, 1.5);
    free(butt);
    free(butt2);
    free(sq);
    free(rd);
}
END_TEST

/* A horizontal line across the canvas on y = 32, 2 wide: rows 31, 32. */
#define DASH_LINE(style)                                                                   \
    "[{\"type\": \"line\", \"x1\": 0, \"y1\": 32, \"x2\": 96, \"y2\": 32, \"stroke\": "        \
    "\"#ffffff\", \"stroke_width\": 2, " style "}]"

/* Rows 31 and 32 hold pattern (on, off) shifted by offset, and nothing
 * else is drawn. */
static void expect_dash(const uint32_t *f, double on, double off, double offset)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double p = fmod(x + offset, on + off);
            int lit = (y == 31 || y == 32) && p < on;
            if (px(f, x, y) != (lit ? ON : OFF))
                ck_abort_msg("pixel %d,%d: %08x, dash [%g, %g] offset %g wants %s", x, y,
                             px(f, x, y), on, off, offset, lit ? "on" : "off");
        }
}

START_TEST(test_dash_lengths)
{
    /* [10, 5] from x = 0: 0..10 on, 10..15 off, 15..25 on, ... */
    uint32_t *f = frame(DASH_LINE("\"dash\": [10, 5]"), 0);
    expect_dash(f, 10, 5, 0);
    free(f);
    /* dash_offset 3: the pattern starts 3 px in */
    f = frame(DASH_LINE("\"dash\": [10, 5], \"dash_offset\": 3"), 0);
    expect_dash(f, 10, 5, 3);
    free(f);
    /* a negative offset runs the other way: -3 is 12 into a 15 px period */
    f = frame(DASH_LINE("\"dash\": [10, 5], \"dash_offset\": -3"), 0);
    expect_dash(f, 10, 5, 12);
    free(f);
    /* an odd count repeats: [4] is [4, 4]; [3, 2, 1] is 3 on 2 off 1 on
     * 3 off 2 on 1 off */
    f = frame(DASH_LINE("\"dash\": [4]"), 0);
    expect_dash(f, 4, 4, 0);
    free(f);
    f = frame(DASH_LINE("\"dash\": [3, 2, 1]"), 0);
    static const int odd[12] = { 1, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0 };
    for (int x = 0; x < W; x++)
        ck_assert_uint_eq(px(f, x, 31), odd[x % 12] ? ON : OFF);
    free(f);
    /* lengths are values: march is 10 * t, so [march, 5] at t = 0.6 is [6, 5] */
    f = frame(DASH_LINE("\"dash\": [\"march\", 5]"), 0.6);
    expect_dash(f, 6, 5, 0);
    free(f);
    /* a cap on every dash: [4, 8] with square caps of half width 1 is
     * [6, 6] shifted by 1 */
    f = frame(DASH_LINE("\"dash\": [4, 8], \"line_cap\": \"square\""), 0);
    for (int x = 0; x < W; x++) {
        int p = x % 12;
        ck_assert_uint_eq(px(f, x, 31), p < 5 || p == 11 ? ON : OFF);
    }
    free(f);
}
END_TEST

/* dash_offset "march" (10 * t px): the dashes march at 10 px/s. */
START_TEST(test_dash_marches)
{
    static const double ts[] = { 0, 0.5, 1.2, 1.5 };
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        uint32_t *f = frame(DASH_LINE("\"dash\": [10, 5], \"dash_offset\": \"march\""), ts[i]);
        expect_dash(f, 10, 5, fmod(10 * ts[i], 15));
        free(f);
    }
    /* an inline value too */
    uint32_t *f = frame(DASH_LINE("\"dash\": [10, 5], \"dash_offset\": {\"expr\": \"4*t\"}"),
                        1);
    expect_dash(f, 10, 5, 4);
    free(f);
}
END_TEST

/* Patterns that draw solid: [] (as without dash), all zero (SVG's rule),
 * and a NaN or infinite value at draw time never puts cairo in an error
 * state: the frame draws, and so does the next. */
START_TEST(test_dash_degenerate)
{
    uint32_t *solid = frame(DASH_LINE("\"opacity\": 1"), 0);
    for (int x = 0; x < W; x++)
        ck_assert_uint_eq(px(solid, x, 31), ON);
    static const char *const same[] = {
        DASH_LINE("\"dash\": []"),
        DASH_LINE("\"dash\": [0, 0, 0]"),
        DASH_LINE("\"dash\": [\"big\", 0]"),          /* one dash longer than everything */
        DASH_LINE("\"dash\": [\"bad\", \"bad\"]"),    /* NaN: 0, so all zero */
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        uint32_t *f = frame(same[i], 0.5);
        ck_assert_mem_eq(f, solid, (size_t)W * H * 4);
        free(f);
    }
    free(solid);
    /* a NaN or huge offset counts as 0 */
    uint32_t *f = frame(DASH_LINE("\"dash\": [10, 5], \"dash_offset\": \"bad\""), 0.5);
    expect_dash(f, 10, 5, 0);
    free(f);
    f = frame(DASH_LINE("\"dash\": [10, 5], \"dash_offset\": \"big\""), 0.5);
    expect_dash(f, 10, 5, 0);
    free(f);
    /* a renderer that drew a NaN pattern draws the next frame right */
    char json[2048];
    snprintf(json, sizeof json, "%s%s}", HEAD,
             DASH_LINE("\"dash\": [{\"expr\": \"t < 1 ? sqrt(0-1) : 10\"}, 5], "
                       "\"miter_limit\": \"bad\""));
    rf_scene_t *sc = load(json);
    rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(rf_renderer_draw(r, 0.5), 0);
    ck_assert_int_eq(rf_renderer_draw(r, 1.5), 0);
    int stride;
    const unsigned char *p = rf_renderer_pixels(r, &stride);
    for (int x = 0; x < W; x++) {
        uint32_t v;
        memcpy(&v, p + (size_t)31 * (size_t)stride + (size_t)x * 4, 4);
        ck_assert_uint_eq(v, x % 15 < 10 ? ON : OFF);
    }
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}
END_TEST

/* A right-angle corner at (50, 40), 10 wide: along y = 40 from x = 20,
 * then up x = 50 to y = 10. Outside the corner the miter fills the square
 * [50, 55] x [40, 45]; a bevel stops at the diagonal x + y = 95 from
 * (50, 45) to (55, 40); a round join at the circle of radius 5 around the
 * corner. The miter ratio of a right angle is 1 / sin(45 deg) = 1.414. */
#define CORNER(style)                                                                      \
    "[{\"type\": \"path\", \"path\": \"M 20 40 L 50 40 L 50 10\", \"stroke\": \"#ffffff\", "   \
    "\"stroke_width\": 10" style "}]"

START_TEST(test_joins)
{
    uint32_t *mi = frame(CORNER(""), 0);
    uint32_t *bv = frame(CORNER(", \"line_join\": \"bevel\""), 0);
    uint32_t *rd = frame(CORNER(", \"line_join\": \"round\""), 0);
    uint32_t *lo = frame(CORNER(", \"miter_limit\": 1.4"), 0);
    uint32_t *hi = frame(CORNER(", \"miter_limit\": 1.5"), 0);
    /* the miter's corner pixel (54, 44): inside the miter square, past the
     * bevel, 5.66 px from the corner (outside the round join) */
    ck_assert_uint_eq(px(mi, 54, 44), ON);
    ck_assert_uint_eq(px(bv, 54, 44), OFF);
    ck_assert_uint_eq(px(rd, 54, 44), OFF);
    /* the whole miter square is covered, nothing past it */
    for (int y = 40; y < 45; y++)
        for (int x = 50; x < 55; x++)
            ck_assert_uint_eq(px(mi, x, y), ON);
    ck_assert_uint_eq(px(mi, 55, 44), OFF);
    ck_assert_uint_eq(px(mi, 54, 45), OFF);
    /* (51, 41) lies inside all three (x + y <= 94; 2.8 px from the corner);
     * (52, 42) inside the round join (4.24 px), across the bevel's edge */
    ck_assert_uint_eq(px(bv, 51, 41), ON);
    ck_assert_uint_eq(px(rd, 52, 42), ON);
    ck_assert_int_gt(red(bv, 52, 42), 0);
    ck_assert_uint_ne(px(bv, 52, 42), ON);
    /* the bevel covers half the square: 12.5 px less than the miter */
    ck_assert_double_eq_tol(coverage(mi) - coverage(bv), 12.5, 0.5);
    /* a miter limit below the ratio (1.4) bevels, above it (1.5) miters */
    ck_assert_mem_eq(lo, bv, (size_t)W * H * 4);
    ck_assert_mem_eq(hi, mi, (size_t)W * H * 4);
    free(mi);
    free(bv);
    free(rd);
    free(lo);
    free(hi);
}
END_TEST

/* A sharp V pointing right, its vertex at (70, 32), half-angle a with
 * sin a = 1/5 (arms 60 px long, 12.247 px up and down), 4 wide: the miter
 * ratio is 5, so the default miter_limit (10) draws a miter whose tip lies
 * 2 * 5 = 10 px past the vertex, at (80, 32); a limit of 4 bevels it. At
 * x 77..78 the tip is 2 * 3 tan a = 1.22 .. 0.82 px tall. */
#define VEE(style)                                                                         \
    "[{\"type\": \"path\", \"path\": \"M 10 19.753 L 70 32 L 10 44.247\", \"stroke\": "        \
    "\"#ffffff\", \"stroke_width\": 4" style "}]"

START_TEST(test_miter_limit_default)
{
    uint32_t *def = frame(VEE(""), 0);
    uint32_t *ten = frame(VEE(", \"miter_limit\": 10"), 0);
    uint32_t *four = frame(VEE(", \"miter_limit\": 4"), 0);
    ck_assert_mem_eq(def, ten, (size_t)W * H * 4);
    ck_assert_int_gt(red(def, 77, 31), 100);
    ck_assert_int_gt(red(def, 77, 32), 100);
    ck_assert_uint_eq(px(def, 80, 31), OFF);
    ck_assert_uint_eq(px(four, 77, 31), OFF);
    ck_assert_uint_eq(px(four, 73, 31), OFF);
    free(def);
    free(ten);
    free(four);
}
END_TEST

/* A miter far longer than the old fixed bound (4): sin a = 1/16, width 4,
 * limit 20, so the tip lies 32 px past the vertex (40, 32), at (72, 32).
 * Drawn through a group surface (a gradient at opacity 0.5: clipped to the
 * stroke's reach), composed with a shadow (the reach of a composed layer)
 * or on a huge canvas-wide shape (the huge-coordinate sink), the tip is
 * there as when drawn plainly. */
#define NEEDLE(style)                                                                      \
    "[{\"type\": \"path\", \"path\": \"M 8 29.996 L 40 32 L 8 34.004\", \"stroke\": " style     \
    ", \"stroke_width\": 4, \"miter_limit\": 20}]"

START_TEST(test_long_miter_not_cut)
{
    uint32_t *plain = frame(NEEDLE("\"#ffffff\""), 0);
    /* at x 66..67, 5.5 px before the tip, it is 0.69 px tall */
    ck_assert_int_gt(red(plain, 66, 31), 40);
    ck_assert_uint_eq(px(plain, 72, 31), OFF);
    uint32_t *half = frame(NEEDLE("{\"linear\": {\"from\": [0, 0], \"to\": [96, 0], \"stops\": "
                                  "[[0, \"#ffffff\"], [1, \"#ffffff\"]]}}, \"opacity\": 0.5"),
                           0);
    ck_assert_int_ge(red(half, 66, 31), red(plain, 66, 31) / 2 - 1);
    ck_assert_int_le(red(half, 66, 31), red(plain, 66, 31) / 2 + 1);
    uint32_t *sh = frame(NEEDLE("\"#ffffff\", \"shadow\": {\"x\": 0, \"y\": 0, \"blur\": 0, "
                                "\"color\": \"#00000000\"}"),
                         0);
    ck_assert_mem_eq(sh, plain, (size_t)W * H * 4);
    free(plain);
    free(half);
    free(sh);
}
END_TEST

/* Shapes too large for cairo's coordinates (drawn through the huge sink):
 * caps are exact (the runs' cut ends lie far off the canvas), dashes are
 * drawn with their lengths in bounded time. */
START_TEST(test_huge)
{
    uint32_t *small = frame("[{\"type\": \"line\", \"x1\": 20, \"y1\": 20, \"x2\": 200, \"y2\": 20, "
                            "\"stroke\": \"#ffffff\", \"stroke_width\": 10, \"line_cap\": "
                            "\"round\"}]",
                            0);
    uint32_t *huge = frame("[{\"type\": \"line\", \"x1\": 20, \"y1\": 20, \"x2\": 1e12, \"y2\": 20, "
                           "\"stroke\": \"#ffffff\", \"stroke_width\": 10, \"line_cap\": "
                           "\"round\"}]",
                           0);
    ck_assert_int_gt(red(huge, 15, 19), 200);
    ck_assert_uint_eq(px(huge, 14, 19), OFF);
    ck_assert_uint_eq(px(huge, 15, 15), OFF);
    ck_assert_double_eq_tol(coverage(huge), coverage(small), 1.0);
    free(small);
    free(huge);
    uint32_t *d = frame("[{\"type\": \"line\", \"x1\": -1e12, \"y1\": 32, \"x2\": 1e12, "
                        "\"y2\": 32, \"stroke\": \"#ffffff\", \"stroke_width\": 2, \"dash\": "
                        "[10, 5]}]",
                        0);
    /* the phase is approximate; on average two thirds of the row are on */
    int on = 0;
    for (int x = 0; x < W; x++)
        on += px(d, x, 31) == ON;
    ck_assert_int_ge(on, 60);
    ck_assert_int_le(on, 70);
    free(d);
}
END_TEST

/* Text is stroked with the same style: a pattern longer than any glyph's
 * outline is the solid stroke, byte for byte; a fine one lights fewer
 * pixels. */
#define TEXT(style)                                                                        \
    "[{\"type\": \"text\", \"text\": \"HI\", \"x\": 48, \"y\": 32, \"size\": 40, \"fill\": "   \
    "\"none\", \"stroke\": \"#ffffff\", \"stroke_width\": 2" style "}]"

START_TEST(test_text)
{
    uint32_t *solid = frame(TEXT(""), 0);
    uint32_t *longd = frame(TEXT(", \"dash\": [1000, 1]"), 0);
    uint32_t *fine = frame(TEXT(", \"dash\": [2, 3]"), 0);
    uint32_t *round = frame(TEXT(", \"line_join\": \"round\""), 0);
    ck_assert_mem_eq(solid, longd, (size_t)W * H * 4);
    ck_assert_double_lt(coverage(fine), coverage(solid) * 0.6);
    ck_assert_double_gt(coverage(fine), coverage(solid) * 0.25);
    /* "HI" has only right angles: round joins cover less than miters */
    ck_assert_double_lt(coverage(round), coverage(solid));
    free(solid);
    free(longd);
    free(fine);
    free(round);
}
END_TEST

static Suite *stroke_suite(void)
{
    Suite *s = suite_create("stroke");
    TCase *tc = tcase_create("caps");
    tcase_add_test(tc, test_caps);
    suite_add_tcase(s, tc);
    tc = tcase_create("dash");
    tcase_add_test(tc, test_dash_lengths);
    tcase_add_test(tc, test_dash_marches);
    tcase_add_test(tc, test_dash_degenerate);
    suite_add_tcase(s, tc);
    tc = tcase_create("joins");
    tcase_add_test(tc, test_joins);
    tcase_add_test(tc, test_miter_limit_default);
    tcase_add_test(tc, test_long_miter_not_cut);
    suite_add_tcase(s, tc);
    tc = tcase_create("huge");
    tcase_add_test(tc, test_huge);
    suite_add_tcase(s, tc);
    tc = tcase_create("text");
    tcase_add_test(tc, test_text);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(stroke_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
