/* bench/story.c - a storyboard costs what the sequences it stands for cost
 * (`make bench`; not a test).
 *
 *   scenes/storyboard.json's values / bench/scenes/storyboard-hand.json's   goal <= 1.05
 *   (the same motion written by hand as sequences: every value of the
 *   scene evaluated with rf_values_eval at random times over the motion)
 *   card_y alone: its storyboard track / its hand-written track             goal <= 1.05
 *
 * Both scenes are loaded as the CLI loads them. Before timing, the two are
 * compared at every time of the table: the benchmark refuses to time two
 * scenes that do not give bit-identical values. Method as bench/eval:
 * precomputed times, a volatile sink, subject and baseline interleaved in
 * short runs, 41 pairs; the ratio is the median of the pairs' ratios (on a
 * shared machine a pair sees the same load, the medians of each side need
 * not).
 *
 * Usage: bench/story [--evals N] [--strict] [SRCDIR]
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#include "diag.h"
#include "scene.h"
#include "values.h"

#define NTIMES 4096u
#define NREPS 41

static volatile double bench_sink;
static double times[NTIMES];

static rf_scene_t *load(const char *dir, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    rf_diag_t *dg = malloc(sizeof *dg);
    if (dg == NULL)
        exit(3);
    rf_scene_t *sc = rf_scene_load(path, dg);
    if (sc == NULL) {
        rf_diag_print(dg, stderr);
        exit(2);
    }
    free(dg);
    return sc;
}

/* ns per rf_values_eval of the whole set. */
static double run_values(const rf_values_t *vs, double *slots, unsigned long rounds)
{
    double acc = 0, t0 = bench_now();
    for (unsigned long r = 0; r < rounds; r++)
        for (unsigned i = 0; i < NTIMES; i++) {
            rf_values_eval(vs, times[i], slots);
            acc += slots[0];
        }
    double t1 = bench_now();
    bench_sink = acc;
    return (t1 - t0) / ((double)rounds * NTIMES);
}

/* ns per rf_track_eval of one track. */
static double run_track(const rf_track_t *tr, unsigned long rounds)
{
    double acc = 0, t0 = bench_now();
    for (unsigned long r = 0; r < rounds; r++)
        for (unsigned i = 0; i < NTIMES; i++)
            acc += rf_track_eval(tr, times[i]);
    double t1 = bench_now();
    bench_sink = acc;
    return (t1 - t0) / ((double)rounds * NTIMES);
}

int main(int argc, char **argv)
{
    unsigned long evals = 1ul << 19;
    int strict = 0;
    const char *src = ".";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if (strcmp(argv[i], "--evals") == 0 && i + 1 < argc) {
            evals = strtoul(argv[++i], NULL, 10);
            if (evals == 0) {
                fprintf(stderr, "bench/story: --evals must be a positive integer\n");
                return 2;
            }
        } else if (argv[i][0] != '-') {
            src = argv[i];
        } else {
            fprintf(stderr, "usage: bench/story [--evals N] [--strict] [SRCDIR]\n");
            return 2;
        }
    }
    rf_scene_t *story = load(src, "scenes/storyboard.json");
    rf_scene_t *hand = load(src, "bench/scenes/storyboard-hand.json");
    const rf_values_t *vs = &story->values, *vh = &hand->values;
    double *ss = malloc((vs->nslots + 1) * sizeof *ss), *sh = malloc((vh->nslots + 1) * sizeof *sh);
    if (ss == NULL || sh == NULL)
        return 3;
    for (unsigned i = 0; i < NTIMES; i++)
        times[i] = 3.2 * bench_uniform();

    /* the same values, bit for bit, at every time of the table */
    for (unsigned i = 0; i < NTIMES; i++) {
        rf_values_eval(vs, times[i], ss);
        rf_values_eval(vh, times[i], sh);
        for (uint32_t k = 0; k < vs->nnamed; k++) {
            const rf_value_t *a = &vs->values[k], *b = rf_values_find(vh, a->name);
            if (b == NULL || memcmp(&ss[a->slot], &sh[b->slot], sizeof(double)) != 0) {
                fprintf(stderr, "bench/story: %s differs at t = %.17g: the scenes are not "
                        "equivalent\n", a->name, times[i]);
                return 2;
            }
        }
    }
    const rf_value_t *ya = rf_values_find(vs, "card_y"), *yb = rf_values_find(vh, "card_y");
    if (ya == NULL || yb == NULL) {
        fprintf(stderr, "bench/story: no card_y\n");
        return 2;
    }

    unsigned long rounds = evals / NTIMES ? evals / NTIMES : 1;
    unsigned long vrounds = rounds / 8 ? rounds / 8 : 1;   /* a whole set is ~8 values */
    double vb[NREPS], vsb[NREPS], tb[NREPS], tsb[NREPS], qv[NREPS], qt[NREPS];
    for (int r = 0; r < NREPS; r++) {
        /* alternate which side runs first, so neither always runs warm */
        if (r % 2 == 0) {
            vb[r] = run_values(vh, sh, vrounds);
            vsb[r] = run_values(vs, ss, vrounds);
            tb[r] = run_track(&yb->track, rounds);
            tsb[r] = run_track(&ya->track, rounds);
        } else {
            vsb[r] = run_values(vs, ss, vrounds);
            vb[r] = run_values(vh, sh, vrounds);
            tsb[r] = run_track(&ya->track, rounds);
            tb[r] = run_track(&yb->track, rounds);
        }
        qv[r] = vsb[r] / vb[r];
        qt[r] = tsb[r] / tb[r];
    }
    double mvb = bench_median(vb, NREPS), mvs = bench_median(vsb, NREPS);
    double mtb = bench_median(tb, NREPS), mts = bench_median(tsb, NREPS);
    double rv = bench_median(qv, NREPS), rt = bench_median(qt, NREPS);
    printf("runeframe bench/story: ns per evaluation, median of %d runs, times uniform in "
           "[0, 3.2] s\n\n", NREPS);
    printf("  %-44s %8.2f ns\n", "hand-written sequences (all values)", mvb);
    printf("  %-44s %8.2f ns\n", "storyboard (all values)", mvs);
    printf("  %-44s %8.2f ns\n", "hand-written card_y", mtb);
    printf("  %-44s %8.2f ns\n", "storyboard card_y", mts);
    printf("\nratios (median of the %d interleaved pairs' ratios):\n", NREPS);
    printf("  storyboard / sequences, all values  %5.3f  goal <= 1.05  %s\n", rv,
           rv <= 1.05 ? "ok" : "MISSED");
    printf("  storyboard / sequence, card_y       %5.3f  goal <= 1.05  %s\n", rt,
           rt <= 1.05 ? "ok" : "MISSED");
    char a[32], b[32];
    bench_row("storyboard values vs hand-written sequences", "-", rv, "<=", 1.05,
              bench_fmt(a, sizeof a, mvs, "ns"), bench_fmt(b, sizeof b, mvb, "ns"));
    bench_row("storyboard value vs its sequence (card_y)", "-", rt, "<=", 1.05,
              bench_fmt(a, sizeof a, mts, "ns"), bench_fmt(b, sizeof b, mtb, "ns"));
    free(ss);
    free(sh);
    rf_scene_destroy(story);
    rf_scene_destroy(hand);
    return strict && (rv > 1.05 || rt > 1.05) ? 1 : 0;
}
