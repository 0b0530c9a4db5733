/* check_expr.c - the expression module against independent references.
 *
 * References: hand-computed values in data files (tests/expr/eval.txt,
 * errors.txt, ranges.txt; directory from argv[1], $EXPR_DIR, or tests/expr),
 * a recursive tree evaluator written here from scene-v1.md's definitions
 * (random expressions are printed from trees with minimal parentheses, so
 * it also checks precedence and associativity), and the interval soundness
 * property: every value the VM returns for inputs inside their ranges lies
 * inside the published range, NaN only under (-inf, +inf).
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "loc.h"
#include "testutil.h"
#include "suggest.h"

/* One rounding per operation, as written: the folder, the VM and the range
 * analysis must agree bit for bit (gcc -std=c11 never contracts; clang
 * would fuse a*b+c into an fma by default). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- allocation: malloc'ed blocks freed at the end of each test -------- */

#define MAX_BLOCKS 4096
static void *blocks[MAX_BLOCKS];
static int nblocks;
static int alloc_fail;      /* nonzero: the allocator refuses */

static void *test_alloc(void *ctx, size_t size)
{
    (void)ctx;
    if (alloc_fail || nblocks >= MAX_BLOCKS)
        return NULL;
    void *p = malloc(size);
    if (p != NULL)
        blocks[nblocks++] = p;
    return p;
}

static void free_blocks(void)
{
    while (nblocks > 0)
        free(blocks[--nblocks]);
}

/* ---- an environment of named inputs ----------------------------------- */

#define MAX_INPUTS 16

typedef struct input {
    char name[32];
    int comp;               /* RF_EXPR_PLAIN .. RF_EXPR_A */
    double value;
    double lo, hi;
} input_t;

typedef struct env {
    input_t in[MAX_INPUTS];
    int n;
    double t, t_lo, t_hi;
    int samples;            /* nonzero: errors.txt naming rules (see resolve_fixed) */
} env_t;

static const char *const comp_names[] = {"", "x", "y", "angle", "z", "w", "r", "g", "b", "a"};

static int resolve_env(void *ctx, const char *name, size_t len, int comp,
                       rf_expr_ref_t *out, char *err, size_t errlen)
{
    env_t *env = ctx;
    for (int i = 0; i < env->n; i++)
        if (strlen(env->in[i].name) == len && memcmp(env->in[i].name, name, len) == 0 &&
            env->in[i].comp == comp) {
            out->slot = (uint32_t)i;
            out->lo = env->in[i].lo;
            out->hi = env->in[i].hi;
            return 0;
        }
    snprintf(err, errlen, "unknown value '%.*s'", (int)len, name);
    return -1;
}

/* The errors.txt environment, shaped like the loader's: plain values x, y,
 * w, dist; a sample_path value p with .x .y .angle. */
static int resolve_fixed(void *ctx, const char *name, size_t len, int comp,
                         rf_expr_ref_t *out, char *err, size_t errlen)
{
    static const char *const plain[] = {"x", "y", "w", "dist"};
    static const char *const all[] = {"x", "y", "w", "dist", "p"};
    char word[64];
    (void)ctx;
    snprintf(word, sizeof word, "%.*s", (int)len, name);
    out->lo = 0;
    out->hi = 1;
    for (uint32_t i = 0; i < 4; i++)
        if (strcmp(word, plain[i]) == 0) {
            if (comp != RF_EXPR_PLAIN) {
                snprintf(err, errlen, "'%s' is not a path sample: '.%s' needs a sample_path value",
                         word, comp_names[comp]);
                return -1;
            }
            out->slot = i;
            return 0;
        }
    if (strcmp(word, "p") == 0) {
        if (comp == RF_EXPR_PLAIN) {
            snprintf(err, errlen, "'p' is a path sample: use p.x, p.y or p.angle");
            return -1;
        }
        if (comp > RF_EXPR_ANGLE) {
            snprintf(err, errlen, "'p' is a path sample: it has no '.%s' (.x, .y and .angle)",
                     comp_names[comp]);
            return -1;
        }
        out->slot = 3 + (uint32_t)comp;
        return 0;
    }
    const char *dym = rf_did_you_mean(word, all, 5);
    if (dym != NULL)
        snprintf(err, errlen, "unknown value '%s' (did you mean '%s'?)", word, dym);
    else
        snprintf(err, errlen, "unknown value '%s'", word);
    return -1;
}

/* ---- data files ---------------------------------------------------------- */

typedef struct tcase {
    const char *file;
    int line;
    char *lines[3];
} tcase_t;

typedef struct tfile {
    const char *name;
    int nlines;             /* lines a block has */
    tcase_t *cases;
    int n;
} tfile_t;

static tfile_t f_eval = {"eval.txt", 3, NULL, 0};
static tfile_t f_errors = {"errors.txt", 2, NULL, 0};
static tfile_t f_ranges = {"ranges.txt", 3, NULL, 0};
static const char *data_dir = "tests/expr";

/* Blocks of f->nlines lines separated by blank lines; '#' lines between
 * blocks are comments. Lines are kept byte for byte (tabs, spaces). */
static int load_file(tfile_t *f)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", data_dir, f->name);
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "check_expr: cannot read %s\n", path);
        return -1;
    }
    char buf[8192];
    int lineno = 0, in_block = 0, cap = 0;
    tcase_t cur = {0};
    while (fgets(buf, sizeof buf, fp) != NULL) {
        lineno++;
        size_t n = strlen(buf);
        if (n > 0 && buf[n - 1] == '\n')
            buf[--n] = '\0';
        if (!in_block) {
            if (n == 0 || buf[0] == '#')
                continue;
            memset(&cur, 0, sizeof cur);
            cur.file = f->name;
            cur.line = lineno;
            in_block = 1;
        } else if (n == 0) {
            fprintf(stderr, "check_expr: %s:%d: block of %d lines cut short\n", path, lineno,
                    f->nlines);
            fclose(fp);
            return -1;
        }
        int k = 0;
        while (cur.lines[k] != NULL)
            k++;
        cur.lines[k] = strdup(buf);
        if (cur.lines[k] == NULL)
            abort();
        if (k + 1 == f->nlines) {
            if (f->n == cap) {
                cap = cap ? 2 * cap : 64;
                f->cases = realloc(f->cases, (size_t)cap * sizeof *f->cases);
                if (f->cases == NULL)
                    abort();
            }
            if (strcmp(cur.lines[0], "<empty>") == 0)
                cur.lines[0][0] = '\0';   /* a blank line would end the block */
            f->cases[f->n++] = cur;
            in_block = 0;
        }
    }
    fclose(fp);
    if (in_block) {
        fprintf(stderr, "check_expr: %s: last block incomplete\n", path);
        return -1;
    }
    if (f->n == 0) {
        fprintf(stderr, "check_expr: %s: no cases\n", path);
        return -1;
    }
    return 0;
}

/* "name=value" or "name.comp=value" or "t=value" tokens; "-" for none.
 * With ranges, values are "[lo,hi]" or "full" ("t" too). */
static void parse_env(const tcase_t *tc, const char *text, int ranges, env_t *env)
{
    memset(env, 0, sizeof *env);
    env->t_lo = 0;
    env->t_hi = INFINITY;
    if (strcmp(text, "-") == 0)
        return;
    char *copy = strdup(text), *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        ck_assert_msg(eq != NULL, "%s:%d: bad input '%s'", tc->file, tc->line, tok);
        *eq = '\0';
        double lo, hi, v = 0;
        if (ranges) {
            if (strcmp(eq + 1, "full") == 0) {
                lo = -INFINITY;
                hi = INFINITY;
            } else {
                char *end;
                ck_assert_msg(eq[1] == '[', "%s:%d: bad range '%s'", tc->file, tc->line, eq + 1);
                lo = strtod(eq + 2, &end);
                ck_assert_msg(*end == ',', "%s:%d: bad range", tc->file, tc->line);
                hi = strtod(end + 1, &end);
                ck_assert_msg(*end == ']', "%s:%d: bad range", tc->file, tc->line);
            }
        } else {
            char *end;
            v = strtod(eq + 1, &end);
            ck_assert_msg(*end == '\0', "%s:%d: bad value '%s'", tc->file, tc->line, eq + 1);
            lo = hi = v;
            if (isnan(v)) {
                lo = -INFINITY;
                hi = INFINITY;
            }
        }
        if (strcmp(tok, "t") == 0) {
            env->t = v;
            env->t_lo = lo;
            env->t_hi = hi;
            continue;
        }
        ck_assert_int_lt(env->n, MAX_INPUTS);
        input_t *in = &env->in[env->n++];
        char *dot = strchr(tok, '.');
        in->comp = RF_EXPR_PLAIN;
        if (dot != NULL) {
            *dot = '\0';
            for (int c = 1; c <= 3; c++)
                if (strcmp(dot + 1, comp_names[c]) == 0)
                    in->comp = c;
            ck_assert_msg(in->comp != RF_EXPR_PLAIN, "%s:%d: bad component", tc->file, tc->line);
        }
        snprintf(in->name, sizeof in->name, "%s", tok);
        in->value = v;
        in->lo = lo;
        in->hi = hi;
    }
    free(copy);
}

