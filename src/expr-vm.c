/* expr-vm.c - the expression VM: rf_expr_eval() and the accessors.
 *
 * A register machine over one frame of doubles (the instruction set is
 * expr-op.h): constants, inputs and t are copied in, then the code runs
 * with threaded dispatch. Every value handler is generated from the opcode
 * table's value column, the text the constant folder compiles too. Hot:
 * never allocates, reads the compiled expression only.
 */
#include "expr-int.h"

#include <string.h>

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

/* Both forms of a value-writing instruction; every one leaves its result
 * in acc and in f[a]. width: 1, or 2 to step over the d word. In expr,
 * the operands are VB (the frame's b or acc), then C and D (below). */
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
#define X(name, nargs, prec, fn, kind, value, bounds) &&L_##name,
        RF_EXPR_OPCODES(X)
#undef X
#define X(name, nargs, prec, fn, kind, value, bounds) &&LA_##name,
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
    /* every handler but the control ones, from the opcode table */
#define B VB
#define C f[i.c]
#define D f[pc->a]
#define VM_GEN_FOLD(name, nargs, value) VM_OP(name, (nargs) == 3 ? 2 : 1, value)
#define VM_GEN_VM(name, nargs, value) VM_OP(name, (nargs) == 3 ? 2 : 1, value)
#define VM_GEN_CTRL(name, nargs, value)
#define X(name, nargs, prec, fn, kind, value, bounds) VM_GEN_##kind(name, nargs, value)
    RF_EXPR_OPCODES(X)
#undef X
#undef VM_GEN_FOLD
#undef VM_GEN_VM
#undef VM_GEN_CTRL
#undef B
#undef C
#undef D
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
