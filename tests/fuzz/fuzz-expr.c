/* fuzz-expr.c - the expression compiler, the VM and the bounds analysis.
 *
 * Input: the expression, then optionally a NUL byte and a parameter block
 * that picks the input ranges, the range of t and the evaluation points
 * (without one, fixed ranges and points drawn from a hash of the input).
 * Names: x, y, w, dist are plain values, p is a path sample (p.x, p.y,
 * p.angle); anything else is unknown, as tests/expr/errors.txt has it.
 *
 * Invariants (expr.h):
 *   - an error has a column in 1 .. characters + 1 and a one-line message,
 *     and its caret display is two lines of the size rf_expr_caret says;
 *   - a success allocates one block; the dump is as long as it says; the
 *     depth is at most RF_EXPR_MAX_DEPTH; deps are slots the resolver gave;
 *   - constant folding changes no value: the folded and the unfolded
 *     programs agree bit for bit at every point;
 *   - THE range promise: for inputs inside their resolver ranges (NaN too
 *     when a range is (-inf, +inf), empty or NaN) and t inside [t_lo, t_hi],
 *     every value lies in the published range, NaN only under (-inf, +inf).
 *     A value outside is a bug: abort().
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "loc.h"
#include "scene.h"

#include "fuzz.h"

#define NSLOT 7          /* x y w dist p.x p.y p.angle */
#define NPOINTS 48
#define T_MAX 9007199254740992.0

typedef struct ranges {
    double lo[NSLOT], hi[NSLOT];
    int nan_ok[NSLOT];   /* the compiler takes this input to be possibly NaN */
} ranges_t;

static const char *const plain_names[4] = { "x", "y", "w", "dist" };

static int resolve(void *ctx, const char *name, size_t len, int comp, rf_expr_ref_t *out,
                   char *err, size_t errlen)
{
    const ranges_t *r = ctx;
    int shown = len > 200 ? 200 : (int)len;
    for (int i = 0; i < 4; i++) {
        if (strlen(plain_names[i]) == len && memcmp(plain_names[i], name, len) == 0) {
            if (comp != RF_EXPR_PLAIN) {
                snprintf(err, errlen, "'%.*s' is a static value: only a sample_path value has "
                         ".x, .y and .angle", shown, name);
                return -1;
            }
            out->slot = (uint32_t)i;
            out->lo = r->lo[i];
            out->hi = r->hi[i];
            return 0;
        }
    }
    if (len == 1 && name[0] == 'p') {
        if (comp == RF_EXPR_PLAIN) {
            snprintf(err, errlen, "'p' is a path sample: use p.x, p.y or p.angle");
            return -1;
        }
        FUZZ_CHECK(comp >= RF_EXPR_X && comp <= RF_EXPR_A, "component %d", comp);
        if (comp > RF_EXPR_ANGLE) {
            /* .z .w .r .g .b .a: a vector's or a color's, not a path sample's */
            snprintf(err, errlen, "'p' is a path sample: it has .x, .y and .angle");
            return -1;
        }
        out->slot = (uint32_t)(4 + comp - RF_EXPR_X);
        out->lo = r->lo[out->slot];
        out->hi = r->hi[out->slot];
        return 0;
    }
    snprintf(err, errlen, "unknown value '%.*s'", shown, name);
    return -1;
}

/* The compiled program lives in one malloc'ed block per compile. */
static void *blocks[4];
static unsigned nblocks;

static void *alloc_block(void *ctx, size_t size)
{
    (void)ctx;
    FUZZ_CHECK(nblocks < sizeof blocks / sizeof blocks[0], "%u allocations", nblocks + 1);
    blocks[nblocks] = malloc(size);
    return blocks[nblocks++];
}

static void free_blocks(void)
{
    for (unsigned i = 0; i < nblocks; i++)
        free(blocks[i]);
    nblocks = 0;
}

/* Characters as every column counts them (loc.h): a valid UTF-8 sequence
 * or one invalid byte each. */
static size_t utf8_chars(const uint8_t *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; c++) {
        size_t k = rf_utf8_len(s, i, n);
        i += k > 0 ? k : 1;
    }
    return c;
}

/* A range from the parameters: mostly ordered pairs of special values,
 * sometimes reversed or NaN (then the input is unbounded, NaN included). */
static void pick_range(fuzz_rng_t *rng, double *lo, double *hi)
{
    double a = fuzz_special_pick(rng), b = fuzz_special_pick(rng);
    uint8_t mode = fuzz_byte(rng);
    if ((mode & 3) != 0 && a > b) {
        double s = a;
        a = b;
        b = s;
    }
    if ((mode & 12) == 4) {          /* a point */
        b = a;
    } else if ((mode & 12) == 8) {   /* around a special value, +-u */
        double u = fuzz_unit(rng) * 100;
        if (isfinite(a)) {
            b = a + u;
            a = a - u;
        }
    }
    *lo = a;
    *hi = b;
}

static int nan_possible(double lo, double hi)
{
    return !(lo <= hi) || (lo == -INFINITY && hi == INFINITY);
}

