/* bench/instances.c - what the instances layer costs (`make bench`; not a
 * test).
 *
 *   100 instances of a list row (a group: a card with a stroke, an
 *     avatar, a bar; sliding and fading in, staggered 0.01 s, placed by
 *     an expression in i) on a 1920x1080 canvas
 *     / the same 100 rows written out by hand, each with its own spring
 *       and tween started k * 0.01 s later and its own constant y   goal <= 1.1
 *
 * The two scenes draw the same frames (the report prints the largest
 * channel difference of one frame: the shifted time t - k * s and the
 * shifted start differ only in rounding). Method: subject and baseline
 * alternate within a repetition (A B, then B A), 10 frames each spread
 * over the motion, the ratio is taken within the repetition and the median
 * over the repetitions is printed; the scenes and renderers are built
 * before the timing.
 *
 * Usage: bench/instances [--reps N]
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench-render.h"


#define N 100
#define STAGGER 0.01

#define HEAD                                                                               \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 1920, \"height\": 1080, \"background\": "    \
    "\"#f2f4f8\"}, \"timeline\": {\"fps\": 30, \"duration\": 2}, \"values\": {"

/* A row's group at y (a value name or a number) moved by slide and fade. */
#define ROW                                                                                \
    "{\"type\": \"group\", \"x\": \"%s\", \"y\": %s, \"opacity\": \"%s\", \"children\": ["  \
    "{\"type\": \"rect\", \"x\": 960, \"y\": 0, \"width\": 1800, \"height\": 9, "           \
    "\"radius\": 3, \"fill\": \"#ffffff\", \"stroke\": \"#d0d6ea\"}, "                      \
    "{\"type\": \"circle\", \"x\": 90, \"y\": 0, \"r\": 4, \"fill\": \"#3366cc\"}, "         \
    "{\"type\": \"rect\", \"x\": 110, \"y\": 0, \"anchor\": [0, 0.5], \"width\": 600, "     \
    "\"height\": 4, \"fill\": \"#d5dae4\"}]}"

#define SLIDE "{\"spring\": {\"from\": 400, \"to\": 0, \"stiffness\": 170, \"damping\": 18, " \
              "\"start\": %.17g}}"
#define FADE "{\"tween\": {\"from\": 0, \"to\": 1, \"duration\": 0.3, \"start\": %.17g}}"

static char *instances_scene(void)
{
    size_t cap = 1 << 16, o = 0;
    char *s = malloc(cap);
    if (!s)
        exit(2);
    o += (size_t)snprintf(s + o, cap - o, HEAD "\"slide\": " SLIDE ", \"fade\": " FADE
                          ", \"row_y\": {\"expr\": \"10 + i * 10.6\"}}, \"layers\": ["
                          "{\"type\": \"instances\", \"count\": %d, \"stagger\": %g, "
                          "\"layer\": " ROW "}]}", 0.1, 0.1, N, STAGGER, "slide",
                          "\"row_y\"", "fade");
    return s;
}

static char *copies_scene(void)
{
    size_t cap = 1 << 18, o = 0;
    char *s = malloc(cap);
    if (!s)
        exit(2);
    o += (size_t)snprintf(s + o, cap - o, HEAD);
    for (int k = 0; k < N; k++)
        o += (size_t)snprintf(s + o, cap - o, "%s\"slide%d\": " SLIDE ", \"fade%d\": " FADE,
                              k ? ", " : "", k, 0.1 + k * STAGGER, k, 0.1 + k * STAGGER);
    o += (size_t)snprintf(s + o, cap - o, "}, \"layers\": [");
    for (int k = 0; k < N; k++) {
        char sl[16], fa[16], y[32];
        snprintf(sl, sizeof sl, "slide%d", k);
        snprintf(fa, sizeof fa, "fade%d", k);
        snprintf(y, sizeof y, "%.17g", 10 + k * 10.6);
        o += (size_t)snprintf(s + o, cap - o, "%s" ROW, k ? ", " : "", sl, y, fa);
    }
    snprintf(s + o, cap - o, "]}");
    return s;
}

static rf_renderer_t *renderer_of(const char *json)
{
    return bench_renderer_of("bench/instances", json);
}

/* Seconds per draw of r, over n draws at times spread over 1.5 s from 0.05. */
static double time_draws(rf_renderer_t *r, int n)
{
    return bench_time_draws("bench/instances", r, n, 0.05, 1.5);
}

int main(int argc, char **argv)
{
    rf_render_tune_allocator(); /* as runeframe does */
    int reps = bench_reps(argc, argv, 9);
    char *js = instances_scene(), *jc = copies_scene();
    rf_renderer_t *ri = renderer_of(js), *rc = renderer_of(jc);

    /* the same frame, near enough: the largest channel difference */
    int si, sc;
    if (rf_renderer_draw(ri, 0.4) != 0 || rf_renderer_draw(rc, 0.4) != 0)
        return 2;
    const unsigned char *pi = rf_renderer_pixels(ri, &si), *pc = rf_renderer_pixels(rc, &sc);
    int maxd = 0;
    for (size_t b = 0; b < (size_t)si * 1080; b++) {
        int d = abs((int)pi[b] - (int)pc[b]);
        if (d > maxd)
            maxd = d;
    }
    printf("frame at t = 0.4: largest channel difference %d of 255\n", maxd);

    double rr[BENCH_MAXREPS], ti[BENCH_MAXREPS], tc[BENCH_MAXREPS];
    for (int k = 0; k < reps; k++) {
        if (k % 2 == 0) {
            ti[k] = time_draws(ri, 10);
            tc[k] = time_draws(rc, 10);
        } else {
            tc[k] = time_draws(rc, 10);
            ti[k] = time_draws(ri, 10);
        }
        rr[k] = ti[k] / tc[k];
    }
    double ratio = bench_median(rr, reps);
    char a[32], b[32];
    printf("100 instances of a row: %.3f ms; 100 hand-written copies: %.3f ms; ratio %.3fx "
           "(goal <= 1.1)\n", bench_median(ti, reps) * 1e3, bench_median(tc, reps) * 1e3, ratio);
    bench_row("100 instances of a row vs 100 hand-written copies", "1920x1080", ratio, "<=",
              1.1, bench_fmt(a, sizeof a, bench_median(ti, reps) * 1e3, "ms"),
              bench_fmt(b, sizeof b, bench_median(tc, reps) * 1e3, "ms"));
    rf_renderer_destroy(ri);
    rf_renderer_destroy(rc);
    free(js);
    free(jc);
    return 0;
}
