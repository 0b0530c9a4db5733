/* expr.h - derived values: the `expr` kind of scene-v1.md.
 *
 * Owns: rf_expr_t, one compiled expression: bytecode for a small register
 * VM in Lua's style (operands name constants, inputs, t or registers),
 * its constants, the distinct input slots it reads, and the conservative
 * output range [lo, hi] found at compile time by interval arithmetic over
 * the inputs' ranges (seed 000 "bounds analysis").
 *
 * Lifetime: rf_expr_compile() runs once, at load; the result lives in memory
 * from the caller's allocator (the scene arena) and is never written again.
 * rf_expr_eval() only reads it, never allocates and is thread-safe.
 *
 * Files: expr-op.h (the instruction set, one table: add an opcode there),
 * expr-compile.c (lexer, parser, folder, assembly), expr-vm.c (the VM),
 * expr-bounds.c (the range, over intervals), expr-text.c (rf_expr_dump),
 * expr-int.h (what they share).
 *
 * Grammar (scene-v1.md `expr`), loosest binding first, as in C:
 *
 *   expr    := cmp_eq [ '?' expr ':' expr ]         right associative
 *   cmp_eq  := cmp_rel { ('==' | '!=') cmp_rel }     left associative
 *   cmp_rel := sum { ('<' | '<=' | '>' | '>=') sum }
 *   sum     := product { ('+' | '-') product }
 *   product := unary { ('*' | '/' | '%') unary }
 *   unary   := '-' unary | primary
 *   primary := NUMBER | 't' | NAME | NAME '.' COMPONENT
 *            | FUNC '(' expr { ',' expr } ')' | '(' expr ')'
 *
 *   NUMBER  := digits [ '.' [digits] ] [ exponent ] | '.' digits [ exponent ]
 *   NAME    := [A-Za-z_][A-Za-z0-9_]*    (not a function name, not t)
 *   COMPONENT := 'x' | 'y' | 'angle' | 'z' | 'w' | 'r' | 'g' | 'b' | 'a'
 *
 * Whitespace (space, tab, CR, LF) may appear between any two tokens; NAME.x
 * is one token. There is no unary '+', no '^' (use pow: so the -2^2 question
 * of other languages does not arise; -x*y is (-x)*y, pow(-2, 2) is 4), no
 * '!', '&&', '||'.
 * Comparisons yield 1 or 0 and chain as in C: 1 < 2 < 3 is (1 < 2) < 3.
 * A condition is true when it is not 0; NaN is true, as in C.
 *
 * Semantics are C's <math.h> in double precision, literally:
 *   a % b          fmod(a, b) (sign of a)
 *   min max        fmin fmax (a NaN argument loses to a number; of two
 *                  equal ones, +0 and -0, the second is the result)
 *   clamp(x,l,h)   min(max(x, l), h)          (h wins when l > h)
 *   abs floor ceil round sqrt pow exp log sin cos tan atan2(y, x)
 *                  fabs floor ceil round ...  (round: halves away from 0;
 *                  log natural; radians)
 *   mix(a,b,t)     a + (b - a) * t
 *   step(e,x)      x >= e ? 1 : 0
 *   smoothstep(e0,e1,x)  u = clamp((x - e0) / (e1 - e0), 0, 1); u*u*(3 - 2*u)
 *                  (GLSL's; e0 == e1 gives 0 below or at e0, 1 above)
 * Arities: 1 for abs floor ceil round sqrt exp log sin cos tan; 2 for min max
 * pow atan2 step; 3 for clamp mix smoothstep.
 * `c ? a : b` evaluates only the branch it takes (the VM jumps).
 *
 * Limits: an expression is at most RF_MAX_EXPR_BYTES (below) bytes. The
 * compiler does not recurse, so nesting depth is limited only by length; the
 * evaluator's stack is a fixed local array bounded by the same limit.
 *
 * Ranges: the published range holds every value rf_expr_eval() can return
 * for slot values inside their resolver ranges and t inside [t_lo, t_hi]
 * (endpoints count as values, so an infinite endpoint means the value may be
 * infinite). Endpoints are rounded outward after every inexact operation.
 * (-inf, +inf) is the "unbounded" marker: it is published whenever an
 * operation cannot be bounded, and it is the only range under which
 * rf_expr_eval() may return NaN. An input whose resolver range is
 * (-inf, +inf) (or empty, or NaN) is taken to be possibly NaN.
 */
