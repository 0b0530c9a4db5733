/* bench/text.c - what text costs against shapes of similar coverage, all
 * at 1920x1080, drawing only (rf_renderer_draw; `make bench`, not a test).
 *
 *   2,000 glyphs of static text / 2,000 rectangles            goal <= 2
 *   a counter (a new string every frame) / static text        goal <= 1.3
 *   per_glyph on 200 glyphs / 200 rectangles, same motion     goal <= 2
 *
 * Method: each scene is a JSON string built here. So that the static-prefix
 * cache (render-prefix.c) copies nothing, every subject and baseline moves
 * as a whole (a `wob` value in y), so both draw every frame. Each
 * repetition draws the same NFRAMES frame times through both renderers,
 * the order alternating; the ratio is taken within a repetition and the
 * median over repetitions is printed. The renderers are created once: the
 * first repetition also warms the text caches (shaped strings, glyph
 * outlines), as a render of more than one frame does; the counter shows
 * NFRAMES distinct strings, so its figure is the cost of a cached layout
 * per frame, not of shaping.
 *
 * Usage: bench/text [--reps N]
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#include "diag.h"
#include "render.h"
#include "scene.h"

#define NFRAMES 24
#define BIG (1 << 20)

static char *buf_new(void)
{
    char *b = malloc(BIG);
    if (b == NULL) {
        fprintf(stderr, "bench/text: out of memory\n");
        exit(2);
    }
    b[0] = '\0';
    return b;
}

static void cat(char *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void cat(char *b, const char *fmt, ...)
{
    size_t n = strlen(b);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b + n, BIG - n, fmt, ap);
    va_end(ap);
}

static const char *head =
    "{\"runeframe\": 1, \"canvas\": {\"width\": 1920, \"height\": 1080, \"background\": "
    "\"#ffffff\"}, \"timeline\": {\"fps\": 24, \"duration\": 1}, \"values\": {\"wob\": "
    "{\"tween\": {\"from\": 0, \"to\": 6, \"duration\": 1}}, \"nf\": {\"tween\": {\"from\": 0, "
    "\"to\": 23, \"duration\": 1}}, \"rise\": {\"tween\": {\"from\": 30, \"to\": 0, "
    "\"duration\": 0.5, \"easing\": \"ease-out\"}}, \"fade\": {\"tween\": {\"from\": 0, "
    "\"to\": 1, \"duration\": 0.5}}%s}, \"layers\": [";

static rf_renderer_t *make(const char *json)
{
    rf_diag_t *d = malloc(sizeof *d);
    char err[256];
    rf_diag_init(d, "bench.json");
    rf_scene_t *sc = rf_scene_load_buffer("bench.json", json, strlen(json), d);
    if (sc == NULL) {
        rf_diag_print(d, stderr);
        exit(2);
    }
    free(d);
    rf_renderer_t *r = rf_renderer_create(sc, err, sizeof err);
    if (r == NULL) {
        fprintf(stderr, "bench/text: %s\n", err);
        exit(2);
    }
    return r;
}

static double draw_all(rf_renderer_t *r)
{
    double t0 = bench_now();
    for (int i = 0; i < NFRAMES; i++)
        if (rf_renderer_draw(r, (double)i / NFRAMES) != 0) {
            fprintf(stderr, "bench/text: %s\n", rf_renderer_error(r));
            exit(2);
        }
    return (bench_now() - t0) / NFRAMES;
}

/* Median ratio a/b over reps, and the medians of each (ms per frame). */
static void pair(rf_renderer_t *a, rf_renderer_t *b, int reps, const char *figure, double goal)
{
    double ra[BENCH_MAXREPS], rb[BENCH_MAXREPS], q[BENCH_MAXREPS];
    draw_all(a); /* warm the caches */
    draw_all(b);
    for (int i = 0; i < reps; i++) {
        if (i % 2) {
            rb[i] = draw_all(b);
            ra[i] = draw_all(a);
        } else {
            ra[i] = draw_all(a);
            rb[i] = draw_all(b);
        }
        q[i] = ra[i] / rb[i];
    }
    double m = bench_median(q, reps);
    char s[64], t[64];
    snprintf(s, sizeof s, "%.3f ms", bench_median(ra, reps) / 1e6);
    snprintf(t, sizeof t, "%.3f ms", bench_median(rb, reps) / 1e6);
    printf("%-44s %6.3fx (goal <= %g): %s vs %s per frame\n", figure, m, goal, s, t);
    bench_row(figure, "1080", m, "<=", goal, s, t);
}

static const char *words = "Every frame of a demo needs words that move well. ";

