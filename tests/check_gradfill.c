/* check_gradfill.c - gradfill.h against cairo itself: random linear
 * gradients (end points, 1 to 6 stops in any order with repeated and
 * out-of-range offsets, straight colors of any value, not only 8-bit ones)
 * under random axis-keeping matrices (scales from 1/4 to 4, unequal in x
 * and y, translations), filled by cairo_fill() of a whole-pixel rectangle
 * and by rf_gradfill_linear() of its box, on canvases from 1 x N to 1080p:
 * every byte of the canvas the same, and most cases painted (a test that
 * always refused would pass otherwise). Then the renderer: scenes drawn
 * with the fill and with RF_GRADFILL_OFF=1 (cairo paints every gradient),
 * the same bytes, the fill used where it should be and not where it
 * should not. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gradfill.h"
#include "render.h"
#include "scenetest.h"

static uint64_t rs;
/* The fills' second thread: NULL, or a helper in the "two threads" cases
 * (their fixture makes it). */
static rf_helper_t *helper;

static void helper_setup(void)
{
    helper = rf_helper_create();
    ck_assert_ptr_nonnull(helper);
}

static void helper_teardown(void)
{
    rf_helper_destroy(helper);
    helper = NULL;
}

/* In a "two threads" case: the helper took a share (a box was large
 * enough). */
static void helper_was_used(void)
{
    if (helper != NULL)
        ck_assert_msg(rf_helper_jobs(helper) > 0, "no fill shared its rows with the helper");
}

static double U(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (double)(rs >> 11) * (1.0 / 9007199254740992.0);
}

/* One random case on a w x h canvas: 1 when both painted the same bytes,
 * 0 when they differ; *painted is 1 when gradfill painted (else it
 * refused, and the canvas must be untouched). */
static int one_case(uint32_t *a, uint32_t *b, int w, int h, int *painted, char *why, size_t n)
{
    static const double scales[] = { 0.25, 0.5, 0.75, 1, 1, 1, 1.25, 1.5, 2, 3, 4 };
    double sx = scales[(int)(U() * 11)], sy = U() < 0.5 ? sx : scales[(int)(U() * 11)];
    double tx = floor(U() * w * 0.7 - w * 0.1), ty = floor(U() * h * 0.7 - h * 0.1);
    double uw = (1 + floor(U() * w * 1.1)) / sx, uh = (1 + floor(U() * h * 1.1)) / sy;
    cairo_matrix_t m = { sx, 0, 0, sy, tx, ty };
    double p[4], range = U() < 0.3 ? 5000 : 300;
    for (int k = 0; k < 4; k++)
        p[k] = (U() - 0.3) * range;
    if (U() < 0.15)
        p[3] = p[1]; /* across */
    if (U() < 0.15)
        p[2] = p[0]; /* down */
    int ns = 2 + (int)(U() * 5);
    rf_gradfill_stop_t st[8];
    for (int k = 0; k < ns; k++) {
        st[k].offset = U() < 0.15 ? (U() < 0.5 ? 0 : 1) : U() * 1.2 - 0.1;
        st[k].r = U() < 0.3 ? floor(U() * 256) / 255 : U();
        st[k].g = U() * 1.1 - 0.05;
        st[k].b = U();
        st[k].a = 1;
    }
    uint32_t bg = 0xff000000u | (uint32_t)(U() * 0xffffff);
    for (int i = 0; i < w * h; i++)
        a[i] = b[i] = bg;
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)a,
                                                             CAIRO_FORMAT_ARGB32, w, h, w * 4);
    cairo_t *cr = cairo_create(s);
    cairo_set_matrix(cr, &m);
    cairo_rectangle(cr, 0, 0, uw, uh);
    cairo_pattern_t *pat = cairo_pattern_create_linear(p[0], p[1], p[2], p[3]);
    for (int k = 0; k < ns; k++)
        cairo_pattern_add_color_stop_rgba(pat, st[k].offset, st[k].r, st[k].g, st[k].b, 1);
    cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
    cairo_set_source(cr, pat);
    cairo_matrix_t inv;
    rf_gradfill_inverse(cr, &inv);
    double x0 = tx, x1 = tx + sx * uw, y0 = ty, y1 = ty + sy * uh;
    cairo_fill(cr);
    ck_assert_int_eq(cairo_status(cr), CAIRO_STATUS_SUCCESS);
    cairo_pattern_destroy(pat);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_surface_destroy(s);
    *painted = 0;
    if (x1 != floor(x1) || y1 != floor(y1))
        return 1; /* not whole pixels: not a case for gradfill */
    int box[4] = { x0 < 0 ? 0 : (int)x0, y0 < 0 ? 0 : (int)y0, x1 > w ? w : (int)x1,
                   y1 > h ? h : (int)y1 };
    if (box[0] >= box[2] || box[1] >= box[3])
        return 1;
    *painted = rf_gradfill_linear((unsigned char *)b, w * 4, w, h, box, &inv, p[0], p[1], p[2],
                                  p[3], st, ns, helper);
    if (!*painted) { /* refused: untouched */
        for (int i = 0; i < w * h; i++)
            if (b[i] != bg)
                return 0;
        return 1;
    }
    for (int i = 0; i < w * h; i++)
        if (a[i] != b[i]) {
            snprintf(why, n, "(%d, %d): cairo %08x, gradfill %08x; m %g %g %g %g, p %g %g %g %g, "
                     "%d stops", i % w, i / w, a[i], b[i], sx, sy, tx, ty, p[0], p[1], p[2], p[3],
                     ns);
            return 0;
        }
    return 1;
}

