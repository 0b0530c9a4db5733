/* bench/png.c - our PNG writer and reader against cairo's on a 1080p frame
 * (`make bench`; not a test).
 *
 *   encode time  cairo_surface_write_to_png_stream / ours   goal >= 4
 *   encode size  ours / cairo's                               goal <= 1.15
 *   decode time  our reader on a filter-NONE PNG vs on cairo's (adaptive
 *                filters): what goldens written with NONE save the differ
 *
 * Method: the frame is drawn once with cairo (gradients, translucent
 * shapes, curves: realistic, not flat). Both encoders write into a
 * growable memory buffer that is reused (no file system in the timings).
 * One repetition times cairo, then every configuration of ours, back to
 * back; a ratio is taken within a repetition and the figure printed is the
 * median over the repetitions (>= 5), so frequency changes hit both alike.
 *
 * Usage: bench/png [--reps N] [--size WxH] [--all] [--strict]
 *   --size    the frame's size (default 1920x1080)
 *   --all     also every zlib level 0..9 with filter NONE, and each filter
 *             at levels 1 and 6 (how the defaults were chosen)
 *   --strict  exit 1 when a goal is missed
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#include "pngio.h"

static int W = 1920, H = 1080;   /* --size */
#define MAXREPS BENCH_MAXREPS
#define RF_PI 3.14159265358979323846

static uint64_t rng = 0x2545f4914f6cdd1du;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-53;
}

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h, double rad)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - rad, y + rad, rad, -RF_PI / 2, 0);
    cairo_arc(cr, x + w - rad, y + h - rad, rad, 0, RF_PI / 2);
    cairo_arc(cr, x + rad, y + h - rad, rad, RF_PI / 2, RF_PI);
    cairo_arc(cr, x + rad, y + rad, rad, RF_PI, 3 * RF_PI / 2);
    cairo_close_path(cr);
}

typedef enum frame_kind {
    FRAME_TYPICAL,      /* opaque: a few gradients and shapes (the goals) */
    FRAME_HEAVY,        /* opaque: 40 large translucent radial gradients */
    FRAME_TRANSLUCENT,  /* the typical shapes over no background: RGBA */
} frame_kind_t;

/* A frame like runeframe's: background gradient, a few gradient blobs and
 * panels, flat shapes with outlines, curves (antialiased edges throughout). */
