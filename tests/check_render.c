/* check_render.c - drawing frames with cairo, checked pixel by pixel
 * against hand-computed facts.
 *
 * Scenes and layer trees are built by hand here (constant properties, or a
 * small value set built with rf_track_build), so the renderer is tested
 * without the loader. References: integer-aligned shapes cover exactly the
 * pixels their geometry says (no antialiasing), with positions derived by
 * hand from render.h's transform M = T(x+fx, y+fy) T(o) R S T(-a); blend
 * values derived from cairo's documented conversions (a straight double
 * channel d becomes the 16-bit d * 65535 + 0.5, premultiplied, and 8-bit
 * pixels take its top byte) and pixman's OVER (s + d * (255 - sa) / 255);
 * gradient values from the linear/radial formulas at pixel centers (within
 * 1); areas against pi r^2 and friends (within 1%).
 *
 * Pixels are read in cairo's ARGB32 layout: one native-endian uint32 per
 * pixel, a << 24 | r << 16 | g << 8 | b, premultiplied.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "layer.h"
#include "path.h"
#include "render.h"
#include "scene.h"
#include "values.h"

#include "exact-cover.h"

#define PI_D 3.14159265358979323846

/* ---- building layers ---- */

static rf_prop_t K(double v)
{
    rf_prop_t p = { RF_PROP_CONST, v };
    return p;
}

static rf_prop_t SL(uint32_t slot)
{
    rf_prop_t p = { slot, 0 };
    return p;
}

static rf_color_t rgba(uint32_t c) /* 0xRRGGBBAA */
{
    rf_color_t k = { (c >> 24 & 255) / 255.0, (c >> 16 & 255) / 255.0, (c >> 8 & 255) / 255.0,
                     (c & 255) / 255.0 };
    return k;
}

static void paint_clear(rf_paint_t *p)
{
    memset(p, 0, sizeof *p);
    p->kind = RF_PAINT_NONE;
    p->by = p->radius = K(0);
    p->p0[0] = p->p0[1] = p->p1[0] = p->p1[1] = K(0);
    p->ends[0].slot = p->ends[1].slot = RF_PROP_CONST;
}

/* A constant color property. */
static rf_colorp_t kcolor(uint32_t c)
{
    rf_colorp_t k = { RF_PROP_CONST, rgba(c) };
    return k;
}

static rf_paint_t solid(uint32_t c)
{
    rf_paint_t p;
    paint_clear(&p);
    p.kind = RF_PAINT_SOLID;
    p.color = rgba(c);
    return p;
}

static rf_layer_t base(rf_layer_type_t type)
{
    rf_layer_t L;
    memset(&L, 0, sizeof L);
    L.type = (uint8_t)type;
    L.x = L.y = L.rotate = K(0);
    L.scale_x = L.scale_y = K(1);
    L.anchor_x = L.anchor_y = K(0.5);
    L.opacity = K(1);
    L.blur = K(0);
    L.stroke_width = K(1);
    L.miter_limit = K(RF_MITER_DEFAULT);
    L.dash_offset = K(0);
    paint_clear(&L.fill);
    paint_clear(&L.stroke);
    L.follow_slot = RF_PROP_CONST;
    return L;
}

/* A rect of w x h whose anchor (default: center) is at (x, y). */
static rf_layer_t rect(double x, double y, double w, double h, uint32_t fill)
{
    rf_layer_t L = base(RF_LAYER_RECT);
    L.x = K(x);
    L.y = K(y);
    L.u.rect.width = K(w);
    L.u.rect.height = K(h);
    L.u.rect.radius = K(0);
    if (fill)
        L.fill = solid(fill);
    return L;
}

/* A rect by its top-left corner (anchor [0, 0]). */
static rf_layer_t rect_at(double x0, double y0, double w, double h, uint32_t fill)
{
    rf_layer_t L = rect(x0, y0, w, h, fill);
    L.anchor_x = L.anchor_y = K(0);
    return L;
}

static rf_layer_t group(const rf_layer_t *children, uint32_t n)
{
    rf_layer_t L = base(RF_LAYER_GROUP);
    L.u.group.children = children;
    L.u.group.nchildren = n;
    L.u.group.pivot_x = L.u.group.pivot_y = K(NAN); /* not given */
    return L;
}

static void *path_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n);
}

static rf_path_t *path_of(const char *d)
{
    rf_path_t *p = NULL;
    rf_path_error_t e;
    int rc = rf_path_parse(d, strlen(d), path_alloc, NULL, &p, &e);
    ck_assert_msg(rc == 0, "parse %s: %s", d, e.msg);
    return p;
}

static rf_scene_t scene_of(int w, int h, uint32_t bg, const rf_layer_t *layers, uint32_t n)
{
    rf_scene_t sc;
    memset(&sc, 0, sizeof sc);
    sc.file = "test";
    sc.width = w;
    sc.height = h;
    sc.background = bg;
    sc.fps = 60;
    sc.duration = 1;
    sc.nframes = 61;
    sc.layers = layers;
    sc.nlayers = n;
    return sc;
}

/* ---- reading pixels ---- */

static uint32_t px(rf_renderer_t *r, int x, int y)
{
    int stride;
    const unsigned char *d = rf_renderer_pixels(r, &stride);
    uint32_t v;
    memcpy(&v, d + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
    return v;
}

static int chan(uint32_t p, int shift)
{
    return (int)(p >> shift & 255);
}

static rf_renderer_t *draw(const rf_scene_t *sc, double t)
{
    char err[256] = "";
    rf_renderer_t *r = rf_renderer_create(sc, err, sizeof err);
    ck_assert_msg(r != NULL, "create: %s", err);
    ck_assert_int_eq(rf_renderer_draw(r, t), 0);
    ck_assert_str_eq(rf_renderer_error(r), "");
    return r;
}

/* Every pixel in [x0, x1) x [y0, y1) is `in`, every other one `out`. */
static void assert_block(rf_renderer_t *r, int x0, int y0, int x1, int y1, uint32_t in,
                         uint32_t out)
{
    cairo_surface_t *s = rf_renderer_surface(r);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int inside = x >= x0 && x < x1 && y >= y0 && y < y1;
            uint32_t want = inside ? in : out, got = px(r, x, y);
            ck_assert_msg(got == want, "pixel (%d, %d) is %08x, want %08x (block [%d,%d)x[%d,%d))",
                          x, y, got, want, x0, x1, y0, y1);
        }
}

/* Sum of coverage (alpha / 255) over the whole surface. */
static double alpha_area(rf_renderer_t *r)
{
    cairo_surface_t *s = rf_renderer_surface(r);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    double sum = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            sum += chan(px(r, x, y), 24) / 255.0;
    return sum;
}

#define RED 0xff0000ffu
#define WHITE 0xffffffffu
#define BLACK 0x000000ffu
#define P_RED 0xffff0000u    /* opaque red in ARGB32 */
#define P_WHITE 0xffffffffu
#define P_BLACK 0xff000000u
/* White at opacity 0.5 over opaque black: the 8-bit alpha of 0.5 is
 * (0.5 * 65535 + 0.5) >> 8 = 32768 >> 8 = 128; OVER gives 255 * 128 / 255
 * = 128 per channel (pixman's rounded multiply is exact here) plus black
 * * (255 - 128) / 255 = 0, and alpha 128 + 255 * 127 / 255 = 255. */
#define P_HALF_WHITE 0xff808080u

/* ---- placement ---- */