static const int sizes[][3] = { /* width, height, cases */
    { 97, 61, 6000 }, { 5, 3, 3000 }, { 1, 700, 1500 }, { 700, 1, 1500 }, { 1920, 1080, 60 },
};

START_TEST(test_random_against_cairo)
{
    int w = sizes[_i][0], h = sizes[_i][1], cases = sizes[_i][2];
    rs = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
    uint32_t *a = malloc((size_t)w * (size_t)h * 4), *b = malloc((size_t)w * (size_t)h * 4);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    int bad = 0, painted = 0, eligible = 0;
    char why[256] = "";
    for (int c = 0; c < cases; c++) {
        int pt;
        if (!one_case(a, b, w, h, &pt, why, sizeof why))
            bad++;
        painted += pt;
        eligible++;
    }
    ck_assert_msg(bad == 0, "%dx%d: %d of %d cases differ; first: %s", w, h, bad, cases, why);
    /* non-whole boxes and boxes off the canvas are about a third */
    ck_assert_msg(painted * 2 > eligible, "%dx%d: only %d of %d painted", w, h, painted, eligible);
    helper_was_used();
    free(a);
    free(b);
}
END_TEST

/* What cairo paints otherwise is not repeated: refused, nothing written. */
START_TEST(test_refuses)
{
    uint32_t px[16 * 8];
    for (int i = 0; i < 16 * 8; i++)
        px[i] = 0xff123456u;
    int box[4] = { 2, 1, 14, 7 };
    cairo_matrix_t id;
    cairo_matrix_init_identity(&id);
    const rf_gradfill_stop_t one[1] = { { 0.5, 1, 0, 0, 1 } };
    const rf_gradfill_stop_t same[3] = { { 0, 0.2, 0.4, 0.6, 1 }, { 0.5, 0.2, 0.4, 0.6, 1 },
                                         { 1, 0.2, 0.4, 0.6, 1 } };
    const rf_gradfill_stop_t two[2] = { { 0, 1, 0, 0, 1 }, { 1, 0, 0, 1, 1 } };
    unsigned char *d = (unsigned char *)px;
    /* one stop, or stops of one color: cairo paints a solid color */
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, box, &id, 0, 0, 16, 0, one, 1, NULL), 0);
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, box, &id, 0, 0, 16, 0, same, 3, NULL), 0);
    /* ends within DBL_EPSILON: cairo's average color */
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, box, &id, 3, 3, 3, 3 + 1e-17, two, 2, NULL), 0);
    /* beyond pixman's range: cairo rescales the gradient */
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, box, &id, 0, 0, 20000, 0, two, 2, NULL), 0);
    /* a box outside the image, or empty; no stops */
    int out[4] = { 10, 2, 17, 5 }, empty[4] = { 4, 4, 4, 6 };
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, out, &id, 0, 0, 16, 0, two, 2, NULL), 0);
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, empty, &id, 0, 0, 16, 0, two, 2, NULL), 0);
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, box, &id, 0, 0, 16, 0, two, 0, NULL), 0);
    for (int i = 0; i < 16 * 8; i++)
        ck_assert_uint_eq(px[i], 0xff123456u);
    /* and the two-stop gradient itself is painted, only inside the box */
    ck_assert_int_eq(rf_gradfill_linear(d, 64, 16, 8, box, &id, 0, 0, 16, 0, two, 2, NULL), 1);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) {
            int in = x >= 2 && x < 14 && y >= 1 && y < 7;
            ck_assert_int_eq(px[y * 16 + x] != 0xff123456u, in);
        }
    /* by hand: pixel 8's center is at 8.5 of 16, t = 0.53125: red
     * 255 * 0.46875 = 119.53 -> 120, blue 255 * 0.53125 = 135.47 -> 135 */
    ck_assert_uint_eq(px[1 * 16 + 8], 0xff780087u);
}
END_TEST

/* The probe agrees with cairo on this machine (when it does not, the
 * renderer quietly uses cairo; here that would be a failure). */
START_TEST(test_usable)
{
    ck_assert_int_eq(rf_gradfill_usable(), 1);
}
END_TEST

/* ---- radial gradients through a mask ---- */

/* A premultiplied pixel of any alpha. */
static uint32_t random_pixel(void)
{
    uint32_t a = U() < 0.5 ? 255 : (uint32_t)(U() * 256);
    uint32_t r = (uint32_t)(U() * (a + 1)), g = (uint32_t)(U() * (a + 1)), b = (uint32_t)(U() * (a + 1));
    return a << 24 | r << 16 | g << 8 | b;
}

