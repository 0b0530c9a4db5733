/* render.h - drawing one frame of a scene with cairo.
 *
 * Owns: rf_renderer_t, everything one thread needs to draw frames of a
 * loaded scene: an ARGB32 image surface of the canvas size, a cairo_t on
 * it, a slot array of values.nslots doubles (values.h), a per-layer layout
 * array, the trim op buffer for path layers and the gradient patterns whose
 * geometry is constant. The scene is borrowed: it must outlive the
 * renderer and is only read, so any number of renderers (one per worker
 * thread) may draw the same scene at the same time. A renderer itself is
 * not thread-safe. Every buffer is allocated once by rf_renderer_create();
 * drawing a frame allocates nothing of its own (cairo allocates internally
 * for gradients whose geometry is animated and for group surfaces).
 *
 * A frame at time t: every value is evaluated at t into the slot array
 * (rf_values_eval: one pass, dependency order), the surface is cleared to
 * the background (0xRRGGBBAA, CAIRO_OPERATOR_SOURCE, so a transparent
 * background gives transparent pixels), and the layers are drawn in order,
 * later on top, children after their parent's transform.
 *
 * Semantics (scene-v1.md "Layers"; the man page quotes this):
 *
 * Transform. A layer's matrix is
 *     M = T(x + fx, y + fy) * T(o) * R(rotate + oa) * S(scale_x, scale_y) * T(-a)
 *   - (fx, fy) is the `follow` sample's (x, y) and oa its angle when
 *     `orient` is set; both are 0 without `follow`.
 *   - a, the anchor point, is (box.x0 + anchor_x * box.w, box.y0 +
 *     anchor_y * box.h) of the layer's own box.
 *   - o = 0 for rect, circle, ellipse and group: the anchor point lands on
 *     (x, y). o = a for line and path: they are drawn in their own (canvas)
 *     coordinates, x and y translate them, and the anchor is only the pivot
 *     of rotate and scale.
 *   - rotate is in degrees, clockwise on screen (y grows down); exact
 *     multiples of 90 use exact sines and cosines, so a 90 degree turn of
 *     an integer-aligned shape stays integer-aligned.
 *   - A child's matrix is composed inside its parent's: parent * child.
 * Own boxes (each type's box hook, in layer-NAME.c): rect [0, 0, width,
 * height]; circle [-r, -r, r, r]; ellipse [-rx, -ry, rx, ry]; line the
 * bounding box of its two points; path the exact bounds of the whole
 * (untrimmed) path; group the union of its
 * children's boxes, each mapped by the child's own matrix (4 corners, then
 * their bounding box). An empty group's box is the point (0, 0). So a
 * group with the default anchor [0.5, 0.5] and x = y = 0 centers its
 * children's box on the canvas origin: give a group the x, y where the
 * center of its content should be (or anchor [0, 0] and x = y = 0 to
 * leave children where they are when their box starts at the origin).
 *
 * Shapes. Negative or NaN sizes count as 0. rect: corners are circular
 * arcs of `radius`, clamped to [0, min(width, height) / 2]; a rect of
 * width or height 0 is not drawn. circle: r > 0. ellipse: a unit circle
 * built under S(rx, ry) and then filled and stroked under the layer's own
 * matrix, so the stroke keeps its width; rx or ry 0 is not drawn. line:
 * stroke only (fill is ignored), butt caps. path: the sub-path between
 * arc-length progresses trim [start, end] (rf_path_trim: exact sub-curves;
 * [0, 1] is the figure verbatim, Z included), butt caps; start >= end draws
 * nothing. group: its own fill and stroke are ignored. Strokes use miter
 * joins with SVG's miter limit 4.
 *
 * Drawing: fill first, then stroke on top. stroke_width is in the layer's
 * coordinates, so it scales with the layer; 0, negative or NaN: no stroke.
 * A layer whose matrix (composed with its parents') is not invertible or
 * not finite (a scale of 0, a NaN position) is not drawn, nor are its
 * children: it is invisible, and drawing it would put cairo in an error
 * state.
 *
 * Opacity is clamped to [0, 1] (NaN: 0). 1 draws directly; 0 draws
 * nothing (children included). Otherwise the layer is drawn into a
 * transparent group (cairo_push_group), which is then composited once with
 * cairo_paint_with_alpha, so a group's overlapping children and a shape's
 * fill under its stroke do not blend twice. The group surface of a shape is
 * clipped to the pixels its fill and stroke can touch. One shortcut with
 * the same result: a shape with a single solid paint (a fill alone or a
 * stroke alone, solid or mix) multiplies its color's alpha by the opacity
 * instead of using a group.
 *
 * Paints. Colors are straight (not premultiplied) RGBA in [0, 1]; cairo
 * stores premultiplied pixels. SOLID: the color. MIX: in space srgb,
 * channel-wise (alpha included) color + (color2 - color) * clamp(by, 0, 1),
 * not gamma-aware (NaN by: 0); in linear or oklab, rf_color_mix (color.h:
 * converted, interpolated, converted back, no allocation). LINEAR: from p0 to p1 in the layer's own coordinates.
 * RADIAL: circles (p0, 0) to (p0, radius). Gradient stops are
 * cairo_pattern_add_color_stop_rgba at their offsets, padded beyond the
 * ends (CSS, SVG). A degenerate gradient (p0 == p1, radius <= 0, or a
 * non-finite coordinate) paints its last stop's color, as SVG does. A
 * gradient whose geometry is all constants is built once, at
 * rf_renderer_create(); an animated one is built and destroyed per draw.
 *
 * Pixels: the surface is CAIRO_FORMAT_ARGB32: each pixel one native-endian
 * uint32 a<<24 | r<<16 | g<<8 | b, premultiplied by a.
 */
