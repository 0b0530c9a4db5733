/* expr.c - the expression compiler, its register VM, and interval bounds.
 *
 * Compilation is one pass of a shunting-yard parser over the tokens with an
 * explicit operator stack (no recursion, so nesting depth costs heap, not C
 * stack). Operands are not code: a number, an input or t is an operand
 * descriptor on a compile-time value stack, and an operator, when it is
 * popped, becomes ONE instruction that names its operands where they live
 * and writes a register (as in Lua, registers are allocated like a stack,
 * so a subexpression's temporaries are free again once it is done).
 * `c ? a : b` compiles to  c JMPF(L1) a JMP(L2) L1: b L2:, both branches
 * leaving their value in the same register. Constant operands are folded,
 * and a few common operator pairs fuse into one instruction; fusing never
 * reaches back over a jump target.
 *
 * The published range comes from running the same bytecode once over
 * intervals (abstract interpretation): a ternary whose condition is decided
 * follows one branch, otherwise both, joined at their end. Endpoints are
 * rounded outward: exactly (TwoSum / fma residuals decide whether an
 * add/mul/div/sqrt was inexact and which way it rounded), and by a few ulps
 * after libm calls, whose error glibc keeps under 1 ulp.
 */
#include "expr.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "scene.h"

/* One rounding per operation, as written: the folder, the VM and the range
 * analysis must agree bit for bit (gcc -std=c11 never contracts; clang
 * would fuse a*b+c into an fma by default). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- the instruction set: ONE table ---------------------------------------
 * A register machine in the manner of Lua's lopcodes.h. An instruction is
 * four 16-bit fields {op, a, b, c}: a is the destination, b and c the
 * operands; a three-operand instruction takes its third operand d from the
 * a field of the word after it (its pc advances by two). Every operand is
 * an index into ONE frame of doubles, filled at entry as
 *     [ constants | inputs, in rf_expr_deps() order | t | registers ]
 * so the VM reads an operand as f[b] whatever it is (no LOAD, no CONST).
 * Every instruction but JMPF, JMP and RET writes f[a]. An op field of
 * OP_COUNT + x is x reading b from the VM's accumulator, where the
 * instruction before it left that value (an operand mode, like Lua's k
 * bit; see use_acc). Columns: name, operands read, binary precedence (0:
 * not an infix operator), function name (NULL: not a function). */
#define RF_EXPR_OPCODES(X) \
    X(MOVE,       1, 0, NULL)          /* b (a ternary's leaf value to its register) */ \
    X(NEG,        1, 0, NULL)          /* -b                                     */ \
    X(ADD,        2, 4, NULL)          /* b + c                                  */ \
    X(SUB,        2, 4, NULL)          /* b - c                                  */ \
    X(MUL,        2, 5, NULL)          /* b * c                                  */ \
    X(DIV,        2, 5, NULL)          /* b / c                                  */ \
    X(MOD,        2, 5, NULL)          /* fmod(b, c)                             */ \
    X(LT,         2, 3, NULL)          /* b < c: 1 or 0                          */ \
    X(LE,         2, 3, NULL)          /* b <= c                                 */ \
    X(GT,         2, 3, NULL)          /* b > c                                  */ \
    X(GE,         2, 3, NULL)          /* b >= c                                 */ \
    X(EQ,         2, 2, NULL)          /* b == c                                 */ \
    X(NE,         2, 2, NULL)          /* b != c                                 */ \
    X(MIN,        2, 0, "min")         /* fmin(b, c)                             */ \
    X(MAX,        2, 0, "max")         /* fmax(b, c)                             */ \
    X(CLAMP,      3, 0, "clamp")       /* fmin(fmax(b, c), d)                    */ \
    X(ABS,        1, 0, "abs")         /* fabs(b)                                */ \
    X(FLOOR,      1, 0, "floor")       /* floor(b)                               */ \
    X(CEIL,       1, 0, "ceil")        /* ceil(b)                                */ \
    X(ROUND,      1, 0, "round")       /* round(b), halves away from zero        */ \
    X(SQRT,       1, 0, "sqrt")        /* sqrt(b)                                */ \
    X(POW,        2, 0, "pow")         /* pow(b, c)                              */ \
    X(EXP,        1, 0, "exp")         /* exp(b)                                 */ \
    X(LOG,        1, 0, "log")         /* log(b), natural                        */ \
    X(SIN,        1, 0, "sin")         /* sin(b), radians                        */ \
    X(COS,        1, 0, "cos")         /* cos(b)                                 */ \
    X(TAN,        1, 0, "tan")         /* tan(b)                                 */ \
    X(ATAN2,      2, 0, "atan2")       /* atan2(b, c)                            */ \
    X(MIX,        3, 0, "mix")         /* b + (c - b) * d                        */ \
    X(STEP,       2, 0, "step")        /* c >= b ? 1 : 0                         */ \
    X(SMOOTHSTEP, 3, 0, "smoothstep")  /* GLSL smoothstep(b, c, d)               */ \
    X(MADD,       3, 0, NULL)          /* b * c + d   (fused MUL; ADD, 2 roundings) */ \
    X(MSUB,       3, 0, NULL)          /* b * c - d   (fused MUL; SUB)           */ \
    X(MSUBR,      3, 0, NULL)          /* d - b * c   (fused MUL; SUB)           */ \
    X(JMPF,       1, 0, NULL)          /* if b == 0 then pc = a (no write)       */ \
    X(JMP,        0, 0, NULL)          /* pc = a; b: the ternary's register      */ \
    X(RET,        1, 0, NULL)          /* return b                               */

enum {
#define X(name, nargs, prec, fn) OP_##name,
    RF_EXPR_OPCODES(X)
#undef X
    OP_COUNT
};

typedef struct opinfo {
    const char *name;   /* for rf_expr_dump */
    uint8_t nargs;
    uint8_t prec;
    const char *fn;
} opinfo_t;

static const opinfo_t ops[OP_COUNT] = {
#define X(name, nargs, prec, fn) {#name, nargs, prec, fn},
    RF_EXPR_OPCODES(X)
#undef X
};

/* 16-bit fields, so each is one zero-extending load, no shifts. */
typedef struct ins {
    uint16_t op, a, b, c;
} ins_t;

/* Words an instruction takes: two when it has a third operand. */
#define INS_WIDTH(op) (ops[(op) % OP_COUNT].nargs == 3 ? 2u : 1u)

#define MAX_OPERAND 0xffffffu   /* input slots, bytes of an expression */
#define MAX_CODE 0xffffu        /* words: a jump target fits a 16-bit field */
/* The frame: every constant and input is a token of the expression, and
 * the registers in use never outnumber the stack depth, so 4,096 bytes
 * need at most 2,048 + 2,049 entries (compile_ex allows longer sources:
 * beyond this, "expression too large"). */
#define VM_FRAME_MAX (2u * RF_EXPR_MAX_DEPTH + 2u)

/* The constants are stored padded to at least K_BLOCK, and the VM copies
 * them into its frame (at least K_BLOCK entries) as one block. */
#define K_BLOCK 16u

#define PREC_NEG 6   /* unary minus binds tighter than every infix operator */

struct rf_expr {
    const ins_t *code;      /* ends with RET */
    const double *k;        /* constants: f[0 .. nk) */
    const uint32_t *deps;   /* distinct input slots, first use first: f[nk ..] */
    uint32_t ncode, nk, ndeps;
    uint32_t nframe;        /* nk + ndeps + 1 (t) + registers */
    uint32_t depth;         /* largest stack depth, <= RF_EXPR_MAX_DEPTH */
    int uses_time;
    double lo, hi;          /* published range */
};

/* ---- scalar semantics shared by the VM and the constant folder ---------- */

/* fmin and fmax, with the choice C leaves open fixed: when the operands
 * compare equal (+0 and -0) the result is b. libm's and the compiler's
 * inline expansions disagree there, and the folder must match the VM. */
