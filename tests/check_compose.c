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
#include "scenetest.h"

#define W 96
#define H 64
#define HEAD                                                                               \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 96, \"height\": 64, \"background\": "        \
    "\"#102030\"}, \"timeline\": {\"fps\": 10, \"duration\": 2}, \"values\": {"            \
    "\"x\": {\"tween\": {\"from\": 0, \"to\": 40, \"duration\": 2}}, "                     \
    "\"w\": {\"tween\": {\"from\": 4, \"to\": 30, \"duration\": 2}}}, \"layers\": "

static rf_scene_t *load(const char *json)
{
    return rf_test_scene("c.json", json);
}

/* The frame of json at t, W x H ARGB32 rows (stride W * 4), malloc'd. */
static uint32_t *frame(const char *json, double t)
{
    rf_scene_t *sc = load(json);
    uint32_t *out = rf_test_frame(sc, t, W, H);
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
 * pixels of the same gradient on a rect 200 px wide, but on the edges,
 * where 1e12 px coordinates keep only 1e-4 px and the two strokes are
 * rasterized differently. */
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
    /* edge pixels only: the 200 px rect's stroke is rasterized by FreeType
     * (render-raster.c: the exact area, within 5 levels on straight edges),
     * the huge one's by cairo (15 sub-rows: 14 levels off the exact area on
     * straight edges in check_stroke), about 200 pixels apart by up to 18
     * levels; the fills by cairo both */
    ck_assert_int_le(off, W * H / 20);
    ck_assert_int_le(worst, 24);
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

/* A clip that keeps the axes waits (render-compose.c "soft clips"): the
 * layers wholly inside it draw without it, the others apply it. The
 * reference is the same scene with RF_CLIP_HARD=1, where cairo applies
 * every clip to its whole group as before: every pixel of every frame the
 * same, for each waiting shape,
 * with children inside, across the edge, translucent groups, shadows,
 * blends, nested clips and a mask. */
START_TEST(test_soft_clip_same_pixels)
{
    static const char *const clips[] = {
        "\"type\": \"rect\", \"x\": \"x\", \"y\": 4, \"anchor\": [0, 0], \"width\": 80, "
        "\"height\": 50, \"radius\": 20",
        "\"type\": \"rect\", \"x\": 6.5, \"y\": 4.25, \"anchor\": [0, 0], \"width\": 80, "
        "\"height\": 50",
        "\"type\": \"circle\", \"x\": 48, \"y\": 32, \"r\": 30",
        "\"type\": \"ellipse\", \"x\": 48, \"y\": 32, \"rx\": 44, \"ry\": \"w\"",
    };
    const char *kids =
        KIDS ", {\"type\": \"circle\", \"x\": 6, \"y\": 12, \"r\": 3, \"fill\": \"#fff\"}, "
        "{\"type\": \"rect\", \"x\": 40, \"y\": 28, \"width\": 8, \"height\": 6, "
        "\"fill\": \"#00ff80\", \"shadow\": {\"x\": 2, \"y\": 3, \"blur\": 4, \"color\": "
        "\"#000000a0\"}}, {\"type\": \"circle\", \"x\": 50, \"y\": 30, \"r\": 5, "
        "\"fill\": \"#ff00ff\", \"blend\": \"multiply\"}, {\"type\": \"group\", \"clip\": "
        "{\"type\": \"circle\", \"x\": \"x\", \"y\": 30, \"r\": 12}, \"children\": ["
        "{\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": [0, 0], \"width\": 96, "
        "\"height\": 64, \"fill\": \"#ffffff80\"}]}, {\"type\": \"group\", \"mask\": "
        "{\"layer\": {\"type\": \"circle\", \"x\": 20, \"y\": 20, \"r\": 14, \"fill\": "
        "\"#fff\"}}, \"children\": [{\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": "
        "[0, 0], \"width\": 40, \"height\": 40, \"fill\": \"#3050ff\"}]}";
    static char soft[8192];
    for (size_t k = 0; k < sizeof clips / sizeof clips[0]; k++) {
        snprintf(soft, sizeof soft, HEAD "[{\"type\": \"group\", \"clip\": {%s}, "
                 "\"children\": [%s]}]}", clips[k], kids);
        for (int t = 0; t <= 2; t++) {
            uint32_t *a = frame(soft, t);
            setenv("RF_CLIP_HARD", "1", 1);
            uint32_t *b = frame(soft, t);
            unsetenv("RF_CLIP_HARD");
            int diff = 0, drawn = 0;
            for (int p = 0; p < W * H; p++) {
                diff += a[p] != b[p];
                drawn += a[p] != 0xff102030u;
            }
            ck_assert_msg(diff == 0, "clip %zu t=%d: %d pixels differ", k, t, diff);
            ck_assert_int_gt(drawn, 200);
            free(a);
            free(b);
        }
    }
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

/* ---- shadow ---- */

/* A 1 x 1 white rect with a white shadow offset by (10, 0), blurred by 5
 * (standard deviation 2.5): the shadow is the Python blur of a white pixel
 * centered on (50, 32), the rect stays at (40, 32); and a solid shadow
 * offset by (6, 4) shows its color exactly where the layer does not cover
 * it, at the layer's opacity. */
START_TEST(test_shadow)
{
    char buf[512];
    size_t k = 1; /* s = 2.5 in blur-ref.h */
    ck_assert(blur_ref[k].s == 2.5);
    snprintf(buf, sizeof buf, CANVAS "{\"type\": \"rect\", \"x\": 40, \"y\": 32, "
             "\"anchor\": [0, 0], \"width\": 1, \"height\": 1, \"fill\": \"#ffffff\", "
             "\"shadow\": {\"x\": 10, \"y\": 0, \"blur\": 5, \"color\": \"#ffffff\"}}]}");
    uint32_t *f = frame(buf, 0);
    int n = BLUR_REF_N, c = n / 2;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int rx = x - 50 + c, ry = y - 32 + c;
            unsigned v = rx >= 0 && rx < n && ry >= 0 && ry < n ? blur_ref[k].px[ry * n + rx] : 0;
            if (x == 40 && y == 32)
                v = 255;
            ck_assert_msg(AT(f, x, y) == (0xff000000u | v << 16 | v << 8 | v),
                          "(%d, %d): %08x, want %u", x, y, AT(f, x, y), v);
        }
    free(f);

    snprintf(buf, sizeof buf, CANVAS "{\"type\": \"rect\", \"x\": 10, \"y\": 10, "
             "\"anchor\": [0, 0], \"width\": 20, \"height\": 20, \"fill\": \"#ffffff\", "
             "\"opacity\": 0.5, \"shadow\": [{\"x\": 6, \"y\": 4, \"color\": \"#ff0000\"}]}]}");
    f = frame(buf, 0);
    ck_assert_uint_eq(AT(f, 20, 20), 0xff808080u);  /* the layer, over its shadow */
    ck_assert_uint_eq(AT(f, 33, 25), 0xff800000u);  /* the shadow alone, at opacity 0.5 */
    ck_assert_uint_eq(AT(f, 12, 32), 0xff000000u);  /* neither */
    ck_assert_uint_eq(AT(f, 33, 12), 0xff000000u);  /* above the shadow */
    free(f);
}
END_TEST

/* ---- off the canvas ---- */

/* Layers partly or wholly off the 96 x 64 canvas whose blur or shadows
 * reach onto it, every coordinate moved by (o, o): a card 20 px above the
 * top edge whose shadow falls 18 px down onto it; a box blur (s = 5)
 * straddling the left edge; a blurred group (s = 3) straddling the bottom
 * right corner; a translucent layer below the bottom edge, itself blurred
 * (s = 2), casting a shadow up and left; a Gaussian-kernel blur (s = 1.5)
 * straddling the top edge. */
static char *off_scene(int w, int h, int o)
{
    char *buf = malloc(4096);
    ck_assert_ptr_nonnull(buf);
    snprintf(buf, 4096,
             "{\"runeframe\": 1, \"canvas\": {\"width\": %d, \"height\": %d, \"background\": "
             "\"#102030\"}, \"timeline\": {\"fps\": 10, \"duration\": 1}, \"layers\": ["
             "{\"type\": \"rect\", \"x\": %d, \"y\": %d, \"anchor\": [0, 0], \"width\": 30, "
             "\"height\": 14, \"radius\": 3, \"fill\": \"#ffffff\", \"shadow\": {\"x\": 2, "
             "\"y\": 18, \"blur\": 8, \"color\": \"#ff0000c0\"}}, "
             "{\"type\": \"rect\", \"x\": %d, \"y\": %d, \"anchor\": [0, 0], \"width\": 20, "
             "\"height\": 16, \"fill\": \"#40ff80\", \"blur\": 5}, "
             "{\"type\": \"group\", \"blur\": 3, \"children\": [{\"type\": \"circle\", \"x\": %d, "
             "\"y\": %d, \"r\": 10, \"fill\": \"#ffd000\"}, {\"type\": \"rect\", \"x\": %d, "
             "\"y\": %d, \"width\": 30, \"height\": 6, \"rotate\": 30, \"fill\": \"#ff00ff\"}]}, "
             "{\"type\": \"rect\", \"x\": %d, \"y\": %d, \"anchor\": [0, 0], \"width\": 20, "
             "\"height\": 10, \"fill\": \"#0040ff\", \"opacity\": 0.7, \"blur\": 2, "
             "\"shadow\": [{\"x\": -6, \"y\": -12, \"blur\": 6, \"color\": \"#000000\"}, "
             "{\"x\": 3, \"y\": -8, \"blur\": 3, \"color\": \"#00ff00a0\"}]}, "
             "{\"type\": \"ellipse\", \"x\": %d, \"y\": %d, \"rx\": 8, \"ry\": 3, "
             "\"fill\": \"#ffffff\", \"blur\": 1.5}]}",
             w, h, 30 + o, -20 + o, -12 + o, 30 + o, 92 + o, 58 + o, 80 + o, 64 + o, 50 + o,
             70 + o, 20 + o, -1 + o);
    return buf;
}

/* The frame of off_scene on the canvas equals, pixel for pixel, the same
 * layers moved fully onto a larger canvas (80 px more on each side, where
 * nothing is cut off) and cropped back: what lies off the canvas blurs and
 * casts shadows into it (the capture reaches past the canvas, not
 * cairo's push_group). Pixel facts too: the card's shadow shows below the
 * top edge, the blur bleeds in from the left edge. */
START_TEST(test_off_canvas)
{
    enum { PAD = 80 };
    char *small = off_scene(W, H, 0), *big = off_scene(W + 2 * PAD, H + 2 * PAD, PAD);
    uint32_t *f = frame(small, 0);
    rf_scene_t *sc = load(big);
    uint32_t *g = rf_test_frame(sc, 0, W + 2 * PAD, H + 2 * PAD);
    rf_scene_destroy(sc);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t want = g[(size_t)(y + PAD) * (W + 2 * PAD) + (size_t)(x + PAD)];
            if (AT(f, x, y) != want && bad++ < 5)
                fprintf(stderr, "(%d, %d): %08x, want %08x\n", x, y, AT(f, x, y), want);
        }
    ck_assert_int_eq(bad, 0);
    ck_assert_uint_gt(AT(f, 47, 2) >> 16 & 255, 0x60); /* the card's red shadow */
    ck_assert_uint_gt(AT(f, 0, 38) >> 8 & 255, 0x60);  /* the green box, blurred */
    free(f);
    free(g);
    free(small);
    free(big);
}
END_TEST

