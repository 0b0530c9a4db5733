/* bench/lottie.c - runeframe's drawing against rlottie's (Samsung's Lottie
 * renderer, Debian librlottie-dev) on the same content (`make bench`; not
 * a test; built only when configure finds rlottie, skipped otherwise).
 *
 *   60 frames at 1920x1080 of N moving shapes, N = 20, 200, 2000: a third
 *   rounded rects, a third ellipses (translucent fill), a third stroked
 *   cubic blobs, each moving on a straight line over the 60 frames.
 *   runeframe's draw of a frame / rlottie's render of it, CPU time of the
 *   process (rlottie's rasterizer threads included: rlottie held to one
 *   core)                                                      goal <= 1.0
 *
 * The scene and its Lottie twin are generated here from one list of
 * shapes (the Lottie layers in reverse: Lottie draws its first layer on
 * top; the canvas's white background is a solid layer under them). Method: subject and baseline alternate within a repetition (A B,
 * then B A), the ratio is taken within the repetition and the median over
 * the repetitions is printed; rlottie's wall time (as shipped, with its
 * threads) is printed beside it.
 *
 * Usage: bench/lottie [--reps N]
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <rlottie_capi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "bench-render.h"

#define W 1920
#define H 1080
#define FRAMES 60
#define FPS 30

/* A growing string. */
typedef struct {
    char *s;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + (k > 0 ? (size_t)k : 0) + 4096;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            exit(2);
    }
}

/* Shape i of n: kind (0 rect, 1 ellipse, 2 blob), start and end of its
 * center, its size and color. */
typedef struct {
    int kind;
    double x0, y0, x1, y1, sz;
    int r, g, b;
} shape_t;

static void shapes_make(shape_t *s, int n)
{
    for (int i = 0; i < n; i++) {
        s[i].kind = i % 3;
        s[i].x0 = 60 + bench_uniform() * (W - 120);
        s[i].y0 = 60 + bench_uniform() * (H - 120);
        s[i].x1 = s[i].x0 + (bench_uniform() - 0.5) * 300;
        s[i].y1 = s[i].y0 + (bench_uniform() - 0.5) * 300;
        s[i].sz = 24 + bench_uniform() * 56;
        s[i].r = (int)(bench_uniform() * 255);
        s[i].g = (int)(bench_uniform() * 255);
        s[i].b = (int)(bench_uniform() * 255);
    }
}

/* The blob: a closed path of four cubics around (0, 0), radius about q. */
static const double blob[4][6] = {
    { 0.55, -1.1, 1.2, -0.5, 1.0, 0.1 },   /* c1, c2, end of each cubic */
    { 0.8, 0.7, 0.4, 1.05, -0.1, 0.9 },
    { -0.6, 0.75, -1.1, 0.45, -0.95, -0.1 },
    { -0.8, -0.65, -0.45, -1.0, 0.1, -0.95 },
};

static char *scene_json(const shape_t *s, int n)
{
    buf_t b = { NULL, 0, 0 };
    double dur = (double)FRAMES / FPS;
    put(&b, "{\"runeframe\": 1, \"canvas\": {\"width\": %d, \"height\": %d, \"background\": "
        "\"#ffffff\"}, \"timeline\": {\"fps\": %d, \"duration\": %g}, \"layers\": [",
        W, H, FPS, dur);
    for (int i = 0; i < n; i++) {
        const shape_t *p = &s[i];
        put(&b, "%s{", i ? ", " : "");
        if (p->kind == 2) { /* canvas coordinates: x, y translate the path */
            put(&b, "\"type\": \"path\", \"path\": \"M %.3f %.3f", 0.1 * p->sz, -0.95 * p->sz);
            for (int k = 0; k < 4; k++)
                put(&b, " C %.3f %.3f %.3f %.3f %.3f %.3f", blob[k][0] * p->sz, blob[k][1] * p->sz,
                    blob[k][2] * p->sz, blob[k][3] * p->sz, blob[k][4] * p->sz, blob[k][5] * p->sz);
            put(&b, " Z\", \"stroke\": \"#%02x%02x%02x\", \"stroke_width\": 3, ", p->r, p->g, p->b);
        } else if (p->kind == 1) {
            put(&b, "\"type\": \"ellipse\", \"rx\": %.3f, \"ry\": %.3f, \"fill\": \"#%02x%02x%02xcc\", ",
                p->sz / 2, p->sz / 3, p->r, p->g, p->b);
        } else {
            put(&b, "\"type\": \"rect\", \"anchor\": [0.5, 0.5], \"width\": %.3f, \"height\": %.3f, "
                "\"radius\": %.3f, \"fill\": \"#%02x%02x%02x\", ", p->sz, p->sz * 0.6, p->sz * 0.15,
                p->r, p->g, p->b);
        }
        put(&b, "\"x\": {\"tween\": {\"from\": %.3f, \"to\": %.3f, \"duration\": %g}}, "
            "\"y\": {\"tween\": {\"from\": %.3f, \"to\": %.3f, \"duration\": %g}}}",
            p->x0, p->x1, dur, p->y0, p->y1, dur);
    }
    put(&b, "]}");
    return b.s;
}