#ifndef RF_EXPR_H
#define RF_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* The longest expression rf_expr_compile() takes, in bytes (scene-v1.md). */
#define RF_MAX_EXPR_BYTES 4096

/* Components of a name: plain value, or one output of a sample_path value
 * (x, y, angle), a vector value (x, y, z, w) or a color value (r, g, b, a);
 * the resolver says which a value has. */
enum {
    RF_EXPR_PLAIN = 0,
    RF_EXPR_X = 1,      /* NAME.x */
    RF_EXPR_Y = 2,      /* NAME.y */
    RF_EXPR_ANGLE = 3,  /* NAME.angle */
    RF_EXPR_Z = 4,      /* NAME.z */
    RF_EXPR_W = 5,      /* NAME.w */
    RF_EXPR_R = 6,      /* NAME.r */
    RF_EXPR_G = 7,      /* NAME.g */
    RF_EXPR_B = 8,      /* NAME.b */
    RF_EXPR_A = 9,      /* NAME.a */
};

/* The one table of the component names, "x", "y", "angle", "z", "w", "r",
 * "g", "b", "a": component RF_EXPR_X + k is named rf_expr_components[k]
 * (values.h maps them to a value's outputs). */
#define RF_EXPR_COMPONENTS 9
extern const char *const rf_expr_components[RF_EXPR_COMPONENTS];

typedef struct rf_expr rf_expr_t;   /* compiled, immutable */

/* What the resolver says about a name: where rf_expr_eval() finds its value
 * (an index into the slots array, < 2^24) and the range of that value. */
typedef struct rf_expr_ref {
    uint32_t slot;
    double lo, hi;
} rf_expr_ref_t;

/* Maps a name (len bytes, not NUL-terminated) and a component to an input.
 * Returns 0 and fills *out, or -1 with a one-line message in err (no column,
 * no prefix), e.g. "unknown value 'xx' (did you mean 'x'?)" or "'p' is not a
 * path sample: '.x' needs a sample_path value". It is never called for t or
 * for function names, and may be called several times for one name. */
typedef int (*rf_expr_resolve_fn)(void *ctx, const char *name, size_t len, int component,
                                  rf_expr_ref_t *out, char *err, size_t errlen);

/* Memory for the compiled expression; NULL means out of memory. */
typedef void *(*rf_expr_alloc_fn)(void *actx, size_t size);

#define RF_EXPR_ERR_MSG 256

/* A compile error: col is the 1-based column in characters (UTF-8 code
 * points, as loc.h counts them) of the offending token (for a missing one
 * at the end, the column just after the last token); msg is one line
 * without the column, e.g. "unexpected ')'", "unknown function 'sinn' (did
 * you mean 'sin'?)", "min() takes 2 arguments, got 3", "expected ')'",
 * "expected ':'", "unexpected end of expression", "empty expression", or
 * the resolver's. oom is nonzero when the compiler (or alloc) ran out of
 * memory: test it, never the text (msg then says "out of memory"). */
typedef struct rf_expr_error {
    int col;
    int oom;
    char msg[RF_EXPR_ERR_MSG];
} rf_expr_error_t;

/* Compiles src[0 .. len-1] (no NUL needed). t_lo <= t_hi is the range of t
 * the caller will evaluate at (e.g. [0, duration], or [0, INFINITY]; a
 * finite one lets sin(t) be bounded); an empty or NaN range is unbounded.
 * Names are resolved through resolve(rctx, ...); the expression's memory
 * comes from alloc(actx, size) in one block (aligned for doubles);
 * scratch memory is malloc'ed and freed before returning (the parser's is
 * on the stack for a source of up to 96 bytes, about 8 KB).
 * Returns 0 and sets *out; or -1 with *err set and nothing published (what
 * alloc returned is not freed: an arena frees it with the scene). */
