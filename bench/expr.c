/* bench/expr.c - nanoseconds per evaluation of compiled expressions, against
 * the same expressions written as C, and the ratio the VM promises
 * (`make bench`; not a test).
 *
 *   20-op expression in the VM / the same expression as C     goal <= 3
 *
 * Three expressions show the spread: a realistic mix of arithmetic and
 * functions (the goal), pure arithmetic (the VM's worst case: every
 * instruction is one cheap flop) and a libm-heavy one (libm dominates).
 * "Ops" are the operator and function nodes of the expression's tree (a
 * negative literal such as -1 is a number, not an op); the VM instruction
 * count, RET included, is printed beside it.
 *
 * Method (as bench/eval): inputs are drawn once, before any timing, from a
 * fixed-seed xorshift generator: NROWS rows of slot values and a time. The
 * VM (rf_expr_eval, compiled by rf_expr_compile with a resolver like the
 * loader's) and the C function (noinline, reading the same slots with the
 * same semantics: the VM's fmin/fmax, mix and clamp) run over the same rows;
 * every result goes into a sum stored in a volatile sink; each figure is the
 * median of 7 repetitions with baseline and subject measured alternately.
 * Before timing, every row's VM result is checked bit for bit against the C
 * function, so both compute the same thing.
 *
 * Usage: bench/expr [--evals N] [--strict]
 *   --strict  exit 1 when the realistic ratio misses its goal
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

#include "expr.h"

/* The C references must round as the VM does: one rounding per operation. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define NROWS 1024u    /* a power of two; 1024 x 64 bytes of slots + times */
#define NSLOTS 8       /* one cache line of slots a row */
#define NREPS 7
#define GOAL 3.0

/* Where the inputs live, as the loader would place them among other values. */
enum { SLOT_P = 1, SLOT_Q = 2, SLOT_R = 4, SLOT_S = 5, SLOT_U = 7 };

typedef struct row {
    double slots[NSLOTS];
} row_t;

static row_t rows[NROWS];
static double times[NROWS];
static volatile double bench_sink;

/* ---- the C references: expr.h's semantics, written by hand ---- */

static inline double c_min(double a, double b)
{
    return isnan(b) || a < b ? a : b;
}

static inline double c_max(double a, double b)
{
    return isnan(b) || a > b ? a : b;
}

static inline double c_clamp(double x, double lo, double hi)
{
    return c_min(c_max(x, lo), hi);
}

static inline double c_mix(double a, double b, double t)
{
    return a + (b - a) * t;
}

static inline double c_step(double e, double x)
{
    return x >= e ? 1.0 : 0.0;
}

#define P s[SLOT_P]
#define Q s[SLOT_Q]
#define R s[SLOT_R]
#define S s[SLOT_S]
#define U s[SLOT_U]

/* 20 ops: mix + * sin * - clamp * - * + abs - * / + * + step * */
static const char real_src[] =
    "mix(40, 600, p) + 8*sin(t*6.283) - clamp(q*2 - 1, -1, 1) * 30"
    " + abs(r - 0.5) * 12 / (1 + s*s) + step(0.5, u) * 4";

static __attribute__((noinline)) double c_real(const double *s, double t)
{
    return c_mix(40, 600, P) + 8 * sin(t * 6.283) - c_clamp(Q * 2 - 1, -1, 1) * 30 +
           fabs(R - 0.5) * 12 / (1 + S * S) + c_step(0.5, U) * 4;
}

/* 20 ops, + - * / only */
static const char arith_src[] =
    "(p*3 + q*q - r/2) * (s + 1) - (p - q) * (r + s*0.5)"
    " + u*u*t - p*q / (1 + r*r)";

static __attribute__((noinline)) double c_arith(const double *s, double t)
{
    return (P * 3 + Q * Q - R / 2) * (S + 1) - (P - Q) * (R + S * 0.5) + U * U * t -
           P * Q / (1 + R * R);
}

/* 20 ops, 8 of them libm calls */
static const char libm_src[] =
    "sin(p*6.283) * cos(q*3) + exp(-r) * sqrt(s + 1)"
    " + pow(u, 1.5) - log(1 + p*p) + atan2(q, r + 1)";

static __attribute__((noinline)) double c_libm(const double *s, double t)
{
    (void)t;
    return sin(P * 6.283) * cos(Q * 3) + exp(-R) * sqrt(S + 1) + pow(U, 1.5) -
           log(1 + P * P) + atan2(Q, R + 1);
}

typedef double (*c_fn)(const double *, double);

/* ---- compiling: a resolver like the loader's ---- */

static int bench_resolve(void *ctx, const char *name, size_t len, int comp, rf_expr_ref_t *out,
                         char *err, size_t errlen)
{
    static const struct { char name; uint32_t slot; } names[] = {
        {'p', SLOT_P}, {'q', SLOT_Q}, {'r', SLOT_R}, {'s', SLOT_S}, {'u', SLOT_U},
    };
    (void)ctx;
    if (len == 1 && comp == RF_EXPR_PLAIN)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (names[i].name == name[0]) {
                out->slot = names[i].slot;
                out->lo = 0;
                out->hi = 1;
                return 0;
            }
    snprintf(err, errlen, "unknown value '%.*s'", (int)len, name);
    return -1;
}

static void *bench_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static rf_expr_t *bench_compile(const char *src)
{
    rf_expr_t *e;
    rf_expr_error_t err;
    if (rf_expr_compile(src, strlen(src), 0, 10, bench_resolve, NULL, bench_alloc, NULL, &e,
                        &err) != 0) {
        fprintf(stderr, "bench/expr: col %d: %s\n", err.col, err.msg);
        exit(3);
    }
    return e;
}