/* A hand value: "1.5", "nan", "inf", "-inf"; "~x": within 1e-12 relative. */
static int value_matches(const char *want, double got)
{
    int approx = want[0] == '~';
    double w = strtod(want + approx, NULL);
    if (isnan(w))
        return isnan(got);
    if (!approx || isinf(w))
        return got == w;
    return fabs(got - w) <= 1e-12 * fmax(1.0, fabs(w));
}

static int in_range(double v, double lo, double hi)
{
    if (isnan(v))
        return lo == -INFINITY && hi == INFINITY;
    return lo <= v && v <= hi;
}

static rf_expr_t *compile_env(const char *src, env_t *env, unsigned flags, rf_expr_error_t *err)
{
    rf_expr_t *e = NULL;
    int r = rf_expr_compile_ex(src, strlen(src), env->t_lo, env->t_hi, resolve_env, env,
                               test_alloc, NULL, RF_MAX_EXPR_BYTES, flags, &e, err);
    return r == 0 ? e : NULL;
}

START_TEST(test_eval_case)
{
    const tcase_t *tc = &f_eval.cases[_i];
    env_t env;
    parse_env(tc, tc->lines[1], 0, &env);
    double slots[MAX_INPUTS];
    for (int i = 0; i < env.n; i++)
        slots[i] = env.in[i].value;
    env.t_lo = env.t_hi = env.t;
    for (unsigned flags = 0; flags <= RF_EXPR_NOFOLD; flags++) {
        rf_expr_error_t err;
        rf_expr_t *e = compile_env(tc->lines[0], &env, flags, &err);
        ck_assert_msg(e != NULL, "%s:%d: '%s': col %d: %s", tc->file, tc->line, tc->lines[0],
                      err.col, err.msg);
        double v = rf_expr_eval(e, slots, env.t), lo, hi;
        ck_assert_msg(value_matches(tc->lines[2], v), "%s:%d: '%s' = %.17g, want %s (%s)",
                      tc->file, tc->line, tc->lines[0], v, tc->lines[2],
                      flags ? "unfolded" : "folded");
        rf_expr_range(e, &lo, &hi);
        ck_assert_msg(in_range(v, lo, hi), "%s:%d: '%s' = %.17g outside [%.17g, %.17g] (%s)",
                      tc->file, tc->line, tc->lines[0], v, lo, hi, flags ? "unfolded" : "folded");
    }
    /* the first pass's expression: the same inputs, in the same order,
     * and the same use of t, as the whole one's */
    rf_expr_error_t err;
    rf_expr_t *e = compile_env(tc->lines[0], &env, 0, &err);
    rf_expr_t *d = compile_env(tc->lines[0], &env, RF_EXPR_DEPS_ONLY, &err);
    ck_assert_msg(e != NULL && d != NULL, "%s:%d: '%s'", tc->file, tc->line, tc->lines[0]);
    const uint32_t *de, *dd;
    uint32_t ne = rf_expr_deps(e, &de), nd = rf_expr_deps(d, &dd);
    ck_assert_msg(ne == nd && (ne == 0 || memcmp(de, dd, ne * sizeof *de) == 0) &&
                      rf_expr_uses_time(e) == rf_expr_uses_time(d) &&
                      rf_expr_depth(e) == rf_expr_depth(d),
                  "%s:%d: '%s': RF_EXPR_DEPS_ONLY read other inputs", tc->file, tc->line,
                  tc->lines[0]);
    free_blocks();
}
END_TEST

START_TEST(test_error_case)
{
    const tcase_t *tc = &f_errors.cases[_i];
    static char sentinel;
    rf_expr_t *e = (rf_expr_t *)(void *)&sentinel;   /* must come back NULL */
    rf_expr_error_t err;
    char got[400];
    int r = rf_expr_compile(tc->lines[0], strlen(tc->lines[0]), 0, 1, resolve_fixed, NULL,
                            test_alloc, NULL, &e, &err);
    ck_assert_msg(r == -1, "%s:%d: '%s' compiled", tc->file, tc->line, tc->lines[0]);
    ck_assert_msg(e == NULL, "%s:%d: *out set on error", tc->file, tc->line);
    snprintf(got, sizeof got, "col %d: %s", err.col, err.msg);
    ck_assert_msg(strcmp(got, tc->lines[1]) == 0, "%s:%d: '%s': got \"%s\", want \"%s\"",
                  tc->file, tc->line, tc->lines[0], got, tc->lines[1]);
    /* the first pass reports it alike */
    r = rf_expr_compile_ex(tc->lines[0], strlen(tc->lines[0]), 0, 1, resolve_fixed, NULL,
                           test_alloc, NULL, RF_MAX_EXPR_BYTES, RF_EXPR_DEPS_ONLY, &e, &err);
    snprintf(got, sizeof got, "col %d: %s", err.col, err.msg);
    ck_assert_msg(r == -1 && e == NULL && strcmp(got, tc->lines[1]) == 0,
                  "%s:%d: '%s': RF_EXPR_DEPS_ONLY: got \"%s\"", tc->file, tc->line,
                  tc->lines[0], got);
    free_blocks();
}
END_TEST

/* want: "[lo,hi]" exact, "~[lo,hi]" containing and within 1e-12, "full". */
START_TEST(test_range_case)
{
    const tcase_t *tc = &f_ranges.cases[_i];
    env_t env;
    rf_expr_error_t err;
    double lo, hi, wlo, whi;
    parse_env(tc, tc->lines[1], 1, &env);
    rf_expr_t *e = compile_env(tc->lines[0], &env, 0, &err);
    ck_assert_msg(e != NULL, "%s:%d: col %d: %s", tc->file, tc->line, err.col, err.msg);
    rf_expr_range(e, &lo, &hi);
    const char *w = tc->lines[2];
    int approx = w[0] == '~';
    if (strcmp(w, "full") == 0) {
        wlo = -INFINITY;
        whi = INFINITY;
    } else {
        char *end;
        ck_assert_msg(w[approx] == '[', "%s:%d: bad want", tc->file, tc->line);
        wlo = strtod(w + approx + 1, &end);
        ck_assert(*end == ',');
        whi = strtod(end + 1, &end);
        ck_assert(*end == ']');
    }
    int ok;
    if (!approx) {
        ok = lo == wlo && hi == whi;
    } else {
        double tl = 1e-12 * fmax(1.0, fabs(wlo)), th = 1e-12 * fmax(1.0, fabs(whi));
        ok = lo <= wlo && hi >= whi &&
             (lo == wlo || wlo - lo <= tl) && (hi == whi || hi - whi <= th);
    }
    ck_assert_msg(ok, "%s:%d: '%s' range [%.17g, %.17g], want %s", tc->file, tc->line,
                  tc->lines[0], lo, hi, w);
    free_blocks();
}
END_TEST

/* ---- API details --------------------------------------------------------- */

static rf_expr_t *must_compile(const char *src, env_t *env, unsigned flags)
{
    rf_expr_error_t err;
    rf_expr_t *e = compile_env(src, env, flags, &err);
    ck_assert_msg(e != NULL, "'%s': col %d: %s", src, err.col, err.msg);
    return e;
}