int main(int argc, char **argv)
{
    rf_render_tune_allocator(); /* as runeframe does */
    int reps = 9;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
    if (reps < 1 || reps > BENCH_MAXREPS)
        reps = 9;

    /* 1. 2,000 glyphs (20 lines of 100) vs 2,000 rectangles 6x9 px */
    char *text = buf_new(), *rects = buf_new(), line[128];
    cat(text, head, "");
    cat(text, "{\"type\": \"text\", \"text\": \"");
    for (int l = 0; l < 20; l++) {
        for (int k = 0; k < 100; k++)
            line[k] = words[(l * 7 + k) % strlen(words)];
        line[100] = '\0';
        cat(text, "%s%s", line, l < 19 ? "\\n" : "");
    }
    cat(text, "\", \"size\": 20, \"x\": 60, \"y\": \"wob\", \"anchor\": [0, 0]}]}");
    cat(rects, head, "");
    cat(rects, "{\"type\": \"group\", \"y\": \"wob\", \"children\": [");
    for (int i = 0; i < 2000; i++)
        cat(rects, "%s{\"type\": \"rect\", \"x\": %d, \"y\": %d, \"width\": 6, \"height\": 9, "
            "\"fill\": \"#000000\"}", i ? ", " : "", 60 + (i % 100) * 11, 40 + (i / 100) * 25);
    cat(rects, "]}]}");
    rf_renderer_t *rt = make(text), *rr = make(rects);
    printf("bench/text: %d repetitions of %d frames each, 1920x1080\n", reps, NFRAMES);
    pair(rt, rr, reps, "2000 glyphs / 2000 rects", 2);

    /* 2. a counter's new string each frame vs the same text static */
    char *counter = buf_new(), *fixed = buf_new();
    const char *para = "Uploaded {nf:,d} files of the archive to the server in the cloud";
    cat(counter, head, "");
    cat(fixed, head, "");
    for (int l = 0; l < 4; l++) {
        cat(counter, "%s{\"type\": \"text\", \"text\": \"%s\", \"features\": [\"tnum\"], "
            "\"size\": 28, \"x\": 60, \"y\": %d}", l ? ", " : "", para, 100 + l * 60);
        cat(fixed, "%s{\"type\": \"text\", \"text\": \"Uploaded 12 files of the archive to "
            "the server in the cloud\", \"features\": [\"tnum\"], \"size\": 28, \"x\": 60, "
            "\"y\": %d}", l ? ", " : "", 100 + l * 60);
    }
    /* both move, so both draw */
    cat(counter, ", {\"type\": \"rect\", \"x\": 10, \"y\": \"wob\", \"width\": 2, \"height\": 2, "
        "\"fill\": \"#000\"}]}");
    cat(fixed, ", {\"type\": \"rect\", \"x\": 10, \"y\": \"wob\", \"width\": 2, \"height\": 2, "
        "\"fill\": \"#000\"}]}");
    rf_renderer_t *rc = make(counter), *rf = make(fixed);
    pair(rc, rf, reps, "counter / static text", 1.3);

    /* 3. per_glyph on 200 glyphs vs 200 rects with the same motion */
    char *pg = buf_new(), *pr = buf_new(), *vals = buf_new();
    for (int i = 0; i < 200; i++)
        cat(vals, ", \"r%d\": {\"tween\": {\"from\": 30, \"to\": 0, \"duration\": 0.5, "
            "\"easing\": \"ease-out\", \"start\": %.17g}}, \"f%d\": {\"tween\": {\"from\": 0, "
            "\"to\": 1, \"duration\": 0.5, \"start\": %.17g}}", i, i * 0.004, i, i * 0.004);
    cat(pg, head, vals);
    cat(pg, "{\"type\": \"text\", \"text\": \"");
    for (int k = 0; k < 200; k++)
        cat(pg, "%c", words[k % strlen(words)] == ' ' ? 'o' : words[k % strlen(words)]);
    cat(pg, "\", \"size\": 16, \"width\": 1700, \"x\": 60, \"y\": 300, \"anchor\": [0, 0], "
        "\"per_glyph\": {\"stagger\": 0.004, \"y\": \"rise\", \"opacity\": \"fade\"}}]}");
    cat(pr, head, vals);
    for (int i = 0; i < 200; i++)
        cat(pr, "%s{\"type\": \"rect\", \"x\": %d, \"y\": {\"expr\": \"300 + r%d\"}, \"width\": 5, "
            "\"height\": 8, \"fill\": \"#000000\", \"opacity\": \"f%d\"}", i ? ", " : "",
            60 + i * 8, i, i);
    cat(pr, "]}");
    rf_renderer_t *rp = make(pg), *rq = make(pr);
    pair(rp, rq, reps, "per_glyph 200 glyphs / 200 rects", 2);
    return 0;
}
