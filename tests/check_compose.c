/* check_compose.c - compositing of layers, from scene files: groups keep
 * their children's coordinates (scene-v1.md "Layers", revised group). The
 * references are the same layers drawn alone, byte for byte, and pixel
 * facts derived by hand. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "render.h"
#include "scene.h"

#include "blur-ref.h"

#define W 96
#define H 64
#define HEAD                                                                               \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 96, \"height\": 64, \"background\": "        \
    "\"#102030\"}, \"timeline\": {\"fps\": 10, \"duration\": 2}, \"values\": {"            \
    "\"x\": {\"tween\": {\"from\": 0, \"to\": 40, \"duration\": 2}}, "                     \
    "\"w\": {\"tween\": {\"from\": 4, \"to\": 30, \"duration\": 2}}}, \"layers\": "

static rf_scene_t *load(const char *json)
{
    rf_diag_t *dg = malloc(sizeof *dg);
    ck_assert_ptr_nonnull(dg);
    rf_diag_init(dg, "c.json");
    rf_scene_t *sc = rf_scene_load_buffer("c.json", json, strlen(json), dg);
    if (!sc)
        for (int i = 0; i < dg->count; i++)
            fprintf(stderr, "unexpected: %s\n", dg->msg[i]);
    ck_assert_ptr_nonnull(sc);
    free(dg);
    return sc;
}

/* The frame of json at t, W x H ARGB32 rows (stride W * 4), malloc'd. */
static uint32_t *frame(const char *json, double t)
{
    rf_scene_t *sc = load(json);
    rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(rf_renderer_draw(r, t), 0);
    int stride;
    const unsigned char *p = rf_renderer_pixels(r, &stride);
    uint32_t *out = malloc((size_t)W * H * 4);
    ck_assert_ptr_nonnull(out);
    for (int y = 0; y < H; y++)
        memcpy(out + (size_t)y * W, p + (size_t)y * (size_t)stride, (size_t)W * 4);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
    return out;
}

static char *cat3(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* Layers of every type, animated and not, translucent and not. */
#define KIDS                                                                               \
    "{\"type\": \"rect\", \"x\": 20, \"y\": 14, \"width\": 22, \"height\": 12, "           \
    "\"radius\": 3, \"rotate\": 17, \"fill\": {\"linear\": {\"from\": [0, 0], \"to\": [22, 0], " \
    "\"stops\": [[0, \"#ff0000\"], [1, \"#0000ff\"]]}}, \"stroke\": \"#ffffff\"}, "            \
    "{\"type\": \"circle\", \"x\": \"x\", \"y\": 40, \"r\": 9.3, \"fill\": \"#ffb000\", "     \
    "\"opacity\": 0.6}, "                                                                   \
    "{\"type\": \"ellipse\", \"x\": 70, \"y\": 20, \"rx\": \"w\", \"ry\": 6, \"fill\": \"#7bdff2\", " \
    "\"scale\": 0.8}, "                                                                     \
    "{\"type\": \"line\", \"x1\": 3, \"y1\": 60, \"x2\": 90, \"y2\": 47.5, \"stroke\": \"#c3f584\", " \
    "\"stroke_width\": 2.5}, "                                                              \
    "{\"type\": \"path\", \"path\": \"M 50 50 C 60 30 80 70 90 40\", \"stroke\": \"#ff3860\", " \
    "\"trim\": [0, 0.7]}, "                                                                 \
    "{\"type\": \"group\", \"opacity\": 0.5, \"children\": [{\"type\": \"rect\", \"x\": 60, "  \
    "\"y\": 45, \"width\": 10, \"height\": 10, \"fill\": \"#ffffff\"}]}"

/* A group without transforms draws its children at exactly the pixels
 * they have alone, at every time, whatever the children's boxes are. */
START_TEST(test_group_identity_bytes)
{
    char *alone = cat3(HEAD "[", KIDS, "]}");
    char *grouped = cat3(HEAD "[{\"type\": \"group\", \"children\": [", KIDS, "]}]}");
    char *nested = cat3(HEAD "[{\"type\": \"group\", \"anchor\": [0.2, 0.9], \"children\": "
                        "[{\"type\": \"group\", \"children\": [", KIDS, "]}]}]}");
    static const double times[] = { 0, 0.7, 2 };
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        uint32_t *a = frame(alone, times[i]), *b = frame(grouped, times[i]),
                 *c = frame(nested, times[i]);
        ck_assert_msg(memcmp(a, b, (size_t)W * H * 4) == 0, "group differs at t=%g", times[i]);
        ck_assert_msg(memcmp(a, c, (size_t)W * H * 4) == 0, "nested differs at t=%g", times[i]);
        free(a);
        free(b);
        free(c);
    }
    free(alone);
    free(grouped);
    free(nested);
}
END_TEST

