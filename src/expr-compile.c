/* expr-compile.c - the expression compiler: source text to bytecode.
 *
 * Compilation is one pass of a shunting-yard parser over the tokens with an
 * explicit operator stack (no recursion, so nesting depth costs heap, not C
 * stack). Operands are not code: a number, an input or t is an operand
 * descriptor on a compile-time value stack, and an operator, when it is
 * popped, becomes ONE instruction that names its operands where they live
 * and writes a register (as in Lua, registers are allocated like a stack,
 * so a subexpression's temporaries are free again once it is done).
 * `c ? a : b` compiles to  c JMPF(L1) a JMP(L2) L1: b L2:, both branches
 * leaving their value in the same register. Constant operands are folded
 * (with the opcode table's value column, the VM's very text), and a few
 * common operator pairs fuse into one instruction; fusing never reaches
 * back over a jump target. finish() then lays out the frame, assembles the
 * instruction words, runs them once over intervals for the published range
 * (expr-bounds.c) and marks accumulator operands.
 */
#include "expr-int.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loc.h"
#include "suggest.h"

const rf_expr_opinfo_t rf_expr_ops[OP_COUNT] = {
#define X(name, nargs, prec, fn, kind, value, bounds) {#name, nargs, prec, OPK_##kind, fn},
    RF_EXPR_OPCODES(X)
#undef X
};

/* The value of a pure operator on constant arguments (the folder): the
 * opcode table's value column, as the VM computes it. */
static double op_apply(int op, const double *a)
{
#define B a[0]
#define C a[1]
#define D a[2]
#define FOLD_GEN_FOLD(name, value) case OP_##name: return value;
#define FOLD_GEN_VM(name, value)
#define FOLD_GEN_CTRL(name, value)
#define X(name, nargs, prec, fn, kind, value, bounds) FOLD_GEN_##kind(name, value)
    switch (op) {
    RF_EXPR_OPCODES(X)
    default: return NAN;   /* not reached: only pure operators are folded */
    }
#undef X
#undef FOLD_GEN_FOLD
#undef FOLD_GEN_VM
#undef FOLD_GEN_CTRL
#undef B
#undef C
#undef D
}

enum tok_kind {
    T_END, T_NUM, T_NAME, T_LPAREN, T_RPAREN, T_COMMA, T_QUEST, T_COLON, T_BINOP,
};