#ifndef RF_RENDER_H
#define RF_RENDER_H

#include <stddef.h>

#include <cairo.h>

#include "scene.h"

typedef struct rf_renderer rf_renderer_t;

/* Once per process, before any thread starts: asks the C library's
 * allocator to keep the frame-sized blocks cairo allocates and frees in
 * every frame (push_group surfaces: opacity, shadows, blur, masks, text)
 * for the next frame instead of mapping fresh zeroed pages each time
 * (glibc: mmap threshold 64 MiB, trim threshold 128 MiB; elsewhere
 * nothing). Only time changes, never a byte: frames with it measured
 * 1.7x faster for a shadowed card at 1080p (BENCHMARKS.md). And reserves
 * the heap's first 48 MiB as transparent huge pages (advice the system may
 * ignore): a cold one-frame process faulted its scene and cairo's
 * temporary surfaces in 4 KiB at a time (3,251 faults, a third of a seek
 * of a 3,000-layer scene). */
void rf_render_tune_allocator(void);
/* The same huge-page advice for the calling thread's own heap (glibc
 * gives each new thread an arena of its own): a worker thread calls it
 * once before it draws. */
void rf_render_tune_thread(void);

/* Creates a renderer for scene (borrowed; it must outlive the renderer):
 * the canvas surface, its cairo_t and every buffer a frame needs. Returns
 * NULL on failure with a one-line message in err (errlen bytes, err may be
 * NULL): cairo's status text when cairo fails, "out of memory" otherwise;
 * and errno says which: ENOMEM when memory ran out (cairo's included),
 * EINVAL when cairo refused the canvas or a gradient. Free it with
 * rf_renderer_destroy(). */
rf_renderer_t *rf_renderer_create(const rf_scene_t *scene, char *err, size_t errlen);

/* Frees the renderer and everything it owns (the surface included: pointers
 * from rf_renderer_surface() and rf_renderer_pixels() die with it). NULL is
 * a no-op. */
void rf_renderer_destroy(rf_renderer_t *r);

/* How many cores the renderer may use while it draws a frame: 1 (the
 * default) or more. With 2 or more, text layers make their glyph masks
 * on two threads (glyphmask.h) and large gradient fills paint every
 * other block of their rows on the second (gradfill.h): one helper thread
 * (helper.h) the renderer keeps until rf_renderer_destroy. What a frame
 * looks like does not change.
 * frames.c gives each worker of a run its share of --jobs (two or more
 * only when there are fewer frames than jobs), seek the CPUs it may run
 * on; the preview server's workers draw on one. */
void rf_renderer_set_threads(rf_renderer_t *r, int n);