START_TEST(test_rect_exact_pixels)
{
    /* 10x10 centered at (15, 25): exactly [10, 20) x [20, 30) */
    rf_layer_t L[1] = { rect(15, 25, 10, 10, RED) };
    rf_scene_t sc = scene_of(40, 40, 0x0b1020ffu, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 10, 20, 20, 30, P_RED, 0xff0b1020u);
    int stride;
    ck_assert_ptr_nonnull(rf_renderer_pixels(r, &stride));
    ck_assert_int_eq(stride, cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, 40));
    rf_renderer_destroy(r);

    /* transparent background: every other pixel is 0 */
    sc = scene_of(40, 40, 0, L, 1);
    r = draw(&sc, 0);
    assert_block(r, 10, 20, 20, 30, P_RED, 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_anchor)
{
    /* anchor [0, 0]: the top-left corner lands on (x, y) */
    rf_layer_t L[1] = { rect_at(13, 7, 10, 10, RED) };
    rf_scene_t sc = scene_of(40, 40, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 13, 7, 23, 17, P_RED, 0);
    rf_renderer_destroy(r);

    /* anchor [1, 1]: the bottom-right corner */
    L[0] = rect(30, 30, 10, 10, RED);
    L[0].anchor_x = L[0].anchor_y = K(1);
    r = draw(&sc, 0);
    assert_block(r, 20, 20, 30, 30, P_RED, 0);
    rf_renderer_destroy(r);

    /* anchor [0.25, 1] of a 20x8 rect at (10, 30): corner at (5, 22) */
    L[0] = rect(10, 30, 20, 8, RED);
    L[0].anchor_x = K(0.25);
    L[0].anchor_y = K(1);
    r = draw(&sc, 0);
    assert_block(r, 5, 22, 25, 30, P_RED, 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_rotate_around_anchor)
{
    /* 20x10 centered at (30, 30), turned 90 degrees about its center:
     * 10 wide, 20 tall, still centered: [25, 35) x [20, 40) */
    rf_layer_t L[1] = { rect(30, 30, 20, 10, RED) };
    L[0].rotate = K(90);
    rf_scene_t sc = scene_of(60, 60, BLACK, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 25, 20, 35, 40, P_RED, P_BLACK);
    rf_renderer_destroy(r);

    L[0].rotate = K(-270);
    r = draw(&sc, 0);
    assert_block(r, 25, 20, 35, 40, P_RED, P_BLACK);
    rf_renderer_destroy(r);

    L[0].rotate = K(180);
    r = draw(&sc, 0);
    assert_block(r, 20, 25, 40, 35, P_RED, P_BLACK);
    rf_renderer_destroy(r);

    /* clockwise on screen, around the anchor [0, 0]: a 20x10 rect at
     * (30, 10) turned +90 maps its (u, v) to (30 - v, 10 + u): [20, 30) x
     * [10, 30), to the left of the pivot */
    L[0] = rect_at(30, 10, 20, 10, RED);
    L[0].rotate = K(90);
    r = draw(&sc, 0);
    assert_block(r, 20, 10, 30, 30, P_RED, P_BLACK);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_scale)
{
    /* scale [2, 1] about the center (20, 20) of a 10x10 rect */
    rf_layer_t L[1] = { rect(20, 20, 10, 10, RED) };
    L[0].scale_x = K(2);
    rf_scene_t sc = scene_of(40, 40, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 10, 15, 30, 25, P_RED, 0);
    rf_renderer_destroy(r);

    /* scale 2 about the top-left corner (5, 5) */
    L[0] = rect_at(5, 5, 10, 10, RED);
    L[0].scale_x = L[0].scale_y = K(2);
    r = draw(&sc, 0);
    assert_block(r, 5, 5, 25, 25, P_RED, 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_stroke_scales)
{
    /* a 10x10 outline of width 1 at (20, 20), scaled 2: edges at 10 and 30,
     * 2 pixels wide, centered on them; miter corners are square */
    rf_layer_t L[1] = { rect(20, 20, 10, 10, 0) };
    L[0].stroke = solid(WHITE);
    L[0].scale_x = L[0].scale_y = K(2);
    rf_scene_t sc = scene_of(40, 40, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 40; x++) {
            int outer = x >= 9 && x < 31 && y >= 9 && y < 31;
            int inner = x >= 11 && x < 29 && y >= 11 && y < 29;
            uint32_t want = outer && !inner ? P_WHITE : 0;
            ck_assert_msg(px(r, x, y) == want, "(%d, %d): %08x", x, y, px(r, x, y));
        }
    rf_renderer_destroy(r);
}
END_TEST

/* ---- opacity ---- */

START_TEST(test_opacity_blend)
{
    rf_layer_t L[1] = { rect_at(10, 10, 10, 10, WHITE) };
    L[0].opacity = K(0.5);
    rf_scene_t sc = scene_of(30, 30, BLACK, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 10, 10, 20, 20, P_HALF_WHITE, P_BLACK);
    rf_renderer_destroy(r);

    /* over a transparent background the pixel keeps its alpha: 0.5 white
     * premultiplied is 0x80 in every channel */
    sc = scene_of(30, 30, 0, L, 1);
    r = draw(&sc, 0);
    assert_block(r, 10, 10, 20, 20, 0x80808080u, 0);
    rf_renderer_destroy(r);

    /* opacity clamps: 3 is 1; 0 and negative draw nothing */
    sc = scene_of(30, 30, BLACK, L, 1);
    L[0].opacity = K(3);
    r = draw(&sc, 0);
    assert_block(r, 10, 10, 20, 20, P_WHITE, P_BLACK);
    rf_renderer_destroy(r);
    L[0].opacity = K(0);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 0, 0, 0, P_BLACK);
    rf_renderer_destroy(r);
    L[0].opacity = K(-1);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 0, 0, 0, P_BLACK);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_opacity_fill_stroke_once)
{
    /* fill [10, 20)^2 and a width-2 stroke over its edge ([9, 21)^2 minus
     * [11, 19)^2), both white, opacity 0.5 over black: the fill-only,
     * stroke-only and overlapping pixels are all one 0.5 blend. Blending
     * twice would give 128 + 128 * 127 / 255 = 192 where they overlap. */
    rf_layer_t L[1] = { rect_at(10, 10, 10, 10, WHITE) };
    L[0].stroke = solid(WHITE);
    L[0].stroke_width = K(2);
    L[0].opacity = K(0.5);
    rf_scene_t sc = scene_of(30, 30, BLACK, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 9, 9, 21, 21, P_HALF_WHITE, P_BLACK);
    rf_renderer_destroy(r);

    /* a wide stroke (width 6, square miter corners) reaches 3 px past the
     * fill: the group surface must cover all of [7, 23)^2 */
    L[0].stroke_width = K(6);
    r = draw(&sc, 0);
    assert_block(r, 7, 7, 23, 23, P_HALF_WHITE, P_BLACK);
    rf_renderer_destroy(r);
    L[0].stroke_width = K(2);

    /* a stroke alone at 0.5 (the single-paint path) blends the same */
    L[0].fill.kind = RF_PAINT_NONE;
    r = draw(&sc, 0);
    for (int y = 0; y < 30; y++)
        for (int x = 0; x < 30; x++) {
            int outer = x >= 9 && x < 21 && y >= 9 && y < 21;
            int inner = x >= 11 && x < 19 && y >= 11 && y < 19;
            ck_assert_uint_eq(px(r, x, y), outer && !inner ? P_HALF_WHITE : P_BLACK);
        }
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_group_opacity_once)
{
    /* A [10, 20) x [10, 20) and B [15, 25) x [10, 20) overlap on
     * [15, 20); children keep their coordinates in a group with no
     * transform */
    rf_layer_t kids[2] = { rect_at(10, 10, 10, 10, WHITE), rect_at(15, 10, 10, 10, WHITE) };
    rf_layer_t L[1] = { group(kids, 2) };
    L[0].opacity = K(0.5);
    rf_scene_t sc = scene_of(30, 30, BLACK, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    ck_assert_uint_eq(px(r, 12, 15), P_HALF_WHITE); /* A only */
    ck_assert_uint_eq(px(r, 17, 15), P_HALF_WHITE); /* overlap */
    ck_assert_uint_eq(px(r, 23, 15), P_HALF_WHITE); /* B only */
    assert_block(r, 10, 10, 25, 20, P_HALF_WHITE, P_BLACK);
    rf_renderer_destroy(r);

    /* opacity 0 hides the children too */
    L[0].opacity = K(0);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 0, 0, 0, P_BLACK);
    rf_renderer_destroy(r);
}
END_TEST

