/* bench-render.h - what the benchmarks that draw scenes share: a renderer
 * from scene text, and the time of its draws. Benchmarks only, never the
 * library: each program includes it once, after bench.h. */
#ifndef RF_BENCH_RENDER_H
#define RF_BENCH_RENDER_H

#include "diag.h"
#include "render.h"
#include "scene.h"

/* A renderer of the scene in json (loaded as "bench.json"); exits 2 with
 * prog's message when it does not load. The scene lives as long as the
 * program. */
static inline rf_renderer_t *bench_renderer_of(const char *prog, const char *json)
{
    static rf_diag_t dg;
    rf_diag_init(&dg, "bench.json");
    rf_scene_t *sc = rf_scene_load_buffer("bench.json", json, strlen(json), &dg);
    if (!sc) {
        fprintf(stderr, "%s: %s\n", prog, dg.count ? dg.msg[0] : "scene failed");
        exit(2);
    }
    rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
    if (!r) {
        fprintf(stderr, "%s: renderer failed\n", prog);
        exit(2);
    }
    return r;
}

/* The scene file at path, loaded; exits 2 with its diagnostics when it
 * does not load. */
static inline rf_scene_t *bench_scene_file(const char *path)
{
    rf_diag_t diag;
    rf_diag_init(&diag, path);
    rf_scene_t *sc = rf_scene_load(path, &diag);
    if (sc == NULL) {
        rf_diag_print(&diag, stderr);
        exit(2);
    }
    return sc;
}

/* Seconds per draw of r, over n draws at times t0 + span * i / n. */
static inline double bench_time_draws(const char *prog, rf_renderer_t *r, int n, double t0,
                                      double span)
{
    double s0 = bench_seconds();
    for (int i = 0; i < n; i++)
        if (rf_renderer_draw(r, t0 + span * i / n) != 0) {
            fprintf(stderr, "%s: draw failed: %s\n", prog, rf_renderer_error(r));
            exit(2);
        }
    return (bench_seconds() - s0) / n;
}

#endif
