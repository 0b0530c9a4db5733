/* bench/cold.c - one frame from a cold process: `runeframe seek` and a
 * one-frame `runeframe render` as whole processes (start, load, draw,
 * encode, write), per frame kind of the PNG corpus at 1080p (`make bench`;
 * not a test).
 *
 * Per kind, side by side in one run (A B, B A interleaved):
 *   seek     `runeframe seek KIND.json --time T -o FILE.png`, a process:
 *            wall time from spawn to exit, and its page faults (minor +
 *            major, from wait4's rusage)
 *   cairo    cairo_surface_write_to_png of the same frame's pixels (drawn
 *            once in this process beforehand) into a file: the encoder
 *            alone, no start, no load, no draw
 *   render   `runeframe render KIND.json --frames N:N+1 -o DIR`, a process
 *            rendering that one frame (N = round(T * fps))
 * Figures: seek / cairo (goal <= 0.35), and a one-frame render against a
 * budget of 25 ms whole process (goal <= 1.0, i.e. <= 25 ms), each with
 * its page-fault count. Before the kinds, once:
 *   floor    `runeframe --version`, a process: start, the dynamic linking
 *            of runeframe and every library it loads (cairo brings X11,
 *            xcb, fontconfig and more), exit; what no frame can go under
 *            (informative, against the same 25 ms budget)
 *
 * Usage: bench/cold [--reps N] [--corpus DIR] [--runeframe PATH]
 *                   [--time T] [--kinds a,b]
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _GNU_SOURCE 1
#endif
#include <cairo.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench-render.h"

extern char **environ;

#define GOAL_SEEK 0.35
#define BUDGET_MS 25.0

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench/cold: %s: %s\n", what, msg != NULL ? msg : "failed");
    exit(2);
}

/* Runs argv with stdout and stderr on /dev/null; its wall seconds, and its
 * page faults into *faults. Exits when it fails. */
static double run_process(char *const *argv, long *faults)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double t0 = bench_seconds();
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0)
        die(argv[0], "cannot start");
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid)
        die(argv[0], "wait4 failed");
    double t = bench_seconds() - t0;
    posix_spawn_file_actions_destroy(&fa);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        die(argv[1], "the process failed");
    *faults = ru.ru_minflt + ru.ru_majflt;
    return t;
}

static double median_long(const long *v, int n)
{
    double d[BENCH_MAXREPS];
    for (int i = 0; i < n; i++)
        d[i] = (double)v[i];
    return bench_median(d, n);
}