/* Draws the frame at time t (seconds): evaluates every value at t, clears
 * the surface to the background and draws every layer, then flushes the
 * surface. The static prefix (the layers drawn first that read no value,
 * possibly ending inside groups whose own properties are constant and
 * whose opacity is 1) is drawn once when it covers at least a quarter of
 * the canvas, and kept from the renderer's second draw on (a renderer that
 * draws one frame never copies it); later frames start from a copy of its
 * pixels, byte-identical to drawing it again, whatever the order of the
 * frames. Returns 0; -1
 * when cairo reported an error (cairo_status of the context or the
 * surface) or memory ran out (errno ENOMEM: a blur's work buffer); or
 * RF_RENDER_UNDRAWABLE when the scene asks this frame for
 * something that cannot be drawn (a stroke too wide, a shape too large for
 * double precision): the scene's fault, which the commands report as a bad
 * scene (exit status 2), not as a system failure. rf_renderer_error() says
 * which. The next call starts over on a fresh cairo_t, so one failure does
 * not poison the renderer. */
#define RF_RENDER_UNDRAWABLE (-2)
int rf_renderer_draw(rf_renderer_t *r, double t);

/* For warnings (lint.h): lays out the frame at t without drawing it and
 * sets touch[i] to 1 for each top-level layer i that can paint a pixel of
 * the canvas at t: its box under its matrix grown by its stroke, blur and
 * shadows (a group: one of its children can, or it blurs or casts
 * shadows). touch has scene->nlayers entries; the others are left as they
 * are. The next rf_renderer_draw() is unaffected. */
void rf_renderer_touch(rf_renderer_t *r, double t, unsigned char *touch);

/* The message of the last failure of rf_renderer_draw(), "" when the last
 * draw succeeded. Owned by the renderer, valid until the next draw. */
const char *rf_renderer_error(const rf_renderer_t *r);

/* The canvas surface (borrowed: do not destroy it; it stays valid until
 * rf_renderer_destroy()). After rf_renderer_draw() it holds the frame,
 * flushed, so its data may be read directly. */
cairo_surface_t *rf_renderer_surface(rf_renderer_t *r);

/* The frame's pixels (borrowed, as the surface): height rows of width
 * ARGB32 pixels (see above), *stride bytes apart (stride may be NULL). */
const unsigned char *rf_renderer_pixels(rf_renderer_t *r, int *stride);

/* 1 when every pixel of the frame last drawn is known opaque without
 * looking (its background's alpha is 1: every layer is composited by
 * OVER or a blend mode, which keep an opaque pixel opaque), else 0: a
 * PNG writer's rf_png_frame_t.opaque. */
int rf_renderer_opaque(const rf_renderer_t *r);

/* Makes the renderer draw on its other canvas from now on (the first
 * call makes it, the size of the first: its pages fault in at its first
 * draw), leaving the current one, with its frame, to whoever reads it:
 * a stream's writer converts and writes one frame while the next is
 * drawn on the other (frames.c). rf_renderer_surface and
 * rf_renderer_pixels then name the other canvas; the one left stays
 * valid until rf_renderer_destroy(). Everything else the renderer holds
 * is shared. 0, or -1 when out of memory (rf_renderer_error says so). */
int rf_renderer_swap_canvas(rf_renderer_t *r);

/* The fills the renderer has painted itself since it was created instead
 * of through cairo (a pixel-aligned rect under an opaque linear gradient:
 * gradfill.h, the same pixels), for tests. RF_GRADFILL_OFF=1 in the
 * environment when the renderer is created leaves them all to cairo. */
unsigned rf_renderer_gradfills(const rf_renderer_t *r);

/* The large fills part of whose rows the renderer's second thread painted
 * (rf_renderer_set_threads 2 or more; gradfill.h), for tests. */
unsigned rf_renderer_helper_jobs(const rf_renderer_t *r);

/* 1 when the last rf_renderer_draw() started from the kept pixels of the
 * static prefix instead of drawing it (tests and benchmarks). */
int rf_renderer_reused_prefix(const rf_renderer_t *r);

/* The slot array of the last rf_renderer_draw(): values.nslots doubles
 * holding every value at that frame's time (borrowed). */
const double *rf_renderer_slots(const rf_renderer_t *r);

#endif