static env_t xyz_env(double lo, double hi)
{
    env_t env;
    memset(&env, 0, sizeof env);
    const char *names[] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++) {
        snprintf(env.in[i].name, sizeof env.in[i].name, "%s", names[i]);
        env.in[i].lo = lo;
        env.in[i].hi = hi;
    }
    env.n = 3;
    env.t_lo = 0;
    env.t_hi = 2;
    return env;
}

static void dump_is(const char *src, unsigned flags, const char *want)
{
    env_t env = xyz_env(1, 2);
    rf_expr_t *e = must_compile(src, &env, flags);
    char buf[1024];
    size_t n = rf_expr_dump(e, buf, sizeof buf);
    ck_assert_uint_eq(n, strlen(buf));
    ck_assert_msg(strcmp(buf, want) == 0, "'%s' (flags %u):\n%s\nwant:\n%s", src, flags, buf, want);
}

START_TEST(test_bytecode)
{
    /* Operands are named where they live: a constant by value, s<slot>,
     * t, r<register>; a register instruction per operator, none for
     * operands; two-operand-word instructions (MIX, MADD, ...) take two pcs.
     * Folding: */
    dump_is("2*3+x", 0, "0 ADD r0 6 s0\n1 RET r0\n");
    dump_is("2*3+x", RF_EXPR_NOFOLD, "0 MADD r0 2 3 s0\n2 RET r0\n");
    dump_is("-(-(-1))", 0, "0 RET -1\n");
    dump_is("-1", RF_EXPR_NOFOLD, "0 NEG r0 1\n1 RET r0\n");
    dump_is("sin(0) + min(1, 2)", 0, "0 RET 1\n");
    dump_is("t", 0, "0 RET t\n");
    /* registers are reused like a stack; a commutative operation takes the
     * value just computed first (ADD r0 r1 r0: r1 came from the DIV) */
    dump_is("x*2 + y/4 - z", 0,
            "0 MUL r0 s0 2\n1 DIV r1 s1 4\n2 ADD r0 r1 r0\n3 SUB r0 r0 s2\n4 RET r0\n");
    dump_is("(x + y) * (y + z) * (z + x)", 0,
            "0 ADD r0 s0 s1\n1 ADD r1 s1 s2\n2 MUL r0 r1 r0\n3 ADD r1 s2 s0\n"
            "4 MUL r0 r1 r0\n5 RET r0\n");
    dump_is("mix(x, 2, t) / 3", 0, "0 MIX r0 s0 2 t\n2 DIV r0 r0 3\n3 RET r0\n");
    /* a product and the + or - that consumes it: one instruction */
    dump_is("z + x*y", 0, "0 MADD r0 s0 s1 s2\n2 RET r0\n");
    dump_is("x*y - 1", 0, "0 MSUB r0 s0 s1 1\n2 RET r0\n");
    dump_is("1 - x*y", 0, "0 MSUBR r0 s0 s1 1\n2 RET r0\n");
    dump_is("x*y / z - 1", 0, "0 MUL r0 s0 s1\n1 DIV r0 r0 s2\n2 SUB r0 r0 1\n3 RET r0\n");
    /* a ternary: both branches end in the same register (a number, an input
     * or t is MOVEd there); jumps to the right places */
    dump_is("x ? 1 : 2", 0, "0 JMPF s0 3\n1 MOVE r0 1\n2 JMP 4\n3 MOVE r0 2\n4 RET r0\n");
    dump_is("(x ? y : 2) + 1", 0,
            "0 JMPF s0 3\n1 MOVE r0 s1\n2 JMP 4\n3 MOVE r0 2\n4 ADD r0 r0 1\n5 RET r0\n");
    dump_is("1 + (x ? y : 2)", 0,
            "0 JMPF s0 3\n1 MOVE r0 s1\n2 JMP 4\n3 MOVE r0 2\n4 ADD r0 1 r0\n5 RET r0\n");
    dump_is("x ? 1 : y ? 2 : 3", 0,
            "0 JMPF s0 3\n1 MOVE r0 1\n2 JMP 7\n3 JMPF s1 6\n4 MOVE r0 2\n5 JMP 7\n"
            "6 MOVE r0 3\n7 RET r0\n");
    dump_is("x > 1 ? y*2 : z", 0,
            "0 GT r0 s0 1\n1 JMPF r0 4\n2 MUL r0 s1 2\n3 JMP 5\n4 MOVE r0 s2\n5 RET r0\n");
    dump_is("x * (y ? 2 : 3)", 0,
            "0 JMPF s1 3\n1 MOVE r0 2\n2 JMP 4\n3 MOVE r0 3\n4 MUL r0 s0 r0\n5 RET r0\n");
    /* nothing fuses across a jump target: the MUL runs on one path only */
    dump_is("(x ? 1 : y*z) + 2", 0,
            "0 JMPF s0 3\n1 MOVE r0 1\n2 JMP 4\n3 MUL r0 s1 s2\n4 ADD r0 r0 2\n5 RET r0\n");
    /* snprintf-like truncation */
    env_t env = xyz_env(1, 2);
    rf_expr_t *e = must_compile("x+y", &env, 0);
    char small[8];
    size_t n = rf_expr_dump(e, small, sizeof small);
    ck_assert_uint_eq(n, strlen("0 ADD r0 s0 s1\n1 RET r0\n"));
    ck_assert_str_eq(small, "0 ADD r");
    free_blocks();
}
END_TEST

/* The fused instructions round twice, as written, never as one fma:
 * (1 + 2^-30)(1 - 2^-30) = 1 - 2^-60 rounds to 1, so the sums are exact 0s
 * where an fma would give -+2^-60. And the products commute exactly. */
START_TEST(test_fused_rounding)
{
    env_t env = xyz_env(-2, 2);
    double v[3] = {1 + 0x1p-30, 1 - 0x1p-30, -1};
    static const char *const zero[] = {"x*y + z", "z + x*y", "y*x + z", "x*y - 1", "1 - x*y",
                                       "-z - x*y", "(x*y) + z", "x*y - -z"};
    for (unsigned fl = 0; fl <= RF_EXPR_NOFOLD; fl++)
        for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++) {
            rf_expr_t *e = must_compile(zero[i], &env, fl);
            double got = rf_expr_eval(e, v, 0);
            ck_assert_msg(got == 0.0 && !signbit(got), "'%s' = %a, want +0", zero[i], got);
        }
    /* a signed zero through MSUBR: 0 - (+0 * 1) is +0; -0 - (+0 * 1) is -0 */
    double w[3] = {0.0, 1.0, -0.0};
    rf_expr_t *e = must_compile("z - x*y", &env, 0);
    ck_assert(signbit(rf_expr_eval(e, w, 0)));
    w[2] = 0.0;
    ck_assert(!signbit(rf_expr_eval(e, w, 0)));
    free_blocks();
}
END_TEST

/* The accumulator path (an operand the previous instruction just wrote)
 * and the frame path agree, on both sides of jump targets: values by hand. */
START_TEST(test_accumulator_paths)
{
    env_t env = xyz_env(-10, 10);
    static const struct { const char *src; double x, y, z, want; } cases[] = {
        {"(x - y) - z", 7, 2, 1, 4},
        {"z - (x - y)", 7, 2, 1, -4},            /* the fresh value is the right operand */
        {"z / (x - y)", 7, 2, 10, 2},
        {"(x > 1 ? y*2 : z) - x*3", 2, 5, 0, 4},       /* then branch, join, MSUBR */
        {"(x > 1 ? y*2 : z) - x*3", 0, 5, 9, 9},       /* else branch */
        {"x - (y ? z : 4)", 1, 0, 9, -3},
        {"x - (y ? z*2 : 4)", 1, 1, 3, -5},
        {"(y ? x : z) - (z ? y : x)", 6, 2, 1, 4},
        {"x ? (y ? 1 : 2) - z : 3", 1, 0, 5, -3},
        {"clamp(x - y, z, 5) - x", 9, 1, 0, -4},
        {"min(x, y) - max(x, y)", 3, 8, 0, -5},
        {"x < y ? x : y", 3, 2, 0, 2},
    };
    for (unsigned fl = 0; fl <= RF_EXPR_NOFOLD; fl++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            double v[3] = {cases[i].x, cases[i].y, cases[i].z};
            rf_expr_t *e = must_compile(cases[i].src, &env, fl);
            double got = rf_expr_eval(e, v, 0);
            ck_assert_msg(got == cases[i].want, "'%s' (flags %u) = %g, want %g", cases[i].src, fl,
                          got, cases[i].want);
        }
    free_blocks();
}
END_TEST