/* ---- mask ---- */

/* A transparent canvas, so the pixels are the composed group's own. */
#define MHEAD                                                                              \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 96, \"height\": 64, \"background\": "        \
    "\"#00000000\"}, \"timeline\": {\"fps\": 10, \"duration\": 2}, \"values\": {"          \
    "\"w\": {\"tween\": {\"from\": 4, \"to\": 30, \"duration\": 2}}}, \"layers\": "
#define RED_ALL                                                                            \
    "{\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": [0, 0], \"width\": 96, "      \
    "\"height\": 64, \"fill\": \"#ff0000\"}"

/* A group of RED_ALL masked by a rect x 10..20 (y 0..64) of color c in
 * mode m, with the group's opacity op. */
static uint32_t *mask_frame(const char *c, const char *m, double op)
{
    char buf[1024];
    snprintf(buf, sizeof buf, MHEAD "[{\"type\": \"group\", \"opacity\": %g, \"children\": ["
             RED_ALL "], \"mask\": {\"mode\": \"%s\", \"layer\": {\"type\": \"rect\", \"x\": 10, "
             "\"y\": 0, \"anchor\": [0, 0], \"width\": 10, \"height\": 64, \"fill\": \"%s\"}}}]}",
             op, m, c);
    return frame(buf, 0);
}