static char *lottie_json(const shape_t *s, int n)
{
    buf_t b = { NULL, 0, 0 };
    put(&b, "{\"v\": \"5.5.2\", \"fr\": %d, \"ip\": 0, \"op\": %d, \"w\": %d, \"h\": %d, "
        "\"nm\": \"bench\", \"ddd\": 0, \"assets\": [], \"layers\": [", FPS, FRAMES, W, H);
    for (int j = 0; j < n; j++) {
        int i = n - 1 - j; /* the first Lottie layer is the top one */
        const shape_t *p = &s[i];
        double cr = p->r / 255.0, cg = p->g / 255.0, cb = p->b / 255.0;
        put(&b, "%s{\"ddd\": 0, \"ind\": %d, \"ty\": 4, \"nm\": \"s%d\", \"sr\": 1, \"ks\": {"
            "\"o\": {\"a\": 0, \"k\": 100}, \"r\": {\"a\": 0, \"k\": 0}, "
            "\"p\": {\"a\": 1, \"k\": [{\"t\": 0, \"s\": [%.3f, %.3f, 0], \"e\": [%.3f, %.3f, 0], "
            "\"i\": {\"x\": 1, \"y\": 1}, \"o\": {\"x\": 0, \"y\": 0}}, {\"t\": %d}]}, "
            "\"a\": {\"a\": 0, \"k\": [0, 0, 0]}, \"s\": {\"a\": 0, \"k\": [100, 100, 100]}}, "
            "\"ao\": 0, \"shapes\": [{\"ty\": \"gr\", \"it\": [",
            j ? ", " : "", j + 1, i, p->x0, p->y0, p->x1, p->y1, FRAMES);
        if (p->kind == 2) {
            double v[4][2], in[4][2], out[4][2];
            /* vertex k is the end of cubic k - 1; its out tangent leads into
             * cubic k, its in tangent comes from cubic k - 1 (relative) */
            for (int k = 0; k < 4; k++) {
                const double *c = blob[(k + 3) % 4];
                v[k][0] = c[4] * p->sz;
                v[k][1] = c[5] * p->sz;
                in[k][0] = c[2] * p->sz - v[k][0];
                in[k][1] = c[3] * p->sz - v[k][1];
            }
            for (int k = 0; k < 4; k++) {
                out[k][0] = blob[k][0] * p->sz - v[k][0];
                out[k][1] = blob[k][1] * p->sz - v[k][1];
            }
            put(&b, "{\"ty\": \"sh\", \"ks\": {\"a\": 0, \"k\": {\"c\": true, \"v\": [");
            for (int k = 0; k < 4; k++)
                put(&b, "%s[%.3f, %.3f]", k ? ", " : "", v[k][0], v[k][1]);
            put(&b, "], \"i\": [");
            for (int k = 0; k < 4; k++)
                put(&b, "%s[%.3f, %.3f]", k ? ", " : "", in[k][0], in[k][1]);
            put(&b, "], \"o\": [");
            for (int k = 0; k < 4; k++)
                put(&b, "%s[%.3f, %.3f]", k ? ", " : "", out[k][0], out[k][1]);
            put(&b, "]}}}, {\"ty\": \"st\", \"c\": {\"a\": 0, \"k\": [%.4f, %.4f, %.4f, 1]}, "
                "\"o\": {\"a\": 0, \"k\": 100}, \"w\": {\"a\": 0, \"k\": 3}, \"lc\": 1, \"lj\": 1, "
                "\"ml\": 4}", cr, cg, cb);
        } else if (p->kind == 1) {
            put(&b, "{\"ty\": \"el\", \"d\": 1, \"s\": {\"a\": 0, \"k\": [%.3f, %.3f]}, "
                "\"p\": {\"a\": 0, \"k\": [0, 0]}}, {\"ty\": \"fl\", \"c\": {\"a\": 0, \"k\": "
                "[%.4f, %.4f, %.4f, 1]}, \"o\": {\"a\": 0, \"k\": 80}, \"r\": 1}",
                p->sz, p->sz * 2 / 3, cr, cg, cb);
        } else {
            put(&b, "{\"ty\": \"rc\", \"d\": 1, \"s\": {\"a\": 0, \"k\": [%.3f, %.3f]}, "
                "\"p\": {\"a\": 0, \"k\": [0, 0]}, \"r\": {\"a\": 0, \"k\": %.3f}}, "
                "{\"ty\": \"fl\", \"c\": {\"a\": 0, \"k\": [%.4f, %.4f, %.4f, 1]}, "
                "\"o\": {\"a\": 0, \"k\": 100}, \"r\": 1}",
                p->sz, p->sz * 0.6, p->sz * 0.15, cr, cg, cb);
        }
        put(&b, ", {\"ty\": \"tr\", \"p\": {\"a\": 0, \"k\": [0, 0]}, \"a\": {\"a\": 0, \"k\": [0, 0]}, "
            "\"s\": {\"a\": 0, \"k\": [100, 100]}, \"r\": {\"a\": 0, \"k\": 0}, "
            "\"o\": {\"a\": 0, \"k\": 100}}]}], \"ip\": 0, \"op\": %d, \"st\": 0, \"bm\": 0}",
            FRAMES);
    }
    /* the canvas background: a white solid layer under them all */
    put(&b, "%s{\"ddd\": 0, \"ind\": %d, \"ty\": 1, \"nm\": \"background\", \"sr\": 1, "
        "\"ks\": {\"o\": {\"a\": 0, \"k\": 100}, \"r\": {\"a\": 0, \"k\": 0}, "
        "\"p\": {\"a\": 0, \"k\": [%d, %d, 0]}, \"a\": {\"a\": 0, \"k\": [%d, %d, 0]}, "
        "\"s\": {\"a\": 0, \"k\": [100, 100, 100]}}, \"ao\": 0, \"sw\": %d, \"sh\": %d, "
        "\"sc\": \"#ffffff\", \"ip\": 0, \"op\": %d, \"st\": 0, \"bm\": 0}]}",
        n ? ", " : "", n + 1, W / 2, H / 2, W / 2, H / 2, W, H, FRAMES);
    return b.s;
}