/* ---- groups: children keep their coordinates (scene-v1.md, revised) ---- */

START_TEST(test_group_transform)
{
    rf_layer_t kid[1] = { rect_at(0, 0, 10, 10, RED) };
    rf_layer_t L[1] = { group(kid, 1) };
    rf_scene_t sc = scene_of(40, 40, 0, L, 1);

    /* no transform: the child where it is alone */
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 0, 0, 10, 10, P_RED, 0);
    rf_renderer_destroy(r);

    /* x, y translate (the anchor plays no part without rotate or scale) */
    L[0].x = K(20);
    L[0].y = K(20);
    L[0].anchor_x = K(0.1);
    r = draw(&sc, 0);
    assert_block(r, 20, 20, 30, 30, P_RED, 0);
    rf_renderer_destroy(r);

    /* the child 10x4 centered at (5, 0) has box [0, 10] x [-2, 2]; the
     * group turns 90 degrees about its center (5, 0), to [3, 7] x [-5, 5],
     * then moves by (15, 20): [18, 22) x [15, 25) */
    rf_layer_t kid2[1] = { rect(5, 0, 10, 4, RED) };
    L[0] = group(kid2, 1);
    L[0].x = K(15);
    L[0].y = K(20);
    L[0].rotate = K(90);
    r = draw(&sc, 0);
    assert_block(r, 18, 15, 22, 25, P_RED, 0);
    rf_renderer_destroy(r);

    /* a given pivot (0, 0): [0, 10] x [0, 4] turned 90 degrees clockwise
     * is [-4, 0] x [0, 10], moved by (20, 10): [16, 20) x [10, 20) */
    rf_layer_t kid3[1] = { rect_at(0, 0, 10, 4, RED) };
    L[0] = group(kid3, 1);
    L[0].u.group.pivot_x = L[0].u.group.pivot_y = K(0);
    L[0].x = K(20);
    L[0].y = K(10);
    L[0].rotate = K(90);
    r = draw(&sc, 0);
    assert_block(r, 16, 10, 20, 20, P_RED, 0);
    rf_renderer_destroy(r);

    /* anchor [0, 0]: scale 2 about the top-left (3, 3) of the box [3, 8]^2,
     * to [3, 13]^2, moved by (1, 1) */
    rf_layer_t kid4[1] = { rect_at(3, 3, 5, 5, RED) };
    L[0] = group(kid4, 1);
    L[0].anchor_x = L[0].anchor_y = K(0);
    L[0].scale_x = L[0].scale_y = K(2);
    L[0].x = L[0].y = K(1);
    r = draw(&sc, 0);
    assert_block(r, 4, 4, 14, 14, P_RED, 0);
    rf_renderer_destroy(r);

    /* nested: the inner group moves its leaf [0, 5)^2 by (3, 3); the outer
     * box is [3, 8]^2, scaled 2 about its top-left: [3, 13)^2 */
    rf_layer_t leaf[1] = { rect_at(0, 0, 5, 5, RED) };
    rf_layer_t inner[1] = { group(leaf, 1) };
    inner[0].x = inner[0].y = K(3);
    L[0] = group(inner, 1);
    L[0].anchor_x = L[0].anchor_y = K(0);
    L[0].scale_x = L[0].scale_y = K(2);
    r = draw(&sc, 0);
    assert_block(r, 3, 3, 13, 13, P_RED, 0);
    rf_renderer_destroy(r);

    /* an empty group draws nothing and does not disturb later layers */
    rf_layer_t two[2] = { group(NULL, 0), rect_at(1, 2, 3, 4, RED) };
    sc = scene_of(40, 40, 0, two, 2);
    r = draw(&sc, 0);
    assert_block(r, 1, 2, 4, 6, P_RED, 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_layer_order)
{
    /* later layers on top: the overlap [15, 20) takes the second color */
    rf_layer_t L[2] = { rect_at(10, 10, 10, 10, RED), rect_at(15, 10, 10, 10, 0x0000ffffu) };
    rf_scene_t sc = scene_of(30, 30, 0, L, 2);
    rf_renderer_t *r = draw(&sc, 0);
    ck_assert_uint_eq(px(r, 12, 12), P_RED);
    ck_assert_uint_eq(px(r, 17, 12), 0xff0000ffu);
    ck_assert_uint_eq(px(r, 22, 12), 0xff0000ffu);
    ck_assert_uint_eq(px(r, 27, 12), 0);
    rf_renderer_destroy(r);
}
END_TEST

/* ---- paints ---- */

START_TEST(test_mix_color)
{
    /* red -> blue at by = 0.25: (0.75, 0, 0.25). 8-bit: red (0.75 * 65535
     * + 0.5) = 49151 -> 49151 >> 8 = 191; blue (0.25 * 65535 + 0.5) =
     * 16384 -> 64 */
    rf_layer_t L[1] = { rect_at(0, 0, 10, 10, 0) };
    L[0].fill.kind = RF_PAINT_MIX;
    L[0].fill.ends[0] = kcolor(RED);
    L[0].fill.ends[1] = kcolor(0x0000ffffu);
    L[0].fill.by = K(0.25);
    rf_scene_t sc = scene_of(10, 10, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 0, 0, 10, 10, 0xffbf0040u, 0);
    rf_renderer_destroy(r);

    /* by clamps to [0, 1]: #333333 -> #999999 (0.2 -> 0.6) at by = 7 is
     * #999999, not 0.2 + 0.4 * 7 (white once cairo clamps the channel);
     * at by = -2 it is #333333, not black. b / 255 converts back to b. */
    L[0].fill.ends[0] = kcolor(0x333333ffu);
    L[0].fill.ends[1] = kcolor(0x999999ffu);
    L[0].fill.by = K(7);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 10, 10, 0xff999999u, 0);
    rf_renderer_destroy(r);
    L[0].fill.by = K(-2);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 10, 10, 0xff333333u, 0);
    rf_renderer_destroy(r);
    L[0].fill.by = K(NAN); /* NaN counts as 0 */
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 10, 10, 0xff333333u, 0);
    rf_renderer_destroy(r);

    /* alpha mixes too: transparent red -> opaque red at 0.5 is red at
     * alpha 0.5; premultiplied over transparent: a = r = 0x80 */
    L[0].fill.ends[0] = kcolor(0xff000000u);
    L[0].fill.ends[1] = kcolor(RED);
    L[0].fill.by = K(0.5);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 10, 10, 0x80800000u, 0);
    rf_renderer_destroy(r);
}
END_TEST

/* A mix's space, drawn: black -> white at 0.5 is 0.5 in sRGB bytes
 * (128), 0.5 linear light = sRGB 0.73536 (cairo: 0.73536 * 65535 + 0.5 =
 * 48192 -> 188) and OKLab L 0.5 = linear 0.125 = sRGB 0.38857 (25465 ->
 * 99); hand-derived in check_color.c. */