/* One random case: a radial gradient (kind 0; 1: a linear one; 2: a
 * solid color, cairo_set_source_rgba of any values) under a random
 * matrix (translation in fractions of a pixel, scales, turns, shears),
 * stops of any alpha, through a random coverage mask placed anywhere (in
 * part off the canvas) and a whole-pixel clip, by cairo_mask_surface() and
 * by rf_gradfill_radial() (rf_gradfill_linear_mask()). 1 when both wrote
 * the same bytes (or it refused and wrote nothing). */
static int mask_case(int kind, uint32_t *a, uint32_t *b, uint8_t *cov, int w, int h,
                     int *painted, char *why, size_t n)
{
    int linear = kind == 1, solid = kind == 2;
    double k = 0.25 + U() * 3, turn = U() < 0.4 ? 0 : U() * 6.3, shear = U() < 0.8 ? 0 : U() - 0.5;
    double sx = k * (U() < 0.7 ? 1 : 0.5 + U()), sy = k;
    cairo_matrix_t m = { sx * cos(turn), sx * sin(turn), -sy * sin(turn) + shear, sy * cos(turn),
                         U() * w, U() * h };
    if (U() < 0.2) {
        m.x0 = floor(m.x0);
        m.y0 = floor(m.y0);
    }
    if (U() < 0.15) { /* a translation within 1/512 of whole pixels: cairo's NEAREST */
        m = (cairo_matrix_t){ 1, 0, 0, 1, floor(m.x0) + (U() - 0.5) / 256,
                              floor(m.y0) + (U() < 0.5 ? 0 : (U() - 0.5) / 256) };
    }
    double cx = (U() - 0.5) * 60, cy = (U() - 0.5) * 60, rad = 1 + U() * (U() < 0.2 ? 400 : 40);
    double p[4];
    for (int j = 0; j < 4; j++)
        p[j] = (U() - 0.5) * (U() < 0.3 ? 600 : 80);
    if (U() < 0.15)
        p[3] = p[1]; /* across */
    if (U() < 0.05) {
        rad = 20000; /* beyond pixman's range: refused */
        p[2] = 17000;
    }
    int ns = 1 + (int)(U() * 6);
    rf_gradfill_stop_t st[8];
    for (int i = 0; i < ns; i++) {
        st[i].offset = U() < 0.15 ? (U() < 0.5 ? 0 : 1) : U() * 1.2 - 0.1;
        st[i].r = U() < 0.3 ? floor(U() * 256) / 255 : U();
        st[i].g = U() * 1.1 - 0.05;
        st[i].b = U();
        st[i].a = U() < 0.3 ? (U() < 0.5 ? 0 : 1) : U();
        if (U() < 0.2) /* a few 255ths: premultiplied channels that rise, then fall */
            st[i].a = U() * 0.03;
    }
    int mw = 1 + (int)(U() * w), mh = 1 + (int)(U() * h);
    int mx = (int)floor(U() * (w + 8)) - 4 - mw / 4, my = (int)floor(U() * (h + 8)) - 4 - mh / 4;
    int ms_stride = (mw + 3) & ~3; /* cairo's A8 rows: 4-byte multiples */
    double dens = U();
    for (int i = 0; i < ms_stride * mh; i++) {
        double u = U();
        cov[i] = u < dens * 0.5 ? 0 : u > 1 - dens * 0.4 ? 255 : (uint8_t)(U() * 256);
    }
    int clip[4] = { 0, 0, w, h };
    if (U() < 0.3) {
        clip[0] = (int)(U() * w);
        clip[1] = (int)(U() * h);
        clip[2] = clip[0] + 1 + (int)(U() * (w - clip[0]));
        clip[3] = clip[1] + 1 + (int)(U() * (h - clip[1]));
    }
    for (int i = 0; i < w * h; i++)
        a[i] = b[i] = random_pixel();
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)a,
                                                             CAIRO_FORMAT_ARGB32, w, h, w * 4);
    cairo_surface_t *ms = cairo_image_surface_create_for_data(cov, CAIRO_FORMAT_A8, mw, mh,
                                                              ms_stride);
    cairo_t *cr = cairo_create(s);
    cairo_rectangle(cr, clip[0], clip[1], clip[2] - clip[0], clip[3] - clip[1]);
    cairo_clip(cr);
    cairo_set_matrix(cr, &m);
    cairo_pattern_t *pat = linear ? cairo_pattern_create_linear(p[0], p[1], p[2], p[3])
                                  : cairo_pattern_create_radial(cx, cy, 0, cx, cy, rad);
    for (int i = 0; i < ns; i++)
        cairo_pattern_add_color_stop_rgba(pat, st[i].offset, st[i].r, st[i].g, st[i].b, st[i].a);
    cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
    /* a solid: the first stop's color, values out of range too */
    const double sc[4] = { st[0].r, st[0].g * 1.2 - 0.1, st[0].b, st[0].a * 1.1 };
    if (solid)
        cairo_set_source_rgba(cr, sc[0], sc[1], sc[2], sc[3]);
    else
        cairo_set_source(cr, pat);
    cairo_matrix_t inv;
    rf_gradfill_inverse(cr, &inv);
    cairo_identity_matrix(cr);
    cairo_mask_surface(cr, ms, mx, my);
    ck_assert_int_eq(cairo_status(cr), CAIRO_STATUS_SUCCESS);
    cairo_pattern_destroy(pat);
    cairo_destroy(cr);
    cairo_surface_finish(ms);
    cairo_surface_destroy(ms);
    cairo_surface_finish(s);
    cairo_surface_destroy(s);
    uint32_t *keep = malloc((size_t)w * (size_t)h * 4);
    ck_assert_ptr_nonnull(keep);
    memcpy(keep, b, (size_t)w * (size_t)h * 4);
    const rf_gradfill_mask_t mk = { cov, ms_stride, mx, my, mw, mh, helper };
    unsigned char *d = (unsigned char *)b;
    if (solid) {
        rf_gradfill_solid_mask(d, w * 4, w, h, clip, sc, &mk);
        *painted = 1;
    } else {
        *painted = linear ? rf_gradfill_linear_mask(d, w * 4, w, h, clip, &inv, p[0], p[1], p[2],
                                                    p[3], st, ns, &mk)
                          : rf_gradfill_radial(d, w * 4, w, h, clip, &inv, cx, cy, rad, st, ns, &mk);
    }
    int ok = 1;
    if (!*painted) {
        ok = memcmp(keep, b, (size_t)w * (size_t)h * 4) == 0;
        if (!ok)
            snprintf(why, n, "refused, but wrote");
    } else {
        for (int i = 0; i < w * h && ok; i++)
            if (a[i] != b[i]) {
                snprintf(why, n, "(%d, %d): cairo %08x, ours %08x (was %08x); m %g %g %g %g %g %g, "
                         "%s c %g %g r %g p %g %g %g %g, %d stops, mask %dx%d at %d,%d", i % w,
                         i / w, a[i], b[i], keep[i], m.xx, m.yx, m.xy, m.yy, m.x0, m.y0,
                         solid ? "solid" : linear ? "linear" : "radial", cx, cy, rad, p[0], p[1], p[2], p[3], ns, mw,
                         mh, mx, my);
                ok = 0;
            }
    }
    free(keep);
    return ok;
}