/* The four modes on flat colors, against values derived by hand (cairo's
 * premultiplied ARGB32: red at coverage c is c << 24 | c << 16): alpha is
 * the mask's alpha; luminance is 0.2125 R + 0.7154 G + 0.0721 B of the
 * premultiplied channels ((0.2125 + 0.7154 + 0.0721) * 128 = 128 for
 * gray; 0.7154 * 255 = 182.4 -> 182 for green; a white at alpha 128 gives
 * 128); the inverted modes are 255 minus those, and 255 where the mask
 * layer draws nothing; the group's opacity scales the coverage
 * (255 * 0.5 = 127.5 -> 128). */
START_TEST(test_mask_modes)
{
    static const struct {
        const char *color, *mode;
        double op;
        uint32_t inside, outside;
    } cases[] = {
        { "#808080", "alpha", 1, 0xffff0000u, 0 },
        { "#ffffff80", "alpha", 1, 0x80800000u, 0 },
        { "#808080", "luminance", 1, 0x80800000u, 0 },
        { "#00ff00", "luminance", 1, 0xb6b60000u, 0 },
        { "#ffffff80", "luminance", 1, 0x80800000u, 0 },
        { "#808080", "alpha-inverted", 1, 0, 0xffff0000u },
        { "#ffffff80", "alpha-inverted", 1, 0x7f7f0000u, 0xffff0000u },
        { "#808080", "luminance-inverted", 1, 0x7f7f0000u, 0xffff0000u },
        { "#00ff00", "luminance-inverted", 1, 0x49490000u, 0xffff0000u },
        { "#808080", "alpha", 0.5, 0x80800000u, 0 },
        { "#808080", "alpha-inverted", 0.5, 0, 0x80800000u },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t *f = mask_frame(cases[i].color, cases[i].mode, cases[i].op);
        for (int y = 0; y < H; y += 7) {
            ck_assert_msg(AT(f, 15, y) == cases[i].inside, "%s %s %g inside: %08x, expected %08x",
                          cases[i].color, cases[i].mode, cases[i].op, AT(f, 15, y), cases[i].inside);
            ck_assert_msg(AT(f, 5, y) == cases[i].outside && AT(f, 60, y) == cases[i].outside,
                          "%s %s %g outside: %08x %08x, expected %08x", cases[i].color,
                          cases[i].mode, cases[i].op, AT(f, 5, y), AT(f, 60, y), cases[i].outside);
        }
        free(f);
    }
}
END_TEST

