/* easing-text.c - easings as text: rf_easing_parse() reads CSS timing
 * functions and the easings.net names (with did-you-mean), rf_easing_name()
 * writes the canonical form back. The evaluation is in easing.c. */
#include "easing.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* ------------------------------------------------------------------- names */

/* Every easing keyword, for "did you mean": the CSS ones, then the Penner
 * names in function-index order (so that penner index i is entry 7 + i). */
static const char *const easing_keywords[] = {
    "linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end",
    "ease-in-sine", "ease-out-sine", "ease-in-out-sine",
    "ease-in-quad", "ease-out-quad", "ease-in-out-quad",
    "ease-in-cubic", "ease-out-cubic", "ease-in-out-cubic",
    "ease-in-quart", "ease-out-quart", "ease-in-out-quart",
    "ease-in-quint", "ease-out-quint", "ease-in-out-quint",
    "ease-in-expo", "ease-out-expo", "ease-in-out-expo",
    "ease-in-circ", "ease-out-circ", "ease-in-out-circ",
    "ease-in-back", "ease-out-back", "ease-in-out-back",
    "ease-in-elastic", "ease-out-elastic", "ease-in-out-elastic",
    "ease-in-bounce", "ease-out-bounce", "ease-in-out-bounce",
};
#define N_KEYWORDS (sizeof easing_keywords / sizeof easing_keywords[0])
#define N_CSS_KEYWORDS 7
#define N_CUBIC_KEYWORDS 5   /* linear and the four ease names */

/* The CSS cubic keywords' control points (index 1..4 of easing_keywords). */
static const double css_ease_points[4][4] = {
    {0.25, 0.1, 0.25, 1.0},   /* ease */
    {0.42, 0.0, 1.0, 1.0},    /* ease-in */
    {0.0, 0.0, 0.58, 1.0},    /* ease-out */
    {0.42, 0.0, 0.58, 1.0},   /* ease-in-out */
};

static const char *const function_names[] = {"steps", "cubic-bezier", "linear"};

static const char *const step_positions[] = {
    "jump-start", "jump-end", "jump-none", "jump-both", "start", "end",
};

const char *const *rf_easing_words(int functions, int cubic_only, size_t *n)
{
    if (functions) {
        *n = cubic_only ? 1 : sizeof function_names / sizeof function_names[0];
        return cubic_only ? &function_names[1] : function_names;
    }
    *n = cubic_only ? N_CUBIC_KEYWORDS : N_KEYWORDS;
    return easing_keywords;
}

/* Appends printf output at *pos in buf (capacity len), truncating safely. */
static void buf_add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void buf_add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    int r;
    if (*pos >= len)
        return;
    va_start(ap, fmt);
    r = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (r < 0)
        return;
    *pos += (size_t)r;
    if (*pos >= len)
        *pos = len;
}

/* v in the fewest of 15, 16 or 17 significant digits that read back as v */
static const char *fmt_num(char out[32], double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, 32, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return out;
}

/* When the name did not fit, end it with "...)" inside the buffer. */
static void mark_truncated(char *buf, size_t len, size_t pos)
{
    if (pos >= len && len >= 5)
        memcpy(buf + len - 5, "...)", 5);
}

const char *rf_easing_name(const rf_easing_t *e, char *buf, size_t len)
{
    size_t pos = 0;
    char n0[32], n1[32], n2[32], n3[32];
    if (len == 0)
        return buf;
    buf[0] = '\0';
    switch (e->kind) {
    case RF_EASE_CUBIC:
        for (int i = 0; i < 4; i++) {
            const double *c = css_ease_points[i];
            if (e->p[0] == c[0] && e->p[1] == c[1] && e->p[2] == c[2] && e->p[3] == c[3]) {
                buf_add(buf, len, &pos, "%s", easing_keywords[1 + i]);
                return buf;
            }
        }
        buf_add(buf, len, &pos, "cubic-bezier(%s, %s, %s, %s)", fmt_num(n0, e->p[0]),
                fmt_num(n1, e->p[1]), fmt_num(n2, e->p[2]), fmt_num(n3, e->p[3]));
        mark_truncated(buf, len, pos);
        return buf;
    case RF_EASE_STEPS:
        if (e->sub == RF_JUMP_END)
            buf_add(buf, len, &pos, "steps(%lu)", (unsigned long)e->n);
        else
            buf_add(buf, len, &pos, "steps(%lu, %s)", (unsigned long)e->n,
                    step_positions[e->sub < 4 ? e->sub : 0]);
        return buf;
    case RF_EASE_STOPS:
        buf_add(buf, len, &pos, "linear(");
        for (uint32_t i = 0; i < e->n && pos < len; i++)
            buf_add(buf, len, &pos, "%s%s %.15g%%", i ? ", " : "", fmt_num(n0, e->stops[i].y),
                    e->stops[i].x * 100.0);
        buf_add(buf, len, &pos, ")");
        mark_truncated(buf, len, pos);
        return buf;
    case RF_EASE_SAMPLED:
        buf_add(buf, len, &pos, "sampled(%lu)", (unsigned long)e->n);
        return buf;
    case RF_EASE_PENNER:
        if (e->sub < RF_PENNER_FAMILIES * 3)
            buf_add(buf, len, &pos, "%s", easing_keywords[N_CSS_KEYWORDS + e->sub]);
        return buf;
    default:
        buf_add(buf, len, &pos, "linear");
        return buf;
    }
}