static const int mask_sizes[][3] = { /* width, height, cases; radial, linear, solid */
    { 67, 45, 4000 }, { 3, 5, 2000 }, { 1, 90, 1000 }, { 130, 1, 1000 }, { 640, 360, 40 },
};
#define MASK_SIZES ((int)(sizeof mask_sizes / sizeof mask_sizes[0]))

/* Each case three times: composited eight pixels at a time (AVX2, where
 * the CPU has it), four (SSE2) and one (RF_GRADFILL_SCALAR). */
static const char *const widths[] = { "0", "sse2", "1" };

START_TEST(test_mask_random_against_cairo)
{
    int kind = _i / MASK_SIZES % 3, z = _i % MASK_SIZES;
    setenv("RF_GRADFILL_SCALAR", widths[_i / (3 * MASK_SIZES)], 1);
    int w = mask_sizes[z][0], h = mask_sizes[z][1], cases = mask_sizes[z][2];
    rs = 0x243f6a8885a308d3ull + (uint64_t)_i;
    uint32_t *a = malloc((size_t)w * (size_t)h * 4), *b = malloc((size_t)w * (size_t)h * 4);
    uint8_t *cov = malloc((size_t)(w + 3) * (size_t)h);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(cov);
    int bad = 0, painted = 0;
    char why[320] = "";
    for (int c = 0; c < cases; c++) {
        int pt;
        if (!mask_case(kind, a, b, cov, w, h, &pt, bad ? NULL : why, bad ? 0 : sizeof why))
            bad++;
        painted += pt;
    }
    ck_assert_msg(bad == 0, "%dx%d, RF_GRADFILL_SCALAR=%s: %d of %d cases differ; first: %s", w,
                  h, widths[_i / (3 * MASK_SIZES)], bad, cases, why);
    unsetenv("RF_GRADFILL_SCALAR");
    /* the refusals: gradients beyond pixman's range, 1 in 20; a linear
     * gradient of one stop (1 in 6), which cairo paints as a solid */
    ck_assert_msg(painted * 10 > cases * (kind == 1 ? 7 : 8), "%dx%d: only %d of %d painted", w,
                  h, painted, cases);
    helper_was_used();
    free(a);
    free(b);
    free(cov);
}
END_TEST

/* Refused (0, nothing written) where cairo does something else; painted
 * with nothing written where cairo paints nothing. */
