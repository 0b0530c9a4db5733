/* expr-int.h - what the expression modules share, and no one else sees.
 *
 * Owns: the opcode enum and info table generated from expr-op.h, the
 * instruction word, struct rf_expr (the compiled form), the scalar helpers
 * the opcode table's value column uses (so the VM and the constant folder
 * compile the same text), and the interval type with the entry point of
 * the range analysis. Included only by src/expr-*.c.
 * Thread-safety: types and pure inline functions only.
 *
 * The modules: expr-compile.c (lexer, shunting-yard parser, emitter,
 * folder, frame layout), expr-vm.c (rf_expr_eval and the accessors),
 * expr-bounds.c (interval arithmetic and the bytecode run over intervals),
 * expr-text.c (rf_expr_dump).
 */
#ifndef RF_EXPR_INT_H
#define RF_EXPR_INT_H

#include <math.h>
#include <stdint.h>

#include "expr-op.h"
#include "expr.h"

/* One rounding per operation, as written: the folder, the VM and the range
 * analysis must agree bit for bit (gcc -std=c11 never contracts; clang
 * would fuse a*b+c into an fma by default). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* Kinds of the opcode table (expr-op.h). */
enum { OPK_FOLD = 1, OPK_VM = 2, OPK_CTRL = 3 };

enum {
#define X(name, nargs, prec, fn, kind, value, bounds) OP_##name,
    RF_EXPR_OPCODES(X)
#undef X
    OP_COUNT
};

typedef struct rf_expr_opinfo {
    const char *name;   /* for rf_expr_dump */
    uint8_t nargs;
    uint8_t prec;
    uint8_t kind;       /* OPK_* */
    const char *fn;
} rf_expr_opinfo_t;

/* Indexed by opcode (defined in expr-compile.c). */
extern const rf_expr_opinfo_t rf_expr_ops[OP_COUNT];

/* 16-bit fields, so each is one zero-extending load, no shifts. */
typedef struct ins {
    uint16_t op, a, b, c;
} ins_t;

/* Words an instruction takes: two when it has a third operand. */
#define INS_WIDTH(op) (rf_expr_ops[(op) % OP_COUNT].nargs == 3 ? 2u : 1u)

/* An instruction with its first operand in acc (see use_acc). */
#define OP_ACC(op) ((op) + OP_COUNT)
#define OP_BASE(op) ((op) >= OP_COUNT ? (op) - OP_COUNT : (op))

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

/* ---- scalar semantics shared by the VM and the constant folder ----------
 * (and by the range analysis, which must know the VM's very roundings). */

/* fmin and fmax, with the choice C leaves open fixed: when the operands
 * compare equal (+0 and -0) the result is b. libm's and the compiler's
 * inline expansions disagree there, and the folder must match the VM. */
static inline double fn_min(double a, double b)
{
    return isnan(b) || a < b ? a : b;
}

static inline double fn_max(double a, double b)
{
    return isnan(b) || a > b ? a : b;
}

static inline double fn_clamp(double x, double lo, double hi)
{
    return fn_min(fn_max(x, lo), hi);
}

static inline double fn_mix(double a, double b, double t)
{
    return a + (b - a) * t;
}

static inline double fn_step(double edge, double x)
{
    return x >= edge ? 1.0 : 0.0;
}

/* smoothstep's cubic, three roundings; increasing on [0, 1]. */
static inline double fn_smooth_poly(double u)
{
    return u * u * (3.0 - 2.0 * u);
}

static inline double fn_smoothstep(double e0, double e1, double x)
{
    return fn_smooth_poly(fn_clamp((x - e0) / (e1 - e0), 0.0, 1.0));
}

/* ---- intervals (expr-bounds.c) ------------------------------------------
 * A closed interval of the extended reals. (-inf, +inf) doubles as "may be
 * NaN": every operation that could produce a NaN returns it, and every
 * operation that lets a NaN through treats it so. */
typedef struct iv {
    double lo, hi;
} iv_t;

#define IV_FULL_INIT {-INFINITY, INFINITY}

static inline iv_t iv_make(double lo, double hi)
{
    iv_t r = IV_FULL_INIT;
    if (lo <= hi) {      /* else NaN or empty: full */
        r.lo = lo;
        r.hi = hi;
    }
    return r;
}

static inline iv_t iv_point(double x)
{
    return iv_make(x, x);
}

static inline iv_t iv_hull(iv_t a, iv_t b)
{
    return iv_make(fmin(a.lo, b.lo), fmax(a.hi, b.hi));
}

/* Where the then value of an undecided ternary waits for the else value. */
typedef struct rf_expr_join {
    uint32_t target;     /* where the then value waits for the else value */
    uint32_t reg;        /* the frame entry both branches write */
    iv_t v;
} rf_expr_join_t;

/* Runs the code once over a frame of intervals f (constants, inputs and t
 * set; registers full) and returns the range of its result. joins and
 * splits are scratch of one entry per instruction word. */
iv_t rf_expr_bounds_run(const ins_t *code, iv_t *f, rf_expr_join_t *joins, uint32_t *splits);

#endif