/* ----------------------------------------------------------------- parsing */

typedef struct parser {
    const char *text;   /* the whole easing string, for messages */
    const char *s;      /* cursor */
    char *err;
    size_t errlen;
} parser_t;

static int perr(parser_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(parser_t *p, const char *fmt, ...)
{
    va_list ap;
    if (p->err && p->errlen) {
        va_start(ap, fmt);
        vsnprintf(p->err, p->errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

static void skip_ws(parser_t *p)
{
    while (is_ws(*p->s))
        p->s++;
}

/* Length of the token at s, for messages: up to a separator. */
static int token_len(const char *s)
{
    int n = 0;
    while (s[n] && !is_ws(s[n]) && s[n] != ',' && s[n] != ')' && s[n] != '(' && n < 40)
        n++;
    return n;
}

/* A CSS <number> at the cursor: [+-] digits [. digits] [e [+-] digits], or
 * [+-] . digits [...]. Returns its length (0 when there is none); the value
 * goes to *out, and *is_int says whether it was written as an integer. */
static size_t scan_number(const char *s, double *out, int *is_int)
{
    size_t i = 0, digits = 0;
    char tmp[128];

    *is_int = 1;
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (isdigit((unsigned char)s[i]))
        i++, digits++;
    if (s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
        *is_int = 0;
        i++;
        while (isdigit((unsigned char)s[i]))
            i++, digits++;
    }
    if (digits == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (isdigit((unsigned char)s[j])) {
            *is_int = 0;
            while (isdigit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    if (i >= sizeof tmp) {
        *out = INFINITY;   /* absurdly long: reported as out of range */
        return i;
    }
    memcpy(tmp, s, i);
    tmp[i] = '\0';
    *out = strtod(tmp, NULL);
    return i;
}

/* A finite number at the cursor (after whitespace); what names it in messages. */
static int parse_number(parser_t *p, const char *what, double *out)
{
    int is_int;
    size_t n;
    skip_ws(p);
    n = scan_number(p->s, out, &is_int);
    if (n == 0) {
        if (*p->s == '\0' || *p->s == ')')
            return perr(p, "%s: missing number in '%s'", what, p->text);
        return perr(p, "%s: expected a number, got '%.*s'", what,
                    token_len(p->s) ? token_len(p->s) : 1, p->s);
    }
    if (!isfinite(*out))
        return perr(p, "%s: number out of range: '%.*s'", what, (int)n, p->s);
    p->s += n;
    return 0;
}

/* Expects ch (after whitespace). */
static int expect(parser_t *p, char ch, const char *fname)
{
    skip_ws(p);
    if (*p->s == ch) {
        p->s++;
        return 0;
    }
    if (*p->s == '\0')
        return perr(p, "missing '%c' in %s() of '%s'", ch, fname, p->text);
    return perr(p, "expected '%c' in %s(), got '%.*s'", ch, fname,
                token_len(p->s) ? token_len(p->s) : 1, p->s);
}

/* After the closing parenthesis only whitespace may follow. */
static int expect_end(parser_t *p)
{
    skip_ws(p);
    if (*p->s != '\0')
        return perr(p, "unexpected '%.*s' after the end of '%s'",
                    token_len(p->s) ? token_len(p->s) : 1, p->s, p->text);
    return 0;
}

/* Reads an identifier ([a-zA-Z0-9-]) into buf; returns its length. */
static size_t read_ident(const char *s, char *buf, size_t cap)
{
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '_') {
        if (n + 1 < cap)
            buf[n] = s[n];
        n++;
    }
    buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

static int parse_steps(parser_t *p, rf_easing_t *e)
{
    double v;
    int is_int;
    size_t n;
    rf_jump_t jump = RF_JUMP_END;

    skip_ws(p);
    n = scan_number(p->s, &v, &is_int);
    if (n == 0 && (*p->s == ')' || *p->s == ',' || *p->s == '\0'))
        return perr(p, "steps() needs a step count");
    if (n == 0 || !is_int || !(v >= 1.0)) {
        int tl = n ? (int)n : token_len(p->s);
        return perr(p, "steps() needs a positive integer step count, got '%.*s'", tl, p->s);
    }
    if (v > 1e9)
        return perr(p, "steps() step count too large: '%.*s' (at most 1000000000)", (int)n, p->s);
    p->s += n;
    skip_ws(p);
    if (*p->s == ',') {
        char word[48];
        size_t wl;
        int k;
        p->s++;
        skip_ws(p);
        wl = read_ident(p->s, word, sizeof word);
        if (wl == 0)
            return perr(p, "steps() needs a step position after the comma in '%s'", p->text);
        for (k = 0; k < 6; k++)
            if (wl == strlen(step_positions[k]) && strcmp(word, step_positions[k]) == 0)
                break;
        if (k == 6) {
            const char *dym = rf_did_you_mean(word, step_positions, 6);
            if (dym)
                return perr(p, "unknown steps() position '%s' (did you mean '%s'?)", word, dym);
            return perr(p, "unknown steps() position '%s' (expected jump-start, jump-end, "
                        "jump-none, jump-both, start or end)", word);
        }
        jump = k == 4 ? RF_JUMP_START : (k == 5 ? RF_JUMP_END : (rf_jump_t)k);
        p->s += wl;
    }
    if (expect(p, ')', "steps") < 0)
        return -1;
    if (jump == RF_JUMP_NONE && v < 2.0)
        return perr(p, "steps(%.0f, jump-none) needs at least 2 steps", v);
    memset(e, 0, sizeof *e);
    e->kind = RF_EASE_STEPS;
    e->sub = (uint8_t)jump;
    e->n = (uint32_t)v;
    return 0;
}

static int parse_cubic(parser_t *p, rf_easing_t *e, int clamp)
{
    static const char *const names[4] = {"cubic-bezier() x1", "cubic-bezier() y1",
                                         "cubic-bezier() x2", "cubic-bezier() y2"};
    double v[4];
    for (int i = 0; i < 4; i++) {
        if (i > 0) {
            skip_ws(p);
            if (*p->s == ')')
                return perr(p, "cubic-bezier() takes 4 numbers, got %d", i);
            if (expect(p, ',', "cubic-bezier") < 0)
                return -1;
        }
        if (parse_number(p, names[i], &v[i]) < 0)
            return -1;
    }
    skip_ws(p);
    if (*p->s == ',')
        return perr(p, "cubic-bezier() takes 4 numbers, got more");
    if (expect(p, ')', "cubic-bezier") < 0)
        return -1;
    if (!(v[0] >= 0.0 && v[0] <= 1.0))
        return perr(p, "cubic-bezier() x1 must be in [0, 1], got %.15g", v[0]);
    if (!(v[2] >= 0.0 && v[2] <= 1.0))
        return perr(p, "cubic-bezier() x2 must be in [0, 1], got %.15g", v[2]);
    rf_easing_init_cubic(e, v[0], v[1], v[2], v[3], clamp);
    return 0;
}

/* One linear() stop: <number> && <percentage>{0,2}, in either order. */
typedef struct lstop {
    double out;
    double in[2];
    int nin;
} lstop_t;

static int parse_lstop(parser_t *p, int index, lstop_t *st)
{
    int have_out = 0, pct_group_done = 0, is_int;
    st->nin = 0;
    st->out = 0.0;
    for (;;) {
        double v;
        size_t n;
        skip_ws(p);
        if (*p->s == ',' || *p->s == ')' || *p->s == '\0')
            break;
        n = scan_number(p->s, &v, &is_int);
        if (n == 0)
            return perr(p, "linear() stop %d: expected a number or percentage, got '%.*s'",
                        index, token_len(p->s) ? token_len(p->s) : 1, p->s);
        if (!isfinite(v))
            return perr(p, "linear() stop %d: number out of range: '%.*s'", index, (int)n, p->s);
        if (p->s[n] == '%') {
            if (pct_group_done || st->nin == 2)
                return perr(p, "linear() stop %d takes at most 2 percentages, together", index);
            st->in[st->nin++] = v / 100.0;
            p->s += n + 1;
        } else {
            if (have_out)
                return perr(p, "linear() stop %d has two output numbers", index);
            have_out = 1;
            st->out = v;
            if (st->nin > 0)
                pct_group_done = 1;
            p->s += n;
        }
    }
    if (!have_out) {
        if (st->nin == 0)
            return perr(p, "linear() stop %d is empty", index);
        return perr(p, "linear() stop %d needs an output number, not only percentages", index);
    }
    return 0;
}

/* Parses linear(...) arguments twice: a first pass (pts == NULL) validates
 * and counts the points, the second fills them, a missing input as NaN.
 * Returns the point count. */
static long parse_linear_pass(parser_t *p, rf_stop_t *pts)
{
    long np = 0;
    int idx = 0;
    for (;;) {
        lstop_t st;
        idx++;
        if (parse_lstop(p, idx, &st) < 0)
            return -1;
        for (int k = 0; k < (st.nin ? st.nin : 1); k++) {
            if (pts) {
                pts[np].y = st.out;
                pts[np].x = k < st.nin ? st.in[k] : NAN;
            }
            np++;
        }
        skip_ws(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        break;
    }
    if (expect(p, ')', "linear") < 0)
        return -1;
    if (idx < 2)
        return perr(p, "linear() needs at least 2 stops, got %d", idx);
    if (np > 1000000)
        return perr(p, "linear() has too many stops (%ld)", np);
    return np;
}

/* CSS Easing 2 "create a linear easing function": an input is at least the
 * largest one before it; a first point without input is at 0, a last one at
 * max(1, largest); runs without inputs are spread evenly between the
 * nearest points that have one. Missing inputs are NaN on entry. */
static void linear_fixup(rf_stop_t *pt, uint32_t n)
{
    double largest = -INFINITY;
    uint32_t i, j;
    for (i = 0; i < n; i++) {
        if (pt[i].x == pt[i].x) {
            if (pt[i].x < largest)
                pt[i].x = largest;
            largest = pt[i].x;
        } else if (i == 0) {
            pt[i].x = largest = 0.0;
        } else if (i == n - 1) {
            pt[i].x = largest > 1.0 ? largest : 1.0;
        }
    }
    for (i = 1; i + 1 < n; i++) {
        if (pt[i].x == pt[i].x)
            continue;
        for (j = i; pt[j].x != pt[j].x; j++)
            ;
        /* pt[i-1] and pt[j] have inputs, i .. j-1 do not */
        for (uint32_t k = i; k < j; k++)
            pt[k].x = pt[i - 1].x + (pt[j].x - pt[i - 1].x) * (double)(k - i + 1) / (double)(j - i + 1);
        i = j;
    }
}

static int parse_linear(parser_t *p, rf_easing_t *e, rf_easing_alloc_fn alloc, void *ctx)
{
    const char *args = p->s;
    long np = parse_linear_pass(p, NULL);
    rf_stop_t *pts;

    if (np < 0)
        return -1;
    if (!alloc)
        return perr(p, "linear() stops need storage, and none was given");
    pts = alloc(ctx, (size_t)np * sizeof *pts);
    if (!pts)
        return perr(p, "out of memory");
    p->s = args;
    parse_linear_pass(p, pts);
    linear_fixup(pts, (uint32_t)np);
    memset(e, 0, sizeof *e);
    e->kind = RF_EASE_STOPS;
    e->n = (uint32_t)np;
    e->stops = pts;
    return 0;
}

/* camelCase alias ("easeInOutCubic") to the CSS-style name. */
static int camel_to_dashed(const char *w, char *out, size_t cap)
{
    size_t n = 0;
    int upper = 0;
    if (strncmp(w, "ease", 4) != 0)
        return 0;
    for (const char *c = w; *c; c++) {
        if (*c == '-')
            return 0;
        if (isupper((unsigned char)*c)) {
            upper = 1;
            if (n + 2 >= cap)
                return 0;
            out[n++] = '-';
            out[n++] = (char)tolower((unsigned char)*c);
        } else {
            if (n + 1 >= cap)
                return 0;
            out[n++] = *c;
        }
    }
    out[n] = '\0';
    return upper;
}

static int keyword_index(const char *w)
{
    for (size_t i = 0; i < N_KEYWORDS; i++)
        if (strcmp(w, easing_keywords[i]) == 0)
            return (int)i;
    return -1;
}

static int only_cubic_error(parser_t *p)
{
    return perr(p, "only linear, ease, ease-in, ease-out, ease-in-out and cubic-bezier() "
                "curves are allowed here, got '%s'", p->text);
}

int rf_easing_parse(rf_easing_t *e, const char *text, int cubic_only,
                    rf_easing_alloc_fn alloc, void *ctx, char *err, size_t errlen)
{
    parser_t p = {text ? text : "", text ? text : "", err, errlen};
    char word[64];
    size_t wl;
    rf_easing_t tmp;

    if (err && errlen)
        err[0] = '\0';
    skip_ws(&p);
    if (*p.s == '\0')
        return perr(&p, "empty easing name");
    wl = read_ident(p.s, word, sizeof word);
    if (wl == 0)
        return perr(&p, "unknown easing '%s'", p.text);
    if (wl >= sizeof word)
        return perr(&p, "unknown easing '%.40s...'", p.s);
    p.s += wl;
    skip_ws(&p);

    if (*p.s == '(') {
        int r;
        p.s++;
        if (strcmp(word, "cubic-bezier") == 0)
            r = parse_cubic(&p, &tmp, cubic_only);
        else if (cubic_only && (strcmp(word, "steps") == 0 || strcmp(word, "linear") == 0))
            return only_cubic_error(&p);
        else if (strcmp(word, "steps") == 0)
            r = parse_steps(&p, &tmp);
        else if (strcmp(word, "linear") == 0)
            r = parse_linear(&p, &tmp, alloc, ctx);
        else {
            const char *dym = rf_did_you_mean(word, function_names, 3);
            if (dym)
                return perr(&p, "unknown easing function '%s()' (did you mean '%s()'?)", word, dym);
            return perr(&p, "unknown easing function '%s()' (expected steps(), cubic-bezier() "
                        "or linear())", word);
        }
        if (r < 0 || expect_end(&p) < 0)
            return -1;
        *e = tmp;
        return 0;
    }

    if (*p.s != '\0')
        return perr(&p, "unknown easing '%s'", p.text);

    int k = keyword_index(word);
    char dashed[96];
    int camel = camel_to_dashed(word, dashed, sizeof dashed);
    if (k < 0 && camel)
        k = keyword_index(dashed);
    if (k < 0) {
        if (!cubic_only && (strstr(word, "spring") != NULL || strstr(word, "Spring") != NULL))
            return perr(&p, "unknown easing '%s': an easing is not a spring (write a "
                        "{\"spring\": ...} value for one); the easings that overshoot like one "
                        "are ease-out-back, ease-out-elastic and ease-out-bounce (and their "
                        "ease-in and ease-in-out forms)", word);
        size_t nk = cubic_only ? N_CUBIC_KEYWORDS : N_KEYWORDS;
        /* easeOutBounc: as ease-out-bounc */
        const char *dym = camel ? rf_did_you_mean(dashed, easing_keywords, nk) : NULL;
        if (dym == NULL)
            dym = rf_did_you_mean(word, easing_keywords, nk);
        if (dym)
            return perr(&p, "unknown easing '%s' (did you mean '%s'?)", word, dym);
        if (cubic_only)
            return only_cubic_error(&p);
        return perr(&p, "unknown easing '%s'", word);
    }
    if (cubic_only && k >= N_CUBIC_KEYWORDS)
        return only_cubic_error(&p);

    if (k == 0) {
        rf_easing_init_linear(e);
    } else if (k <= 4) {
        const double *c = css_ease_points[k - 1];
        rf_easing_init_cubic(e, c[0], c[1], c[2], c[3], cubic_only);
    } else if (k == 5 || k == 6) {
        memset(e, 0, sizeof *e);
        e->kind = RF_EASE_STEPS;
        e->n = 1;
        e->sub = k == 5 ? RF_JUMP_START : RF_JUMP_END;
    } else {
        memset(e, 0, sizeof *e);
        e->kind = RF_EASE_PENNER;
        e->sub = (uint8_t)(k - N_CSS_KEYWORDS);
    }
    return 0;
}