START_TEST(test_deps_time)
{
    env_t env = xyz_env(0, 1);
    const uint32_t *deps;
    rf_expr_t *e = must_compile("z + x*z - x + t", &env, 0);
    ck_assert_uint_eq(rf_expr_deps(e, &deps), 2);
    ck_assert_uint_eq(deps[0], 2);   /* z first: order of first use */
    ck_assert_uint_eq(deps[1], 0);
    ck_assert_int_eq(rf_expr_uses_time(e), 1);
    e = must_compile("1 + 2", &env, 0);
    ck_assert_uint_eq(rf_expr_deps(e, &deps), 0);
    ck_assert_ptr_null(deps);
    ck_assert_int_eq(rf_expr_uses_time(e), 0);
    e = must_compile("y * 2", &env, 0);
    ck_assert_int_eq(rf_expr_uses_time(e), 0);
    ck_assert_uint_eq(rf_expr_deps(e, &deps), 1);
    ck_assert_uint_eq(deps[0], 1);
    free_blocks();
}
END_TEST

START_TEST(test_alloc_failure)
{
    env_t env = xyz_env(0, 1);
    rf_expr_error_t err;
    rf_expr_t *e = NULL;
    alloc_fail = 1;
    int r = rf_expr_compile("x + 1", 5, 0, 1, resolve_env, &env, test_alloc, NULL, &e, &err);
    alloc_fail = 0;
    ck_assert_int_eq(r, -1);
    ck_assert_ptr_null(e);
    ck_assert_str_eq(err.msg, "out of memory");
    ck_assert_int_eq(err.col, 1);
    ck_assert_int_eq(err.oom, 1);   /* a status: callers never match the text */
    /* any other error is not out of memory */
    ck_assert_int_eq(rf_expr_compile("x +", 3, 0, 1, resolve_env, &env, test_alloc, NULL, &e,
                                     &err), -1);
    ck_assert_int_eq(err.oom, 0);
    free_blocks();
}
END_TEST

/* The expression is not NUL-terminated: only len bytes are read. */
/* Number literals: the compiler reads the common ones itself (Clinger's
 * fast path: an integer of at most 2^53 times or over a power of ten up
 * to 10^22) and the rest through strtod; either way the value is strtod's,
 * bit for bit. 200,000 literals of every shape from a fixed LCG: 1 to 20
 * integer digits, a fraction of 0 to 20 digits or none, an exponent of
 * -30 to 30 or none, and the edges of the fast path (2^53 and past it,
 * 10^22 and 10^23). */
START_TEST(test_literals_as_strtod)
{
    static const char *edge[] = { "9007199254740992", "9007199254740993", "9007199254740991.5",
                                  "1e22", "1e23", "1e-22", "1e-23", "123456789012345678e-5",
                                  "0.1", "0.30000000000000004", "4.9e-324", "2.2250738585072014e-308",
                                  "00000000000000000000001", "1.7976931348623157e308" };
    uint64_t x = 88172645463325252ull;
    env_t env = xyz_env(1, 2);
    double slots[4] = { 0 };
    for (int i = 0; i < 200000 + (int)(sizeof edge / sizeof edge[0]); i++) {
        char lit[80];
        if (i < (int)(sizeof edge / sizeof edge[0])) {
            snprintf(lit, sizeof lit, "%s", edge[i]);
        } else {
            size_t n = 0;
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int nint = 1 + (int)(x >> 59) % 20, nfrac = (int)(x >> 54) % 22 - 1;
            int ex = (int)((x >> 40) % 64) - 32;
            for (int k = 0; k < nint; k++, x = x * 6364136223846793005ull + 1)
                lit[n++] = (char)('0' + (x >> 60) % 10);
            if (nfrac >= 0) {
                lit[n++] = '.';
                for (int k = 0; k < nfrac; k++, x = x * 6364136223846793005ull + 1)
                    lit[n++] = (char)('0' + (x >> 60) % 10);
            }
            if (ex > -31 && ex < 31)
                n += (size_t)snprintf(lit + n, sizeof lit - n, "e%d", ex);
            lit[n] = '\0';
        }
        double want = strtod(lit, NULL);
        rf_expr_error_t err;
        rf_expr_t *e = compile_env(lit, &env, 0, &err);
        if (!isfinite(want)) {
            rf_check_msg(e == NULL, "'%s' compiled", lit);
            continue;
        }
        rf_check_msg(e != NULL, "'%s': %s", lit, err.msg);
        double got = rf_expr_eval(e, slots, 0);
        rf_check_msg(memcmp(&got, &want, sizeof got) == 0, "'%s': %.17g, strtod %.17g", lit, got,
                     want);
        if ((i & 1023) == 0)
            free_blocks();
    }
    free_blocks();
}
END_TEST

START_TEST(test_length_not_nul)
{
    env_t env = xyz_env(0, 1);
    rf_expr_error_t err;
    rf_expr_t *e = NULL;
    const char src[] = "x + 1)))garbage";
    ck_assert_int_eq(rf_expr_compile(src, 5, 0, 1, resolve_env, &env, test_alloc, NULL, &e, &err), 0);
    double slots[3] = {2, 0, 0};
    ck_assert(rf_expr_eval(e, slots, 0) == 3);
    /* a NUL byte inside the length is an error, not an end */
    ck_assert_int_eq(rf_expr_compile("1 +\0 2", 6, 0, 1, resolve_env, &env, test_alloc, NULL, &e,
                                     &err), -1);
    ck_assert_str_eq(err.msg, "unexpected control character 0x00");
    ck_assert_int_eq(err.col, 4);
    free_blocks();
}
END_TEST

START_TEST(test_caret)
{
    char buf[512];
    const char *src = "mix(40, 600, p))";
    size_t n = rf_expr_caret(src, strlen(src), 16, buf, sizeof buf);
    ck_assert_str_eq(buf, "    mix(40, 600, p))\n                   ^");
    ck_assert_uint_eq(n, strlen(buf));
    /* end of expression: one past the last column */
    rf_expr_caret("1 +", 3, 4, buf, sizeof buf);
    ck_assert_str_eq(buf, "    1 +\n       ^");
    /* tabs show as one space, so the caret stays under its column */
    rf_expr_caret("1\t+\t)", 5, 5, buf, sizeof buf);
    ck_assert_str_eq(buf, "    1 + )\n        ^");
    /* columns count code points */
    rf_expr_caret("\xc3\xa9 + \xc3\xa9", 7, 5, buf, sizeof buf);
    ck_assert_str_eq(buf, "    \xc3\xa9 + \xc3\xa9\n        ^");
    /* a long expression is windowed around the column */
    char longsrc[301];
    for (int i = 0; i < 300; i++)
        longsrc[i] = (char)('a' + i % 26);
    longsrc[300] = '\0';
    rf_expr_caret(longsrc, 300, 151, buf, sizeof buf);
    char want[512];
    snprintf(want, sizeof want, "    ...%.72s...\n    %*s^", longsrc + 114, 3 + 36, "");
    ck_assert_str_eq(buf, want);
    rf_expr_caret(longsrc, 300, 1, buf, sizeof buf);
    snprintf(want, sizeof want, "    %.72s...\n    ^", longsrc);
    ck_assert_str_eq(buf, want);
    rf_expr_caret(longsrc, 300, 301, buf, sizeof buf);
    snprintf(want, sizeof want, "    ...%.72s\n    %*s^", longsrc + 228, 3 + 72, "");
    ck_assert_str_eq(buf, want);
    /* truncation is snprintf-like */
    char tiny[6];
    n = rf_expr_caret("1 +", 3, 4, tiny, sizeof tiny);
    ck_assert_uint_eq(n, strlen("    1 +\n       ^"));
    ck_assert_str_eq(tiny, "    1");
}
END_TEST

