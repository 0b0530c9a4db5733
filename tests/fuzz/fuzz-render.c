/* fuzz-render.c - a scene drawn to a few frames at a tiny canvas and
 * encoded as PNG, as `render` and `seek` do.
 *
 * The input is a scene file. A scene that loads has its canvas clamped to
 * at most 64x64 before the renderer is created: the canvas size is plain
 * data of rf_scene_t that only rf_renderer_create() reads, and the layers
 * still build their paths and patterns in full (cairo clips what falls
 * outside), so every scene of the corpus is drawn, cheaply.
 *
 * Invariants (render.h, pngio.h): drawing never leaves cairo in an error
 * state (degenerate layers are skipped; a shape the renderer refuses to
 * draw fails the frame with its own one-line reason, never "cairo: ...");
 * the slots after a draw are rf_values_eval() at that time; drawing is
 * deterministic (frame 0 again gives the same pixels); premultiplied
 * pixels have no channel above their alpha; the PNG of a frame decodes
 * to exactly rf_png_row_to_rgba() of its pixels.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "lint.h"
#include "pngio.h"
#include "render.h"
#include "scene.h"
#include "values.h"

#include "fuzz.h"

#define SIDE 64

static void check_pixels(const uint8_t *pix, int stride, int w, int h)
{
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(pix + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            uint32_t p = row[x], a = p >> 24;
            FUZZ_CHECK(((p >> 16) & 255) <= a && ((p >> 8) & 255) <= a && (p & 255) <= a,
                       "pixel (%d, %d) = %08x is not premultiplied", x, y, (unsigned)p);
        }
    }
}

static void check_png(const uint8_t *pix, int stride, int w, int h, rf_png_buffer_t *out)
{
    rf_png_frame_t f = { (const uint32_t *)(const void *)pix, (uint32_t)w, (uint32_t)h,
                         (size_t)stride, 0 };
    rf_png_options_t opt = RF_PNG_OPTIONS_RENDER;
    rf_png_error_t err;
    rf_png_rgba_t img;
    uint8_t want[SIDE * 4];

    FUZZ_CHECK(rf_png_write_mem(&f, &opt, out, &err) == RF_PNG_SUCCESS, "encode: %s",
               err.message);
    FUZZ_CHECK(rf_png_read_mem(out->data, out->len, "frame.png", &img, &err) == RF_PNG_SUCCESS,
               "decode: %s", err.message);
    FUZZ_CHECK(img.width == (uint32_t)w && img.height == (uint32_t)h, "decoded %ux%u",
               img.width, img.height);
    FUZZ_CHECK(img.info.color_type == (rf_png_frame_is_opaque(&f) ? 2 : 6), "color type %u",
               img.info.color_type);
    for (int y = 0; y < h; y++) {
        rf_png_row_to_rgba(want, (const uint32_t *)(const void *)(pix + (size_t)y * (size_t)stride),
                           (size_t)w);
        FUZZ_CHECK(memcmp(want, img.pixels + (size_t)y * (size_t)w * 4, (size_t)w * 4) == 0,
                   "row %d of the PNG differs from the frame", y);
    }
    rf_png_rgba_destroy(&img);
}

/* A warning (lint.h): a JSON pointer and one line of message. */
static void check_warning(void *ctx, const char *pointer, const char *message)
{
    (void)ctx;
    FUZZ_CHECK(pointer[0] == '/' && strpbrk(pointer, "\r\n") == NULL, "warning pointer '%s'",
               pointer);
    FUZZ_CHECK(message[0] != '\0' && strpbrk(message, "\r\n") == NULL, "warning '%s'",
               message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rf_diag_t diag;
    static uint8_t first[SIDE * SIDE * 4];
    char err[256];
    int rc0 = 0;

    rf_scene_t *sc = rf_scene_load_buffer("fuzz.json", (const char *)data, size, &diag);
    if (sc == NULL)
        return 0;
    if (sc->width > SIDE)
        sc->width = SIDE;
    if (sc->height > SIDE)
        sc->height = SIDE;
    int w = sc->width, h = sc->height;

    /* the warnings walk every frame: only on short timelines here */
    if (sc->nframes <= 64)
        rf_lint_scene(sc, check_warning, NULL);

    rf_renderer_t *r = rf_renderer_create(sc, err, sizeof err);
    FUZZ_CHECK(r != NULL, "renderer: %s", err);
    size_t ns = sc->values.nslots ? sc->values.nslots : 1;
    double *slots = malloc(ns * sizeof *slots);
    FUZZ_CHECK(slots != NULL, "out of memory");
    rf_png_buffer_t png = { 0 };

    const double times[] = {
        0.0, rf_scene_frame_time(sc, sc->nframes / 2), rf_scene_frame_time(sc, sc->nframes - 1),
        0.0,
    };
    for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
        double t = times[k];
        int stride;
        int rc = rf_renderer_draw(r, t);
        const char *msg = rf_renderer_error(r);
        FUZZ_CHECK(msg != NULL && memchr(msg, '\0', 256) != NULL, "error text");
        if (k == 0)
            rc0 = rc;
        if (k == 3)
            FUZZ_CHECK(rc == rc0, "frame 0 drawn again: %d, first %d (%s)", rc, rc0, msg);
        if (rc != 0) {
            /* the renderer may refuse a shape it cannot draw faithfully
             * (render.c's draw_huge: RF_RENDER_UNDRAWABLE), with its
             * reason; cairo itself in an error state is a bug */
            FUZZ_CHECK(rc == RF_RENDER_UNDRAWABLE && msg[0] != '\0' && strncmp(msg, "cairo:", 6) != 0 &&
                           strpbrk(msg, "\r\n") == NULL,
                       "draw at t=%.17g: %d, '%s'", t, rc, msg);
            continue;
        }
        FUZZ_CHECK(msg[0] == '\0', "error text after a draw: '%s'", msg);
        FUZZ_CHECK(rf_renderer_surface(r) != NULL, "surface");
        const uint8_t *pix = rf_renderer_pixels(r, &stride);
        FUZZ_CHECK(pix != NULL && stride >= w * 4, "pixels, stride %d", stride);
        /* the slots are the values at t */
        rf_values_eval(&sc->values, t, slots);
        const double *rs = rf_renderer_slots(r);
        for (uint32_t i = 0; i < sc->values.nslots; i++)
            FUZZ_CHECK(fuzz_identical(rs[i], slots[i]), "slot %u: %.17g, evaluated %.17g", i,
                       rs[i], slots[i]);
        check_pixels(pix, stride, w, h);
        if (k == 0) {
            for (int y = 0; y < h; y++)
                memcpy(first + (size_t)y * w * 4, pix + (size_t)y * stride, (size_t)w * 4);
        } else if (k == 3) {
            for (int y = 0; y < h; y++)
                FUZZ_CHECK(memcmp(first + (size_t)y * w * 4, pix + (size_t)y * stride,
                                  (size_t)w * 4) == 0,
                           "frame 0 drawn again differs in row %d", y);
        }
        if (k < 3)
            check_png(pix, stride, w, h, &png);
    }

    rf_png_buffer_destroy(&png);
    free(slots);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
    return 0;
}