START_TEST(test_mix_spaces)
{
    static const struct { int space; uint32_t want; } cases[] = {
        { RF_SPACE_SRGB, 0xff808080u },
        { RF_SPACE_LINEAR, 0xffbcbcbcu },
        { RF_SPACE_OKLAB, 0xff636363u },
    };
    rf_layer_t L[1] = { rect_at(0, 0, 10, 10, 0) };
    L[0].fill.kind = RF_PAINT_MIX;
    L[0].fill.ends[0] = kcolor(0x000000ffu);
    L[0].fill.ends[1] = kcolor(0xffffffffu);
    L[0].fill.by = K(0.5);
    rf_scene_t sc = scene_of(10, 10, 0, L, 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        L[0].fill.space = (uint8_t)cases[i].space;
        rf_renderer_t *r = draw(&sc, 0);
        assert_block(r, 0, 0, 10, 10, cases[i].want, 0);
        rf_renderer_destroy(r);
    }
    /* the ends are the colors themselves in every space */
    L[0].fill.ends[0] = kcolor(0xff8800ffu);
    L[0].fill.ends[1] = kcolor(0x3366ccffu);
    for (int sp = RF_SPACE_SRGB; sp <= RF_SPACE_OKLAB; sp++) {
        L[0].fill.space = (uint8_t)sp;
        L[0].fill.by = K(0);
        rf_renderer_t *r = draw(&sc, 0);
        assert_block(r, 0, 0, 10, 10, 0xffff8800u, 0);
        rf_renderer_destroy(r);
        L[0].fill.by = K(1);
        r = draw(&sc, 0);
        assert_block(r, 0, 0, 10, 10, 0xff3366ccu, 0);
        rf_renderer_destroy(r);
    }
}
END_TEST

START_TEST(test_premultiplied_colors)
{
    /* #ff000080 over transparent: alpha 128/255 -> 16 bits 32896 -> 128;
     * red premultiplied the same */
    rf_layer_t L[1] = { rect_at(2, 2, 4, 4, 0xff000080u) };
    rf_scene_t sc = scene_of(8, 8, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 2, 2, 6, 6, 0x80800000u, 0);
    rf_renderer_destroy(r);

    /* a half-transparent green background is stored premultiplied */
    sc = scene_of(8, 8, 0x00ff0080u, L, 0);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 0, 0, 0, 0x80008000u);
    rf_renderer_destroy(r);
}
END_TEST

static rf_gradient_stop_t two_stops[2];

static rf_paint_t linear(double x0, double y0, double x1, double y1, uint32_t c0, uint32_t c1)
{
    rf_paint_t p;
    paint_clear(&p);
    p.kind = RF_PAINT_LINEAR;
    p.p0[0] = K(x0);
    p.p0[1] = K(y0);
    p.p1[0] = K(x1);
    p.p1[1] = K(y1);
    two_stops[0].offset = 0;
    two_stops[0].color = kcolor(c0);
    two_stops[1].offset = 1;
    two_stops[1].color = kcolor(c1);
    p.stops = two_stops;
    p.nstops = 2;
    return p;
}

/* A linear red -> blue gradient from 0 to 100 in the rect's own
 * coordinates, the rect's corner at (20, 0): device pixel 20 + k has its
 * center at own x = k + 0.5, so red = 255 (1 - (k + 0.5) / 100). */
static void check_linear_red_blue(rf_renderer_t *r)
{
    for (int k = 0; k < 100; k += 7) {
        double f = (k + 0.5) / 100.0;
        uint32_t p = px(r, 20 + k, 5);
        ck_assert_int_eq(chan(p, 24), 255);
        ck_assert_msg(fabs(chan(p, 16) - 255 * (1 - f)) <= 1, "k %d red %d", k, chan(p, 16));
        ck_assert_int_eq(chan(p, 8), 0);
        ck_assert_msg(fabs(chan(p, 0) - 255 * f) <= 1, "k %d blue %d", k, chan(p, 0));
    }
    /* the midpoint pixels 49, 50: centers at 49.5, 50.5 */
    uint32_t a = px(r, 20 + 49, 5), b = px(r, 20 + 50, 5);
    ck_assert(abs(chan(a, 16) - 128) <= 1 && abs(chan(a, 0) - 127) <= 1);
    ck_assert(abs(chan(b, 16) - 127) <= 1 && abs(chan(b, 0) - 128) <= 1);
}

