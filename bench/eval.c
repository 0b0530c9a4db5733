/* bench/eval.c - nanoseconds per evaluation of every animation kind, and the
 * two cost ratios the engine promises (`make bench`; not a test).
 *
 *   spring eval / one exp()+cos()+sin() on the same inputs     goal <= 2
 *   1,000-entry sequence at a random time / a single spring     goal <= 1.5
 *
 * Method: times are drawn once, before any timing, from a fixed-seed
 * xorshift generator (no RNG in the timed loops); each measurement runs
 * `evals` evaluations over that table and stores the sum in a volatile sink
 * so nothing is optimized away; every figure is the median of 7
 * repetitions; a ratio's baseline and subject are measured alternately in
 * the same repetition so that frequency changes hit both alike.
 *
 * Usage: bench/eval [--evals N] [--strict]
 *   --strict  exit 1 when a ratio misses its goal
 */
/* clock_gettime() is POSIX; the build defines _GNU_SOURCE, a bare
 * `cc -std=c11` does not. */
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

#include "anim.h"
#include "easing.h"

#define NTIMES 4096u   /* a power of two: 32 KiB of times, L1/L2 resident */
#define NREPS 7
#define SEQ_N 1000u

static volatile double bench_sink;

typedef enum bench_kind { BENCH_ANIM, BENCH_TRACK, BENCH_BASELINE } bench_kind_t;

/* One thing to time: an anim, a track, or the exp+cos+sin baseline. */
typedef struct bench_subject {
    const char *label;
    bench_kind_t kind;
    const rf_anim_t *anim;
    const rf_track_t *track;
    double k_exp, k_trig;  /* baseline: exp(-k_exp t) + cos(k_trig t) + sin(k_trig t) */
    double times[NTIMES];
} bench_subject_t;

static void bench_fill_times(double *times, double lo, double hi)
{
    for (unsigned i = 0; i < NTIMES; i++)
        times[i] = lo + (hi - lo) * bench_uniform();
}

/* ns per evaluation of one run of `evals` evaluations. Each kind has its
 * own loop so that no indirect call is timed. */
static double bench_run(const bench_subject_t *s, unsigned long evals)
{
    const double *ts = s->times;
    unsigned long rounds = evals / NTIMES;
    double acc = 0.0, t0, t1;

    if (rounds == 0)
        rounds = 1;
    t0 = bench_now();
    switch (s->kind) {
    case BENCH_ANIM:
        for (unsigned long r = 0; r < rounds; r++)
            for (unsigned i = 0; i < NTIMES; i++)
                acc += rf_anim_eval(s->anim, ts[i]);
        break;
    case BENCH_TRACK:
        for (unsigned long r = 0; r < rounds; r++)
            for (unsigned i = 0; i < NTIMES; i++)
                acc += rf_track_eval(s->track, ts[i]);
        break;
    case BENCH_BASELINE:
        for (unsigned long r = 0; r < rounds; r++)
            for (unsigned i = 0; i < NTIMES; i++)
                acc += exp(-s->k_exp * ts[i]) + cos(s->k_trig * ts[i]) + sin(s->k_trig * ts[i]);
        break;
    }
    t1 = bench_now();
    bench_sink = acc;
    return (t1 - t0) / ((double)rounds * NTIMES);
}

static double bench_time(const bench_subject_t *s, unsigned long evals)
{
    double v[NREPS];
    for (int r = 0; r < NREPS; r++)
        v[r] = bench_run(s, evals);
    return bench_median(v, NREPS);
}

/* Medians of base and subject, measured alternately. */
static void bench_pair(const bench_subject_t *base, const bench_subject_t *subj,
                       unsigned long evals, double *mb, double *ms)
{
    double vb[NREPS], vs[NREPS];
    for (int r = 0; r < NREPS; r++) {
        vb[r] = bench_run(base, evals);
        vs[r] = bench_run(subj, evals);
    }
    *mb = bench_median(vb, NREPS);
    *ms = bench_median(vs, NREPS);
}

static bench_subject_t *bench_new(const char *label, bench_kind_t kind)
{
    bench_subject_t *s = calloc(1, sizeof *s);
    if (s == NULL) {
        fprintf(stderr, "bench/eval: out of memory\n");
        exit(3);
    }
    s->label = label;
    s->kind = kind;
    return s;
}

/* Times over the moving part of a segment: from its start to 90% of the way
 * to its settle time (or to `horizon` when it never settles), so that every
 * evaluation runs the closed form rather than the settled shortcut. */
static void bench_fill_live(bench_subject_t *s, const rf_anim_t *a, double horizon)
{
    double end = isfinite(a->settle) ? a->start + 0.9 * (a->settle - a->start) : horizon;
    bench_fill_times(s->times, a->start, end);
}

