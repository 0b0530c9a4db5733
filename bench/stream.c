/* bench/stream.c - what a raw stream (`render --format rgba -o -`) costs
 * per frame above drawing it (`make bench`; not a test).
 *
 * Per scene, side by side in one run (A B, B A interleaved):
 *   draw     rf_renderer_draw of F frames (the frames' own times) by a new
 *            renderer, nothing else
 *   stream   rf_frames_run of the same F frames as straight RGBA into
 *            /dev/null, one worker, no reuse (every frame drawn): drawing,
 *            the conversion (in the canvas) and the writes
 *   mp4      the same as the CANVAS stream an mp4 gets (ffmpeg's bgr0: the
 *            canvas's own bytes, written straight from it, no conversion)
 * The figures: (stream - draw) / F and (mp4 - draw) / F, per 1080p frame,
 * goal <= 0.3 ms (issue 19: "convert straight into the output buffer, or
 * write premultiplied BGRA when ffmpeg can take it"); and the conversion
 * alone (rf_frames_produce_into after a draw, its frame already drawn: the
 * surface converted again, into a second buffer, where the stream converts
 * in place) for reference.
 *
 * Usage: bench/stream [--reps N] [--frames F] SCENE.json...
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench-render.h"

#include "diag.h"
#include "frames.h"
#include "render.h"
#include "scene.h"

#define GOAL_MS 0.3

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench/stream: %s: %s\n", what, msg != NULL ? msg : "failed");
    exit(2);
}

/* Drawing the F frames with a renderer made for them, as a stream's worker
 * does (its creation and first frame, whose buffers fault in, timed too:
 * a renderer kept from an earlier run would charge the stream for them). */
static double time_draws(const rf_scene_t *sc, long f)
{
    char err[RF_FRAMES_ERR_LEN];
    double t0 = bench_seconds();
    rf_renderer_t *r = rf_renderer_create(sc, err, sizeof err);
    if (r == NULL)
        die("renderer", err);
    for (long i = 0; i < f; i++)
        if (rf_renderer_draw(r, rf_scene_frame_time(sc, i % sc->nframes)) != 0)
            die("draw", rf_renderer_error(r));
    rf_renderer_destroy(r);
    return bench_seconds() - t0;
}

static double time_stream(const rf_scene_t *sc, long f, FILE *null, rf_frames_format_t format)
{
    rf_frames_job_t job = { 0 };
    rf_frames_result_t res;
    job.scene = sc;
    job.range = (rf_frames_range_t){ 0, 1, f };
    job.format = format;
    job.jobs = 1;
    job.out = null;
    job.out_name = "/dev/null";
    double t0 = bench_seconds();
    if (rf_frames_run(&job, &res) != 0)
        die("stream", res.message);
    return bench_seconds() - t0;
}

int main(int argc, char **argv)
{
    int reps = bench_reps(argc, argv, 7);
    long frames = 30;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atol(argv[i + 1]);
    if (frames < 2)
        frames = 2;
    FILE *null = fopen("/dev/null", "wb");
    if (null == NULL)
        die("/dev/null", "cannot open");
    rf_render_tune_allocator();
    int fails = 0, mfails = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 || strcmp(argv[i], "--frames") == 0) {
            i++;
            continue;
        }
        const char *path = argv[i];
        rf_scene_t *sc = bench_scene_file(path);
        long f = frames < sc->nframes ? frames : sc->nframes;
        char err[RF_FRAMES_ERR_LEN];
        rf_frames_producer_t *p = rf_frames_producer_create(sc, RF_FRAMES_RGBA, NULL, 1, err,
                                                            sizeof err);
        uint8_t *dst = malloc(rf_frames_frame_size(sc, RF_FRAMES_RGBA));
        if (p == NULL || dst == NULL)
            die(path, err);
        double over[BENCH_MAXREPS], dr[BENCH_MAXREPS], st[BENCH_MAXREPS], cv[BENCH_MAXREPS];
        double mo[BENCH_MAXREPS], ms[BENCH_MAXREPS];
        /* warm-up: libraries, buffers, the allocator's cache */
        time_draws(sc, 2);
        time_stream(sc, 2, null, RF_FRAMES_RGBA);
        time_stream(sc, 2, null, RF_FRAMES_CANVAS);
        for (int rep = 0; rep < reps; rep++) {
            /* the three in turn, each first in every third repetition */
            for (int k = 0; k < 3; k++) {
                int which = (rep + k) % 3;
                if (which == 0)
                    dr[rep] = time_draws(sc, f);
                else if (which == 1)
                    st[rep] = time_stream(sc, f, null, RF_FRAMES_RGBA);
                else
                    ms[rep] = time_stream(sc, f, null, RF_FRAMES_CANVAS);
            }
            over[rep] = (st[rep] - dr[rep]) / (double)f * 1e3;
            mo[rep] = (ms[rep] - dr[rep]) / (double)f * 1e3;
            dr[rep] = dr[rep] / (double)f * 1e3;
            st[rep] = st[rep] / (double)f * 1e3;
            ms[rep] = ms[rep] / (double)f * 1e3;
            int reused;
            if (rf_frames_produce_into(p, 1.0, dst, &reused, err, sizeof err) != 0)
                die("produce", err);
            double t0 = bench_seconds();
            for (int k = 0; k < 5; k++)   /* the frame is drawn: converted again */
                if (rf_frames_produce_into(p, 1.0, dst, &reused, err, sizeof err) != 0)
                    die("produce", err);
            cv[rep] = (bench_seconds() - t0) / 5 * 1e3;
        }
        double o = bench_median(over, reps), om = bench_median(mo, reps);
        printf("%s, %dx%d, %ld frames, median of %d interleaved repetitions (ms per frame)\n",
               path, sc->width, sc->height, f, reps);
        printf("  draw %.3f, rgba stream %.3f, above drawing %.3f (goal <= %.1f), conversion "
               "alone %.3f\n", bench_median(dr, reps), bench_median(st, reps), o, GOAL_MS,
               bench_median(cv, reps));
        printf("  mp4 stream (bgr0, the canvas) %.3f, above drawing %.3f (goal <= %.1f)\n",
               bench_median(ms, reps), om, GOAL_MS);
        fails += o > GOAL_MS;
        mfails += om > GOAL_MS;
        char fig[160], sz[32], a[32], b[32];
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        snprintf(sz, sizeof sz, "%dx%d", sc->width, sc->height);
        snprintf(fig, sizeof fig, "rgba stream above drawing, %s: ms per frame / %.1f ms", base,
                 GOAL_MS);
        bench_row(fig, sz, o / GOAL_MS, "<=", 1.0, bench_fmt(a, sizeof a, o, "ms"),
                  bench_fmt(b, sizeof b, bench_median(dr, reps), "ms draw"));
        snprintf(fig, sizeof fig, "mp4 stream (bgr0) above drawing, %s: ms per frame / %.1f ms",
                 base, GOAL_MS);
        bench_row(fig, sz, om / GOAL_MS, "<=", 1.0, bench_fmt(a, sizeof a, om, "ms"),
                  bench_fmt(b, sizeof b, bench_median(dr, reps), "ms draw"));
        free(dst);
        rf_frames_producer_destroy(p);
        rf_scene_destroy(sc);
    }
    fclose(null);
    printf("goal: a raw stream frame <= %.1f ms above drawing it: rgba %d missed, mp4 (bgr0) "
           "%d missed\n", GOAL_MS, fails, mfails);
    return 0;
}
