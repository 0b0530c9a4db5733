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

/* Kind k of the PNG corpus (bench/scenes/corpus/gen.py), NULL past the
 * last: the frame kinds every per-kind figure is reported for. */
static inline const char *bench_corpus_kind(int k)
{
    static const char *const kinds[] = {
        "flat-ui", "showcase", "gradient", "photo", "translucent", "strokes", "text", NULL
    };
    return k >= 0 && k < (int)(sizeof kinds / sizeof kinds[0]) ? kinds[k] : NULL;
}

/* Whether name is one of the comma-separated list (--kinds a,b). */
static inline int bench_in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p != NULL && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* The corpus options every per-kind benchmark takes: when argv[*i] is
 * --corpus DIR, --kinds a,b or --time T, stores its value, steps *i past
 * it and returns 1; else 0. */
static inline int bench_corpus_arg(int argc, char **argv, int *i, const char **corpus,
                                   const char **kinds, double *t)
{
    if (*i + 1 >= argc)
        return 0;
    if (strcmp(argv[*i], "--corpus") == 0)
        *corpus = argv[++*i];
    else if (strcmp(argv[*i], "--kinds") == 0)
        *kinds = argv[++*i];
    else if (strcmp(argv[*i], "--time") == 0)
        *t = atof(argv[++*i]);
    else
        return 0;
    return 1;
}

/* Kind k's scene at size (720 or 1080) from corpus, loaded (the showcase
 * is the benchmarks' own, one folder up), its path into path; and a
 * renderer that has drawn its frame at t. Exits 2 on any failure. */
static inline rf_renderer_t *bench_corpus_frame(const char *corpus, int k, int size, double t,
                                                char *path, size_t n, rf_scene_t **scene)
{
    snprintf(path, n, "%s/%s%s-%d.json", corpus, strcmp(bench_corpus_kind(k), "showcase") == 0
                                                     ? "../" : "",
             bench_corpus_kind(k), size);
    rf_scene_t *sc = bench_scene_file(path);
    char msg[256];
    rf_renderer_t *r = rf_renderer_create(sc, msg, sizeof msg);
    if (r == NULL || rf_renderer_draw(r, t) != 0) {
        fprintf(stderr, "bench: %s: %s\n", path, r ? rf_renderer_error(r) : msg);
        exit(2);
    }
    *scene = sc;
    return r;
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