/* loc.c: the one column rule and the one caret renderer (JSON syntax too) */
START_TEST(test_loc)
{
    /* columns count characters: valid UTF-8 sequences, or single bytes */
    ck_assert_int_eq(rf_loc_column("ab", 2, 0), 1);
    ck_assert_int_eq(rf_loc_column("\xc3\xa9x", 3, 2), 2);
    ck_assert_int_eq(rf_loc_column("\xe2\x82\xac\xf0\x9f\x98\x80x", 8, 7), 3);
    ck_assert_int_eq(rf_loc_column("\xff\x80x", 3, 2), 3);    /* two invalid bytes */
    ck_assert_int_eq(rf_loc_column("ab", 2, 5), 6);             /* past the end: bytes */
    /* lines end at '\n'; a byte order mark is not a column */
    rf_loc_t l = rf_loc_at("ab\ncd\n\nx", 9, 4);
    ck_assert(l.off == 4 && l.line == 2 && l.col == 2);
    l = rf_loc_at("ab\ncd\n\nx", 9, 7);
    ck_assert(l.line == 4 && l.col == 1);
    l = rf_loc_at("\xef\xbb\xbf{x", 5, 4);
    ck_assert(l.line == 1 && l.col == 2);
    l = rf_loc_at("a\n\xc3\xa9\xc3\xa9:", 7, 6);
    ck_assert(l.line == 2 && l.col == 3);
    /* message + source line + caret: the line of loc, without "\r\n" */
    char msg[128] = "runeframe: t.json:2:3: bad";
    const char *text = "{\r\n  x\r\n}";
    l = rf_loc_at(text, strlen(text), 5);
    ck_assert_int_eq(rf_loc_attach(msg, sizeof msg, text, strlen(text), &l), 1);
    ck_assert_str_eq(msg, "runeframe: t.json:2:3: bad\n      x\n      ^");
    /* an empty line shows nothing */
    char m2[64] = "m";
    l = rf_loc_at("{\n\n", 3, 3);
    ck_assert_int_eq(rf_loc_attach(m2, sizeof m2, "{\n\n", 3, &l), 0);
    ck_assert_str_eq(m2, "m");
    /* a display that does not fit whole is left out */
    char m3[12] = "message";
    ck_assert_int_eq(rf_loc_attach_col(m3, sizeof m3, "1 + 2", 5, 3), 0);
    ck_assert_str_eq(m3, "message");
    /* an invalid byte shows as '?', one column, so the caret stays aligned */
    char buf[64];
    rf_loc_caret("a\xff" "b)", 4, 4, buf, sizeof buf);
    ck_assert_str_eq(buf, "    a?b)\n       ^");
    /* rf_expr_caret is the same renderer */
    char buf2[64];
    rf_expr_caret("a\xff" "b)", 4, 4, buf2, sizeof buf2);
    ck_assert_str_eq(buf, buf2);
}
END_TEST

/* ---- limits ---------------------------------------------------------------- */

START_TEST(test_length_limit)
{
    env_t env = xyz_env(0, 1);
    rf_expr_error_t err;
    rf_expr_t *e = NULL;
    char *src = malloc(RF_MAX_EXPR_BYTES + 2);
    /* "x" then spaces up to exactly the limit: accepted */
    memset(src, ' ', RF_MAX_EXPR_BYTES + 1);
    src[0] = 'x';
    src[RF_MAX_EXPR_BYTES + 1] = '\0';
    ck_assert_int_eq(rf_expr_compile(src, RF_MAX_EXPR_BYTES, 0, 1, resolve_env, &env, test_alloc,
                                     NULL, &e, &err), 0);
    ck_assert_int_eq(rf_expr_compile(src, RF_MAX_EXPR_BYTES + 1, 0, 1, resolve_env, &env,
                                     test_alloc, NULL, &e, &err), -1);
    ck_assert_str_eq(err.msg, "expression too long: 4097 bytes (the limit is 4096)");
    ck_assert_int_eq(err.col, RF_MAX_EXPR_BYTES + 1);
    /* the deepest stack that fits the limit: 1+(1+(1+...)) unfolded */
    size_t n = 0;
    int levels = 0;
    while (n + 4 + 1 + levels <= RF_MAX_EXPR_BYTES) {
        memcpy(src + n, "1+(", 3);
        n += 3;
        levels++;
    }
    src[n++] = '1';
    memset(src + n, ')', (size_t)levels);
    n += (size_t)levels;
    ck_assert_uint_le(n, RF_MAX_EXPR_BYTES);
    ck_assert_int_eq(rf_expr_compile_ex(src, n, 0, 1, resolve_env, &env, test_alloc, NULL,
                                        RF_MAX_EXPR_BYTES, RF_EXPR_NOFOLD, &e, &err), 0);
    ck_assert_uint_eq(rf_expr_depth(e), (uint32_t)levels + 1);
    ck_assert(rf_expr_eval(e, NULL, 0) == levels + 1);
    double lo, hi;
    rf_expr_range(e, &lo, &hi);
    ck_assert(lo == levels + 1 && hi == levels + 1);
    /* the operand bound behind RF_EXPR_MAX_DEPTH: "1+1+...+1" has 2049 operands */
    ck_assert_int_eq(RF_EXPR_MAX_DEPTH, RF_MAX_EXPR_BYTES / 2 + 1);
    free(src);
    free_blocks();
}
END_TEST

/* Deep expressions compile and run on a 64 KiB thread stack: the compiler
 * does not recurse, whatever the nesting. */
typedef struct deep_job {
    char *src;
    size_t len;
    unsigned flags;
    double x;
    int rc;
    rf_expr_error_t err;
    double value, lo, hi;
    uint32_t depth;
} deep_job_t;

static void *deep_run(void *arg)
{
    deep_job_t *j = arg;
    env_t env = xyz_env(-3, 5);
    double slots[3] = {j->x, 0, 0};
    rf_expr_t *e = NULL;
    j->rc = rf_expr_compile_ex(j->src, j->len, 0, 1, resolve_env, &env, test_alloc, NULL,
                               (size_t)1 << 20, j->flags, &e, &j->err);
    if (j->rc == 0) {
        j->value = rf_expr_eval(e, slots, 0.5);
        rf_expr_range(e, &j->lo, &j->hi);
        j->depth = rf_expr_depth(e);
    }
    return NULL;
}

static void run_small_stack(deep_job_t *j)
{
    pthread_attr_t attr;
    pthread_t th;
    ck_assert_int_eq(pthread_attr_init(&attr), 0);
    ck_assert_int_eq(pthread_attr_setstacksize(&attr, 64 * 1024), 0);
    ck_assert_int_eq(pthread_create(&th, &attr, deep_run, j), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&attr);
}

/* pre repeated n times, then mid, then post repeated n times. */
static char *nest(const char *pre, const char *mid, const char *post, int n, size_t *len)
{
    size_t a = strlen(pre), b = strlen(mid), c = strlen(post);
    char *s = malloc(n * (a + c) + b + 1), *p = s;
    for (int i = 0; i < n; i++, p += a)
        memcpy(p, pre, a);
    memcpy(p, mid, b);
    p += b;
    for (int i = 0; i < n; i++, p += c)
        memcpy(p, post, c);
    *p = '\0';
    *len = (size_t)(p - s);
    return s;
}

static void deep_case(const char *pre, const char *mid, const char *post, int n, double x,
                      double want, double wlo, double whi)
{
    for (unsigned flags = 0; flags <= RF_EXPR_NOFOLD; flags++) {
        deep_job_t j;
        memset(&j, 0, sizeof j);
        j.src = nest(pre, mid, post, n, &j.len);
        j.flags = flags;
        j.x = x;
        run_small_stack(&j);
        ck_assert_msg(j.rc == 0, "%d x '%s': col %d: %s", n, pre, j.err.col, j.err.msg);
        ck_assert_msg(j.value == want, "%d x '%s%s%s' = %g, want %g", n, pre, mid, post, j.value,
                      want);
        ck_assert_msg(j.lo == wlo && j.hi == whi, "%d x '%s': range [%g, %g]", n, pre, j.lo, j.hi);
        free(j.src);
    }
    free_blocks();
}