START_TEST(test_linear_gradient)
{
    rf_layer_t L[1] = { rect_at(20, 0, 100, 10, 0) };
    L[0].fill = linear(0, 0, 100, 0, RED, 0x0000ffffu);
    rf_scene_t sc = scene_of(120, 10, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    check_linear_red_blue(r);
    ck_assert_uint_eq(px(r, 10, 5), 0); /* outside the rect */
    rf_renderer_destroy(r);

    /* animated geometry (built per frame) draws the same gradient */
    rf_anim_spec_t spec;
    rf_anim_spec_defaults(&spec, RF_CURVE_CONST);
    spec.from = 100;
    void *storage = malloc(rf_track_storage_size(1));
    ck_assert_ptr_nonnull(storage);
    rf_value_t v;
    memset(&v, 0, sizeof v);
    v.name = "end";
    v.kind = RF_VALUE_STATIC;
    v.slot = 0;
    v.nout = 1;
    rf_track_build(&v.track, storage, &spec, 1);
    uint32_t order[1] = { 0 };
    sc.values.n = 1;
    sc.values.values = &v;
    sc.values.order = order;
    sc.values.nslots = 1;
    L[0].fill.p1[0] = SL(0);
    r = draw(&sc, 0);
    ck_assert(rf_renderer_slots(r)[0] == 100);
    check_linear_red_blue(r);
    rf_renderer_destroy(r);
    free(storage);
    sc.values.n = 0;
    sc.values.nslots = 0;

    /* pad beyond the ends: from 20 to 80 in own coordinates */
    L[0].fill = linear(20, 0, 80, 0, RED, 0x0000ffffu);
    r = draw(&sc, 0);
    ck_assert_uint_eq(px(r, 20 + 5, 5), P_RED);
    ck_assert_uint_eq(px(r, 20 + 95, 5), 0xff0000ffu);
    rf_renderer_destroy(r);

    /* degenerate (from == to): the last stop's color */
    L[0].fill = linear(10, 0, 10, 0, RED, 0x0000ffffu);
    r = draw(&sc, 0);
    assert_block(r, 20, 0, 120, 10, 0xff0000ffu, 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_radial_gradient)
{
    /* white at the center (50, 50) to black at radius 40, on a rect that
     * covers the canvas */
    rf_layer_t L[1] = { rect_at(0, 0, 100, 100, 0) };
    L[0].fill = linear(0, 0, 0, 0, WHITE, BLACK);
    L[0].fill.kind = RF_PAINT_RADIAL;
    L[0].fill.p0[0] = K(50);
    L[0].fill.p0[1] = K(50);
    L[0].fill.radius = K(40);
    rf_scene_t sc = scene_of(100, 100, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    struct { int x, y; } at[] = { { 50, 50 }, { 49, 49 }, { 70, 50 }, { 50, 20 }, { 75, 75 } };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        double d = hypot(at[i].x + 0.5 - 50, at[i].y + 0.5 - 50);
        double want = 255 * (1 - fmin(d / 40, 1));
        uint32_t p = px(r, at[i].x, at[i].y);
        ck_assert_int_eq(chan(p, 24), 255);
        for (int sh = 0; sh <= 16; sh += 8)
            ck_assert_msg(fabs(chan(p, sh) - want) <= 1, "(%d, %d): %d, want %.2f", at[i].x,
                          at[i].y, chan(p, sh), want);
    }
    /* the center pixel is d = 0.707 from the center: 250.49 */
    ck_assert(abs(chan(px(r, 50, 50), 16) - 250) <= 1);
    /* beyond the radius: padded black */
    ck_assert_uint_eq(px(r, 2, 2), P_BLACK);
    rf_renderer_destroy(r);

    /* radius 0: the last stop */
    L[0].fill.radius = K(0);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 100, 100, P_BLACK, 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_gradient_with_opacity)
{
    /* a gradient fill at opacity 0.5 goes through a group; the clip of the
     * group surface must not cut the shape: every pixel of the rect is
     * drawn, none outside */
    rf_layer_t L[1] = { rect_at(10, 10, 20, 10, 0) };
    L[0].fill = linear(0, 0, 20, 0, WHITE, WHITE);
    L[0].opacity = K(0.5);
    L[0].rotate = K(90);
    rf_scene_t sc = scene_of(40, 40, BLACK, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    /* (u, v) -> (10 - v, 10 + u): [0, 10) x [10, 30) */
    assert_block(r, 0, 10, 10, 30, P_HALF_WHITE, P_BLACK);
    rf_renderer_destroy(r);
}
END_TEST

/* ---- shapes ---- */

START_TEST(test_circle_area)
{
    rf_layer_t L[1] = { base(RF_LAYER_CIRCLE) };
    L[0].x = L[0].y = K(32);
    L[0].u.circle.r = K(20);
    L[0].fill = solid(WHITE);
    rf_scene_t sc = scene_of(64, 64, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    double area = alpha_area(r), want = PI_D * 400;
    ck_assert_msg(fabs(area - want) <= 0.01 * want, "area %.2f want %.2f", area, want);
    ck_assert_uint_eq(px(r, 32, 32), P_WHITE);
    ck_assert_uint_eq(px(r, 32 + 21, 32), 0);
    ck_assert_uint_eq(px(r, 47, 47), 0);       /* cell [47, 48]^2: nearest corner 21.2 away */
    ck_assert_uint_eq(px(r, 45, 45), P_WHITE); /* cell [45, 46]^2: farthest corner 19.8 away */
    rf_renderer_destroy(r);

    /* r 0 draws nothing */
    L[0].u.circle.r = K(0);
    L[0].stroke = solid(WHITE);
    r = draw(&sc, 0);
    ck_assert(alpha_area(r) == 0);
    rf_renderer_destroy(r);
}
END_TEST

/* Filled shapes against their exact coverage (tests/exact-cover.h): an
 * opaque white fill on a transparent canvas leaves each pixel's alpha at
 * its coverage. The fills are FreeType's rasterizer (render.c raster_fill)
 * on the outline's points at 1/64 px with its arcs cut into chords within
 * 1/64 px (render-int.h RF_RASTER_TOL): an edge is displaced by at most
 * 1/64 + sqrt(2) / 128 = 0.0267 px, and an edge crosses a pixel over at
 * most sqrt(2) px, so a pixel's coverage moves by at most 0.0378 of full:
 * 9.6 levels, 10 with the reference rounded. (cairo's fill, which drew
 * these before, samples 15 sub-rows where an edge starts or ends in a
 * row: 8.5 levels there, and its arcs are Beziers within 0.1 px.) Shapes
 * off the pixel grid: a circle, a rotated ellipse, a rotated rounded rect,
 * and a path with a hole by the even-odd rule. */
#define EXACT_N 4096

/* Every pixel of r's 80 x 80 canvas against the nc contours of poly. */
static int exact_compare(rf_renderer_t *r, const xy_t *poly, const int *start, int nc,
                         const char *what)
{
    int worst = 0;
    for (int y = 0; y < 80; y++)
        for (int x = 0; x < 80; x++) {
            int want = exact_level(poly, start, nc, x, y), got = chan(px(r, x, y), 24);
            ck_assert_msg(abs(got - want) <= 10, "%s: pixel %d,%d alpha %d, exact %d", what, x, y,
                          got, want);
            worst = abs(got - want) > worst ? abs(got - want) : worst;
        }
    return worst;
}

START_TEST(test_fill_exact_coverage)
{
    static xy_t poly[EXACT_MAX];
    int start[2], worst = 0;
    rf_layer_t L[1];
    rf_scene_t sc = scene_of(80, 80, 0, L, 1);
    const double rot = 30 * PI_D / 180;

    /* a circle of radius 10.3 centered at (20.25, 20.6) */
    L[0] = base(RF_LAYER_CIRCLE);
    L[0].x = K(20.25);
    L[0].y = K(20.6);
    L[0].u.circle.r = K(10.3);
    L[0].fill = solid(WHITE);
    rf_renderer_t *r = draw(&sc, 0);
    start[0] = 0;
    start[1] = exact_arc(poly, 20.25, 20.6, 10.3, 10.3, 0, 0, 2 * PI_D, 0, EXACT_N);
    int w = exact_compare(r, poly, start, 1, "circle");
    worst = w > worst ? w : worst;
    rf_renderer_destroy(r);

    /* an ellipse 14 x 6 turned 30 degrees, at (55.4, 22.2) */
    L[0] = base(RF_LAYER_ELLIPSE);
    L[0].x = K(55.4);
    L[0].y = K(22.2);
    L[0].rotate = K(30);
    L[0].u.ellipse.rx = K(14);
    L[0].u.ellipse.ry = K(6);
    L[0].fill = solid(WHITE);
    r = draw(&sc, 0);
    start[1] = exact_arc(poly, 55.4, 22.2, 14, 6, rot, 0, 2 * PI_D, 0, EXACT_N);
    w = exact_compare(r, poly, start, 1, "ellipse");
    worst = w > worst ? w : worst;
    rf_renderer_destroy(r);

    /* a 30 x 16 rect with corners of radius 5, turned 30 degrees about its
     * center (25.3, 58.7): the corners' arcs and the sides between */
    L[0] = rect(25.3, 58.7, 30, 16, WHITE);
    L[0].u.rect.radius = K(5);
    L[0].rotate = K(30);
    r = draw(&sc, 0);
    int n = 0;
    /* corner q's arc runs from angle q pi/2 (y down: bottom right first) */
    const double cc[4][2] = { { 10, 3 }, { -10, 3 }, { -10, -3 }, { 10, -3 } };
    for (int q = 0; q < 4; q++) {
        double ux = cc[q][0] * cos(rot) - cc[q][1] * sin(rot) + 25.3;
        double uy = cc[q][0] * sin(rot) + cc[q][1] * cos(rot) + 58.7;
        n += exact_arc(poly + n, ux, uy, 5, 5, rot, q * PI_D / 2, (q + 1) * PI_D / 2, 0,
                       EXACT_N);
    }
    start[1] = n;
    w = exact_compare(r, poly, start, 1, "rounded rect");
    worst = w > worst ? w : worst;
    rf_renderer_destroy(r);

    fprintf(stderr, "filled shapes against exact coverage: max difference %d levels\n", worst);
}
END_TEST

START_TEST(test_ellipse)
{
    rf_layer_t L[1] = { base(RF_LAYER_ELLIPSE) };
    L[0].x = L[0].y = K(32);
    L[0].u.ellipse.rx = K(20);
    L[0].u.ellipse.ry = K(10);
    L[0].fill = solid(WHITE);
    rf_scene_t sc = scene_of(64, 64, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    double area = alpha_area(r), want = PI_D * 200;
    ck_assert_msg(fabs(area - want) <= 0.01 * want, "area %.2f want %.2f", area, want);
    rf_renderer_destroy(r);

    /* a width-2 stroke keeps its width at both ends: at the right end the
     * band is x in [51, 53], at the bottom y in [41, 43]. A stroke built
     * under the scaled matrix would be 40 px wide there and 20 px here.
     * Cell [51, 52] x [31, 32] is inside the band (inner edge <= 51);
     * [52, 53] x [31, 32] loses the sliver where the ellipse curves in
     * (outer edge 52.9 .. 53) and [31, 32] x [42, 43] a thinner one (outer
     * edge 42.99 .. 43); cairo's arcs are Beziers within 0.1 px, so these
     * edge cells are asserted >= 0.9 covered. */
    L[0].fill.kind = RF_PAINT_NONE;
    L[0].stroke = solid(WHITE);
    L[0].stroke_width = K(2);
    r = draw(&sc, 0);
    ck_assert_int_ge(chan(px(r, 51, 31), 24), 250);
    ck_assert_int_ge(chan(px(r, 52, 31), 24), 230);
    ck_assert_uint_eq(px(r, 54, 31), 0);
    ck_assert_uint_eq(px(r, 49, 31), 0);
    ck_assert_int_ge(chan(px(r, 31, 41), 24), 250);
    ck_assert_int_ge(chan(px(r, 31, 42), 24), 230);
    ck_assert_uint_eq(px(r, 31, 44), 0);
    ck_assert_uint_eq(px(r, 31, 39), 0);
    ck_assert_uint_eq(px(r, 32, 32), 0);
    /* band area ~ perimeter * width; Ramanujan's perimeter of (20, 10) */
    double h = (20.0 - 10) * (20 - 10) / ((20.0 + 10) * (20 + 10));
    double per = PI_D * 30 * (1 + 3 * h / (10 + sqrt(4 - 3 * h)));
    area = alpha_area(r);
    ck_assert_msg(fabs(area - 2 * per) <= 0.01 * 2 * per, "band %.2f want %.2f", area, 2 * per);
    rf_renderer_destroy(r);

    /* ry 0 draws nothing (and puts nothing in error) */
    L[0].u.ellipse.ry = K(0);
    r = draw(&sc, 0);
    ck_assert(alpha_area(r) == 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_rect_radius)
{
    /* 20x20 at [10, 30)^2 with corner radius 5: area 400 - (4 - pi) 25 */
    rf_layer_t L[1] = { rect_at(10, 10, 20, 20, WHITE) };
    L[0].u.rect.radius = K(5);
    rf_scene_t sc = scene_of(40, 40, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    double area = alpha_area(r), want = 400 - (4 - PI_D) * 25;
    ck_assert_msg(fabs(area - want) <= 0.01 * want, "area %.2f want %.2f", area, want);
    ck_assert_uint_eq(px(r, 10, 10), 0); /* the corner cell is > 5 from (15, 15) */
    ck_assert_uint_eq(px(r, 29, 29), 0);
    ck_assert_uint_eq(px(r, 20, 10), P_WHITE); /* straight edge */
    ck_assert_uint_eq(px(r, 10, 20), P_WHITE);
    ck_assert_uint_eq(px(r, 20, 20), P_WHITE);
    rf_renderer_destroy(r);

    /* radius clamps to min(w, h) / 2: 20x10 with radius 100 is a stadium,
     * area 10 * 10 + pi 5^2 */
    L[0] = rect_at(10, 10, 20, 10, WHITE);
    L[0].u.rect.radius = K(100);
    r = draw(&sc, 0);
    area = alpha_area(r);
    want = 100 + PI_D * 25;
    ck_assert_msg(fabs(area - want) <= 0.01 * want, "area %.2f want %.2f", area, want);
    ck_assert_uint_eq(px(r, 20, 10), P_WHITE);
    ck_assert_uint_eq(px(r, 20, 19), P_WHITE);
    ck_assert_uint_eq(px(r, 10, 10), 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_line)
{
    /* (2, 10) - (18, 10), width 2, butt caps: x in [2, 18), y in [9, 11) */
    rf_layer_t L[1] = { base(RF_LAYER_LINE) };
    L[0].u.line.x1 = K(2);
    L[0].u.line.y1 = K(10);
    L[0].u.line.x2 = K(18);
    L[0].u.line.y2 = K(10);
    L[0].stroke = solid(WHITE);
    L[0].stroke_width = K(2);
    L[0].fill = solid(RED); /* ignored: lines are stroke only */
    rf_scene_t sc = scene_of(20, 20, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 2, 9, 18, 11, P_WHITE, 0);
    rf_renderer_destroy(r);

    /* x, y translate it (canvas coordinates) */
    L[0].x = K(1);
    L[0].y = K(-3);
    r = draw(&sc, 0);
    assert_block(r, 3, 6, 19, 8, P_WHITE, 0);
    rf_renderer_destroy(r);

    /* rotate 90 about the center (10, 10) of its box: (10, 2) - (10, 18) */
    L[0].x = L[0].y = K(0);
    L[0].rotate = K(90);
    r = draw(&sc, 0);
    assert_block(r, 9, 2, 11, 18, P_WHITE, 0);
    rf_renderer_destroy(r);

    /* a vertical line, width 1 on a half-pixel center */
    L[0] = base(RF_LAYER_LINE);
    L[0].u.line.x1 = K(4.5);
    L[0].u.line.y1 = K(3);
    L[0].u.line.x2 = K(4.5);
    L[0].u.line.y2 = K(15);
    L[0].stroke = solid(RED);
    r = draw(&sc, 0);
    assert_block(r, 4, 3, 5, 15, P_RED, 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_path_trim)
{
    rf_path_t *path = path_of("M 0 5 L 20 5");
    rf_layer_t L[1] = { base(RF_LAYER_PATH) };
    L[0].u.path.src.path = path;
    L[0].u.path.trim0 = K(0);
    L[0].u.path.trim1 = K(0.5);
    L[0].stroke = solid(WHITE);
    L[0].stroke_width = K(2);
    rf_scene_t sc = scene_of(30, 10, 0, L, 1);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 0, 4, 10, 6, P_WHITE, 0);
    rf_renderer_destroy(r);

    L[0].u.path.trim1 = K(1);
    r = draw(&sc, 0);
    assert_block(r, 0, 4, 20, 6, P_WHITE, 0);
    rf_renderer_destroy(r);

    L[0].u.path.trim0 = K(0.25);
    L[0].u.path.trim1 = K(0.75);
    r = draw(&sc, 0);
    assert_block(r, 5, 4, 15, 6, P_WHITE, 0);
    rf_renderer_destroy(r);

    /* start >= end: nothing */
    L[0].u.path.trim0 = K(0.6);
    L[0].u.path.trim1 = K(0.6);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 0, 0, 0, 0);
    rf_renderer_destroy(r);

    /* x translates the canvas-coordinate path */
    L[0].u.path.trim0 = K(0);
    L[0].u.path.trim1 = K(0.5);
    L[0].x = K(5);
    r = draw(&sc, 0);
    assert_block(r, 5, 4, 15, 6, P_WHITE, 0);
    rf_renderer_destroy(r);
    free(path);

    /* a closed path fills: the square "M 2 2 H 8 V 8 H 2 Z" */
    path = path_of("M 2 2 H 8 V 8 H 2 Z");
    L[0] = base(RF_LAYER_PATH);
    L[0].u.path.src.path = path;
    L[0].u.path.trim0 = K(0);
    L[0].u.path.trim1 = K(1);
    L[0].fill = solid(RED);
    r = draw(&sc, 0);
    assert_block(r, 2, 2, 8, 8, P_RED, 0);
    rf_renderer_destroy(r);
    free(path);
}
END_TEST

/* ---- values: follow, orient, animation, clearing ---- */

typedef struct value_set {
    rf_value_t v[2];
    uint32_t order[2];
    void *storage[2];
} value_set_t;

static void value_track(value_set_t *vs, int i, rf_value_kind_t kind, const rf_anim_spec_t *spec,
                        uint32_t slot)
{
    vs->storage[i] = malloc(rf_track_storage_size(1));
    ck_assert_ptr_nonnull(vs->storage[i]);
    memset(&vs->v[i], 0, sizeof vs->v[i]);
    vs->v[i].name = "v";
    vs->v[i].kind = kind;
    vs->v[i].slot = slot;
    vs->v[i].nout = 1;
    rf_track_build(&vs->v[i].track, vs->storage[i], spec, 1);
}

START_TEST(test_follow_orient)
{
    /* slot 0: progress 0.5 (static); slots 1..3: the sample of
     * "M 20 10 L 20 50" there: (20, 30), angle 90 (straight down) */
    rf_path_t *path = path_of("M 20 10 L 20 50");
    value_set_t vs;
    rf_anim_spec_t spec;
    rf_anim_spec_defaults(&spec, RF_CURVE_CONST);
    spec.from = 0.5;
    value_track(&vs, 0, RF_VALUE_STATIC, &spec, 0);
    memset(&vs.v[1], 0, sizeof vs.v[1]);
    vs.v[1].name = "s";
    vs.v[1].kind = RF_VALUE_SAMPLE_PATH;
    vs.v[1].slot = 1;
    vs.v[1].nout = 3;
    vs.v[1].path = path;
    vs.v[1].progress_slot = 0;
    /* the per-output ranges the loader publishes (evaluation clamps to them) */
    rf_path_bounds(path, &vs.v[1].out[0].lo, &vs.v[1].out[1].lo, &vs.v[1].out[0].hi,
                   &vs.v[1].out[1].hi);
    vs.v[1].out[2].lo = -180;
    vs.v[1].out[2].hi = 180;
    vs.storage[1] = NULL;
    vs.order[0] = 0;
    vs.order[1] = 1;

    rf_layer_t L[1] = { rect(0, 0, 20, 10, RED) };
    L[0].follow_slot = 1;
    L[0].orient = 1;
    rf_scene_t sc = scene_of(40, 60, 0, L, 1);
    sc.values.n = 2;
    sc.values.values = vs.v;
    sc.values.order = vs.order;
    sc.values.nslots = 4;
    rf_renderer_t *r = draw(&sc, 0);
    const double *slots = rf_renderer_slots(r);
    ck_assert(slots[0] == 0.5);
    ck_assert(fabs(slots[1] - 20) < 1e-9 && fabs(slots[2] - 30) < 1e-9);
    ck_assert(fabs(slots[3] - 90) < 1e-9);
    /* centered on (20, 30), turned 90: [15, 25) x [20, 40) */
    assert_block(r, 15, 20, 25, 40, P_RED, 0);
    rf_renderer_destroy(r);

    /* without orient: not turned, [10, 30) x [25, 35) */
    L[0].orient = 0;
    r = draw(&sc, 0);
    assert_block(r, 10, 25, 30, 35, P_RED, 0);
    rf_renderer_destroy(r);

    /* x, y add to the sample; rotate adds to the angle */
    L[0].orient = 1;
    L[0].x = K(3);
    L[0].y = K(-4);
    L[0].rotate = K(-90);
    r = draw(&sc, 0);
    assert_block(r, 13, 21, 33, 31, P_RED, 0);
    rf_renderer_destroy(r);

    free(vs.storage[0]);
    free(path);
}
END_TEST

START_TEST(test_animated_clear_each_frame)
{
    /* x: a linear tween 10 -> 30 over 1 s; a 10x10 rect centered at
     * (x, 10) on black. One renderer draws t = 0, 1, 0.5: each frame shows
     * exactly one block, nothing left of the previous one. */
    value_set_t vs;
    rf_anim_spec_t spec;
    rf_anim_spec_defaults(&spec, RF_CURVE_EASED);
    spec.from = 10;
    spec.to = 30;
    spec.duration = 1;
    value_track(&vs, 0, RF_VALUE_TWEEN, &spec, 0);
    vs.order[0] = 0;
    rf_layer_t L[1] = { rect(0, 10, 10, 10, RED) };
    L[0].x = SL(0);
    rf_scene_t sc = scene_of(40, 20, BLACK, L, 1);
    sc.values.n = 1;
    sc.values.values = vs.v;
    sc.values.order = vs.order;
    sc.values.nslots = 1;

    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 5, 5, 15, 15, P_RED, P_BLACK);
    ck_assert_int_eq(rf_renderer_draw(r, 1), 0);
    ck_assert(rf_renderer_slots(r)[0] == 30);
    assert_block(r, 25, 5, 35, 15, P_RED, P_BLACK);
    ck_assert_int_eq(rf_renderer_draw(r, 0.5), 0);
    assert_block(r, 15, 5, 25, 15, P_RED, P_BLACK);
    rf_renderer_destroy(r);

    /* a transparent background clears to 0 each frame too */
    sc.background = 0;
    r = draw(&sc, 0);
    ck_assert_int_eq(rf_renderer_draw(r, 1), 0);
    assert_block(r, 25, 5, 35, 15, P_RED, 0);
    rf_renderer_destroy(r);
    free(vs.storage[0]);
}
END_TEST

/* ---- degenerate input and errors ---- */

START_TEST(test_degenerate_skipped)
{
    /* scale 0 (singular), NaN position, infinite size: not drawn, no cairo
     * error, later layers still drawn; a group scaled to 0 hides its
     * children */
    rf_layer_t kid[1] = { rect_at(0, 0, 5, 5, RED) };
    rf_layer_t L[5] = { rect(10, 10, 10, 10, RED), rect(10, 10, 10, 10, RED),
                        rect(10, 10, 10, 10, RED), group(kid, 1), rect_at(30, 30, 2, 2, RED) };
    L[0].scale_x = K(0);
    L[1].x = K(NAN);
    L[2].u.rect.width = K(INFINITY);
    L[3].scale_y = K(0);
    L[3].x = L[3].y = K(10);
    rf_scene_t sc = scene_of(40, 40, 0, L, 5);
    rf_renderer_t *r = draw(&sc, 0);
    assert_block(r, 30, 30, 32, 32, P_RED, 0);
    ck_assert_int_eq(rf_renderer_draw(r, 0), 0);
    rf_renderer_destroy(r);

    /* zero and negative sizes, zero and NaN stroke widths: nothing */
    rf_layer_t Z[3] = { rect(10, 10, 0, 10, RED), rect(10, 10, -5, 10, RED),
                        rect_at(20, 20, 10, 10, 0) };
    Z[2].stroke = solid(WHITE);
    Z[2].stroke_width = K(NAN);
    sc = scene_of(40, 40, 0, Z, 3);
    r = draw(&sc, 0);
    ck_assert(alpha_area(r) == 0);
    rf_renderer_destroy(r);
}
END_TEST

START_TEST(test_create_errors)
{
    char err[256] = "";
    rf_scene_t sc = scene_of(-1, 10, 0, NULL, 0);
    rf_renderer_t *r = rf_renderer_create(&sc, err, sizeof err);
    ck_assert_ptr_null(r);
    ck_assert_msg(strstr(err, cairo_status_to_string(CAIRO_STATUS_INVALID_SIZE)) != NULL, "%s",
                  err);
    ck_assert_msg(strncmp(err, "canvas -1x10: ", 14) == 0, "%s", err);
    rf_renderer_destroy(NULL);

    /* no layers: the background alone */
    sc = scene_of(3, 2, 0x102030ffu, NULL, 0);
    r = draw(&sc, 0);
    assert_block(r, 0, 0, 0, 0, 0, 0xff102030u);
    ck_assert_int_eq(cairo_image_surface_get_format(rf_renderer_surface(r)), CAIRO_FORMAT_ARGB32);
    rf_renderer_destroy(r);
}
END_TEST

/* ---- the static prefix (render.h): kept once, byte-identical ---- */

#define PREFIX_HEAD "{\"runeframe\": 1, \"canvas\": {\"width\": 96, \"height\": 64, " \
    "\"background\": \"#102030\"}, \"timeline\": {\"fps\": 10, \"duration\": 3}, " \
    "\"values\": {\"x\": {\"tween\": {\"from\": 0, \"to\": 90, \"duration\": 3}}, " \
    "\"w\": {\"tween\": {\"from\": 10, \"to\": 60, \"duration\": 2}}, " \
    "\"cx\": {\"tween\": {\"from\": 20, \"to\": 60, \"duration\": 3}}}, \"layers\": ["
#define BACKDROP "{\"type\": \"rect\", \"x\": 48, \"y\": 32, \"width\": 96, \"height\": 64, " \
    "\"fill\": {\"linear\": {\"from\": [0, 0], \"to\": [96, 64], " \
    "\"stops\": [[0, \"#0b1020\"], [1, \"#ff8040\"]]}}}"

/* Draws the same times in a scrambled order with one renderer (which keeps
 * the prefix) and with a fresh renderer per frame (whose first draw always
 * draws everything): every frame must be the same bytes. Returns how many
 * draws of the kept renderer reused the prefix. */
static int prefix_check(const char *json)
{
    static const double times[] = { 0.3, 0, 1.7, 0.9, 0.3, 2.5, 3, 1.2 };
    rf_diag_t *dg = malloc(sizeof *dg);
    ck_assert_ptr_nonnull(dg);
    rf_diag_init(dg, "p.json");
    rf_scene_t *sc = rf_scene_load_buffer("p.json", json, strlen(json), dg);
    if (!sc)
        for (int i = 0; i < dg->count; i++)
            fprintf(stderr, "unexpected: %s\n", dg->msg[i]);
    ck_assert_ptr_nonnull(sc);
    rf_renderer_t *kept = rf_renderer_create(sc, NULL, 0);
    ck_assert_ptr_nonnull(kept);
    int reused = 0;
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        rf_renderer_t *fresh = rf_renderer_create(sc, NULL, 0);
        ck_assert_ptr_nonnull(fresh);
        ck_assert_int_eq(rf_renderer_draw(kept, times[i]), 0);
        ck_assert_int_eq(rf_renderer_draw(fresh, times[i]), 0);
        ck_assert_int_eq(rf_renderer_reused_prefix(fresh), 0);
        reused += rf_renderer_reused_prefix(kept);
        int sa, sb;
        const unsigned char *a = rf_renderer_pixels(kept, &sa), *b = rf_renderer_pixels(fresh, &sb);
        ck_assert_int_eq(sa, sb);
        ck_assert_msg(memcmp(a, b, (size_t)sa * 64) == 0, "frame at t=%g differs", times[i]);
        rf_renderer_destroy(fresh);
    }
    rf_renderer_destroy(kept);
    rf_scene_destroy(sc);
    free(dg);
    return reused;
}

START_TEST(test_static_prefix_top_level)
{
    /* a gradient backdrop, then animated shapes over it, one translucent */
    int n = prefix_check(PREFIX_HEAD BACKDROP ", "
        "{\"type\": \"circle\", \"x\": \"x\", \"y\": 30, \"r\": 12, \"fill\": \"#ffb000\", "
        "\"stroke\": \"#ffffff\", \"stroke_width\": 2}, "
        "{\"type\": \"group\", \"x\": 20, \"y\": 40, \"opacity\": 0.5, \"rotate\": \"x\", \"children\": ["
        "{\"type\": \"rect\", \"width\": \"w\", \"height\": 8, \"radius\": 3, \"fill\": \"#7bdff2\"}]}]}");
    ck_assert_int_eq(n, 6);   /* every draw after the second (render.h) */
}
END_TEST

START_TEST(test_static_prefix_every_layer)
{
    int n = prefix_check(PREFIX_HEAD BACKDROP ", "
        "{\"type\": \"circle\", \"x\": 30, \"y\": 30, \"r\": 12, \"fill\": \"#ffb000\"}]}");
    ck_assert_int_eq(n, 6);
}
END_TEST

START_TEST(test_static_prefix_in_groups)
{
    /* the prefix ends two groups deep; anchor [0, 0] and a constant box
     * (the backdrop is the widest child) keep the groups' matrices */
    int n = prefix_check(PREFIX_HEAD
        "{\"type\": \"group\", \"x\": 0, \"y\": 0, \"anchor\": [0, 0], \"children\": [" BACKDROP ", "
        "{\"type\": \"group\", \"x\": 10, \"y\": 5, \"scale\": 0.5, \"anchor\": [0, 0], \"children\": ["
        "{\"type\": \"rect\", \"x\": 40, \"y\": 40, \"width\": 80, \"height\": 50, \"fill\": \"#203040\"}, "
        "{\"type\": \"circle\", \"x\": \"cx\", \"y\": 20, \"r\": 10, \"fill\": \"#ff3860\"}]}, "
        "{\"type\": \"line\", \"x1\": 0, \"y1\": 60, \"x2\": \"x\", \"y2\": 60, \"stroke\": \"#ffffff\", "
        "\"stroke_width\": 2}]}, "
        "{\"type\": \"rect\", \"x\": \"x\", \"y\": 10, \"width\": 8, \"height\": 8, \"fill\": \"#c3f584\"}]}");
    ck_assert_int_eq(n, 6);
}
END_TEST

START_TEST(test_static_prefix_moving_group)
{
    /* the group's box grows with its animated child, but its pivot is the
     * box's center at t = 0 and its own keys are constant: its matrix is
     * the same at every time, so the kept pixels serve every later draw */
    int n = prefix_check(PREFIX_HEAD
        "{\"type\": \"group\", \"x\": 48, \"y\": 32, \"rotate\": 5, \"children\": [" BACKDROP ", "
        "{\"type\": \"rect\", \"x\": 0, \"y\": 0, \"width\": \"w\", \"height\": \"w\", \"fill\": \"#ff3860\"}]}]}");
    ck_assert_int_eq(n, 6);
}
END_TEST

START_TEST(test_static_prefix_not_worth_it)
{
    /* a static prefix covering under a quarter of the canvas is redrawn;
     * a static layer after an animated one is not a prefix */
    ck_assert_int_eq(prefix_check(PREFIX_HEAD
        "{\"type\": \"rect\", \"x\": 10, \"y\": 10, \"width\": 40, \"height\": 30, \"fill\": \"#ffffff\"}, "
        "{\"type\": \"circle\", \"x\": \"x\", \"y\": 30, \"r\": 12, \"fill\": \"#ffb000\"}]}"), 0);
    ck_assert_int_eq(prefix_check(PREFIX_HEAD
        "{\"type\": \"circle\", \"x\": \"x\", \"y\": 30, \"r\": 12, \"fill\": \"#ffb000\"}, " BACKDROP "]}"), 0);
}
END_TEST

static Suite *render_suite(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("place");
    tcase_add_test(tc, test_rect_exact_pixels);
    tcase_add_test(tc, test_fill_exact_coverage);
    tcase_add_test(tc, test_anchor);
    tcase_add_test(tc, test_rotate_around_anchor);
    tcase_add_test(tc, test_scale);
    tcase_add_test(tc, test_stroke_scales);
    tcase_add_test(tc, test_layer_order);
    suite_add_tcase(s, tc);

    tc = tcase_create("opacity");
    tcase_add_test(tc, test_opacity_blend);
    tcase_add_test(tc, test_opacity_fill_stroke_once);
    tcase_add_test(tc, test_group_opacity_once);
    suite_add_tcase(s, tc);

    tc = tcase_create("group");
    tcase_add_test(tc, test_group_transform);
    suite_add_tcase(s, tc);

    tc = tcase_create("paint");
    tcase_add_test(tc, test_mix_color);
    tcase_add_test(tc, test_mix_spaces);
    tcase_add_test(tc, test_premultiplied_colors);
    tcase_add_test(tc, test_linear_gradient);
    tcase_add_test(tc, test_radial_gradient);
    tcase_add_test(tc, test_gradient_with_opacity);
    suite_add_tcase(s, tc);

    tc = tcase_create("shape");
    tcase_add_test(tc, test_circle_area);
    tcase_add_test(tc, test_ellipse);
    tcase_add_test(tc, test_rect_radius);
    tcase_add_test(tc, test_line);
    tcase_add_test(tc, test_path_trim);
    suite_add_tcase(s, tc);

    tc = tcase_create("values");
    tcase_add_test(tc, test_follow_orient);
    tcase_add_test(tc, test_animated_clear_each_frame);
    suite_add_tcase(s, tc);

    tc = tcase_create("prefix");
    tcase_add_test(tc, test_static_prefix_top_level);
    tcase_add_test(tc, test_static_prefix_every_layer);
    tcase_add_test(tc, test_static_prefix_in_groups);
    tcase_add_test(tc, test_static_prefix_moving_group);
    tcase_add_test(tc, test_static_prefix_not_worth_it);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_test(tc, test_degenerate_skipped);
    tcase_add_test(tc, test_create_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(render_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