int rf_expr_compile(const char *src, size_t len, double t_lo, double t_hi,
                    rf_expr_resolve_fn resolve, void *rctx,
                    rf_expr_alloc_fn alloc, void *actx,
                    rf_expr_t **out, rf_expr_error_t *err);

/* rf_expr_compile with explicit limits, for tests and tools: max_bytes
 * replaces RF_MAX_EXPR_BYTES (a stack deeper than RF_EXPR_MAX_DEPTH is still
 * an error, "expression too deeply nested", and so is bytecode beyond 4,100
 * frame entries or 65,535 instruction words, "expression too large", which
 * the 4,096-byte limit never reaches), and flags RF_EXPR_NOFOLD turns
 * constant folding off so that every operator runs in the VM. */
#define RF_EXPR_NOFOLD 1u
/* flags RF_EXPR_DEPS_ONLY: the source checked and its inputs resolved as
 * always, but the expression made only for rf_expr_deps, rf_expr_uses_time
 * and rf_expr_depth (no bytecode, range unbounded: not for
 * rf_expr_eval), which a scene's first pass over its values needs. */
#define RF_EXPR_DEPS_ONLY 2u
int rf_expr_compile_ex(const char *src, size_t len, double t_lo, double t_hi,
                       rf_expr_resolve_fn resolve, void *rctx,
                       rf_expr_alloc_fn alloc, void *actx,
                       size_t max_bytes, unsigned flags,
                       rf_expr_t **out, rf_expr_error_t *err);

/* Value at time t, reading input i at slots[i] for every slot of
 * rf_expr_deps(). Pure: never allocates, thread-safe. */
double rf_expr_eval(const rf_expr_t *e, const double *slots, double t);

/* The conservative range of every value rf_expr_eval() can return, see above. */
void rf_expr_range(const rf_expr_t *e, double *lo, double *hi);

/* The distinct input slots the expression reads, in order of first use, for
 * the value graph (cycle detection, evaluation order). Returns the count and
 * points *slots at them (NULL when there are none). */
uint32_t rf_expr_deps(const rf_expr_t *e, const uint32_t **slots);

/* Nonzero when the value depends on t (after constant folding). */
int rf_expr_uses_time(const rf_expr_t *e);

/* The expression's operand-stack depth, which bounds the registers the VM
 * uses (<= RF_EXPR_MAX_DEPTH). */
uint32_t rf_expr_depth(const rf_expr_t *e);
#define RF_EXPR_MAX_DEPTH 2049   /* operands in RF_MAX_EXPR_BYTES bytes, + 1 */

/* Writes the bytecode as text, one instruction a line: "PC OP [operand]",
 * e.g. "0 MADD r0 s3 2 1\n2 RET r0\n" (constants by value, sN for slot N,
 * t, rN for register N; jumps by target pc), for tests and debugging; snprintf-like: returns the
 * length it needed, writes at most cap bytes, NUL-terminated when cap > 0. */
size_t rf_expr_dump(const rf_expr_t *e, char *buf, size_t cap);

/* The two lines the CLI prints under a compile error: the expression with an
 * indent of four spaces, then a caret under column col:
 *     "    mix(40, 600, p))\n                   ^"      (col 16)
 * The same as rf_loc_caret() (loc.h), which renders every caret display:
 * tabs and other control characters show as one space each, so the caret
 * stays aligned; an expression wider than 72 columns is shown as a window
 * around col with "..." at the cut ends. No trailing newline. snprintf-like
 * return value; NUL-terminated when cap > 0. */
size_t rf_expr_caret(const char *src, size_t len, int col, char *buf, size_t cap);

#endif