static double fn_min(double a, double b)
{
    return isnan(b) || a < b ? a : b;
}

static double fn_max(double a, double b)
{
    return isnan(b) || a > b ? a : b;
}

static double fn_clamp(double x, double lo, double hi)
{
    return fn_min(fn_max(x, lo), hi);
}

static double fn_mix(double a, double b, double t)
{
    return a + (b - a) * t;
}

static double fn_step(double edge, double x)
{
    return x >= edge ? 1.0 : 0.0;
}

static double fn_smoothstep(double e0, double e1, double x)
{
    double u = fn_clamp((x - e0) / (e1 - e0), 0.0, 1.0);
    return u * u * (3.0 - 2.0 * u);
}

/* The value of a pure operator on constant arguments (the folder). */
static double op_apply(int op, const double *a)
{
    switch (op) {
    case OP_NEG: return -a[0];
    case OP_ADD: return a[0] + a[1];
    case OP_SUB: return a[0] - a[1];
    case OP_MUL: return a[0] * a[1];
    case OP_DIV: return a[0] / a[1];
    case OP_MOD: return fmod(a[0], a[1]);
    case OP_LT: return a[0] < a[1];
    case OP_LE: return a[0] <= a[1];
    case OP_GT: return a[0] > a[1];
    case OP_GE: return a[0] >= a[1];
    case OP_EQ: return a[0] == a[1];
    case OP_NE: return a[0] != a[1];
    case OP_MIN: return fn_min(a[0], a[1]);
    case OP_MAX: return fn_max(a[0], a[1]);
    case OP_CLAMP: return fn_clamp(a[0], a[1], a[2]);
    case OP_ABS: return fabs(a[0]);
    case OP_FLOOR: return floor(a[0]);
    case OP_CEIL: return ceil(a[0]);
    case OP_ROUND: return round(a[0]);
    case OP_SQRT: return sqrt(a[0]);
    case OP_POW: return pow(a[0], a[1]);
    case OP_EXP: return exp(a[0]);
    case OP_LOG: return log(a[0]);
    case OP_SIN: return sin(a[0]);
    case OP_COS: return cos(a[0]);
    case OP_TAN: return tan(a[0]);
    case OP_ATAN2: return atan2(a[0], a[1]);
    case OP_MIX: return fn_mix(a[0], a[1], a[2]);
    case OP_STEP: return fn_step(a[0], a[1]);
    case OP_SMOOTHSTEP: return fn_smoothstep(a[0], a[1], a[2]);
    default: return NAN;   /* not reached: only pure operators are folded */
    }
}

static int op_foldable(int op)
{
    return op == OP_NEG || (op >= OP_ADD && op <= OP_NE) ||
           (op >= OP_MIN && op <= OP_SMOOTHSTEP);
}

/* ---- the VM ------------------------------------------------------------- */

/* Lets the switch drop its range check. */
#if defined(__GNUC__)
#define UNREACHABLE() __builtin_unreachable()
#else
#define UNREACHABLE() return NAN
#endif

/* Dispatch: GCC's labels as values give every instruction its own indirect
 * jump (predicted per instruction, as in Lua's ljumptab.h); elsewhere, the
 * same cases in a switch. */
#if defined(__GNUC__) && !defined(RF_EXPR_SWITCH)
#define VM_THREADED 1
#else
#define VM_THREADED 0
#endif

#if VM_THREADED
#define VM_BEGIN VM_NEXT();
#define VM_END
#define VM_CASE(name) L_##name:
#define VM_CASE_ACC(name) LA_##name:
#define VM_NEXT() do { i = *pc++; goto *labels[i.op]; } while (0)
#else
#define VM_BEGIN for (;;) { i = *pc++; switch (i.op) {
#define VM_END default: UNREACHABLE(); } }
#define VM_CASE(name) case OP_##name:
#define VM_CASE_ACC(name) case OP_##name + OP_COUNT:
#define VM_NEXT() continue
#endif

/* An instruction with its first operand in acc (see use_acc). */
#define OP_ACC(op) ((op) + OP_COUNT)
#define OP_BASE(op) ((op) >= OP_COUNT ? (op) - OP_COUNT : (op))

/* Operands in a handler: VB first (the frame's or acc), VC, VD. */
#define VC f[i.c]
#define VD f[pc->a]

/* Both forms of a value-writing instruction; every one leaves its result
 * in acc and in f[a]. width: 1, or 2 to step over the d word. */
#define VM_OP(name, width, expr)                                                        \
    VM_CASE(name) {                                                                     \
        double VB = f[i.b];                                                             \
        acc = (expr);                                                                   \
        f[i.a] = acc;                                                                   \
        pc += (width) - 1;                                                              \
        VM_NEXT();                                                                      \
    }                                                                                   \
    VM_CASE_ACC(name) {                                                                 \
        double VB = acc;                                                                \
        acc = (expr);                                                                   \
        f[i.a] = acc;                                                                   \
        pc += (width) - 1;                                                              \
        VM_NEXT();                                                                      \
    }

/* f has e->nframe entries. One copy: its label table is static. GCC would
 * merge the handlers' identical dispatch tails into one indirect jump
 * (crossjumping), which is the switch again: keep them apart. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-crossjumping")))
#endif
static __attribute__((noinline)) double vm_run(const rf_expr_t *e, const double *slots, double t,
                                               double *f)
{
#if VM_THREADED
    static const void *const labels[2 * OP_COUNT] = {
#define X(name, nargs, prec, fn) &&L_##name,
        RF_EXPR_OPCODES(X)
#undef X
#define X(name, nargs, prec, fn) &&LA_##name,
        RF_EXPR_OPCODES(X)
#undef X
    };
#endif
    const ins_t *code = e->code, *pc = code;
    const double *k = e->k;
    const uint32_t *deps = e->deps;
    uint32_t nk = e->nk, nd = e->ndeps;
    double acc = 0.0;
    ins_t i;
    if (nk <= K_BLOCK) {
        memcpy(f, k, K_BLOCK * sizeof *f);   /* straight-line: no loop exit to mispredict */
    } else {
        for (uint32_t j = 0; j < nk; j++)
            f[j] = k[j];
    }
    double *in = f + nk;
    switch (nd) {            /* one predictable jump into straight-line code */
    default:
        for (uint32_t j = 8; j < nd; j++)
            in[j] = slots[deps[j]];
        /* fall through */
    case 8: in[7] = slots[deps[7]]; /* fall through */
    case 7: in[6] = slots[deps[6]]; /* fall through */
    case 6: in[5] = slots[deps[5]]; /* fall through */
    case 5: in[4] = slots[deps[4]]; /* fall through */
    case 4: in[3] = slots[deps[3]]; /* fall through */
    case 3: in[2] = slots[deps[2]]; /* fall through */
    case 2: in[1] = slots[deps[1]]; /* fall through */
    case 1: in[0] = slots[deps[0]]; /* fall through */
    case 0: break;
    }
    f[nk + nd] = t;
    VM_BEGIN
    VM_OP(MOVE, 1, VB)
    VM_OP(NEG, 1, -VB)
    VM_OP(ADD, 1, VB + VC)
    VM_OP(SUB, 1, VB - VC)
    VM_OP(MUL, 1, VB * VC)
    VM_OP(DIV, 1, VB / VC)
    VM_OP(MOD, 1, fmod(VB, VC))
    VM_OP(LT, 1, VB < VC)
    VM_OP(LE, 1, VB <= VC)
    VM_OP(GT, 1, VB > VC)
    VM_OP(GE, 1, VB >= VC)
    VM_OP(EQ, 1, VB == VC)
    VM_OP(NE, 1, VB != VC)
    VM_OP(MIN, 1, fn_min(VB, VC))
    VM_OP(MAX, 1, fn_max(VB, VC))
    VM_OP(CLAMP, 2, fn_clamp(VB, VC, VD))
    VM_OP(ABS, 1, fabs(VB))
    VM_OP(FLOOR, 1, floor(VB))
    VM_OP(CEIL, 1, ceil(VB))
    VM_OP(ROUND, 1, round(VB))
    VM_OP(SQRT, 1, sqrt(VB))
    VM_OP(POW, 1, pow(VB, VC))
    VM_OP(EXP, 1, exp(VB))
    VM_OP(LOG, 1, log(VB))
    VM_OP(SIN, 1, sin(VB))
    VM_OP(COS, 1, cos(VB))
    VM_OP(TAN, 1, tan(VB))
    VM_OP(ATAN2, 1, atan2(VB, VC))
    VM_OP(MIX, 2, fn_mix(VB, VC, VD))
    VM_OP(STEP, 1, fn_step(VB, VC))
    VM_OP(SMOOTHSTEP, 2, fn_smoothstep(VB, VC, VD))
    VM_OP(MADD, 2, VB * VC + VD)
    VM_OP(MSUB, 2, VB * VC - VD)
    VM_OP(MSUBR, 2, VD - VB * VC)
    VM_CASE(JMPF)      if (f[i.b] == 0.0) pc = code + i.a; VM_NEXT();
    VM_CASE_ACC(JMPF)  if (acc == 0.0) pc = code + i.a; VM_NEXT();
    VM_CASE(JMP)
    VM_CASE_ACC(JMP)   pc = code + i.a; VM_NEXT();
    VM_CASE(RET)       return f[i.b];
    VM_CASE_ACC(RET)   return acc;
    VM_END
}