START_TEST(test_deep_nesting)
{
    deep_case("(", "x", ")", 10000, 2.5, 2.5, -3, 5);
    deep_case("-", "x", "", 10000, 2.5, 2.5, -3, 5);          /* even count */
    deep_case("-", "x", "", 9999, 2.5, -2.5, -5, 3);
    deep_case("-(", "x", ")", 10000, 2.5, 2.5, -3, 5);
    deep_case("abs(", "x", ")", 10000, -2.5, 2.5, 0, 5);
    deep_case("min(", "x", ", 5)", 10000, 2.5, 2.5, -3, 5);
    deep_case("(", "1", ")", 10000, 0, 1, 1, 1);
    /* 10,000 nested ternaries in the else position, all undecided */
    deep_case("x > 4 ? 7 : ", "x", "", 10000, 2.5, 2.5, -3, 7);
    /* and in the then position (decided: x >= -3 always) */
    deep_case("x >= -3 ? ", "x", " : 0", 10000, 2.5, 2.5, -3, 5);
}
END_TEST

START_TEST(test_too_deep)
{
    deep_job_t j;
    memset(&j, 0, sizeof j);
    j.src = nest("1+(", "1", ")", 10000, &j.len);
    j.flags = RF_EXPR_NOFOLD;
    run_small_stack(&j);
    ck_assert_int_eq(j.rc, -1);
    ck_assert_str_eq(j.err.msg, "expression too deeply nested (stack depth 10001, the limit is 2049)");
    free(j.src);
    /* the limit counts the stack before folding: folded, it is refused too */
    memset(&j, 0, sizeof j);
    j.src = nest("1+(", "1", ")", 10000, &j.len);
    run_small_stack(&j);
    ck_assert_int_eq(j.rc, -1);
    free(j.src);
    free_blocks();
}
END_TEST

/* Every count of inputs, past the VM's unrolled copy of up to 8: each one
 * read from its own slot, whatever the order of first use. */
START_TEST(test_many_inputs)
{
    for (int n = 0; n <= 12; n++) {
        env_t env;
        memset(&env, 0, sizeof env);
        env.t_lo = 0;
        env.t_hi = 1;
        double v[MAX_INPUTS], want = 0;
        char src[512];
        size_t len = 0;
        for (int i = 0; i < n; i++) {
            snprintf(env.in[i].name, sizeof env.in[i].name, "v%d", i);
            env.in[i].lo = -1000;
            env.in[i].hi = 1000;
            v[i] = i * i + 0.5;
        }
        env.n = n;
        /* first use from the last input down: slot order != deps order */
        len += (size_t)snprintf(src, sizeof src, "t");
        for (int i = n - 1; i >= 0; i--) {
            len += (size_t)snprintf(src + len, sizeof src - len, " + v%d*%d", i, i + 1);
            want += v[i] * (i + 1);      /* exact: small integers and halves */
        }
        rf_expr_t *e = must_compile(src, &env, 0);
        double got = rf_expr_eval(e, v, 0.25);
        ck_assert_msg(got == want + 0.25, "%d inputs: %g, want %g", n, got, want + 0.25);
        const uint32_t *deps;
        ck_assert_uint_eq(rf_expr_deps(e, &deps), (uint32_t)n);
        for (int i = 0; i < n; i++)
            ck_assert_uint_eq(deps[i], (uint32_t)(n - 1 - i));
        free_blocks();
    }
}
END_TEST

/* A frame beyond the VM's small one (hundreds of distinct constants) runs
 * on a 64 KiB thread stack too, and gives the exact sum. */
START_TEST(test_big_frame)
{
    char src[RF_MAX_EXPR_BYTES + 1];
    size_t n = 0;
    double want = 2.5, s = 0;
    src[n++] = 'x';
    for (int k = 1000; n + 5 <= RF_MAX_EXPR_BYTES; k++) {
        n += (size_t)snprintf(src + n, sizeof src - n, "+%d", k);
        want += k;       /* exact: integers and a half, far below 2^53 */
        s += k;
    }
    for (unsigned fl = 0; fl <= RF_EXPR_NOFOLD; fl++) {
        deep_job_t j;
        memset(&j, 0, sizeof j);
        j.src = src;
        j.len = n;
        j.flags = fl;
        j.x = 2.5;
        run_small_stack(&j);
        ck_assert_msg(j.rc == 0, "col %d: %s", j.err.col, j.err.msg);
        ck_assert(j.value == want);
        ck_assert(j.lo == -3 + s && j.hi == 5 + s);
    }
    free_blocks();
}
END_TEST

/* Only compile_ex with a limit beyond RF_MAX_EXPR_BYTES can outgrow the
 * VM's frame or its 16-bit jumps: a clear error. Repeated constants are
 * stored once, so repetition alone never gets there. */
START_TEST(test_too_large)
{
    env_t env = xyz_env(0, 1);
    rf_expr_error_t err;
    rf_expr_t *e = NULL;
    size_t cap = 200000, n = 0;
    char *src = malloc(cap);
    /* 5,000 distinct constants, x, t and one register */
    src[n++] = 'x';
    for (int k = 1; k <= 5000; k++)
        n += (size_t)snprintf(src + n, cap - n, "+%d", k);
    ck_assert_int_eq(rf_expr_compile_ex(src, n, 0, 1, resolve_env, &env, test_alloc, NULL,
                                        cap, 0, &e, &err), -1);
    ck_assert_str_eq(err.msg, "expression too large (5003 constants, inputs and registers, "
                              "the limit is 4100)");
    ck_assert_ptr_null(e);
    /* 66,000 operations in a chain: a small frame, too much code */
    n = 0;
    src[n++] = 'x';
    for (int k = 0; k < 66000; k++) {
        src[n++] = '*';
        src[n++] = 'x';
    }
    ck_assert_int_eq(rf_expr_compile_ex(src, n, 0, 1, resolve_env, &env, test_alloc, NULL,
                                        cap, 0, &e, &err), -1);
    ck_assert_str_eq(err.msg, "expression too large (66001 instruction words, the limit is 65535)");
    /* the same constant 20,000 times: one frame entry */
    n = 0;
    src[n++] = 'x';
    for (int k = 0; k < 20000; k++) {
        memcpy(src + n, "+0.5", 4);
        n += 4;
    }
    for (unsigned fl = 0; fl <= RF_EXPR_NOFOLD; fl++) {
        ck_assert_int_eq(rf_expr_compile_ex(src, n, 0, 1, resolve_env, &env, test_alloc, NULL,
                                            cap, fl, &e, &err), 0);
        double v[3] = {0.25, 0, 0};
        ck_assert(rf_expr_eval(e, v, 0) == 10000.25);
    }
    free(src);
    free_blocks();
}
END_TEST

/* ---- random expressions: reference evaluator and soundness --------------- */

enum { N_NUM, N_VAR, N_TIME, N_NEG, N_BIN, N_FN, N_TERN };

typedef struct rfn {
    const char *name;
    int nargs;
} rfn_t;

static const rfn_t rfns[] = {
    {"min", 2}, {"max", 2}, {"clamp", 3}, {"abs", 1}, {"floor", 1}, {"ceil", 1},
    {"round", 1}, {"sqrt", 1}, {"pow", 2}, {"exp", 1}, {"log", 1}, {"sin", 1},
    {"cos", 1}, {"tan", 1}, {"atan2", 2}, {"mix", 3}, {"step", 2}, {"smoothstep", 3},
};
#define NRFNS (int)(sizeof rfns / sizeof rfns[0])

static const char *const binops[] = {"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!="};
static const int binprec[] = {4, 4, 5, 5, 5, 3, 3, 3, 3, 2, 2};
#define NBINOPS 11

static const char *const literals[] = {
    "0", "1", "2", "3", "0.5", ".25", "10", "100", "1e3", "2.5e-3", "7", "0.1",
    "1e300", "3.14159", "1.5707963267948966", "6.283",
};
#define NLITS (int)(sizeof literals / sizeof literals[0])

typedef struct node {
    int kind, op;
    const char *lit;
    struct node *a[3];
} node_t;

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    /* xorshift64*: deterministic, so a failure reproduces */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static double urand(void)
{
    return (double)(rng() >> 11) * 0x1p-53;
}

static int irand(int n)
{
    return (int)(rng() % (uint64_t)n);
}