START_TEST(test_radial_refuses)
{
    uint32_t px[16 * 8];
    uint8_t cov[16 * 8];
    memset(cov, 255, sizeof cov);
    for (int i = 0; i < 16 * 8; i++)
        px[i] = 0xff123456u;
    const int clip[4] = { 0, 0, 16, 8 };
    cairo_matrix_t id;
    cairo_matrix_init_identity(&id);
    const rf_gradfill_stop_t two[2] = { { 0, 1, 0, 0, 1 }, { 1, 0, 0, 1, 0.5 } };
    const rf_gradfill_stop_t clear[2] = { { 0, 1, 0, 0, 0 }, { 1, 0, 0, 1, 0.003 } };
    const rf_gradfill_mask_t all = { cov, 16, 0, 0, 16, 8, NULL }, off = { cov, 16, 16, 0, 16, 8, NULL };
    unsigned char *d = (unsigned char *)px;
    /* a radius under 1/256, a center that is not a number or beyond
     * pixman's range, no stops */
    ck_assert_int_eq(rf_gradfill_radial(d, 64, 16, 8, clip, &id, 8, 4, 1.0 / 512, two, 2, &all), 0);
    ck_assert_int_eq(rf_gradfill_radial(d, 64, 16, 8, clip, &id, NAN, 4, 5, two, 2, &all), 0);
    ck_assert_int_eq(rf_gradfill_radial(d, 64, 16, 8, clip, &id, 17000, 4, 5, two, 2, &all), 0);
    ck_assert_int_eq(rf_gradfill_radial(d, 64, 16, 8, clip, &id, 8, 4, 5, two, 0, &all), 0);
    /* every stop clear (cairo draws nothing), a mask off the canvas */
    ck_assert_int_eq(rf_gradfill_radial(d, 64, 16, 8, clip, &id, 8, 4, 5, clear, 2, &all), 1);
    ck_assert_int_eq(rf_gradfill_radial(d, 64, 16, 8, clip, &id, 8, 4, 5, two, 2, &off), 1);
    for (int i = 0; i < 16 * 8; i++)
        ck_assert_uint_eq(px[i], 0xff123456u);
    /* by hand: the center pixel (8, 4) of a radius-5 gradient centered on
     * (8.5, 4.5): C = 0, t = 0, the first stop, opaque red */
    ck_assert_int_eq(rf_gradfill_radial(d, 64, 16, 8, clip, &id, 8.5, 4.5, 5, two, 2, &all), 1);
    ck_assert_uint_eq(px[4 * 16 + 8], 0xffff0000u);
    /* (0, 4) is 8 px away: past the last stop, half-transparent blue
     * (the walker: 0x80000080) over 0xff123456, each channel times 0x7f /
     * 0xff: r 0x12 -> 0x09, g 0x34 -> 0x1a, b 0x56 -> 0x2b, + 0x80 */
    ck_assert_uint_eq(px[4 * 16 + 0], 0xff091aabu);
}
END_TEST

START_TEST(test_mask_usable)
{
    ck_assert_int_eq(rf_gradfill_mask_usable(), 1);
}
END_TEST

/* ---- the renderer ---- */

#define SW 160
#define SH 90
#define SHEAD                                                                               \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 160, \"height\": 90, \"background\": "      \
    "\"#102030\"}, \"timeline\": {\"fps\": 10, \"duration\": 2}, \"values\": {"            \
    "\"tint\": {\"tween\": {\"from\": \"#16224a\", \"to\": \"#ff8000\", \"duration\": 2}}}, " \
    "\"layers\": ["
#define GRAD                                                                                \
    "\"fill\": {\"linear\": {\"from\": [0, 0], \"to\": [120, 70], \"stops\": [[0, "           \
    "\"#0b1020\"], [0.6, \"tint\"], [1, "        \
    "\"#1d2b53\"]]}}"
#define RADIAL                                                                              \
    "\"fill\": {\"radial\": {\"center\": [0, 0], \"radius\": 34, \"stops\": [[0, "       \
    "\"#ffd000e0\"], [0.6, \"#ff2060\"], [1, \"#2040ff00\"]]}}"
#define BACKDROP "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 160, \"height\": 90, " GRAD "}"