/* The mask layer is in the group's coordinates (it moves with the group),
 * animatable (its width is the value w: 4 at t = 0, 30 at t = 2), may be a
 * group itself, and composes with a clip and a nested mask; a renderer that
 * drew t = 0 first draws t = 2 as a new one does (an animated mask keeps
 * its group out of the static prefix). */
START_TEST(test_mask_moves_and_nests)
{
    const char *json = MHEAD "[{\"type\": \"group\", \"x\": 6, \"children\": [" RED_ALL "], "
        "\"clip\": {\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": [0, 0], \"width\": 96, "
        "\"height\": 32}, "
        "\"mask\": {\"layer\": {\"type\": \"group\", \"children\": [{\"type\": \"rect\", \"x\": 10, "
        "\"y\": 0, \"anchor\": [0, 0], \"width\": \"w\", \"height\": 64, \"fill\": \"#fff\"}, "
        "{\"type\": \"rect\", \"x\": 70, \"y\": 0, \"anchor\": [0, 0], \"width\": 10, "
        "\"height\": 64, \"fill\": \"#fff\"}], "
        "\"mask\": {\"mode\": \"alpha-inverted\", \"layer\": {\"type\": \"rect\", \"x\": 0, "
        "\"y\": 20, \"anchor\": [0, 0], \"width\": 96, \"height\": 4, \"fill\": \"#fff\"}}}}}]}";
    rf_scene_t *sc = load(json);
    rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
    ck_assert_ptr_nonnull(r);
    for (int k = 0; k < 2; k++) {
        double t = k ? 2 : 0;
        int wv = k ? 30 : 4;
        ck_assert_int_eq(rf_renderer_draw(r, t), 0);
        int stride;
        const unsigned char *p = rf_renderer_pixels(r, &stride);
        uint32_t *fresh = frame(json, t);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint32_t got = *(const uint32_t *)(const void *)(p + (size_t)y * (size_t)stride +
                                                                 (size_t)x * 4);
                /* shown: the clip's y < 32, the mask's x in [16, 16 + w) or
                 * [76, 86) (moved by the group's x = 6), the nested mask's
                 * hole y in [20, 24) */
                int in = y < 32 && ((x >= 16 && x < 16 + wv) || (x >= 76 && x < 86)) &&
                         !(y >= 20 && y < 24);
                ck_assert_msg(got == (in ? 0xffff0000u : 0), "t=%g (%d, %d): %08x", t, x, y, got);
                ck_assert_msg(got == AT(fresh, x, y), "t=%g (%d, %d): reused renderer differs",
                              t, x, y);
            }
        free(fresh);
    }
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
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
    tcase_add_test(tc, test_soft_clip_same_pixels);
    suite_add_tcase(s, tc);
    tc = tcase_create("mask");
    tcase_add_test(tc, test_mask_modes);
    tcase_add_test(tc, test_mask_moves_and_nests);
    suite_add_tcase(s, tc);
    tc = tcase_create("blend");
    tcase_add_test(tc, test_blend_modes);
    tcase_add_test(tc, test_pixel_snap);
    suite_add_tcase(s, tc);
    tc = tcase_create("blur");
    tcase_add_test(tc, test_blur_layer);
    tcase_add_test(tc, test_shadow);
    tcase_add_test(tc, test_off_canvas);
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
