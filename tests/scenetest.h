/* scenetest.h - what the Check suites that render scene files to pixels
 * share (check_compose, check_stroke): loading a scene from a string (its
 * messages printed when it fails) and one frame's pixels. Header-only;
 * every function static inline; the suite needs cairo's compiler flags. */
#ifndef RF_SCENETEST_H
#define RF_SCENETEST_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "render.h"
#include "scene.h"
#include "values.h"

/* The scene of json, named name in messages, loaded with opts (NULL:
 * none); the test fails when it does not load. */
static inline rf_scene_t *rf_test_scene_with(const char *name, const char *json,
                                             const rf_scene_opts_t *opts)
{
    rf_diag_t *dg = malloc(sizeof *dg);
    ck_assert_ptr_nonnull(dg);
    rf_diag_init(dg, name);
    rf_scene_t *sc = rf_scene_load_buffer_with(name, json, strlen(json), opts, dg);
    if (!sc)
        for (int i = 0; i < dg->count; i++)
            fprintf(stderr, "unexpected: %s\n", dg->msg[i]);
    ck_assert_ptr_nonnull(sc);
    free(dg);
    return sc;
}

static inline rf_scene_t *rf_test_scene(const char *name, const char *json)
{
    return rf_test_scene_with(name, json, NULL);
}

/* A scene that must not load: its first error contains want. */
static inline void rf_test_load_fails(const char *json, const char *want)
{
    rf_diag_t *dg = malloc(sizeof *dg);
    ck_assert_ptr_nonnull(dg);
    rf_scene_t *sc = rf_scene_load_buffer("bad.json", json, strlen(json), dg);
    ck_assert_ptr_null(sc);
    ck_assert_int_ge(dg->count, 1);
    if (strstr(dg->msg[0], want) == NULL)
        ck_abort_msg("error '%s' does not contain '%s'", dg->msg[0], want);
    free(dg);
}

/* The frame of sc at t, w x h ARGB32 rows (stride w * 4), malloc'd. */
static inline uint32_t *rf_test_frame(const rf_scene_t *sc, double t, int w, int h)
{
    rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(rf_renderer_draw(r, t), 0);
    int stride;
    const unsigned char *p = rf_renderer_pixels(r, &stride);
    uint32_t *out = malloc((size_t)w * (size_t)h * 4);
    ck_assert_ptr_nonnull(out);
    for (int y = 0; y < h; y++)
        memcpy(out + (size_t)y * (size_t)w, p + (size_t)y * (size_t)stride, (size_t)w * 4);
    rf_renderer_destroy(r);
    return out;
}

/* The named value name of sc, which must exist. */
static inline const rf_value_t *rf_test_value(const rf_scene_t *sc, const char *name)
{
    const rf_value_t *v = rf_values_find(&sc->values, name);
    ck_assert_ptr_nonnull(v);
    return v;
}

#endif
