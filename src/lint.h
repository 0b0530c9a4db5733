/* lint.h - warnings about a valid scene: what loads and draws, but is
 * probably not what its author meant.
 *
 * Owns nothing: rf_lint_scene() walks a loaded scene (read-only) and calls
 * back once per warning, with the JSON pointer of what it is about and
 * one line of message. The commands print them (cmd.c: "runeframe:
 * warning: FILE: POINTER: MESSAGE", on stderr, exit status unchanged;
 * `--quiet` hides them, `validate --strict` makes them errors).
 *
 * The warnings, in the order they are given:
 *   - a named value that is defined and never used (no layer reads it,
 *     directly or through another value), in a scene that has layers (a
 *     scene without layers is one written for sample, plot or info);
 *   - a used value that settles after an explicit timeline ends: when its
 *     time looks like milliseconds written as seconds (a tween, bezier,
 *     keyframes or sequence settling 10x past the end, within it in
 *     seconds: "did you mean 0.3 s?"), or when the last frame shows it more
 *     than 1% of its travel from where it settles (a spring's last 0.2 px
 *     is not worth a warning);
 *   - a layer's opacity outside 0..1 (its children's and mask layer's
 *     too): a constant, or a value that reaches past 0..1 at a frame
 *     (every frame is evaluated, or 20,000 spread over a longer timeline),
 *     named with the frame: it is drawn clamped;
 *   - a top-level layer that reaches the canvas at no frame (its box, with
 *     its stroke, blur and shadows, is laid out at every frame of a
 *     timeline of at most 5,000 frames; a longer one is not checked): it
 *     is never seen.
 * Thread-safety: none needed; it reads the scene only.
 */
#ifndef RF_LINT_H
#define RF_LINT_H

#include <stddef.h>

#include "render.h"
#include "scene.h"

/* Called once per warning: pointer ("/values/x") and message (one line,
 * no file name) live until the call returns. */
typedef void (*rf_lint_fn)(void *ctx, const char *pointer, const char *message);

/* Calls fn for each warning about scene, in the order above; returns how
 * many there were. */
size_t rf_lint_scene(const rf_scene_t *scene, rf_lint_fn fn, void *ctx);

/* The same, keeping the renderer the last warning lays layers out with:
 * *r is a renderer of scene to use, or NULL, and then one the lint makes
 * is left in *r for the caller (who destroys it; NULL when the lint made
 * none). A command about to draw the scene draws with it, so the text is
 * shaped once; what the lint did with it changes no frame it draws
 * (render.h: a frame does not depend on what was drawn before). */
size_t rf_lint_scene_with(const rf_scene_t *scene, rf_renderer_t **r, rf_lint_fn fn, void *ctx);

#endif
