/* bench/path.c - nanoseconds per sample_path evaluation on a 100-segment
 * path (`make bench`; not a test).
 *
 *   rf_path_sample (x, y, angle) / one cubic de Casteljau point   informative
 *
 * The path is 100 segments cycling L, Q, C with coordinates drawn from a
 * fixed-seed xorshift generator, parsed and measured by rf_path_parse as the
 * loader does. Progresses are drawn once, before any timing, uniformly in
 * [0, 1]; every evaluation's outputs go into a sum stored in a volatile sink;
 * each figure is the median of 7 repetitions, and the baseline (a direct
 * de Casteljau evaluation of one cubic at t = progress, noinline like the
 * library call) is measured alternately with the subject in the same
 * repetition. The baseline is the floor of any curve evaluation; the ratio
 * shows what arc-length lookup (binary search over the knots and the
 * Halley refinement, timed alone as rf_path_locate) adds on top. No goal
 * is stated for it.
 *
 * Arcs (scene-v1.md "Paths, complete"): a circle of two arcs and the same
 * geometry written out as its 8 cubics (each printed with %.17g from the
 * parsed arcs, so the segments are bit for bit the same), side by side:
 *
 *   rf_path_parse of the arc data / of the cubic data   informative
 *   rf_path_sample on the arc path / on the cubic path  informative (~1)
 *
 * The first is what the F.6 conversion adds to parsing and measuring; the
 * second shows that an arc path samples exactly as fast as cubics (it is
 * cubics once loaded).
 *
 * Usage: bench/path [--evals N]
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#include "path.h"

#define NPROG 4096u    /* a power of two: 32 KiB of progresses */
#define NREPS 7
#define NSEGS 100

static double progs[NPROG];
static volatile double bench_sink;

/* A coordinate in [0, 500) with two decimals, as an editor would write it. */
static double bench_coord(void)
{
    return floor(bench_uniform() * 50000.0) / 100.0;
}

/* "M x y" then NSEGS segments cycling L, Q, C (absolute). */
static char *bench_path_data(size_t *len)
{
    size_t cap = 64 + (size_t)NSEGS * 64, n = 0;
    char *d = malloc(cap);
    if (d == NULL)
        return NULL;
    n += (size_t)snprintf(d + n, cap - n, "M %.2f %.2f", bench_coord(), bench_coord());
    for (int i = 0; i < NSEGS; i++) {
        static const char cmds[3] = {'L', 'Q', 'C'};
        static const int pairs[3] = {1, 2, 3};
        n += (size_t)snprintf(d + n, cap - n, " %c", cmds[i % 3]);
        for (int j = 0; j < pairs[i % 3]; j++)
            n += (size_t)snprintf(d + n, cap - n, " %.2f %.2f", bench_coord(), bench_coord());
    }
    *len = n;
    return d;
}

static void *bench_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

/* The baseline: a cubic's point at t by de Casteljau (6 lerps a coordinate). */
static const double cubic[8] = {12.5, 40.0, 180.25, -30.5, 260.0, 310.75, 420.0, 95.5};

static __attribute__((noinline)) void bench_casteljau(const double *P, double t, double *x,
                                                      double *y)
{
    double ax = P[0] + (P[2] - P[0]) * t, ay = P[1] + (P[3] - P[1]) * t;
    double bx = P[2] + (P[4] - P[2]) * t, by = P[3] + (P[5] - P[3]) * t;
    double cx = P[4] + (P[6] - P[4]) * t, cy = P[5] + (P[7] - P[5]) * t;
    double dx = ax + (bx - ax) * t, dy = ay + (by - ay) * t;
    double ex = bx + (cx - bx) * t, ey = by + (cy - by) * t;
    *x = dx + (ex - dx) * t;
    *y = dy + (ey - dy) * t;
}

typedef enum bench_kind {
    BENCH_SAMPLE, BENCH_SAMPLE_XY, BENCH_LOCATE, BENCH_CASTELJAU
} bench_kind_t;