#define VM_SMALL 64   /* >= K_BLOCK */

/* Large expressions get their own frame, so the common case does not pay
 * for (or probe) a 32 KiB stack frame. */
static __attribute__((noinline)) double vm_run_big(const rf_expr_t *e, const double *slots, double t)
{
    double f[VM_FRAME_MAX];
    return vm_run(e, slots, t, f);
}

double rf_expr_eval(const rf_expr_t *e, const double *slots, double t)
{
    if (e->nframe <= VM_SMALL) {
        double f[VM_SMALL];
        return vm_run(e, slots, t, f);
    }
    return vm_run_big(e, slots, t);
}

void rf_expr_range(const rf_expr_t *e, double *lo, double *hi)
{
    *lo = e->lo;
    *hi = e->hi;
}

uint32_t rf_expr_deps(const rf_expr_t *e, const uint32_t **slots)
{
    *slots = e->ndeps ? e->deps : NULL;
    return e->ndeps;
}

int rf_expr_uses_time(const rf_expr_t *e)
{
    return e->uses_time;
}

uint32_t rf_expr_depth(const rf_expr_t *e)
{
    return e->depth;
}

/* ---- intervals ----------------------------------------------------------
 * A closed interval of the extended reals. (-inf, +inf) doubles as "may be
 * NaN": every operation that could produce a NaN returns it, and every
 * operation that lets a NaN through treats it so. */

typedef struct iv {
    double lo, hi;
} iv_t;

static const iv_t IV_FULL = {-INFINITY, INFINITY};

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

static iv_t iv_make(double lo, double hi)
{
    if (!(lo <= hi))     /* NaN or empty */
        return IV_FULL;
    iv_t r = {lo, hi};
    return r;
}

static iv_t iv_point(double x)
{
    return iv_make(x, x);
}

