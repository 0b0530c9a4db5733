/* bench/png.c - our PNG writer against cairo_surface_write_to_png and
 * against today's writer (the one it replaced), per frame kind of the
 * corpus (`make bench`; not a test).
 *
 * Per kind, at one size (720p or 1080p):
 *   encode   cairo_surface_write_to_png_stream / ours (render default)  >= 8
 *   size     ours / cairo's                                             <= 1.0
 *   today    today's writer / ours: libpng, zlib level 1, filter NONE,
 *            the same row conversion (what rf_png_write_mem did before
 *            the encoder of pngio-enc.c)                                >= 2.5
 *   decode   libpng (through our reader) decoding our file / cairo's    <= 1.0
 *   reader   our reader's default (its fast way: libdeflate) on our file,
 *            at the render and the golden default / libpng on cairo's
 *                                                               informative
 *   threads  ours / ours with 2 threads (pngio.h: options.threads; the
 *            same bytes, checked)                               informative
 *
 * The corpus: bench/scenes/corpus/KIND-720.json and KIND-1080.json,
 * runeframe scenes (bench/scenes/corpus/gen.py says what each kind is;
 * the showcase is bench/scenes/showcase-720.json and -1080.json),
 * each rendered once at --time (default 1.0) by the renderer. Every
 * encoder writes into a reused memory buffer (no file system in the
 * timings). One repetition times cairo, today's writer and every
 * configuration of ours back to back; a ratio is taken within a
 * repetition and the figure printed is the median over the repetitions
 * (>= 5), so frequency changes hit both alike.
 *
 * Usage: bench/png [--reps N] [--corpus DIR] [--size 720|1080] [--time T]
 *                  [--kinds a,b] [--all] [--strict]
 *   --all     also levels 1..9 with the per-row filter choice and with
 *             NONE (how the defaults were chosen)
 *   --strict  exit 1 when a goal is missed
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <cairo.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench-render.h"

#include "diag.h"
#include "pngio.h"
#include "render.h"
#include "scene.h"

#define MAXREPS BENCH_MAXREPS
#define GOAL_CAIRO 8.0
#define GOAL_SIZE 1.0
#define GOAL_TODAY 2.5
#define GOAL_DECODE 1.0

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

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench/png: %s: %s\n", what, msg != NULL ? msg : "failed");
    exit(2);
}

/* ---- today's writer: libpng, zlib 1, filter NONE, one row buffer ---- */

static void today_write(png_structp png, png_bytep data, size_t len)
{
    if (mem_sink(png_get_io_ptr(png), data, (unsigned)len) != CAIRO_STATUS_SUCCESS)
        png_error(png, "out of memory");
}

static void today_flush(png_structp png)
{
    (void)png;
}