static const struct {
    const char *layers; /* between SHEAD and "]}" */
    int fills;          /* gradfill's fills expected in the frame: -1, at least 1 */
} scenes[] = {
    { BACKDROP, 1 },
    /* a group that scales (the showcase's backdrop), with a sibling over it */
    { "{\"type\": \"group\", \"scale\": 1.5, \"pivot\": [0, 0], \"children\": [{\"type\": "
      "\"rect\", \"x\": 40, \"y\": 30, \"width\": 80, \"height\": 60, " GRAD "}, {\"type\": "
      "\"circle\", \"x\": 50, \"y\": 30, \"r\": 12, \"fill\": \"#ffb000\"}]}", 2 },
    /* off the canvas in part; then a stroke over the fill */
    { "{\"type\": \"rect\", \"x\": 150, \"y\": 80, \"width\": 100, \"height\": 60, " GRAD
      ", \"stroke\": \"#ffffff\", \"stroke_width\": 3}", 1 },
    /* clipped: a rect clip (whole pixels, then not), a rounded clip, a circle */
    { "{\"type\": \"group\", \"clip\": {\"type\": \"rect\", \"x\": 10, \"y\": 10, \"anchor\": "
      "[0, 0], \"width\": 100, \"height\": 50}, \"children\": [" BACKDROP "]}", -1 },
    { "{\"type\": \"group\", \"clip\": {\"type\": \"rect\", \"x\": 10.5, \"y\": 10.25, "
      "\"anchor\": [0, 0], \"width\": 100, \"height\": 50}, \"children\": [" BACKDROP "]}", 0 },
    { "{\"type\": \"group\", \"clip\": {\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": "
      "140, \"height\": 70, \"radius\": 20}, \"children\": [" BACKDROP "]}", 0 },
    { "{\"type\": \"group\", \"clip\": {\"type\": \"circle\", \"x\": 80, \"y\": 45, \"r\": 40}, "
      "\"children\": [" BACKDROP ", {\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 20, "
      "\"height\": 10, " GRAD "}]}", -1 },
    /* composited through a group: opacity, a blend, a mask, a shadow, a blur */
    { "{\"type\": \"group\", \"opacity\": 0.5, \"children\": [" BACKDROP "]}", 0 },
    { "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 160, \"height\": 90, " GRAD
      ", \"blend\": \"multiply\"}", 0 },
    { "{\"type\": \"group\", \"mask\": {\"layer\": {\"type\": \"circle\", \"x\": 80, \"y\": 45, "
      "\"r\": 30, \"fill\": \"#fff\"}}, \"children\": [" BACKDROP "]}", 0 },
    { "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 100, \"height\": 50, " GRAD
      ", \"shadow\": {\"x\": 3, \"y\": 4, \"blur\": 5, \"color\": \"#000000a0\"}}", 0 },
    /* not whole pixels: cairo's; rotated, rounded: through FreeType's
     * coverage (a quarter turn keeps a box, but the coverage is taken for
     * every rect but a plain box) */
    { "{\"type\": \"rect\", \"x\": 80.5, \"y\": 45, \"width\": 100, \"height\": 50, " GRAD "}", 0 },
    { "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 100, \"height\": 50, \"rotate\": 90, "
      GRAD "}", 1 },
    { "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 100, \"height\": 50, \"radius\": 6, "
      GRAD "}", 1 },
    /* stops of a few 255ths of alpha, whose premultiplied channels rise,
     * then fall between them (a list of changes must not take equal ends
     * for a flat span): linear in an ellipse, radial in a rounded rect */
    { "{\"type\": \"ellipse\", \"x\": 80, \"y\": 45, \"rx\": 70, \"ry\": 40, \"fill\": {\"linear\": "
      "{\"from\": [-70, 0], \"to\": [70, 0], \"stops\": [[0, \"#38785105\"], [1, \"#dfefd102\"]]}}}", 1 },
    { "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 160, \"height\": 90, \"radius\": 2, "
      "\"fill\": {\"radial\": {\"center\": [0, 0], \"radius\": 44, \"stops\": [[0, \"#38785105\"], "
      "[1, \"#dfefd102\"]]}}}", 1 },
    /* 1/1000 px from whole pixels: cairo samples the nearest (NEAREST) */
    { "{\"type\": \"circle\", \"x\": 60.001, \"y\": 40, \"r\": 30, " RADIAL "}", 1 },
    /* turned by 25 degrees, translucent stops, over the backdrop */
    { BACKDROP ", {\"type\": \"rect\", \"x\": 70, \"y\": 40, \"width\": 90, \"height\": 40, "
      "\"rotate\": 25, \"fill\": {\"linear\": {\"from\": [-45, 0], \"to\": [45, 10], \"stops\": "
      "[[0, \"#ffffffc0\"], [0.5, \"tint\"], [1, \"#00000040\"]]}}}", 2 },
    { "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 100, \"height\": 50, \"fill\": "
      "{\"linear\": {\"from\": [0, 0], \"to\": [100, 0], \"stops\": [[0, \"#ff000080\"], [1, "
      "\"#0000ff\"]]}}}", 0 },
    /* an animated end point and two stops at one offset; a box that moves */
    { "{\"type\": \"rect\", \"x\": 80, \"y\": 45, \"width\": 160, \"height\": 90, \"fill\": "
      "{\"linear\": {\"from\": [{\"tween\": {\"from\": -50, \"to\": 90, \"duration\": 2}}, 3], "
      "\"to\": [140, 80], \"stops\": [[0.2, \"#ffffff\"], [0.7, \"#000000\"], [0.7, "
      "\"#ff0000\"]]}}}", 1 },
    { "{\"type\": \"rect\", \"x\": {\"tween\": {\"from\": 20, \"to\": 60, \"duration\": 2}}, "
      "\"y\": 45, \"width\": 60, \"height\": 40, " GRAD "}", -1 },
    /* radial gradients through FreeType's coverage: a circle, a turned and
     * scaled ellipse over a backdrop, an animated stop, a moving radius */
    { "{\"type\": \"circle\", \"x\": 60.3, \"y\": 40.7, \"r\": 30, " RADIAL "}", 1 },
    { BACKDROP ", {\"type\": \"ellipse\", \"x\": 90, \"y\": 50, \"rx\": 50, \"ry\": 25, "
      "\"rotate\": 30, \"scale\": 1.3, " RADIAL "}", 2 },
    { "{\"type\": \"circle\", \"x\": 80, \"y\": 45, \"r\": 40, \"fill\": {\"radial\": "
      "{\"center\": [5, -3], \"radius\": {\"tween\": {\"from\": 10, \"to\": 60, "
      "\"duration\": 2}}, \"stops\": [[0, \"tint\"], [0.5, \"#ffffff40\"], [1, "
      "\"#00000000\"]]}}}", 1 },
    /* a rounded rect with a stroke (a solid through a coverage box this
     * large is cairo's); in a rect clip of whole pixels */
    { "{\"type\": \"rect\", \"x\": 70, \"y\": 40, \"width\": 90, \"height\": 50, \"radius\": 9, "
      RADIAL ", \"stroke\": \"#ffffff\", \"stroke_width\": 2}", 1 },
    { "{\"type\": \"group\", \"clip\": {\"type\": \"rect\", \"x\": 10, \"y\": 10, \"anchor\": "
      "[0, 0], \"width\": 70, \"height\": 50}, \"children\": [{\"type\": \"circle\", \"x\": 60, "
      "\"y\": 40, \"r\": 35, " RADIAL "}]}", 1 },
    /* cairo's: through a group with opacity, under a round clip, a radius
     * of 0 (the last stop's color) */
    { "{\"type\": \"group\", \"opacity\": 0.5, \"children\": [{\"type\": \"circle\", \"x\": "
      "60, \"y\": 40, \"r\": 35, " RADIAL "}]}", 0 },
    { "{\"type\": \"group\", \"clip\": {\"type\": \"circle\", \"x\": 80, \"y\": 45, \"r\": "
      "30}, \"children\": [{\"type\": \"circle\", \"x\": 60, \"y\": 40, \"r\": 35, " RADIAL
      "}]}", 0 },
    { "{\"type\": \"circle\", \"x\": 60, \"y\": 40, \"r\": 35, \"fill\": {\"radial\": "
      "{\"center\": [0, 0], \"radius\": 0, \"stops\": [[0, \"#ff0000\"], [1, \"#0000ff80\"]]}}}",
      0 },
};