static iv_t iv_hull(iv_t a, iv_t b)
{
    return iv_make(fmin(a.lo, b.lo), fmax(a.hi, b.hi));
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

/* The VM evaluates u*u*(3 - 2u) in three roundings; the cubic increases on
 * [0, 1], so endpoints stepped by 8 ulps cover it. */
static double smooth_poly(double u)
{
    return u * u * (3.0 - 2.0 * u);
}

static iv_t iv_smoothstep(iv_t e0, iv_t e1, iv_t x)
{
    iv_t u = iv_clamp(iv_div(iv_sub(x, e0), iv_sub(e1, e0)), iv_point(0.0), iv_point(1.0));
    if (u.lo == u.hi)
        return iv_point(smooth_poly(u.lo));  /* one u: the VM's very roundings */
    return iv_make(fmax(0.0, dnk(smooth_poly(u.lo), 8)), upk(smooth_poly(u.hi), 8));
}

/* The interval image of a pure operator. */
static iv_t iv_apply(int op, const iv_t *a)
{
    switch (op) {
    case OP_NEG: return iv_neg(a[0]);
    case OP_ADD: return iv_add(a[0], a[1]);
    case OP_SUB: return iv_sub(a[0], a[1]);
    case OP_MUL: return iv_mul(a[0], a[1]);
    case OP_DIV: return iv_div(a[0], a[1]);
    case OP_MOD: return iv_mod(a[0], a[1]);
    case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE:
        return iv_cmp(op, a[0], a[1]);
    case OP_MIN: return iv_min(a[0], a[1]);
    case OP_MAX: return iv_max(a[0], a[1]);
    case OP_CLAMP: return iv_clamp(a[0], a[1], a[2]);
    case OP_ABS: return iv_abs(a[0]);
    case OP_FLOOR: return iv_mono_exact(a[0], floor);
    case OP_CEIL: return iv_mono_exact(a[0], ceil);
    case OP_ROUND: return iv_mono_exact(a[0], round);
    case OP_SQRT: return iv_sqrt(a[0]);
    case OP_POW: return iv_pow(a[0], a[1]);
    case OP_EXP: return iv_exp(a[0]);
    case OP_LOG: return iv_log(a[0]);
    case OP_SIN: return iv_trig(a[0], 0);
    case OP_COS: return iv_trig(a[0], 1);
    case OP_TAN: return iv_tan(a[0]);
    case OP_ATAN2: return iv_atan2(a[0], a[1]);
    case OP_MIX: return iv_mix(a[0], a[1], a[2]);
    case OP_STEP: return iv_cmp(OP_GE, a[1], a[0]);
    case OP_SMOOTHSTEP: return iv_smoothstep(a[0], a[1], a[2]);
    case OP_MADD: return iv_add(iv_mul(a[0], a[1]), a[2]);
    case OP_MSUB: return iv_sub(iv_mul(a[0], a[1]), a[2]);
    case OP_MSUBR: return iv_sub(a[2], iv_mul(a[0], a[1]));
    default: return IV_FULL;
    }
}

/* ---- the compiler ------------------------------------------------------- */

enum tok_kind {
    T_END, T_NUM, T_NAME, T_LPAREN, T_RPAREN, T_COMMA, T_QUEST, T_COLON, T_BINOP,
};

typedef struct token {
    int kind;
    size_t pos, len;     /* bytes of src */
    int op;              /* T_BINOP: opcode */
    double num;          /* T_NUM */
    size_t namelen;      /* T_NAME: bytes before a '.component' */
    int comp;            /* T_NAME: RF_EXPR_PLAIN .. RF_EXPR_ANGLE */
} token_t;

/* Operator stack entries. */
enum { E_BIN, E_NEG, E_PAREN, E_CALL, E_QUEST, E_COLON };

typedef struct entry {
    uint8_t kind;
    uint8_t op;          /* E_BIN, E_CALL: opcode */
    uint32_t pos;        /* byte of the token (E_CALL: the function name) */
    uint32_t aux;        /* E_CALL: arguments so far; E_QUEST/E_COLON: jump to patch */
    uint32_t reg;        /* E_QUEST/E_COLON: the register both branches end in */
} entry_t;

/* A value at compile time: what kind of frame entry, and which. */
enum { V_K = 0, V_IN = 1, V_T = 2, V_REG = 3 };
#define VAL(kind, i) (((uint32_t)(kind) << 30) | (uint32_t)(i))
#define VAL_KIND(v) ((v) >> 30)
#define VAL_I(v) ((v) & 0x3fffffffu)

/* An instruction before the frame is laid out (finish() assigns indices). */
typedef struct cins {
    uint8_t op;
    uint32_t a;          /* register written; JMPF, JMP: target (instruction index) */
    uint32_t x[3];       /* operands, as values; JMP: x[0] is the ternary's register */
} cins_t;

typedef struct compiler {
    const char *src;
    size_t len;
    size_t pos;          /* lexer cursor */
    size_t last_end;     /* byte after the last token read */
    unsigned flags;
    rf_expr_resolve_fn resolve;
    void *rctx;
    rf_expr_error_t *err;
    /* scratch, sized from len */
    cins_t *code;
    uint32_t ncode, capcode;
    double *k;
    uint32_t nk, capk;
    uint32_t *deps;
    iv_t *depiv;         /* range of each input, by deps index */
    uint32_t ndeps;
    uint32_t *vals;      /* the value stack: its height is the stack depth */
    uint32_t nvals;
    entry_t *stk;
    uint32_t nstk;
    uint32_t nreg, maxreg;   /* registers in use, and at most */
    uint32_t barrier;    /* fusing never reaches an instruction before this one */
    uint32_t maxdepth;
    int uses_time;
} compiler_t;

/* 1-based column of byte pos, counting UTF-8 code points. */
static int col_of(const char *src, size_t pos)
{
    int col = 1;
    for (size_t i = 0; i < pos; i++)
        if (((unsigned char)src[i] & 0xc0) != 0x80)
            col++;
    return col;
}

static int fail(compiler_t *c, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(compiler_t *c, size_t pos, const char *fmt, ...)
{
    va_list ap;
    c->err->col = col_of(c->src, pos);
    va_start(ap, fmt);
    vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* Quotes a lexeme for a message, shortened when long. */
static const char *show(char *buf, size_t cap, const char *s, size_t n)
{
    if (n > 32)
        snprintf(buf, cap, "%.29s...", s);
    else
        snprintf(buf, cap, "%.*s", (int)n, s);
    return buf;
}

static int is_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static int is_alpha(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static int is_digit(int ch)
{
    return ch >= '0' && ch <= '9';
}

static int peek_ch(const compiler_t *c, size_t at)
{
    return at < c->len ? (unsigned char)c->src[at] : -1;
}

static int lex_number(compiler_t *c, token_t *t)
{
    size_t i = c->pos;
    while (is_digit(peek_ch(c, i)))
        i++;
    if (peek_ch(c, i) == '.') {
        i++;
        while (is_digit(peek_ch(c, i)))
            i++;
    }
    if (peek_ch(c, i) == 'e' || peek_ch(c, i) == 'E') {
        size_t j = i + 1;
        if (peek_ch(c, j) == '+' || peek_ch(c, j) == '-')
            j++;
        if (!is_digit(peek_ch(c, j))) {
            char b[40];
            while (j < c->len && (is_alpha(peek_ch(c, j)) || is_digit(peek_ch(c, j))))
                j++;
            return fail(c, c->pos, "malformed number '%s'",
                        show(b, sizeof b, c->src + c->pos, j - c->pos));
        }
        while (is_digit(peek_ch(c, j)))
            j++;
        i = j;
    }
    size_t n = i - c->pos;
    char stackbuf[64], *buf = stackbuf;
    if (n >= sizeof stackbuf && (buf = malloc(n + 1)) == NULL)
        return fail(c, c->pos, "out of memory");
    memcpy(buf, c->src + c->pos, n);
    buf[n] = '\0';
    t->num = strtod(buf, NULL);
    if (buf != stackbuf)
        free(buf);
    if (!isfinite(t->num)) {
        char b[40];
        return fail(c, c->pos, "number out of range '%s'", show(b, sizeof b, c->src + c->pos, n));
    }
    t->kind = T_NUM;
    t->len = n;
    return 0;
}

static const char *const components[] = {"x", "y", "angle"};

static int lex_name(compiler_t *c, token_t *t)
{
    size_t i = c->pos;
    while (i < c->len && (is_alpha(peek_ch(c, i)) || is_digit(peek_ch(c, i))))
        i++;
    t->kind = T_NAME;
    t->namelen = i - c->pos;
    t->comp = RF_EXPR_PLAIN;
    if (peek_ch(c, i) == '.' && is_alpha(peek_ch(c, i + 1))) {
        size_t j = i + 1;
        while (j < c->len && (is_alpha(peek_ch(c, j)) || is_digit(peek_ch(c, j))))
            j++;
        const char *cs = c->src + i + 1;
        size_t cn = j - i - 1;
        for (int k = 0; k < 3; k++)
            if (strlen(components[k]) == cn && memcmp(cs, components[k], cn) == 0)
                t->comp = k + 1;
        if (t->comp == RF_EXPR_PLAIN) {
            char word[40], b[40];
            const char *dym = NULL;
            if (cn < sizeof word) {
                memcpy(word, cs, cn);
                word[cn] = '\0';
                dym = rf_did_you_mean(word, components, 3);
            }
            show(b, sizeof b, cs, cn);
            if (dym != NULL)
                return fail(c, i, "unknown component '.%s' (did you mean '.%s'?)", b, dym);
            return fail(c, i, "unknown component '.%s': a path sample has .x, .y and .angle", b);
        }
        i = j;
    }
    t->len = i - c->pos;
    return 0;
}

/* Reads the next token into *t; -1 on a lexical error. */
static int lex(compiler_t *c, token_t *t)
{
    while (c->pos < c->len && is_space((unsigned char)c->src[c->pos]))
        c->pos++;
    memset(t, 0, sizeof *t);
    t->pos = c->pos;
    if (c->pos >= c->len) {
        t->kind = T_END;
        return 0;
    }
    int ch = (unsigned char)c->src[c->pos], next = peek_ch(c, c->pos + 1);
    int r = 0;
    t->len = 1;
    if (is_digit(ch) || (ch == '.' && is_digit(next))) {
        r = lex_number(c, t);
    } else if (is_alpha(ch)) {
        r = lex_name(c, t);
    } else {
        t->kind = T_BINOP;
        switch (ch) {
        case '(': t->kind = T_LPAREN; break;
        case ')': t->kind = T_RPAREN; break;
        case ',': t->kind = T_COMMA; break;
        case '?': t->kind = T_QUEST; break;
        case ':': t->kind = T_COLON; break;
        case '+': t->op = OP_ADD; break;
        case '-': t->op = OP_SUB; break;
        case '*': t->op = OP_MUL; break;
        case '/': t->op = OP_DIV; break;
        case '%': t->op = OP_MOD; break;
        case '<': t->op = next == '=' ? OP_LE : OP_LT; t->len = 1 + (next == '='); break;
        case '>': t->op = next == '=' ? OP_GE : OP_GT; t->len = 1 + (next == '='); break;
        case '=':
            if (next != '=')
                return fail(c, c->pos, "unexpected '=' (did you mean '=='?)");
            t->op = OP_EQ;
            t->len = 2;
            break;
        case '!':
            if (next != '=')
                return fail(c, c->pos, "unexpected '!' (there is no '!': compare with == 0)");
            t->op = OP_NE;
            t->len = 2;
            break;
        case '^':
            return fail(c, c->pos, "unexpected '^' (there is no power operator: use pow(a, b))");
        default:
            if (ch >= 0x80) {
                size_t n = 1;
                while (n < 4 && ((unsigned char)peek_ch(c, c->pos + n) & 0xc0) == 0x80 &&
                       c->pos + n < c->len)
                    n++;
                return fail(c, c->pos, "unexpected character '%.*s'", (int)n, c->src + c->pos);
            }
            if (ch < 0x20 || ch == 0x7f)
                return fail(c, c->pos, "unexpected control character 0x%02x", (unsigned)ch);
            return fail(c, c->pos, "unexpected character '%c'", ch);
        }
    }
    if (r != 0)
        return r;
    c->pos += t->len;
    c->last_end = c->pos;
    return 0;
}

/* The function called name[0..n), or -1. */
static int find_function(const char *name, size_t n)
{
    for (int op = 0; op < OP_COUNT; op++)
        if (ops[op].fn != NULL && strlen(ops[op].fn) == n && memcmp(ops[op].fn, name, n) == 0)
            return op;
    return -1;
}

static const char *suggest_function(const char *name, size_t n)
{
    const char *cands[OP_COUNT];
    size_t nc = 0;
    char word[40];
    if (n >= sizeof word)
        return NULL;
    memcpy(word, name, n);
    word[n] = '\0';
    for (int op = 0; op < OP_COUNT; op++)
        if (ops[op].fn != NULL)
            cands[nc++] = ops[op].fn;
    return rf_did_you_mean(word, cands, nc);
}

/* Pushes a value. The value stack is a stack machine's stack, so its
 * height is the depth rf_expr_depth() reports and RF_EXPR_MAX_DEPTH bounds. */
static int push_val(compiler_t *c, uint32_t v)
{
    if (c->nvals >= c->len + 1)
        return fail(c, 0, "internal error: value stack full");
    c->vals[c->nvals++] = v;
    if (c->nvals > c->maxdepth)
        c->maxdepth = c->nvals;
    return 0;
}

/* Marks register r as used (the frame is sized from the largest). */
static uint32_t use_reg(compiler_t *c, uint32_t r)
{
    if (r + 1 > c->maxreg)
        c->maxreg = r + 1;
    return VAL(V_REG, r);
}

/* Pops n values into v[] (oldest first) and frees their registers: the
 * registers of the newest values are always the highest in use. */
static void pop_vals(compiler_t *c, uint32_t n, uint32_t *v)
{
    c->nvals -= n;
    for (uint32_t i = 0; i < n; i++) {
        v[i] = c->vals[c->nvals + i];
        if (VAL_KIND(v[i]) == V_REG)
            c->nreg--;
    }
}

/* x + y or x - y where one of them is the product the last instruction
 * just wrote: rewrites that MUL into one MADD, MSUB or MSUBR writing r
 * (its operands still hold their values: nothing ran in between). Never
 * across a jump target, where the MUL would not always run first. */
static int fuse_mul(compiler_t *c, int op, uint32_t r, const uint32_t *v)
{
    if (c->ncode == 0 || c->ncode - 1 < c->barrier)
        return 0;
    cins_t *last = &c->code[c->ncode - 1];
    if (last->op != OP_MUL)
        return 0;
    int left = v[0] == VAL(V_REG, last->a), right = v[1] == VAL(V_REG, last->a);
    if (!left && !right)
        return 0;
    last->x[2] = left ? v[1] : v[0];
    last->op = op == OP_ADD ? OP_MADD : left ? OP_MSUB : OP_MSUBR;
    last->a = r;
    return 1;
}

/* THE emit function. An operator pops its arguments and either folds them
 * (all constants) or becomes one instruction writing the lowest free
 * register, whose value it pushes. The others:
 *   JMPF  pops the condition (the target is patched later)
 *   JMP   ends a then branch; reg is the ternary's register
 *   MOVE  pops a branch's value into the ternary's register reg; a value
 *         an instruction computed is there already (the lowest free
 *         register), so only a number, an input or t is moved
 *   RET   pops the result */
static int emit(compiler_t *c, int op, uint32_t reg)
{
    uint32_t n = ops[op].nargs, v[3] = {0, 0, 0}, a = 0;
    pop_vals(c, n, v);
    switch (op) {
    case OP_JMPF:
    case OP_RET:
        break;
    case OP_JMP:
        v[0] = VAL(V_REG, reg);
        break;
    case OP_MOVE:
        if (VAL_KIND(v[0]) == V_REG)
            return 0;
        a = reg;
        use_reg(c, a);
        break;
    default:
        if (!(c->flags & RF_EXPR_NOFOLD) && op_foldable(op)) {
            double args[3];
            uint32_t i;
            for (i = 0; i < n && VAL_KIND(v[i]) == V_K; i++)
                args[i] = c->k[VAL_I(v[i])];
            if (i == n) {
                if (c->nk >= c->capk)
                    return fail(c, 0, "internal error: constant pool full");
                c->k[c->nk] = op_apply(op, args);
                return push_val(c, VAL(V_K, c->nk++));
            }
        }
        a = c->nreg++;
        use_reg(c, a);
        if ((op == OP_ADD || op == OP_SUB) && fuse_mul(c, op, a, v))
            return push_val(c, VAL(V_REG, a));
        break;
    }
    if (c->ncode >= c->capcode)
        return fail(c, 0, "internal error: code buffer full");
    cins_t *in = &c->code[c->ncode++];
    in->op = (uint8_t)op;
    in->a = a;
    memcpy(in->x, v, sizeof in->x);
    if (op == OP_JMPF || op == OP_JMP || op == OP_MOVE || op == OP_RET)
        return 0;
    return push_val(c, VAL(V_REG, a));
}

static int push(compiler_t *c, int kind, int op, size_t pos, uint32_t aux)
{
    if (c->nstk >= c->len + 1)
        return fail(c, pos, "internal error: operator stack full");
    entry_t *e = &c->stk[c->nstk++];
    e->kind = (uint8_t)kind;
    e->op = (uint8_t)op;
    e->pos = (uint32_t)pos;
    e->aux = aux;
    e->reg = 0;
    return 0;
}

/* Points the jump at code[at] to the current end of code: a jump target,
 * so fusing may not reach back over it. */
static void patch(compiler_t *c, uint32_t at)
{
    c->code[at].a = c->ncode;
    c->barrier = c->ncode;
}

/* Closes a ternary: the else value joins the then value in e->reg. */
static int close_ternary(compiler_t *c, const entry_t *e)
{
    if (emit(c, OP_MOVE, e->reg))
        return -1;
    patch(c, e->aux);
    c->nreg = e->reg + 1;
    return push_val(c, use_reg(c, e->reg));
}

/* Pops and emits infix operators binding at least min_prec and unary
 * minuses; with colons, also closes finished ternaries. */
static int reduce(compiler_t *c, int min_prec, int colons)
{
    while (c->nstk > 0) {
        entry_t *e = &c->stk[c->nstk - 1];
        if (e->kind == E_BIN && ops[e->op].prec >= min_prec) {
            if (emit(c, e->op, 0))
                return -1;
        } else if (e->kind == E_NEG) {
            if (emit(c, OP_NEG, 0))
                return -1;
        } else if (colons && e->kind == E_COLON) {
            if (close_ternary(c, e))
                return -1;
        } else {
            break;
        }
        c->nstk--;
    }
    return 0;
}

static int emit_const(compiler_t *c, double v)
{
    if (c->nk >= c->capk)
        return fail(c, 0, "internal error: constant pool full");
    c->k[c->nk] = v;
    return push_val(c, VAL(V_K, c->nk++));
}

/* A name in operand position: a call, t, or an input through the resolver.
 * Sets *operand to 1 when the call still expects its first argument. */
static int operand_name(compiler_t *c, const token_t *t, int *operand)
{
    const char *name = c->src + t->pos;
    size_t n = t->namelen, la = c->pos;
    char b[40];
    while (la < c->len && is_space((unsigned char)c->src[la]))
        la++;
    *operand = 0;
    if (t->comp == RF_EXPR_PLAIN && peek_ch(c, la) == '(') {
        int op = find_function(name, n);
        if (op < 0) {
            const char *dym = suggest_function(name, n);
            show(b, sizeof b, name, n);
            if (dym != NULL)
                return fail(c, t->pos, "unknown function '%s' (did you mean '%s'?)", b, dym);
            return fail(c, t->pos, "unknown function '%s'", b);
        }
        c->pos = c->last_end = la + 1;
        *operand = 1;
        return push(c, E_CALL, op, t->pos, 0);
    }
    if (n == 1 && name[0] == 't') {
        if (t->comp != RF_EXPR_PLAIN)
            return fail(c, t->pos + 1, "'t' is the time in seconds: it has no '.%s'",
                        components[t->comp - 1]);
        c->uses_time = 1;
        return push_val(c, VAL(V_T, 0));
    }
    if (find_function(name, n) >= 0) {
        show(b, sizeof b, name, n);
        return fail(c, t->pos, "'%s' is a function: call it as %s(...)", b, b);
    }
    rf_expr_ref_t ref = {0, -INFINITY, INFINITY};
    char msg[RF_EXPR_ERR_MSG];
    msg[0] = '\0';
    if (c->resolve == NULL ||
        c->resolve(c->rctx, name, n, t->comp, &ref, msg, sizeof msg) != 0) {
        msg[sizeof msg - 1] = '\0';
        if (msg[0] == '\0' || c->resolve == NULL)
            return fail(c, t->pos, "unknown value '%s'", show(b, sizeof b, name, n));
        return fail(c, t->pos, "%s", msg);
    }
    if (ref.slot > MAX_OPERAND)
        return fail(c, t->pos, "input slot %u is out of range", (unsigned)ref.slot);
    uint32_t i;
    for (i = 0; i < c->ndeps && c->deps[i] != ref.slot; i++)
        ;
    iv_t r = iv_make(ref.lo, ref.hi);
    if (i == c->ndeps) {
        c->deps[c->ndeps++] = ref.slot;
        c->depiv[i] = r;
    } else {
        c->depiv[i] = iv_hull(c->depiv[i], r);   /* one slot, two ranges: both hold */
    }
    return push_val(c, VAL(V_IN, i));
}

/* Closes a call at ')': checks the arity, emits the function. */
static int finish_call(compiler_t *c, const entry_t *e, uint32_t argc)
{
    unsigned want = ops[e->op].nargs;
    if (argc != want)
        return fail(c, e->pos, "%s() takes %u argument%s, got %u", ops[e->op].fn, want,
                    want == 1 ? "" : "s", (unsigned)argc);
    return emit(c, e->op, 0);
}

/* The innermost open bracket or ternary on the stack, or NULL. */
static const entry_t *innermost(const compiler_t *c)
{
    for (uint32_t i = c->nstk; i-- > 0;)
        if (c->stk[i].kind != E_BIN && c->stk[i].kind != E_NEG)
            return &c->stk[i];
    return NULL;
}

static int unexpected(compiler_t *c, const token_t *t)
{
    char b[40];
    if (t->kind == T_END)
        return fail(c, c->last_end, "unexpected end of expression");
    return fail(c, t->pos, "unexpected '%s'", show(b, sizeof b, c->src + t->pos, t->len));
}

static int parse(compiler_t *c)
{
    int operand = 1;
    for (;;) {
        token_t t;
        entry_t *top;
        if (lex(c, &t))
            return -1;
        top = c->nstk > 0 ? &c->stk[c->nstk - 1] : NULL;
        if (operand) {
            switch (t.kind) {
            case T_NUM:
                if (emit_const(c, t.num))
                    return -1;
                operand = 0;
                break;
            case T_NAME:
                if (operand_name(c, &t, &operand))
                    return -1;
                break;
            case T_LPAREN:
                if (push(c, E_PAREN, 0, t.pos, 0))
                    return -1;
                break;
            case T_BINOP:
                if (t.op != OP_SUB)
                    return unexpected(c, &t);
                if (push(c, E_NEG, 0, t.pos, 0))
                    return -1;
                break;
            case T_RPAREN:
                if (top != NULL && top->kind == E_CALL && top->aux == 0)
                    return finish_call(c, top, 0);   /* always an arity error */
                return unexpected(c, &t);
            case T_END:
                if (c->ncode == 0 && c->nstk == 0)
                    return fail(c, 0, "empty expression");
                return unexpected(c, &t);
            default:
                return unexpected(c, &t);
            }
            continue;
        }
        switch (t.kind) {
        case T_BINOP:
            if (reduce(c, ops[t.op].prec, 0) || push(c, E_BIN, t.op, t.pos, 0))
                return -1;
            operand = 1;
            break;
        case T_QUEST:
            if (reduce(c, 1, 0) || emit(c, OP_JMPF, 0) ||
                push(c, E_QUEST, 0, t.pos, c->ncode - 1))
                return -1;
            c->stk[c->nstk - 1].reg = c->nreg;   /* the lowest free register */
            operand = 1;
            break;
        case T_COLON:
            if (reduce(c, 1, 1))
                return -1;
            top = c->nstk > 0 ? &c->stk[c->nstk - 1] : NULL;
            if (top == NULL || top->kind != E_QUEST)
                return unexpected(c, &t);
            if (emit(c, OP_MOVE, top->reg) || emit(c, OP_JMP, top->reg))
                return -1;
            patch(c, top->aux);      /* the else branch starts with the same registers */
            top->kind = E_COLON;
            top->aux = c->ncode - 1;
            operand = 1;
            break;
        case T_COMMA:
        case T_RPAREN:
        case T_END:
            if (reduce(c, 1, 1))
                return -1;
            top = c->nstk > 0 ? &c->stk[c->nstk - 1] : NULL;
            if (top != NULL && top->kind == E_QUEST)
                return fail(c, t.kind == T_END ? c->last_end : t.pos, "expected ':'");
            if (t.kind == T_END) {
                if (top != NULL)
                    return fail(c, c->last_end, "expected ')'");
                return 0;
            }
            if (t.kind == T_COMMA) {
                if (top == NULL || top->kind != E_CALL)
                    return unexpected(c, &t);
                top->aux++;
                operand = 1;
                break;
            }
            if (top == NULL)
                return unexpected(c, &t);
            if (top->kind == E_CALL && finish_call(c, top, top->aux + 1))
                return -1;
            c->nstk--;               /* the '(' or the call */
            break;
        default: {                   /* an operand where an operator belongs */
            const entry_t *in = innermost(c);
            if (in != NULL && in->kind == E_PAREN)
                return fail(c, t.pos, "expected ')'");
            if (in != NULL && in->kind == E_CALL)
                return fail(c, t.pos, "expected ',' or ')'");
            return unexpected(c, &t);
        }
        }
    }
}

/* ---- bounds: the bytecode over intervals --------------------------------- */

typedef struct join {
    uint32_t target;     /* where the then value waits for the else value */
    uint32_t reg;        /* the frame entry both branches write */
    iv_t v;
} join_t;

/* Runs the code once over a frame of intervals. An undecided JMPF records
 * its JMP (at its target - 1); reaching that JMP parks the then value and
 * falls into the else branch, and the parked value joins the ternary's
 * register at the JMP's target. (Registers above it are temporaries of
 * the branches, dead after the join; those below it neither branch writes.) */
static iv_t analyze(const ins_t *code, iv_t *f, join_t *joins, uint32_t *splits)
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
            if (ops[i.op].nargs == 3)
                args[2] = f[code[pc + 1].a];
            f[i.a] = iv_apply(i.op, args);
            pc += INS_WIDTH(i.op);
            break;
        }
        }
    }
}