/* An animated child (moving and growing) does not move its static
 * sibling, in a group that is rotated and scaled: the sibling's pixels are
 * the same at every time (the pivot is the box's center at t = 0). */
START_TEST(test_group_sibling_stays)
{
    const char *json = HEAD "[{\"type\": \"group\", \"x\": 5, \"y\": -3, \"rotate\": 12, "
        "\"scale\": 0.9, \"children\": ["
        "{\"type\": \"rect\", \"x\": 16, \"y\": 16, \"width\": 14, \"height\": 10, \"fill\": \"#ffffff\"}, "
        "{\"type\": \"rect\", \"x\": {\"tween\": {\"from\": 50, \"to\": 80, \"duration\": 2}}, "
        "\"y\": 40, \"width\": \"w\", \"height\": 8, \"fill\": \"#ff0000\"}]}]}";
    uint32_t *a = frame(json, 0), *b = frame(json, 2);
    /* the static rect lies within x < 34, y < 34 after the group's
     * transform; the moving one at x > 40 */
    int changed_left = 0, changed_right = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int d = a[y * W + x] != b[y * W + x];
            if (x < 36 && y < 36)
                changed_left += d;
            else
                changed_right += d;
        }
    ck_assert_int_eq(changed_left, 0);
    ck_assert_int_gt(changed_right, 0); /* the animated child did move */
    free(a);
    free(b);
}
END_TEST

#define CANVAS                                                                             \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 96, \"height\": 64, \"background\": "      \
    "\"#000\"}, \"timeline\": {\"fps\": 10, \"duration\": 0.5}, \"layers\": ["

/* The huge-shape path covers gradients (the fuzz finding of issue 20: a
 * rect 1e50 px high, rotated, with a radial gradient failed with "cairo:
 * out of memory"). There the canvas lies wholly past the gradient's end,
 * so the pixels are the solid fill's of its last stop; and a gradient near
 * the canvas on a rect 1e12 px wide (its origin 1e12 px away) gives the
 * pixels of the same gradient on a rect 500 px wide, but on the edges,
 * where 1e12 px coordinates keep only 1e-4 px. */
