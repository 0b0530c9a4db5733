/* expr-bounds.c - the published range: the bytecode run over intervals.
 *
 * The same bytecode the VM runs is run once, at compile time, over
 * intervals (abstract interpretation): a ternary whose condition is decided
 * follows one branch, otherwise both, joined at their end. Endpoints are
 * rounded outward: exactly (TwoSum / fma residuals decide whether an
 * add/mul/div/sqrt was inexact and which way it rounded), and by a few ulps
 * after libm calls, whose error glibc keeps under 1 ulp. Each opcode's
 * interval image is its bounds column in expr-op.h.
 */
#include "expr-int.h"

#include <float.h>
#include <math.h>

static const iv_t IV_FULL = IV_FULL_INIT;

#define PI_D 3.141592653589793          /* fl(pi) < pi */
#define TWO_PI_D 6.283185307179586
#define HALF_PI_D 1.5707963267948966
#define LIBM_ULPS 4                     /* outward steps after a libm call */
#define TRIG_MAX 1e8                    /* beyond: no extremum bookkeeping */

/* Directed rounding is emulated from the round-to-nearest result and its
 * exact residual, so exact results stay exact. Wider evaluation formats
 * (x87) make residuals meaningless: then every result steps outward. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define RESIDUALS_OK 1
#else
#define RESIDUALS_OK 0
#endif
#define TINY 0x1p-960    /* below: residuals may underflow, step anyway */
#define HUGE_ 0x1p1020   /* above: TwoSum may overflow, step anyway */

static int iv_full(iv_t a)
{
    return a.lo == -INFINITY && a.hi == INFINITY;
}

/* One ulp down/up; infinities (overflowed or given) stay. */
static double dn1(double x)
{
    return isfinite(x) ? nextafter(x, -INFINITY) : x;
}

static double up1(double x)
{
    return isfinite(x) ? nextafter(x, INFINITY) : x;
}

static double dnk(double x, int k)
{
    while (k-- > 0)
        x = dn1(x);
    return x;
}

static double upk(double x, int k)
{
    while (k-- > 0)
        x = up1(x);
    return x;
}

/* err is the exact (true - rounded) residual; dir < 0 rounds down. */
static double directed(double r, double err, int dir)
{
    if (dir < 0)
        return err < 0 ? dn1(r) : r;
    return err > 0 ? up1(r) : r;
}

static double add_dir(double a, double b, int dir)
{
    double s = a + b;
    if (!isfinite(s))
        return s;
    if (!RESIDUALS_OK || fabs(s) > HUGE_)
        return dir < 0 ? dn1(s) : up1(s);
    double bb = s - a;                       /* TwoSum (Knuth) */
    double err = (a - (s - bb)) + (b - bb);
    return directed(s, err, dir);
}

static double mul_dir(double a, double b, int dir)
{
    double p = a * b;
    if (!isfinite(p) || a == 0.0 || b == 0.0)
        return p;
    if (!RESIDUALS_OK || fabs(p) < TINY)
        return dir < 0 ? dn1(p) : up1(p);
    return directed(p, fma(a, b, -p), dir);
}

static double div_dir(double a, double b, int dir)
{
    double q = a / b;
    if (!isfinite(q) || a == 0.0 || isinf(b))
        return q;                            /* exact, or overflowed */
    if (!RESIDUALS_OK || fabs(q) < TINY || fabs(a) < TINY)
        return dir < 0 ? dn1(q) : up1(q);
    double r = fma(-q, b, a);                /* a - q*b, exact */
    double err = (b > 0) ? r : -r;           /* sign of (a/b - q) */
    return directed(q, err, dir);
}

static double sqrt_dir(double x, int dir)
{
    double s = sqrt(x);
    if (!isfinite(s) || s == 0.0)
        return s;
    if (!RESIDUALS_OK || x < TINY)
        return dir < 0 ? dn1(s) : up1(s);
    return directed(s, fma(-s, s, x), dir);
}

static iv_t iv_neg(iv_t a)
{
    iv_t r = {-a.hi, -a.lo};
    return r;
}

static iv_t iv_add(iv_t a, iv_t b)
{
    if (iv_full(a) || iv_full(b))
        return IV_FULL;
    return iv_make(add_dir(a.lo, b.lo, -1), add_dir(a.hi, b.hi, 1));
}

static iv_t iv_sub(iv_t a, iv_t b)
{
    return iv_add(a, iv_neg(b));   /* a - b rounds exactly as a + (-b) */
}