/* ---- compile ------------------------------------------------------------- */

/* Constants the code still reads, each bit pattern once: a hash from the
 * pool index to the compacted index. */
static int compact_constants(compiler_t *c, uint32_t *map, uint32_t *nk_out, double *kout)
{
    uint32_t cap = 16;
    while (cap < 2 * c->nk + 2)
        cap *= 2;
    uint32_t *slot = malloc((size_t)cap * sizeof *slot);
    if (slot == NULL)
        return -1;
    for (uint32_t i = 0; i < cap; i++)
        slot[i] = UINT32_MAX;
    for (uint32_t i = 0; i < c->nk; i++)
        map[i] = UINT32_MAX;
    uint32_t nk = 0;
    for (uint32_t pc = 0; pc < c->ncode; pc++)
        for (int j = 0; j < 3; j++) {
            uint32_t v = c->code[pc].x[j];
            if (j >= ops[c->code[pc].op].nargs || VAL_KIND(v) != V_K || map[VAL_I(v)] != UINT32_MAX)
                continue;
            double x = c->k[VAL_I(v)];
            uint64_t bits;
            memcpy(&bits, &x, sizeof bits);
            bits ^= bits >> 29;
            bits *= 0x9e3779b97f4a7c15u;
            uint32_t h = (uint32_t)(bits >> 32) & (cap - 1);
            while (slot[h] != UINT32_MAX && memcmp(&kout[slot[h]], &x, sizeof x) != 0)
                h = (h + 1) & (cap - 1);
            if (slot[h] == UINT32_MAX) {
                slot[h] = nk;
                kout[nk++] = x;
            }
            map[VAL_I(v)] = slot[h];
        }
    free(slot);
    *nk_out = nk;
    return 0;
}