START_TEST(test_huge_gradient)
{
    const char *fmt = CANVAS "{\"type\": \"rect\", \"x\": 48, \"y\": 32, \"rotate\": -12, "
        "\"width\": 60, \"height\": 1e50, \"radius\": 18, \"fill\": %s, \"stroke\": "
        "\"#1d2b53\", \"stroke_width\": 3}]}";
    char a[1024], b[1024];
    snprintf(a, sizeof a, fmt, "{\"radial\": {\"center\": [120, 40], \"radius\": 200, "
             "\"stops\": [[0, \"#fff\"], [1, \"#dfe6ff\"]]}}");
    snprintf(b, sizeof b, fmt, "\"#dfe6ff\"");
    uint32_t *pa = frame(a, 0), *pb = frame(b, 0);
    ck_assert(memcmp(pa, pb, (size_t)W * H * 4) == 0);
    free(pa);
    free(pb);

    const char *fmt2 = CANVAS "{\"type\": \"rect\", \"x\": 90, \"y\": 6, \"anchor\": [1, 0], "
        "\"rotate\": 7, \"width\": %s, \"height\": 44, \"fill\": {\"radial\": {\"center\": "
        "[%s, 20], \"radius\": 50, \"stops\": [[0, \"#fff\"], [0.5, \"#f00\"], [1, \"#00f\"]]}}, "
        "\"stroke\": {\"linear\": {\"from\": [%s, 0], \"to\": [%s, 0], \"stops\": "
        "[[0, \"#0f0\"], [1, \"#f0f\"]]}}, \"stroke_width\": 4}]}";
    snprintf(a, sizeof a, fmt2, "1e12", "999999999960", "999999999900", "999999999990");
    snprintf(b, sizeof b, fmt2, "200", "160", "100", "190");
    pa = frame(a, 0);
    pb = frame(b, 0);
    int off = 0, worst = 0, colored = 0;
    for (int i = 0; i < W * H; i++) {
        colored += pb[i] != 0xff000000u;
        int d = 0;
        for (int sh = 0; sh < 32; sh += 8) {
            int c = abs((int)(pa[i] >> sh & 255) - (int)(pb[i] >> sh & 255));
            d = c > d ? c : d;
        }
        off += d > 1;
        worst = d > worst ? d : worst;
    }
    ck_assert_int_gt(colored, W * H / 3);
    ck_assert_int_le(off, W * H / 100); /* edge pixels only */
    ck_assert_int_le(worst, 16);
    free(pa);
    free(pb);
}
END_TEST

/* ---- clip ---- */

/* Pixel (x, y) of a frame. */
#define AT(f, x, y) ((f)[(y) * W + (x)])

#define WHITE_FILL                                                                         \
    "{\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": [0, 0], \"width\": 96, "      \
    "\"height\": 64, \"fill\": {\"linear\": {\"from\": [0, 0], \"to\": [96, 0], "       \
    "\"stops\": [[0, \"#ffffff\"], [1, \"#ff8000\"]]}}}"

/* No pixel outside the clip shape changes; pixels well inside equal the
 * unclipped render; the clip is in the group's coordinates (moved with
 * it), animatable, and nested clips compose (intersect). */
