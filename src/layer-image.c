/* layer-image.c - the image layer: a PNG, JPEG or SVG file (image.h) in a
 * box of width x height, placed by `fit` (scene-v1.md "Images").
 *
 * The box: both width and height given: that box; one of them: the other
 * by the image's aspect ratio; neither: the image's own size. Inside it
 * the image is drawn at (ox, oy) scaled to dw x dh (image_place): `fill`
 * stretches it to the box, `contain` scales it by min(bw / W, bh / H) and
 * centers it, `cover` by the max, centered and clipped to the box.
 *
 * A raster image is painted from its one shared surface (never copied or
 * converted per frame) with EXTEND_PAD inside its own rectangle, so its
 * edges are the rectangle's (antialiased when between pixels) and a
 * whole-pixel translation at scale 1 copies its pixels exactly. An SVG is
 * drawn by librsvg into the frame under the layer's matrix: vectors at
 * every scale, from the handle this renderer parsed once (state hooks). */
#include <librsvg/rsvg.h>
#include <stdlib.h>

#include "image.h"
#include "layer.h"
#include "render.h"
#include "shape.h"

static const rf_layer_key_t image_keys[] = {
    { "src", RF_KEY_IMAGE, RF_KEY_REQUIRED, RF_KEY_AT(u.image.img), 0, 0, 0, NULL },
    { "width", RF_KEY_NUMBER, RF_KEY_NONNEG, RF_KEY_AT(u.image.width), 0, NAN, 0, NULL },
    { "height", RF_KEY_NUMBER, RF_KEY_NONNEG, RF_KEY_AT(u.image.height), 0, NAN, 0, NULL },
    { "fit", RF_KEY_CHOICE, 0, RF_KEY_AT(u.image.fit), 0, 0, 0, "fill|contain|cover" },
    { "smoothing", RF_KEY_CHOICE, 0, RF_KEY_AT(u.image.smoothing), 0, 0, 0,
      "linear|nearest|best" },
};

/* The box bw x bh and where the image goes in it: (o[0], o[1]) scaled to
 * o[2] x o[3]. 0 when there is nothing to draw. */
static int image_place(const rf_layer_t *L, const double *s, double *bw, double *bh,
                       double o[4])
{
    const rf_image_t *img = L->u.image.img;
    double W = img->width, H = img->height;
    double w = rf_prop_get(&L->u.image.width, s), h = rf_prop_get(&L->u.image.height, s);
    int hw = !isnan(w), hh = !isnan(h);
    w = hw ? rf_nonneg(w) : W;
    h = hh ? rf_nonneg(h) : H;
    if (hw && !hh)
        h = w * H / W;
    else if (hh && !hw)
        w = h * W / H;
    *bw = w;
    *bh = h;
    o[0] = o[1] = 0;
    o[2] = w;
    o[3] = h;
    if (hw && hh && L->u.image.fit != RF_FIT_FILL) {
        double k = L->u.image.fit == RF_FIT_CONTAIN ? fmin(w / W, h / H) : fmax(w / W, h / H);
        o[2] = W * k;
        o[3] = H * k;
        o[0] = (w - o[2]) / 2;
        o[1] = (h - o[3]) / 2;
    }
    return w > 0 && h > 0 && isfinite(w) && isfinite(h) && o[2] > 0 && o[3] > 0 &&
           isfinite(o[2]) && isfinite(o[3]);
}

static void image_box(const rf_layer_t *L, const double *s, double b[4])
{
    double o[4];
    b[0] = b[1] = 0;
    image_place(L, s, &b[2], &b[3], o);
}

typedef struct image_state {
    RsvgHandle *svg;            /* this renderer's own handle, SVG only */
} image_state_t;

static void *image_state_create(struct rf_renderer *r, const rf_layer_t *L)
{
    (void)r;
    image_state_t *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    if (L->u.image.img->kind == RF_IMAGE_SVG &&
        (st->svg = rf_image_svg_open(L->u.image.img)) == NULL) {
        free(st);
        return NULL;
    }
    return st;
}

static void image_state_destroy(void *p)
{
    image_state_t *st = p;
    if (st->svg != NULL)
        g_object_unref(st->svg);
    free(st);
}

static const cairo_filter_t filters[] = { CAIRO_FILTER_GOOD, CAIRO_FILTER_NEAREST,
                                          CAIRO_FILTER_BEST };

/* 1 when the rectangle [0, w] x [0, h] under m lies off the surface drawn
 * on (the canvas, a group's or a capture's, whose device offset places it). */
static int off_canvas(cairo_t *cr, const cairo_matrix_t *m, double w, double h)
{
    cairo_surface_t *t = cairo_get_target(cr);
    double ox, oy;
    cairo_surface_get_device_offset(t, &ox, &oy);
    double X = -ox, Y = -oy;
    double W = X + cairo_image_surface_get_width(t), H = Y + cairo_image_surface_get_height(t);
    double px[4] = { 0, w, 0, w }, py[4] = { 0, 0, h, h };
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = 0; i < 4; i++) {
        cairo_matrix_transform_point(m, &px[i], &py[i]);
        x0 = fmin(x0, px[i]);
        x1 = fmax(x1, px[i]);
        y0 = fmin(y0, py[i]);
        y1 = fmax(y1, py[i]);
    }
    return !(x1 > X && y1 > Y && x0 < W && y0 < H);
}

static void image_draw(struct rf_renderer *r, const rf_layer_t *L, uint32_t idx,
                       const cairo_matrix_t *m, double op)
{
    const rf_image_t *img = L->u.image.img;
    image_state_t *st = rf_render_state(r, idx);
    double bw, bh, o[4];
    if (!(op > 0) || st == NULL || !image_place(L, rf_renderer_slots(r), &bw, &bh, o))
        return;
    cairo_t *cr = rf_render_cairo(r);
    if (!rf_matrix_usable(m) || off_canvas(cr, m, bw, bh))
        return;
    cairo_save(cr);
    cairo_set_matrix(cr, m);
    cairo_new_path(cr);
    int cover = o[0] < 0 || o[1] < 0;
    if (cover) {
        cairo_rectangle(cr, 0, 0, bw, bh);
        cairo_clip(cr);
    }
    cairo_translate(cr, o[0], o[1]);
    cairo_scale(cr, o[2] / img->width, o[3] / img->height);
    if (img->kind == RF_IMAGE_SVG) {
        RsvgRectangle vp = { 0, 0, img->width, img->height };
        if (op < 1)
            cairo_push_group(cr);
        rsvg_handle_render_document(st->svg, cr, &vp, NULL);
        if (op < 1) {
            cairo_pop_group_to_source(cr);
            cairo_paint_with_alpha(cr, op);
        }
    } else {
        cairo_rectangle(cr, 0, 0, img->width, img->height);
        cairo_clip(cr);
        cairo_set_source_surface(cr, img->surface, 0, 0);
        cairo_pattern_t *p = cairo_get_source(cr);
        cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD);
        cairo_pattern_set_filter(p, filters[L->u.image.smoothing]);
        cairo_paint_with_alpha(cr, op);
    }
    cairo_restore(cr);
}

const rf_layer_class_t rf_layer_class_image = {
    "image", image_keys, RF_NELEM(image_keys), RF_CLASS_PIXELS,
    "an image layer draws the file in src",
    .box = image_box, .draw = image_draw,
    .state_create = image_state_create, .state_destroy = image_state_destroy,
};
