/* bench/compose.c - what compositing costs (`make bench`; not a test).
 *
 *   blur (s = 12) of a 400 x 300 region of a 1920x1080 canvas
 *     / memcpy of the same region, row by row                  goal <= 12
 *   a card with a shadow (blur 24: s = 12) / the card         goal <= 3
 *   a 390x844 phone screen, clipped (rounded rect), on a 1080p
 *     canvas / the same screen unclipped                       goal <= 1.2
 *
 * Method: subject and baseline alternate within a repetition (A B, then
 * B A), the ratio is taken within the repetition and the median over the
 * repetitions is printed; every input is built before the timing. A
 * drawing sample is 40 frames (about 6-16 ms): with 10, one sample in a
 * run of 11 shifted the card's median by 10%.
 *
 * Usage: bench/compose [--reps N]
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

#include "blur.h"

#define W 1920
#define H 1080

static rf_renderer_t *renderer_of(const char *json)
{
    return bench_renderer_of("bench/compose", json);
}

/* Seconds per draw of r, over n draws at times spread over 1 s from 0. */
static double time_draws(rf_renderer_t *r, int n)
{
    return bench_time_draws("bench/compose", r, n, 0, 1);
}

#define HEAD                                                                               \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 1920, \"height\": 1080, \"background\": "    \
    "\"#0b0f1a\"}, \"timeline\": {\"fps\": 30, \"duration\": 1}, \"values\": {\"s\": "       \
    "{\"tween\": {\"from\": 0, \"to\": -200, \"duration\": 1}}}, \"layers\": ["

#define CARD                                                                               \
    "{\"type\": \"rect\", \"x\": 760, \"y\": 390, \"anchor\": [0, 0], \"width\": 400, "      \
    "\"height\": 300, \"radius\": 18, \"fill\": \"#ffffff\", \"opacity\": {\"tween\": "      \
    "{\"from\": 0.99, \"to\": 1, \"duration\": 1}}}"
#define SHADOWED                                                                           \
    "{\"type\": \"rect\", \"x\": 760, \"y\": 390, \"anchor\": [0, 0], \"width\": 400, "      \
    "\"height\": 300, \"radius\": 18, \"fill\": \"#ffffff\", \"opacity\": {\"tween\": "      \
    "{\"from\": 0.99, \"to\": 1, \"duration\": 1}}, \"shadow\": {\"x\": 0, \"y\": 8, "      \
    "\"blur\": 24, \"color\": \"#0000003d\"}}"

static char *phone(int clipped)
{
    size_t cap = 1 << 16, o = 0;
    char *s = malloc(cap);
    if (!s)
        exit(2);
    o += (size_t)snprintf(s + o, cap - o, HEAD "{\"type\": \"group\", \"x\": 765, \"y\": 118, %s"
                          "\"children\": [{\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": [0, 0], "
                          "\"width\": 390, \"height\": 844, \"fill\": \"#eef1fb\"}, "
                          "{\"type\": \"group\", \"y\": \"s\", \"children\": [",
                          clipped ? "\"clip\": {\"type\": \"rect\", \"x\": 0, \"y\": 0, \"anchor\": "
                                    "[0, 0], \"width\": 390, \"height\": 844, \"radius\": 40}, "
                                  : "");
    for (int i = 0; i < 9; i++)
        o += (size_t)snprintf(s + o, cap - o, "%s{\"type\": \"rect\", \"x\": 24, \"y\": %d, "
                              "\"anchor\": [0, 0], \"width\": 342, \"height\": 96, \"radius\": 18, "
                              "\"fill\": \"#ffffff\", \"stroke\": \"#d0d6ea\"}, {\"type\": \"circle\", "
                              "\"x\": 72, \"y\": %d, \"r\": 26, \"fill\": \"#ff3860\"}",
                              i ? ", " : "", 40 + i * 118, 88 + i * 118);
    snprintf(s + o, cap - o, "]}]}]}");
    return s;
}

