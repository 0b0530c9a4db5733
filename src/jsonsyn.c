/* jsonsyn.c - one-pass, non-recursive JSON syntax check (RFC 8259).
 *
 * A state machine over the bytes with an explicit stack of open containers,
 * so deep input can never overflow the C stack. It is stricter than RFC 8259
 * in two places, both limits of cJSON that would otherwise surface as a bare
 * "parse failed": numbers longer than 63 characters (cJSON copies a number
 * into a 64-byte buffer) and the escape \u0000 (cJSON's strings are
 * NUL-terminated). A leading UTF-8 byte order mark is accepted.
 */
#include "jsonsyn.h"

#include "loc.h"
#include "suggest.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Deepest nesting the scanner can track; a larger max_depth is clamped. */
#define JSONSYN_STACK 1024
/* cJSON's parse_number() buffer is 64 bytes including the NUL. */
#define JSONSYN_MAX_NUMBER 63

typedef struct scan {
    const unsigned char *s;
    size_t len;
    const char *text;
    rf_json_error_t *err;
} scan_t;

void rf_json_position(const char *text, size_t off, int *line, int *col)
{
    rf_loc_t loc = rf_loc_at(text, off, off);
    *line = loc.line;
    *col = loc.col;
}

static int fail(scan_t *sc, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(scan_t *sc, size_t off, const char *fmt, ...)
{
    if (sc->err != NULL) {
        sc->err->loc = rf_loc_at(sc->text, sc->len, off);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sc->err->reason, sizeof sc->err->reason, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A short quoted description of the byte(s) at off for messages. */
static const char *describe(const scan_t *sc, size_t off, char *buf, size_t cap)
{
    unsigned c = sc->s[off];
    if (c == 0)
        snprintf(buf, cap, "a NUL byte");
    else if (c < 0x20 || c == 0x7F)
        snprintf(buf, cap, "control character U+%04X", c);
    else if (c < 0x80)
        snprintf(buf, cap, "'%c'", (int)c);
    else {
        size_t n = rf_utf8_len(sc->s, off, sc->len);
        if (n == 0)
            snprintf(buf, cap, "invalid UTF-8 byte 0x%02X", c);
        else
            snprintf(buf, cap, "'%.*s'", (int)n, sc->text + off);
    }
    return buf;
}

static int is_word(unsigned c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

static int hexval(unsigned c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (int)(c - 'A' + 10);
    return -1;
}

/* Four hex digits at s[i]; -1 when absent. */
static long hex4(const scan_t *sc, size_t i)
{
    if (sc->len - i < 4)
        return -1;
    long v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(sc->s[i + (size_t)k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Scans the string opening at *pi; on success *pi is past its close. */
static int scan_string(scan_t *sc, size_t *pi)
{
    const unsigned char *s = sc->s;
    size_t start = *pi, i = start + 1;
    char d[48];
    for (;;) {
        /* printable ASCII but the quote and the backslash: most of a scene */
        while (i < sc->len && s[i] >= 0x20 && s[i] < 0x7F && s[i] != '"' && s[i] != '\\')
            i++;
        if (i >= sc->len)
            return fail(sc, start, "unterminated string");
        unsigned c = s[i];
        if (c == '"') {
            *pi = i + 1;
            return 0;
        }
        if (c == '\\') {
            if (i + 1 >= sc->len)
                return fail(sc, start, "unterminated string");
            unsigned e = s[i + 1];
            if (strchr("\"\\/bfnrt", (int)e) != NULL && e != 0) {
                i += 2;
                continue;
            }
            if (e != 'u') {
                if (e < 0x20 || e >= 0x7F)
                    return fail(sc, i, "invalid escape in a string: '\\' followed by %s",
                                describe(sc, i + 1, d, sizeof d));
                return fail(sc, i, "invalid escape '\\%c' in a string", (int)e);
            }
            long u = hex4(sc, i + 2);
            if (u < 0)
                return fail(sc, i, "invalid \\u escape: expected 4 hex digits");
            if (u == 0)
                return fail(sc, i, "\\u0000 (a NUL character) is not allowed in strings");
            if (u >= 0xDC00 && u <= 0xDFFF)
                return fail(sc, i, "invalid \\u escape: \\u%04lX is a lone low surrogate", u);
            if (u >= 0xD800 && u <= 0xDBFF) {
                long lo = -1;
                if (sc->len - i >= 12 && s[i + 6] == '\\' && s[i + 7] == 'u')
                    lo = hex4(sc, i + 8);
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail(sc, i, "invalid \\u escape: high surrogate \\u%04lX is not "
                                "followed by a low surrogate", u);
                i += 12;
                continue;
            }
            i += 6;
            continue;
        }
        if (c == '\n' || c == '\r')
            return fail(sc, start, "unterminated string (a line break in a string "
                        "must be written \\n)");
        if (c < 0x20)
            return fail(sc, i, "raw control character U+%04X in a string: write it "
                        "as an escape (\\u%04X)", c, c);
        if (c >= 0x80) {
            size_t n = rf_utf8_len(s, i, sc->len);
            if (n == 0)
                return fail(sc, i, "invalid UTF-8 byte 0x%02X in a string", c);
            i += n;
            continue;
        }
        i++;
    }
}

static int is_digit(unsigned c)
{
    return c >= '0' && c <= '9';
}

/* Scans the number starting at *pi (a '-' or a digit). */
static int scan_number(scan_t *sc, size_t *pi)
{
    const unsigned char *s = sc->s;
    size_t start = *pi, i = start, len = sc->len;
    if (s[i] == '-') {
        i++;
        if (i >= len || !is_digit(s[i])) {
            if (len - i >= 8 && memcmp(s + i, "Infinity", 8) == 0)
                return fail(sc, start, "-Infinity is not a JSON number: every number must be "
                            "finite");
            if (len - i >= 3 && memcmp(s + i, "NaN", 3) == 0)
                return fail(sc, start, "-NaN is not a JSON number: every number must be finite");
            return fail(sc, start, "invalid number: expected a digit after '-'");
        }
    }
    if (s[i] == '0') {
        i++;
        if (i < len && is_digit(s[i]))
            return fail(sc, start, "invalid number: leading zeros are not allowed");
    } else {
        while (i < len && is_digit(s[i]))
            i++;
    }
    if (i < len && s[i] == '.') {
        i++;
        if (i >= len || !is_digit(s[i]))
            return fail(sc, start, "invalid number: expected a digit after '.'");
        while (i < len && is_digit(s[i]))
            i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= len || !is_digit(s[i]))
            return fail(sc, start, "invalid number: expected a digit in the exponent");
        while (i < len && is_digit(s[i]))
            i++;
    }
    /* "12px", "1.2.3", "1-2": one bad token, not a number then a stray byte */
    if (i < len && (is_word(s[i]) || s[i] == '.' || s[i] == '+' || s[i] == '-')) {
        size_t e = i;
        while (e < len && e - start < 40 &&
               (is_word(s[e]) || s[e] == '.' || s[e] == '+' || s[e] == '-'))
            e++;
        return fail(sc, start, "invalid number '%.*s'", (int)(e - start),
                    sc->text + start);
    }
    if (i - start > JSONSYN_MAX_NUMBER)
        return fail(sc, start, "number too long: at most %d characters are supported",
                    JSONSYN_MAX_NUMBER);
    *pi = i;
    return 0;
}

/* A bare word where a value belongs: true/false/null or an error. */
static int scan_word(scan_t *sc, size_t *pi)
{
    const unsigned char *s = sc->s;
    size_t start = *pi, e = start;
    while (e < sc->len && is_word(s[e]))
        e++;
    size_t n = e - start;
    const char *w = sc->text + start;
    if ((n == 4 && memcmp(w, "true", 4) == 0) || (n == 5 && memcmp(w, "false", 5) == 0) ||
        (n == 4 && memcmp(w, "null", 4) == 0)) {
        *pi = e;
        return 0;
    }
    if ((n == 3 && memcmp(w, "NaN", 3) == 0) || (n == 8 && memcmp(w, "Infinity", 8) == 0))
        return fail(sc, start, "%.*s is not a JSON number: every number must be finite",
                    (int)n, w);
    if ((n == 4 && (memcmp(w, "True", 4) == 0 || memcmp(w, "TRUE", 4) == 0)) ||
        (n == 5 && (memcmp(w, "False", 5) == 0 || memcmp(w, "FALSE", 5) == 0)) ||
        (n == 4 && (memcmp(w, "Null", 4) == 0 || memcmp(w, "NULL", 4) == 0)))
        return fail(sc, start, "invalid literal '%.*s': JSON literals are lowercase "
                    "(true, false, null)", (int)n, w);
    if (n > 40)
        n = 40;
    char word[48];
    memcpy(word, w, n);
    word[n] = '\0';
    static const char *const literals[] = { "true", "false", "null" };
    const char *dym = rf_did_you_mean(word, literals, 3);
    if (dym != NULL)
        return fail(sc, start, "invalid literal '%s' (did you mean '%s'?)", word, dym);
    return fail(sc, start, "invalid literal '%s' (strings need double quotes)", word);
}

enum {
    EXP_VALUE,          /* a value: top level, after ':' or after ',' in an array */
    EXP_VALUE_OR_CLOSE, /* just after '[' */
    EXP_KEY,            /* after ',' in an object */
    EXP_KEY_OR_CLOSE,   /* just after '{' */
    EXP_COLON,          /* after a key */
    EXP_COMMA_OR_CLOSE, /* after a member or an element */
    EXP_END,            /* after the top-level value */
};

int rf_json_check(const char *text, size_t len, int max_depth, rf_json_error_t *err)
{
    scan_t sc = { (const unsigned char *)text, len, text, err };
    const unsigned char *s = sc.s;
    unsigned char kind[JSONSYN_STACK];   /* '{' or '[' */
    size_t open_at[JSONSYN_STACK];
    int depth = 0;
    int st = EXP_VALUE;
    size_t comma = 0;                    /* where the last ',' was */
    size_t i = 0;
    char d[48];

    if (max_depth > JSONSYN_STACK)
        max_depth = JSONSYN_STACK;
    if (max_depth < 1)
        max_depth = 1;
    if (err != NULL) {
        err->loc.off = 0;
        err->loc.line = 0;
        err->loc.col = 0;
        err->reason[0] = '\0';
    }
    if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        i = 3;

    for (;;) {
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
            i++;
        if (i >= len) {
            if (st == EXP_END)
                return 0;
            if (depth == 0) {
                size_t k = (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) ? 3 : 0;
                for (; k < len; k++)
                    if (s[k] != ' ' && s[k] != '\t' && s[k] != '\n' && s[k] != '\r')
                        break;
                return fail(&sc, len, k >= len ? "empty file: expected a JSON object"
                                               : "unexpected end of file: expected a value");
            }
            int ol, oc;
            rf_json_position(text, open_at[depth - 1], &ol, &oc);
            return fail(&sc, len, "unexpected end of file: the %s opened at line %d, "
                        "column %d is not closed",
                        kind[depth - 1] == '{' ? "object" : "array", ol, oc);
        }
        unsigned c = s[i];
        if (c == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*'))
            return fail(&sc, i, "comments are not allowed in JSON");
        if (c >= 0x80 && rf_utf8_len(s, i, len) == 0)
            return fail(&sc, i, "invalid UTF-8 byte 0x%02X", c);

        switch (st) {
        case EXP_VALUE:
        case EXP_VALUE_OR_CLOSE:
            if (c == '{' || c == '[') {
                if (depth >= max_depth)
                    return fail(&sc, i, "nesting too deep: more than %d levels of "
                                "objects and arrays", max_depth);
                kind[depth] = (unsigned char)c;
                open_at[depth] = i;
                depth++;
                i++;
                st = c == '{' ? EXP_KEY_OR_CLOSE : EXP_VALUE_OR_CLOSE;
                continue;
            }
            if (c == ']' && st == EXP_VALUE_OR_CLOSE) {
                depth--;
                i++;
                break;       /* the array is a complete value */
            }
            if (c == ']' && depth > 0 && kind[depth - 1] == '[')
                return fail(&sc, comma, "trailing comma before ']'");
            if (c == '"') {
                if (scan_string(&sc, &i) != 0)
                    return -1;
                break;
            }
            if (c == '-' || is_digit(c)) {
                if (scan_number(&sc, &i) != 0)
                    return -1;
                break;
            }
            if (is_word(c)) {
                if (scan_word(&sc, &i) != 0)
                    return -1;
                break;
            }
            if (c == '+')
                return fail(&sc, i, "invalid number: a leading '+' is not allowed");
            if (c == '.')
                return fail(&sc, i, "invalid number: a leading '.' needs a digit before it");
            if (c == '\'')
                return fail(&sc, i, "strings must use double quotes, not single quotes");
            if (depth > 0 && kind[depth - 1] == '{')
                return fail(&sc, i, "expected a value after ':', got %s",
                            describe(&sc, i, d, sizeof d));
            return fail(&sc, i, "expected a value, got %s", describe(&sc, i, d, sizeof d));

        case EXP_KEY:
        case EXP_KEY_OR_CLOSE:
            if (c == '"') {
                if (scan_string(&sc, &i) != 0)
                    return -1;
                st = EXP_COLON;
                continue;
            }
            if (c == '}') {
                if (st == EXP_KEY)
                    return fail(&sc, comma, "trailing comma before '}'");
                depth--;
                i++;
                break;
            }
            if (is_word(c) || c == '\'')
                return fail(&sc, i, "object keys must be strings in double quotes");
            return fail(&sc, i, "expected a string key in double quotes, got %s",
                        describe(&sc, i, d, sizeof d));

        case EXP_COLON:
            if (c == ':') {
                i++;
                st = EXP_VALUE;
                continue;
            }
            return fail(&sc, i, "expected ':' after an object key, got %s",
                        describe(&sc, i, d, sizeof d));

        case EXP_COMMA_OR_CLOSE: {
            int obj = kind[depth - 1] == '{';
            if (c == ',') {
                comma = i;
                i++;
                st = obj ? EXP_KEY : EXP_VALUE;
                continue;
            }
            if (c == (obj ? '}' : ']')) {
                depth--;
                i++;
                break;
            }
            int starts_value = c == '"' || c == '{' || c == '[' || c == '-' ||
                               is_word(c);
            return fail(&sc, i, "expected ',' or '%c' after an %s, got %s%s",
                        obj ? '}' : ']', obj ? "object member" : "array element",
                        describe(&sc, i, d, sizeof d),
                        starts_value ? " (missing ','?)" : "");
        }

        case EXP_END:
        default:
            if (c == 0)
                return fail(&sc, i, "unexpected NUL byte after the end of the JSON value");
            return fail(&sc, i, "unexpected %s after the end of the JSON value",
                        describe(&sc, i, d, sizeof d));
        }
        /* a value just ended */
        st = depth == 0 ? EXP_END : EXP_COMMA_OR_CLOSE;
    }
}
