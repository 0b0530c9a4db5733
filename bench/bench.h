/* bench.h - what every benchmark in bench/ shares: a monotonic clock, a
 * fixed-seed generator for precomputed inputs, and medians. Benchmarks only,
 * never the library: each program includes it once. */
#ifndef RF_BENCH_H
#define RF_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Nanoseconds on CLOCK_MONOTONIC. */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Seconds on CLOCK_MONOTONIC. */
static inline double bench_seconds(void)
{
    return bench_now() * 1e-9;
}

/* xorshift64 with a fixed seed, so every run times the same inputs;
 * uniform in [0, 1). Called only to precompute inputs, never in a timed loop. */
static uint64_t bench_rng_state = 0x9e3779b97f4a7c15u;

static inline double bench_uniform(void)
{
    uint64_t x = bench_rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    bench_rng_state = x;
    return (double)(x >> 11) * 0x1.0p-53;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define BENCH_MAXREPS 101

/* The repetitions asked for with --reps N (def when not given), held to
 * [5, BENCH_MAXREPS]: fewer than 5 make no median worth printing. */
static inline int bench_reps(int argc, char **argv, int def)
{
    int reps = def;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
    if (reps < 5)
        reps = 5;
    return reps > BENCH_MAXREPS ? BENCH_MAXREPS : reps;
}

/* Median of v[0 .. n-1] (1 <= n <= BENCH_MAXREPS); v is left as it was. */
static inline double bench_median(const double *v, int n)
{
    double t[BENCH_MAXREPS];
    memcpy(t, v, sizeof *v * (size_t)n);
    qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* One figure for bench/run's table: when BENCH_ROWS names a file, appends
 * one tab-separated line to it,
 *   FIGURE  SIZE  RATIO  GOAL  RESULT  SUBJECT  BASELINE
 * SIZE is "-" for figures that do not depend on the canvas; GOAL is e.g.
 * "<= 2" or "informative"; SUBJECT and BASELINE are the absolute medians
 * with their unit. bench/run prints every benchmark's lines as one table;
 * each benchmark still prints its own report on stdout. */
static inline void bench_row(const char *figure, const char *size, double ratio,
                             const char *goal_op, double goal, const char *subject,
                             const char *baseline)
{
    const char *path = getenv("BENCH_ROWS");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    const char *result = "-";
    char goal_s[32] = "informative";
    if (goal_op) {
        int met = goal_op[0] == '<' ? ratio <= goal : ratio >= goal;
        result = met ? "met" : "MISSED";
        snprintf(goal_s, sizeof goal_s, "%s %g", goal_op, goal);
    }
    fprintf(f, "%s\t%s\t%.3f\t%s\t%s\t%s\t%s\n", figure, size ? size : "-", ratio, goal_s,
            result, subject, baseline);
    fclose(f);
}

/* "12.34 ns" / "5.678 ms" into buf, for bench_row. */
static inline const char *bench_fmt(char *buf, size_t n, double v, const char *unit)
{
    snprintf(buf, n, "%.*f %s", v < 10 ? 3 : v < 100 ? 2 : 1, v, unit);
    return buf;
}

#endif