/* ns per evaluation; one loop per kind so that no indirect call is timed. */
static double bench_run(bench_kind_t kind, const rf_path_t *p, unsigned long rounds)
{
    double acc = 0.0, t0, t1;
    t0 = bench_now();
    switch (kind) {
    case BENCH_SAMPLE:
        for (unsigned long r = 0; r < rounds; r++)
            for (unsigned i = 0; i < NPROG; i++) {
                double x, y, a;
                rf_path_sample(p, progs[i], &x, &y, &a);
                acc += x + y + a;
            }
        break;
    case BENCH_SAMPLE_XY:
        for (unsigned long r = 0; r < rounds; r++)
            for (unsigned i = 0; i < NPROG; i++) {
                double x, y;
                rf_path_sample(p, progs[i], &x, &y, NULL);
                acc += x + y;
            }
        break;
    case BENCH_LOCATE:
        for (unsigned long r = 0; r < rounds; r++)
            for (unsigned i = 0; i < NPROG; i++) {
                uint32_t seg;
                double t;
                rf_path_locate(p, progs[i], &seg, &t);
                acc += t + seg;
            }
        break;
    case BENCH_CASTELJAU:
        for (unsigned long r = 0; r < rounds; r++)
            for (unsigned i = 0; i < NPROG; i++) {
                double x, y;
                bench_casteljau(cubic, progs[i], &x, &y);
                acc += x + y;
            }
        break;
    }
    t1 = bench_now();
    bench_sink = acc;
    return (t1 - t0) / ((double)rounds * NPROG);
}

/* ns per parse (and measurement) of d. */
static double bench_parse(const char *d, size_t len, unsigned long rounds)
{
    double t0 = bench_now(), acc = 0.0;
    for (unsigned long r = 0; r < rounds; r++) {
        rf_path_t *q = NULL;
        if (rf_path_parse(d, len, bench_alloc, NULL, &q, NULL) == 0)
            acc += rf_path_length(q);
        free(q);
    }
    double t1 = bench_now();
    bench_sink = acc;
    return (t1 - t0) / (double)rounds;
}