static int today_run(png_structp png, png_infop info, const rf_png_frame_t *f, uint8_t *row,
                     rf_png_buffer_t *out)
{
    if (setjmp(png_jmpbuf(png)))
        return -1;
    int opaque = rf_png_frame_is_opaque(f);
    png_set_write_fn(png, out, today_write, today_flush);
    png_set_IHDR(png, info, f->width, f->height, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_buffer_size(png, 64 * 1024);
    png_write_info(png, info);
    const unsigned char *src = (const unsigned char *)f->pixels;
    for (uint32_t y = 0; y < f->height; y++, src += f->stride) {
        const uint32_t *px = (const uint32_t *)(const void *)src;
        if (opaque)
            rf_png_row_to_rgb(row, px, f->width);
        else
            rf_png_row_to_rgba(row, px, f->width);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    return 0;
}

static void today_encode(const rf_png_frame_t *f, rf_png_buffer_t *out)
{
    out->len = 0;
    uint8_t *row = malloc((size_t)f->width * 4);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (row == NULL || info == NULL)
        die("today's writer", "out of memory");
    int rc = today_run(png, info, f, row, out);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (rc != 0)
        die("today's writer", "libpng failed");
}

/* ---- the benchmark ---- */

static int count_rows(void *ctx, uint32_t y, const uint8_t *rgba)
{
    (void)y;
    *(uint64_t *)ctx += rgba[0];   /* touch the row */
    return 0;
}

/* One decode through our reader: by libpng alone (RF_PNG_READER=libpng),
 * or as the reader chooses (its fast way for 8-bit RGB and RGBA). */
static double decode_once(const rf_png_buffer_t *b, uint64_t *sink, int libpng)
{
    rf_png_error_t err;
    if (libpng)
        setenv("RF_PNG_READER", "libpng", 1);
    else
        unsetenv("RF_PNG_READER");
    double t0 = bench_seconds();
    if (rf_png_decode_mem(b->data, b->len, "bench", NULL, count_rows, sink, &err) != RF_PNG_SUCCESS)
        die("decode", err.message);
    return bench_seconds() - t0;
}

typedef struct config {
    char label[48];
    rf_png_options_t opt;
    double t[MAXREPS];       /* encode seconds per repetition */
    double vs_cairo[MAXREPS];
    double vs_today[MAXREPS];
    size_t size;
    rf_png_buffer_t out;
} config_t;

int main(int argc, char **argv)
{
    int reps = 7, all = 0, strict = 0, size = 1080;
    double t = 1.0;
    const char *corpus = "bench/scenes/corpus", *kinds = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (bench_corpus_arg(argc, argv, &i, &corpus, &kinds, &t))
            continue;
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            size = atoi(argv[++i]);
            if (size != 720 && size != 1080)
                die("--size", "720 or 1080");
        } else if (strcmp(argv[i], "--all") == 0)
            all = 1;
        else if (strcmp(argv[i], "--strict") == 0)
            strict = 1;
        else {
            fprintf(stderr, "usage: bench/png [--reps N] [--corpus DIR] [--size 720|1080] "
                            "[--time T] [--kinds a,b] [--all] [--strict]\n");
            return 2;
        }
    }
    reps = reps < 5 ? 5 : reps > MAXREPS ? MAXREPS : reps;

    config_t cfg[24];
    int ncfg = 0;
    cfg[ncfg++] = (config_t){ .label = "ours render default", .opt = RF_PNG_OPTIONS_RENDER };
    cfg[ncfg++] = (config_t){ .label = "ours golden default", .opt = RF_PNG_OPTIONS_GOLDEN };
    cfg[ncfg++] = (config_t){ .label = "ours render default, 2 threads",
                              .opt = { 1, RF_PNG_FILTER_ALL, 2 } };
    if (all) {
        for (int l = 1; l <= 9; l++) {
            cfg[ncfg] = (config_t){ .opt = { l, RF_PNG_FILTER_ALL, 0 } };
            snprintf(cfg[ncfg].label, sizeof cfg[ncfg].label, "ours level %d, filter per row", l);
            ncfg++;
            cfg[ncfg] = (config_t){ .opt = { l, RF_PNG_FILTER_NONE, 0 } };
            snprintf(cfg[ncfg].label, sizeof cfg[ncfg].label, "ours level %d, filter NONE", l);
            ncfg++;
        }
    }

    int fails = 0;
    for (int k = 0; bench_corpus_kind(k) != NULL; k++) {
        if (kinds != NULL && !bench_in_list(kinds, bench_corpus_kind(k)))
            continue;
        char path[1024];
        rf_scene_t *sc;
        rf_renderer_t *r = bench_corpus_frame(corpus, k, size, t, path, sizeof path, &sc);
        cairo_surface_t *s = rf_renderer_surface(r);
        cairo_surface_flush(s);
        rf_png_frame_t frame = {
            (const uint32_t *)(const void *)cairo_image_surface_get_data(s),
            (uint32_t)cairo_image_surface_get_width(s), (uint32_t)cairo_image_surface_get_height(s),
            (size_t)cairo_image_surface_get_stride(s),
            rf_renderer_opaque(r)   /* what `render` tells the writer */
        };
        int opaque = rf_png_frame_is_opaque(&frame);
        rf_png_buffer_t cbuf = { 0 }, tbuf = { 0 };
        double ct[MAXREPS], tt[MAXREPS], cdt[MAXREPS], odt[MAXREPS], ddr[MAXREPS];
        rf_png_error_t err;
        /* warm-up: page in buffers, libraries */
        if (cairo_surface_write_to_png_stream(s, mem_sink, &cbuf) != CAIRO_STATUS_SUCCESS)
            die("cairo", NULL);
        today_encode(&frame, &tbuf);
        for (int c = 0; c < ncfg; c++)
            if (rf_png_write_mem(&frame, &cfg[c].opt, &cfg[c].out, &err) != RF_PNG_SUCCESS)
                die("encode", err.message);
        for (int rep = 0; rep < reps; rep++) {
            cbuf.len = 0;
            double t0 = bench_seconds();
            if (cairo_surface_write_to_png_stream(s, mem_sink, &cbuf) != CAIRO_STATUS_SUCCESS)
                die("cairo", NULL);
            ct[rep] = bench_seconds() - t0;
            t0 = bench_seconds();
            today_encode(&frame, &tbuf);
            tt[rep] = bench_seconds() - t0;
            for (int c = 0; c < ncfg; c++) {
                t0 = bench_seconds();
                if (rf_png_write_mem(&frame, &cfg[c].opt, &cfg[c].out, &err) != RF_PNG_SUCCESS)
                    die("encode", err.message);
                cfg[c].t[rep] = bench_seconds() - t0;
                cfg[c].vs_cairo[rep] = ct[rep] / cfg[c].t[rep];
                cfg[c].vs_today[rep] = tt[rep] / cfg[c].t[rep];
                cfg[c].size = cfg[c].out.len;
            }
        }
        /* decode by libpng: cairo's file and ours (render default), A B, B A;
         * then our reader's way on ours (render default and golden
         * default) against libpng on cairo's */
        uint64_t sink = 0;
        double rdt[MAXREPS], rgt[MAXREPS], rdr[MAXREPS], rgr[MAXREPS];
        for (int rep = 0; rep < reps; rep++) {
            if (rep % 2 == 0) {
                cdt[rep] = decode_once(&cbuf, &sink, 1);
                odt[rep] = decode_once(&cfg[0].out, &sink, 1);
                rdt[rep] = decode_once(&cfg[0].out, &sink, 0);
                rgt[rep] = decode_once(&cfg[1].out, &sink, 0);
            } else {
                rgt[rep] = decode_once(&cfg[1].out, &sink, 0);
                rdt[rep] = decode_once(&cfg[0].out, &sink, 0);
                odt[rep] = decode_once(&cfg[0].out, &sink, 1);
                cdt[rep] = decode_once(&cbuf, &sink, 1);
            }
            ddr[rep] = odt[rep] / cdt[rep];
            rdr[rep] = rdt[rep] / cdt[rep];
            rgr[rep] = rgt[rep] / cdt[rep];
        }
        unsetenv("RF_PNG_READER");

        double cm = bench_median(ct, reps), tm = bench_median(tt, reps);
        printf("\n%s, %ux%u (%s PNG), frame at t = %g, median of %d interleaved repetitions\n",
               bench_corpus_kind(k), frame.width, frame.height, opaque ? "RGB" : "RGBA", t, reps);
        printf("%-32s %9s %8s %8s %10s %7s\n", "encoder", "encode", "vs cairo", "vs today",
               "bytes", "size");
        printf("%-32s %7.2fms %8s %8s %10zu %7s\n", "cairo_surface_write_to_png", cm * 1e3,
               "1.00x", "", cbuf.len, "1.000x");
        printf("%-32s %7.2fms %8s %8s %10zu %6.3fx\n", "today's (libpng, zlib 1, NONE)",
               tm * 1e3, "", "1.00x", tbuf.len, (double)tbuf.len / (double)cbuf.len);
        for (int c = 0; c < ncfg; c++)
            printf("%-32s %7.2fms %7.2fx %7.2fx %10zu %6.3fx\n", cfg[c].label,
                   bench_median(cfg[c].t, reps) * 1e3, bench_median(cfg[c].vs_cairo, reps),
                   bench_median(cfg[c].vs_today, reps), cfg[c].size,
                   (double)cfg[c].size / (double)cbuf.len);
        double speed = bench_median(cfg[0].vs_cairo, reps);
        double ratio = (double)cfg[0].size / (double)cbuf.len;
        double today = bench_median(cfg[0].vs_today, reps);
        double dec = bench_median(ddr, reps);
        printf("libpng decode: ours (render default) %.2f ms, cairo's %.2f ms: %.2fx\n",
               bench_median(odt, reps) * 1e3, bench_median(cdt, reps) * 1e3, dec);
        printf("our reader: ours (render default) %.2f ms, (golden default) %.2f ms: "
               "%.2fx, %.2fx libpng on cairo's\n",
               bench_median(rdt, reps) * 1e3, bench_median(rgt, reps) * 1e3,
               bench_median(rdr, reps), bench_median(rgr, reps));
        fails += speed < GOAL_CAIRO;
        fails += ratio > GOAL_SIZE;
        fails += today < GOAL_TODAY;
        fails += dec > GOAL_DECODE;

        char fig[96], sz[32], a[32], b[32];
        snprintf(sz, sizeof sz, "%ux%u", frame.width, frame.height);
        snprintf(fig, sizeof fig, "PNG encode %s: cairo / ours", bench_corpus_kind(k));
        bench_row(fig, sz, speed, ">=", GOAL_CAIRO,
                  bench_fmt(a, sizeof a, bench_median(cfg[0].t, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, cm * 1e3, "ms"));
        snprintf(fig, sizeof fig, "PNG size %s: ours / cairo's", bench_corpus_kind(k));
        snprintf(a, sizeof a, "%zu B", cfg[0].size);
        snprintf(b, sizeof b, "%zu B", cbuf.len);
        bench_row(fig, sz, ratio, "<=", GOAL_SIZE, a, b);
        snprintf(fig, sizeof fig, "PNG encode %s: today's / ours", bench_corpus_kind(k));
        bench_row(fig, sz, today, ">=", GOAL_TODAY,
                  bench_fmt(a, sizeof a, bench_median(cfg[0].t, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, tm * 1e3, "ms"));
        /* cfg[2]: the render default on 2 threads (the same bytes) */
        snprintf(fig, sizeof fig, "PNG encode %s: 1 thread / 2 threads", bench_corpus_kind(k));
        bench_row(fig, sz, bench_median(cfg[0].t, reps) / bench_median(cfg[2].t, reps), NULL, 0,
                  bench_fmt(a, sizeof a, bench_median(cfg[2].t, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, bench_median(cfg[0].t, reps) * 1e3, "ms"));
        if (cfg[2].size != cfg[0].size || memcmp(cfg[2].out.data, cfg[0].out.data, cfg[0].size) != 0)
            die("encode", "2 threads wrote different bytes from 1");
        snprintf(fig, sizeof fig, "PNG decode %s: ours / cairo's (libpng)", bench_corpus_kind(k));
        bench_row(fig, sz, dec, "<=", GOAL_DECODE,
                  bench_fmt(a, sizeof a, bench_median(odt, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, bench_median(cdt, reps) * 1e3, "ms"));
        snprintf(fig, sizeof fig, "PNG decode %s, our reader: ours / libpng on cairo's",
                 bench_corpus_kind(k));
        bench_row(fig, sz, bench_median(rdr, reps), NULL, 0,
                  bench_fmt(a, sizeof a, bench_median(rdt, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, bench_median(cdt, reps) * 1e3, "ms"));
        snprintf(fig, sizeof fig,
                 "PNG decode %s, our reader, level 7 (goldens): ours / libpng on cairo's",
                 bench_corpus_kind(k));
        bench_row(fig, sz, bench_median(rgr, reps), NULL, 0,
                  bench_fmt(a, sizeof a, bench_median(rgt, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, bench_median(cdt, reps) * 1e3, "ms"));
        /* cfg[1]: the small setting (level 7, goldens' writer): the size
         * goal where level 1's speed goals leave no time for the search
         * that finds cairo's matches (BENCHMARKS.md, "The size goal and
         * the speed goals") */
        double small = (double)cfg[1].size / (double)cbuf.len;
        fails += small > GOAL_SIZE;
        snprintf(fig, sizeof fig, "PNG size %s, level 7 (the small setting): ours / cairo's",
                 bench_corpus_kind(k));
        snprintf(a, sizeof a, "%zu B", cfg[1].size);
        snprintf(b, sizeof b, "%zu B", cbuf.len);
        bench_row(fig, sz, small, "<=", GOAL_SIZE, a, b);
        snprintf(fig, sizeof fig, "PNG encode %s, level 7: cairo / ours", bench_corpus_kind(k));
        bench_row(fig, sz, bench_median(cfg[1].vs_cairo, reps), NULL, 0,
                  bench_fmt(a, sizeof a, bench_median(cfg[1].t, reps) * 1e3, "ms"),
                  bench_fmt(b, sizeof b, cm * 1e3, "ms"));
        rf_png_buffer_destroy(&cbuf);
        rf_png_buffer_destroy(&tbuf);
        rf_renderer_destroy(r);
        rf_scene_destroy(sc);
        (void)sink;
    }
    for (int c = 0; c < ncfg; c++)
        rf_png_buffer_destroy(&cfg[c].out);
    printf("\ngoals: vs cairo >= %gx, size <= %gx (level 1 and level 7), vs today >= %gx, "
           "decode <= %gx: %d missed\n",
           GOAL_CAIRO, GOAL_SIZE, GOAL_TODAY, GOAL_DECODE, fails);
    return strict && fails ? 1 : 0;
}