typedef struct token {
    int kind;
    size_t pos, len;     /* bytes of src */
    int op;              /* T_BINOP: opcode */
    double num;          /* T_NUM */
    size_t namelen;      /* T_NAME: bytes before a '.component' */
    int comp;            /* T_NAME: RF_EXPR_PLAIN .. RF_EXPR_A */
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

#define SMALL_SRC 96   /* bytes of source compiled with scratch on the stack */

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

static int fail(compiler_t *c, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(compiler_t *c, size_t pos, const char *fmt, ...)
{
    va_list ap;
    c->err->col = rf_loc_column(c->src, c->len, pos);
    va_start(ap, fmt);
    vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* Out of memory: a status (err->oom), and the message says so too. */
static int fail_oom(compiler_t *c, size_t pos)
{
    c->err->oom = 1;
    return fail(c, pos, "out of memory");
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

/* The double nearest the decimal number s (n bytes: digits, an optional
 * fraction, an optional exponent, as lex_number scanned them) into *v,
 * when one IEEE operation gives it: at most 2^53 as an integer of its
 * digits and a power of ten up to 10^22, both exact, so the one product
 * or quotient is the correctly rounded value strtod returns (Clinger's
 * fast path). 0 for any other number (strtod then): strtod costs about
 * 800 instructions a literal, a fifth of loading a scene of 3,000
 * expressions. */
static int exact_number(const char *s, size_t n, double *v)
{
    static const double p10[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
    (void)s;
    (void)n;
    (void)p10;
    (void)v;
    return 0; /* wider intermediates could round twice */
#else
    uint64_t m = 0;
    long e = 0;
    size_t i = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (m > (UINT64_C(1) << 53) / 10)
            return 0;
        m = m * 10 + (uint64_t)(s[i] - '0');
    }
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            if (m > (UINT64_C(1) << 53) / 10)
                return 0;
            m = m * 10 + (uint64_t)(s[i] - '0');
            e--;
        }
    if (i < n) { /* e or E, a sign, digits */
        int neg = 0;
        long x = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            neg = s[i++] == '-';
        for (; i < n; i++) {
            if (x > 1000)
                return 0;
            x = x * 10 + (s[i] - '0');
        }
        e += neg ? -x : x;
    }
    if (m > (UINT64_C(1) << 53) || e < -22 || e > 22)
        return 0;
    *v = e < 0 ? (double)m / p10[-e] : (double)m * p10[e];
    return 1;
#endif
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
    if (!exact_number(c->src + c->pos, n, &t->num)) {
        char stackbuf[64], *buf = stackbuf;
        if (n >= sizeof stackbuf && (buf = malloc(n + 1)) == NULL)
            return fail_oom(c, c->pos);
        memcpy(buf, c->src + c->pos, n);
        buf[n] = '\0';
        t->num = strtod(buf, NULL);
        if (buf != stackbuf)
            free(buf);
    }
    if (!isfinite(t->num)) {
        char b[40];
        return fail(c, c->pos, "number out of range '%s'", show(b, sizeof b, c->src + c->pos, n));
    }
    t->kind = T_NUM;
    t->len = n;
    return 0;
}


const char *const rf_expr_components[RF_EXPR_COMPONENTS] = {
    "x", "y", "angle", "z", "w", "r", "g", "b", "a",
};

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
        for (int k = 0; k < RF_EXPR_COMPONENTS; k++)
            if (strlen(rf_expr_components[k]) == cn &&
                memcmp(cs, rf_expr_components[k], cn) == 0)
                t->comp = k + 1;
        if (t->comp == RF_EXPR_PLAIN) {
            char word[40], b[40];
            const char *dym = NULL;
            if (cn < sizeof word) {
                memcpy(word, cs, cn);
                word[cn] = '\0';
                dym = rf_did_you_mean(word, rf_expr_components, RF_EXPR_COMPONENTS);
            }
            show(b, sizeof b, cs, cn);
            if (dym != NULL)
                return fail(c, i, "unknown component '.%s' (did you mean '.%s'?)", b, dym);
            return fail(c, i, "unknown component '.%s': a path sample has .x, .y and .angle, "
                        "a vector .x, .y, .z, .w, a color .r, .g, .b, .a", b);
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
    for (int op = 0; op < OP_COUNT; op++) {
        const char *fn = rf_expr_ops[op].fn;
        if (fn != NULL && fn[0] == name[0] && strncmp(fn, name, n) == 0 && fn[n] == '\0')
            return op;
    }
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
        if (rf_expr_ops[op].fn != NULL)
            cands[nc++] = rf_expr_ops[op].fn;
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
    uint32_t n = rf_expr_ops[op].nargs, v[3] = {0, 0, 0}, a = 0;
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
        if (!(c->flags & RF_EXPR_NOFOLD) && rf_expr_ops[op].kind == OPK_FOLD) {
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
        if (e->kind == E_BIN && rf_expr_ops[e->op].prec >= min_prec) {
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
                        rf_expr_components[t->comp - 1]);
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
    unsigned want = rf_expr_ops[e->op].nargs;
    if (argc != want)
        return fail(c, e->pos, "%s() takes %u argument%s, got %u", rf_expr_ops[e->op].fn, want,
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
            if (reduce(c, rf_expr_ops[t.op].prec, 0) || push(c, E_BIN, t.op, t.pos, 0))
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

/* ---- frame layout, assembly, publication ---------------------------------- */

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
            if (j >= rf_expr_ops[c->code[pc].op].nargs || VAL_KIND(v) != V_K || map[VAL_I(v)] != UINT32_MAX)
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
    rf_expr_join_t *joins = malloc((size_t)c->ncode * sizeof *joins);
    uint32_t *splits = malloc((size_t)c->ncode * sizeof *splits);
    if (kmap == NULL || k == NULL || pcmap == NULL || code == NULL || joins == NULL ||
        splits == NULL || compact_constants(c, kmap, &nk, k) != 0) {
        fail_oom(c, 0);
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
            if (j >= rf_expr_ops[ci->op].nargs && !(ci->op == OP_JMP && j == 0))
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
        fail_oom(c, 0);
        goto done;
    }
    for (uint32_t i = 0; i < nk; i++)
        fiv[i] = iv_point(k[i]);
    for (uint32_t i = 0; i < c->ndeps; i++)
        fiv[base_in + i] = c->depiv[i];
    fiv[at_t] = iv_make(t_lo, t_hi);
    for (uint32_t i = base_reg; i < nframe; i++)
        fiv[i] = iv_make(-INFINITY, INFINITY);
    iv_t range = rf_expr_bounds_run(code, fiv, joins, splits);
    use_acc(code, nwords, target);

    uint32_t nkpad = nk < K_BLOCK ? K_BLOCK : nk;
    size_t size = sizeof(rf_expr_t) + (size_t)nkpad * sizeof(double) +
                  (size_t)nwords * sizeof(ins_t) + (size_t)c->ndeps * sizeof(uint32_t);
    unsigned char *mem = alloc(actx, size);
    if (mem == NULL) {
        fail_oom(c, 0);
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

/* RF_EXPR_DEPS_ONLY: the inputs read and whether t is, for the value
 * graph, without the bytecode. The checks finish() makes first, then an
 * expression of no code. */
static int deps_only(compiler_t *c, rf_expr_alloc_fn alloc, void *actx, rf_expr_t **out)
{
    if (c->maxdepth > RF_EXPR_MAX_DEPTH)
        return fail(c, 0, "expression too deeply nested (stack depth %u, the limit is %u)",
                    (unsigned)c->maxdepth, (unsigned)RF_EXPR_MAX_DEPTH);
    unsigned char *mem = alloc(actx, sizeof(rf_expr_t) + (size_t)c->ndeps * sizeof(uint32_t));
    if (mem == NULL)
        return fail_oom(c, 0);
    rf_expr_t *e = (rf_expr_t *)(void *)mem;
    uint32_t *deps = (uint32_t *)(void *)(mem + sizeof *e);
    memcpy(deps, c->deps, (size_t)c->ndeps * sizeof *deps);
    memset(e, 0, sizeof *e);
    e->deps = deps;
    e->ndeps = c->ndeps;
    e->depth = c->maxdepth;
    e->uses_time = c->uses_time;
    e->lo = -INFINITY;
    e->hi = INFINITY;
    *out = e;
    return 0;
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
    err->oom = 0;
    err->msg[0] = '\0';
    *out = NULL;
    if (len > max_bytes)
        return fail(&c, max_bytes, "expression too long: %zu bytes (the limit is %zu)",
                    len, max_bytes);
    if (len >= MAX_OPERAND)
        return fail(&c, MAX_OPERAND, "expression too long: %zu bytes", len);
    c.capcode = (uint32_t)len + 2;           /* one instruction a token at most, and RET */
    c.capk = 2 * (uint32_t)len + 2;          /* a constant a token or a fold */
    /* a short source's scratch on the stack (a scene's thousands of
     * expressions like "854.2 + 4.5 * sin(2.19 * t + 1.16)"), a longer
     * one's malloc'ed */
    struct {
        cins_t code[SMALL_SRC + 2];
        double k[2 * SMALL_SRC + 2];
        uint32_t deps[SMALL_SRC + 1], vals[SMALL_SRC + 1];
        iv_t depiv[SMALL_SRC + 1];
        entry_t stk[SMALL_SRC + 1];
    } small;
    int heap = len > SMALL_SRC;
    if (heap) {
        c.code = malloc((size_t)c.capcode * sizeof *c.code);
        c.k = malloc((size_t)c.capk * sizeof *c.k);
        c.deps = malloc(((size_t)len + 1) * sizeof *c.deps);
        c.depiv = malloc(((size_t)len + 1) * sizeof *c.depiv);
        c.vals = malloc(((size_t)len + 1) * sizeof *c.vals);
        c.stk = malloc(((size_t)len + 1) * sizeof *c.stk);
    } else {
        c.code = small.code;
        c.k = small.k;
        c.deps = small.deps;
        c.depiv = small.depiv;
        c.vals = small.vals;
        c.stk = small.stk;
    }
    if (c.code == NULL || c.k == NULL || c.deps == NULL || c.depiv == NULL || c.vals == NULL ||
        c.stk == NULL) {
        r = fail_oom(&c, 0);
    } else {
        r = parse(&c);
    }
    if (r == 0)
        r = emit(&c, OP_RET, 0);
    if (r == 0)
        r = (flags & RF_EXPR_DEPS_ONLY) ? deps_only(&c, alloc, actx, out)
                                         : finish(&c, t_lo, t_hi, alloc, actx, out);
    if (heap) {
        free(c.code);
        free(c.k);
        free(c.deps);
        free(c.depiv);
        free(c.vals);
        free(c.stk);
    }
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