/* The rows of r's frame (w x h) unlike cairo's drawing of sc at t
 * (RF_GRADFILL_OFF=1: cairo paints every gradient). */
static int rows_unlike_cairo(rf_renderer_t *r, const rf_scene_t *sc, double t, int w, int h)
{
    setenv("RF_GRADFILL_OFF", "1", 1);
    uint32_t *ref = rf_test_frame(sc, t, w, h);
    unsetenv("RF_GRADFILL_OFF");
    int stride;
    const unsigned char *p = rf_renderer_pixels(r, &stride);
    int diff = 0;
    for (int y = 0; y < h; y++)
        diff += memcmp(p + (size_t)y * (size_t)stride, ref + (size_t)y * w, (size_t)w * 4) != 0;
    free(ref);
    return diff;
}

START_TEST(test_renderer_same_bytes)
{
    char json[4096];
    snprintf(json, sizeof json, SHEAD "%s]}", scenes[_i].layers);
    rf_scene_t *sc = rf_test_scene("g.json", json);
    for (int f = 0; f <= 20; f += 5) {
        double t = f / 10.0;
        unsetenv("RF_GRADFILL_OFF");
        rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(rf_renderer_draw(r, t), 0);
        unsigned used = rf_renderer_gradfills(r);
        int diff = rows_unlike_cairo(r, sc, t, SW, SH);
        ck_assert_msg(diff == 0, "scene %d t=%g: %d rows differ", _i, t, diff);
        if (scenes[_i].fills >= 0)
            ck_assert_msg(used == (unsigned)scenes[_i].fills, "scene %d t=%g: %u fills, not %d",
                          _i, t, used, scenes[_i].fills);
        else
            ck_assert_msg(used >= 1, "scene %d t=%g: no fill painted", _i, t);
        rf_renderer_destroy(r);
    }
    rf_scene_destroy(sc);
}
END_TEST

/* A renderer that may use two cores (rf_renderer_set_threads 2: `seek`,
 * a one-frame render) paints large fills' lower rows on its helper: a
 * 1280x720 frame of a linear backdrop, a horizontal band, radial glows
 * (one turned and scaled), a linear fill through an ellipse's coverage
 * and a translucent horizontal one, the same bytes as cairo's (the fill
 * off) at five times. */