static void bench_spring(rf_anim_t *a, double damping)
{
    rf_anim_spec_t spec;
    rf_anim_spec_defaults(&spec, RF_CURVE_SPRING);
    spec.from = 0;
    spec.to = 300;
    spec.stiffness = 170;
    spec.damping = damping;
    rf_anim_init(a, &spec);
}

/* Storage for linear(...) stops; the bench keeps its descriptors to exit. */
static void *bench_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static int bench_easing(rf_easing_t *e, const char *name)
{
    char err[160];
    if (rf_easing_parse(e, name, 0, bench_alloc, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "bench/eval: easing %s: %s\n", name, err);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long evals = 1ul << 20;
    int strict = 0;
    static rf_anim_t under, critical, over, bez, pingpong, tween, phys, decay, keys;
    void *seq_store, *single_store;
    static rf_anim_spec_t seq_specs[SEQ_N];
    static rf_key_t keyv[5];
    rf_track_t seq, single_track;
    rf_anim_spec_t spec;
    double mb, ms, spring_ratio, seq_ratio, seq_single, seq_ns;
    int status = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if (strcmp(argv[i], "--evals") == 0 && i + 1 < argc) {
            char *end;
            evals = strtoul(argv[++i], &end, 10);
            if (*end != '\0' || evals == 0) {
                fprintf(stderr, "bench/eval: --evals must be a positive integer\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: bench/eval [--evals N] [--strict]\n");
            return 2;
        }
    }

    /* ---- descriptors, built as the scene loader builds them ---- */
    bench_spring(&under, 10);                  /* zeta = 0.38 */
    bench_spring(&critical, 2 * sqrt(170.0));  /* zeta = 1 */
    bench_spring(&over, 60);                   /* zeta = 2.3 */

    rf_anim_spec_defaults(&spec, RF_CURVE_EASED);
    spec.from = 0;
    spec.to = 100;
    spec.duration = 0.8;
    rf_easing_init_cubic(&spec.easing, 0.25, 0.1, 0.25, 1.0, 1);  /* CSS ease */
    rf_anim_init(&bez, &spec);
    spec.repeat = RF_REPEAT_PING_PONG;
    spec.iterations = 0;
    rf_easing_init_cubic(&spec.easing, 0.42, 0, 0.58, 1.0, 1);    /* ease-in-out */
    rf_anim_init(&pingpong, &spec);

    rf_anim_spec_defaults(&spec, RF_CURVE_EASED);
    spec.from = 0;
    spec.to = 100;
    spec.duration = 0.5;
    if (bench_easing(&spec.easing, "ease-in-out-cubic") != 0)
        return 3;
    rf_anim_init(&tween, &spec);

    rf_anim_spec_defaults(&spec, RF_CURVE_PHYSICS);
    spec.from = 0;
    spec.velocity = -200;
    spec.friction = 2;
    spec.gravity = 900;
    spec.min = -100;
    spec.max = 720;
    rf_anim_init(&phys, &spec);

    rf_anim_spec_defaults(&spec, RF_CURVE_DECAY);
    spec.from = 0;
    spec.velocity = 1200;
    spec.friction = 1;
    rf_anim_init(&decay, &spec);

    {
        static const double kt[5] = { 0, 0.2, 0.5, 0.8, 1 };
        static const double kv[5] = { 0, 80, 40, 120, 100 };
        for (int i = 0; i < 5; i++) {
            keyv[i].time = kt[i];
            keyv[i].value = kv[i];
            rf_easing_init_linear(&keyv[i].easing);
        }
        rf_anim_spec_defaults(&spec, RF_CURVE_KEYFRAMES);
        spec.duration = 1.2;
        spec.keys = keyv;
        spec.nkeys = 5;
        rf_anim_init(&keys, &spec);
    }

    /* A sequence of 1,000 default springs retargeting every 4 ms between
     * 0 and 300, each inheriting value and velocity; and a single default
     * spring evaluated through a one-segment track, as values.c does. */
    for (unsigned i = 0; i < SEQ_N; i++) {
        rf_anim_spec_defaults(&seq_specs[i], RF_CURVE_SPRING);
        seq_specs[i].start = i * 0.004;
        seq_specs[i].to = (i % 2) ? 0 : 300;
        seq_specs[i].has_from = i == 0;
        seq_specs[i].has_velocity = i == 0;
    }
    /* malloc's alignment suits the doubles the storage holds. */
    seq_store = malloc(rf_track_storage_size(SEQ_N));
    single_store = malloc(rf_track_storage_size(1));
    if (seq_store == NULL || single_store == NULL) {
        fprintf(stderr, "bench/eval: out of memory\n");
        return 3;
    }
    rf_track_build(&seq, seq_store, seq_specs, SEQ_N);
    rf_anim_spec_defaults(&spec, RF_CURVE_SPRING);
    spec.to = 300;
    rf_track_build(&single_track, single_store, &spec, 1);

    /* ---- subjects ---- */
    struct { const char *label; const rf_anim_t *a; double horizon; } kinds[] = {
        { "spring under-damped", &under, 0 },
        { "spring critically damped", &critical, 0 },
        { "spring over-damped", &over, 0 },
        { "bezier (ease)", &bez, 0 },
        { "bezier ping-pong", &pingpong, 20 },
        { "tween ease-in-out-cubic", &tween, 0 },
        { "physics with bound", &phys, 0 },
        { "decay", &decay, 0 },
        { "keyframes (5 keys)", &keys, 0 },
    };
    size_t nk = sizeof kinds / sizeof kinds[0];

    printf("runeframe bench/eval: ns per evaluation, median of %d runs of %lu evaluations\n\n",
           NREPS, (evals / NTIMES > 0 ? evals / NTIMES : 1) * NTIMES);
    for (size_t i = 0; i < nk; i++) {
        bench_subject_t *s = bench_new(kinds[i].label, BENCH_ANIM);
        s->anim = kinds[i].a;
        bench_fill_live(s, kinds[i].a, kinds[i].horizon);
        printf("  %-34s %8.2f ns\n", s->label, bench_time(s, evals));
        free(s);
    }

    bench_subject_t *seqs = bench_new("sequence of 1,000 springs", BENCH_TRACK);
    seqs->track = &seq;
    bench_fill_times(seqs->times, 0, seq.segs[SEQ_N - 1].start);
    bench_subject_t *one = bench_new("single spring (track of 1)", BENCH_TRACK);
    one->track = &single_track;
    bench_fill_live(one, single_track.segs, 0);

    /* ---- ratio 1: spring vs exp+cos+sin on the same inputs ---- */
    bench_subject_t *sp = bench_new("spring under-damped", BENCH_ANIM);
    sp->anim = &under;
    bench_fill_live(sp, &under, 0);
    bench_subject_t *base = bench_new("exp()+cos()+sin()", BENCH_BASELINE);
    memcpy(base->times, sp->times, sizeof base->times);
    {
        /* The arguments the under-damped closed form takes: stiffness 170,
         * damping 10, so zeta * omega = 5 and omega_d = omega sqrt(1 - zeta^2). */
        double omega = sqrt(170.0), zeta = 10.0 / (2.0 * omega);
        base->k_exp = zeta * omega;
        base->k_trig = omega * sqrt(1.0 - zeta * zeta);
    }
    bench_pair(base, sp, evals, &mb, &ms);
    spring_ratio = ms / mb;
    printf("  %-34s %8.2f ns\n", base->label, mb);

    /* ---- ratio 2: 1,000-entry sequence vs a single spring ---- */
    bench_pair(one, seqs, evals, &seq_single, &seq_ns);
    seq_ratio = seq_ns / seq_single;
    printf("  %-34s %8.2f ns\n", one->label, seq_single);
    printf("  %-34s %8.2f ns  (at random times)\n", seqs->label, seq_ns);

    printf("\nratios (baseline and subject interleaved):\n");
    printf("  spring / (exp+cos+sin)      %5.2f  (%.2f / %.2f ns)  goal <= 2    %s\n",
           spring_ratio, ms, mb, spring_ratio <= 2.0 ? "ok" : "MISSED");
    printf("  sequence-1000 / spring      %5.2f  (%.2f / %.2f ns)  goal <= 1.5  %s\n",
           seq_ratio, seq_ns, seq_single, seq_ratio <= 1.5 ? "ok" : "MISSED");
    {
        char a[32], b[32];
        bench_row("spring eval vs exp()+cos()+sin()", "-", spring_ratio, "<=", 2.0,
                  bench_fmt(a, sizeof a, ms, "ns"), bench_fmt(b, sizeof b, mb, "ns"));
        bench_row("1000-entry sequence vs one spring", "-", seq_ratio, "<=", 1.5,
                  bench_fmt(a, sizeof a, seq_ns, "ns"), bench_fmt(b, sizeof b, seq_single, "ns"));
    }
    if (strict && (spring_ratio > 2.0 || seq_ratio > 1.5))
        status = 1;

    free(seqs);
    free(one);
    free(sp);
    free(base);
    free(seq_store);
    free(single_store);
    return status;
}