static int commutative(int op)
{
    return op == OP_ADD || op == OP_MUL || op == OP_EQ || op == OP_NE ||
           op == OP_MADD || op == OP_MSUB || op == OP_MSUBR;   /* b * c */
}

/* The accumulator: an instruction whose first operand is what the
 * instruction just before it wrote, where no jump lands, reads it from the
 * VM's acc local instead of the frame, taking a store-to-load round trip
 * off the expression's dependency chain. A commutative operation swaps its
 * operands to get there (exact: IEEE + and * commute). Nothing else
 * changes, so the range analysis, which runs before this, stays valid. */
static void use_acc(ins_t *code, uint32_t nwords, unsigned char *target)
{
    memset(target, 0, nwords + 1);
    for (uint32_t pc = 0; pc < nwords; pc += INS_WIDTH(code[pc].op))
        if (code[pc].op == OP_JMPF || code[pc].op == OP_JMP)
            target[code[pc].a] = 1;
    uint32_t prev = UINT32_MAX;   /* the instruction just before, if it wrote a value */
    for (uint32_t pc = 0; pc < nwords; pc += INS_WIDTH(code[pc].op)) {
        ins_t *in = &code[pc];
        int op = in->op;
        if (prev != UINT32_MAX && !target[pc] && op != OP_JMP) {
            uint16_t r = code[prev].a;
            if (in->b != r && commutative(op) && in->c == r) {
                in->c = in->b;
                in->b = r;
            }
            if (in->b == r)
                in->op = (uint16_t)OP_ACC(op);
        }
        prev = op == OP_JMPF || op == OP_JMP || op == OP_RET ? UINT32_MAX : pc;
    }
}