static node_t *gen(int depth)
{
    node_t *n = calloc(1, sizeof *n);
    int r = irand(100);
    if (depth <= 0 || r < 20) {
        int leaf = irand(100);
        if (leaf < 30) {
            n->kind = N_NUM;
            n->lit = literals[irand(NLITS)];
        } else if (leaf < 85) {
            n->kind = N_VAR;
            n->op = irand(3);
        } else {
            n->kind = N_TIME;
        }
    } else if (r < 28) {
        n->kind = N_NEG;
        n->a[0] = gen(depth - 1);
    } else if (r < 66) {
        n->kind = N_BIN;
        n->op = irand(NBINOPS);
        n->a[0] = gen(depth - 1);
        n->a[1] = gen(depth - 1);
    } else if (r < 92) {
        n->kind = N_FN;
        n->op = irand(NRFNS);
        for (int i = 0; i < rfns[n->op].nargs; i++)
            n->a[i] = gen(depth - 1);
    } else {
        n->kind = N_TERN;
        for (int i = 0; i < 3; i++)
            n->a[i] = gen(depth - 1);
    }
    return n;
}

static void free_tree(node_t *n)
{
    if (n == NULL)
        return;
    for (int i = 0; i < 3; i++)
        free_tree(n->a[i]);
    free(n);
}

static int prec_of(const node_t *n)
{
    switch (n->kind) {
    case N_TERN: return 1;
    case N_BIN: return binprec[n->op];
    case N_NEG: return 6;
    default: return 7;
    }
}

typedef struct str {
    char buf[8192];
    size_t len;
} str_t;

static void put(str_t *s, const char *t)
{
    size_t n = strlen(t);
    if (s->len + n < sizeof s->buf) {
        memcpy(s->buf + s->len, t, n + 1);
        s->len += n;
    } else {
        s->len = sizeof s->buf;   /* marks overflow */
    }
}

static void space(str_t *s)
{
    static const char *const sp[] = {"", "", " ", " ", "\t", "  "};
    put(s, sp[irand(6)]);
}

static void print_node(str_t *s, const node_t *n, int need_paren);

static void print_child(str_t *s, const node_t *c, int paren)
{
    print_node(s, c, paren || irand(12) == 0);   /* sometimes a redundant pair */
}

static void print_node(str_t *s, const node_t *n, int paren)
{
    static const char *const vars[] = {"x", "y", "z"};
    if (paren) {
        put(s, "(");
        space(s);
    }
    switch (n->kind) {
    case N_NUM: put(s, n->lit); break;
    case N_VAR: put(s, vars[n->op]); break;
    case N_TIME: put(s, "t"); break;
    case N_NEG:
        put(s, "-");
        space(s);
        print_child(s, n->a[0], prec_of(n->a[0]) < 6);
        break;
    case N_BIN: {
        int p = binprec[n->op];
        print_child(s, n->a[0], prec_of(n->a[0]) < p);
        space(s);
        put(s, binops[n->op]);
        space(s);
        print_child(s, n->a[1], prec_of(n->a[1]) <= p);
        break;
    }
    case N_FN:
        put(s, rfns[n->op].name);
        space(s);
        put(s, "(");
        for (int i = 0; i < rfns[n->op].nargs; i++) {
            if (i > 0)
                put(s, ",");
            space(s);
            print_child(s, n->a[i], 0);
            space(s);
        }
        put(s, ")");
        break;
    case N_TERN:
        print_child(s, n->a[0], prec_of(n->a[0]) <= 1);
        space(s);
        put(s, "?");
        space(s);
        print_child(s, n->a[1], 0);
        space(s);
        put(s, ":");
        space(s);
        print_child(s, n->a[2], 0);
        break;
    }
    if (paren) {
        space(s);
        put(s, ")");
    }
}

/* fmin/fmax as expr.h pins them down: NaN loses; of equal operands, b. */
static double ref_min(double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    return a < b ? a : b;
}

static double ref_max(double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    return a > b ? a : b;
}

/* scene-v1.md's definitions, literally. */
static double ref_eval(const node_t *n, const double *v, double t)
{
    double a, b, c;
    switch (n->kind) {
    case N_NUM: return strtod(n->lit, NULL);
    case N_VAR: return v[n->op];
    case N_TIME: return t;
    case N_NEG: return -ref_eval(n->a[0], v, t);
    case N_TERN:
        return ref_eval(n->a[0], v, t) != 0 ? ref_eval(n->a[1], v, t) : ref_eval(n->a[2], v, t);
    case N_BIN:
        a = ref_eval(n->a[0], v, t);
        b = ref_eval(n->a[1], v, t);
        switch (n->op) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return a * b;
        case 3: return a / b;
        case 4: return fmod(a, b);
        case 5: return a < b;
        case 6: return a <= b;
        case 7: return a > b;
        case 8: return a >= b;
        case 9: return a == b;
        default: return a != b;
        }
    default:
        break;
    }
    a = ref_eval(n->a[0], v, t);
    b = rfns[n->op].nargs > 1 ? ref_eval(n->a[1], v, t) : 0;
    c = rfns[n->op].nargs > 2 ? ref_eval(n->a[2], v, t) : 0;
    const char *f = rfns[n->op].name;
    if (!strcmp(f, "min")) return ref_min(a, b);
    if (!strcmp(f, "max")) return ref_max(a, b);
    if (!strcmp(f, "clamp")) return ref_min(ref_max(a, b), c);
    if (!strcmp(f, "abs")) return fabs(a);
    if (!strcmp(f, "floor")) return floor(a);
    if (!strcmp(f, "ceil")) return ceil(a);
    if (!strcmp(f, "round")) return round(a);
    if (!strcmp(f, "sqrt")) return sqrt(a);
    if (!strcmp(f, "pow")) return pow(a, b);
    if (!strcmp(f, "exp")) return exp(a);
    if (!strcmp(f, "log")) return log(a);
    if (!strcmp(f, "sin")) return sin(a);
    if (!strcmp(f, "cos")) return cos(a);
    if (!strcmp(f, "tan")) return tan(a);
    if (!strcmp(f, "atan2")) return atan2(a, b);
    if (!strcmp(f, "mix")) return a + (b - a) * c;
    if (!strcmp(f, "step")) return b >= a ? 1.0 : 0.0;
    /* smoothstep(e0, e1, x), GLSL */
    double u = ref_min(ref_max((c - a) / (b - a), 0.0), 1.0);
    return u * u * (3.0 - 2.0 * u);
}

static void random_range(double *lo, double *hi)
{
    double a = urand() * 10, w = urand() * 10;
    switch (irand(14)) {
    case 0: *lo = *hi = (irand(2) ? a : -a); break;
    case 1: case 2: *lo = a; *hi = a + w; break;
    case 3: case 4: *lo = -a; *hi = w; break;
    case 5: *lo = -a - w; *hi = -a; break;
    case 6: *lo = 0; *hi = w; break;
    case 7: *lo = -1e6; *hi = 1e6; break;
    case 8: *lo = -1e300; *hi = 1e300; break;
    case 9: *lo = a; *hi = INFINITY; break;
    case 10: *lo = -INFINITY; *hi = -a; break;
    case 11: *lo = -INFINITY; *hi = INFINITY; break;
    case 12: *lo = 1e-310; *hi = 1e-300; break;
    default: *lo = a * 0.1; *hi = a * 0.1 + w * 0.01; break;
    }
}

static double random_point(double lo, double hi)
{
    int r = irand(100);
    if (lo == -INFINITY && hi == INFINITY) {
        if (r < 3) return NAN;
        if (r < 6) return irand(2) ? INFINITY : -INFINITY;
        if (r < 12) return irand(2) ? 0.0 : -0.0;
        return (irand(2) ? 1 : -1) * pow(10, urand() * 600 - 300);
    }
    if (r < 10) return lo;
    if (r < 20) return hi;
    if (r < 26 && lo <= 0 && hi >= 0) return irand(2) ? 0.0 : -0.0;
    double x;
    if (isinf(lo) || isinf(hi)) {
        double base = isinf(lo) ? hi : lo, dir = isinf(lo) ? -1 : 1;
        if (r < 30) return isinf(lo) ? -INFINITY : INFINITY;
        if (r < 34) return dir * DBL_MAX;
        x = base + dir * pow(10, urand() * 320 - 10);
    } else {
        double u = urand();
        x = lo * (1 - u) + hi * u;
        if (r < 32)
            x = round(x);     /* integers: parity of pow, exact zeros */
        else if (r < 36)
            x = round(x * 2) / 2;
    }
    return fmin(fmax(x, lo), hi);
}

