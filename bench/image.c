/* bench/image.c - what image layers cost (`make bench`; not a test).
 *
 *   a 1080p frame drawing a full-canvas PNG screenshot scaled by 0.9
 *     / cairo painting the same decoded surface at the same matrix    goal <= 1.1
 *   an SVG icon drawn at 50 sizes (image layers, librsvg)
 *     / the same icon's path as 50 path layers                         informative
 *   peak RSS of `render --jobs 2` of ten 1080p images, less that of the
 *     same scene without them / 10 x one decoded image (8.3 MB)       goal <= 1.2
 *
 * Method: subject and baseline alternate within a repetition (A B, then
 * B A), the ratio is taken within the repetition and the median over the
 * repetitions is printed; every input is built before the timing. The
 * image files are written into a temporary folder first.
 *
 * Usage: bench/image [--reps N] [--runeframe PATH]
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _GNU_SOURCE 1
#endif
#include <cairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#include "diag.h"
#include "image.h"
#include "render.h"
#include "scene.h"

#define W 1920
#define H 1080

static char dir[64];

static rf_scene_t *scene_of(const char *json)
{
    static rf_diag_t dg;
    char name[128];
    snprintf(name, sizeof name, "%s/bench.json", dir);
    rf_diag_init(&dg, name);
    rf_scene_t *sc = rf_scene_load_buffer(name, json, strlen(json), &dg);
    if (!sc) {
        fprintf(stderr, "bench/image: %s\n", dg.count ? dg.msg[0] : "scene failed");
        exit(2);
    }
    return sc;
}

static rf_renderer_t *renderer_of(rf_scene_t *sc)
{
    rf_renderer_t *r = rf_renderer_create(sc, NULL, 0);
    if (!r) {
        fprintf(stderr, "bench/image: renderer failed\n");
        exit(2);
    }
    return r;
}

static double time_draws(rf_renderer_t *r, int n)
{
    double t0 = bench_seconds();
    for (int i = 0; i < n; i++)
        if (rf_renderer_draw(r, (double)i / n) != 0) {
            fprintf(stderr, "bench/image: draw failed: %s\n", rf_renderer_error(r));
            exit(2);
        }
    return (bench_seconds() - t0) / n;
}

/* A 1080p "screenshot": bands, text-like bars and a gradient, opaque. */
static void write_shot(const char *path, int seed)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_pattern_t *g = cairo_pattern_create_linear(0, 0, W, H);
    cairo_pattern_add_color_stop_rgb(g, 0, 0.93, 0.95, 0.98);
    cairo_pattern_add_color_stop_rgb(g, 1, 0.80, 0.85, 0.95 - 0.02 * seed);
    cairo_set_source(cr, g);
    cairo_paint(cr);
    cairo_pattern_destroy(g);
    for (int i = 0; i < 400; i++) {
        cairo_set_source_rgb(cr, bench_uniform(), bench_uniform(), bench_uniform());
        cairo_rectangle(cr, bench_uniform() * W, bench_uniform() * H, 20 + bench_uniform() * 300,
                        6 + bench_uniform() * 20);
        cairo_fill(cr);
    }
    cairo_destroy(cr);
    if (cairo_surface_write_to_png(s, path) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "bench/image: cannot write %s\n", path);
        exit(2);
    }
    cairo_surface_destroy(s);
}

#define HEAD                                                                               \
    "{\"runeframe\": 1, \"canvas\": {\"width\": 1920, \"height\": 1080, \"background\": "    \
    "\"#0b0f1a\"}, \"timeline\": {\"fps\": 30, \"duration\": 1}, \"layers\": ["

#define ICON_PATH "M13.5 3.5 6.5 13.2h5l-1 7.3 7-9.7h-5z"

