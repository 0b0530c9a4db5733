/* bench.h - what every benchmark in bench/ shares: a monotonic clock, a
 * fixed-seed generator for precomputed inputs, and medians. Benchmarks only,
 * never the library: each program includes it once. */
#ifndef RF_BENCH_H
#define RF_BENCH_H

#include <stdint.h>
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

/* Median of v[0 .. n-1] (1 <= n <= BENCH_MAXREPS); v is left as it was. */
static inline double bench_median(const double *v, int n)
{
    double t[BENCH_MAXREPS];
    memcpy(t, v, sizeof *v * (size_t)n);
    qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

#endif