static int same_value(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

#define SOUND_EXPRS 600
#define SOUND_POINTS 1500

START_TEST(test_soundness)
{
    long points = 0, bounded = 0, finite_both = 0, violations = 0, mismatches = 0;
    rng_state = 0x9e3779b97f4a7c15ull;
    for (int ex = 0; ex < SOUND_EXPRS; ex++) {
        node_t *tree = gen(1 + irand(5));
        str_t s;
        s.len = 0;
        s.buf[0] = '\0';
        print_node(&s, tree, 0);
        ck_assert(s.len < sizeof s.buf);
        env_t env = xyz_env(0, 0);
        for (int i = 0; i < 3; i++)
            random_range(&env.in[i].lo, &env.in[i].hi);
        env.t_lo = 0;
        env.t_hi = irand(10) == 0 ? INFINITY : 1 + irand(10);
        rf_expr_t *e[2];
        double lo[2], hi[2];
        for (unsigned fl = 0; fl < 2; fl++) {
            e[fl] = must_compile(s.buf, &env, fl ? RF_EXPR_NOFOLD : 0);
            rf_expr_range(e[fl], &lo[fl], &hi[fl]);
            ck_assert_msg(!isnan(lo[fl]) && !isnan(hi[fl]) && lo[fl] <= hi[fl], "'%s'", s.buf);
        }
        bounded += !(lo[0] == -INFINITY && hi[0] == INFINITY);
        finite_both += isfinite(lo[0]) && isfinite(hi[0]);
        for (int p = 0; p < SOUND_POINTS; p++) {
            double v[3], t = random_point(env.t_lo, env.t_hi);
            for (int i = 0; i < 3; i++)
                v[i] = random_point(env.in[i].lo, env.in[i].hi);
            double want = ref_eval(tree, v, t);
            for (int fl = 0; fl < 2; fl++) {
                double got = rf_expr_eval(e[fl], v, t);
                if (!same_value(got, want)) {
                    if (mismatches++ < 5)
                        fprintf(stderr, "mismatch: '%s' x=%.17g y=%.17g z=%.17g t=%.17g: "
                                "vm %.17g, reference %.17g\n", s.buf, v[0], v[1], v[2], t, got, want);
                }
                if (!in_range(got, lo[fl], hi[fl])) {
                    if (violations++ < 5)
                        fprintf(stderr, "unsound: '%s' x=%.17g [%g,%g] y=%.17g [%g,%g] z=%.17g "
                                "[%g,%g] t=%.17g [%g,%g]: %.17g outside [%.17g, %.17g]%s\n",
                                s.buf, v[0], env.in[0].lo, env.in[0].hi, v[1], env.in[1].lo,
                                env.in[1].hi, v[2], env.in[2].lo, env.in[2].hi, t, env.t_lo,
                                env.t_hi, got, lo[fl], hi[fl], fl ? " (unfolded)" : "");
                }
            }
            points++;
        }
        free_tree(tree);
        free_blocks();
    }
    printf("check_expr: soundness: %d expressions, %ld points x 2 compilations, "
           "%ld bounded ranges (%ld finite), %ld violations, %ld reference mismatches\n",
           SOUND_EXPRS, points, bounded, finite_both, violations, mismatches);
    ck_assert_int_eq(violations, 0);
    ck_assert_int_eq(mismatches, 0);
    /* the test must have exercised bounded ranges, or it proves nothing */
    ck_assert_int_gt(finite_both, SOUND_EXPRS / 5);
}
END_TEST

/* Soundness near the trouble spots: narrow intervals around extrema and
 * poles of the periodic functions, and around pow's parity cases. */
START_TEST(test_soundness_edges)
{
    static const char *const exprs[] = {
        "sin(x)", "cos(x)", "tan(x)", "sin(x) * 10", "cos(x * 2)", "atan2(y, x)",
        "pow(x, 2)", "pow(x, 3)", "pow(x, -1)", "pow(x, -2)", "pow(x, y)", "pow(x, 0.5)",
        "exp(x)", "log(x)", "sqrt(x)", "smoothstep(x, y, 0.5)", "x % y", "x / y", "1 / x",
        "x * y", "x + y", "x - y", "mix(x, y, 0.3)", "round(x)", "floor(x / y)",
    };
    static const double centers[] = {
        0, 1.5707963267948966, -1.5707963267948966, 3.141592653589793, 4.71238898038469,
        6.283185307179586, 1e6 * 3.141592653589793, 1, -1, 2, 0.5, 1e-300, 7.5e7,
    };
    long points = 0, violations = 0;
    rng_state = 12345;
    for (size_t ei = 0; ei < sizeof exprs / sizeof exprs[0]; ei++)
        for (size_t ci = 0; ci < sizeof centers / sizeof centers[0]; ci++)
            for (int wi = 0; wi < 6; wi++) {
                double w = pow(10, -12 + 2.5 * wi);
                env_t env = xyz_env(0, 0);
                env.in[0].lo = centers[ci] - w * urand();
                env.in[0].hi = centers[ci] + w * urand();
                env.in[1].lo = centers[(ci + 3) % 13] - w;
                env.in[1].hi = centers[(ci + 3) % 13] + w * urand();
                rf_expr_t *e = must_compile(exprs[ei], &env, 0);
                double lo, hi;
                rf_expr_range(e, &lo, &hi);
                for (int p = 0; p < 400; p++) {
                    double v[3] = {random_point(env.in[0].lo, env.in[0].hi),
                                   random_point(env.in[1].lo, env.in[1].hi), 0};
                    double got = rf_expr_eval(e, v, 0);
                    if (!in_range(got, lo, hi) && violations++ < 5)
                        fprintf(stderr, "unsound: '%s' x=%.17g y=%.17g: %.17g outside [%.17g, %.17g]\n",
                                exprs[ei], v[0], v[1], got, lo, hi);
                    points++;
                }
                free_blocks();
            }
    printf("check_expr: edge soundness: %ld points, %ld violations\n", points, violations);
    ck_assert_int_eq(violations, 0);
}
END_TEST

static Suite *expr_suite(void)
{
    Suite *s = suite_create("expr");
    TCase *tc = tcase_create("data");
    tcase_add_loop_test(tc, test_eval_case, 0, f_eval.n);
    tcase_add_loop_test(tc, test_error_case, 0, f_errors.n);
    tcase_add_loop_test(tc, test_range_case, 0, f_ranges.n);
    suite_add_tcase(s, tc);
    tc = tcase_create("api");
    tcase_add_test(tc, test_bytecode);
    tcase_add_test(tc, test_fused_rounding);
    tcase_add_test(tc, test_accumulator_paths);
    tcase_add_test(tc, test_deps_time);
    tcase_add_test(tc, test_many_inputs);
    tcase_add_test(tc, test_alloc_failure);
    tcase_add_test(tc, test_literals_as_strtod);
    tcase_add_test(tc, test_length_not_nul);
    tcase_add_test(tc, test_caret);
    tcase_add_test(tc, test_loc);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_length_limit);
    tcase_add_test(tc, test_deep_nesting);
    tcase_add_test(tc, test_too_deep);
    tcase_add_test(tc, test_big_frame);
    tcase_add_test(tc, test_too_large);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("soundness");
    tcase_add_test(tc, test_soundness);
    tcase_add_test(tc, test_soundness_edges);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_dir = argv[1];
    else if (getenv("EXPR_DIR") != NULL)
        data_dir = getenv("EXPR_DIR");
    if (load_file(&f_eval) || load_file(&f_errors) || load_file(&f_ranges))
        return 1;
    printf("check_expr: %d eval cases, %d error cases, %d range cases from %s\n", f_eval.n,
           f_errors.n, f_ranges.n, data_dir);
    fflush(stdout);
    SRunner *sr = srunner_create(expr_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