START_TEST(test_clip_shapes)
{
    char buf[2048];
    uint32_t *bg = frame(CANVAS "]}", 0);
    uint32_t *full = frame(CANVAS WHITE_FILL "]}", 0);
    static const char *const clips[] = {
        "{\"type\": \"circle\", \"x\": 40, \"y\": 30, \"r\": 17.5}",
        "{\"type\": \"rect\", \"x\": 40, \"y\": 30, \"width\": 35, \"height\": 35, "
        "\"radius\": 17.5}",
        "{\"type\": \"ellipse\", \"x\": 40, \"y\": 30, \"rx\": 17.5, \"ry\": 17.5}",
        /* a circle of four cubics (kappa 0.5523), within 0.03 px of it */
        "{\"type\": \"path\", \"path\": \"M 57.5 30 C 57.5 39.665 49.665 47.5 40 47.5 "
        "C 30.335 47.5 22.5 39.665 22.5 30 C 22.5 20.335 30.335 12.5 40 12.5 "
        "C 49.665 12.5 57.5 20.335 57.5 30 Z\"}",
    };
    for (size_t k = 0; k < sizeof clips / sizeof clips[0]; k++) {
        snprintf(buf, sizeof buf, CANVAS "{\"type\": \"group\", \"clip\": %s, \"children\": ["
                 WHITE_FILL "]}]}", clips[k]);
        uint32_t *f = frame(buf, 0);
        int inside = 0, outside = 0, edge = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double d = hypot(x + 0.5 - 40, y + 0.5 - 30);
                if (d > 18.5) {
                    ck_assert_msg(AT(f, x, y) == AT(bg, x, y), "clip %zu: (%d, %d) outside", k, x, y);
                    outside++;
                } else if (d < 16.5) {
                    ck_assert_msg(AT(f, x, y) == AT(full, x, y), "clip %zu: (%d, %d) inside", k, x, y);
                    inside++;
                } else {
                    /* antialiased: between the two */
                    uint32_t v = AT(f, x, y) >> 8 & 255, lo = AT(bg, x, y) >> 8 & 255,
                             hi = AT(full, x, y) >> 8 & 255;
                    ck_assert(v >= lo && v <= hi);
                    edge += v > lo && v < hi;
                }
            }
        ck_assert_int_gt(inside, 800);
        ck_assert_int_gt(outside, 4000);
        ck_assert_int_gt(edge, 20);
        free(f);
    }

    /* a clip in the group's coordinates moves with the group; it grows
     * with its value (w: 4 at t = 0, 30 at t = 2); nested clips intersect */
    const char *json = HEAD "[{\"type\": \"group\", \"x\": 10, \"y\": 5, "
        "\"clip\": {\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": [0, 0], "
        "\"width\": \"w\", \"height\": 40}, \"children\": [{\"type\": \"group\", "
        "\"clip\": {\"type\": \"rect\", \"x\": 20, \"y\": 20, \"anchor\": [0, 0], "
        "\"width\": 60, \"height\": 10}, \"children\": [" WHITE_FILL "]}]}]}";
    uint32_t *b0 = frame(HEAD "[]}", 0);
    uint32_t *fw = frame(HEAD "[" WHITE_FILL "]}", 0);
    for (int t = 0; t <= 2; t += 2) {
        uint32_t *f = frame(json, t);
        /* both clips: x in [10, 10 + w) and [30, 90), y in [25, 35) */
        int x1 = 10 + (t == 0 ? 4 : 30);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int in = x >= 30 && x < x1 && y >= 25 && y < 35;
                /* the children move with the group by (10, 5) */
                ck_assert_msg(AT(f, x, y) == (in ? AT(fw, x - 10, y - 5) : AT(b0, x, y)),
                              "t=%d (%d, %d)", t, x, y);
            }
        free(f);
    }
    free(b0);
    free(fw);
    free(bg);
    free(full);
}
END_TEST

/* ---- blend ---- */

/* Printed by tests/blend-ref.py (the W3C formulas): the source
 * (220, 90, 30) blended over the backdrop (40, 200, 120), both opaque. */
static const struct { const char *name; int rgb[3]; } blends[] = {
    { "normal", { 220, 90, 30 } },
    { "multiply", { 35, 71, 14 } },
    { "screen", { 225, 219, 136 } },
    { "overlay", { 69, 184, 28 } },
    { "darken", { 40, 90, 30 } },
    { "lighten", { 220, 200, 120 } },
    { "color-dodge", { 255, 255, 136 } },
    { "color-burn", { 6, 99, 0 } },
    { "hard-light", { 196, 141, 28 } },
    { "soft-light", { 84, 187, 71 } },
    { "difference", { 180, 110, 90 } },
    { "exclusion", { 191, 149, 122 } },
    { "hue", { 225, 116, 65 } },
    { "saturation", { 21, 211, 116 } },
    { "color", { 241, 111, 51 } },
    { "luminosity", { 19, 179, 99 } },
};

START_TEST(test_blend_modes)
{
    char buf[1024];
    for (size_t i = 0; i < sizeof blends / sizeof blends[0]; i++) {
        snprintf(buf, sizeof buf, CANVAS "{\"type\": \"rect\", \"x\": 0, \"y\": 0, "
                 "\"anchor\": [0, 0], \"width\": 96, \"height\": 64, \"fill\": \"#28c878\"}, "
                 "{\"type\": \"circle\", \"x\": 48, \"y\": 32, \"r\": 20, \"fill\": "
                 "\"#dc5a1e\", \"blend\": \"%s\"}]}", blends[i].name);
        uint32_t *f = frame(buf, 0);
        uint32_t p = AT(f, 48, 32), q = AT(f, 2, 2);
        for (int c = 0; c < 3; c++) {
            int got = (int)(p >> (16 - 8 * c) & 255);
            ck_assert_msg(abs(got - blends[i].rgb[c]) <= 1, "%s channel %d: %d, want %d",
                          blends[i].name, c, got, blends[i].rgb[c]);
        }
        ck_assert_uint_eq(p >> 24, 255);
        ck_assert_uint_eq(q, 0xff28c878u); /* outside the circle: the backdrop */
        free(f);
    }
}
END_TEST