static cairo_surface_t *draw_frame(frame_kind_t kind)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(s);
    rng = 0x2545f4914f6cdd1du;
    if (kind != FRAME_TRANSLUCENT) {
        cairo_pattern_t *bg = cairo_pattern_create_linear(0, 0, W / 4.0, H);
        cairo_pattern_add_color_stop_rgb(bg, 0, 0.04, 0.06, 0.13);
        cairo_pattern_add_color_stop_rgb(bg, 1, 0.10, 0.05, 0.20);
        cairo_set_source(cr, bg);
        cairo_paint(cr);
        cairo_pattern_destroy(bg);
    }
    int blobs = kind == FRAME_HEAVY ? 40 : 3;
    for (int i = 0; i < blobs; i++) {
        double x = uniform() * W, y = uniform() * H, r = 60 + uniform() * 140;
        cairo_pattern_t *g = cairo_pattern_create_radial(x - r / 3, y - r / 3, r / 8, x, y, r);
        cairo_pattern_add_color_stop_rgba(g, 0, uniform(), uniform(), uniform(), 0.9);
        cairo_pattern_add_color_stop_rgba(g, 1, uniform(), uniform(), uniform(), 0.3);
        cairo_set_source(cr, g);
        cairo_arc(cr, x, y, r, 0, 2 * RF_PI);
        cairo_fill(cr);
        cairo_pattern_destroy(g);
    }
    /* one panel with a linear gradient */
    cairo_pattern_t *lg = cairo_pattern_create_linear(200, 0, 900, 0);
    cairo_pattern_add_color_stop_rgb(lg, 0, 0.9, 0.3, 0.2);
    cairo_pattern_add_color_stop_rgb(lg, 1, 0.2, 0.4, 0.9);
    rounded_rect(cr, 200, 700, 700, 160, 24);
    cairo_set_source(cr, lg);
    cairo_fill(cr);
    cairo_pattern_destroy(lg);
    for (int i = 0; i < 12; i++) {
        double x = uniform() * W, y = uniform() * H, w = 40 + uniform() * 300,
               h = 30 + uniform() * 200;
        rounded_rect(cr, x, y, w, h, 12);
        cairo_set_source_rgba(cr, uniform(), uniform(), uniform(), kind == FRAME_HEAVY ? 0.6 : 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
        cairo_set_line_width(cr, 2);
        cairo_stroke(cr);
    }
    for (int i = 0; i < 8; i++) {
        cairo_arc(cr, uniform() * W, uniform() * H, 10 + uniform() * 60, 0, 2 * RF_PI);
        cairo_set_source_rgb(cr, uniform(), uniform(), uniform());
        cairo_fill(cr);
    }
    for (int i = 0; i < 10; i++) {
        cairo_move_to(cr, uniform() * W, uniform() * H);
        cairo_curve_to(cr, uniform() * W, uniform() * H, uniform() * W, uniform() * H,
                       uniform() * W, uniform() * H);
        cairo_set_source_rgba(cr, uniform(), uniform(), uniform(), 0.8);
        cairo_set_line_width(cr, 2 + uniform() * 6);
        cairo_stroke(cr);
    }
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static cairo_status_t mem_sink(void *closure, const unsigned char *data, unsigned int len)
{
    rf_png_buffer_t *b = closure;
    if (len > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap - b->len < len)
            cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (p == NULL)
            return CAIRO_STATUS_NO_MEMORY;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return CAIRO_STATUS_SUCCESS;
}

static void die(const char *what, const rf_png_error_t *err)
{
    fprintf(stderr, "bench/png: %s: %s\n", what, err != NULL ? err->message : "failed");
    exit(2);
}

static int count_rows(void *ctx, uint32_t y, const uint8_t *rgba)
{
    (void)y;
    *(uint64_t *)ctx += rgba[0];   /* touch the row */
    return 0;
}

typedef struct config {
    const char *label;
    rf_png_options_t opt;
    double t[MAXREPS];     /* encode seconds per repetition */
    double ratio[MAXREPS]; /* cairo / ours per repetition */
    double dt[MAXREPS];    /* decode seconds */
    size_t size;
    rf_png_buffer_t out;
} config_t;

int main(int argc, char **argv)
{
    int reps = 7, all = 0, strict = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &W, &H) != 2 || W < 16 || H < 16 || W > 8192 || H > 8192) {
                fprintf(stderr, "bench/png: --size wants WxH, 16 .. 8192 each\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--all") == 0)
            all = 1;
        else if (strcmp(argv[i], "--strict") == 0)
            strict = 1;
        else {
            fprintf(stderr, "usage: bench/png [--reps N] [--size WxH] [--all] [--strict]\n");
            return 2;
        }
    }
    if (reps < 5)
        reps = 5;
    if (reps > MAXREPS)
        reps = MAXREPS;

    static const char *const fname[] = { "NONE", "SUB", "UP", "AVG", "PAETH", "ALL" };
    config_t cfg[32];
    int ncfg = 0;
    cfg[ncfg++] = (config_t){ .label = "ours zlib 1 + NONE (render)", .opt = RF_PNG_OPTIONS_RENDER };
    cfg[ncfg++] = (config_t){ .label = "ours zlib 6 + NONE (golden)", .opt = RF_PNG_OPTIONS_GOLDEN };
    /* libpng's default filtering, for the decode comparison */
    cfg[ncfg++] = (config_t){ .label = "ours zlib 6 + ALL (adaptive)", .opt = { 6, RF_PNG_FILTER_ALL } };
    static char labels[32][48];
    if (all) {
        for (int l = 0; l <= 9; l++) {
            if (l == 1 || l == 6)
                continue;   /* already listed */
            snprintf(labels[ncfg], sizeof labels[ncfg], "ours zlib %d + NONE", l);
            cfg[ncfg] = (config_t){ .label = labels[ncfg], .opt = { l, RF_PNG_FILTER_NONE } };
            ncfg++;
        }
        for (int l = 1; l <= 6; l += 5)
            for (int f = 1; f <= RF_PNG_FILTER_ALL; f++) {
                if (l == 6 && f == RF_PNG_FILTER_ALL)
                    continue;   /* already listed */
                snprintf(labels[ncfg], sizeof labels[ncfg], "ours zlib %d + %s", l, fname[f]);
                cfg[ncfg] = (config_t){ .label = labels[ncfg], .opt = { l, (rf_png_filter_t)f } };
                ncfg++;
            }
    }

    int fails = 0;
    static const char *const kind_name[] = {
        "Typical opaque", "Gradient-heavy opaque", "Translucent (no background)"
    };
    for (int kind = FRAME_TYPICAL; kind <= FRAME_TRANSLUCENT; kind++) {
        int goals = kind == FRAME_TYPICAL;
        cairo_surface_t *s = draw_frame((frame_kind_t)kind);
        rf_png_frame_t probe = {
            (const uint32_t *)(const void *)cairo_image_surface_get_data(s), W, H,
            (size_t)cairo_image_surface_get_stride(s)
        };
        int opaque = rf_png_frame_is_opaque(&probe);
        rf_png_frame_t frame = {
            (const uint32_t *)(const void *)cairo_image_surface_get_data(s), W, H,
            (size_t)cairo_image_surface_get_stride(s)
        };
        rf_png_buffer_t cbuf = { 0 };
        double ct[MAXREPS], cdt[MAXREPS];
        rf_png_error_t err;
        /* warm-up: page in buffers, libraries */
        if (cairo_surface_write_to_png_stream(s, mem_sink, &cbuf) != CAIRO_STATUS_SUCCESS)
            die("cairo", NULL);
        for (int c = 0; c < ncfg; c++)
            if (rf_png_write_mem(&frame, &cfg[c].opt, &cfg[c].out, &err) != RF_PNG_SUCCESS)
                die("encode", &err);
        for (int r = 0; r < reps; r++) {
            cbuf.len = 0;
            double t0 = bench_seconds();
            if (cairo_surface_write_to_png_stream(s, mem_sink, &cbuf) != CAIRO_STATUS_SUCCESS)
                die("cairo", NULL);
            ct[r] = bench_seconds() - t0;
            for (int c = 0; c < ncfg; c++) {
                t0 = bench_seconds();
                if (rf_png_write_mem(&frame, &cfg[c].opt, &cfg[c].out, &err) != RF_PNG_SUCCESS)
                    die("encode", &err);
                cfg[c].t[r] = bench_seconds() - t0;
                cfg[c].ratio[r] = ct[r] / cfg[c].t[r];
                cfg[c].size = cfg[c].out.len;
            }
        }
        /* decode: each PNG by our reader, interleaved the same way */
        uint64_t sink = 0;
        for (int r = 0; r < reps; r++) {
            double t0 = bench_seconds();
            if (rf_png_decode_mem(cbuf.data, cbuf.len, "cairo", NULL, count_rows, &sink, &err))
                die("decode", &err);
            cdt[r] = bench_seconds() - t0;
            for (int c = 0; c < ncfg; c++) {
                t0 = bench_seconds();
                if (rf_png_decode_mem(cfg[c].out.data, cfg[c].out.len, "ours", NULL,
                                      count_rows, &sink, &err))
                    die("decode", &err);
                cfg[c].dt[r] = bench_seconds() - t0;
            }
        }

        double cm = bench_median(ct, reps), cdm = bench_median(cdt, reps);
        printf("\n%s %dx%d frame (%s PNG), median of %d interleaved repetitions\n",
               kind_name[kind], W, H, opaque ? "RGB" : "RGBA", reps);
        printf("%-30s %9s %9s %10s %7s %9s\n", "encoder", "encode", "speedup", "bytes",
               "size", "decode");
        printf("%-30s %7.2fms %9s %10zu %7s %7.2fms\n", "cairo_surface_write_to_png",
               cm * 1e3, "1.00x", cbuf.len, "1.000x", cdm * 1e3);
        for (int c = 0; c < ncfg; c++) {
            double speed = bench_median(cfg[c].ratio, reps);
            double size = (double)cfg[c].size / (double)cbuf.len;
            printf("%-30s %7.2fms %8.2fx %10zu %6.3fx %7.2fms\n", cfg[c].label,
                   bench_median(cfg[c].t, reps) * 1e3, speed, cfg[c].size, size,
                   bench_median(cfg[c].dt, reps) * 1e3);
            if (goals && c == 0 && (speed < 4.0 || size > 1.15))
                fails++;
            if (goals && c == 0) {
                char a[32], b[32], sz[32];
                snprintf(sz, sizeof sz, "%dx%d", W, H);
                bench_row("PNG encode: cairo_..._write_to_png / ours", sz, speed, ">=", 4.0,
                          bench_fmt(a, sizeof a, bench_median(cfg[c].t, reps) * 1e3, "ms"),
                          bench_fmt(b, sizeof b, cm * 1e3, "ms"));
                snprintf(a, sizeof a, "%zu B", cfg[c].size);
                snprintf(b, sizeof b, "%zu B", cbuf.len);
                bench_row("PNG size: ours / cairo's", sz, size, "<=", 1.15, a, b);
            }
        }
        printf("decode time, filter NONE vs adaptive (both ours at zlib 6): %.2fx; "
               "vs cairo's file: %.2fx\n",
               bench_median(cfg[1].dt, reps) / bench_median(cfg[2].dt, reps), bench_median(cfg[1].dt, reps) / cdm);
        if (goals)
            printf("goals (render defaults, typical frame): speedup >= 4x, size <= 1.15x: %s\n",
                   fails ? "MISSED" : "met");
        rf_png_buffer_destroy(&cbuf);
        cairo_surface_destroy(s);
        (void)sink;
    }
    for (int c = 0; c < ncfg; c++)
        rf_png_buffer_destroy(&cfg[c].out);
    return strict && fails ? 1 : 0;
}