/* Peak RSS (kB) of runeframe rendering scene with --jobs 2. */
static long peak_rss(const char *rf, const char *scene, const char *out)
{
    pid_t p = fork();
    if (p == 0) {
        execl(rf, rf, "render", scene, "-o", out, "--jobs", "2", "--quiet", (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (p < 0 || wait4(p, &st, 0, &ru) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench/image: %s render %s failed\n", rf, scene);
        exit(2);
    }
    return ru.ru_maxrss;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "bench/image: cannot write %s\n", path);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    rf_render_tune_allocator(); /* as runeframe does */
    int reps = 9;
    const char *rf = "./runeframe";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--runeframe") == 0 && i + 1 < argc)
            rf = argv[++i];
    }
    if (reps < 5)
        reps = 5;
    if (reps > BENCH_MAXREPS)
        reps = BENCH_MAXREPS;
    snprintf(dir, sizeof dir, "/tmp/rf-bench-image.XXXXXX");
    if (mkdtemp(dir) == NULL)
        return 2;
    char path[160], a[32], b[32];
    for (int k = 0; k < 10; k++) {
        snprintf(path, sizeof path, "%s/shot%d.png", dir, k);
        write_shot(path, k);
    }
    snprintf(path, sizeof path, "%s/icon.svg", dir);
    write_file(path, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"24\" height=\"24\" "
                     "viewBox=\"0 0 24 24\"><path d=\"" ICON_PATH "\" fill=\"#1f2937\"/></svg>\n");

    /* 1. a full-canvas screenshot at scale 0.9 vs cairo painting it */
    rf_scene_t *shot = scene_of(HEAD "{\"type\": \"image\", \"src\": \"shot0.png\", \"x\": 960, "
                                     "\"y\": 540, \"scale\": {\"tween\": {\"from\": 0.9, \"to\": 0.9, "
                                     "\"duration\": 1}}}]}");
    rf_renderer_t *r = renderer_of(shot);
    const rf_image_t *img = shot->images[0];
    cairo_surface_t *dst = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(dst);
    double ra[BENCH_MAXREPS], ta[BENCH_MAXREPS], tb[BENCH_MAXREPS];
    int n = 20;
    for (int rep = 0; rep < reps; rep++) {
        double x = 0, y = 0;
        for (int k = 0; k < 2; k++) {
            if ((k == 0) == (rep % 2 == 0)) {
                x = time_draws(r, n);
            } else {
                double t0 = bench_seconds();
                for (int i = 0; i < n; i++) {
                    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
                    cairo_set_source_rgb(cr, 11 / 255.0, 15 / 255.0, 26 / 255.0);
                    cairo_paint(cr);
                    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
                    cairo_save(cr);
                    cairo_translate(cr, 960 - 0.9 * W / 2, 540 - 0.9 * H / 2);
                    cairo_scale(cr, 0.9, 0.9);
                    cairo_rectangle(cr, 0, 0, W, H);
                    cairo_clip(cr);
                    cairo_set_source_surface(cr, img->surface, 0, 0);
                    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
                    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
                    cairo_paint(cr);
                    cairo_restore(cr);
                }
                cairo_surface_flush(dst);
                y = (bench_seconds() - t0) / n;
            }
        }
        ta[rep] = x;
        tb[rep] = y;
        ra[rep] = x / y;
    }
    double ratio = bench_median(ra, reps);
    snprintf(a, sizeof a, "%.2f ms", bench_median(ta, reps) * 1e3);
    snprintf(b, sizeof b, "%.2f ms", bench_median(tb, reps) * 1e3);
    printf("screenshot at 0.9 (1080p): frame %s, cairo alone %s: %.3fx (goal <= 1.1)\n", a, b,
           ratio);
    bench_row("image: 1080p screenshot at 0.9 / cairo painting it", "1920x1080", ratio, "<=",
              1.1, a, b);

    /* 2. an SVG icon at 50 sizes vs the same path as 50 path layers */
    size_t cap = 1 << 16, oa = 0, ob = 0;
    char *ja = malloc(cap), *jb = malloc(cap);
    if (!ja || !jb)
        return 2;
    oa += (size_t)snprintf(ja + oa, cap - oa, HEAD);
    ob += (size_t)snprintf(jb + ob, cap - ob, HEAD);
    for (int i = 0; i < 50; i++) {
        double s = 1 + i * 0.3, x = 40 + (i % 10) * 190, y = 60 + (i / 10) * 210;
        oa += (size_t)snprintf(ja + oa, cap - oa, "%s{\"type\": \"image\", \"src\": \"icon.svg\", "
                               "\"x\": %g, \"y\": %g, \"scale\": {\"tween\": {\"from\": %g, \"to\": "
                               "%g, \"duration\": 1}}}", i ? ", " : "", x, y, s, s);
        ob += (size_t)snprintf(jb + ob, cap - ob, "%s{\"type\": \"path\", \"path\": \"" ICON_PATH
                               "\", \"fill\": \"#1f2937\", \"x\": %g, \"y\": %g, \"scale\": "
                               "{\"tween\": {\"from\": %g, \"to\": %g, \"duration\": 1}}}",
                               i ? ", " : "", x, y, s, s);
    }
    snprintf(ja + oa, cap - oa, "]}");
    snprintf(jb + ob, cap - ob, "]}");
    rf_renderer_t *ri = renderer_of(scene_of(ja)), *rp = renderer_of(scene_of(jb));
    for (int rep = 0; rep < reps; rep++) {
        double x = 0, y = 0;
        for (int k = 0; k < 2; k++) {
            if ((k == 0) == (rep % 2 == 0))
                x = time_draws(ri, n);
            else
                y = time_draws(rp, n);
        }
        ta[rep] = x;
        tb[rep] = y;
        ra[rep] = x / y;
    }
    ratio = bench_median(ra, reps);
    snprintf(a, sizeof a, "%.2f ms", bench_median(ta, reps) * 1e3);
    snprintf(b, sizeof b, "%.2f ms", bench_median(tb, reps) * 1e3);
    printf("SVG icon at 50 sizes: %s, as path layers %s: %.2fx (informative)\n", a, b, ratio);
    bench_row("image: SVG icon at 50 sizes / as 50 path layers", "1920x1080", ratio, NULL, 0, a, b);

    /* 3. peak RSS of ten 1080p images under --jobs 2 */
    oa = ob = 0;
    oa += (size_t)snprintf(ja + oa, cap - oa, "{\"runeframe\": 1, \"canvas\": {\"width\": 1920, "
                           "\"height\": 1080}, \"timeline\": {\"fps\": 10, \"duration\": 0.5}, "
                           "\"layers\": [");
    memcpy(jb, ja, oa + 1);
    ob = oa;
    for (int k = 0; k < 10; k++) {
        oa += (size_t)snprintf(ja + oa, cap - oa, "%s{\"type\": \"image\", \"src\": "
                               "\"shot%d.png\", \"x\": 960, \"y\": 540, \"opacity\": {\"tween\": "
                               "{\"from\": 0.1, \"to\": 0.2, \"duration\": 1}}}", k ? ", " : "", k);
        ob += (size_t)snprintf(jb + ob, cap - ob, "%s{\"type\": \"rect\", \"x\": 960, \"y\": 540, "
                               "\"width\": 1920, \"height\": 1080, \"fill\": \"#808080\", "
                               "\"opacity\": {\"tween\": {\"from\": 0.1, \"to\": 0.2, "
                               "\"duration\": 1}}}", k ? ", " : "");
    }
    snprintf(ja + oa, cap - oa, "]}");
    snprintf(jb + ob, cap - ob, "]}");
    char sa[160], sb[160], out[160], out2[160];
    snprintf(sa, sizeof sa, "%s/ten.json", dir);
    snprintf(sb, sizeof sb, "%s/none.json", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(out2, sizeof out2, "%s/out2", dir);
    write_file(sa, ja);
    write_file(sb, jb);
    long with = peak_rss(rf, sa, out), without = peak_rss(rf, sb, out2);
    double one = (double)W * H * 4 / 1024; /* kB of one decoded image */
    ratio = (double)(with - without) / (10 * one);
    snprintf(a, sizeof a, "%.1f MB", with / 1024.0);
    snprintf(b, sizeof b, "%.1f MB", without / 1024.0);
    printf("peak RSS, ten 1080p images, --jobs 2: %s, without them %s: (difference) / (10 x "
           "%.1f MB) = %.2f (goal <= 1.2: each image held once)\n", a, b, one / 1024, ratio);
    bench_row("image: RSS of ten 1080p images, --jobs 2 / 10 decoded images", "1920x1080", ratio,
              "<=", 1.2, a, b);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 2;
    return 0;
}