/* CPU seconds of the process (every thread). */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds per frame, CPU and wall, of the 60 frames drawn by runeframe. */
static void time_runeframe(rf_renderer_t *r, double *cpu, double *wall)
{
    double c0 = cpu_seconds(), w0 = bench_seconds();
    for (int f = 0; f < FRAMES; f++)
        if (rf_renderer_draw(r, (double)f / FPS) != 0) {
            fprintf(stderr, "bench/lottie: draw failed: %s\n", rf_renderer_error(r));
            exit(2);
        }
    *cpu = (cpu_seconds() - c0) / FRAMES;
    *wall = (bench_seconds() - w0) / FRAMES;
}

static void time_rlottie(Lottie_Animation *a, uint32_t *px, double *cpu, double *wall)
{
    double c0 = cpu_seconds(), w0 = bench_seconds();
    for (int f = 0; f < FRAMES; f++)
        lottie_animation_render(a, (size_t)f, px, W, H, (size_t)W * 4);
    *cpu = (cpu_seconds() - c0) / FRAMES;
    *wall = (bench_seconds() - w0) / FRAMES;
}

int main(int argc, char **argv)
{
    rf_render_tune_allocator(); /* as runeframe does */
    int reps = bench_reps(argc, argv, 9);
    static const int counts[] = { 20, 200, 2000 };
    uint32_t *px = malloc((size_t)W * H * 4);
    if (!px)
        return 2;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int n = counts[c];
        shape_t *s = malloc(sizeof *s * (size_t)n);
        if (!s)
            return 2;
        shapes_make(s, n);
        char *sj = scene_json(s, n), *lj = lottie_json(s, n);
        rf_renderer_t *r = bench_renderer_of("bench/lottie", sj);
        Lottie_Animation *a = lottie_animation_from_data(lj, "", "");
        if (!a) {
            fprintf(stderr, "bench/lottie: rlottie did not load the Lottie twin of %d shapes\n", n);
            return 2;
        }
        if (lottie_animation_get_totalframe(a) != FRAMES) {
            fprintf(stderr, "bench/lottie: rlottie reads %zu frames, not %d\n",
                    lottie_animation_get_totalframe(a), FRAMES);
            return 2;
        }
        double rr[BENCH_MAXREPS], ta[BENCH_MAXREPS], tb[BENCH_MAXREPS], wb[BENCH_MAXREPS], wa;
        time_runeframe(r, &ta[0], &wa); /* warm both: caches, glyph-free */
        time_rlottie(a, px, &tb[0], &wb[0]);
        for (int k = 0; k < reps; k++) {
            if (k % 2 == 0) {
                time_runeframe(r, &ta[k], &wa);
                time_rlottie(a, px, &tb[k], &wb[k]);
            } else {
                time_rlottie(a, px, &tb[k], &wb[k]);
                time_runeframe(r, &ta[k], &wa);
            }
            rr[k] = ta[k] / tb[k];
        }
        double ratio = bench_median(rr, reps), ma = bench_median(ta, reps) * 1e3,
               mb = bench_median(tb, reps) * 1e3, mw = bench_median(wb, reps) * 1e3;
        printf("%4d shapes: runeframe %.3f ms, rlottie %.3f ms CPU (%.3f ms wall, its threads), "
               "ratio %.2fx (goal <= 1)\n", n, ma, mb, mw, ratio);
        char fig[80], x[32], y[32];
        snprintf(fig, sizeof fig, "draw %d moving shapes vs rlottie (CPU)", n);
        bench_row(fig, "1920x1080", ratio, "<=", 1.0, bench_fmt(x, sizeof x, ma, "ms"),
                  bench_fmt(y, sizeof y, mb, "ms"));
        lottie_animation_destroy(a);
        rf_renderer_destroy(r);
        free(sj);
        free(lj);
        free(s);
    }
    free(px);
    return 0;
}
