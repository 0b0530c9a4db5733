/* expr-text.c - compiled expressions as text: rf_expr_dump(), and the
 * caret display under a compile error (loc.c's, under its old name). */
#include "expr-int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "loc.h"

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
        sb_put(&s, "%u %s", (unsigned)pc, rf_expr_ops[i.op].name);
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
            for (uint32_t j = 0; j < rf_expr_ops[i.op].nargs; j++) {
                sb_char(&s, ' ');
                sb_operand(&s, e, x[j]);
            }
        }
        sb_char(&s, '\n');
    }
    return s.len;
}

size_t rf_expr_caret(const char *src, size_t len, int col, char *buf, size_t cap)
{
    return rf_loc_caret(src, len, col, buf, cap);
}