START_TEST(test_renderer_two_threads_same_bytes)
{
    static const char json[] =
        "{\"runeframe\": 1, \"canvas\": {\"width\": 1280, \"height\": 720, \"background\": "
        "\"#102030\"}, \"timeline\": {\"fps\": 10, \"duration\": 2}, \"values\": {\"r\": "
        "{\"tween\": {\"from\": 150, \"to\": 420, \"duration\": 2}}}, \"layers\": ["
        "{\"type\": \"rect\", \"x\": 640, \"y\": 360, \"width\": 1280, \"height\": 720, "
        "\"fill\": {\"linear\": {\"from\": [-500, -300], \"to\": [600, 340], \"stops\": "
        "[[0, \"#0b1020\"], [0.5, \"#3a2f6b\"], [1, \"#1d2b53\"]]}}},"
        "{\"type\": \"rect\", \"x\": 640, \"y\": 600, \"width\": 1280, \"height\": 200, "
        "\"fill\": {\"linear\": {\"from\": [-640, 0], \"to\": [640, 0], \"stops\": "
        "[[0, \"#ff8000\"], [1, \"#0080ff\"]]}}},"
        "{\"type\": \"circle\", \"x\": 400.5, \"y\": 300.25, \"r\": \"r\", \"fill\": "
        "{\"radial\": {\"center\": [0, 0], \"radius\": \"r\", \"stops\": [[0, \"#ffd000e0\"], "
        "[0.6, \"#ff206080\"], [1, \"#2040ff00\"]]}}},"
        "{\"type\": \"ellipse\", \"x\": 900, \"y\": 380, \"rx\": 330, \"ry\": 220, "
        "\"rotate\": 20, \"scale\": 1.2, \"fill\": {\"radial\": {\"center\": [40, -20], "
        "\"radius\": 300, \"stops\": [[0, \"#ffffff\"], [0.4, \"#40c0ff90\"], [1, "
        "\"#00000000\"]]}}},"
        "{\"type\": \"ellipse\", \"x\": 640, \"y\": 360, \"rx\": 500, \"ry\": 260, "
        "\"fill\": {\"linear\": {\"from\": [-500, -100], \"to\": [500, 200], \"stops\": "
        "[[0, \"#ff000060\"], [1, \"#00ff00c0\"]]}}},"
        "{\"type\": \"rect\", \"x\": 640, \"y\": 150, \"width\": 1000, \"height\": 200, "
        "\"radius\": 30, \"fill\": {\"linear\": {\"from\": [-500, 0], \"to\": [500, 0], "
        "\"stops\": [[0, \"#ffffff30\"], [1, \"#000000a0\"]]}}}]}";
    enum { W = 1280, H = 720 };
    rf_scene_t *sc = rf_test_scene("big.json", json);
    rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
    ck_assert_ptr_nonnull(r);
    rf_renderer_set_threads(r, 2);
    for (int f = 0; f <= 20; f += 5) {
        double t = f / 10.0;
        unsetenv("RF_GRADFILL_OFF");
        unsigned before = rf_renderer_gradfills(r);
        ck_assert_int_eq(rf_renderer_draw(r, t), 0);
        ck_assert_msg(rf_renderer_gradfills(r) - before >= 4, "t=%g: %u fills", t,
                      rf_renderer_gradfills(r) - before);
        int diff = rows_unlike_cairo(r, sc, t, W, H);
        ck_assert_msg(diff == 0, "t=%g: %d rows differ", t, diff);
    }
    ck_assert_msg(rf_renderer_helper_jobs(r) >= 5, "the helper painted %u fills' rows",
                  rf_renderer_helper_jobs(r));
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
}
END_TEST

static Suite *gradfill_suite(void)
{
    Suite *s = suite_create("gradfill");
    TCase *tc = tcase_create("cairo");
    tcase_add_loop_test(tc, test_random_against_cairo, 0, (int)(sizeof sizes / sizeof sizes[0]));
    tcase_add_test(tc, test_refuses);
    tcase_add_test(tc, test_usable);
    tcase_add_loop_test(tc, test_mask_random_against_cairo, 0, 3 * 3 * MASK_SIZES);
    tcase_add_test(tc, test_radial_refuses);
    tcase_add_test(tc, test_mask_usable);
    tcase_add_loop_test(tc, test_renderer_same_bytes, 0, (int)(sizeof scenes / sizeof scenes[0]));
    tcase_set_timeout(tc, 120); /* 1080p cases drawn by cairo, under valgrind too */
    suite_add_tcase(s, tc);
    /* large boxes' rows shared with a helper thread: the 1080p linear
     * cases, the 640x360 radial and linear ones through masks (index:
     * width * 15 + kind * 5 + size), the same bytes as cairo's */
    TCase *two = tcase_create("two threads");
    tcase_add_checked_fixture(two, helper_setup, helper_teardown);
    tcase_add_loop_test(two, test_random_against_cairo, 4, 5);
    tcase_add_loop_test(two, test_mask_random_against_cairo, 4, 5);
    tcase_add_loop_test(two, test_mask_random_against_cairo, 9, 10);
    tcase_add_loop_test(two, test_mask_random_against_cairo, 19, 20);
    tcase_add_test(two, test_renderer_two_threads_same_bytes);
    tcase_set_timeout(two, 120);
    suite_add_tcase(s, two);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(gradfill_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