/* A value inside [lo, hi] (any value, NaN included, when the range says
 * the input may be NaN). */
static double pick_in(fuzz_rng_t *rng, double lo, double hi, int nan_ok)
{
    uint8_t m = fuzz_byte(rng);
    if (nan_ok && !(lo <= hi))
        return fuzz_special_pick(rng);
    if (nan_ok && (m & 0x80))
        return fuzz_special_pick(rng);
    switch (m % 8) {
    case 0: return lo;
    case 1: return hi;
    case 2: {
        double mid = lo / 2 + hi / 2;
        return isfinite(mid) && mid >= lo && mid <= hi ? mid : lo;
    }
    case 3: case 4: {
        double u = fuzz_unit(rng), v = lo * (1 - u) + hi * u;
        if (!(v >= lo && v <= hi)) {
            /* infinite endpoints: walk in from the finite side or pick a finite number */
            double f = fuzz_special_pick(rng);
            v = isfinite(f) && f >= lo && f <= hi ? f : isfinite(lo) ? lo : isfinite(hi) ? hi : 0;
        }
        return v >= lo && v <= hi ? v : lo;
    }
    case 5: {
        double v = nextafter(lo, hi);
        return v >= lo && v <= hi ? v : lo;
    }
    case 6: {
        double v = nextafter(hi, lo);
        return v >= lo && v <= hi ? v : hi;
    }
    default: {
        double f = fuzz_special_pick(rng);
        if (f >= lo && f <= hi)
            return f;
        double r = round(lo / 2 + hi / 2);
        return r >= lo && r <= hi ? r : lo;
    }
    }
}

static void check_error(const uint8_t *src, size_t len, const rf_expr_error_t *err)
{
    size_t chars = utf8_chars(src, len);
    FUZZ_CHECK(err->col >= 1 && (size_t)err->col <= chars + 1, "col %d of %zu characters",
               err->col, chars);
    FUZZ_CHECK(memchr(err->msg, '\0', sizeof err->msg) != NULL, "message not terminated");
    FUZZ_CHECK(err->msg[0] != '\0' && strpbrk(err->msg, "\r\n") == NULL, "message '%s'",
               err->msg);

    char small[12];
    size_t need = rf_expr_caret((const char *)src, len, err->col, small, sizeof small);
    FUZZ_CHECK(strlen(small) == (need < sizeof small ? need : sizeof small - 1),
               "caret truncation: %zu for %zu", strlen(small), need);
    char *buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL, "out of memory");
    size_t got = rf_expr_caret((const char *)src, len, err->col, buf, need + 1);
    FUZZ_CHECK(got == need && strlen(buf) == need, "caret size %zu, then %zu, strlen %zu", need,
               got, strlen(buf));
    char *nl = strchr(buf, '\n');
    FUZZ_CHECK(nl != NULL && strchr(nl + 1, '\n') == NULL, "caret is not two lines: '%s'", buf);
    FUZZ_CHECK(nl[-1] != '\0' && buf[need - 1] == '^', "caret line: '%s'", buf);
    for (char *q = buf; *q; q++)
        FUZZ_CHECK(*q == '\n' || (unsigned char)*q >= 0x20, "control character in the caret");
    free(buf);
}

static void check_program(const rf_expr_t *e)
{
    const uint32_t *deps;
    uint32_t nd = rf_expr_deps(e, &deps);
    FUZZ_CHECK(nd <= NSLOT, "%u deps", nd);
    FUZZ_CHECK(nd == 0 || deps != NULL, "deps");
    for (uint32_t i = 0; i < nd; i++) {
        FUZZ_CHECK(deps[i] < NSLOT, "dep slot %u", deps[i]);
        for (uint32_t j = 0; j < i; j++)
            FUZZ_CHECK(deps[j] != deps[i], "slot %u twice in deps", deps[i]);
    }
    FUZZ_CHECK(rf_expr_depth(e) <= RF_EXPR_MAX_DEPTH, "depth %u", rf_expr_depth(e));
    char tiny[8];
    size_t need = rf_expr_dump(e, tiny, 0);
    char *buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL, "out of memory");
    size_t got = rf_expr_dump(e, buf, need + 1);
    FUZZ_CHECK(got == need && strlen(buf) == need, "dump size %zu then %zu", need, got);
    FUZZ_CHECK(need > 0 && buf[need - 1] == '\n', "dump does not end a line");
    free(buf);
    double lo, hi;
    rf_expr_range(e, &lo, &hi);
    FUZZ_CHECK(!isnan(lo) && !isnan(hi) && lo <= hi, "range [%.17g, %.17g]", lo, hi);
}