static iv_t iv_mul(iv_t a, iv_t b)
{
    if (iv_full(a) || iv_full(b))
        return IV_FULL;
    double xs[2] = {a.lo, a.hi}, ys[2] = {b.lo, b.hi};
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double l = mul_dir(xs[i], ys[j], -1), h = mul_dir(xs[i], ys[j], 1);
            if (isnan(l) || isnan(h))        /* 0 * inf */
                return IV_FULL;
            lo = fmin(lo, l);
            hi = fmax(hi, h);
        }
    return iv_make(lo, hi);
}

static iv_t iv_div(iv_t a, iv_t b)
{
    if (iv_full(a) || iv_full(b) || (b.lo <= 0.0 && b.hi >= 0.0))
        return IV_FULL;
    double xs[2] = {a.lo, a.hi}, ys[2] = {b.lo, b.hi};
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double l = div_dir(xs[i], ys[j], -1), h = div_dir(xs[i], ys[j], 1);
            if (isnan(l) || isnan(h))        /* inf / inf */
                return IV_FULL;
            lo = fmin(lo, l);
            hi = fmax(hi, h);
        }
    return iv_make(lo, hi);
}

/* fmod is exact; its result has the sign of a, |r| <= |a| and |r| < |b|. */
static iv_t iv_mod(iv_t a, iv_t b)
{
    if (iv_full(a) || iv_full(b) || isinf(a.lo) || isinf(a.hi) ||
        (b.lo <= 0.0 && b.hi >= 0.0))
        return IV_FULL;
    double bmax = fmax(fabs(b.lo), fabs(b.hi)), bmin = fmin(fabs(b.lo), fabs(b.hi));
    if (fmax(fabs(a.lo), fabs(a.hi)) < bmin)
        return a;                            /* fmod(x, y) == x when |x| < |y| */
    double lo = a.lo >= 0.0 ? 0.0 : fmax(a.lo, -bmax);
    double hi = a.hi <= 0.0 ? 0.0 : fmin(a.hi, bmax);
    return iv_make(lo, hi);
}

/* Comparisons never yield NaN (a NaN operand compares false, != true). */
static iv_t iv_bool(int decided, int value)
{
    if (!decided)
        return iv_make(0.0, 1.0);
    return iv_point(value ? 1.0 : 0.0);
}

static iv_t iv_cmp(int op, iv_t a, iv_t b)
{
    if (iv_full(a) || iv_full(b))
        return iv_bool(0, 0);
    switch (op) {
    case OP_LT:
        if (a.hi < b.lo) return iv_bool(1, 1);
        if (a.lo >= b.hi) return iv_bool(1, 0);
        break;
    case OP_LE:
        if (a.hi <= b.lo) return iv_bool(1, 1);
        if (a.lo > b.hi) return iv_bool(1, 0);
        break;
    case OP_GT:
        return iv_cmp(OP_LT, b, a);
    case OP_GE:
        return iv_cmp(OP_LE, b, a);
    case OP_EQ:
    case OP_NE: {
        int eq = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
        int ne = a.hi < b.lo || b.hi < a.lo;
        if (eq || ne)
            return iv_bool(1, op == OP_EQ ? eq : ne);
        break;
    }
    default:
        break;
    }
    return iv_bool(0, 0);
}

/* fmin/fmax drop a NaN operand, so these hold for possibly-NaN (full) inputs. */
static iv_t iv_min(iv_t a, iv_t b)
{
    return iv_make(fmin(a.lo, b.lo), fmin(a.hi, b.hi));
}

static iv_t iv_max(iv_t a, iv_t b)
{
    return iv_make(fmax(a.lo, b.lo), fmax(a.hi, b.hi));
}

static iv_t iv_clamp(iv_t x, iv_t lo, iv_t hi)
{
    return iv_min(iv_max(x, lo), hi);
}

static iv_t iv_abs(iv_t a)
{
    if (iv_full(a))
        return IV_FULL;
    if (a.lo >= 0.0)
        return a;
    if (a.hi <= 0.0)
        return iv_neg(a);
    return iv_make(0.0, fmax(-a.lo, a.hi));
}

/* Exact, nondecreasing functions: floor, ceil, round. */
static iv_t iv_mono_exact(iv_t a, double (*f)(double))
{
    if (iv_full(a))
        return IV_FULL;
    return iv_make(f(a.lo), f(a.hi));
}

/* A nondecreasing libm function: endpoints, stepped outward. */
static iv_t iv_mono_libm(iv_t a, double (*f)(double))
{
    return iv_make(dnk(f(a.lo), LIBM_ULPS), upk(f(a.hi), LIBM_ULPS));
}