/* The arc circle against its own cubics (see the header). */
static int bench_arcs(unsigned long rounds)
{
    static const char arcs[] = "M 150 250 A 100 100 0 0 1 350 250 A 100 100 0 0 1 150 250 Z";
    rf_path_t *a = NULL, *c = NULL;
    if (rf_path_parse(arcs, sizeof arcs - 1, bench_alloc, NULL, &a, NULL) != 0)
        return 3;
    char cub[2048];
    size_t n = (size_t)snprintf(cub, sizeof cub, "M 150 250");
    for (uint32_t i = 0; i < rf_path_segment_count(a); i++) {
        const double *P;
        if (rf_path_segment(a, i, &P) == RF_PATH_CUBIC)
            n += (size_t)snprintf(cub + n, sizeof cub - n, " C %.17g %.17g %.17g %.17g %.17g %.17g",
                                  P[2], P[3], P[4], P[5], P[6], P[7]);
        else
            n += (size_t)snprintf(cub + n, sizeof cub - n, " Z");
    }
    if (n >= sizeof cub || rf_path_parse(cub, n, bench_alloc, NULL, &c, NULL) != 0 ||
        rf_path_length(c) != rf_path_length(a)) {
        fprintf(stderr, "bench/path: the cubic copy of the arcs differs\n");
        return 3;
    }
    unsigned long prounds = rounds * 8 > 0 ? rounds * 8 : 1;
    double pa[NREPS], pc[NREPS], sa[NREPS], sc[NREPS];
    for (int r = 0; r < NREPS; r++) {
        pc[r] = bench_parse(cub, n, prounds);
        pa[r] = bench_parse(arcs, sizeof arcs - 1, prounds);
        sc[r] = bench_run(BENCH_SAMPLE, c, rounds);
        sa[r] = bench_run(BENCH_SAMPLE, a, rounds);
    }
    double rp[NREPS], rs[NREPS];
    for (int r = 0; r < NREPS; r++) {
        rp[r] = pa[r] / pc[r];
        rs[r] = sa[r] / sc[r];
    }
    double mpa = bench_median(pa, NREPS), mpc = bench_median(pc, NREPS);
    double msa = bench_median(sa, NREPS), msc = bench_median(sc, NREPS);
    double ratio_p = bench_median(rp, NREPS), ratio_s = bench_median(rs, NREPS);
    printf("\narcs: a circle of two arcs (%u segments) vs its cubics written out:\n",
           (unsigned)rf_path_segment_count(a));
    printf("  parse + measure, arcs / cubics   %6.2f  (%.0f / %.0f ns)  informative\n", ratio_p,
           mpa, mpc);
    printf("  sample_path, arcs / cubics       %6.2f  (%.2f / %.2f ns)  informative\n", ratio_s,
           msa, msc);
    char x[32], y[32];
    bench_row("parse + measure: circle of 2 arcs vs its 8 cubics", "-", ratio_p, NULL, 0,
              bench_fmt(x, sizeof x, mpa, "ns"), bench_fmt(y, sizeof y, mpc, "ns"));
    bench_row("sample_path: circle of 2 arcs vs its 8 cubics", "-", ratio_s, NULL, 0,
              bench_fmt(x, sizeof x, msa, "ns"), bench_fmt(y, sizeof y, msc, "ns"));
    free(a);
    free(c);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long evals = 1ul << 20;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--evals") == 0 && i + 1 < argc) {
            char *end;
            evals = strtoul(argv[++i], &end, 10);
            if (*end != '\0' || evals == 0) {
                fprintf(stderr, "bench/path: --evals must be a positive integer\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: bench/path [--evals N]\n");
            return 2;
        }
    }
    unsigned long rounds = evals / NPROG > 0 ? evals / NPROG : 1;

    size_t len;
    char *d = bench_path_data(&len);
    if (d == NULL) {
        fprintf(stderr, "bench/path: out of memory\n");
        return 3;
    }
    rf_path_t *p = NULL;
    rf_path_error_t err;
    if (rf_path_parse(d, len, bench_alloc, NULL, &p, &err) != 0) {
        fprintf(stderr, "bench/path: %s\n", err.msg);
        return 3;
    }
    uint32_t nknots;
    rf_path_knots(p, &nknots);
    if (rf_path_segment_count(p) != NSEGS) {
        fprintf(stderr, "bench/path: parsed %u segments, want %d\n",
                (unsigned)rf_path_segment_count(p), NSEGS);
        return 3;
    }
    for (unsigned i = 0; i < NPROG; i++)
        progs[i] = bench_uniform();

    double vs[NREPS], vxy[NREPS], vl[NREPS], vb[NREPS];
    for (int r = 0; r < NREPS; r++) {
        vb[r] = bench_run(BENCH_CASTELJAU, p, rounds);
        vs[r] = bench_run(BENCH_SAMPLE, p, rounds);
        vxy[r] = bench_run(BENCH_SAMPLE_XY, p, rounds);
        vl[r] = bench_run(BENCH_LOCATE, p, rounds);
    }
    double base = bench_median(vb, NREPS), sample = bench_median(vs, NREPS), sample_xy = bench_median(vxy, NREPS);
    double locate = bench_median(vl, NREPS);

    printf("runeframe bench/path: ns per evaluation, median of %d runs of %lu evaluations\n"
           "path: %d segments (L, Q, C in turn), %u knots, length %.6g, %zu bytes of d\n\n",
           NREPS, rounds * NPROG, NSEGS, (unsigned)nknots, rf_path_length(p), len);
    printf("  %-40s %8.2f ns\n", "rf_path_sample x, y, angle", sample);
    printf("  %-40s %8.2f ns\n", "rf_path_sample x, y", sample_xy);
    printf("  %-40s %8.2f ns\n", "rf_path_locate (segment, t) alone", locate);
    printf("  %-40s %8.2f ns\n", "one cubic by de Casteljau (baseline)", base);
    printf("\nratio (baseline and subject interleaved):\n");
    printf("  sample_path / de Casteljau  %6.2f  (%.2f / %.2f ns)  informative, no goal\n",
           sample / base, sample, base);
    {
        char a[32], b[32];
        bench_row("sample_path (100 segments) vs one cubic", "-", sample / base, NULL, 0,
                  bench_fmt(a, sizeof a, sample, "ns"), bench_fmt(b, sizeof b, base, "ns"));
    }
    free(p);
    free(d);
    return bench_arcs(rounds);
}