/* ---- pixel_snap ---- */

START_TEST(test_pixel_snap)
{
    /* a 10 x 10 rect at x = 20.4, y = 7.6: snapped, its translation is
     * (20, 8) and it covers [20, 30) x [8, 18) exactly; unsnapped, its
     * edges are antialiased */
    const char *fmt = CANVAS "{\"type\": \"rect\", \"x\": 20.4, \"y\": 7.6, \"anchor\": "
        "[0, 0], \"width\": 10, \"height\": 10, \"fill\": \"#ffffff\", \"pixel_snap\": %s}]}";
    char buf[512];
    for (int snap = 0; snap < 2; snap++) {
        snprintf(buf, sizeof buf, fmt, snap ? "true" : "false");
        uint32_t *f = frame(buf, 0);
        int partial = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint32_t v = AT(f, x, y);
                partial += v != 0xff000000u && v != 0xffffffffu;
                if (snap)
                    ck_assert_uint_eq(v, x >= 20 && x < 30 && y >= 8 && y < 18 ? 0xffffffffu
                                                                              : 0xff000000u);
            }
        if (!snap)
            ck_assert_int_gt(partial, 0);
        free(f);
    }
}
END_TEST

/* ---- blur ---- */

/* A 1 x 1 white rect blurred through the renderer gives the W3C blur of a
 * white pixel computed in Python (tests/blur-ref.py), over the opaque black
 * background; pixels beyond its reach keep the background. */
START_TEST(test_blur_layer)
{
    char buf[512];
    for (size_t k = 0; k < sizeof blur_ref / sizeof blur_ref[0]; k++) {
        snprintf(buf, sizeof buf, CANVAS "{\"type\": \"rect\", \"x\": 48, \"y\": 32, "
                 "\"anchor\": [0, 0], \"width\": 1, \"height\": 1, \"fill\": \"#ffffff\", "
                 "\"blur\": %.17g}]}", blur_ref[k].s);
        uint32_t *f = frame(buf, 0);
        int n = BLUR_REF_N, c = n / 2;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int rx = x - 48 + c, ry = y - 32 + c;
                unsigned v = rx >= 0 && rx < n && ry >= 0 && ry < n ? blur_ref[k].px[ry * n + rx] : 0;
                ck_assert_msg(AT(f, x, y) == (0xff000000u | v << 16 | v << 8 | v),
                              "s=%g (%d, %d): %08x, want %u", blur_ref[k].s, x, y, AT(f, x, y), v);
            }
        free(f);
    }
}
END_TEST

static Suite *compose_suite(void)
{
    Suite *s = suite_create("compose");
    TCase *tc = tcase_create("group");
    tcase_add_test(tc, test_group_identity_bytes);
    tcase_add_test(tc, test_group_sibling_stays);
    suite_add_tcase(s, tc);
    tc = tcase_create("huge");
    tcase_add_test(tc, test_huge_gradient);
    suite_add_tcase(s, tc);
    tc = tcase_create("clip");
    tcase_add_test(tc, test_clip_shapes);
    suite_add_tcase(s, tc);
    tc = tcase_create("blend");
    tcase_add_test(tc, test_blend_modes);
    tcase_add_test(tc, test_pixel_snap);
    suite_add_tcase(s, tc);
    tc = tcase_create("blur");
    tcase_add_test(tc, test_blur_layer);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(compose_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