static void check_value(const char *what, double v, double lo, double hi, const double *slots,
                        double t)
{
    if (isnan(v) ? lo == -INFINITY && hi == INFINITY : v >= lo && v <= hi)
        return;
    fprintf(stderr, "fuzz-expr: %s value %.17g outside its range [%.17g, %.17g] at t=%.17g\n",
            what, v, lo, hi, t);
    for (int i = 0; i < NSLOT; i++)
        fprintf(stderr, "  slot %d = %.17g\n", i, slots[i]);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t len = nul != NULL ? (size_t)(nul - data) : size;
    const uint8_t *params = nul != NULL ? nul + 1 : NULL;
    size_t nparams = nul != NULL ? size - len - 1 : 0;
    fuzz_rng_t rng;
    ranges_t r;
    double t_lo = 0, t_hi = T_MAX;

    fuzz_rng_init(&rng, params, nparams, fuzz_hash(data, size));
    if (nparams == 0) {
        /* the ranges of tests/expr: plain, with a wide one and an unbounded one */
        static const double dlo[NSLOT] = { 0, -10, -INFINITY, 0, 0, 0, -180 };
        static const double dhi[NSLOT] = { 1, 10, INFINITY, INFINITY, 640, 360, 180 };
        memcpy(r.lo, dlo, sizeof dlo);
        memcpy(r.hi, dhi, sizeof dhi);
    } else {
        for (int i = 0; i < NSLOT; i++)
            pick_range(&rng, &r.lo[i], &r.hi[i]);
        if (fuzz_byte(&rng) & 1)
            pick_range(&rng, &t_lo, &t_hi);
    }
    for (int i = 0; i < NSLOT; i++)
        r.nan_ok[i] = nan_possible(r.lo[i], r.hi[i]);

    const char *src = (const char *)data;
    size_t max = len > RF_MAX_EXPR_BYTES ? len : RF_MAX_EXPR_BYTES;
    rf_expr_t *ef = NULL, *en = NULL;
    rf_expr_error_t errf, errn;
    int rcf, rcn;

    nblocks = 0;
    if (len <= RF_MAX_EXPR_BYTES)
        rcf = rf_expr_compile(src, len, t_lo, t_hi, resolve, &r, alloc_block, NULL, &ef, &errf);
    else
        rcf = rf_expr_compile_ex(src, len, t_lo, t_hi, resolve, &r, alloc_block, NULL, max, 0,
                                 &ef, &errf);
    FUZZ_CHECK(rcf != 0 || nblocks == 1, "%u blocks for one program", nblocks);
    unsigned after_first = nblocks;
    rcn = rf_expr_compile_ex(src, len, t_lo, t_hi, resolve, &r, alloc_block, NULL, max,
                             RF_EXPR_NOFOLD, &en, &errn);
    FUZZ_CHECK(rcn != 0 || nblocks == after_first + 1, "%u blocks for one program",
               nblocks - after_first);
    /* the RF_MAX_EXPR_BYTES limit, compiled past it: an error either way */
    if (len > RF_MAX_EXPR_BYTES) {
        rf_expr_t *el = NULL;
        rf_expr_error_t errl;
        FUZZ_CHECK(rf_expr_compile(src, len, t_lo, t_hi, resolve, &r, alloc_block, NULL, &el,
                                   &errl) != 0 && el == NULL,
                   "%zu bytes compiled", len);
        check_error(data, len, &errl);
    }

    if (rcf != 0 || rcn != 0) {
        /* folding changes no syntax, so both fail alike; only past the
         * byte limit may the unfolded program alone be too large */
        if (rcf == 0 && len > RF_MAX_EXPR_BYTES && strcmp(errn.msg, "expression too large") == 0) {
            check_error(data, len, &errn);
            check_program(ef);
            free_blocks();
            return 0;
        }
        FUZZ_CHECK(rcf != 0 && rcn != 0, "fold %d, nofold %d: %s", rcf, rcn,
                   rcf ? errf.msg : errn.msg);
        FUZZ_CHECK(ef == NULL && en == NULL, "failed compile published a program");
        check_error(data, len, &errf);
        check_error(data, len, &errn);
        FUZZ_CHECK(errf.col == errn.col && strcmp(errf.msg, errn.msg) == 0,
                   "errors differ: col %d '%s' vs col %d '%s'", errf.col, errf.msg, errn.col,
                   errn.msg);
        free_blocks();
        return 0;
    }
    check_program(ef);
    check_program(en);

    double flo, fhi, nlo, nhi;
    rf_expr_range(ef, &flo, &fhi);
    rf_expr_range(en, &nlo, &nhi);
    int t_any = !(t_lo <= t_hi);
    for (int k = 0; k < NPOINTS; k++) {
        double slots[NSLOT], t;
        for (int i = 0; i < NSLOT; i++)
            slots[i] = pick_in(&rng, r.lo[i], r.hi[i], r.nan_ok[i]);
        if (t_any)
            t = fuzz_special_pick(&rng);
        else
            t = pick_in(&rng, t_lo, t_hi, 0);
        double vf = rf_expr_eval(ef, slots, t), vn = rf_expr_eval(en, slots, t);
        FUZZ_CHECK(fuzz_identical(vf, vn), "folded %.17g, unfolded %.17g at t=%.17g", vf, vn, t);
        check_value("folded", vf, flo, fhi, slots, t);
        check_value("unfolded", vn, nlo, nhi, slots, t);
    }
    free_blocks();
    return 0;
}