/* VM instructions, RET included: the lines of the dump. */
static unsigned bench_ninstr(const rf_expr_t *e)
{
    char buf[4096];
    size_t n = rf_expr_dump(e, buf, sizeof buf);
    unsigned lines = 0;
    if (n >= sizeof buf) {
        fprintf(stderr, "bench/expr: dump too long\n");
        exit(3);
    }
    for (size_t i = 0; i < n; i++)
        lines += buf[i] == '\n';
    return lines;
}

/* ---- timing ---- */

/* ns per evaluation; separate loops so that no indirect call is timed
 * beyond the C reference's own (direct, noinline) call. */
static double run_vm(const rf_expr_t *e, unsigned long rounds)
{
    double acc = 0.0, t0 = bench_now();
    for (unsigned long r = 0; r < rounds; r++)
        for (unsigned i = 0; i < NROWS; i++)
            acc += rf_expr_eval(e, rows[i].slots, times[i]);
    double t1 = bench_now();
    bench_sink = acc;
    return (t1 - t0) / ((double)rounds * NROWS);
}

#define RUN_C(fn)                                                      \
    static double run_##fn(unsigned long rounds)                       \
    {                                                                  \
        double acc = 0.0, t0 = bench_now();                            \
        for (unsigned long r = 0; r < rounds; r++)                     \
            for (unsigned i = 0; i < NROWS; i++)                       \
                acc += fn(rows[i].slots, times[i]);                    \
        double t1 = bench_now();                                       \
        bench_sink = acc;                                              \
        return (t1 - t0) / ((double)rounds * NROWS);                   \
    }
RUN_C(c_real)
RUN_C(c_arith)
RUN_C(c_libm)

typedef struct subject {
    const char *label;
    const char *src;
    c_fn fn;
    double (*run_c)(unsigned long);
    rf_expr_t *e;
    double ns_c, ns_vm;
} subject_t;

/* Every row: the VM and C agree bit for bit (NaN with NaN). */
static void bench_verify(const subject_t *s)
{
    for (unsigned i = 0; i < NROWS; i++) {
        double a = rf_expr_eval(s->e, rows[i].slots, times[i]);
        double b = s->fn(rows[i].slots, times[i]);
        if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b))) {
            fprintf(stderr, "bench/expr: %s: row %u: vm %.17g, C %.17g\n", s->label, i, a, b);
            exit(3);
        }
    }
}

static void bench_pair(subject_t *s, unsigned long rounds)
{
    double vc[NREPS], vv[NREPS];
    for (int r = 0; r < NREPS; r++) {
        vc[r] = s->run_c(rounds);
        vv[r] = run_vm(s->e, rounds);
    }
    s->ns_c = bench_median(vc, NREPS);
    s->ns_vm = bench_median(vv, NREPS);
}

int main(int argc, char **argv)
{
    unsigned long evals = 1ul << 21;
    int strict = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if (strcmp(argv[i], "--evals") == 0 && i + 1 < argc) {
            char *end;
            evals = strtoul(argv[++i], &end, 10);
            if (*end != '\0' || evals == 0) {
                fprintf(stderr, "bench/expr: --evals must be a positive integer\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: bench/expr [--evals N] [--strict]\n");
            return 2;
        }
    }
    unsigned long rounds = evals / NROWS > 0 ? evals / NROWS : 1;

    for (unsigned i = 0; i < NROWS; i++) {
        for (int j = 0; j < NSLOTS; j++)
            rows[i].slots[j] = bench_uniform();
        times[i] = 10 * bench_uniform();
    }

    subject_t subj[] = {
        {"realistic", real_src, c_real, run_c_real, NULL, 0, 0},
        {"pure arithmetic", arith_src, c_arith, run_c_arith, NULL, 0, 0},
        {"libm-heavy", libm_src, c_libm, run_c_libm, NULL, 0, 0},
    };
    size_t ns = sizeof subj / sizeof subj[0];

    printf("runeframe bench/expr: ns per evaluation, median of %d runs of %lu evaluations\n"
           "(ops: operator/function nodes of the tree; instr: VM instructions incl. RET)\n\n",
           NREPS, rounds * NROWS);
    for (size_t i = 0; i < ns; i++) {
        subj[i].e = bench_compile(subj[i].src);
        bench_verify(&subj[i]);
        bench_pair(&subj[i], rounds);
        printf("  %-16s 20 ops, %2u instr   C %7.2f ns   VM %7.2f ns   ratio %5.2f\n",
               subj[i].label, bench_ninstr(subj[i].e), subj[i].ns_c, subj[i].ns_vm,
               subj[i].ns_vm / subj[i].ns_c);
        printf("      %s\n", subj[i].src);
    }

    double ratio = subj[0].ns_vm / subj[0].ns_c;
    printf("\nratio (baseline and subject interleaved):\n");
    printf("  VM / C, 20-op realistic     %5.2f  (%.2f / %.2f ns)  goal <= 3    %s\n", ratio,
           subj[0].ns_vm, subj[0].ns_c, ratio <= GOAL ? "ok" : "MISSED");
    {
        char a[32], b[32];
        bench_row("expression VM vs C (20 ops)", "-", ratio, "<=", GOAL,
                  bench_fmt(a, sizeof a, subj[0].ns_vm, "ns"), bench_fmt(b, sizeof b, subj[0].ns_c, "ns"));
    }
    for (size_t i = 0; i < ns; i++)
        free(subj[i].e);
    return strict && ratio > GOAL ? 1 : 0;
}
