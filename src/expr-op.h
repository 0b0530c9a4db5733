/* expr-op.h - the expression VM's instruction set: ONE table.
 *
 * Owns: RF_EXPR_OPCODES, one line per opcode, in the manner of Lua's
 * lopcodes.h. Everything that knows an opcode is generated from its line:
 * the opcode enum and the info table (expr-int.h), the VM's handler
 * (expr-vm.c), the constant folder (expr-compile.c), the interval image
 * used for the published range (expr-bounds.c), the function names the
 * parser accepts, and the name rf_expr_dump() prints. The VM and the folder
 * expand the SAME value text, so they agree bit for bit.
 * Thread-safety: a macro table; nothing at run time.
 *
 * An instruction is four 16-bit fields {op, a, b, c}: a is the destination,
 * b and c the operands; a three-operand instruction takes its third operand
 * d from the a field of the word after it (its pc advances by two). Every
 * operand is an index into ONE frame of doubles, filled at entry as
 *     [ constants | inputs, in rf_expr_deps() order | t | registers ]
 * so the VM reads an operand as f[b] whatever it is (no LOAD, no CONST).
 * Every instruction but JMPF, JMP and RET writes f[a]. An op field of
 * OP_COUNT + x is x reading b from the VM's accumulator, where the
 * instruction before it left that value (an operand mode, like Lua's k
 * bit; see use_acc in expr-compile.c).
 *
 * Columns:
 *   name    OP_<name>; also what rf_expr_dump() prints
 *   args    operands read (1..3; 3 takes the second instruction word)
 *   prec    binary precedence, 0: not an infix operator (the lexer maps the
 *           operator's characters to the opcode)
 *   fn      the function name in expressions, NULL: not a function
 *   kind    FOLD  pure: folded when every operand is a constant
 *           VM    computed only in the VM (MOVE, and the fused forms, which
 *                 only fusing creates, after folding)
 *           CTRL  control flow: written out by hand in the VM and in the
 *                 range analysis; its value and interval columns are unused
 *   value   the result as a C expression of the operands B, C, D (doubles)
 *           and the fn_* helpers of expr-int.h; one rounding per operation
 *           as written (FP_CONTRACT is off)
 *   bounds  its interval image, a C expression of the operand intervals
 *           IB, IC, ID (iv_t) and the iv_* functions of expr-bounds.c; it
 *           must contain every value the value column can give for operands
 *           inside them, rounded outward
 *
 * To add an opcode: add its line here (the order is free: it is only the
 * layout of the VM's handlers), write its interval function in
 * expr-bounds.c if none of the existing ones fits, describe it in expr.h's
 * grammar comment, and add cases to tests/check_expr.c and tests/expr/.
 * A function is then callable by its fn name with args arguments; a new
 * infix operator also needs its characters in lex() of expr-compile.c.
 * Nothing else changes: the VM, the folder, the bounds analysis and
 * rf_expr_dump() pick it up. Limit: at most 255 opcodes (the compiler keeps
 * an opcode in a uint8_t; the op field holds 2 * OP_COUNT values).
 */
#ifndef RF_EXPR_OP_H
#define RF_EXPR_OP_H

/*        name        args prec fn            kind  value                          bounds */
#define RF_EXPR_OPCODES(X) \
    X(MOVE,       1, 0, NULL,         VM,   B,                             IB) \
    X(NEG,        1, 0, NULL,         FOLD, -B,                            iv_neg(IB)) \
    X(ADD,        2, 4, NULL,         FOLD, B + C,                         iv_add(IB, IC)) \
    X(SUB,        2, 4, NULL,         FOLD, B - C,                         iv_sub(IB, IC)) \
    X(MUL,        2, 5, NULL,         FOLD, B * C,                         iv_mul(IB, IC)) \
    X(DIV,        2, 5, NULL,         FOLD, B / C,                         iv_div(IB, IC)) \
    X(MOD,        2, 5, NULL,         FOLD, fmod(B, C),                    iv_mod(IB, IC)) \
    X(LT,         2, 3, NULL,         FOLD, B < C,                         iv_cmp(OP_LT, IB, IC)) \
    X(LE,         2, 3, NULL,         FOLD, B <= C,                        iv_cmp(OP_LE, IB, IC)) \
    X(GT,         2, 3, NULL,         FOLD, B > C,                         iv_cmp(OP_GT, IB, IC)) \
    X(GE,         2, 3, NULL,         FOLD, B >= C,                        iv_cmp(OP_GE, IB, IC)) \
    X(EQ,         2, 2, NULL,         FOLD, B == C,                        iv_cmp(OP_EQ, IB, IC)) \
    X(NE,         2, 2, NULL,         FOLD, B != C,                        iv_cmp(OP_NE, IB, IC)) \
    X(MIN,        2, 0, "min",        FOLD, fn_min(B, C),                  iv_min(IB, IC)) \
    X(MAX,        2, 0, "max",        FOLD, fn_max(B, C),                  iv_max(IB, IC)) \
    X(CLAMP,      3, 0, "clamp",      FOLD, fn_clamp(B, C, D),             iv_clamp(IB, IC, ID)) \
    X(ABS,        1, 0, "abs",        FOLD, fabs(B),                       iv_abs(IB)) \
    X(FLOOR,      1, 0, "floor",      FOLD, floor(B),                      iv_mono_exact(IB, floor)) \
    X(CEIL,       1, 0, "ceil",       FOLD, ceil(B),                       iv_mono_exact(IB, ceil)) \
    X(ROUND,      1, 0, "round",      FOLD, round(B),                      iv_mono_exact(IB, round)) \
    X(SQRT,       1, 0, "sqrt",       FOLD, sqrt(B),                       iv_sqrt(IB)) \
    X(POW,        2, 0, "pow",        FOLD, pow(B, C),                     iv_pow(IB, IC)) \
    X(EXP,        1, 0, "exp",        FOLD, exp(B),                        iv_exp(IB)) \
    X(LOG,        1, 0, "log",        FOLD, log(B),                        iv_log(IB)) \
    X(SIN,        1, 0, "sin",        FOLD, sin(B),                        iv_trig(IB, 0)) \
    X(COS,        1, 0, "cos",        FOLD, cos(B),                        iv_trig(IB, 1)) \
    X(TAN,        1, 0, "tan",        FOLD, tan(B),                        iv_tan(IB)) \
    X(ATAN2,      2, 0, "atan2",      FOLD, atan2(B, C),                   iv_atan2(IB, IC)) \
    X(MIX,        3, 0, "mix",        FOLD, fn_mix(B, C, D),               iv_mix(IB, IC, ID)) \
    X(STEP,       2, 0, "step",       FOLD, fn_step(B, C),                 iv_cmp(OP_GE, IC, IB)) \
    X(SMOOTHSTEP, 3, 0, "smoothstep", FOLD, fn_smoothstep(B, C, D),        iv_smoothstep(IB, IC, ID)) \
    X(MADD,       3, 0, NULL,         VM,   B * C + D,                     iv_add(iv_mul(IB, IC), ID)) \
    X(MSUB,       3, 0, NULL,         VM,   B * C - D,                     iv_sub(iv_mul(IB, IC), ID)) \
    X(MSUBR,      3, 0, NULL,         VM,   D - B * C,                     iv_sub(ID, iv_mul(IB, IC))) \
    X(JMPF,       1, 0, NULL,         CTRL, 0,  /* if B == 0: pc = a */     0) \
    X(JMP,        0, 0, NULL,         CTRL, 0,  /* pc = a; b: the ternary's register */ 0) \
    X(RET,        1, 0, NULL,         CTRL, 0,  /* return B */              0)

#endif