static iv_t iv_sqrt(iv_t a)
{
    if (iv_full(a) || a.lo < 0.0)
        return IV_FULL;
    return iv_make(sqrt_dir(a.lo, -1), sqrt_dir(a.hi, 1));
}

static iv_t iv_exp(iv_t a)
{
    if (iv_full(a))
        return IV_FULL;
    iv_t r = iv_mono_libm(a, exp);
    r.lo = fmax(r.lo, 0.0);
    return r;
}

static iv_t iv_log(iv_t a)
{
    if (iv_full(a) || a.lo < 0.0)
        return IV_FULL;
    return iv_mono_libm(a, log);
}

/* Conservatively: does [lo, hi] contain phase + k*period for an integer k?
 * The margin dwarfs the rounding of the quotient for |x| <= TRIG_MAX, so a
 * point inside is never missed; one just outside may be reported. */
static int has_point(double lo, double hi, double phase, double period)
{
    double m = 1e-9 * (1.0 + fmax(fabs(lo), fabs(hi)));
    double k = ceil((lo - m - phase) / period);
    return phase + k * period <= hi + m;
}

/* sin or cos: [-1, 1], or the endpoint values when no extremum is inside. */
static iv_t iv_trig(iv_t a, int is_cos)
{
    if (isinf(a.lo) || isinf(a.hi))          /* sin(inf) is NaN */
        return IV_FULL;
    if (a.hi - a.lo >= TWO_PI_D || fabs(a.lo) > TRIG_MAX || fabs(a.hi) > TRIG_MAX)
        return iv_make(-1.0, 1.0);
    double max_phase = is_cos ? 0.0 : HALF_PI_D;
    double min_phase = is_cos ? PI_D : -HALF_PI_D;
    double fl = is_cos ? cos(a.lo) : sin(a.lo), fh = is_cos ? cos(a.hi) : sin(a.hi);
    double hi = has_point(a.lo, a.hi, max_phase, TWO_PI_D) ? 1.0 : upk(fmax(fl, fh), LIBM_ULPS);
    double lo = has_point(a.lo, a.hi, min_phase, TWO_PI_D) ? -1.0 : dnk(fmin(fl, fh), LIBM_ULPS);
    return iv_make(fmax(lo, -1.0), fmin(hi, 1.0));
}

/* tan: increasing between poles; unbounded across one. */
static iv_t iv_tan(iv_t a)
{
    if (isinf(a.lo) || isinf(a.hi) || fabs(a.lo) > TRIG_MAX || fabs(a.hi) > TRIG_MAX ||
        a.hi - a.lo >= PI_D || has_point(a.lo, a.hi, HALF_PI_D, PI_D))
        return IV_FULL;
    return iv_mono_libm(a, tan);
}

/* atan2(y, x) is the angle of (x, y): over a box that misses the branch cut
 * (x <= 0, y == 0, origin included; signed zeros put both +pi and -pi there)
 * its extremes are at corners. */
static iv_t iv_atan2(iv_t y, iv_t x)
{
    double lim = up1(PI_D);
    if (iv_full(y) || iv_full(x))
        return IV_FULL;
    if (x.lo <= 0.0 && y.lo <= 0.0 && y.hi >= 0.0)
        return iv_make(-lim, lim);
    double ys[2] = {y.lo, y.hi}, xs[2] = {x.lo, x.hi};
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double v = atan2(ys[i], xs[j]);
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
    return iv_make(fmax(dnk(lo, LIBM_ULPS), -lim), fmin(upk(hi, LIBM_ULPS), lim));
}

static iv_t iv_pow(iv_t x, iv_t y)
{
    if (y.lo == 0.0 && y.hi == 0.0)
        return iv_point(1.0);                /* pow(anything, 0) == 1, NaN too */
    if (iv_full(x) || iv_full(y))
        return IV_FULL;
    if (y.lo == y.hi && isfinite(y.lo) && floor(y.lo) == y.lo) {
        double n = y.lo;
        int odd = fmod(n, 2.0) != 0.0;
        if (n > 0.0) {
            if (odd)
                return iv_make(dnk(pow(x.lo, n), LIBM_ULPS), upk(pow(x.hi, n), LIBM_ULPS));
            iv_t m = iv_abs(x);
            return iv_make(fmax(0.0, dnk(pow(m.lo, n), LIBM_ULPS)), upk(pow(m.hi, n), LIBM_ULPS));
        }
        if (x.lo <= 0.0 && x.hi >= 0.0)
            return IV_FULL;                  /* pole at 0 */
        if (odd)
            return iv_make(dnk(pow(x.hi, n), LIBM_ULPS), upk(pow(x.lo, n), LIBM_ULPS));
        iv_t m = iv_abs(x);
        return iv_make(fmax(0.0, dnk(pow(m.hi, n), LIBM_ULPS)), upk(pow(m.lo, n), LIBM_ULPS));
    }
    if (x.lo > 0.0 || (x.lo == 0.0 && y.lo > 0.0)) {
        /* exp(y * log x): bilinear exponent, so the extremes are corners */
        double xs[2] = {x.lo, x.hi}, ys[2] = {y.lo, y.hi};
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                double v = pow(xs[i], ys[j]);
                if (isnan(v))
                    return IV_FULL;
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        return iv_make(fmax(0.0, dnk(lo, LIBM_ULPS)), upk(hi, LIBM_ULPS));
    }
    return IV_FULL;   /* negative base with a non-integer exponent: NaN */
}