int main(int argc, char **argv)
{
    rf_render_tune_allocator(); /* as runeframe does */
    int reps = bench_reps(argc, argv, 9);
    char a[32], b[32];

    /* 1. blur vs memcpy of a 400 x 300 region */
    size_t stride = (size_t)W * 4;
    uint8_t *canvas = malloc(stride * H), *copy = malloc(stride * H);
    void *line = malloc(RF_BLUR_WORK(400, 300));
    if (!canvas || !copy || !line)
        return 2;
    for (size_t i = 0; i < stride * H; i += 4) {
        uint8_t v = (uint8_t)(bench_uniform() * 255);
        canvas[i] = canvas[i + 1] = canvas[i + 2] = (uint8_t)(v / 2);
        canvas[i + 3] = v;
    }
    double rb[BENCH_MAXREPS], tb[BENCH_MAXREPS], tm[BENCH_MAXREPS];
    uint8_t *reg = canvas + 390 * stride + 760 * 4, *dst = copy + 390 * stride + 760 * 4;
    for (int k = 0; k < reps; k++) {
        double t[2];
        for (int j = 0; j < 2; j++) {
            int blur = (j == 0) == (k % 2 == 0);
            int n = blur ? 20 : 2000;
            double t0 = bench_now();
            for (int i = 0; i < n; i++) {
                if (blur)
                    rf_blur_argb32(reg, (int)stride, 400, 300, 12, line);
                else
                    for (int y = 0; y < 300; y++)
                        memcpy(dst + (size_t)y * stride, reg + (size_t)y * stride, 400 * 4);
            }
            t[blur ? 0 : 1] = (bench_now() - t0) / n;
        }
        tb[k] = t[0];
        tm[k] = t[1];
        rb[k] = t[0] / t[1];
    }
    double ratio = bench_median(rb, reps);
    printf("blur s=12 of 400x300 at 1080p: %.1f us; memcpy: %.2f us; ratio %.2fx (goal <= 12)\n",
           bench_median(tb, reps) * 1e-3, bench_median(tm, reps) * 1e-3, ratio);
    bench_row("blur 400x300 (s=12) vs memcpy of it", "1920x1080", ratio, "<=", 12,
              bench_fmt(a, sizeof a, bench_median(tb, reps) * 1e-3, "us"),
              bench_fmt(b, sizeof b, bench_median(tm, reps) * 1e-3, "us"));

    /* 2. card over a blurred shadow vs the card; 3. clipped vs not */
    struct { const char *figure; const char *goal; double g; const char *sub, *base; } figs[2];
    char *clip = phone(1), *noclip = phone(0);
    figs[0].figure = "card with shadow (blur 24) vs card";
    figs[0].g = 3;
    figs[0].sub = HEAD SHADOWED "]}";
    figs[0].base = HEAD CARD "]}";
    figs[1].figure = "clipped 390x844 screen vs unclipped";
    figs[1].g = 1.2;
    figs[1].sub = clip;
    figs[1].base = noclip;
    for (int f = 0; f < 2; f++) {
        rf_renderer_t *rs = renderer_of(figs[f].sub), *rbase = renderer_of(figs[f].base);
        double rr[BENCH_MAXREPS], ts[BENCH_MAXREPS], tq[BENCH_MAXREPS];
        for (int k = 0; k < reps; k++) {
            if (k % 2 == 0) {
                ts[k] = time_draws(rs, 40);
                tq[k] = time_draws(rbase, 40);
            } else {
                tq[k] = time_draws(rbase, 40);
                ts[k] = time_draws(rs, 40);
            }
            rr[k] = ts[k] / tq[k];
        }
        ratio = bench_median(rr, reps);
        printf("%s: %.3f ms vs %.3f ms, ratio %.2fx (goal <= %g)\n", figs[f].figure,
               bench_median(ts, reps) * 1e3, bench_median(tq, reps) * 1e3, ratio, figs[f].g);
        bench_row(figs[f].figure, "1920x1080", ratio, "<=", figs[f].g,
                  bench_fmt(a, sizeof a, bench_median(ts, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, bench_median(tq, reps) * 1e3, "ms"));
        rf_renderer_destroy(rs);
        rf_renderer_destroy(rbase);
    }
    free(clip);
    free(noclip);
    free(canvas);
    free(copy);
    free(line);
    return 0;
}