int main(int argc, char **argv)
{
    int reps = bench_reps(argc, argv, 7);
    double t = 1.0;
    const char *corpus = "bench/scenes/corpus", *kinds = NULL, *exe = "./runeframe";
    for (int i = 1; i < argc; i++) {
        if (bench_corpus_arg(argc, argv, &i, &corpus, &kinds, &t))
            continue;
        else if (strcmp(argv[i], "--runeframe") == 0 && i + 1 < argc)
            exe = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            i++;
        else {
            fprintf(stderr, "usage: bench/cold [--reps N] [--corpus DIR] [--runeframe PATH] "
                            "[--time T] [--kinds a,b]\n");
            return 2;
        }
    }
    char dir[] = "/tmp/rf-bench-cold-XXXXXX";
    if (mkdtemp(dir) == NULL)
        die("mkdtemp", NULL);
    char cairo_png[256], seek_png[256], frames[256];
    snprintf(cairo_png, sizeof cairo_png, "%s/cairo.png", dir);
    snprintf(seek_png, sizeof seek_png, "%s/seek.png", dir);
    snprintf(frames, sizeof frames, "%s/frames", dir);
    if (mkdir(frames, 0777) != 0)
        die(frames, "mkdir failed");
    rf_render_tune_allocator();   /* as runeframe itself does */

    /* the floor: a process that loads what runeframe loads and draws nothing */
    {
        char *floor_argv[] = { (char *)exe, "--version", NULL };
        double ft[BENCH_MAXREPS];
        long ff[BENCH_MAXREPS], f;
        run_process(floor_argv, &f);   /* warm-up: the page cache */
        for (int rep = 0; rep < reps; rep++)
            ft[rep] = run_process(floor_argv, &ff[rep]) * 1e3;
        double fm = bench_median(ft, reps), ffm = median_long(ff, reps);
        printf("process floor (runeframe --version: start, dynamic linking, exit), median of %d\n"
               "  --version process           %8.2f ms  %6.0f page faults  (%.0f%% of the %.0f ms budget)\n",
               reps, fm, ffm, 100.0 * fm / BUDGET_MS, BUDGET_MS);
        char a[48], b[48];
        snprintf(a, sizeof a, "%.2f ms, %.0f faults", fm, ffm);
        snprintf(b, sizeof b, "%.0f ms budget", BUDGET_MS);
        bench_row("process floor (runeframe --version): ms / 25 ms", "-", fm / BUDGET_MS, NULL,
                  0, a, b);
    }

    int fails = 0;
    for (int k = 0; bench_corpus_kind(k) != NULL; k++) {
        if (kinds != NULL && !bench_in_list(kinds, bench_corpus_kind(k)))
            continue;
        char path[1024];
        rf_scene_t *sc;
        rf_renderer_t *r = bench_corpus_frame(corpus, k, 1080, t, path, sizeof path, &sc);
        cairo_surface_t *s = rf_renderer_surface(r);
        long n = lround(t * sc->fps);
        char ts[32], range[64];
        snprintf(ts, sizeof ts, "%.17g", t);
        snprintf(range, sizeof range, "%ld:%ld", n, n + 1);
        char *seek_argv[] = { (char *)exe, "seek", path, "--time", ts, "-o", seek_png, NULL };
        char *render_argv[] = { (char *)exe, "render", path, "--frames", range, "-o", frames,
                                "--quiet", NULL };
        double ct[BENCH_MAXREPS], st[BENCH_MAXREPS], rt[BENCH_MAXREPS], ratio[BENCH_MAXREPS];
        long sf[BENCH_MAXREPS], rf[BENCH_MAXREPS], f;
        /* warm-up: the page cache of the binary, its libraries and the scene */
        run_process(seek_argv, &f);
        run_process(render_argv, &f);
        if (cairo_surface_write_to_png(s, cairo_png) != CAIRO_STATUS_SUCCESS)
            die("cairo", cairo_png);
        for (int rep = 0; rep < reps; rep++) {
            double t0;
            if (rep % 2 == 0) {
                t0 = bench_seconds();
                if (cairo_surface_write_to_png(s, cairo_png) != CAIRO_STATUS_SUCCESS)
                    die("cairo", cairo_png);
                ct[rep] = bench_seconds() - t0;
                st[rep] = run_process(seek_argv, &sf[rep]);
                rt[rep] = run_process(render_argv, &rf[rep]);
            } else {
                rt[rep] = run_process(render_argv, &rf[rep]);
                st[rep] = run_process(seek_argv, &sf[rep]);
                t0 = bench_seconds();
                if (cairo_surface_write_to_png(s, cairo_png) != CAIRO_STATUS_SUCCESS)
                    die("cairo", cairo_png);
                ct[rep] = bench_seconds() - t0;
            }
            ratio[rep] = st[rep] / ct[rep];
            ct[rep] *= 1e3;
            st[rep] *= 1e3;
            rt[rep] *= 1e3;
        }
        double sr = bench_median(ratio, reps), rm = bench_median(rt, reps);
        double sfm = median_long(sf, reps), rfm = median_long(rf, reps);
        printf("%s, %dx%d, frame at t = %g, median of %d interleaved repetitions\n",
               bench_corpus_kind(k), sc->width, sc->height, t, reps);
        printf("  cairo_surface_write_to_png %8.2f ms\n", bench_median(ct, reps));
        printf("  seek process               %8.2f ms  %6.0f page faults  %.3fx cairo "
               "(goal <= %.2f)\n", bench_median(st, reps), sfm, sr, GOAL_SEEK);
        printf("  one-frame render process   %8.2f ms  %6.0f page faults  (goal <= %.0f ms)\n",
               rm, rfm, BUDGET_MS);
        fails += sr > GOAL_SEEK;
        fails += rm > BUDGET_MS;
        char fig[128], a[48], b[48];
        snprintf(fig, sizeof fig, "cold seek process %s: seek / cairo_surface_write_to_png",
                 bench_corpus_kind(k));
        snprintf(a, sizeof a, "%.2f ms, %.0f faults", bench_median(st, reps), sfm);
        bench_row(fig, "1920x1080", sr, "<=", GOAL_SEEK, a,
                  bench_fmt(b, sizeof b, bench_median(ct, reps), "ms"));
        snprintf(fig, sizeof fig, "one-frame render process %s: ms / %.0f ms", bench_corpus_kind(k),
                 BUDGET_MS);
        snprintf(a, sizeof a, "%.2f ms, %.0f faults", rm, rfm);
        snprintf(b, sizeof b, "%.0f ms budget", BUDGET_MS);
        bench_row(fig, "1920x1080", rm / BUDGET_MS, "<=", 1.0, a, b);
        rf_renderer_destroy(r);
        rf_scene_destroy(sc);
    }
    unlink(cairo_png);
    unlink(seek_png);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench/cold: could not remove %s\n", dir);
    printf("goals: seek <= %.2fx cairo's encoder alone, one-frame render <= %.0f ms: %d missed\n",
           GOAL_SEEK, BUDGET_MS, fails);
    return 0;
}