static iv_t iv_mix(iv_t a, iv_t b, iv_t t)
{
    return iv_add(a, iv_mul(iv_sub(b, a), t));
}

/* The VM evaluates u*u*(3 - 2u) in three roundings (fn_smooth_poly); the
 * cubic increases on [0, 1], so endpoints stepped by 8 ulps cover it. */
static iv_t iv_smoothstep(iv_t e0, iv_t e1, iv_t x)
{
    iv_t u = iv_clamp(iv_div(iv_sub(x, e0), iv_sub(e1, e0)), iv_point(0.0), iv_point(1.0));
    if (u.lo == u.hi)
        return iv_point(fn_smooth_poly(u.lo));  /* one u: the VM's very roundings */
    return iv_make(fmax(0.0, dnk(fn_smooth_poly(u.lo), 8)), upk(fn_smooth_poly(u.hi), 8));
}

/* The interval image of an operator that writes a value, from the opcode
 * table's bounds column. */
static iv_t iv_apply(int op, const iv_t *a)
{
#define IB a[0]
#define IC a[1]
#define ID a[2]
#define IV_GEN_FOLD(name, bounds) case OP_##name: return bounds;
#define IV_GEN_VM(name, bounds) case OP_##name: return bounds;
#define IV_GEN_CTRL(name, bounds)
#define X(name, nargs, prec, fn, kind, value, bounds) IV_GEN_##kind(name, bounds)
    switch (op) {
    RF_EXPR_OPCODES(X)
    default: return IV_FULL;
    }
#undef X
#undef IV_GEN_FOLD
#undef IV_GEN_VM
#undef IV_GEN_CTRL
#undef IB
#undef IC
#undef ID
}

/* ---- the bytecode over intervals ----------------------------------------- */

/* Runs the code once over a frame of intervals. An undecided JMPF records
 * its JMP (at its target - 1); reaching that JMP parks the then value and
 * falls into the else branch, and the parked value joins the ternary's
 * register at the JMP's target. (Registers above it are temporaries of
 * the branches, dead after the join; those below it neither branch writes.) */
iv_t rf_expr_bounds_run(const ins_t *code, iv_t *f, rf_expr_join_t *joins, uint32_t *splits)
{
    uint32_t pc = 0, nj = 0, ns = 0;
    for (;;) {
        while (nj > 0 && joins[nj - 1].target == pc) {
            f[joins[nj - 1].reg] = iv_hull(f[joins[nj - 1].reg], joins[nj - 1].v);
            nj--;
        }
        ins_t i = code[pc];
        switch (i.op) {
        case OP_MOVE:
            f[i.a] = f[i.b];
            pc++;
            break;
        case OP_JMPF: {
            iv_t cond = f[i.b];
            if (!iv_full(cond) && (cond.lo > 0.0 || cond.hi < 0.0)) {
                pc++;                            /* always true */
            } else if (cond.lo == 0.0 && cond.hi == 0.0) {
                pc = i.a;                        /* always false */
            } else {
                splits[ns++] = i.a - 1u;
                pc++;
            }
            break;
        }
        case OP_JMP:
            if (ns > 0 && splits[ns - 1] == pc) {
                ns--;
                joins[nj].target = i.a;
                joins[nj].reg = i.b;
                joins[nj++].v = f[i.b];
                pc++;
            } else {
                pc = i.a;
            }
            break;
        case OP_RET:
            return f[i.b];
        default: {
            iv_t args[3] = {f[i.b], f[i.c], IV_FULL};
            if (rf_expr_ops[i.op].nargs == 3)
                args[2] = f[code[pc + 1].a];
            f[i.a] = iv_apply(i.op, args);
            pc += INS_WIDTH(i.op);
            break;
        }
        }
    }
}