/* Lays out the frame, assembles the final code, bounds it, publishes it. */
static int finish(compiler_t *c, double t_lo, double t_hi, rf_expr_alloc_fn alloc, void *actx,
                  rf_expr_t **out)
{
    if (c->maxdepth > RF_EXPR_MAX_DEPTH)
        return fail(c, 0, "expression too deeply nested (stack depth %u, the limit is %u)",
                    (unsigned)c->maxdepth, (unsigned)RF_EXPR_MAX_DEPTH);
    int r = -1;
    uint32_t nk = 0, nwords = 0;
    uint32_t *kmap = malloc(((size_t)c->nk + 1) * sizeof *kmap);
    double *k = malloc(((size_t)c->nk + 1) * sizeof *k);
    uint32_t *pcmap = malloc(((size_t)c->ncode + 1) * sizeof *pcmap);
    ins_t *code = malloc(2 * (size_t)c->ncode * sizeof *code);
    iv_t *fiv = NULL;
    unsigned char *target = NULL;
    join_t *joins = malloc((size_t)c->ncode * sizeof *joins);
    uint32_t *splits = malloc((size_t)c->ncode * sizeof *splits);
    if (kmap == NULL || k == NULL || pcmap == NULL || code == NULL || joins == NULL ||
        splits == NULL || compact_constants(c, kmap, &nk, k) != 0) {
        fail(c, 0, "out of memory");
        goto done;
    }
    uint64_t nframe = (uint64_t)nk + c->ndeps + 1 + c->maxreg;
    for (uint32_t pc = 0; pc < c->ncode; pc++) {
        pcmap[pc] = nwords;
        nwords += INS_WIDTH(c->code[pc].op);
    }
    pcmap[c->ncode] = nwords;
    /* Only sources longer than RF_MAX_EXPR_BYTES (rf_expr_compile_ex) get here. */
    if (nframe > VM_FRAME_MAX) {
        fail(c, 0, "expression too large (%llu constants, inputs and registers, the limit is %u)",
             (unsigned long long)nframe, (unsigned)VM_FRAME_MAX);
        goto done;
    }
    if (nwords > MAX_CODE) {
        fail(c, 0, "expression too large (%u instruction words, the limit is %u)",
             (unsigned)nwords, (unsigned)MAX_CODE);
        goto done;
    }
    /* frame indices: [constants | inputs | t | registers] */
    uint32_t base_in = nk, at_t = nk + c->ndeps, base_reg = at_t + 1;
    for (uint32_t pc = 0; pc < c->ncode; pc++) {
        const cins_t *ci = &c->code[pc];
        uint16_t x[3] = {0, 0, 0};
        for (uint32_t j = 0; j < 3; j++) {
            uint32_t v = ci->x[j], i = VAL_I(v);
            if (j >= ops[ci->op].nargs && !(ci->op == OP_JMP && j == 0))
                continue;
            switch (VAL_KIND(v)) {
            case V_K: x[j] = (uint16_t)kmap[i]; break;
            case V_IN: x[j] = (uint16_t)(base_in + i); break;
            case V_T: x[j] = (uint16_t)at_t; break;
            default: x[j] = (uint16_t)(base_reg + i); break;
            }
        }
        ins_t *w = &code[pcmap[pc]];
        w->op = ci->op;
        w->a = (uint16_t)(ci->op == OP_JMPF || ci->op == OP_JMP ? pcmap[ci->a] :
                          ci->op == OP_RET ? 0 : base_reg + ci->a);
        w->b = x[0];
        w->c = x[1];
        if (INS_WIDTH(ci->op) == 2) {
            memset(&w[1], 0, sizeof w[1]);
            w[1].a = x[2];
        }
    }

    fiv = malloc((size_t)nframe * sizeof *fiv);
    target = malloc((size_t)nwords + 1);
    if (fiv == NULL || target == NULL) {
        fail(c, 0, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < nk; i++)
        fiv[i] = iv_point(k[i]);
    for (uint32_t i = 0; i < c->ndeps; i++)
        fiv[base_in + i] = c->depiv[i];
    fiv[at_t] = iv_make(t_lo, t_hi);
    for (uint32_t i = base_reg; i < nframe; i++)
        fiv[i] = IV_FULL;
    iv_t range = analyze(code, fiv, joins, splits);
    use_acc(code, nwords, target);

    uint32_t nkpad = nk < K_BLOCK ? K_BLOCK : nk;
    size_t size = sizeof(rf_expr_t) + (size_t)nkpad * sizeof(double) +
                  (size_t)nwords * sizeof(ins_t) + (size_t)c->ndeps * sizeof(uint32_t);
    unsigned char *mem = alloc(actx, size);
    if (mem == NULL) {
        fail(c, 0, "out of memory");
        goto done;
    }
    rf_expr_t *e = (rf_expr_t *)mem;
    double *ek = (double *)(mem + sizeof *e);
    ins_t *ecode = (ins_t *)(ek + nkpad);
    uint32_t *edeps = (uint32_t *)(ecode + nwords);
    memcpy(ek, k, (size_t)nk * sizeof *ek);
    for (uint32_t i = nk; i < nkpad; i++)
        ek[i] = 0.0;
    memcpy(ecode, code, (size_t)nwords * sizeof *ecode);
    memcpy(edeps, c->deps, (size_t)c->ndeps * sizeof *edeps);
    e->code = ecode;
    e->k = ek;
    e->deps = edeps;
    e->ncode = nwords;
    e->nk = nk;
    e->ndeps = c->ndeps;
    e->nframe = (uint32_t)nframe;
    e->depth = c->maxdepth;
    e->uses_time = c->uses_time;
    e->lo = range.lo;
    e->hi = range.hi;
    *out = e;
    r = 0;
done:
    free(kmap);
    free(k);
    free(pcmap);
    free(code);
    free(fiv);
    free(target);
    free(joins);
    free(splits);
    return r;
}

int rf_expr_compile_ex(const char *src, size_t len, double t_lo, double t_hi,
                       rf_expr_resolve_fn resolve, void *rctx,
                       rf_expr_alloc_fn alloc, void *actx,
                       size_t max_bytes, unsigned flags,
                       rf_expr_t **out, rf_expr_error_t *err)
{
    compiler_t c;
    int r;
    memset(&c, 0, sizeof c);
    c.src = src;
    c.len = len;
    c.flags = flags;
    c.resolve = resolve;
    c.rctx = rctx;
    c.err = err;
    err->col = 0;
    err->msg[0] = '\0';
    *out = NULL;
    if (len > max_bytes)
        return fail(&c, max_bytes, "expression too long: %zu bytes (the limit is %zu)",
                    len, max_bytes);
    if (len >= MAX_OPERAND)
        return fail(&c, MAX_OPERAND, "expression too long: %zu bytes", len);
    c.capcode = (uint32_t)len + 2;           /* one instruction a token at most, and RET */
    c.capk = 2 * (uint32_t)len + 2;          /* a constant a token or a fold */
    c.code = malloc((size_t)c.capcode * sizeof *c.code);
    c.k = malloc((size_t)c.capk * sizeof *c.k);
    c.deps = malloc(((size_t)len + 1) * sizeof *c.deps);
    c.depiv = malloc(((size_t)len + 1) * sizeof *c.depiv);
    c.vals = malloc(((size_t)len + 1) * sizeof *c.vals);
    c.stk = malloc(((size_t)len + 1) * sizeof *c.stk);
    if (c.code == NULL || c.k == NULL || c.deps == NULL || c.depiv == NULL || c.vals == NULL ||
        c.stk == NULL) {
        r = fail(&c, 0, "out of memory");
    } else {
        r = parse(&c);
    }
    if (r == 0)
        r = emit(&c, OP_RET, 0);
    if (r == 0)
        r = finish(&c, t_lo, t_hi, alloc, actx, out);
    free(c.code);
    free(c.k);
    free(c.deps);
    free(c.depiv);
    free(c.vals);
    free(c.stk);
    return r;
}

int rf_expr_compile(const char *src, size_t len, double t_lo, double t_hi,
                    rf_expr_resolve_fn resolve, void *rctx,
                    rf_expr_alloc_fn alloc, void *actx,
                    rf_expr_t **out, rf_expr_error_t *err)
{
    return rf_expr_compile_ex(src, len, t_lo, t_hi, resolve, rctx, alloc, actx,
                              RF_MAX_EXPR_BYTES, 0, out, err);
}

/* ---- text ---------------------------------------------------------------- */

typedef struct sbuf {
    char *buf;
    size_t cap, len;
} sbuf_t;

static void sb_put(sbuf_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* snprintf-like appending: counts what it could not store. */
static void sb_put(sbuf_t *s, const char *fmt, ...)
{
    va_list ap;
    size_t room = s->len < s->cap ? s->cap - s->len : 0;
    va_start(ap, fmt);
    int n = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        s->len += (size_t)n;
}

static void sb_char(sbuf_t *s, char ch)
{
    if (s->len + 1 < s->cap) {
        s->buf[s->len] = ch;
        s->buf[s->len + 1] = '\0';
    }
    s->len++;
}

/* Shortest %.*g that reads back as x. */
static void sb_num(sbuf_t *s, double x)
{
    char tmp[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, x);
        if (prec == 17 || strtod(tmp, NULL) == x)
            break;
    }
    sb_put(s, "%s", tmp);
}

/* One operand: a constant by value, an input by slot (s3), t, a register (r0). */
static void sb_operand(sbuf_t *s, const rf_expr_t *e, uint32_t f)
{
    if (f < e->nk)
        sb_num(s, e->k[f]);
    else if (f < e->nk + e->ndeps)
        sb_put(s, "s%u", (unsigned)e->deps[f - e->nk]);
    else if (f == e->nk + e->ndeps)
        sb_put(s, "t");
    else
        sb_put(s, "r%u", (unsigned)(f - e->nk - e->ndeps - 1));
}

/* "PC OP dest operands" ("JMPF cond target", "JMP target", "RET value");
 * a two-word instruction's next PC is PC + 2. Operands are shown in the
 * order the VM reads them (a commutative one may have been swapped for the
 * accumulator); the accumulator mode itself is not shown: it changes
 * where the VM finds a value, not which value. */
size_t rf_expr_dump(const rf_expr_t *e, char *buf, size_t cap)
{
    sbuf_t s = {buf, cap, 0};
    if (cap > 0)
        buf[0] = '\0';
    for (uint32_t pc = 0; pc < e->ncode; pc += INS_WIDTH(e->code[pc].op)) {
        ins_t i = e->code[pc];
        uint32_t x[3] = {i.b, i.c, 0};
        i.op = (uint16_t)OP_BASE(i.op);   /* where b is read from is not shown */
        sb_put(&s, "%u %s", (unsigned)pc, ops[i.op].name);
        if (i.op == OP_JMP) {
            sb_put(&s, " %u", (unsigned)i.a);
        } else if (i.op == OP_JMPF) {
            sb_char(&s, ' ');
            sb_operand(&s, e, i.b);
            sb_put(&s, " %u", (unsigned)i.a);
        } else {
            if (INS_WIDTH(i.op) == 2)
                x[2] = e->code[pc + 1].a;
            if (i.op != OP_RET) {
                sb_char(&s, ' ');
                sb_operand(&s, e, i.a);
            }
            for (uint32_t j = 0; j < ops[i.op].nargs; j++) {
                sb_char(&s, ' ');
                sb_operand(&s, e, x[j]);
            }
        }
        sb_char(&s, '\n');
    }
    return s.len;
}


#define CARET_INDENT "    "
#define CARET_WIDTH 72

/* Bytes of the code point starting at src[i]. */
static size_t cp_len(const char *src, size_t len, size_t i)
{
    size_t n = 1;
    while (i + n < len && ((unsigned char)src[i + n] & 0xc0) == 0x80 && n < 4)
        n++;
    return n;
}

size_t rf_expr_caret(const char *src, size_t len, int col, char *buf, size_t cap)
{
    sbuf_t s = {buf, cap, 0};
    size_t ncols = 0;
    if (cap > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < len; i += cp_len(src, len, i))
        ncols++;
    size_t at = col < 1 ? 0 : (size_t)col - 1;     /* 0-based caret column */
    if (at > ncols)
        at = ncols;
    size_t first = 0, last = ncols;                /* shown columns [first, last) */
    if (ncols > CARET_WIDTH) {
        first = at > CARET_WIDTH / 2 ? at - CARET_WIDTH / 2 : 0;
        last = first + CARET_WIDTH;
        if (last > ncols) {
            last = ncols;
            first = ncols - CARET_WIDTH;
        }
    }
    sb_put(&s, CARET_INDENT "%s", first > 0 ? "..." : "");
    size_t colno = 0;
    for (size_t i = 0; i < len && colno < last; colno++) {
        size_t n = cp_len(src, len, i);
        if (colno >= first) {
            unsigned char ch = (unsigned char)src[i];
            if (ch < 0x20 || ch == 0x7f)
                sb_char(&s, ' ');
            else
                sb_put(&s, "%.*s", (int)n, src + i);
        }
        i += n;
    }
    if (last < ncols)
        sb_put(&s, "...");
    sb_put(&s, "\n" CARET_INDENT "%*s^", (int)((first > 0 ? 3 : 0) + at - first), "");
    return s.len;
}
